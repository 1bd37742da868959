"""The field-specific butterflies against the other families and the oracles, at the edges
of their ranges: uint32 lanes with 2^30 <= p < 2^31 (the lazy family's tables with
values kept in [0, p), SHOUP31 in ntt_cy/_kernels/simd/families.h) and the goldilocks
family (p = 2^64 - 2^32 + 1).  The active build runs them (the CI reruns tests/kernels
on every build)."""
import numpy as np
import pytest

import ntt_cy
from ntt_cy._kernels.active import ACTIVE_ISA
from ntt_cy._support.checks import check_reduction
from ntt_oracle import dft, ntt_fast, polymul

# 2^30 <= p < 2^31: the smallest and the largest primes of the range with 2^17 | p - 1
# (2^30 + 2^17 + 1, 2^31 - 2^17 + 1), BabyBear (15 2^27 + 1) and KoalaBear (2^31 - 2^24 + 1).
SHOUP31_PRIMES = [1073872897, 2147352577, 2013265921, 2130706433]
FAMILIES = ("montgomery", "barrett", "lazy")


def edge_values(p, shape, seed):
    """Random residues with the range's edges planted: p - 1 runs, zeros, 1, p - 2."""
    a = np.random.default_rng(seed).integers(0, p, shape, dtype=np.uint64)
    flat = a.reshape(-1)
    edges = [p - 1] * (flat.size // 4) + [0, 1, p - 2, p - 1]
    flat[: min(flat.size, len(edges))] = edges[: flat.size]
    return a.astype(np.uint32)


@pytest.mark.parametrize("p", SHOUP31_PRIMES)
def test_lazy_is_valid_and_auto_picks_a_valid_family(p):
    for fam in FAMILIES:
        assert check_reduction(fam, p, np.dtype(np.uint32)) == fam
    assert check_reduction("auto", p, np.dtype(np.uint32)) in FAMILIES
    with pytest.raises(ValueError, match=r"needs p < 2\*\*31"):
        check_reduction("lazy", 2281701377, np.dtype(np.uint32))


@pytest.mark.parametrize("p", SHOUP31_PRIMES)
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_small_sizes_against_the_dft(p, kind):
    for log2n in range(0, 7):
        n = 1 << log2n
        a = edge_values(p, n, n)
        expect = dft([int(x) for x in a], p, kind)
        for fam in FAMILIES:
            got = ntt_cy.ntt(a, p, kind=kind, reduction=fam, dtype=np.uint32)
            assert got.tolist() == expect, (n, fam)
            assert ntt_cy.intt(got, p, kind=kind, reduction=fam).tolist() == a.tolist()


def transform_cases():
    """(p, kind, log2n) with a transform of that kind and length mod p: 2^17 takes the
    large-stage sweeps (past one cache chunk); the edge primes have 2-adicity 17, so no
    negacyclic transform of that length."""
    for p in SHOUP31_PRIMES:
        for kind in ("cyclic", "negacyclic"):
            for log2n in (8, 11, 17):
                if (p - 1) % (2 << log2n if kind == "negacyclic" else 1 << log2n) == 0:
                    yield p, kind, log2n


@pytest.mark.parametrize("p,kind,log2n", list(transform_cases()))
def test_families_bit_identical_batches_threads_orders(p, kind, log2n):
    """Every family gives the same transform as the lazy one, forward and inverse, in
    natural and bit-reversed order, batched and on two threads; at 2^11 also the
    independent O(n log n) oracle."""
    n = 1 << log2n
    a = edge_values(p, (3, n), log2n)
    plan = ntt_cy.NTTPlan(n, p, kind=kind, reduction="lazy")
    ref = plan.forward(a)
    if log2n == 11:
        assert ref[1].tolist() == ntt_fast(a[1].astype(object), p, kind).tolist()
    for fam in FAMILIES:
        for workers in (1, 2):
            got = plan.forward(a, reduction=fam, workers=workers)
            assert np.array_equal(got, ref), (fam, workers)
            br = plan.forward(a, reduction=fam, workers=workers, bit_reversed=True)
            assert np.array_equal(plan.inverse(br, reduction="lazy", bit_reversed=True), a)
            assert np.array_equal(plan.inverse(ref, reduction=fam, workers=workers), a)


@pytest.mark.parametrize("p", SHOUP31_PRIMES)
def test_products_mod_the_prime(p):
    """polymul modulo such a prime (the transform route, whose forward output goes to
    the pointwise product and the inverse) against schoolbook, at the edges."""
    for la, lb in ((1, 1), (7, 300), (513, 512), (900, 1100)):
        a = edge_values(p, la, la).astype(np.uint64)
        b = edge_values(p, lb, lb + 1).astype(np.uint64)
        got = ntt_cy.polymul(a, b, p)
        assert got.tolist() == polymul(a.tolist(), b.tolist(), p), (la, lb)
    for kind in ("cyclic", "negacyclic"):
        n = 1024
        a, b = edge_values(p, (2, n), 5), edge_values(p, (2, n), 6)
        got = ntt_cy.polymul(a, b, p, kind=kind)
        for r in range(2):
            assert got[r].tolist() == polymul(a[r].tolist(), b[r].tolist(), p, kind), kind


# ---------------------------------------------------------------- Goldilocks
GOLDILOCKS = 2**64 - 2**32 + 1
# Values at the reduction's edges: 0, 1, p - 1, around 2^32 (E = 2^32 - 1 = 2^64 mod p),
# 2^63 and 2^64 - 2^32 = p - 1.
GOLDILOCKS_EDGES = [0, 1, GOLDILOCKS - 1, GOLDILOCKS - 2, 2**32 - 1, 2**32, 2**32 + 1,
                    2**63, 2**63 - 1, 2**48, 2**62 + 2**31, 2**64 - 2**33]


def goldilocks_values(shape, seed):
    a = np.random.default_rng(seed).integers(0, GOLDILOCKS, shape, dtype=np.uint64)
    flat = a.reshape(-1)
    edges = (GOLDILOCKS_EDGES * (flat.size // (2 * len(GOLDILOCKS_EDGES)) + 1))
    k = min(flat.size, max(len(GOLDILOCKS_EDGES), flat.size // 2))
    flat[:k] = edges[:k]
    return a


def direct_transform(a, root, p):
    """X_k = sum_j a_j root^(j k) mod p: the DFT with a given root, on Python ints."""
    n = len(a)
    return [sum(int(x) * pow(root, j * k, p) for j, x in enumerate(a)) % p for k in range(n)]


def test_goldilocks_is_auto_and_refused_elsewhere():
    """auto takes it in the vector builds, where it is the fastest family for its
    prime; the portable build's scalar Montgomery is faster."""
    fastest = "montgomery" if ACTIVE_ISA == "portable" else "goldilocks"
    assert check_reduction("auto", GOLDILOCKS, np.dtype(np.uint64)) == fastest
    for p, dt in ((998244353, np.uint64), (998244353, np.uint32), (2**64 - 59, np.uint64)):
        with pytest.raises(ValueError, match="goldilocks' serves p = 2"):
            check_reduction("goldilocks", p, np.dtype(dt))


@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_goldilocks_small_sizes_against_the_dft(kind):
    for log2n in range(0, 8):
        n = 1 << log2n
        a = goldilocks_values(n, n)
        expect = dft([int(x) for x in a], GOLDILOCKS, kind)
        got = ntt_cy.ntt(a, GOLDILOCKS, kind=kind, reduction="goldilocks")
        assert got.tolist() == expect, n
        assert ntt_cy.intt(got, GOLDILOCKS, kind=kind, reduction="goldilocks").tolist() == a.tolist()


@pytest.mark.parametrize("log2n", [4, 5, 6])
def test_goldilocks_power_of_two_roots_reach_every_branch(log2n):
    """Roots that are powers of 2 (2 has order 192 mod p: lengths up to 64) and inputs
    that are powers of 2 make products whose low word is 0 and high word large: the
    borrow of lo - hh (in the first stage's products of these inputs, 1 or 2 per length
    here), rare for random values, and the carry of t0 + t1, in the vector bodies and
    the scalar loops alike."""
    n = 1 << log2n
    root = pow(2, 192 // n, GOLDILOCKS)
    a = np.array([2 ** ((23 * j) % 64) for j in range(n)], dtype=np.uint64)
    a[3] = GOLDILOCKS - 1
    expect = direct_transform(a, root, GOLDILOCKS)
    for fam in ("goldilocks", "montgomery", "barrett"):
        plan = ntt_cy.NTTPlan(n, GOLDILOCKS, root=root, reduction=fam)
        got = plan.forward(a)
        assert got.tolist() == expect, fam
        assert plan.inverse(got).tolist() == a.tolist(), fam


@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
@pytest.mark.parametrize("log2n", [8, 11, 17])
def test_goldilocks_bit_identical_batches_threads_orders(kind, log2n):
    n = 1 << log2n
    a = goldilocks_values((3, n), log2n)
    plan = ntt_cy.NTTPlan(n, GOLDILOCKS, kind=kind, reduction="goldilocks")
    ref = plan.forward(a)
    if log2n == 11:
        assert ref[1].tolist() == ntt_fast(a[1].astype(object), GOLDILOCKS, kind).tolist()
    for fam in ("goldilocks", "montgomery", "barrett"):
        for workers in (1, 2):
            got = plan.forward(a, reduction=fam, workers=workers)
            assert np.array_equal(got, ref), (fam, workers)
            br = plan.forward(a, reduction=fam, workers=workers, bit_reversed=True)
            assert np.array_equal(plan.inverse(br, reduction="goldilocks", workers=workers,
                                               bit_reversed=True), a)
            assert np.array_equal(plan.inverse(ref, reduction=fam, workers=workers), a)


def test_goldilocks_products():
    for la, lb in ((1, 1), (7, 300), (513, 512), (900, 1100)):
        a, b = goldilocks_values(la, la), goldilocks_values(lb, lb + 1)
        got = ntt_cy.polymul(a, b, GOLDILOCKS)
        assert got.tolist() == polymul(a.tolist(), b.tolist(), GOLDILOCKS), (la, lb)
    for kind in ("cyclic", "negacyclic"):
        a, b = goldilocks_values((2, 1024), 5), goldilocks_values((2, 1024), 6)
        got = ntt_cy.polymul(a, b, GOLDILOCKS, kind=kind)
        for r in range(2):
            assert got[r].tolist() == polymul(a[r].tolist(), b[r].tolist(), GOLDILOCKS, kind)
