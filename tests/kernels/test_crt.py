"""CRT prime pools, bases and Garner reconstruction (ntt_cy/_crt.py,
ntt_cy/_kernels/crt/garner32.pyx and garner64.pyx).  The cost-based choice of a basis is
tests/test_routing.py's."""
import math
import random

import numpy as np
import pytest

from ntt_cy import _crt as crt
from ntt_cy._crt import MAX_PRIMES, CRTBasis, crt_basis, prime_pool
from ntt_cy.primes import is_prime, two_adicity


@pytest.mark.parametrize("dtype,bits", [(np.uint32, 30), (np.uint64, 62)])
@pytest.mark.parametrize("adicity", [1, 20, 23, 32])
def test_prime_pool(dtype, bits, adicity):
    pool = prime_pool(np.dtype(dtype), adicity)
    assert len(pool) <= MAX_PRIMES
    assert list(pool) == sorted(pool, reverse=True)
    for p in pool:
        assert p < 2**bits and is_prime(p) and two_adicity(p) >= adicity
    if adicity <= 22 or bits == 62:
        assert len(pool) == MAX_PRIMES


def test_prime_pool_runs_out_for_huge_adicity():
    assert prime_pool(np.dtype(np.uint32), 29) == ()


def test_basis_for_one_family():
    b = crt.basis_for(2**100, 20, np.uint32)
    assert b.dtype == np.uint32 and b.k == 4 and b.product > 2**100
    assert crt.basis_for(2**100, 20, np.uint64).k == 2
    assert crt.basis_for(2**2000, 20, np.uint64) is None


def _residues(xs, primes):
    return np.array([[x % p for x in xs] for p in primes], dtype=np.uint64)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("k", [1, 2, 3, 5, 16])
def test_garner_round_trip(dtype, k):
    pool = prime_pool(np.dtype(dtype), 20)
    basis = crt_basis(pool[:k], np.dtype(dtype))
    P = basis.product
    rng = random.Random(k)
    xs = [0, 1, P - 1, P // 2, P - 2] + [rng.randrange(P) for _ in range(200)]
    res = _residues(xs, basis.primes)
    digits = basis.digits(res, 1)
    assert digits.shape == res.shape
    for j, p in enumerate(basis.primes):
        assert int(digits[j].max()) < p
    assert [int(v) for v in basis.to_ints(digits)] == xs
    for m in (1, 2, 3, 2**32, 10**9 + 7, 2**63 - 1, 2**64 - 1, 2147483629 * 2147483587):
        got = basis.reduce(digits, m, 2)
        assert got.dtype == np.uint64
        assert [int(v) for v in got] == [x % m for x in xs], m
    # in place (out=residues) gives the same digits
    again = res.copy()
    assert np.array_equal(basis.digits(again, 2, out=again), digits)


@pytest.mark.parametrize("k", [1, 2, 3, 4, 8, 16])
def test_small_and_general_kernels_agree(k):
    """The uint32 family's 64-bit kernels (garner32) against garner64's general ones on
    the same primes, for moduli taking the one-word and the two-word sums."""
    pool = prime_pool(np.dtype(np.uint32), 20)[:k]
    small = crt_basis(pool, np.dtype(np.uint32))
    general = CRTBasis(pool, np.uint32)
    general.small = False
    general._inv_q = np.array([[(int(c) << 64) // p for c, p in zip(row, pool)]
                               for row in general._inv], dtype=np.uint64)
    rng = random.Random(k)
    P = small.product
    xs = [0, P - 1] + [rng.randrange(P) for _ in range(3000)]
    res = _residues(xs, pool)
    d_small = small.digits(res, 2)
    assert np.array_equal(d_small, general.digits(res, 1))
    for m in (2, 7, 10**9 + 7, 2**32, 2**32 + 15, 2**61 - 1, 2**64 - 59):
        expected = [x % m for x in xs]
        assert [int(v) for v in small.reduce(d_small, m, 2)] == expected, m
        assert [int(v) for v in general.reduce(d_small, m, 1)] == expected, m


@pytest.mark.parametrize("primes,dtype,word", [
    ((998244353, 469762049, 167772161), np.uint32, 32),
    (prime_pool(np.dtype(np.uint64), 32)[:3], np.uint64, 64),
])
def test_basis_constants_and_validation(primes, dtype, word):
    basis = CRTBasis(primes, dtype)
    assert basis.small == (word == 32)
    inv, inv_q = basis._inv, basis._inv_q
    for j, pj in enumerate(basis.primes):
        assert inv[j, j] == 1 and int(inv_q[j, j]) == 2**word // pj
        for i in range(j):
            assert int(inv[i, j]) * basis.primes[i] % pj == 1
            assert int(inv_q[i, j]) == (int(inv[i, j]) << word) // pj
    with pytest.raises(ValueError):
        CRTBasis((7, 7), np.uint32)
    with pytest.raises(ValueError):
        CRTBasis((15,), np.uint32)
    with pytest.raises(ValueError):
        CRTBasis((2**62 + 135,), np.uint64)
    with pytest.raises(ValueError):
        CRTBasis(tuple(prime_pool(np.dtype(np.uint64), 32)) + (7,), np.uint64)


@pytest.mark.parametrize("primes, dtype", [
    ((4611685941117976577, 4611685692009873409), np.uint64),   # 62-bit: garner64's kernels
    ((998244353, 7340033), np.uint32),                         # small: garner32's
])
def test_digits_and_reduce_refuse_what_the_kernels_cannot_take(primes, dtype):
    # out of the wrong size once wrote past its end, other row counts read past the
    # basis' tables, and any thread count reached OpenMP
    b = crt_basis(primes, dtype)
    good = np.zeros((2, 64), np.uint64)
    with pytest.raises(ValueError, match="out has shape"):
        b.digits(good, 1, out=np.zeros((2, 4), np.uint64))
    with pytest.raises(ValueError, match="out has shape"):
        b.reduce(good, 7, 1, out=np.zeros(4, np.uint64))
    for rows in (np.ones((5, 4), np.uint64), np.ones((1, 4), np.uint64), np.ones(4, np.uint64)):
        with pytest.raises(ValueError, match="2 rows"):
            b.digits(rows, 1)
        with pytest.raises(ValueError, match="2 rows"):
            b.reduce(rows, 7, 1)
    for threads in (0, -1, 100000, 1.5, True):
        with pytest.raises(ValueError, match="threads"):
            b.digits(good, threads)
        with pytest.raises(ValueError, match="threads"):
            b.reduce(good, 7, threads)
    for m in (0, -5, 2**64, 7.0):
        with pytest.raises(ValueError, match="1 <= m < 2\\*\\*64"):
            b.reduce(good, m, 1)
    # and the good calls still work: digits of residues, reduced
    x = np.array([[5, 6, 0, primes[0] - 1]], np.uint64)
    residues = np.concatenate([x, np.array([[5, 6, 0, 12]], np.uint64) % np.uint64(primes[1])])
    digits = b.digits(residues, 2)
    assert b.reduce(digits, np.uint64(2**64 - 1), 1).tolist()[:3] == [5, 6, 0]


def test_kernels_refuse_thread_counts_outside_1_to_1024():
    from ntt_cy._kernels.crt import garner32 as _garner32
    from ntt_cy._kernels.crt import garner64 as _garner64

    b = crt_basis((1053818881, 1051721729), np.uint32)
    fused = b.fused_product32(8, 7)
    z32 = np.zeros((1, 4), np.uint32)
    for threads in (0, -3, 1025):
        with pytest.raises(ValueError, match="thread count"):
            fused.run(z32, z32, np.zeros((2, 1, 8), np.uint32), np.zeros((1, 8), np.uint32),
                      np.zeros((1, 7), np.uint32), threads)
        inv, inv_q = b._inv, b._inv_q
        with pytest.raises(ValueError, match="thread count"):
            _garner32.garner_digits32(np.zeros((2, 4), np.uint64), b.primes_array, inv, inv_q,
                                      np.zeros((2, 4), np.uint64), threads)
        big = crt_basis((4611685941117976577, 4611685692009873409), np.uint64)
        with pytest.raises(ValueError, match="thread count"):
            _garner64.garner_digits(np.zeros((2, 4), np.uint64), big.primes_array, big._inv,
                                    big._inv_q, np.zeros((2, 4), np.uint64), threads)
