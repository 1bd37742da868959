"""Every kernel build this CPU runs gives bit-identical results (and the right ones)."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

from ntt_cy._support.cpu import cpu_features
from ntt_cy._support import isa as _isa
from ntt_cy._support.isa import ACTIVE_ISA, EMULATED, ISAS, REQUIRES, load, supported_isas, checkable_isas

# Runs in a fresh interpreter per ISA (the build is chosen once, at import).
SCRIPT = r"""
import hashlib, json, sys
import numpy as np
import ntt_cy
from ntt_cy._kernels.active import ACTIVE_ISA
from ntt_cy._support.checks import check_reduction
digests = {}
# 4611686018326724609: 64-bit Shoup (LAZY) near its 4p <= 2^64 bound; 2251799235919873 /
# 2251799394254849: the top of the AVX2 double-precision uint64 range and just above it;
# 2013265921, 2130706433 (BabyBear, KoalaBear): uint32 lazy tables above 2^30, near the
# top of its p < 2^31
for p in (998244353, 2013265921, 2130706433, 2281701377, 7340033, 1337006139375617,
          2**64 - 2**32 + 1, 4611686018326724609, 2251799235919873, 2251799394254849):
    lanes = [np.uint32, np.uint64] if p < 2**32 else [np.uint64]
    for dt in lanes:
        for kind in ("cyclic", "negacyclic"):
            for n in (1, 2, 16, 32, 64, 1024, 2**15, 2**17):
                a = np.random.default_rng(n).integers(0, p, (3, n), dtype=np.uint64).astype(dt)
                a[0] = p - 1
                for fam in ("montgomery", "barrett", "lazy", "goldilocks"):
                    try:
                        check_reduction(fam, p, np.dtype(dt))
                    except ValueError:
                        continue
                    A = ntt_cy.ntt(a, p, kind=kind, reduction=fam, dtype=dt, workers=2)
                    assert np.array_equal(ntt_cy.intt(A, p, kind=kind, reduction=fam, dtype=dt), a)
                    key = f"{p}-{np.dtype(dt).name}-{kind}-{n}-{fam}"
                    digests[key] = hashlib.sha256(A.tobytes()).hexdigest()
for m in (998244353, 1337006139375617, 10**9 + 7, 2**64 - 59, 2**32):
    rng = np.random.default_rng(m % 1000)
    for n in (5, 300, 4096):
        a = rng.integers(0, min(m, 2**63), (2, n), dtype=np.uint64)
        b = rng.integers(0, min(m, 2**63), (2, n), dtype=np.uint64)
        for kind in ("linear", "cyclic", "negacyclic"):
            c = ntt_cy.polymul(a, b, m, kind=kind, workers=2)
            digests[f"polymul-{m}-{n}-{kind}"] = hashlib.sha256(np.ascontiguousarray(c).tobytes()).hexdigest()
print(json.dumps({"isa": ACTIVE_ISA, "digests": digests}))
"""


def run_with_isa(isa):
    env = dict(os.environ, NTT_CY_ISA=isa)
    out = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                         text=True, timeout=600, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_default_is_widest_supported():
    assert supported_isas()[-1] == "portable"
    if "NTT_CY_ISA" not in os.environ:
        assert ACTIVE_ISA == supported_isas()[0]


def test_every_supported_isa_is_bit_identical():
    # checkable_isas: on CPUs without AVX-512, the AVX-512 bodies too (emulated build)
    results = {isa: run_with_isa(isa) for isa in checkable_isas()}
    reference = results["portable"]["digests"]
    assert len(reference) > 100
    for isa, res in results.items():
        assert res["isa"] == isa
        assert res["digests"] == reference, isa


def test_unsupported_or_unknown_isa_is_refused():
    with pytest.raises(ValueError, match="unknown ISA"):
        load("sse9")
    missing = [isa for isa in ISAS if not REQUIRES[isa] <= set(cpu_features())]
    for isa in missing:
        with pytest.raises(ImportError, match="does not support"):
            load(isa)
    env = dict(os.environ, NTT_CY_ISA="sse9")
    proc = subprocess.run([sys.executable, "-c", "import ntt_cy"], env=env, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode != 0 and "unknown ISA" in proc.stderr


def test_avx512_build_is_not_chosen_without_ifma(monkeypatch):
    # build_avx512 executes vpmadd52{l,h}uq (IFMA): on AVX-512 CPUs without IFMA
    # (Skylake-SP, Cascade Lake) choosing it would end in SIGILL; they get the
    # AVX-512 build compiled without IFMA, where it was compiled (x86-64).
    monkeypatch.setattr(_isa, "cpu_features", lambda: ["avx2", "avx512"])
    supported = _isa.supported_isas()
    assert "avx512" not in supported
    with pytest.raises(ImportError, match="missing: avx512ifma"):
        _isa.load("avx512")
    compiled = importlib.util.find_spec("ntt_cy._kernels.build_avx512_noifma") is not None
    assert supported[0] == ("avx512_noifma" if compiled else "portable")
    monkeypatch.setattr(_isa, "cpu_features", lambda: ["avx2"])
    with pytest.raises(ImportError, match="missing: avx512"):
        _isa.load("avx512_noifma")


def test_only_ifma_builds_take_montgomery_on_2_52():
    # uint64 Montgomery has R = 2^52 on IFMA (avx512 and its emulated model), R = 2^64
    # in every other build, avx512_noifma included (the tables follow montgomery_bits).
    for isa in checkable_isas():
        bits = load(isa).montgomery_bits(1337006139375617, 8)
        assert bits == (52 if isa in ("avx512", EMULATED) else 64), isa


def test_emulated_avx512_build_is_checked_but_never_chosen():
    # The AVX-512 bodies on the scalar model of their intrinsics: only when forced.
    # (compiled only with NTT_CY_BUILD_EMULATED=1: the tests cover it where it was built)
    runnable = REQUIRES[EMULATED] <= set(cpu_features()) and \
        importlib.util.find_spec("ntt_cy._kernels.build_avx512_emulated") is not None
    assert EMULATED not in supported_isas()
    if "avx512" in supported_isas():
        assert EMULATED not in checkable_isas()
    else:
        assert (EMULATED in checkable_isas()) == runnable
    if runnable:
        # compiled from the AVX-512 bodies: IFMA Montgomery (R = 2^52) on uint64 lanes,
        # which no other build on this CPU has
        emulated = load(EMULATED)
        assert emulated.montgomery_bits(1337006139375617, 8) == 52
        assert load("avx2").montgomery_bits(1337006139375617, 8) == 64
        env = dict(os.environ, NTT_CY_ISA=EMULATED)
        out = subprocess.run([sys.executable, "-c", "import ntt_cy; ntt_cy.show_config()"],
                             env=env, capture_output=True, text=True, timeout=120, check=True)
        assert f"kernel_isa      : {EMULATED} (forced by NTT_CY_ISA" in out.stdout
