"""Host-side tests of the CUDA path (no GPU needed; never skipped except the nvcc build
test where nvcc is absent).

tests/cuda/host_harness.cpp is compiled with g++ against the __host__ __device__ headers of
ntt_cy/cuda.  Its t_* entry points check every arithmetic helper and butterfly against
Python integers at the edges of their ranges; its emu_* entry points run every kernel's
block program serially, so `HostBackend` below executes the exact launch sequences the GPU
backend would issue (twiddle generation, transform passes, bit reversal, CRT load / Garner)
and whole NTTPlan / polymul calls are compared with independent references.
"""
from __future__ import annotations

import ctypes
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
from ntt_cy.cuda import build
import ntt_oracle as reference
from ntt_cy.cuda import _validate
from ntt_cy.cuda.abi import CRT_ARGS, NTT_ARGS, kernel_names
from ntt_cy.cuda.engine import RangeFlag, TransformEngine
from ntt_cy.cuda.modconst import LaneModulus, barrett_mu, mod64_constants
from ntt_cy.cuda.plan import NTTPlan
from ntt_cy.cuda.poly import crt_plan, polymul
from ntt_cy.cuda.schedule import (
    DEFAULT_GEOMETRY,
    Geometry,
    TransformSpec,
    stage_passes,
    twiddle_launches,
)
from ntt_cy.primes import is_prime, ntt_primes, root_of_unity

CUDA_DIR = ROOT / "ntt_cy" / "cuda"
HARNESS_SRC = Path(__file__).resolve().parent / "host_harness.cpp"

M32, M64 = (1 << 32) - 1, (1 << 64) - 1
GOLDILOCKS = (1 << 64) - (1 << 32) + 1
P62 = ntt_primes(62, 20, 1)[0]          # NTT-friendly primes just below 2^62, 2^63, 2^64
P63 = ntt_primes(63, 20, 1)[0]
P64 = ntt_primes(64, 20, 1)[0]
PRIMES32 = [2, 3, 3329, 7340033, 998244353, 2013265921, 2281701377, (1 << 31) - 1, 4294967291]
PRIMES64 = [3, 998244353, 2281701377, 4294967311, 1337006139375617, P62, P63, GOLDILOCKS, P64,
            (1 << 64) - 59]
NTT_PRIMES32 = [3329, 7340033, 998244353, 2013265921, 2281701377]
NTT_PRIMES64 = [998244353, 2281701377, 1337006139375617, P62, P63, GOLDILOCKS, P64]


# ---------------------------------------------------------------------------------------
# Building and loading the harness.
# ---------------------------------------------------------------------------------------

def _compile(out: Path, extra: list) -> subprocess.CompletedProcess:
    cmd = ["g++", "-O1", "-std=c++17", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror",
           "-I", str(CUDA_DIR), *extra, str(HARNESS_SRC), "-o", str(out)]
    return subprocess.run(cmd, capture_output=True, text=True)


def _u(bits):
    return ctypes.c_uint32 if bits == 32 else ctypes.c_uint64


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    if shutil.which("g++") is None:
        # GPU-code tests: a machine with only a C compiler cannot build the C++ harness
        # (CI machines have g++, so CI always runs them).
        pytest.skip("g++ not on PATH: the CUDA host harness is C++")
    out = tmp_path_factory.mktemp("harness") / "cuda_host_harness.so"
    # Undefined-behaviour sanitizer when the toolchain has it (any UB aborts the run).
    proc = _compile(out, ["-fsanitize=undefined", "-fno-sanitize-recover=all"])
    try:
        if proc.returncode:
            raise OSError(proc.stderr)
        lib = ctypes.CDLL(str(out))
    except OSError:
        proc = _compile(out, [])
        assert proc.returncode == 0, proc.stderr
        lib = ctypes.CDLL(str(out))
    P, U64, U32 = ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint32
    for name in kernel_names():
        fn = getattr(lib, "emu_" + name)
        fn.argtypes = [P, U64, U32, U32, U32]
        fn.restype = ctypes.c_int
    lib.record_offset.argtypes = [ctypes.c_int, ctypes.c_char_p]
    lib.record_offset.restype = ctypes.c_long
    for bits in (32, 64):
        W = _u(bits)
        s = str(bits)
        for op in ("add_mod", "sub_mod"):
            getattr(lib, f"t_{op}{s}").argtypes = [P, P, P, U64, W]
        for op in ("reduce_2p", "reduce_4p"):
            getattr(lib, f"t_{op}{s}").argtypes = [P, P, U64, W]
        getattr(lib, f"t_mulhi{s}").argtypes = [P, P, P, U64]
        getattr(lib, f"t_mont_mul{s}").argtypes = [P, P, P, U64, W, W]
        getattr(lib, f"t_shoup_mul_lazy{s}").argtypes = [P, P, P, P, U64, W]
        for fam in ("montgomery", "barrett", "lazy"):
            getattr(lib, f"t_bfly_u{s}_{fam}").argtypes = [P, P, P, P, P, P, P, U64, U32]
    for op in ("reduce_u64_32", "shoup_precompute32"):
        getattr(lib, f"t_{op}").argtypes = [P, P, U64, U32, U64]
    for op in ("mul_mod32", "pow_mod32"):
        getattr(lib, f"t_{op}").argtypes = [P, P, P, U64, U32, U64]
    for op in ("reduce_u64_64", "shoup_precompute64"):
        getattr(lib, f"t_{op}").argtypes = [P, P, U64, U64, U64, U32]
    for op in ("mul_mod64", "pow_mod64"):
        getattr(lib, f"t_{op}").argtypes = [P, P, P, U64, U64, U64, U32]
    lib.t_divrem64.argtypes = [P, P, P, P, U64, U64, U64]
    lib.t_bit_reverse.argtypes = [P, P, P, U64]
    return lib


def _arr(values, bits):
    return np.array([int(v) for v in values], dtype=np.uint32 if bits == 32 else np.uint64)


def _ptr(a):
    return a.ctypes.data


def _edge_values(limit: int, count: int = 200, seed: int = 1) -> list:
    """0, 1, 2, limit-2, limit-1, limit//2 and random values in [0, limit)."""
    rng = random.Random(seed * 1000003 + limit)
    vals = [v for v in (0, 1, 2, limit // 2, limit - 2, limit - 1) if 0 <= v < limit]
    return vals + [rng.randrange(limit) for _ in range(count)]


# ---------------------------------------------------------------------------------------
# Host backend: runs Launch records with the harness emulators.
# ---------------------------------------------------------------------------------------

GUARD = 64


class _HostBuffer:
    def __init__(self, nbytes: int):
        self.raw = np.full(nbytes + 2 * GUARD, 0xEE, dtype=np.uint8)   # garbage, like cudaMalloc
        self.raw[:GUARD] = 0x5A
        self.raw[GUARD + nbytes:] = 0x5A
        self.nbytes = nbytes
        self.ptr = self.raw.ctypes.data + GUARD

    def guards_intact(self) -> bool:
        return bool((self.raw[:GUARD] == 0x5A).all() and (self.raw[GUARD + self.nbytes:] == 0x5A).all())


class HostBackend:
    """The engine backend interface (see ntt_cy/cuda/engine.py) on host memory."""

    def __init__(self, lib, order: int = 0):
        self.lib = lib
        self.order = order
        self.buffers = []
        self.launches = []

    def alloc(self, nbytes):
        buf = _HostBuffer(max(int(nbytes), 1))
        self.buffers.append(buf)
        return buf

    def upload(self, array):
        array = np.ascontiguousarray(array)
        buf = self.alloc(array.nbytes)
        ctypes.memmove(buf.ptr, array.ctypes.data, array.nbytes)
        return buf

    def download(self, ptr, array):
        assert array.flags.c_contiguous
        ctypes.memmove(array.ctypes.data, ptr, array.nbytes)

    def memset_u32(self, ptr, value, count):
        (ctypes.c_uint32 * count).from_address(ptr)[:] = [value] * count

    def copy(self, dst, src, nbytes):
        ctypes.memmove(dst, src, nbytes)

    def read_u32(self, ptr):
        return ctypes.c_uint32.from_address(ptr).value

    def wait_for_stream(self, stream):
        pass

    def launch(self, launch):
        # What a GPU would refuse: the kernels' launch bound, 48 KiB static shared limit.
        assert 32 <= launch.block <= 512 and launch.block % 32 == 0, launch
        assert launch.shared <= 48 * 1024, launch
        assert 1 <= launch.grid < 2 ** 31, launch
        self.launches.append(launch)
        rc = getattr(self.lib, "emu_" + launch.kernel)(launch.args.ctypes.data, launch.grid,
                                                        launch.block, launch.shared, self.order)
        assert rc == 0, f"{launch.kernel} wrote past its shared memory"

    def check(self):
        assert all(b.guards_intact() for b in self.buffers), "a kernel wrote out of bounds"


@pytest.fixture
def host(lib):
    backend = HostBackend(lib)
    yield backend
    backend.check()


# ---------------------------------------------------------------------------------------
# Headers, records, kernel list.
# ---------------------------------------------------------------------------------------

needs_cxx = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ not on PATH")


@needs_cxx
@pytest.mark.parametrize("header", sorted(p.name for p in CUDA_DIR.glob("*.cuh")))
def test_header_is_self_contained_cpp(header, tmp_path):
    src = tmp_path / "inc.cpp"
    src.write_text(f'#include "{header}"\n')
    proc = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror",
                           "-I", str(CUDA_DIR), str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("which, dtype", [(0, NTT_ARGS), (1, CRT_ARGS)])
def test_record_layout_matches_c(lib, which, dtype):
    assert lib.record_offset(which, None) == dtype.itemsize
    for name, (_, offset) in dtype.fields.items():
        assert lib.record_offset(which, name.encode()) == offset, name


def test_kernel_list_matches_sources(lib):
    """abi.kernel_names() is exactly the NTT_CY_KERNELS list (per-width entries twice)."""
    text = (CUDA_DIR / "kernels.cuh").read_text()
    listed = []
    for name in re.findall(r"X\(((?:ntt|crt)_[\w#]*),", text):
        if "##W" in name:
            listed += [re.sub(r"##W(##)?", w, name) for w in ("u32", "u64")]
        else:
            listed.append(name)
    assert sorted(listed) == sorted(kernel_names())
    for name in kernel_names():
        assert hasattr(lib, "emu_" + name)


# ---------------------------------------------------------------------------------------
# Arithmetic helpers against Python ints.
# ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("bits", [32, 64])
def test_mulhi_and_bit_reverse(lib, bits):
    lim = 1 << bits
    a, b = _edge_values(lim, seed=2), _edge_values(lim, seed=3)[::-1]
    n = min(len(a), len(b))
    A, B, out = _arr(a[:n], bits), _arr(b[:n], bits), _arr([0] * n, bits)
    getattr(lib, f"t_mulhi{bits}")(_ptr(A), _ptr(B), _ptr(out), n)
    assert [int(v) for v in out] == [x * y >> bits for x, y in zip(a[:n], b[:n])]
    xs = _arr(_edge_values(1 << 32, seed=4), 32)
    nb = _arr([i % 33 for i in range(len(xs))], 32)
    out = np.zeros_like(xs)
    lib.t_bit_reverse(_ptr(xs), _ptr(nb), _ptr(out), len(xs))
    for x, k, r in zip(xs, nb, out):
        want = int(f"{int(x) & ((1 << int(k)) - 1):0{int(k)}b}"[::-1], 2) if k else 0
        assert int(r) == want


@pytest.mark.parametrize("bits, p", [(32, p) for p in PRIMES32] + [(64, p) for p in PRIMES64])
def test_add_sub_reduce(lib, bits, p):
    a, b = _edge_values(p, seed=5), _edge_values(p, seed=6)[::-1]
    n = min(len(a), len(b))
    A, B, out = _arr(a[:n], bits), _arr(b[:n], bits), _arr([0] * n, bits)
    getattr(lib, f"t_add_mod{bits}")(_ptr(A), _ptr(B), _ptr(out), n, p)
    assert [int(v) for v in out] == [(x + y) % p for x, y in zip(a, b)][:n]
    getattr(lib, f"t_sub_mod{bits}")(_ptr(A), _ptr(B), _ptr(out), n, p)
    assert [int(v) for v in out] == [(x - y) % p for x, y in zip(a, b)][:n]
    for op, factor in (("reduce_2p", 2), ("reduce_4p", 4)):
        if factor * p <= 1 << bits:
            xs = _edge_values(factor * p, seed=7)
            X, out = _arr(xs, bits), _arr([0] * len(xs), bits)
            getattr(lib, f"t_{op}{bits}")(_ptr(X), _ptr(out), len(xs), p)
            assert [int(v) for v in out] == [x % p for x in xs]


@pytest.mark.parametrize("p", PRIMES32 + [4294967295, 65536, 2])
def test_mod32_exact(lib, p):
    mu = barrett_mu(p)
    xs = _edge_values(1 << 64, seed=8) + [M64, p * p - 1, (p - 1) ** 2]
    X, out = _arr(xs, 64), _arr([0] * len(xs), 32)
    lib.t_reduce_u64_32(_ptr(X), _ptr(out), len(xs), p, mu)
    assert [int(v) for v in out] == [x % p for x in xs]
    a = _edge_values(1 << 32, seed=9) + [M32, p - 1]
    b = _edge_values(1 << 32, seed=10)[::-1] + [M32, p - 1]
    n = min(len(a), len(b))
    A, B, out = _arr(a[:n], 32), _arr(b[:n], 32), _arr([0] * n, 32)
    lib.t_mul_mod32(_ptr(A), _ptr(B), _ptr(out), n, p, mu)
    assert [int(v) for v in out] == [x * y % p for x, y in zip(a[:n], b[:n])]
    w = _edge_values(p, seed=11)
    Wa, out = _arr(w, 32), _arr([0] * len(w), 32)
    lib.t_shoup_precompute32(_ptr(Wa), _ptr(out), len(w), p, mu)
    assert [int(v) for v in out] == [(x << 32) // p for x in w]
    base = _edge_values(p, seed=12)
    e = _edge_values(1 << 64, seed=13)[: len(base)]
    Bs, E, out = _arr(base, 32), _arr(e, 64), _arr([0] * len(base), 32)
    lib.t_pow_mod32(_ptr(Bs), _ptr(E), _ptr(out), len(base), p, mu)
    assert [int(v) for v in out] == [pow(x, y, p) for x, y in zip(base, e)]


@pytest.mark.parametrize("p", PRIMES64 + [M64, 1 << 63, (1 << 63) + 1, 2, 1, 1 << 32])
def test_mod64_exact(lib, p):
    norm, dinv = mod64_constants(p)
    d = p << norm
    rng = random.Random(p)
    hi = [0, 1, d - 1, d // 2] + [rng.randrange(d) for _ in range(200)]
    lo = [0, M64, 1, M64 - 1] + [rng.randrange(1 << 64) for _ in range(200)]
    H, L, Q, R = _arr(hi, 64), _arr(lo, 64), _arr([0] * len(hi), 64), _arr([0] * len(hi), 64)
    lib.t_divrem64(_ptr(H), _ptr(L), _ptr(Q), _ptr(R), len(hi), d, dinv)
    for h, low, q, r in zip(hi, lo, Q, R):
        assert divmod((h << 64) | low, d) == (int(q), int(r))
    xs = _edge_values(1 << 64, seed=14) + [M64]
    X, out = _arr(xs, 64), _arr([0] * len(xs), 64)
    lib.t_reduce_u64_64(_ptr(X), _ptr(out), len(xs), p, dinv, norm)
    assert [int(v) for v in out] == [x % p for x in xs]
    a = _edge_values(p, seed=15)                               # a < p, any b
    b = (_edge_values(1 << 64, seed=16) + [M64])[: len(a)]
    A, B, out = _arr(a, 64), _arr(b, 64), _arr([0] * len(a), 64)
    lib.t_mul_mod64(_ptr(A), _ptr(B), _ptr(out), len(a), p, dinv, norm)
    assert [int(v) for v in out] == [x * y % p for x, y in zip(a, b)]
    lib.t_shoup_precompute64(_ptr(A), _ptr(out), len(a), p, dinv, norm)
    assert [int(v) for v in out] == [(x << 64) // p for x in a]
    lib.t_pow_mod64(_ptr(A), _ptr(B), _ptr(out), len(a), p, dinv, norm)
    assert [int(v) for v in out] == [pow(x, y, p) for x, y in zip(a, b)]


@pytest.mark.parametrize("bits, p", [(32, p) for p in PRIMES32 if p & 1] + [(64, p) for p in PRIMES64])
def test_montgomery(lib, bits, p):
    R = 1 << bits
    pinv = pow(p, -1, R)
    a = _edge_values(p, seed=17)                                # a < p, any b < 2^w
    b = (_edge_values(R, seed=18) + [R - 1])[: len(a)]
    A, B, out = _arr(a, bits), _arr(b, bits), _arr([0] * len(a), bits)
    getattr(lib, f"t_mont_mul{bits}")(_ptr(A), _ptr(B), _ptr(out), len(a), p, pinv)
    rinv = pow(R, -1, p)
    assert [int(v) for v in out] == [x * y * rinv % p for x, y in zip(a, b)]


@pytest.mark.parametrize("bits, p", [(32, p) for p in PRIMES32 if 4 * p < 1 << 32]
                         + [(64, p) for p in PRIMES64 if 4 * p < 1 << 64])
def test_shoup_lazy(lib, bits, p):
    R = 1 << bits
    w = _edge_values(p, seed=19)
    x = (_edge_values(R, seed=20) + [R - 1, 4 * p - 1])[: len(w)]
    wq = [(v << bits) // p for v in w]
    X, Wa, WQ, out = _arr(x, bits), _arr(w, bits), _arr(wq, bits), _arr([0] * len(w), bits)
    getattr(lib, f"t_shoup_mul_lazy{bits}")(_ptr(X), _ptr(Wa), _ptr(WQ), _ptr(out), len(w), p)
    for xi, wi, r in zip(x, w, out):
        assert 0 <= int(r) < 2 * p and (int(r) - xi * wi) % p == 0


def _family_twiddle(fam, bits, p, v):
    """(tw, twq) table entries of plain residue v in family form."""
    if fam == "montgomery":
        return v * (1 << bits) % p, 0
    if fam == "lazy":
        return v, (v << bits) // p
    return v, 0


FAMILY_CASES = [(bits, fam, p)
                for bits, primes in ((32, PRIMES32), (64, PRIMES64))
                for p in primes for fam in ("montgomery", "barrett", "lazy")
                if not (fam == "montgomery" and p % 2 == 0) and not (fam == "lazy" and 4 * p >= 1 << bits)]


@pytest.mark.parametrize("bits, fam, p", FAMILY_CASES)
def test_butterflies(lib, bits, fam, p):
    """Every butterfly at the edges of its documented input range: congruent results inside
    the documented output range."""
    rec = np.zeros(1, NTT_ARGS)
    for k, v in LaneModulus(p, bits).fields().items():
        rec[k] = v
    lazy = fam == "lazy"
    fwd_lim, inv_lim = (4 * p, 2 * p) if lazy else (p, p)
    fwd_out, inv_out = (4 * p, 2 * p) if lazy else (p, p)
    rng = random.Random(p + bits)
    tws = _edge_values(p, 150, seed=21)
    tws2 = _edge_values(p, 150, seed=22)[::-1]
    n = len(tws)
    for mode, lim, out_lim in ((0, fwd_lim, fwd_out), (1, inv_lim, inv_out), (2, inv_lim, inv_out)):
        xs = ([0, lim - 1, lim - 1, 0] + [rng.randrange(lim) for _ in range(n)])[:n]
        ys = ([0, lim - 1, 0, lim - 1] + [rng.randrange(lim) for _ in range(n)])[:n]
        X, Y = _arr(xs, bits), _arr(ys, bits)
        T = _arr([_family_twiddle(fam, bits, p, v)[0] for v in tws], bits)
        TQ = _arr([_family_twiddle(fam, bits, p, v)[1] for v in tws], bits)
        T2 = _arr([_family_twiddle(fam, bits, p, v)[0] for v in tws2], bits)
        TQ2 = _arr([_family_twiddle(fam, bits, p, v)[1] for v in tws2], bits)
        getattr(lib, f"t_bfly_u{bits}_{fam}")(_ptr(rec), _ptr(X), _ptr(Y), _ptr(T), _ptr(TQ), _ptr(T2),
                                     _ptr(TQ2), n, mode)
        for x, y, w, w2, rx, ry in zip(xs, ys, tws, tws2, X, Y):
            rx, ry = int(rx), int(ry)
            assert 0 <= rx < out_lim and 0 <= ry < out_lim, (mode, x, y, rx, ry)
            if mode == 0:
                want = ((x + w * y) % p, (x - w * y) % p)
            elif mode == 1:
                want = ((x + y) % p, (x - y) * w % p)
            else:
                want = ((x + y) * w % p, (x - y) * w2 % p)
            assert (rx % p, ry % p) == want, (mode, x, y, w)
    for mode, lim in ((3, fwd_out), (4, inv_out)):       # finish: back to [0, p)
        xs = _edge_values(lim, seed=23)
        X = _arr(xs, bits)
        getattr(lib, f"t_bfly_u{bits}_{fam}")(_ptr(rec), _ptr(X), _ptr(X), None, None, None, None,
                                              len(xs), mode)
        assert [int(v) for v in X] == [x % p for x in xs]


# ---------------------------------------------------------------------------------------
# Twiddle tables generated by the twiddle kernels.
# ---------------------------------------------------------------------------------------

def _expected_table(n, p, kind, inverse):
    root = root_of_unity(2 * n if kind == "negacyclic" else n, p)
    if inverse:
        root = pow(root, -1, p)
    table = [pow(n, -1, p) if inverse else 1]
    for j in range(1, n):
        s = j.bit_length() - 1
        i = j - (1 << s)
        b = int(f"{i:0{s}b}"[::-1], 2) if s else 0
        u = n >> (s + 1)
        v = pow(root, (2 * b + 1) * u if kind == "negacyclic" else b * u, p)
        if inverse and j == 1:
            v = v * pow(n, -1, p) % p
        table.append(v)
    return table


@pytest.mark.parametrize("bits, p, fam", [(bits, p, fam) for bits, p in ((32, 998244353), (32, 2281701377),
                                                                     (64, GOLDILOCKS), (64, P62))
                                          for fam in ("montgomery", "barrett", "lazy")
                                          if fam != "lazy" or 4 * p < 1 << bits])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_twiddle_tables(host, bits, p, fam, kind):
    n = 64
    root = root_of_unity(2 * n if kind == "negacyclic" else n, p)
    spec = TransformSpec.create(n, p, bits, fam, kind, root)
    dt = np.uint32 if bits == 32 else np.uint64
    for inverse in (False, True):
        tw, twq = np.zeros(n, dt), np.zeros(n, dt)
        for launch in twiddle_launches(spec, _ptr(tw), _ptr(twq), inverse,
                                       Geometry(elementwise_per_block=16)):
            host.launch(launch)
        want = _expected_table(n, p, kind, inverse)
        got_tw = [int(v) for v in tw]
        assert got_tw == [_family_twiddle(fam, bits, p, v)[0] for v in want]
        if fam == "lazy":
            assert [int(v) for v in twq] == [_family_twiddle(fam, bits, p, v)[1] for v in want]


# ---------------------------------------------------------------------------------------
# Whole transforms through NTTPlan on the host backend.
# ---------------------------------------------------------------------------------------

def _families(p, bits):
    fams = ["barrett"]
    if p & 1:
        fams.append("montgomery")
    if 4 * p < 1 << bits:
        fams.append("lazy")
    return fams


TRANSFORM_CASES = [(bits, p, fam) for bits, primes in ((32, NTT_PRIMES32), (64, NTT_PRIMES64))
                   for p in primes for fam in _families(p, bits)]


@pytest.mark.parametrize("bits, p, fam", TRANSFORM_CASES)
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_plan_matches_dft(host, bits, p, fam, kind):
    rng = np.random.default_rng(p % 1000 + bits)
    dtype = np.uint32 if bits == 32 else np.uint64
    for n in (1, 2, 4, 8, 32):
        plan = NTTPlan(n, p, dtype=dtype, kind=kind, reduction=fam, _backend=host)
        rows = 3
        a = np.array([[int(x) for x in rng.integers(0, p, n, dtype=np.uint64) % p] for _ in range(rows)],
                     dtype=dtype)
        a[0] = p - 1                                       # all-(p-1) row
        A = plan.forward(a)
        assert A.dtype == dtype and A.shape == a.shape
        want = np.array([reference.dft(row, p, kind) for row in a], dtype=dtype)
        np.testing.assert_array_equal(A, want)
        Ab = plan.forward(a, bit_reversed=True)
        np.testing.assert_array_equal(Ab, want[:, reference.bit_reverse_permutation(n)])
        np.testing.assert_array_equal(plan.inverse(A), a)
        np.testing.assert_array_equal(plan.inverse(Ab, bit_reversed=True), a)


@pytest.mark.parametrize("bits, p, fam", [(32, 2013265921, "montgomery"), (32, 998244353, "lazy"),
                                          (32, 2281701377, "barrett"), (64, GOLDILOCKS, "montgomery"),
                                          (64, P62, "lazy"), (64, P64, "barrett")])
def test_multipass_geometry(lib, bits, p, fam):
    """Tiny tiles force many passes (big-stride passes with column tiles) on small n."""
    geom = Geometry(tile_log_u32=3, tile_log_u64=3, min_cols_log_u32=1, min_cols_log_u64=1,
                    max_threads=64, elementwise_per_block=64)
    dtype = np.uint32 if bits == 32 else np.uint64
    rng = np.random.default_rng(7)
    for kind in ("cyclic", "negacyclic"):
        for log_n in (4, 5, 7, 9):
            n = 1 << log_n
            assert len(stage_passes(log_n, bits // 8, geom)) >= 2
            backend = HostBackend(lib, order=2)
            root = root_of_unity(2 * n if kind == "negacyclic" else n, p)
            eng = TransformEngine(TransformSpec.create(n, p, bits, fam, kind, root), backend, geom)
            a = (rng.integers(0, 1 << 62, (2, n), dtype=np.uint64) % p).astype(dtype)
            buf = backend.upload(a)
            eng.forward(buf.ptr, buf.ptr, 2)
            got = np.empty_like(a)
            backend.download(buf.ptr, got)
            np.testing.assert_array_equal(got, reference.ntt_fast(a, p, kind).astype(dtype))
            eng.inverse(buf.ptr, buf.ptr, 2)
            backend.download(buf.ptr, got)
            np.testing.assert_array_equal(got, a)
            backend.check()


@pytest.mark.parametrize("bits, p", [(32, 998244353), (64, 1337006139375617)])
def test_default_geometry_two_passes(lib, bits, p):
    """Past one tile (2^13 uint32 / 2^12 uint64): two passes and the tiled bit reversal."""
    log_n = 14 if bits == 32 else 13
    assert len(stage_passes(log_n, bits // 8, DEFAULT_GEOMETRY)) == 2
    n = 1 << log_n
    dtype = np.uint32 if bits == 32 else np.uint64
    backend = HostBackend(lib)
    plan = NTTPlan(n, p, dtype=dtype, kind="negacyclic", _backend=backend)
    a = (np.random.default_rng(3).integers(0, 1 << 62, n, dtype=np.uint64) % p).astype(dtype)
    A = plan.forward(a)
    np.testing.assert_array_equal(A, reference.ntt_fast(a, p, "negacyclic").astype(dtype))
    np.testing.assert_array_equal(plan.inverse(A), a)
    assert any(l.kernel.startswith("ntt_bitrev_tiled") for l in backend.launches)
    backend.check()


def test_thread_order_independent(lib):
    """Each phase gives the same result whatever order its threads run in."""
    p, n = 998244353, 1 << 10
    a = (np.arange(3 * n, dtype=np.uint64) * 7919 % p).astype(np.uint32).reshape(3, n)
    results = []
    for order in (0, 1, 2, 3):
        backend = HostBackend(lib, order)
        plan = NTTPlan(n, p, reduction="lazy", _backend=backend)
        results.append(plan.forward(a))
        np.testing.assert_array_equal(plan.inverse(results[-1]), a)
        backend.check()
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])


def test_batched_axis_and_out(host):
    p = 7340033
    plan = NTTPlan(16, p, _backend=host)
    a = np.random.default_rng(5).integers(0, p, (2, 16, 3)).astype(np.int64)
    moved = np.moveaxis(a, 1, -1)
    A = plan._apply(a, None, False, False, axis=1)
    want = np.array([[reference.dft(moved[i, j], p) for j in range(3)] for i in range(2)])
    np.testing.assert_array_equal(np.moveaxis(A, 1, -1), want)
    out = np.empty((2, 16, 3), dtype=np.uint32)
    assert plan._apply(a, out, False, False, axis=1) is out
    np.testing.assert_array_equal(out, A)


def test_plan_pickles_by_its_parameters(host):
    import pickle

    from ntt_cy.cuda import _driver

    p = 998244353
    plan = NTTPlan(64, p, kind="negacyclic", reduction="lazy", _backend=host)
    make, args = plan.__reduce__()
    assert args == (NTTPlan, 64, p, "uint32", "negacyclic", "lazy", plan.root)
    twin = args[0](*args[1:3], dtype=args[3], kind=args[4], reduction=args[5], root=args[6],
                   _backend=host)
    a = np.random.default_rng(7).integers(0, p, (3, 64)).astype(np.uint32)
    np.testing.assert_array_equal(twin.forward(a), plan.forward(a))
    data = pickle.dumps(plan)           # no device resources in the pickle
    if not _driver.is_available():
        with pytest.raises(_driver.CudaUnavailableError):
            pickle.loads(data)


def test_range_flag(host):
    """Device inputs are range-checked inside the first pass (and in the CRT load)."""
    p, n = 998244353, 64
    root = root_of_unity(n, p)
    eng = TransformEngine(TransformSpec.create(n, p, 32, "montgomery", "cyclic", root), host)
    for bad, bit_reversed in ((False, False), (True, False), (True, True)):
        a = np.arange(2 * n, dtype=np.uint32)
        if bad:
            a[77] = p
        buf = host.upload(a)
        flag = RangeFlag(host)
        eng.inverse(buf.ptr, buf.ptr, 2, bit_reversed=bit_reversed, flag=flag.ptr)
        assert flag.raised() == bad
        flag = RangeFlag(host)
        eng.forward(host.upload(a).ptr, buf.ptr, 2, flag=flag.ptr)
        assert flag.raised() == bad


# ---------------------------------------------------------------------------------------
# Products over any modulus.
# ---------------------------------------------------------------------------------------

POLY_MODULI = [1, 2, 6, 3329, 7340033, 998244353, 1 << 31, 2281701377, 4294967291, 4294967296,
               1337006139375617, (1 << 61) - 1, GOLDILOCKS, (1 << 64) - 59, M64]


@pytest.mark.parametrize("m", POLY_MODULI)
def test_polymul(host, m):
    rng = random.Random(m)
    for la, lb, kind in ((1, 1, "linear"), (1, 6, "linear"), (7, 3, "linear"), (16, 16, "linear"),
                         (5, 5, "cyclic"), (8, 8, "negacyclic"), (9, 9, "negacyclic")):
        a = [rng.randrange(m) for _ in range(la)]
        b = [rng.randrange(m) for _ in range(lb)]
        a[0] = m - 1
        b[-1] = m - 1
        dt = np.uint32 if m <= 1 << 32 else np.uint64
        got = polymul(np.array(a, dtype=dt), np.array(b, dtype=dt), m, kind=kind, _backend=host)
        assert got.dtype == dt
        assert [int(v) for v in got] == reference.polymul(a, b, m, kind), (la, lb, kind)


def test_polymul_batched_and_paths(host):
    m = 998244353
    a = np.random.default_rng(1).integers(0, m, (2, 3, 40))
    b = np.random.default_rng(2).integers(0, m, (2, 3, 25))
    got = polymul(a, b, m, _backend=host)
    assert got.shape == (2, 3, 64)
    for i in range(2):
        for j in range(3):
            assert list(map(int, got[i, j])) == reference.polymul(a[i, j], b[i, j], m)
    assert crt_plan(m, 6, 25)[0].primes == (m,)                          # one prime
    assert len(crt_plan((1 << 64) - 59, 17, 1 << 16)[0].primes) == 5     # 2*64 + 16 bits


def test_polymul_reduces_any_input(lib):
    """As on the CPU, inputs are taken modulo m: by the host checks for numpy inputs and by
    the load kernel for raw uint32 / uint64 rows (device inputs)."""
    from ntt_cy.cuda.engine import PolymulEngine

    backend = HostBackend(lib)
    for m in (1, 7, 1 << 40, (1 << 64) - 59):
        crt, bits = crt_plan(m, 3, 4)
        eng = PolymulEngine(crt, 3, bits, tuple("montgomery" for _ in crt.primes),
                            tuple(root_of_unity(8, q) for q in crt.primes), backend)
        a = np.array([M64, 2, 1 << 63, m], dtype=np.uint64)
        b = np.array([3, M64 - 1, 5, 7], dtype=np.uint64)
        da, db, out = backend.upload(a), backend.upload(b), backend.alloc(8 * 7)
        eng.run(da.ptr, "u64", 4, db.ptr, "u64", 4, 1, out.ptr, "u64", 7, "linear")
        got = np.empty(7, dtype=np.uint64)
        backend.download(out.ptr, got)
        assert [int(v) for v in got] == reference.polymul(a, b, m), m
        got = polymul(np.array([-1, 5, 2 ** 70], dtype=object), np.array([-3, 4]), m, _backend=backend)
        assert [int(v) for v in got] == reference.polymul([-1, 5, 2 ** 70], [-3, 4], m)
    backend.check()


# ---------------------------------------------------------------------------------------
# Argument checks (same rules and messages as the CPU path).
# ---------------------------------------------------------------------------------------

def test_plan_argument_errors(host):
    with pytest.raises(ValueError, match="not prime"):
        NTTPlan(8, 15, _backend=host)
    with pytest.raises(ValueError, match="power of two"):
        NTTPlan(12, 998244353, _backend=host)
    with pytest.raises(ValueError, match="does not divide"):
        NTTPlan(1 << 24, 7340033, _backend=host)
    with pytest.raises(ValueError, match="does not divide"):
        NTTPlan(256, 3329, kind="negacyclic", _backend=host)
    with pytest.raises(ValueError, match="lazy"):
        NTTPlan(8, 2281701377, reduction="lazy", _backend=host)
    with pytest.raises(ValueError, match="montgomery"):
        NTTPlan(1, 2, reduction="montgomery", _backend=host)
    with pytest.raises(ValueError, match="kind"):
        NTTPlan(8, 998244353, kind="bogus", _backend=host)
    with pytest.raises(ValueError, match="reduction"):
        NTTPlan(8, 998244353, reduction="bogus", _backend=host)
    with pytest.raises(ValueError):
        NTTPlan(8, GOLDILOCKS, dtype=np.uint32, _backend=host)
    assert NTTPlan(8, 2281701377, reduction="lazy", dtype=np.uint64, _backend=host).reduction == "lazy"
    assert NTTPlan(1, 2, _backend=host).reduction == "barrett"
    assert NTTPlan(8, 998244353, _backend=host).dtype == np.uint32
    assert NTTPlan(8, GOLDILOCKS, _backend=host).dtype == np.uint64


def test_input_errors(host):
    p = 998244353
    plan = NTTPlan(8, p, _backend=host)
    with pytest.raises(TypeError):
        plan.forward(np.zeros(8, dtype=np.float64))
    with pytest.raises(TypeError):
        plan.forward(np.zeros(8, dtype=bool))
    with pytest.raises(TypeError):
        plan.forward(np.zeros(8, dtype=complex))
    with pytest.raises(TypeError):
        plan.forward(np.array([object()] * 8))
    with pytest.raises(ValueError, match=re.escape("outside [0, p)")):
        plan.forward(np.full(8, p))
    with pytest.raises(ValueError, match=re.escape("outside [0, p)")):
        plan.inverse(np.full(8, -1))
    with pytest.raises(ValueError, match="empty"):
        plan.forward(np.zeros((0, 8), dtype=np.uint32))
    with pytest.raises(ValueError, match="length"):
        plan.forward(np.zeros(16, dtype=np.uint32))
    assert list(polymul(np.array([5, -1]), np.array([1]), 5, _backend=host)) == [0, 4]
    assert polymul(np.array([3]), np.array([3]), 1 << 32, _backend=host).dtype == np.uint32
    with pytest.raises(ValueError, match="broadcast"):
        polymul(np.ones((2, 3), int), np.ones((3, 3), int), 5, _backend=host)
    with pytest.raises(TypeError):
        polymul(np.array([0.5]), np.array([1]), 5, _backend=host)
    with pytest.raises(ValueError, match="empty"):
        polymul(np.array([], dtype=np.int64), np.array([1]), 5, _backend=host)
    with pytest.raises(ValueError, match="same length"):
        polymul(np.array([1, 2]), np.array([1]), 5, kind="cyclic", _backend=host)
    with pytest.raises(ValueError, match="modulus"):
        polymul(np.array([1]), np.array([1]), 1 << 64, _backend=host)


def test_module_functions_check_before_needing_a_gpu():
    import ntt_cy.cuda as nc

    with pytest.raises(TypeError):
        nc.ntt(np.zeros(8, dtype=np.float32), 998244353)
    with pytest.raises(ValueError, match="empty"):
        nc.ntt(np.zeros(0, dtype=np.uint32), 998244353)
    with pytest.raises(ValueError, match="not prime"):
        nc.NTTPlan(8, 998244351)
    assert _validate.lane_dtype(1 << 32) == np.uint64
    a = np.arange(16, dtype=np.uint32)
    read_only = np.empty(16, dtype=np.uint32)
    read_only.flags.writeable = False
    for fn in (nc.ntt, nc.intt):                 # out= as the CPU checks it
        with pytest.raises(ValueError, match="shape"):
            fn(a, 998244353, out=np.empty(8, dtype=np.uint32))
        with pytest.raises(TypeError, match="dtype"):
            fn(a, 998244353, out=np.empty(16, dtype=np.uint64))
        with pytest.raises(ValueError, match="read-only"):
            fn(a, 998244353, out=read_only)
        buf = np.arange(24, dtype=np.uint32)
        with pytest.raises(ValueError, match="overlaps"):
            fn(buf[:16], 998244353, out=buf[8:])
        with pytest.raises(ValueError, match="power of two"):   # the length first, as the CPU
            fn(np.arange(12, dtype=np.uint32), 998244353, out=np.empty(8, dtype=np.uint32))


# ---------------------------------------------------------------------------------------
# Device compilation (nvcc) and the prebuilt-module logic.
# ---------------------------------------------------------------------------------------

needs_nvcc = pytest.mark.skipif(shutil.which("nvcc") is None, reason="nvcc not on PATH")


@needs_nvcc
@pytest.mark.parametrize("arch", ["80", "90"])
def test_nvcc_cubin(tmp_path, arch):
    out = tmp_path / f"ntt_sm{arch}.cubin"
    proc = subprocess.run(build.nvcc_command(out, [arch], kind="cubin"), capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    data = out.read_bytes()
    for name in kernel_names():
        assert name.encode() + b"\0" in data, name


@needs_nvcc
def test_nvcc_fatbin_and_amalgamated_source(tmp_path):
    path = build.build_fatbin(tmp_path)
    assert path.stat().st_size > 0
    assert (tmp_path / "ntt.fatbin.sha256").read_text().strip() == build.source_digest()
    src = tmp_path / "amalgamated.cu"           # what SourceModule compiles at run time
    src.write_text(build.amalgamated_source())
    assert "#include \"" not in src.read_text()
    proc = subprocess.run(["nvcc", *build.NVCC_FLAGS, "-cubin", "-arch=sm_90", "-o",
                           str(tmp_path / "a.cubin"), str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def test_prebuilt_fatbin_requires_current_stamp():
    stamp = build.FATBIN.with_name(build.FATBIN.name + ".sha256")
    if build.FATBIN.exists() and stamp.exists() and stamp.read_text().strip() == build.source_digest():
        assert build.prebuilt_fatbin() == build.FATBIN
    else:
        assert build.prebuilt_fatbin() is None


def test_primes_used_in_tests():
    assert all(is_prime(p) for p in PRIMES32 + PRIMES64)
    assert P62 < 1 << 62 < P63 < 1 << 63 < P64


# ---------------------------------------------------------------------------------------
# The PyCUDA glue (_driver, device arrays, GPUArray results) against a stand-in for PyCUDA
# whose kernels are the harness emulators: every call ntt_cy.cuda makes into PyCUDA
# (contexts, module loading, prepare / prepared_call with the packed record, memory pool,
# copies, memsets, events) runs on the host.
# ---------------------------------------------------------------------------------------

class _FakePyCuda:
    """Minimal pycuda.driver / compiler / tools / gpuarray modelled on PyCUDA 2026.1."""

    def __init__(self, lib, memory_limit=1 << 30):
        import struct
        import types

        fake = self
        self.lib, self.memory_limit, self.stack, self.launches, self.compiled = lib, memory_limit, [], [], []
        drv = types.ModuleType("pycuda.driver")

        class Error(Exception):
            pass

        class MemoryError_(Error):
            pass

        class Context:
            def __init__(self):
                self.handle = 0xC0FFEE

            def push(self):
                fake.stack.append(self)

            @staticmethod
            def pop():
                fake.stack.pop()

            @staticmethod
            def get_current():
                return fake.stack[-1] if fake.stack else None

            @staticmethod
            def synchronize():
                assert fake.stack, "no current context"

            def detach(self):
                pass

        class Device:
            def __init__(self, ordinal):
                self.ordinal = ordinal

            @staticmethod
            def count():
                return 1

            def retain_primary_context(self):
                return Context()

        class Function:
            def __init__(self, name):
                self.name, self.arg_format = name, None

            def prepare(self, arg_types):
                self.arg_format = "".join(arg_types)
                return self

            def prepared_call(self, grid, block, *args, shared_size=0):
                assert fake.stack, "launch without a current context"
                blob = struct.pack(self.arg_format, *args)
                dtype = CRT_ARGS if self.name.startswith("crt_") else NTT_ARGS
                record = np.frombuffer(blob, dtype=dtype).copy()
                assert len(blob) == record.dtype.itemsize
                fake.launches.append(self.name)
                emulate = getattr(fake.lib, "emu_" + self.name)
                rc = emulate(record.ctypes.data, grid[0], block[0], shared_size, 2)
                assert rc == 0

        class Module:
            def get_function(self, name):
                if name not in kernel_names():
                    raise Error(f"named symbol not found: {name}")
                return Function(name)

        class Event:
            def record(self, stream=None):
                pass

            def synchronize(self):
                pass

            def time_till(self, other):
                return 1.0

        def module_from_file(path):
            raise Error("device kernel image is invalid")     # forces the SourceModule path

        buffers = {}

        class Allocation:
            def __init__(self, nbytes):
                if nbytes > fake.memory_limit:
                    raise MemoryError_("cuMemAlloc failed: out of memory")
                self.buf = np.empty(nbytes, dtype=np.uint8)
                buffers[self.buf.ctypes.data] = self.buf

            def __int__(self):
                return self.buf.ctypes.data

            __index__ = __int__

        class DeviceMemoryPool:
            def allocate(self, nbytes):
                assert fake.stack, "allocation without a current context"
                return Allocation(nbytes)

            def free_held(self):
                pass

        def memcpy_htod(dst, src):
            src = np.ascontiguousarray(src)
            ctypes.memmove(int(dst), src.ctypes.data, src.nbytes)

        def memcpy_dtoh(dst, src):
            ctypes.memmove(dst.ctypes.data, int(src), dst.nbytes)

        def memcpy_dtod_async(dst, src, size, stream=None):
            ctypes.memmove(int(dst), int(src), size)

        def memset_d32_async(dst, value, count, stream=None):
            (ctypes.c_uint32 * count).from_address(int(dst))[:] = [value] * count

        for name, obj in dict(Error=Error, MemoryError=MemoryError_, Context=Context, Device=Device,
                              Event=Event, module_from_file=module_from_file,
                              memcpy_htod=memcpy_htod, memcpy_dtoh=memcpy_dtoh,
                              memcpy_dtod_async=memcpy_dtod_async,
                              memset_d32_async=memset_d32_async, init=lambda: None,
                              mem_get_info=lambda: (0, fake.memory_limit)).items():
            setattr(drv, name, obj)

        compiler = types.ModuleType("pycuda.compiler")

        def SourceModule(source, no_extern_c=False, options=None):   # noqa: N802
            assert no_extern_c and '#include "' not in source
            fake.compiled.append(options)
            return Module()

        compiler.SourceModule = SourceModule
        tools = types.ModuleType("pycuda.tools")
        tools.DeviceMemoryPool = DeviceMemoryPool
        gpuarray = types.ModuleType("pycuda.gpuarray")

        class GPUArray:
            def __init__(self, shape, dtype, allocator=None, base=None, gpudata=None):
                self.shape, self.dtype = tuple(shape), np.dtype(dtype)
                self.gpudata = allocator(int(np.prod(self.shape)) * self.dtype.itemsize)

            @property
            def __cuda_array_interface__(self):
                return {"shape": self.shape, "typestr": self.dtype.str, "data": (int(self.gpudata), False),
                        "strides": _c_strides(self.shape, self.dtype.itemsize), "stream": None,
                        "version": 3}

            def get(self):
                out = np.empty(self.shape, self.dtype)
                memcpy_dtoh(out, self.gpudata)
                return out

        def to_gpu(ary, allocator=None):
            arr = GPUArray(ary.shape, ary.dtype, allocator or Allocation)
            memcpy_htod(arr.gpudata, ary)
            return arr

        gpuarray.GPUArray, gpuarray.to_gpu = GPUArray, to_gpu
        pkg = types.ModuleType("pycuda")
        pkg.driver, pkg.compiler, pkg.tools, pkg.gpuarray = drv, compiler, tools, gpuarray
        self.modules = {"pycuda": pkg, "pycuda.driver": drv, "pycuda.compiler": compiler,
                        "pycuda.tools": tools, "pycuda.gpuarray": gpuarray}


def _c_strides(shape, itemsize):
    strides, step = [], itemsize
    for d in reversed(shape):
        strides.append(step)
        step *= d
    return tuple(reversed(strides))


@pytest.fixture
def fake_pycuda(lib, monkeypatch):
    import ntt_cy.cuda as nc
    from ntt_cy.cuda import _driver, poly

    fake = _FakePyCuda(lib)
    for name, module in fake.modules.items():
        monkeypatch.setitem(sys.modules, name, module)

    def clear():
        _driver._reset()
        nc._plans.clear()
        poly._engines.clear()

    clear()
    yield fake
    clear()
    assert not fake.stack, "a context was left pushed"


def test_pycuda_glue(fake_pycuda):
    import ntt_cy.cuda as nc

    assert nc.is_available()
    p = 998244353
    a = (np.arange(3 * 1024, dtype=np.uint64) * 12345 % p).astype(np.uint32).reshape(3, 1024)
    A = nc.ntt(a, p, kind="negacyclic")
    np.testing.assert_array_equal(A, reference.ntt_fast(a, p, "negacyclic").astype(np.uint32))
    np.testing.assert_array_equal(nc.intt(A, p, kind="negacyclic"), a)
    assert fake_pycuda.compiled and not fake_pycuda.stack
    assert "ntt_fwd_u32_montgomery" in fake_pycuda.launches and "ntt_bitrev_tiled_u32" in fake_pycuda.launches
    with nc.device_context():
        da = fake_pycuda.modules["pycuda.gpuarray"].to_gpu(a)
    plan = nc.NTTPlan(1024, p, kind="negacyclic", reduction="lazy")
    dA = plan.forward(da)
    np.testing.assert_array_equal(dA.get(), A)
    assert plan.inverse(dA, out=da) is da
    np.testing.assert_array_equal(da.get(), a)
    bad = a.copy()
    bad[2, 5] = p
    with nc.device_context():
        dbad = fake_pycuda.modules["pycuda.gpuarray"].to_gpu(bad)
    with pytest.raises(ValueError, match=re.escape("outside [0, p)")):
        plan.forward(dbad)
    m = (1 << 64) - 59
    x, y = np.array([m - 1, 2, 3], dtype=np.uint64), np.array([m - 2, 5], dtype=np.uint64)
    want = reference.polymul(x, y, m)
    assert [int(v) for v in nc.polymul(x, y, m)] == want
    with nc.device_context():
        dx = fake_pycuda.modules["pycuda.gpuarray"].to_gpu(x)
        dy = fake_pycuda.modules["pycuda.gpuarray"].to_gpu(y)
    assert [int(v) for v in nc.polymul(dx, dy, m).get()] == want
    fake_pycuda.memory_limit = 1 << 12
    with pytest.raises(MemoryError, match="out of memory"):
        nc.ntt(np.zeros((4, 1024), dtype=np.uint32), p)


def test_package_functions_pass_root_and_lanes_to_the_gpu(fake_pycuda):
    """ntt_cy.ntt / intt with backend="cuda" use the caller's root and lanes, as the CPU
    path does (same results, same dtype)."""
    import ntt_cy

    p = 998244353
    a = (np.arange(2 * 256, dtype=np.uint64) * 7919 % p).reshape(2, 256)
    root = pow(ntt_cy.primes.root_of_unity(256, p), 3, p)   # another primitive 256-th root
    for kind in ("cyclic", "negacyclic"):
        r = pow(ntt_cy.primes.root_of_unity(512, p), 5, p) if kind == "negacyclic" else root
        want = ntt_cy.ntt(a, p, kind=kind, root=r, dtype=np.uint64)
        got = ntt_cy.ntt(a, p, kind=kind, root=r, dtype=np.uint64, workers=1, backend="cuda")
        assert got.dtype == np.uint64
        np.testing.assert_array_equal(got, want)
        back = ntt_cy.intt(got, p, kind=kind, root=r, dtype=np.uint64, backend="cuda")
        assert back.dtype == np.uint64
        np.testing.assert_array_equal(back, a)


def test_bench_runs_on_the_glue(fake_pycuda):
    from ntt_cy.bench import gpu

    r = gpu.bench_forward(1 << 12, 4, repeat=1, warmup=1)
    assert r["passes"] == 1 and r["ntt_seconds"] > 0 and r["ratio"] > 0
    assert gpu.bench_polymul(64, repeat=1, warmup=1) > 0
    assert gpu.bench_polymul(64, on_device=True, repeat=1, warmup=1) > 0


def test_bench_lengths_are_transform_lengths_of_its_prime():
    """Every length `python -m ntt_cy.bench.gpu` times has a transform mod its prime
    (2^24 once ran mod 998244353, whose transforms stop at 2^23)."""
    import ntt_cy.cuda as nc
    from ntt_cy.bench import gpu

    logs = [log_n for _, log_n in gpu.FORWARD_SHAPES] + list(gpu.CROSSOVER_LOG_SIZES)
    assert max(logs) == 24
    for log_n in logs:
        try:
            nc.NTTPlan(1 << log_n, gpu.P_LONG)   # ValueError for a length p - 1 lacks
        except nc.CudaUnavailableError:
            pass
    with pytest.raises(SystemExit) as exc:
        gpu.main(["--help"])
    assert exc.value.code == 0


def test_emulated_gpu_path_matches_cpu_package(host):
    """The emulated GPU launch sequences give the CPU package's results bit for bit."""
    try:
        import ntt_cy
        cpu_ntt = ntt_cy.ntt
    except (ImportError, AttributeError) as exc:        # the extension is not built yet
        pytest.xfail(f"CPU package unavailable: {exc}")
    rng = np.random.default_rng(21)
    for p, dtype, kind, n in ((998244353, np.uint32, "cyclic", 1 << 13),
                              (2281701377, np.uint32, "negacyclic", 1 << 11),
                              (GOLDILOCKS, np.uint64, "negacyclic", 1 << 12),
                              (1337006139375617, np.uint64, "cyclic", 1 << 9)):
        a = (rng.integers(0, 1 << 62, (2, n), dtype=np.uint64) % np.uint64(p)).astype(dtype)
        plan = NTTPlan(n, p, dtype=dtype, kind=kind, _backend=host)
        np.testing.assert_array_equal(plan.forward(a), cpu_ntt(a, p, kind=kind))
        np.testing.assert_array_equal(plan.inverse(a), ntt_cy.intt(a, p, kind=kind))
    cpu_polymul = getattr(ntt_cy, "polymul", None)
    if cpu_polymul is not None:
        for m, kind in ((998244353, "linear"), ((1 << 64) - 59, "negacyclic"), (10 ** 9 + 7, "cyclic")):
            a = rng.integers(0, min(m, 1 << 62), (3, 64), dtype=np.uint64)
            b = rng.integers(0, min(m, 1 << 62), (3, 64), dtype=np.uint64)
            np.testing.assert_array_equal(polymul(a, b, m, kind=kind, _backend=host),
                                          cpu_polymul(a, b, m, kind=kind))
