"""The fused CRT reconstruction kernel (ntt_cy/_kernels/crt/garner_rows.pxi) in every build this CPU
runs, against Python-int CRT: ranges at their bounds, block edges, offsets."""
import functools
import math

import numpy as np
import pytest

from ntt_cy import _crt as crt
from ntt_cy._support.isa import checkable_isas, load
from ntt_cy.primes import ntt_primes

POOL = crt.prime_pool(np.uint32, 20)


def python_crt(residues, primes, offset, m):
    """(x - offset) mod m with x = CRT of (r_j + offset) mod p_j over the primes."""
    P, coefficients = crt_coefficients(tuple(primes))
    x = sum((int(r) + offset) % p * c for r, p, c in zip(residues, primes, coefficients))
    return (x % P - offset) % m


@functools.lru_cache(maxsize=None)
def crt_coefficients(primes):
    """P = prod p_j and c_j = (P / p_j) ((P / p_j)^-1 mod p_j): x = sum x_j c_j mod P."""
    P = math.prod(primes)
    return P, [P // p * pow(P // p, -1, p) for p in primes]


def run(isa, products, basis, m, offset, out_dtype):
    k, R, N = products.shape
    L = N - 3 if N > 3 else N
    out = np.empty((R, L), dtype=out_dtype)
    weights, weights_q = basis._shoup_weights(m)
    offsets = np.array([offset % p for p in basis.primes], dtype=np.uint64)
    load(isa).garner32_mod(products, basis.primes_array, basis._inv, basis._inv_q, offsets,
                           m, weights, weights_q, offset % m, out, 1)
    return out


# Primes just below 2^31 (the kernel's limit): above 2^30 the AVX2 body leaves its lazy
# digits (which need 4 p <= 2^32) for the folded ones.  MIXED_POOL: one of them among
# primes below 2^30 (every prime below twice the smallest), so a choice made from one
# prime alone would show.
WIDE_POOL = tuple(ntt_primes(31, 20, 8))
MIXED_POOL = (POOL[0], WIDE_POOL[-1], POOL[1], POOL[2])
POOLS = {"below-2^30": POOL, "below-2^31": WIDE_POOL, "mixed": MIXED_POOL}

# m at the edges of the AVX2 body's variants: lazy sums up to 2^30 (4m <= 2^32), 32-bit
# lanes below 2^31, 64-bit lanes above; and around p_0 / 2, where the lazy body starts
# to take the first digit v_0 < p_0 as it is (it lies in [0, 2m) once p_0 <= 2m).
MODULI = [2, 3, (POOL[0] - 1) // 2, (POOL[0] + 1) // 2, 10**9 + 7, 2**30, 2**30 + 3,
          2**31 - 1, 2**32 - 5, 2**32 - 1]


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("pool,k", [(pool, k) for pool in POOLS for k in (1, 2, 3, 4, 8)
                                    if k <= len(POOLS[pool]) and (pool != "mixed" or k > 1)])
@pytest.mark.parametrize("m", MODULI)
@pytest.mark.parametrize("with_offset", [False, True])
def test_matches_python_crt(isa, pool, k, m, with_offset):
    basis = crt.crt_basis(POOLS[pool][:k], np.uint32)
    assert max(basis.primes) < 2 * min(basis.primes)
    rng = np.random.default_rng(k * 1000 + m % 997 + with_offset)
    # L = N - 3 = 1050: two blocks of 512 and one of 26, which the AVX2 body takes as
    # a pair of 8-coefficient groups, one group and 2 scalar coefficients
    N = 1053
    products = np.stack([rng.integers(0, p, (2, N), dtype=np.uint64).astype(np.uint32)
                         for p in basis.primes])
    products[:, 0, :40] = np.array(basis.primes, dtype=np.uint32)[:, None] - 1   # all p_j - 1
    products[:, 1, :40] = 0
    offset = int(rng.integers(1, 2**62)) % basis.product if with_offset else 0
    for out_dtype in (np.uint32, np.uint64):
        out = run(isa, products, basis, m, offset, out_dtype)
        for r in range(2):
            expected = [python_crt(products[:, r, i], basis.primes, offset, m)
                        for i in range(out.shape[1])]
            assert [int(v) for v in out[r]] == expected


@pytest.mark.parametrize("isa", checkable_isas())
def test_rejects_what_it_cannot_do(isa):
    kernels = load(isa)
    basis = crt.crt_basis(POOL[:3], np.uint32)
    products = np.zeros((3, 1, 8), dtype=np.uint32)
    out = np.empty((1, 8), dtype=np.uint32)
    w, wq = basis._shoup_weights(7)
    args = (basis.primes_array, basis._inv, basis._inv_q, np.zeros(3, np.uint64))
    with pytest.raises(ValueError, match="m < 2\\^32"):
        kernels.garner32_mod(products, *args, 2**32, w, wq, 0, out, 1)
    with pytest.raises(ValueError, match="shapes"):
        kernels.garner32_mod(products, *args, 7, w, wq, 0, np.empty((1, 9), np.uint32), 1)
    small = crt.crt_basis((POOL[0], 7340033, POOL[1]), np.uint32)   # 7340033 < p/2
    sw, swq = small._shoup_weights(7)
    with pytest.raises(ValueError, match="twice the smallest"):
        kernels.garner32_mod(products, small.primes_array, small._inv, small._inv_q,
                             np.zeros(3, np.uint64), 7, sw, swq, 0, out, 1)
    assert not small.fused32(7) and basis.fused32(7) and not basis.fused32(2**32)


def fused_args(kernels, basis, n, m, offset=0, family=None):
    """CRTProduct32's arguments, as CRTBasis.fused_product32 builds them for the active
    build: the primes' tables of length n (the plans' default family, or `family`) and
    the Garner constants for m (garner32_mod's arguments after `products`)."""
    from test_ntt import tables_for
    from ntt_cy.plan import get_plan

    plans = [get_plan(n, p, dtype=np.uint32) for p in basis.primes]
    tables = tuple(tables_for(kernels, plan, family or plan.reduction) for plan in plans)
    weights, weights_q = basis._shoup_weights(m)
    c = basis._mod_constants(m)[0]
    return tables, (basis.primes_array, basis._inv, basis._inv_q, basis._offsets(offset), m,
                    weights, weights_q, offset % m, c["barrett_d"], c["barrett_v"],
                    c["barrett_shift"])


def reconstruct(kernels, products, garner, out):
    """garner32_mod (m < 2^32) or garner32_mod64 of products into out, from fused_args'
    Garner constants."""
    if garner[4] < 2**32:
        kernels.garner32_mod(products, *garner[:8], out, 1)
    else:
        kernels.garner32_mod64(products, *garner[:6], *garner[8:], garner[7], out, 1)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("m", [3, 10**9 + 7, POOL[2] - 1, 2**32 - 5, 2**32, 2**61 - 1,
                               2**64 - 59])
@pytest.mark.parametrize("pool", ["below-2^30", "below-2^31"])
def test_crt_product32_is_padded_products_then_garner(isa, m, pool):
    # one call == padded_product per prime (rows read mod p_j where m > p_j) and then
    # garner32_mod (m < 2^32) or garner32_mod64 (lazy digits below 2^30, folded ones
    # below 2^31); exact against Python ints where that is quick
    kernels = load(isa)
    # primes whose product exceeds the coefficients (n/2 (m - 1)^2 < 2^140 here)
    basis = crt.crt_basis(POOLS[pool][:3 if m <= 2**32 else 5], np.uint32)
    rng = np.random.default_rng(m % 1009)
    for n, family in ((8, None), (256, None), (256, "montgomery"), (1 << 13, None)):
        tables, garner = fused_args(kernels, basis, n, m, offset=12345, family=family)
        fused = kernels.CRTProduct32(tables, *garner)
        for ma, mb in sorted({(n // 2, n // 2), (n // 2 - 3, 1), (1, n // 2)}):
            for src in (np.uint32, np.uint64) if m <= 2**32 else (np.uint64,):
                a = rng.integers(0, m, (2, ma), dtype=np.uint64).astype(src)
                b = rng.integers(0, m, (2, mb), dtype=np.uint64).astype(src)
                a[0, :] = m - 1
                b[1, 0] = m - 1
                for x, y in ((a, b), (a, a)):
                    rows, L = x.shape[0], x.shape[1] + y.shape[1] - 1
                    products = np.empty((basis.k, rows, n), np.uint32)
                    for j, p in enumerate(basis.primes):
                        kernels.padded_product(x, y, products[j], np.empty((rows, n), np.uint32),
                                               tables[j], 1, pow(n, -1, p), m > p)
                    out_dtype = np.uint32 if m < 2**32 else np.uint64
                    want = np.empty((rows, L), out_dtype)
                    reconstruct(kernels, products, garner, want)
                    if n <= 256:
                        exact = [[int(v) for v in np.convolve(x[r].astype(object),
                                                              y[r].astype(object)) % m]
                                 for r in range(rows)]
                        assert want.tolist() == exact
                    for threads in (1, 2):
                        got = np.empty((rows, L), out_dtype)
                        top = fused.run(x, y, np.empty((basis.k, rows, n), np.uint32),
                                        np.empty((rows, n), np.uint32), got, threads)
                        assert top == max(int(x.max()), int(y.max())) == m - 1
                        assert np.array_equal(got, want), (n, family, ma, mb, src, threads)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("m", [10**9 + 7, 2**64 - 59])
def test_crt_product32_reports_values_at_or_above_m(isa, m):
    kernels = load(isa)
    basis = crt.crt_basis(POOL[:3 if m < 2**32 else 5], np.uint32)
    n = 64
    tables, garner = fused_args(kernels, basis, n, m)
    fused = kernels.CRTProduct32(tables, *garner)
    scratch = (np.empty((basis.k, 1, n), np.uint32), np.empty((1, n), np.uint32))
    out = np.zeros((1, 63), np.uint32 if m < 2**32 else np.uint64)
    bads = ((m, np.uint32), (2**32 - 1, np.uint32), (2**40, np.uint64)) if m < 2**32 \
        else ((m, np.uint64), (2**64 - 1, np.uint64))
    for bad, dtype in bads:
        a = np.ones((1, 32), dtype)
        a[0, 17] = bad
        assert fused.run(a, np.ones((1, 32), dtype), *scratch, out, 1) >= m
        assert fused.run(np.ones((1, 32), dtype), a, *scratch, out, 1) >= m


@pytest.mark.parametrize("isa", checkable_isas())
def test_crt_product32_rejects_what_it_cannot_do(isa):
    from test_ntt import tables_for
    from ntt_cy.plan import get_plan

    kernels = load(isa)
    basis = crt.crt_basis(POOL[:3], np.uint32)
    m, n = 10**9 + 7, 64
    good, garner = fused_args(kernels, basis, n, m)
    fused = kernels.CRTProduct32(good, *garner)
    ok = (np.ones((1, 32), np.uint32), np.ones((1, 32), np.uint32),
          np.empty((3, 1, n), np.uint32), np.empty((1, n), np.uint32), np.empty((1, 63), np.uint32))
    for k, bad in ((0, np.ones((1, 33), np.uint32)), (2, np.empty((2, 1, n), np.uint32)),
                   (3, np.empty((1, n // 2), np.uint32)), (4, np.empty((1, n + 1), np.uint32))):
        args = list(ok)
        args[k] = bad
        with pytest.raises(ValueError, match="shapes differ"):
            fused.run(*args, 1)
    negacyclic = get_plan(n, basis.primes[1], dtype=np.uint32, kind="negacyclic")
    wide = get_plan(n, basis.primes[1], dtype=np.uint64)
    for swap in (tables_for(kernels, negacyclic, negacyclic.reduction),     # not cyclic
                 tables_for(kernels, wide, wide.reduction),                 # uint64 lanes
                 good[2],                                                   # another prime
                 tables_for(kernels, get_plan(2 * n, basis.primes[1], dtype=np.uint32),
                            "lazy")):                                       # another length
        with pytest.raises(ValueError, match="CRTProduct32 needs"):
            kernels.CRTProduct32((good[0], swap, good[2]), *garner)
    small = crt.crt_basis((POOL[0], 7340033, POOL[1]), np.uint32)   # 7340033 < p/2
    with pytest.raises(ValueError, match="twice the smallest"):
        kernels.CRTProduct32(good, small.primes_array, small._inv, small._inv_q, *garner[3:])
    wide_tables, wide_garner = fused_args(kernels, basis, n, 2**61 - 1)
    wide = kernels.CRTProduct32(wide_tables, *wide_garner)
    with pytest.raises(ValueError, match="uint64 out"):
        wide.run(*ok, 1)
    with pytest.raises(ValueError, match="offset_m < m"):   # garner32_mod64's checks
        kernels.CRTProduct32(good, *garner[:4], 2**61 - 1, *garner[5:7], 2**61 - 1,
                             *garner[8:])


MODULI64 = [2, 10**9 + 7, 2**32, 2**32 + 15, 2**61 - 1, 2**63 + 1, 2**64 - 59, 2**64 - 1]


def run64(isa, products, basis, m, offset):
    k, R, N = products.shape
    out = np.empty((R, N - 3), dtype=np.uint64)
    c, _, weights, _ = basis._mod_constants(m)
    offsets = np.array([offset % p for p in basis.primes], dtype=np.uint64)
    load(isa).garner32_mod64(products, basis.primes_array, basis._inv, basis._inv_q, offsets,
                             m, weights, c["barrett_d"], c["barrett_v"], c["barrett_shift"],
                             offset % m, out, 2)
    return out


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("pool,k", [(pool, k) for pool in POOLS for k in (1, 3, 5, 8)
                                    if k <= len(POOLS[pool]) and (pool != "mixed" or k > 1)])
@pytest.mark.parametrize("m", MODULI64)
def test_mod64_matches_python_crt(isa, pool, k, m):
    # the vector digits (lazy below 2^30, folded up to 2^31) and the scalar tail, every
    # digit at p_j - 1 and at 0, with and without offsets, two rows over three blocks
    basis = crt.crt_basis(POOLS[pool][:k], np.uint32)
    rng = np.random.default_rng(k * 1000 + m % 997)
    N = 1053
    products = np.stack([rng.integers(0, p, (2, N), dtype=np.uint64).astype(np.uint32)
                         for p in basis.primes])
    products[:, 0, :40] = np.array(basis.primes, dtype=np.uint32)[:, None] - 1
    products[:, 1, :40] = 0
    for offset in (0, int(rng.integers(1, 2**62)) % basis.product):
        out = run64(isa, products, basis, m, offset)
        for r in range(2):
            expected = [python_crt(products[:, r, i], basis.primes, offset, m)
                        for i in range(out.shape[1])]
            assert [int(v) for v in out[r]] == expected, (offset, r)


@pytest.mark.parametrize("isa", checkable_isas())
def test_mod64_rejects_what_it_cannot_do(isa):
    kernels = load(isa)
    basis = crt.crt_basis(POOL[:3], np.uint32)
    products = np.zeros((3, 1, 8), dtype=np.uint32)
    m = 2**61 - 1
    c, _, weights, _ = basis._mod_constants(m)
    consts = (c["barrett_d"], c["barrett_v"], c["barrett_shift"])
    args = (basis.primes_array, basis._inv, basis._inv_q, np.zeros(3, np.uint64))
    with pytest.raises(ValueError, match="shapes"):
        kernels.garner32_mod64(products, *args, m, weights, *consts, 0,
                               np.empty((1, 9), np.uint64), 1)
    with pytest.raises(ValueError, match="offset_m < m"):
        kernels.garner32_mod64(products, *args, m, weights, *consts, m,
                               np.empty((1, 8), np.uint64), 1)
    with pytest.raises(ValueError, match="weights below m"):
        kernels.garner32_mod64(products, *args, 7, weights, *consts, 0,
                               np.empty((1, 8), np.uint64), 1)
    small = crt.crt_basis((POOL[0], 7340033, POOL[1]), np.uint32)   # 7340033 < p/2
    with pytest.raises(ValueError, match="twice the smallest"):
        kernels.garner32_mod64(products, small.primes_array, small._inv, small._inv_q,
                               np.zeros(3, np.uint64), m, weights, *consts, 0,
                               np.empty((1, 8), np.uint64), 1)
    assert basis.fused64(2**32) and basis.fused64(2**64 - 1) and not basis.fused64(2**32 - 1)
    assert not basis.fused64(2**64) and not small.fused64(m)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("pool", ["below-2^30", "below-2^31"])
@pytest.mark.parametrize("offset", [0, 98765])
def test_crt_product32_digits_are_the_garner_digits(isa, pool, offset):
    # CRTProduct32.digits == padded_product per prime, then _garner32.garner_digits32 on
    # the residues (+ offset); the digits rebuild the exact convolution (+ offset).
    # Lengths cover whole vectors, scalar tails and GARNER_BLOCK (512) edges.
    from ntt_cy._kernels.crt import garner32 as _garner32

    kernels = load(isa)
    basis = crt.crt_basis(POOLS[pool][:4], np.uint32)
    bound = 2**40   # limbs of 5 bytes: n/2 (2^40 - 1)^2 < p_0 ... p_3 for n <= 2^13
    rng = np.random.default_rng(offset + len(pool))
    for n in (8, 256, 1 << 13):
        tables, garner = fused_args(kernels, basis, n, bound, offset=offset)
        fused = kernels.CRTProduct32(tables, *garner)
        for ma, mb in sorted({(n // 2, n // 2), (n // 2 - 3, 1), (n // 2, n // 2 - 3)}):
            a = rng.integers(0, bound, (2, ma), dtype=np.uint64)
            b = rng.integers(0, bound, (2, mb), dtype=np.uint64)
            a[0, :] = bound - 1
            b[0, :] = bound - 1
            for x, y in ((a, b), (a, a)):
                rows, L = x.shape[0], x.shape[1] + y.shape[1] - 1
                products = np.empty((basis.k, rows, n), np.uint32)
                for j, p in enumerate(basis.primes):
                    kernels.padded_product(x, y, products[j], np.empty((rows, n), np.uint32),
                                           tables[j], 1, pow(n, -1, p), True)
                residues = (products[:, :, :L].astype(np.uint64)
                            + basis._offsets(offset)[:, None, None]) % basis.primes_array[:, None, None]
                want = np.empty((basis.k, rows * L), np.uint64)
                _garner32.garner_digits32(np.ascontiguousarray(residues.reshape(basis.k, -1)),
                                          basis.primes_array, basis._inv, basis._inv_q, want, 1)
                want = want.reshape(basis.k, rows, L)
                if n <= 256:
                    for r in range(rows):
                        exact = np.convolve(x[r].astype(object), y[r].astype(object)) + offset
                        got = basis.to_ints(want[:, r, :])
                        assert got.tolist() == exact.tolist()
                for threads in (1, 2):
                    got = np.full((basis.k, rows, L), 2**32 - 1, np.uint32)
                    top = fused.digits(x, y, np.empty((basis.k, rows, n), np.uint32),
                                       np.empty((rows, n), np.uint32), got, threads)
                    assert top == bound - 1
                    assert np.array_equal(got, want), (n, ma, mb, threads)


def test_crt_product32_digits_shapes_are_checked():
    kernels = load(checkable_isas()[0])
    basis = crt.crt_basis(POOL[:3], np.uint32)
    tables, garner = fused_args(kernels, basis, 16, 2**32)
    fused = kernels.CRTProduct32(tables, *garner)
    a = np.ones((1, 8), np.uint64)
    scratch = (np.empty((3, 1, 16), np.uint32), np.empty((1, 16), np.uint32))
    for shape in ((2, 1, 15), (3, 2, 15), (3, 1, 17)):
        with pytest.raises(ValueError, match="shapes differ"):
            fused.digits(a, a, *scratch, np.empty(shape, np.uint32), 1)
    with pytest.raises(ValueError, match="shapes differ"):
        fused.digits(np.ones((1, 9), np.uint64), a, *scratch, np.empty((3, 1, 16), np.uint32), 1)


# garner32_digits: the digits alone for the bases of moduli of several words (up to 32
# primes, crt.wide32_basis).  Largest pool primes and all-(p_j - 1) residues included.
WIDE32_POOL = crt.prime_pool(np.uint32, 20, crt.WIDE32_MAX_PRIMES)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("k", [1, 3, 8, 9, 18, 27, 32])
def test_garner32_digits_rebuild_the_crt_integer(isa, k):
    kernels = load(isa)
    basis = crt.crt_basis(WIDE32_POOL[:k], np.uint32)
    assert max(basis.primes) < 2 * min(basis.primes)
    rng = np.random.default_rng(k)
    P = math.prod(basis.primes)
    # L = 150: two blocks of 64 and a tail of 22 (vector bodies of 8 / 16, scalar rest)
    R, N, L = 2, 160, 150
    x = [int(v) for v in rng.integers(0, 2**63, R * L)]
    x = [(v * (P // 2**63 + 1) + v) % P for v in x]
    x[:3] = [0, 1, P - 1]
    products = np.full((k, R, N), 2**32 - 1, np.uint32)   # columns past L never read as x
    for j, p in enumerate(basis.primes):
        products[j, :, :L] = np.array([v % p for v in x], dtype=np.uint32).reshape(R, L)
    products[:, 1, L - 1] = basis.primes_array.astype(np.uint32) - 1   # x = -1 mod P
    x[R * L - 1] = P - 1
    for threads in (1, 2):
        got = np.full((k, R, L), 2**32 - 1, np.uint32)
        kernels.garner32_digits(products, basis.primes_array, basis._inv, basis._inv_q, got,
                                threads)
        assert all((got[j] < basis.primes[j]).all() for j in range(k))
        assert basis.to_ints(got.reshape(k, R * L).astype(np.uint64)).tolist() == x


@pytest.mark.parametrize("isa", checkable_isas())
def test_garner32_digits_rejects_what_it_cannot_do(isa):
    kernels = load(isa)
    basis = crt.crt_basis(WIDE32_POOL[:3], np.uint32)
    args = (basis.primes_array, basis._inv, basis._inv_q)
    products = np.zeros((3, 1, 8), np.uint32)
    for shape in ((2, 1, 8), (3, 2, 8), (3, 1, 9)):
        with pytest.raises(ValueError, match="shapes differ"):
            kernels.garner32_digits(products, *args, np.empty(shape, np.uint32), 1)
    too_many = crt.prime_pool(np.uint32, 16, 33)
    assert len(too_many) == 33
    inv = np.ones((33, 33), np.uint64)
    with pytest.raises(ValueError, match="1..32 primes"):
        kernels.garner32_digits(np.zeros((33, 1, 8), np.uint32), np.array(too_many, np.uint64),
                                inv, inv, np.empty((33, 1, 8), np.uint32), 1)
    spread = np.array([WIDE32_POOL[0], 65537 * 4 + 1], np.uint64)
    with pytest.raises(ValueError, match="twice the smallest"):
        kernels.garner32_digits(np.zeros((2, 1, 8), np.uint32), spread, np.ones((2, 2), np.uint64),
                                np.ones((2, 2), np.uint64), np.empty((2, 1, 8), np.uint32), 1)
    with pytest.raises(ValueError, match="below 2\\^31"):
        kernels.garner32_digits(np.zeros((1, 1, 8), np.uint32), np.array([2**31 + 11], np.uint64),
                                np.ones((1, 1), np.uint64), np.ones((1, 1), np.uint64),
                                np.empty((1, 1, 8), np.uint32), 1)
