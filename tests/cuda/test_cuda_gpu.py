"""GPU tests of ntt_cy.cuda: results bit-identical to the Python references and to the CPU
path.  They skip when ntt_cy.cuda.is_available() is False, except the first test, which
checks the behaviour without PyCUDA on any machine.

On a GPU machine without internet, install PyCUDA from the folder tools/gpu_wheels.sh fills:
    PATH=/usr/local/cuda/bin:$PATH pip install --no-index --find-links .whl pycuda
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

import ntt_cy.cuda as nc
from ntt_cy.cuda import _driver
import ntt_oracle as reference
from ntt_cy.primes import ntt_primes

GOLDILOCKS = (1 << 64) - (1 << 32) + 1
P62 = ntt_primes(62, 20, 1)[0]


def test_without_pycuda_raises_cuda_unavailable(monkeypatch):
    """No PyCUDA: importing works, is_available() is False, GPU calls raise
    CudaUnavailableError (argument errors still raise ValueError / TypeError)."""
    monkeypatch.setitem(sys.modules, "pycuda", None)          # makes `import pycuda` fail
    monkeypatch.setitem(sys.modules, "pycuda.driver", None)
    _driver._reset()
    try:
        assert nc.is_available() is False
        with pytest.raises(nc.CudaUnavailableError, match="PyCUDA"):
            nc.NTTPlan(8, 998244353)
        with pytest.raises(nc.CudaUnavailableError):
            nc.ntt(np.arange(8), 998244353)
        with pytest.raises(nc.CudaUnavailableError):
            nc.polymul(np.arange(3), np.arange(4), 10)
        with pytest.raises(ValueError, match="power of two"):
            nc.NTTPlan(6, 998244353)
        assert issubclass(nc.CudaUnavailableError, RuntimeError)
    finally:
        _driver._reset()


gpu = pytest.mark.skipif(not nc.is_available(), reason="no CUDA device / PyCUDA")


def _rand(shape, p, dtype=None, seed=0):
    dtype = dtype or (np.uint32 if p < 1 << 32 else np.uint64)
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 1 << 62, shape, dtype=np.uint64) % np.uint64(p)).astype(dtype)


def _cpu():
    """The CPU API when the compiled package imports, else None."""
    try:
        import ntt_cy

        return ntt_cy if hasattr(ntt_cy, "ntt") else None
    except ImportError:
        return None


CASES = [(998244353, np.uint32, fam) for fam in ("montgomery", "barrett", "lazy")] + [
    (2281701377, np.uint32, "montgomery"), (2281701377, np.uint32, "barrett"),
    (2013265921, np.uint32, "auto"), (2281701377, np.uint64, "lazy"),
    (GOLDILOCKS, np.uint64, "montgomery"), (GOLDILOCKS, np.uint64, "barrett"),
    (1337006139375617, np.uint64, "lazy"), (P62, np.uint64, "lazy"),
]


@gpu
@pytest.mark.parametrize("p, dtype, reduction", CASES)
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_small_against_definition(p, dtype, reduction, kind):
    for n in (1, 2, 8, 64):
        plan = nc.NTTPlan(n, p, dtype=dtype, kind=kind, reduction=reduction)
        a = _rand((3, n), p, dtype, n)
        a[0] = p - 1
        A = plan.forward(a)
        np.testing.assert_array_equal(A, np.array([reference.dft(r, p, kind) for r in a], dtype))
        np.testing.assert_array_equal(plan.inverse(A), a)
        Ab = plan.forward(a, bit_reversed=True)
        np.testing.assert_array_equal(Ab, A[:, reference.bit_reverse_permutation(n)])
        np.testing.assert_array_equal(plan.inverse(Ab, bit_reversed=True), a)


@gpu
@pytest.mark.parametrize("log_n, rows", [(10, 7), (13, 3), (14, 2), (16, 1), (20, 1)])
@pytest.mark.parametrize("p, kind", [(998244353, "cyclic"), (998244353, "negacyclic"),
                                     (GOLDILOCKS, "negacyclic")])
def test_multipass_sizes(log_n, rows, p, kind):
    n = 1 << log_n
    a = _rand((rows, n), p, seed=log_n)
    A = nc.ntt(a, p, kind=kind)
    if log_n <= 14:
        np.testing.assert_array_equal(A, reference.ntt_fast(a, p, kind).astype(A.dtype))
    cpu = _cpu()
    if cpu is not None:
        np.testing.assert_array_equal(A, cpu.ntt(a, p, kind=kind))
    np.testing.assert_array_equal(nc.intt(A, p, kind=kind), a)


@gpu
def test_large_batches_match_cpu():
    cpu = _cpu()
    if cpu is None:
        pytest.skip("the CPU package is not built")
    p = 998244353
    for rows, log_n in ((64, 18), (4096, 12), (1, 24)):
        a = _rand((rows, 1 << log_n), p, seed=rows)
        np.testing.assert_array_equal(nc.ntt(a, p), cpu.ntt(a, p))


@gpu
def test_axis_and_out():
    p = 7340033
    a = _rand((4, 32, 3), p, seed=9)
    A = nc.ntt(a, p, axis=1)
    np.testing.assert_array_equal(np.moveaxis(A, 1, -1), nc.ntt(np.moveaxis(a, 1, -1), p))
    out = np.empty_like(A)
    assert nc.intt(A, p, axis=1, out=out) is out
    np.testing.assert_array_equal(out, a)


@gpu
def test_device_arrays_gpuarray():
    from pycuda import gpuarray

    p, n = 998244353, 1 << 12
    plan = nc.NTTPlan(n, p)
    a = _rand((5, n), p, seed=11)
    with nc.device_context():
        da = gpuarray.to_gpu(a)
    DA = plan.forward(da)
    assert isinstance(DA, gpuarray.GPUArray) and DA.dtype == np.uint32 and DA.shape == a.shape
    with nc.device_context():                   # GPUArray methods need a current context
        np.testing.assert_array_equal(DA.get(), plan.forward(a))
    back = plan.inverse(DA, out=da)             # into the input's memory
    assert back is da
    with nc.device_context():
        np.testing.assert_array_equal(da.get(), a)
    with pytest.raises(TypeError):
        with nc.device_context():
            plan.forward(gpuarray.to_gpu(a.astype(np.uint64)))
    with pytest.raises(ValueError, match="last axis"):
        plan.forward(da, axis=0)


@gpu
def test_device_array_out_of_range_is_reported():
    from pycuda import gpuarray

    p = 998244353
    a = _rand((2, 256), p, seed=12)
    a[1, 100] = p
    with nc.device_context():
        da = gpuarray.to_gpu(a)
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        nc.ntt(da, p)
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        nc.intt(da, p)


@gpu
def test_cupy_arrays():
    cp = pytest.importorskip("cupy")
    p = GOLDILOCKS
    a = _rand((3, 1 << 11), p, seed=13)
    A = nc.ntt(cp.asarray(a), p, kind="negacyclic")
    with nc.device_context():
        np.testing.assert_array_equal(A.get(), nc.ntt(a, p, kind="negacyclic"))


@gpu
@pytest.mark.parametrize("m", [1, 2, 6, 3329, 998244353, 4294967296, 1337006139375617, (1 << 61) - 1,
                               GOLDILOCKS, (1 << 64) - 59, (1 << 64) - 1])
def test_polymul_against_schoolbook(m):
    rng = np.random.default_rng(m % 1000)
    dt = np.uint32 if m <= 1 << 32 else np.uint64
    for la, lb, kind in ((1, 1, "linear"), (7, 3, "linear"), (100, 37, "linear"),
                         (64, 64, "cyclic"), (33, 33, "negacyclic")):
        a = [int(x) % m for x in rng.integers(0, 1 << 63, la, dtype=np.uint64)]
        b = [int(x) % m for x in rng.integers(0, 1 << 63, lb, dtype=np.uint64)]
        got = nc.polymul(np.array(a, dtype=dt), np.array(b, dtype=dt), m, kind=kind)
        assert [int(v) for v in got] == reference.polymul(a, b, m, kind)


@gpu
def test_polymul_large_matches_cpu_and_device_inputs():
    from pycuda import gpuarray

    p, n = 998244353, 131072
    a, b = _rand(n, p, seed=14), _rand(n, p, seed=15)
    c = nc.polymul(a, b, p)
    cpu = _cpu()
    if cpu is not None and hasattr(cpu, "polymul"):
        np.testing.assert_array_equal(c, cpu.polymul(a, b, p))
    else:   # spot-check a few coefficients against the definition
        for k in (0, 1, n - 1, 2 * n - 2):
            lo, hi = max(0, k - n + 1), min(k, n - 1)
            want = sum(int(a[i]) * int(b[k - i]) for i in range(lo, hi + 1)) % p
            assert int(c[k]) == want
    with nc.device_context():
        da, db = gpuarray.to_gpu(a), gpuarray.to_gpu(b)
        np.testing.assert_array_equal(nc.polymul(da, db, p).get(), c)
    m = (1 << 64) - 59                              # CRT path, 5 primes
    x, y = _rand(4096, m, np.uint64, 16), _rand(4096, m, np.uint64, 17)
    got = nc.polymul(x, y, m, kind="negacyclic")
    if cpu is not None and hasattr(cpu, "polymul"):
        np.testing.assert_array_equal(got, cpu.polymul(x, y, m, kind="negacyclic"))


@gpu
def test_plan_pickle_round_trip():
    import copy
    import pickle

    p = 998244353
    plan = nc.NTTPlan(1 << 12, p, kind="negacyclic")
    a = np.random.default_rng(8).integers(0, p, (2, 1 << 12)).astype(np.uint32)
    for twin in (pickle.loads(pickle.dumps(plan)), copy.deepcopy(plan)):
        assert (twin.n, twin.p, twin.kind, twin.reduction) == (plan.n, p, "negacyclic", plan.reduction)
        np.testing.assert_array_equal(twin.forward(a), plan.forward(a))


@gpu
def test_out_of_memory_is_a_clear_error():
    class Huge:
        """A device array the output of which cannot be allocated (1 TiB)."""

        def __init__(self, ptr):
            self.__cuda_array_interface__ = {"shape": (1 << 28, 1 << 10), "typestr": "<u4",
                                             "data": (ptr, False), "strides": None, "version": 3}

    p = 998244353
    with _driver.activated() as backend:
        small = backend.alloc(4)
        with pytest.raises(MemoryError, match="out of memory"):
            nc.NTTPlan(1 << 10, p).forward(Huge(small.ptr))


@gpu
def test_bench_smoke():
    from ntt_cy.bench import gpu

    r = gpu.bench_forward(1 << 12, 16, repeat=2, warmup=1)
    assert r["ntt_seconds"] > 0 and r["copy_seconds"] > 0 and r["passes"] == 1
    assert gpu.bench_polymul(1024, repeat=2, warmup=1) > 0
