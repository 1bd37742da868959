"""mul_mod (ntt_cy/modular.py): factors of every integer dtype against Python ints, and
their conversion to lanes without a fresh temporary."""
import tracemalloc

import numpy as np
import pytest

import ntt_cy


def python_products(a, b, m):
    a, b = np.broadcast_arrays(np.asarray(a, dtype=object), np.asarray(b, dtype=object))
    return [int(x) * int(y) % m for x, y in zip(a.ravel(), b.ravel())]


@pytest.mark.parametrize("m", [12289, 998244353, 2**32 - 5, 2**61 - 1])
@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32, np.int16])
def test_integer_factors_of_any_dtype_reduce_exactly(m, dtype):
    rng = np.random.default_rng(m % 97)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, (3, 500), dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, 500, dtype=dtype, endpoint=True)
    a[0, :4] = [0, 1, info.max, info.min]
    b[:3] = [info.max, info.min, 0]
    originals = a.copy(), b.copy()
    got = ntt_cy.mul_mod(a, b, m)
    assert got.dtype == (np.uint32 if m < 2**32 else np.uint64)
    assert got.ravel().tolist() == python_products(a, b, m)
    assert ntt_cy.mul_mod(a, a, m).ravel().tolist() == python_products(a, a, m)
    assert np.array_equal(a, originals[0]) and np.array_equal(b, originals[1])


def test_in_range_and_out_of_range_int64_rows_give_the_same_residues():
    # in range: the one-pass narrowing; a value outside: the reducing conversion
    m = 998244353
    rng = np.random.default_rng(3)
    a = rng.integers(0, m, 4096)
    b = rng.integers(0, m, 4096)
    want = python_products(a, b, m)
    assert ntt_cy.mul_mod(a, b, m).tolist() == want
    a2, b2 = a.copy(), b.copy()
    a2[-1] += 5 * m
    b2[7] -= 3 * m
    assert ntt_cy.mul_mod(a2, b2, m).tolist() == want
    assert ntt_cy.mul_mod(a, b, m, out=a) is a and a.tolist() == want


@pytest.mark.parametrize("m, dtype", [(998244353, np.int64), (998244353, np.uint64),
                                      (2**61 - 1, np.int64), (998244353, np.int32)])
def test_converted_factors_allocate_nothing_but_the_result(m, dtype):
    # the factors' lanes go to per-thread scratch buffers: a fresh temporary each call
    # is faulted in again once glibc trims the heap (int64 factors of 2^16 values took
    # ten times as long as uint32 ones)
    rng = np.random.default_rng(4)
    a = rng.integers(0, min(m, np.iinfo(dtype).max), 1 << 16, dtype=dtype)
    b = rng.integers(0, min(m, np.iinfo(dtype).max), 1 << 16, dtype=dtype)
    want = ntt_cy.mul_mod(a, b, m, workers=1)
    tracemalloc.start()
    try:
        got = ntt_cy.mul_mod(a, b, m, workers=1)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(got, want)
    assert peak < 1.5 * got.nbytes, (peak, got.nbytes)


@pytest.fixture
def small_scratch(monkeypatch):
    """A 64 KiB scratch limit: factors above it convert piece by piece."""
    from ntt_cy._support import pieces
    monkeypatch.setattr(pieces, "SCRATCH_LIMIT_BYTES", 1 << 16)
    monkeypatch.setattr("ntt_cy.modular.SCRATCH_LIMIT_BYTES", 1 << 16)


@pytest.mark.parametrize("m", [998244353, 2**61 - 1])
def test_factors_beyond_the_scratch_limit_convert_piece_by_piece(m, small_scratch,
                                                                 scratch_requests):
    from ntt_cy import modular
    rng = np.random.default_rng(5)
    n = 50_000
    a = rng.integers(-2**62, 2**62, n)
    b = rng.integers(0, m, n)
    a[-3:] = [m, -m, -1]
    want = python_products(a, b, m)
    shapes = scratch_requests(modular)
    for workers in (1, 2):
        shapes.clear()
        assert ntt_cy.mul_mod(a, b, m, workers=workers).tolist() == want
        if m < 2**32:   # (int64 factors on uint64 lanes are views: nothing converted)
            sizes = [int(np.prod(shape)) for slot, shape in shapes if slot == "factor_b"]
            assert len(sizes) > 1 and sum(sizes) == n and max(sizes) * 4 <= 1 << 16
    assert ntt_cy.mul_mod(a, a, m).tolist() == python_products(a, a, m)
    c = a.copy()
    assert ntt_cy.mul_mod(c, b, m, out=c) is c and c.tolist() == want
