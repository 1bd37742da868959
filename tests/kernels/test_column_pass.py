"""The column pass (ntt/columns.pxi: every large stage of a transform in one pass over
memory) at the sizes that take it, in every kernel build: outputs against direct sums,
the builds against each other, one and two threads, in place and out of place, natural
and bit-reversed order, and the round trip.

With the cache chunk c = 2^16 values, n = 2^19 is the first size with three large stages
(8 rows of c), 2^21 has an odd count and 2^22 and 2^24 are past the last-level cache;
n = 2^18 (two large stages) still takes the sweeps, for comparison.  The vector builds'
uint32 lanes, AVX-512's uint64 lanes and AVX2's double-precision lazy ones run up to
three stages per sweep in registers (2^19: one sweep, 2^20: two of two, 2^21: three and
two, 2^22: three and three, 2^24: three, three and two), AVX-512's uint32 lanes four
past 2^22 (2^24: four and four), the portable build and AVX2's integer uint64 families
radix-4 and radix-2 runs: their outputs agree bit for bit, the lazy family's unfolded
ones mod p.
"""
import functools

import numpy as np
import pytest

import ntt_cy
from ntt_cy._kernels.active import ACTIVE_ISA
from ntt_cy._support.isa import checkable_isas, load
from ntt_cy.plan import get_plan
from ntt_cy.primes import root_of_unity
from ntt_oracle import bit_reverse_permutation
from test_ntt import tables_for, valid_families

P_GOLDILOCKS = 2**64 - 2**32 + 1
# (p, lanes): 32-bit lanes with the lazy family in [0, 4p) and in [0, p) (BabyBear), a
# 32-bit prime on 64-bit lanes, the AVX2 double-precision range, Goldilocks
CASES = [(469762049, np.uint32), (2013265921, np.uint32), (998244353, np.uint64),
         (1337006139375617, np.uint64), (P_GOLDILOCKS, np.uint64)]
def direct_sum(a, p, n, k):
    """X[k] = sum a[i] r^(i k) mod p (r the plan's n-th root): numpy for p < 2^32 (every
    product below 2^64), Horner on Python ints above."""
    step = pow(root_of_unity(n, p), k, p)
    if p < 2**32:
        pw = np.ones(1, dtype=np.uint64)
        while len(pw) < n:
            pw = np.concatenate([pw, pw * np.uint64(pow(step, len(pw), p)) % np.uint64(p)])
        return int((a.astype(np.uint64) * pw % np.uint64(p)).sum(dtype=np.uint64) % np.uint64(p))
    acc = 0
    for x in a[::-1].tolist():
        acc = (acc * step + x) % p
    return acc


def transforms(kernels, plan, a, family, every_way=True):
    """Every way the kernels transform one row, each checked against the first: bit-
    reversed output on 1 and 2 threads, out of place and in place, natural order; the
    inverse of each back to a (every_way=False: on 2 threads only).  Returns the
    bit-reversed output."""
    tables = tables_for(kernels, plan, family)
    n = plan.n
    rev = bit_reverse_permutation(n)
    ref = np.empty_like(a)
    assert kernels.forward(a, ref, tables, 1, False) == int(a.max())
    assert int(ref.max()) < plan.p
    for threads in (1, 2) if every_way else (2,):
        out = np.empty_like(a)
        kernels.forward(a, out, tables, threads, False)
        assert np.array_equal(out, ref), ("bit-reversed", threads)
        kernels.inverse(out, out, tables, threads, False)
        assert np.array_equal(out, a), ("inverse in place", threads)
        natural = a.copy()
        kernels.forward(natural, natural, tables, threads, True)
        assert np.array_equal(natural[:, rev], ref), ("natural in place", threads)
        back = np.empty_like(a)
        kernels.inverse(natural, back, tables, threads, True)
        assert np.array_equal(back, a), ("natural inverse", threads)
    return ref


def unreduced(kernels, plan, a, family, threads=(1, 2)):
    """The forward transform's bit-reversed output left unfolded (the lazy family's
    [0, 2p)) and the unscaled inverse of it, out of place on the first thread count,
    then in place on the others (which must agree)."""
    tables = tables_for(kernels, plan, family)
    fwd, back = np.empty_like(a), np.empty_like(a)
    kernels.forward(a, fwd, tables, threads[0], False, False)
    kernels.inverse(fwd, back, tables, threads[0], False, False)
    for t in threads[1:]:
        again = a.copy()
        kernels.forward(again, again, tables, t, False, False)
        assert np.array_equal(again, fwd), (family, t)
        kernels.inverse(again, again, tables, t, False, False)
        assert np.array_equal(again, back), (family, t)
    return fwd, back


def same_as_portable(kernels, plan, a, family, want=None):
    """The unfolded forward and unscaled inverse outputs agree with the portable build's
    (`want`: its unreduced() pair, computed here if not given) mod p, each below 2p (the
    lazy family's DIF range; the builds may leave a value and that value + p in
    different places: the in-register stages fold where the scalar code multiplies by
    1)."""
    p = plan.p
    got = unreduced(kernels, plan, a, family)
    if want is None:
        want = unreduced(load("portable"), plan, a, family, threads=(1,))
    for g, w in zip(got, want):
        assert int(g.max()) < 2 * p, (plan.n, family)
        assert np.array_equal(g % lanes_p(g, p), w % lanes_p(w, p)), (plan.n, family)


def lanes_p(x, p):
    """p in x's dtype (so that x % p stays in it)."""
    return x.dtype.type(p)


@functools.lru_cache(maxsize=1)
def column_row(log2n, p, lanes):
    """The every-build test's row of 2^log2n values, its first 64 at p - 1 (read-only)."""
    a = np.random.default_rng(log2n).integers(0, p, (1, 1 << log2n), dtype=np.uint64).astype(lanes)
    a[0, :64] = p - 1
    a.setflags(write=False)
    return a


@functools.lru_cache(maxsize=4)
def portable_outputs(log2n, p, lanes, family):
    """The portable build's folded bit-reversed forward output and unreduced() pair for
    column_row(log2n, p, lanes): computed once for all the builds (whose cases of one
    row run in a row)."""
    a = column_row(log2n, p, lanes)
    plan = get_plan(1 << log2n, p, dtype=lanes)
    portable = load("portable")
    folded = np.empty_like(a)
    portable.forward(a, folded, tables_for(portable, plan, family), 1, False)
    return folded, unreduced(portable, plan, a, family, threads=(1,))


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("log2n", [18, 19, 20, 21], ids=lambda k: f"2_{k}")
@pytest.mark.parametrize("p,lanes", CASES)
def test_column_pass_sizes_every_build(isa, p, lanes, log2n):
    # every build against the portable one (whose outputs are checked against direct
    # sums in test_column_pass_against_direct_sums), every family; every way of calling
    # at the first column-pass size (2^19), the main ones at the others
    kernels = load(isa)
    plan = get_plan(1 << log2n, p, dtype=lanes)
    a = column_row(log2n, p, lanes)
    for family in valid_families(p, lanes):
        got = transforms(kernels, plan, a, family, every_way=log2n == 19)
        if isa != "portable":
            folded, pair = portable_outputs(log2n, p, lanes, family)
            assert np.array_equal(got, folded), (log2n, family)
            same_as_portable(kernels, plan, a, family, pair)
        else:
            unreduced(kernels, plan, a, family)   # (one and two threads agree)


@pytest.mark.parametrize("isa", [isa for isa in checkable_isas() if isa != "portable"])
@pytest.mark.parametrize("p", [469762049, 2013265921])
def test_column_pass_2_22_unfolded_every_build(isa, p):
    # two sweeps of three stages past the last-level cache, 32-bit lazy lanes ([0, 4p)
    # and BabyBear's [0, p)): every build with the portable one, folded bit for bit and
    # unfolded mod p
    n = 1 << 22
    plan = get_plan(n, p, dtype=np.uint32)
    a = np.random.default_rng(p % 97).integers(0, p, (1, n), dtype=np.uint32)
    a[0, :64] = p - 1
    kernels, portable = load(isa), load("portable")
    got, want = np.empty_like(a), np.empty_like(a)
    kernels.forward(a, got, tables_for(kernels, plan, "lazy"), 1, False)
    portable.forward(a, want, tables_for(portable, plan, "lazy"), 1, False)
    assert np.array_equal(got, want)
    same_as_portable(kernels, plan, a, "lazy")


@pytest.mark.parametrize("p,lanes", [(469762049, np.uint32), (1337006139375617, np.uint64)])
def test_column_pass_2_22(p, lanes):
    # past the last-level cache (the active build; the others agree with it at 2^21):
    # the families agree, one sample against a direct sum
    kernels = load(ACTIVE_ISA)
    n = 1 << 22
    plan = get_plan(n, p, dtype=lanes)
    a = np.random.default_rng(22).integers(0, p, (1, n), dtype=np.uint64).astype(lanes)
    a[0, -64:] = p - 1
    rev = bit_reverse_permutation(n)
    first = None
    for family in valid_families(p, lanes):
        got = transforms(kernels, plan, a, family)
        first = got if first is None else first
        assert np.array_equal(got, first), family
    k = n - 3
    assert int(first[0, np.flatnonzero(rev == k)[0]]) == direct_sum(a[0], p, n, k)


@pytest.mark.parametrize("p,lanes", CASES)
def test_column_pass_against_direct_sums(p, lanes):
    # the public calls at the first column-pass size, every family, cyclic and
    # negacyclic (whose twist rides on the same schedule)
    n = 1 << 19
    a = np.random.default_rng(p % 89).integers(0, p, n, dtype=np.uint64).astype(lanes)
    a[-1] = p - 1
    ks = (0, 1, 77777, n - 1) if p < 2**32 else (1, n - 1)
    for family in valid_families(p, lanes):
        A = ntt_cy.ntt(a, p, reduction=family, dtype=lanes, workers=2)
        for k in ks:
            assert int(A[k]) == direct_sum(a, p, n, k), (family, k)
        neg = ntt_cy.ntt(a, p, kind="negacyclic", reduction=family, dtype=lanes, workers=1)
        assert np.array_equal(ntt_cy.intt(neg, p, kind="negacyclic", reduction=family,
                                          dtype=lanes, workers=2), a), family


# (p, lanes, log2n) of the all-(p - 1) rows: 2^21 (three and two large stages) on every
# build; 2^23 on uint32 lanes (AVX-512's four-stage sweep, then three) on the AVX-512 ones
LARGEST_CASES = [(469762049, np.uint32, 21), (2013265921, np.uint32, 21),
                 (1337006139375617, np.uint64, 21), (P_GOLDILOCKS, np.uint64, 21)]


@pytest.mark.parametrize("isa,p,lanes,log2n", [
    pytest.param(isa, p, lanes, log2n, id=f"{isa}-{p}-2_{log2n}")
    for isa in checkable_isas()
    for p, lanes, log2n in LARGEST_CASES + ([(469762049, np.uint32, 23)]
                                             if isa.startswith("avx512") else [])])
def test_column_pass_all_largest_values(isa, p, lanes, log2n):
    # every value p - 1, the bound of every family's input range, through every sweep:
    # a constant's transform is n (p - 1) at index 0 and 0 elsewhere, folded exactly,
    # unfolded (the lazy family's [0, 2p)) below 2p and equal mod p, and the inverse
    # gives the row back
    kernels = load(isa)
    n = 1 << log2n
    plan = get_plan(n, p, dtype=lanes)
    a = np.full((1, n), p - 1, dtype=lanes)
    want = np.zeros_like(a)
    want[0, 0] = n * (p - 1) % p
    for family in valid_families(p, lanes):
        tables = tables_for(kernels, plan, family)
        got = np.empty_like(a)
        assert kernels.forward(a, got, tables, 1, False) == p - 1
        assert np.array_equal(got, want), family
        kernels.inverse(got, got, tables, 2, False)
        assert np.array_equal(got, a), family
        raw = np.empty_like(a)
        kernels.forward(a, raw, tables, 2, False, False)
        assert int(raw.max()) < 2 * p, family
        assert np.array_equal(raw % lanes_p(raw, p), want), family


def test_column_pass_2_24():
    # 256 rows of the chunk, 32-bit lanes: the builds agree, one direct sum
    p, n = 469762049, 1 << 24
    plan = get_plan(n, p, dtype=np.uint32)
    a = np.random.default_rng(24).integers(0, p, (1, n), dtype=np.uint32)
    kernels, portable = load(ACTIVE_ISA), load("portable")
    got = transforms(kernels, plan, a, "lazy")
    if ACTIVE_ISA != "portable":
        want = np.empty_like(a)
        portable.forward(a, want, tables_for(portable, plan, "lazy"), 2, False)
        assert np.array_equal(got, want)
        same_as_portable(kernels, plan, a, "lazy")
    k = 5
    assert int(got[0, np.flatnonzero(bit_reverse_permutation(n) == k)[0]]) == direct_sum(
        a[0], p, n, k)


def test_polymul_past_the_chunk_sizes():
    # products whose transforms take the column pass (padded first stages, then the
    # column pass from n/8): checked at a point, c(x) = a(x) b(x) mod p
    p = 998244353
    rng = np.random.default_rng(5)
    for la, lb in ((1 << 20, 1 << 20), (3 << 18, 1 << 19)):
        a = rng.integers(0, p, la, dtype=np.uint64)
        b = rng.integers(0, p, lb, dtype=np.uint64)
        c = ntt_cy.polymul(a, b, p, workers=2)
        x = 1234567
        assert len(c) == la + lb - 1
        ev = [direct_eval(v, x, p) for v in (a, b, c)]
        assert ev[2] == ev[0] * ev[1] % p


def direct_eval(coeffs, x, p):
    acc = 0
    for v in np.asarray(coeffs)[::-1].tolist():
        acc = (acc * x + int(v)) % p
    return acc
