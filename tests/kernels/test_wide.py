"""Multi-word coefficients (ntt_cy/_kernels/crt/wide.pyx) and the CRTBasis methods built on them,
against Python ints: every word at 2^64 - 1, the largest primes of both families."""
import math
import random

import numpy as np
import pytest

from ntt_cy import _crt as crt
from ntt_cy import _routing
from ntt_cy._kernels.crt import wide as _wide
from ntt_cy.plan import modulus_constants

U64 = np.uint64
PRIMES = [2, 3, 65537, 998244353, *crt.prime_pool(np.dtype(np.uint32), 20)[:2],
          *crt.prime_pool(np.dtype(np.uint64), 32)[:3], 2**61 - 1, 2**64 - 59]


def barrett(primes):
    return np.array([[c["barrett_d"], c["barrett_v"], c["barrett_shift"]]
                     for c in (modulus_constants(p, np.dtype(U64)) for p in primes)], dtype=U64)


def value(row):
    return sum(int(w) << (64 * t) for t, w in enumerate(row))


@pytest.mark.parametrize("words", [1, 2, 4, 9])
def test_words_mod_primes(words):
    rng = random.Random(words)
    rows = [[rng.getrandbits(64) for _ in range(words)] for _ in range(40)]
    rows += [[2**64 - 1] * words, [0] * words, [1] + [0] * (words - 1),
             [0] * (words - 1) + [2**64 - 1]]
    x = np.array(rows, dtype=U64)
    for threads in (1, 2):
        out = np.full((len(PRIMES), len(rows)), 7, dtype=U64)
        _wide.words_mod_primes(x, np.array(PRIMES, dtype=U64), barrett(PRIMES), out, threads)
        assert out.tolist() == [[value(r) % p for r in rows] for p in PRIMES]


SMALL_PRIMES = [67, 65537, 998244353, 2**31 - 1] + list(crt.prime_pool(np.dtype(np.uint32), 20, 32)[-3:])


@pytest.mark.parametrize("words", [1, 2, 4, 9, 64])
def test_words_mod_small_primes(words):
    # the half-word sums of primes below 2^31: all-ones words (every product and the
    # carries at their largest), primes just above the word count, the largest pool
    # primes; the same residues as words_mod_primes' Horner form
    rng = random.Random(words + 100)
    rows = [[rng.getrandbits(64) for _ in range(words)] for _ in range(40)]
    rows += [[2**64 - 1] * words, [0] * words, [1] + [0] * (words - 1),
             [0] * (words - 1) + [2**64 - 1]]
    x = np.array(rows, dtype=U64)
    primes = [p for p in SMALL_PRIMES if p > words]
    powers = np.array([[pow(2, 32 * s, p) for p in primes] for s in range(2 * words)],
                      np.uint32)
    for threads in (1, 2):
        out = np.full((len(primes), len(rows)), 7, dtype=U64)
        _wide.words_mod_small_primes(x, powers, barrett(primes), out, threads)
        assert out.tolist() == [[value(r) % p for r in rows] for p in primes]
    if words >= 2:   # (the high word reaches words - 1: p = 2 is too small)
        with pytest.raises(ValueError, match="primes above W"):
            _wide.words_mod_small_primes(x, powers[:, :1] * 0, barrett([2]), out[:1], 1)
    with pytest.raises(ValueError, match="powers below 2\\^31"):
        _wide.words_mod_small_primes(x, powers[:, :1] + np.uint32(2**31), barrett(primes[:1]),
                                     out[:1], 1)
    with pytest.raises(ValueError, match="shapes differ"):
        _wide.words_mod_small_primes(x, powers[1:].copy(), barrett(primes), out, 1)
    many = np.ones((2 * words, 65), np.uint32)   # (above MAX_SMALL_PRIMES)
    with pytest.raises(ValueError, match="shapes differ"):
        _wide.words_mod_small_primes(x, many, barrett(primes[:1] * 65),
                                     np.empty((65, len(rows)), U64), 1)


def words_of(values, M):
    return np.array([[(v >> (64 * t)) & (2**64 - 1) for t in range(M)] for v in values],
                    dtype=U64)


@pytest.mark.parametrize("k", [1, 3, 9, 16, 64])
@pytest.mark.parametrize("m", [2, 3, 2**64 - 1, 2**64, 2**64 + 13, 2**128 - 1, 2**254 + 7,
                               2**320 - 1, 3**400])
def test_mixed_radix_mod_multiword(k, m):
    # sum_j v_j W_j mod m, every digit up to 2^64 - 1 and every weight up to m - 1
    rng = random.Random(k * 1000 + m % 997)
    M = -(-m.bit_length() // 64)
    N = 40
    digits = np.array([[rng.getrandbits(64) for _ in range(N)] for _ in range(k)], dtype=U64)
    digits[:, 0] = 2**64 - 1
    digits[:, 1] = 0
    weights = [rng.randrange(m) for _ in range(k)]
    weights[0] = m - 1
    for W in (weights, [m - 1] * k):
        quotients = np.array([(w << 64) // m for w in W], dtype=U64)
        for threads in (1, 2):
            out = np.full((N, M), 99, dtype=U64)
            _wide.mixed_radix_mod_multiword(digits, words_of(W, M), quotients,
                                            words_of([m], M)[0], out, threads)
            want = [sum(int(digits[j, i]) * W[j] for j in range(k)) % m for i in range(N)]
            assert [value(r) for r in out] == want


@pytest.mark.parametrize("M", [1, 2, 5])
def test_ints_from_words(M):
    rng = random.Random(M)
    values = [0, 1, 2**(64 * M) - 1, 2**(64 * M - 1)] + [rng.getrandbits(64 * M) for _ in range(50)]
    got = _wide.ints_from_words(words_of(values, M))
    assert got == values and all(type(v) is int for v in got)
    assert _wide.ints_from_words(np.zeros((0, M), U64)) == []


def test_shapes_and_threads_are_checked():
    with pytest.raises(ValueError, match="shapes differ"):
        _wide.words_mod_primes(np.zeros((3, 2), U64), np.array([7], U64), barrett([7]),
                               np.zeros((1, 4), U64), 1)
    d, w, q, m = np.zeros((2, 3), U64), np.zeros((2, 2), U64), np.zeros(2, U64), np.ones(2, U64)
    with pytest.raises(ValueError, match="shapes differ"):
        _wide.mixed_radix_mod_multiword(d, w, q, m, np.zeros((3, 3), U64), 1)
    with pytest.raises(ValueError, match="shapes differ"):
        _wide.mixed_radix_mod_multiword(d, np.zeros((2, 3), U64), q, m, np.zeros((3, 2), U64),
                                        1)
    with pytest.raises(ValueError, match="top word"):
        _wide.mixed_radix_mod_multiword(d, w, q, np.array([1, 0], U64), np.zeros((3, 2), U64),
                                        1)
    with pytest.raises(ValueError, match="shapes differ"):   # (65 digits: above MAX_TERMS)
        _wide.mixed_radix_mod_multiword(np.zeros((65, 3), U64), np.zeros((65, 2), U64),
                                        np.zeros(65, U64), m, np.zeros((3, 2), U64), 1)
    with pytest.raises(ValueError, match="thread count"):
        _wide.mixed_radix_mod_multiword(d, w, q, m, np.zeros((3, 2), U64), 0)
    with pytest.raises(ValueError, match="a word a value"):
        _wide.ints_from_words(np.zeros((3, 0), U64))


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
@pytest.mark.parametrize("m", [1, 2, 2**64, 2**64 + 13, 2**127 - 1,
                               21888242871839275222246405745257275088548364400416034343698204186575808495617,
                               2**600 - 3])
def test_basis_residues_and_reduce_ints(dtype, m):
    # residues_of_ints: values mod every prime; reduce_ints: Garner digits back to
    # x mod m for x below the primes' product, up to its largest value
    basis = crt.crt_basis(crt.prime_pool(np.dtype(dtype), 20)[:8], np.dtype(dtype))
    rng = random.Random(m % 1000)
    bound = max(m, 2)
    vals = [rng.randrange(bound) for _ in range(30)] + [bound - 1, 0]
    arr = np.array(vals + [None], dtype=object)[:-1].reshape(2, 16)
    res = basis.residues_of_ints(arr, bound, 2)
    assert res.shape == (basis.k, 2, 16)
    assert res.tolist() == [[[v % p for v in row] for row in arr.tolist()] for p in basis.primes]
    xs = [rng.randrange(basis.product) for _ in range(40)] + [basis.product - 1, 0]
    residues = np.array([[x % p for x in xs] for p in basis.primes], dtype=U64)
    digits = basis.digits(residues, 1)
    for threads in (1, 2):
        got = basis.reduce_ints(digits, m, threads)
        assert got.dtype == object and got.tolist() == [x % m for x in xs]
        assert all(type(v) is int for v in got)


@pytest.mark.parametrize("words", [1, 2, 4, 9])
def test_words_of_ints(words):
    # every value's words, up to 2^(64 W) - 1; anything that is not an exact int in
    # [0, 2^(64 W)) is declined
    top = 2 ** (64 * words)
    rng = random.Random(words)
    values = [0, 1, top - 1, 2**63, *(rng.randrange(top) for _ in range(30))]
    out = np.full((len(values), words), 5, dtype=U64)
    assert _wide.words_of_ints(np.array(values + [None], dtype=object)[:-1], out)
    assert [value(r) for r in out] == values
    for bad in (top, -1, -top, True, np.int64(3), np.uint64(3), 2.0, "7", None):
        row = np.array([1, 2, bad, 3] + [None], dtype=object)[:-1]
        assert not _wide.words_of_ints(row, np.empty((4, words), dtype=U64)), bad


class IntSubclass(int):
    pass


def test_exact_ints_below():
    m = 2**254 + 7
    ok = np.array([0, 1, m - 1, 2**200] + [None], dtype=object)[:-1]
    assert _wide.exact_ints_below(ok, m)
    assert _wide.exact_ints_below(ok[:0], m)
    for bad in (m, -1, True, IntSubclass(5), np.int64(5), 1.0, None):
        row = np.array([1, bad, 2] + [None], dtype=object)[:-1]
        assert not _wide.exact_ints_below(row, m), bad


def test_residues_of_ints_refuses_values_out_of_range():
    basis = _routing.choose_basis(2**300, 4)
    good = np.array([3, 2**250] + [None], dtype=object)[:-1]
    assert basis.residues_of_ints(good, 2**251, 1).tolist() == \
        [[3 % p, 2**250 % p] for p in basis.primes]
    for bad in (-1, 2**256, np.int64(2)):
        values = np.array([3, bad] + [None], dtype=object)[:-1]
        with pytest.raises(ValueError, match="exact ints"):
            basis.residues_of_ints(values, 2**251, 1)
