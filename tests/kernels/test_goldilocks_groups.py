"""The goldilocks family's radix-64 groups (ntt_cy/_kernels/simd/ntt64/goldilocks.h):
the chunk stages of the vector builds regrouped so that most twiddles are shifts by
+-2^k, one generic product per value and group.  Every size whose split differs (a
lone top stage at 16, the 8-value rows up to 512, 512-value rows to 32768, the
65536-chunk and the large passes above it), every root class (each 64th root is
+-2^k: the shifts below 32, up to 64, from 64 on, negative), against the montgomery
family and the independent oracles, bit for bit."""
import numpy as np
import pytest

import ntt_cy
from ntt_cy._kernels import active as _ntt
from ntt_cy.primes import root_of_unity
from ntt_oracle import ntt_fast

P = 2**64 - 2**32 + 1
EDGES = [0, 1, P - 1, P - 2, 2**32 - 1, 2**32, 2**32 + 1, 2**63, 2**63 - 1, 2**48,
         2**64 - 2**33]


def values(shape, seed, edges=True):
    a = np.random.default_rng(seed).integers(0, P, shape, dtype=np.uint64)
    if edges:
        flat = a.reshape(-1)
        k = min(flat.size, len(EDGES))
        flat[:k] = EDGES[:k]
    return a


def bitrev(k, bits):
    return int(format(k, f"0{bits}b")[::-1], 2) if bits else 0


def model_groups(n, w, length):
    """The group table as goldilocks.h documents it, on Python ints."""
    out = [0] * length
    B = 16
    while 2 * B <= length:
        L = 8
        while 64 * L < B:
            L *= 64
        rows = B // L
        r_b = pow(w, n // B, P)
        for k in range(rows):
            for i0 in range(L):
                out[B + k * L + i0] = pow(r_b, i0 * bitrev(k, rows.bit_length() - 1), P)
        out[0] = B
        B *= 2
    return out


def test_group_tables_as_documented():
    """Where the build runs the groups (vector builds), the table holds D_B for
    B = 16 .. min(n, 65536); the portable build builds none."""
    for n in (8, 16, 64, 1024, 1 << 17):
        length = _ntt.goldilocks_groups_length(n)
        if _ntt.ACTIVE_ISA == "portable" or n < 16:
            assert length == 0
            continue
        assert length == 2 * min(n, 65536)
        if n > 1024:
            continue
        w = root_of_unity(n, P)
        got = np.empty(length, dtype=np.uint64)
        _ntt.goldilocks_groups(got, w, n)
        assert got.tolist() == model_groups(n, w, length), n


@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_every_size_both_orders_against_montgomery(kind):
    """2^1 .. 2^18 (negacyclic to 2^17), forward and inverse, natural and bit-reversed
    order, one and two threads, in place and into out=."""
    top = 18 if kind == "cyclic" else 17
    for log2n in range(1, top + 1):
        n = 1 << log2n
        a = values((2, n), log2n)
        plan = ntt_cy.NTTPlan(n, P, kind=kind, reduction="goldilocks")
        for workers in (1, 2):
            for bit_reversed in (False, True):
                ref = plan.forward(a, reduction="montgomery", workers=1,
                                   bit_reversed=bit_reversed)
                got = plan.forward(a, workers=workers, bit_reversed=bit_reversed)
                assert np.array_equal(got, ref), (n, workers, bit_reversed)
                back = plan.inverse(ref, workers=workers, bit_reversed=bit_reversed)
                assert np.array_equal(back, a), (n, workers, bit_reversed)
                out = np.empty_like(a)
                plan.forward(a, out=out, workers=workers, bit_reversed=bit_reversed)
                assert np.array_equal(out, ref), (n, workers, bit_reversed)
                inplace = ref.copy()
                plan.inverse(inplace, out=inplace, workers=workers,
                             bit_reversed=bit_reversed)
                assert np.array_equal(inplace, a), (n, workers, bit_reversed)


@pytest.mark.parametrize("log2n", [4, 6, 9, 10, 12])
def test_against_the_oracle(log2n):
    n = 1 << log2n
    for kind in ("cyclic", "negacyclic"):
        a = values(n, 100 + log2n)
        got = ntt_cy.ntt(a, P, kind=kind, reduction="goldilocks")
        assert got.tolist() == ntt_fast(a.astype(object), P, kind).tolist(), (n, kind)


def test_all_p_minus_1():
    for log2n in (4, 9, 10, 16, 17):
        n = 1 << log2n
        a = np.full(n, P - 1, dtype=np.uint64)
        plan = ntt_cy.NTTPlan(n, P, reduction="goldilocks")
        ref = plan.forward(a, reduction="montgomery")
        assert np.array_equal(plan.forward(a), ref), n
        assert np.array_equal(plan.inverse(ref), a), n
        # the transform of a constant c is (n c, 0, .., 0)
        assert ref[0] == (n * (P - 1)) % P and not ref[1:].any(), n


def test_every_shift_class():
    """Roots r of order 64 = 2^(3m) for every odd m: the column twiddles r^j run through
    every +-2^k, k a multiple of 3 below 96 (shifts below 32, from 32 to 64, from 64
    on, and the negative ones); sizes 64 (one group of six stages) and 2^12 (two
    groups) with roots whose 64th power-of-two part is each of them.  Their 8th powers
    are the four primitive 8th roots 2^24, 2^72, 2^120, 2^168, each of which the stages
    in registers take as constants of a copy of their own."""
    r64 = [pow(2, 3 * m, P) for m in range(1, 64, 2)]
    assert {pow(r, 8, P) for r in r64} == {pow(2, e, P) for e in (24, 72, 120, 168)}
    for n in (64, 4096):
        base = root_of_unity(n, P)
        for k, r in enumerate(r64):
            # a root of order n whose (n / 64)-th power is r: base^e with e odd and
            # base^(e n / 64) = r
            if n == 64:
                root = r
            else:
                g = pow(base, n // 64, P)
                m = next(e for e in range(1, 64, 2) if pow(g, e, P) == r)
                root = pow(base, m, P)
            a = values(n, k, edges=k % 2 == 0)
            plan = ntt_cy.NTTPlan(n, P, root=root, reduction="goldilocks")
            ref = plan.forward(a, reduction="montgomery", bit_reversed=True)
            assert np.array_equal(plan.forward(a, bit_reversed=True), ref), (n, k)
            assert np.array_equal(plan.inverse(ref, bit_reversed=True), a), (n, k)
