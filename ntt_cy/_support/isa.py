"""The one place that decides which kernel build runs.

setup.py compiles the same kernel source (ntt_cy/_kernels/build.pxi) four times:
`build_portable` (portable x86-64 baseline, or whatever the target is), `build_avx2`,
`build_avx512_noifma` (AVX-512 F, DQ, BW, VL) and `build_avx512` (the same and IFMA)
(x86-64 only).  At import, the widest build this CPU supports is chosen, unless
NTT_CY_ISA=portable|avx2|avx512_noifma|avx512 forces one (an unsupported or missing
choice raises ImportError rather than crashing with an illegal instruction).

A fifth build, `build_avx512_emulated`, compiles the AVX-512 bodies on a model
of their intrinsics (simd/emulated_avx512.h) for AVX2 CPUs: never chosen by
default (it is slower than every real build), only by NTT_CY_ISA=avx512_emulated,
so the tests can check the AVX-512 code bit for bit on machines without AVX-512.
"""
from __future__ import annotations

import importlib
import importlib.util
import os

from ntt_cy._support.cpu import cpu_features

ISAS = ("avx512", "avx512_noifma", "avx2", "portable")
# CPU features each build needs: build_avx512 is compiled with -mavx512ifma (IFMA
# Montgomery), so AVX-512 CPUs without IFMA (Skylake-SP, Cascade Lake) get
# build_avx512_noifma, the same kernels with uint64 Montgomery on R = 2^64.
REQUIRES = {"avx512": {"avx512", "avx512ifma"}, "avx512_noifma": {"avx512"},
            "avx2": {"avx2"}, "portable": set(),
            "avx512_emulated": {"avx2"}}
EMULATED = "avx512_emulated"
_MODULES = {isa: f"ntt_cy._kernels.build_{isa}" for isa in REQUIRES}


def _runnable(isa, features) -> bool:
    """Whether the build `isa` is compiled and this CPU (its `features`) can run it."""
    if not REQUIRES[isa] <= features:
        return False
    try:
        importlib.import_module(_MODULES[isa]) if isa == "portable" else _find(isa)
    except ImportError:
        return False
    return True


def supported_isas() -> list:
    """Kernel builds that are both compiled and runnable on this CPU, widest first."""
    features = set(cpu_features())
    return [isa for isa in ISAS if _runnable(isa, features)]


def checkable_isas() -> list:
    """supported_isas(), plus the emulated AVX-512 build where the real one cannot run
    and the emulated one can: every kernel body this CPU can execute."""
    out = supported_isas()
    if "avx512" not in out and _runnable(EMULATED, set(cpu_features())):
        out.append(EMULATED)
    return out


def _find(isa):
    spec = importlib.util.find_spec(_MODULES[isa])
    if spec is None:
        raise ImportError(isa)
    return spec


def load(isa: str):
    """The kernel module for `isa` (checked against the CPU before importing it)."""
    if isa not in REQUIRES:
        raise ValueError(f"unknown ISA {isa!r}: choose one of {ISAS + (EMULATED,)}")
    missing = REQUIRES[isa] - set(cpu_features())
    if missing:
        raise ImportError(f"this CPU does not support {isa} (missing: {', '.join(sorted(missing))})")
    return importlib.import_module(_MODULES[isa])


def _choose():
    forced = os.environ.get("NTT_CY_ISA", "").strip().lower()
    if forced:
        return forced, load(forced)
    isa = supported_isas()[0]
    return isa, load(isa)


ACTIVE_ISA, kernels = _choose()
