"""Transforms against the O(n^2) DFT oracle, round trips and the convolution theorem."""
import numpy as np
import pytest

import ntt_cy
from ntt_cy._kernels import active as _ntt
from ntt_cy._support.checks import check_reduction
from ntt_cy._support.isa import checkable_isas, load
from ntt_cy.plan import get_plan, modulus_constants
from ntt_oracle import (FLOAT_PATH_TOP, LARGEST_PRIMES, PAST_FLOAT_PATH, REFERENCE_PRIMES,
                        bit_reverse_permutation, cyclic_convolution, dft, ntt_fast)

FAMILIES = ["montgomery", "barrett", "lazy", "goldilocks"]


def lanes(p):
    return [np.uint32, np.uint64] if p < 2**32 else [np.uint64]


def valid_families(p, dt):
    out = []
    for fam in FAMILIES:
        try:
            check_reduction(fam, p, np.dtype(dt))
            out.append(fam)
        except ValueError:
            pass
    return out


def oracle_cases():
    for p, _ in REFERENCE_PRIMES:
        for kind in ("cyclic", "negacyclic"):
            k = (p - 1) & -(p - 1)
            top = min(k if kind == "cyclic" else k // 2, 2**10)
            yield p, kind, top


@pytest.mark.parametrize("p,kind,top", list(oracle_cases()))
def test_forward_matches_dft_every_size_family_lane(p, kind, top):
    rng = np.random.default_rng(p % 1000)
    n = 1
    while n <= top:
        a = [int(x) for x in rng.integers(0, min(p, 2**63), n)]
        a[0] = p - 1  # the largest residue takes part in every size
        expect = dft(a, p, kind)
        for dt in lanes(p):
            arr = np.array(a, dtype=dt)
            for fam in valid_families(p, dt):
                got = ntt_cy.ntt(arr, p, kind=kind, reduction=fam, dtype=dt)
                assert got.dtype == dt
                assert got.tolist() == expect, (n, dt, fam)
                back = ntt_cy.intt(got, p, kind=kind, reduction=fam, dtype=dt)
                assert back.tolist() == a, (n, dt, fam)
        n *= 2


def test_every_reference_prime_has_a_lane_and_family():
    for p, _ in REFERENCE_PRIMES:
        for dt in lanes(p):
            fams = valid_families(p, dt)
            assert "barrett" in fams
            bits = 8 * np.dtype(dt).itemsize
            assert ("lazy" in fams) == (p < 2**31 if bits == 32 else 4 * p <= 2**64)
            assert ("goldilocks" in fams) == (p == 2**64 - 2**32 + 1 and bits == 64)


@pytest.mark.parametrize("p", LARGEST_PRIMES)
@pytest.mark.parametrize("fill", ["zeros", "p-1", "random"])
def test_round_trip_2_20_largest_primes(p, fill):
    n = 2**20
    dt = np.uint32 if p < 2**32 else np.uint64
    if fill == "zeros":
        a = np.zeros(n, dtype=dt)
    elif fill == "p-1":
        a = np.full(n, p - 1, dtype=dt)
    else:
        a = np.random.default_rng(5).integers(0, p, n, dtype=np.uint64).astype(dt)
    results = []
    for fam in valid_families(p, dt):
        A = ntt_cy.ntt(a, p, reduction=fam)
        assert ntt_cy.intt(A, p, reduction=fam).tolist() == a.tolist()
        results.append(A)
    for A in results[1:]:
        assert np.array_equal(A, results[0])
    if fill == "p-1":  # sum of n copies of -1 is -n, every other frequency 0
        assert int(results[0][0]) == (-n) % p and not results[0][1:].any()


@pytest.mark.parametrize("p", PAST_FLOAT_PATH)
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_primes_past_the_double_precision_bound(p, kind):
    # Between 2^51 - 2^29 and 2^52 the AVX2 build's double-precision uint64 kernels
    # would round; a threshold set too high shows up here as a wrong transform.
    for n in (16, 64, 1024):
        a = np.random.default_rng(n).integers(0, p, n, dtype=np.uint64)
        a[0] = p - 1
        expected = dft([int(x) for x in a], p, kind)
        for fam in valid_families(p, np.uint64):
            A = ntt_cy.ntt(a, p, kind=kind, reduction=fam)
            assert [int(x) for x in A] == expected, (n, fam)
            assert np.array_equal(ntt_cy.intt(A, p, kind=kind, reduction=fam), a), (n, fam)


@pytest.mark.parametrize("forward", [True, False])
def test_more_workers_than_tiles(forward):
    # workers > n / 16 leaves each thread less than a 16-row strip of tiles, so the
    # natural-order permutation runs on its own, not fused with the edge stages, and
    # applies the lazy family's last correction itself.  n = 8192 is the smallest
    # size that takes threads.
    p, n = 998244353, 8192
    a = np.random.default_rng(1).integers(0, p, n, dtype=np.uint64).astype(np.uint32)
    a[0] = p - 1
    A = ntt_fast(a.astype(np.uint64), p)
    for workers in (n // 16 + 1, 1024):
        if forward:
            got = ntt_cy.ntt(a, p, workers=workers, reduction="lazy")
            assert np.array_equal(got.astype(np.uint64), A), workers
        else:
            got = ntt_cy.intt(A.astype(np.uint32), p, workers=workers, reduction="lazy")
            assert np.array_equal(got, a), workers


@pytest.mark.parametrize("p", [998244353, 2281701377, 1337006139375617, 2**64 - 2**32 + 1,
                               FLOAT_PATH_TOP])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_large_transform_sampled_against_direct_sums(p, kind):
    # Sizes beyond the cache chunk (large-stage sweeps, threads): a few outputs computed
    # directly as sum a[i] r^(i e) with Python ints, e = k (cyclic) or 2k + 1 (negacyclic).
    from ntt_cy.primes import root_of_unity
    n = 2**18
    a = np.random.default_rng(p % 97).integers(0, min(p, 2**63), n, dtype=np.uint64)
    a[-1] = p - 1
    r = root_of_unity(n if kind == "cyclic" else 2 * n, p)
    ai = [int(x) for x in a]
    expected = {}
    for k in (0, 1, 12345, n // 2 + 7, n - 1):
        e = k if kind == "cyclic" else 2 * k + 1
        step = pow(r, e, p)
        acc = 0
        for x in ai[::-1]:  # Horner: sum a[i] step^i
            acc = (acc * step + x) % p
        expected[k] = acc
    for dt in lanes(p):
        for fam in valid_families(p, dt):
            A = ntt_cy.ntt(a.astype(dt), p, kind=kind, reduction=fam, dtype=dt, workers=2)
            for k, acc in expected.items():
                assert int(A[k]) == acc, (dt, fam, k)


@pytest.mark.parametrize("p", [998244353, 2281701377, 2**64 - 2**32 + 1, 1337006139375617])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_round_trip_medium_sizes_all_families(p, kind):
    for n in (2**11, 2**13, 2**15):
        for dt in lanes(p):
            a = np.random.default_rng(n).integers(0, p, (3, n), dtype=np.uint64).astype(dt)
            ref = None
            for fam in valid_families(p, dt):
                A = ntt_cy.ntt(a, p, kind=kind, reduction=fam, dtype=dt)
                ref = A if ref is None else ref
                assert np.array_equal(A, ref)
                assert np.array_equal(ntt_cy.intt(A, p, kind=kind, reduction=fam, dtype=dt), a)


@pytest.mark.parametrize("p", [7340033, 998244353, 2281701377, 2**64 - 2**32 + 1])
def test_convolution_theorem(p):
    rng = np.random.default_rng(3)
    for n in (1, 2, 8, 64, 256):
        a = rng.integers(0, p, n, dtype=np.uint64)
        b = rng.integers(0, p, n, dtype=np.uint64)
        dt = np.uint32 if p < 2**32 else np.uint64
        A, B = ntt_cy.ntt(a.astype(dt), p), ntt_cy.ntt(b.astype(dt), p)
        prod = np.array([int(x) * int(y) % p for x, y in zip(A.tolist(), B.tolist())], dtype=dt)
        assert ntt_cy.intt(prod, p).tolist() == cyclic_convolution(a.tolist(), b.tolist(), p)


def test_negacyclic_is_product_mod_x_n_plus_1():
    p, n = 8380417, 256  # Dilithium
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, p, n), rng.integers(0, p, n)
    A, B = (ntt_cy.ntt(x.astype(np.uint32), p, kind="negacyclic") for x in (a, b))
    prod = (A.astype(np.uint64) * B % p).astype(np.uint32)
    got = ntt_cy.intt(prod, p, kind="negacyclic").tolist()
    expect = [0] * n
    for i in range(n):
        for j in range(n):
            sign = -1 if i + j >= n else 1
            expect[(i + j) % n] += sign * int(a[i]) * int(b[j])
    assert got == [v % p for v in expect]


def test_batched_along_any_axis():
    p = 998244353
    a = np.random.default_rng(2).integers(0, p, (3, 16, 5)).astype(np.uint32)
    got = ntt_cy.ntt(a, p, axis=1)
    for i in range(3):
        for k in range(5):
            assert got[i, :, k].tolist() == dft(a[i, :, k].tolist(), p)
    assert np.array_equal(ntt_cy.intt(got, p, axis=1), a)
    assert np.array_equal(ntt_cy.ntt(a, p, axis=-2), got)


def test_non_contiguous_input_and_python_lists():
    p = 7340033
    base = np.random.default_rng(4).integers(0, p, (8, 64)).astype(np.uint32)
    view = base[:, ::2]
    assert np.array_equal(ntt_cy.ntt(view, p), ntt_cy.ntt(np.ascontiguousarray(view), p))
    assert ntt_cy.ntt([1, 2, 3, 4], p).tolist() == dft([1, 2, 3, 4], p)
    assert ntt_cy.ntt(np.array([1, 2, 3, 4], dtype=np.int64), p).dtype == np.uint32



@pytest.mark.parametrize("dtype", [np.int64, np.uint64])
@pytest.mark.parametrize("shape", [(3, 4096), (1 << 17,), (5, 7, 256)])
def test_eight_byte_inputs_to_uint32_lanes(dtype, shape):
    # converted to uint32 lanes in one compiled pass that reports the largest value
    # (_ntt.narrow_to_u32): the same transforms as uint32 input; a value >= p, one that
    # the cut to 32 bits would bring below p, or a negative one raises the range error
    p = 998244353
    a = np.random.default_rng(5).integers(0, p, shape).astype(dtype)
    a.reshape(-1)[[0, -1]] = p - 1
    want = ntt_cy.ntt(a.astype(np.uint32), p)
    got = ntt_cy.ntt(a, p)
    # (a uint64 input keeps its dtype, the values those of the lanes)
    assert got.dtype == (np.uint64 if dtype is np.uint64 else np.uint32)
    assert np.array_equal(got, want)
    assert np.array_equal(ntt_cy.intt(a, p), ntt_cy.intt(a.astype(np.uint32), p))
    bad = [p, 2**32 + 5, 2**63 + 1] + ([-1] if dtype is np.int64 else [])
    for value in bad:
        x = a.copy()
        x.reshape(-1)[x.size // 2] = value if value < 2**63 or dtype is np.uint64 else -5
        before = x.copy()
        with pytest.raises(ValueError, match=r"outside \[0, p\)"):
            ntt_cy.ntt(x, p)
        with pytest.raises(ValueError, match=r"outside \[0, p\)"):
            ntt_cy.intt(x, p)
        assert np.array_equal(x, before)



@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("shape", [(256,), (8192,), (3, 1024), (1 << 17,)])
def test_signed_rows_for_a_modulus_above_their_sign_bit(dtype, shape):
    # int64 (int32) rows for Goldilocks, p > 2^63: read as unsigned lanes without a
    # pass of their own, the kernels' largest value below 2^63 (2^31) telling that none
    # is negative; a negative value raises the range error, the input intact
    p = 2**64 - 2**32 + 1
    top = np.iinfo(dtype).max
    a = np.random.default_rng(8).integers(0, top, shape, dtype=np.int64).astype(dtype)
    a.reshape(-1)[[0, -1]] = top
    unsigned = a.astype(np.uint64)
    plan = ntt_cy.NTTPlan(shape[-1], p)
    for fn in (ntt_cy.ntt, ntt_cy.intt):
        want = fn(unsigned, p)
        got = fn(a, p)
        assert got.dtype == np.uint64 and np.array_equal(got, want)
        assert np.array_equal(fn(a, p, assume_reduced=True), want)
    for method in (plan.forward, plan.inverse):
        want = method(unsigned, bit_reversed=True)
        assert np.array_equal(method(a, bit_reversed=True), want)
        out = np.zeros(shape, np.uint64)
        assert method(a, out=out, bit_reversed=True) is out and np.array_equal(out, want)
    for value in (-1, np.iinfo(dtype).min):
        x = a.copy()
        x.reshape(-1)[x.size // 3] = value
        before = x.copy()
        for call in (lambda: ntt_cy.ntt(x, p), lambda: ntt_cy.intt(x, p),
                     lambda: plan.forward(x, bit_reversed=True)):
            with pytest.raises(ValueError, match=r"outside \[0, p\)"):
                call()
            assert np.array_equal(x, before)

@pytest.mark.parametrize("isa", checkable_isas())
def test_narrow_to_u32_cuts_and_reports_the_largest(isa):
    narrow = load(isa).narrow_to_u32
    rng = np.random.default_rng(6)
    for n in (1, 7, 8, 31, 64, 1000, 4099):
        src = rng.integers(0, 2**64, n, dtype=np.uint64)
        dst = np.zeros(n, np.uint32)
        assert narrow(src, dst) == int(src.max())
        assert np.array_equal(dst, (src & np.uint64(2**32 - 1)).astype(np.uint32))
        small = (src >> np.uint64(40)).copy()   # all below 2^24
        small[n // 2] = 2**64 - 1 if n > 1 else small[0]
        assert narrow(small, dst) == int(small.max())
    assert narrow(np.zeros(0, np.uint64), np.zeros(0, np.uint32)) == 0
    with pytest.raises(ValueError, match="lengths differ"):
        narrow(np.zeros(3, np.uint64), np.zeros(2, np.uint32))

def test_input_never_modified_and_out_in_place():
    p = 998244353
    a = np.random.default_rng(9).integers(0, p, (4, 1024)).astype(np.uint32)
    keep = a.copy()
    A = ntt_cy.ntt(a, p)
    assert np.array_equal(a, keep)
    out = np.empty_like(a)
    assert ntt_cy.ntt(a, p, out=out) is out and np.array_equal(out, A)
    inplace = a.copy()
    assert ntt_cy.ntt(inplace, p, out=inplace) is inplace
    assert np.array_equal(inplace, A)
    ntt_cy.intt(inplace, p, out=inplace)
    assert np.array_equal(inplace, keep)
    col = np.asfortranarray(a.T.copy())  # out with a layout the kernel cannot write into
    out_t = np.empty_like(col)
    ntt_cy.ntt(col, p, axis=0, out=out_t)
    assert np.array_equal(out_t, A.T)


def test_plan_bit_reversed_order_round_trip():
    p, n = 998244353, 1024
    plan = ntt_cy.NTTPlan(n, p)
    a = np.random.default_rng(1).integers(0, p, n).astype(np.uint32)
    br = plan.forward(a, bit_reversed=True)
    nat = plan.forward(a)
    rev = [int(format(i, "010b")[::-1], 2) for i in range(n)]
    assert br.tolist() == [nat[rev[i]] for i in range(n)]
    assert np.array_equal(plan.inverse(br, bit_reversed=True), a)


def test_user_root_changes_the_transform():
    p, n = 998244353, 8
    from ntt_cy.primes import root_of_unity
    w = pow(root_of_unity(n, p), 3, p)  # another primitive 8th root
    a = [1, 2, 3, 4, 5, 6, 7, 8]
    got = ntt_cy.ntt(a, p, root=w).tolist()
    assert got == [sum(a[i] * pow(w, i * k, p) for i in range(n)) % p for k in range(n)]
    assert ntt_cy.intt(got, p, root=w).tolist() == a


P = 998244353


@pytest.mark.parametrize("dt", [np.uint32, np.uint64])
def test_read_only_input_is_transformed(dt):
    # Read-only, C-contiguous inputs of the lane dtype reach the kernels uncopied.
    a = np.random.default_rng(0).integers(0, P, (2, 64), dtype=np.uint64).astype(dt)
    expect_f = ntt_cy.ntt(a.copy(), P, dtype=dt)
    expect_i = ntt_cy.intt(a.copy(), P, dtype=dt)
    ro = a.copy()
    ro.setflags(write=False)
    assert np.array_equal(ntt_cy.ntt(ro, P, dtype=dt), expect_f)
    assert np.array_equal(ntt_cy.intt(ro, P, dtype=dt), expect_i)
    plan = ntt_cy.NTTPlan(64, P, dtype=dt, kind="negacyclic")
    br = plan.forward(a, bit_reversed=True)
    br.setflags(write=False)
    assert np.array_equal(plan.inverse(br, bit_reversed=True), a)
    # e.g. arrays over immutable bytes
    fb = np.frombuffer(a.tobytes(), dtype=dt).reshape(a.shape)
    assert np.array_equal(ntt_cy.ntt(fb, P, dtype=dt), expect_f)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p", [998244353, 1004535809, 2**30 - 2**18 + 1, 7340033])
def test_pointwise_accepts_lazy_forward_range(isa, p):
    # uint32 lanes: pointwise_mul takes the LAZY forward's unreduced [0, 2p) values
    # (polymul skips that fold); check the bound 2p - 1 and random values, every build
    kernels = load(isa)
    rng = np.random.default_rng(p % 1009)
    a = rng.integers(0, 2 * p, (2, 4099), dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2 * p, (2, 4099), dtype=np.uint64).astype(np.uint32)
    a[0, :50] = 2 * p - 1
    b[0, :50] = 2 * p - 1
    factor = 12345 % p
    out = np.empty_like(a)
    kernels.pointwise_mul(a, b, out, get_plan(8, p, dtype=np.uint32)._modulus, factor, 1)
    expected = (a.astype(object) * b.astype(object) * factor) % p
    assert np.array_equal(out.astype(object), expected)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p", [2013265921, 2**31 - 1, 2281701377, 2**32 - 5])
def test_pointwise_mul_reduced_inputs_above_lazy_primes(isa, p):
    # uint32 primes above the LAZY range take [0, p) inputs; the AVX2 product keeps its
    # Montgomery step unreduced in (0, 2p) for p < 2^31 and reduces fully above
    kernels = load(isa)
    rng = np.random.default_rng(p % 1013)
    a = rng.integers(0, p, (2, 4099), dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, p, (2, 4099), dtype=np.uint64).astype(np.uint32)
    a[0, :50] = p - 1
    b[0, :50] = p - 1
    b[1, :20] = 0
    modulus = modulus_constants(p, np.dtype(np.uint32))
    for factor in (1, 12345, p - 1):
        out = np.empty_like(a)
        kernels.pointwise_mul(a, b, out, modulus, factor, 1)
        expected = (a.astype(object) * b.astype(object) * factor) % p
        assert np.array_equal(out.astype(object), expected), factor


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes,family", [
    # AVX2 uint32 exact families: residue sums and differences by one unsigned min for
    # p < 2^31, a sign-flipped signed compare above (just below / just above 2^31)
    (2013265921, np.uint32, "montgomery"), (2281701377, np.uint32, "montgomery"),
    (2013265921, np.uint32, "barrett"), (2281701377, np.uint32, "barrett"),
    # AVX2 uint64 integer kernels: LAZY's fold by the sign of x - 2p (exact while
    # 2p <= 2^63: the largest LAZY prime, 4p just below 2^64, and one near 2^61), and
    # residues compared as signed values for p < 2^63 (just below / just above)
    (2305843009211596801, np.uint64, "lazy"), (4611686018405367809, np.uint64, "lazy"),
    (9223372036836950017, np.uint64, "montgomery"), (9223372036855300097, np.uint64, "montgomery"),
    (9223372036836950017, np.uint64, "barrett")])
def test_kernels_at_their_compare_edges(isa, p, lanes, family):
    # all p - 1 inputs (every sum at its largest) must give the known transform, and a
    # random row must come back through the inverse, in both orders, on 1 and 2 threads
    kernels = load(isa)
    for n in (1 << 12, 1 << 17):
        plan = get_plan(n, p, dtype=lanes)
        tables = tables_for(kernels, plan, family)
        full = np.full((1, n), p - 1, lanes)
        rng = np.random.default_rng(n % 997)
        x = (rng.integers(0, 2**63, (1, n), dtype=np.uint64) % np.uint64(p)).astype(lanes)
        for threads in (1, 2):
            out = np.empty_like(full)
            kernels.forward(full, out, tables, threads, True)
            # sum of n copies of -1 is -n at frequency 0, every other frequency 0
            assert int(out[0, 0]) == (-n) % p and not out[0, 1:].any(), (n, threads)
            for natural in (True, False):
                fwd, back = np.empty_like(x), np.empty_like(x)
                kernels.forward(x, fwd, tables, threads, natural)
                kernels.inverse(fwd, back, tables, threads, natural)
                assert np.array_equal(back, x), (n, threads, natural)
                # the inverse of a constant row is that constant at index 0
                kernels.inverse(full, back, tables, threads, natural)
                assert int(back[0, 0]) == p - 1 and not back[0, 1:].any(), (n, natural)


def test_forward_unreduced_output_is_the_same_values_mod_p():
    p = 998244353
    plan = get_plan(4096, p, dtype=np.uint32)
    x = np.random.default_rng(3).integers(0, p, (1, 4096)).astype(np.uint32)
    reduced, lazy = x.copy(), x.copy()
    tables = plan.tables("lazy")
    _ntt.forward(reduced, reduced, tables, 1, False)
    _ntt.forward(lazy, lazy, tables, 1, False, False)
    assert lazy.max() < 2 * p and (lazy >= p).any()
    assert np.array_equal(lazy % p, reduced)
    with pytest.raises(ValueError, match="bit-reversed"):
        _ntt.forward(lazy, lazy, tables, 1, True, False)


def tables_for(kernels, plan, family):
    """The plan's tables wrapped for another kernel build (each build has its own
    TransformTables type; the arrays and modulus constants are shared)."""
    n, p = plan.n, plan.p
    return kernels.TransformTables(family, plan._modulus, plan.tables(family).arrays, n,
                                   *plan._scalar_form(family, pow(n, -1, p)))


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2**31 - 2**27 + 1, np.uint32),
                                     (2281701377, np.uint32), (998244353, np.uint64),
                                     (1337006139375617, np.uint64)])
def test_forward_padded_equals_forward_of_the_padded_rows(isa, p, lanes):
    # the zero half is never materialised; every family, source dtype, row length
    # (vector tails included), batch and thread count must give the same values (n =
    # 2^17, longer than a chunk: the Shoup families' padded pass rebuilds its twiddles
    # from their quotients, the plain forward reads both tables)
    kernels = load(isa)
    rng = np.random.default_rng(p % 101)
    for n in (8, 64, 1 << 12, 1 << 17):
        plan = get_plan(n, p, dtype=lanes)
        for family in valid_families(p, lanes):
            tables = tables_for(kernels, plan, family)
            for m in sorted({1, n // 2 - 5, n // 2} - {0}):
                if m < 1:
                    continue
                src = rng.integers(0, p, (2, m), dtype=np.uint64)
                src[0, :3] = p - 1
                padded = np.zeros((2, n), dtype=lanes)
                padded[:, :m] = src
                expected = padded.copy()
                kernels.forward(expected, expected, tables, 1, False)
                for src_dtype in (np.uint32, np.uint64) if p < 2**32 else (np.uint64,):
                    for threads in (1, 2):
                        out = np.empty((2, n), dtype=lanes)
                        kernels.forward_padded(src.astype(src_dtype), out, tables, threads)
                        assert np.array_equal(out, expected), (n, family, m, src_dtype, threads)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2**31 - 2**27 + 1, np.uint32),
                                     (1053818881, np.uint32), (998244353, np.uint64)])
@pytest.mark.parametrize("bits", [32, 64])
def test_forward_padded_reduces_its_source_on_request(isa, p, lanes, bits):
    # reduce_src: every source value is read mod p.  Below 2^32 (uint32 or uint64
    # rows): Shoup by 1, then a fold, in the vector loaders; any uint64: hi 2^32 + lo as
    # (hi (2^32 mod p) + lo) mod p, both halves at their edges; % in the scalar code.
    # Same transform as of the reduced rows, and the maximum reported is the raw one.
    kernels = load(isa)
    rng = np.random.default_rng(p % 109 + bits)
    c = 2**32 % p
    if bits == 32:
        edges = [0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p, 2**32 - p, 2**32 - 1]
        src_dtypes = (np.uint32, np.uint64)
    else:
        edges = [2**32, 2**32 + p - 1, 2**64 - 1, 2**63, (2**32 - 1) << 32,
                 ((p - 1) << 32) + p - 1, 2**64 - 1 - p, p << 32, 2**32 - 1, p, (p - c) << 32]
        src_dtypes = (np.uint64,)
    for n in (8, 64, 1 << 12):
        plan = get_plan(n, p, dtype=lanes)
        for family in valid_families(p, lanes):
            tables = tables_for(kernels, plan, family)
            for m in sorted({1, n // 2 - 3, n // 2} - {0}):
                src = rng.integers(0, 2**bits, (2, m), dtype=np.uint64)
                src[1, -1] = 2**bits - 1
                src[0, : min(m, len(edges))] = edges[: min(m, len(edges))]
                expected, fb = np.zeros((2, n), dtype=lanes), np.zeros((2, n), dtype=lanes)
                expected[:, :m] = src % np.uint64(p)
                fb[:, :m] = src[::-1] % np.uint64(p)
                kernels.forward(expected, expected, tables, 1, False)
                kernels.forward(fb, fb, tables, 1, False)
                want = expected.copy()
                kernels.pointwise_inverse(want, fb, tables, 1, 1, False)
                for src_dtype in src_dtypes:
                    x, y = src.astype(src_dtype), src[::-1].astype(src_dtype)
                    for threads in (1, 2):
                        out = np.empty((2, n), dtype=lanes)
                        top = kernels.forward_padded(x, out, tables, threads, True, True)
                        assert np.array_equal(out, expected), (n, family, m, src_dtype, threads)
                        assert top == int(src.max())
                        got, work = np.empty((2, n), lanes), np.empty((2, n), lanes)
                        kernels.padded_product(x, y, got, work, tables, threads, 1, True)
                        assert np.array_equal(got, want), (n, family, m, src_dtype, threads)


def test_forward_padded_refusals():
    p = 998244353
    plan = get_plan(64, p, dtype=np.uint32)
    tables = plan.tables("lazy")
    out = np.empty((1, 64), dtype=np.uint32)
    with pytest.raises(ValueError, match="n/2"):
        _ntt.forward_padded(np.zeros((1, 33), np.uint32), out, tables, 1)
    neg = get_plan(64, p, dtype=np.uint32, kind="negacyclic")
    with pytest.raises(ValueError, match="cyclic"):
        _ntt.forward_padded(np.zeros((1, 32), np.uint32), out, neg.tables("lazy"), 1)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2**31 - 2**24 + 1, np.uint32),
                                     (2281701377, np.uint32), (998244353, np.uint64),
                                     (1337006139375617, np.uint64)])
def test_padded_product_equals_its_three_steps(isa, p, lanes):
    # one call == forward_padded of both operands, then pointwise_inverse; squaring
    # (b is a) transforms once; the largest value of both operands is reported.  uint32
    # lanes with odd p < 2^31 read b times the factor and take one product less in
    # the pointwise step, and so does a square with the factor n^-1 (its operand read
    # times a square root of n^-1 2^32: n = 2^3 and 2^17 take sqrt(2), 2^6 and 2^12
    # not; factor 3 has no such root found, two products): every family, p at both
    # ends of that range (998244353 LAZY, 2^31 - 2^24 + 1 SHOUP31), operands all p - 1
    kernels = load(isa)
    rng = np.random.default_rng(p % 107)
    for n in (8, 64, 1 << 12, 1 << 17):
        plan = get_plan(n, p, dtype=lanes)
        for family in valid_families(p, lanes):
            tables = tables_for(kernels, plan, family)
            shapes = {(n // 2, n // 2), (n // 2 - 3, 2)}   # (at 2^17: the full and a short one)
            if n < 1 << 17:
                shapes |= {(1, 1), (1, n // 2)}
            for ma, mb in sorted(shapes):
                a = rng.integers(0, p, (2, ma), dtype=np.uint64).astype(lanes)
                b = rng.integers(0, p, (2, mb), dtype=np.uint64).astype(lanes)
                a[0, 0] = p - 1
                # one row on two threads splits each transform (chunk_size(n, 2)); two
                # rows give each thread whole rows: the AVX2 build's tiled order must
                # agree between the forwards and the inverse in both schedules
                top_a = np.full_like(a, p - 1)
                inv = pow(n, -1, p)
                for x, y, factor in ((a, b, 3), (a, a, 3), (a, a, inv), (b, a, inv),
                                     (a[:1], b[:1], 3), (top_a, top_a.copy(), 3),
                                     (top_a, top_a, inv)):
                    rows = x.shape[0]
                    fx, fy = np.empty((rows, n), lanes), np.empty((rows, n), lanes)
                    kernels.forward_padded(x, fx, tables, 1, lanes != np.uint32)
                    kernels.forward_padded(y, fy, tables, 1, lanes != np.uint32)
                    kernels.pointwise_inverse(fx, fy, tables, 1, factor, False)
                    for threads in (1, 2):
                        got, work = np.empty((rows, n), lanes), np.empty((rows, n), lanes)
                        top = kernels.padded_product(x, y, got, work, tables, threads, factor)
                        assert np.array_equal(got, fx), (n, family, ma, mb, threads)
                        assert top == max(int(x.max()), int(y.max()))
    with pytest.raises(ValueError, match="n/2"):
        kernels.padded_product(np.zeros((1, 4), lanes), np.zeros((1, 5), lanes),
                               np.empty((1, 8), lanes), np.empty((1, 8), lanes),
                               tables_for(kernels, get_plan(8, p, dtype=lanes), "barrett"), 1, 1)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("lanes", [np.uint32, np.uint64])
def test_padded_product_stops_at_the_first_operand_at_or_above_its_limit(isa, lanes):
    # limit: the call returns as soon as an operand's largest value is at or above it
    # (the caller discards the product and starts again on residues): a bad first
    # operand leaves the second one untransformed (work as it was); values below the
    # limit give the whole product, as without one
    kernels = load(isa)
    p, n = 998244353, 1 << 12
    tables = tables_for(kernels, get_plan(n, p, dtype=lanes), "montgomery")
    rng = np.random.default_rng(31)
    a = rng.integers(0, p, (2, n // 2), dtype=np.uint64).astype(lanes)
    b = rng.integers(0, p, (2, n // 2), dtype=np.uint64).astype(lanes)
    want, work = np.empty((2, n), lanes), np.empty((2, n), lanes)
    assert kernels.padded_product(a, b, want, work, tables, 1, 3) == max(a.max(), b.max())
    got = np.empty((2, n), lanes)
    assert kernels.padded_product(a, b, got, work, tables, 1, 3, False, p) < p
    assert np.array_equal(got, want)
    for bad_a in (True, False):
        x, y = a.copy(), b.copy()
        (x if bad_a else y)[1, 5] = p + 11
        work = np.full((2, n), 7, lanes)
        got = np.full((2, n), 7, lanes)
        assert kernels.padded_product(x, y, got, work, tables, 1, 3, False, p) == p + 11
        if bad_a:
            assert (work == 7).all()   # the second operand never transformed
        assert not np.array_equal(got, want)


@pytest.mark.parametrize("isa", checkable_isas())
def test_products_read_an_operand_times_the_factor(isa):
    # padded_product's operand scale: a product's second operand times factor 2^32, a
    # square's one operand times s with s^2 = n^-1 2^32 mod p (then the pointwise step
    # is one product), for every uint32 family, both parities of log2 n (odd: through
    # sqrt(2)) and odd p < 2^31 at both ends of each lazy range; a square with another
    # factor, p >= 2^31 and uint64 lanes scale nothing
    kernels = load(isa)
    for p in (998244353, 1053818881, 2013265921, 2**31 - 2**24 + 1):
        for n in (8, 64, 1 << 12, 1 << 17):
            plan = get_plan(n, p, dtype=np.uint32)
            inv = pow(n, -1, p)
            for family in valid_families(p, np.uint32):
                tables = tables_for(kernels, plan, family)
                s = kernels.operand_scale_of(tables, inv, True)
                assert 0 < s < p and s * s % p == inv * 2**32 % p, (p, n, family)
                assert kernels.operand_scale_of(tables, inv, False) == inv * 2**32 % p
                assert kernels.operand_scale_of(tables, 3, False) == 3 * 2**32 % p
                assert kernels.operand_scale_of(tables, 3, True) == 0
    wide = get_plan(64, 2281701377, dtype=np.uint32)
    assert kernels.operand_scale_of(tables_for(kernels, wide, "montgomery"), 1, False) == 0
    plan64 = get_plan(64, 998244353, dtype=np.uint64)
    assert kernels.operand_scale_of(tables_for(kernels, plan64, "lazy"), 1, False) == 0


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("lanes", [np.uint32, np.uint64])
def test_padded_products_are_padded_product_per_prime(isa, lanes):
    # PaddedProducts.run == padded_product (factor n^-1) on each prime's own rows;
    # squaring; values up to p - 1; a value >= its prime refused
    from ntt_cy import _crt as crt

    kernels = load(isa)
    primes = crt.prime_pool(np.dtype(lanes), 20, 5)
    primes_array = np.array(primes, np.uint64)
    rng = np.random.default_rng(len(primes) + lanes().itemsize)
    for n in (8, 512, 1 << 13):
        plans = [get_plan(n, p, dtype=lanes) for p in primes]
        tables = tuple(tables_for(kernels, plan, plan.reduction) for plan in plans)
        batch = kernels.PaddedProducts(tables, primes_array)
        for ma, mb in sorted({(1, 1), (n // 2, n // 2), (n // 2 - 3, 2)}):
            a = np.stack([rng.integers(0, p, (2, ma), dtype=np.uint64) for p in primes])
            b = np.stack([rng.integers(0, p, (2, mb), dtype=np.uint64) for p in primes])
            a[:, 0, :] = primes_array[:, None] - 1
            for x, y in ((a, b), (a, a)):
                want = np.empty((len(primes), 2, n), lanes)
                for j, p in enumerate(primes):
                    kernels.padded_product(x[j], y[j], want[j], np.empty((2, n), lanes),
                                           tables[j], 1, pow(n, -1, p))
                for threads in (1, 2):
                    got = np.empty((len(primes), 2, n), lanes)
                    batch.run(x, y, got, np.empty((2, n), lanes), threads)
                    assert np.array_equal(got, want), (n, ma, mb, threads)
    bad = a.copy()
    bad[3, 1, 0] = primes[3]
    with pytest.raises(ValueError, match="below primes"):
        batch.run(bad, b, got, np.empty((2, n), lanes), 1)
    with pytest.raises(ValueError, match="shapes differ"):
        batch.run(a[:4], b[:4], got[:4], np.empty((2, n), lanes), 1)
    with pytest.raises(ValueError, match="one length"):
        kernels.PaddedProducts(tables[:1] + (tables_for(kernels, get_plan(16, primes[1],
                                                                          dtype=lanes),
                                                        "barrett"),),
                               primes_array[:2])


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2281701377, np.uint32),
                                     (1337006139375617, np.uint64), (2**64 - 2**32 + 1, np.uint64)])
def test_pointwise_inverse_equals_product_then_inverse(isa, p, lanes):
    # the product taken block by block inside the inverse == a separate product pass
    kernels = load(isa)
    rng = np.random.default_rng(p % 103)
    for kind, scaled in (("cyclic", False), ("cyclic", True), ("negacyclic", True)):
        for n in (1, 2, 16, 64, 1 << 12, 1 << 17):
            plan = get_plan(n, p, dtype=lanes, kind=kind)
            for family in valid_families(p, lanes):
                tables = tables_for(kernels, plan, family)
                a = rng.integers(0, min(p, 2**63), (2, n), dtype=np.uint64).astype(lanes)
                b = rng.integers(0, min(p, 2**63), (2, n), dtype=np.uint64).astype(lanes)
                a[0, :2] = p - 1
                b[0, :2] = p - 1
                expected = a.copy()
                kernels.pointwise_mul(expected, b, expected, plan._modulus, 5, 1)
                kernels.inverse(expected, expected, tables, 1, False, scaled)
                for threads in (1, 2):
                    got = a.copy()
                    kernels.pointwise_inverse(got, b, tables, threads, 5, scaled)
                    assert np.array_equal(got, expected), (kind, n, family, threads)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (998244353, np.uint64),
                                     (2**64 - 2**32 + 1, np.uint64),
                                     # uint32 edges: the largest LAZY prime with 2^20 | p - 1
                                     # (4p just below 2^32), and one with no LAZY headroom
                                     (1053818881, np.uint32), (2281701377, np.uint32)])
def test_natural_order_is_the_bit_reversed_order_permuted(isa, p, lanes):
    # natural order: the forward permutes its DIF output in place (tile pairs swapped,
    # LAZY's range folded on the way), the inverse gathers its input through
    # permute_copy or permutes in place; AVX-512 builds transpose tiles in registers.
    # Every size, both directions, every family, out of place and in place, one row
    # shared by 1, 2 and 3 threads (each moves the tile pairs it owns).  On uint32 lanes
    # the AVX2 build's natural-order forward runs the last four DIF stages inside the
    # permutation (fused_tail), the bit-reversed one does not: the two must agree.
    kernels = load(isa)
    rng = np.random.default_rng(7)
    # and rows of 2 MiB, which the natural-order inverse copies, then permutes in place
    for bits in list(range(0, 15)) + [17, ((1 << 21) // np.dtype(lanes).itemsize).bit_length() - 1]:
        n = 1 << bits
        plan = get_plan(n, p, dtype=lanes)
        rev = bit_reverse_permutation(n)
        a = rng.integers(0, p, (1, n), dtype=np.uint64).astype(lanes)
        a[0, : n // 2] = p - 1
        for family in valid_families(p, lanes):
            tables = tables_for(kernels, plan, family)
            bitrev_out = np.empty_like(a)
            kernels.forward(a, bitrev_out, tables, 1, False)
            assert int(bitrev_out.max()) < p, (n, family)
            for threads in (1, 2, 3):
                natural = np.empty_like(a)
                kernels.forward(a, natural, tables, threads, True)
                assert np.array_equal(natural[:, rev], bitrev_out), (n, family, threads)
                in_place = a.copy()
                kernels.forward(in_place, in_place, tables, threads, True)
                assert np.array_equal(in_place, natural), (n, family, threads)
                back = np.empty_like(a)
                kernels.inverse(np.ascontiguousarray(natural[:, rev]), back, tables, threads, False)
                assert np.array_equal(back, a), (n, family, threads)
                kernels.inverse(np.ascontiguousarray(bitrev_out[:, rev]), back, tables, threads, True)
                assert np.array_equal(back, a), (n, family, threads)
                kernels.inverse(in_place, in_place, tables, threads, True)
                assert np.array_equal(in_place, a), (n, family, threads)


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2**64 - 2**32 + 1, np.uint64)])
@pytest.mark.parametrize("forward", [True, False])
def test_kernels_report_the_largest_input_value(isa, p, lanes, forward):
    # The forward's first sweep finds it as it copies the rows (piece by piece for
    # n > 2^16, chunk by chunk below; on negacyclic plans a read pass of its own); the
    # inverse as it copies them: inside the fused permutation tiles (uint32, n >= 256,
    # vector builds), by a pass over each thread's share after the plain permutation, or in the
    # copy of a bit-reversed-order inverse or of a row of 2 MiB or more.  0 in place.  One row shared by 1-3 threads
    # and a batch of rows; the largest value at the first, a middle and the last
    # position in turn; both orders.
    kernels = load(isa)
    kernel = kernels.forward if forward else kernels.inverse
    rng = np.random.default_rng(11)
    two_mib = (1 << 21) // np.dtype(lanes).itemsize   # the inverse: a copy, then in place
    for n in (1, 2, 64, 256, 1 << 12, 1 << 17, two_mib):
        for kind in ("cyclic", "negacyclic"):
            plan = get_plan(n, p, dtype=lanes, kind=kind)
            tables = tables_for(kernels, plan, valid_families(p, lanes)[-1])
            for where in {0, n // 2 + 1 if n > 2 else 0, n - 1}:
                for rows in (1, 3) if n < two_mib else (1,):   # (batches: below 2 MiB)
                    a = rng.integers(0, p // 2, (rows, n), dtype=np.uint64).astype(lanes)
                    a[-1, where] = p - 1 - rows
                    # (from 2^17 on, one thread and three: an uneven share)
                    for threads in (1, 2, 3) if n < 1 << 17 else (1, 3):
                        for natural in (True, False):
                            out = np.empty_like(a)
                            top = kernel(a, out, tables, threads, natural)
                            assert top == p - 1 - rows, (n, kind, where, rows, threads, natural)
                            in_place = a.copy()
                            assert kernel(in_place, in_place, tables, threads, natural) == 0
                            assert np.array_equal(in_place, out)


@pytest.mark.parametrize("n", [4, 1 << 12, 1 << 16, 1 << 17])
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("forward", [True, False])
def test_transforms_reject_values_the_kernel_finds(n, workers, forward):
    # uint32 / int32 rows into a fresh result or a separate out= skip the Python range
    # check: the kernel's largest value (the forward's first sweep, the inverse's copy or
    # permutation) must still raise, wherever the bad value sits, in either order,
    # leaving the input as it was
    p = 998244353
    transform = ntt_cy.ntt if forward else ntt_cy.intt
    base = np.random.default_rng(5).integers(0, p, n).astype(np.uint32)
    for where in (0, n // 2 + 1, n - 1):
        for bad, dtype, match in ((p, np.uint32, f"maximum {p}"),
                                  (2**32 - 1, np.uint32, "maximum 4294967295"),
                                  (-1, np.int32, "minimum -1")):
            a = base.astype(dtype)
            a[where] = bad
            before = a.copy()
            with pytest.raises(ValueError, match=match):
                transform(a, p, workers=workers)
            for kind in ("cyclic", "negacyclic"):
                plan = ntt_cy.NTTPlan(n, p, kind=kind)
                method = plan.forward if forward else plan.inverse
                for bit_reversed in (False, True):
                    with pytest.raises(ValueError, match=match):
                        method(a.reshape(1, n), workers=workers, bit_reversed=bit_reversed)
                    # into a separate out= (the kernel checks; out may be written)
                    with pytest.raises(ValueError, match=match):
                        method(a.reshape(1, n), out=np.empty((1, n), np.uint32),
                               workers=workers, bit_reversed=bit_reversed)
                    # in place (also through a view of another dtype): checked before
                    # anything is written
                    with pytest.raises(ValueError, match=match):
                        method(a.reshape(1, n), out=a.view(np.uint32).reshape(1, n),
                               workers=workers, bit_reversed=bit_reversed)
                    # an out= the kernel cannot write directly (another axis) is untouched
                    column = np.full((n, 1), 7, np.uint32)
                    with pytest.raises(ValueError, match=match):
                        method(a.reshape(n, 1), axis=0, out=column, workers=workers,
                               bit_reversed=bit_reversed)
                    assert (column == 7).all()
            assert np.array_equal(a, before)
    assert np.array_equal(transform(base.astype(np.int32), p), transform(base, p))


# ---- from a mutation campaign on the AVX-512 headers (run here through the emulated
# build): each test failed on a surviving mutant of ntt_cy/_simd*_avx512.h.

def _ints(row):
    return [int(x) for x in row]


# ---- residue sums of exactly p (ntt_v32_add: a < p - b, not a <= p - b) -------------
@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2281701377, np.uint32),
                                     (998244353, np.uint64), (2**64 - 2**32 + 1, np.uint64)])
@pytest.mark.parametrize("family", ["montgomery", "barrett"])
def test_butterfly_sums_of_exactly_p(isa, p, lanes, family):
    # "halves": a[j + n/2] = p - a[j], so every sum of the forward's first DIF stage (and,
    # after the natural-order inverse's permutation, of its first DIT stage) is exactly
    # p; "neighbours": a[2i + 1] = p - a[2i], the same for the bit-reversed-order inverse.
    # The exact families must still give the oracle's residues (< p).
    kernels = load(isa)
    rng = np.random.default_rng(p % 89)
    for n in (32, 64, 256, 1 << 12):
        plan = get_plan(n, p, dtype=lanes)
        tables = tables_for(kernels, plan, family)
        rev = bit_reverse_permutation(n)
        x = rng.integers(1, min(p, 2**63), n // 2, dtype=np.uint64)
        halves = np.concatenate([x, np.uint64(p) - x])
        neighbours = np.stack([x, np.uint64(p) - x], axis=1).reshape(n)
        for name, vec in (("halves", halves), ("neighbours", neighbours)):
            a = vec.astype(lanes).reshape(1, n)
            for natural in (True, False):
                out = np.empty_like(a)
                kernels.forward(a, out, tables, 1, natural)
                spectrum = out[0] if natural else out[0][rev]
                assert _ints(spectrum) == _ints(ntt_fast(a[0], p)), (name, n, natural, "fwd")
                kernels.inverse(a, out, tables, 1, natural)
                # inverse input: natural order, or bit-reversed (value k at rev(k))
                wanted = a[0] if natural else a[0][rev]
                assert int(out.max()) < p, (name, n, natural, "inv")
                assert _ints(ntt_fast(out[0], p)) == _ints(wanted), (name, n, natural, "inv")


# ---- the largest input value in every quarter of a radix-4 first sweep -------------
@pytest.mark.parametrize("isa", checkable_isas())
def test_forward_reports_the_largest_value_in_every_quarter(isa):
    # n = 2^18 on uint32: the forward's first sweep is radix-4 (half = 2^17, a quarter
    # 2^16 >= the chunk) and reads the row as four quarters x0..x3 while it finds the
    # largest value (run4_src); tests/test_ntt.py's positions (0, n/2 + 1, n - 1) leave
    # the second quarter [n/4, n/2) unchecked
    kernels = load(isa)
    p, n = 998244353, 1 << 18
    plan = get_plan(n, p, dtype=np.uint32)
    rng = np.random.default_rng(13)
    base = rng.integers(0, p // 2, (1, n), dtype=np.uint64).astype(np.uint32)
    for family in ("lazy", "montgomery", "barrett"):
        tables = tables_for(kernels, plan, family)
        for where in (5, n // 4 + 3, 3 * n // 8, n // 2 + 5, 3 * n // 4 + 7, n - 1):
            a = base.copy()
            a[0, where] = p - 1
            for threads in (1, 2):
                out = np.empty_like(a)
                assert kernels.forward(a, out, tables, threads, True) == p - 1, (family, where,
                                                                                threads)


def test_ntt_rejects_a_bad_value_in_the_second_quarter():
    # the same through the public API (the kernel's report is the only range check of
    # uint32 rows into a fresh result): run with NTT_CY_ISA=avx512_emulated to reach
    # the AVX-512 bodies on CPUs without AVX-512
    p, n = 998244353, 1 << 18
    a = np.random.default_rng(17).integers(0, p, n).astype(np.uint32)
    for where in (n // 4, n // 4 + 3, n // 2 - 1):
        bad = a.copy()
        bad[where] = p
        with pytest.raises(ValueError, match=f"maximum {p}"):
            ntt_cy.ntt(bad, p)


# ---- the IFMA (R = 2^52) Montgomery family ends at p < 2^52 -----------------------
# Odd primes just above 2^52 (the smallest with 2^21 | p - 1) and just below 2^53 (the
# largest with 2^20 | p - 1): vpmadd52 reads only the low 52 bits of its operands, so
# uint64 Montgomery must use R = 2^64 there.  tests/ only has uint64 primes below 2^52
# (1337006139375617, 3377699723673601, 4503599088402433) or near 2^62-2^64.
ABOVE_2_52 = [4503599629467649, 9007199247400961]

SCRIPT_ABOVE_2_52 = r"""
import sys, numpy as np, ntt_cy
sys.path.insert(0, sys.argv[1])
from ntt_oracle import dft
for p in map(int, sys.argv[2:]):
    rng = np.random.default_rng(p % 1000)
    for n in (16, 64, 256):
        a = [int(x) for x in rng.integers(0, p, n, dtype=np.uint64)]
        a[0] = p - 1
        for kind in ("cyclic", "negacyclic"):
            got = ntt_cy.ntt(np.array(a, np.uint64), p, kind=kind, reduction="montgomery")
            assert got.tolist() == dft(a, p, kind), (p, n, kind)
            back = ntt_cy.intt(got, p, kind=kind, reduction="montgomery")
            assert back.tolist() == a, (p, n, kind)
print("ok")
"""


@pytest.mark.parametrize("isa", checkable_isas())
def test_uint64_montgomery_just_above_2_52(isa):
    # each build in a fresh interpreter (the plans' Montgomery radix comes from the build
    # chosen at import, as in tests/test_isa.py)
    import os
    import pathlib
    import subprocess
    import sys
    tests_dir = str(pathlib.Path(__file__).resolve().parent)
    assert load(isa).montgomery_bits(ABOVE_2_52[0], 8) == 64
    assert load(isa).montgomery_bits(ABOVE_2_52[1], 8) == 64
    out = subprocess.run([sys.executable, "-c", SCRIPT_ABOVE_2_52, tests_dir, *map(str, ABOVE_2_52)],
                         env=dict(os.environ, NTT_CY_ISA=isa), capture_output=True, text=True,
                         timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


@pytest.mark.parametrize("family", ["montgomery", "barrett"])
def test_ntt_of_halves_summing_to_p(family):
    # test_butterfly_sums_of_exactly_p through the public API (the active build: run with
    # NTT_CY_ISA=avx512_emulated to reach the AVX-512 bodies on CPUs without AVX-512)
    p, n = 998244353, 64
    x = np.random.default_rng(19).integers(1, p, n // 2)
    a = np.concatenate([x, p - x]).astype(np.uint32)
    got = ntt_cy.ntt(a, p, reduction=family)
    assert _ints(got) == _ints(ntt_fast(a, p))
    assert _ints(ntt_cy.intt(got, p, reduction=family)) == _ints(a)


# ---------------------------------------------------------------- one small row
# A 1-D ndarray of n < PARALLEL_MIN_ELEMENTS values at the plan's lane width goes
# through one compiled call (_ntt.transform_row) from ntt / intt without out, dtype
# and root, and from NTTPlan.forward / inverse without out in natural order.

def _result_dtype(dt, lanes):
    """What a transform without out= or dtype= returns: uint32 and uint64 inputs keep
    their dtype (these tests' p fit it), others get the lanes'."""
    dt = np.dtype(dt)
    return dt if dt in (np.uint32, np.uint64) else lanes


def _fitting_dtypes(p, values):
    """The integer dtypes that hold every value (signed ones as the general route
    reads them)."""
    top = max(values)
    return [dt for dt in (np.uint32, np.int32, np.uint64, np.int64)
            if top <= np.iinfo(dt).max]


@pytest.mark.parametrize("p,kind,top", list(oracle_cases()))
def test_single_row_transforms_match_dft(p, kind, top):
    rng = np.random.default_rng(p % 997)
    n = 1
    while n <= top:
        a = [int(x) for x in rng.integers(0, min(p, 2**63), n)]
        a[-1] = p - 1
        expect = dft(a, p, kind)
        plan = get_plan(n, p, kind=kind)
        for dt in _fitting_dtypes(p, a):
            arr = np.array(a, dtype=dt)
            for fam in ["auto"] + valid_families(p, plan.dtype):
                tables = plan.tables(plan._family(fam))
                # any width: the lanes' own read directly, the other copied into the
                # result first and transformed in place (a uint32 / uint64 input keeps
                # its dtype)
                direct = _ntt.transform_row(arr, tables, True)
                assert direct.tolist() == expect, (n, dt, fam)
                assert direct.dtype == _result_dtype(dt, plan.dtype), (n, dt, fam)
                assert direct.dtype != plan.dtype or direct.ctypes.data % 64 == 0
                assert _ntt.transform_row(np.array(expect, dtype=dt), tables,
                                          False).tolist() == a, (n, dt, fam)
                got = ntt_cy.ntt(arr, p, kind=kind, reduction=fam)
                assert got.tolist() == expect, (n, dt, fam)
                assert got.dtype == _result_dtype(dt, plan.dtype), (n, dt, fam)
                assert plan.forward(arr, reduction=None if fam == "auto" else fam).tolist() \
                    == expect
                back = ntt_cy.intt(got, p, kind=kind, reduction=fam)
                assert back.tolist() == a, (n, dt, fam)
                assert plan.inverse(got).tolist() == a
        n *= 2


@pytest.mark.parametrize("p", LARGEST_PRIMES + [998244353, 3329])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
@pytest.mark.parametrize("fill", ["p-1", "random"])
def test_single_row_equals_the_general_route(p, kind, fill):
    # the largest residues at every size up to the one-thread limit, bit for bit
    # against the general route (into `out`), both directions, from arrays at the
    # lanes' width and the other one, and from lists
    k = (p - 1) & -(p - 1)
    top = min(k if kind == "cyclic" else k // 2, 4096)
    rng = np.random.default_rng(p % 1009)
    n = 1
    while n <= top:
        plan = get_plan(n, p, kind=kind)
        a = (np.full(n, p - 1, dtype=plan.dtype) if fill == "p-1"
             else rng.integers(0, p, n, dtype=np.uint64).astype(plan.dtype))
        other = a.astype(np.uint64 if plan.dtype == np.uint32 else np.uint32) \
            if p < 2**32 else a.astype(np.int64) if p < 2**63 else a
        before = a.copy()
        fast = ntt_cy.ntt(a, p, kind=kind)
        general = ntt_cy.ntt(a, p, kind=kind, out=np.empty_like(a))
        assert np.array_equal(fast, general), n
        for x in (a.tolist(), tuple(a.tolist()), other):
            assert np.array_equal(ntt_cy.ntt(x, p, kind=kind), general), (n, type(x))
            assert np.array_equal(plan.forward(x), general), (n, type(x))
        back = ntt_cy.intt(fast, p, kind=kind, out=np.empty_like(a))
        assert np.array_equal(back, a)
        for x in (fast, fast.tolist(), fast.astype(other.dtype)):
            assert np.array_equal(ntt_cy.intt(x, p, kind=kind), back), (n, type(x))
            assert np.array_equal(plan.inverse(x), back), (n, type(x))
        assert np.array_equal(a, before)
        n *= 2


@pytest.mark.parametrize("isa", checkable_isas())
@pytest.mark.parametrize("p,lanes", [(998244353, np.uint32), (2281701377, np.uint32),
                                     (998244353, np.uint64), (1337006139375617, np.uint64),
                                     (2**64 - 2**32 + 1, np.uint64)])
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_transform_row_every_build(isa, p, lanes, kind):
    kernels = load(isa)
    rng = np.random.default_rng(p % 89)
    for n in (1, 2, 8, 64, 256, 4096):
        plan = get_plan(n, p, dtype=lanes, kind=kind)
        a = rng.integers(0, p, n, dtype=np.uint64).astype(lanes)
        a[0] = p - 1
        for family in valid_families(p, lanes):
            tables = tables_for(kernels, plan, family)
            rows = a.reshape(1, n)
            for forward, kernel in ((True, kernels.forward), (False, kernels.inverse)):
                expected = np.empty_like(rows)
                kernel(rows, expected, tables, 1, True)
                got = kernels.transform_row(a, tables, forward)
                assert np.array_equal(got, expected[0]), (n, family, forward)
                # the other width: narrowed into uint32 lanes, widened into uint64 ones
                # (p < 2^32), or int64 (read as lanes only for p <= 2^63)
                other = a.astype(np.uint64 if lanes == np.uint32
                                 else np.uint32 if p < 2**32 else np.int64)
                if p < 2**63:
                    got = kernels.transform_row(other, tables, forward)
                    assert np.array_equal(got, expected[0]), (n, family, forward, "other")


def test_transform_row_declines_what_it_cannot_read():
    p, n = 998244353, 64
    plan = get_plan(n, p)
    tables = plan.tables(plan.reduction)
    a = np.arange(1, n + 1, dtype=np.uint32)
    above, negative = a.copy(), a.astype(np.int32)
    above[7] = p
    negative[3] = -1
    wide = np.zeros(2 * n, dtype=np.uint32)
    wide[::2] = a
    past_lanes = a.astype(np.uint64)
    past_lanes[4] = 2**32 + 5   # cut to 5 when narrowed: refused by the largest value
    cases = {"value >= p": above, "negative": negative, "strided": wide[::2],
             "value >= p, other width": above.astype(np.uint64),
             "negative, other width": negative.astype(np.int64),
             "value >= 2^32, other width": past_lanes,
             "other length": a[:-1],
             "two-dimensional": a.reshape(2, -1), "byte-swapped": a.astype(">u4"),
             "float": a.astype(np.float64), "masked": np.ma.masked_array(a)}
    for name, x in cases.items():
        assert _ntt.transform_row(x, tables, True) is None, name
        assert _ntt.transform_row(x, tables, False) is None, name
    # and the functions answer as before: the general route's result or its error
    assert np.array_equal(ntt_cy.ntt(wide[::2], p), ntt_cy.ntt(a, p))
    assert np.array_equal(ntt_cy.ntt(a.astype(np.uint64), p), ntt_cy.ntt(a, p))
    for bad in (above, negative, above.astype(np.int64), negative.astype(np.int64),
                above.tolist(), negative.tolist()):
        with pytest.raises(ValueError, match=r"outside \[0, p\)"):
            ntt_cy.ntt(bad, p)
        with pytest.raises(ValueError, match=r"outside \[0, p\)"):
            ntt_cy.intt(bad, p)
    with pytest.raises(TypeError, match="integers"):
        ntt_cy.ntt(a.astype(np.float64), p)
    with pytest.raises(TypeError, match="integers"):   # floats in a list: never truncated
        ntt_cy.ntt([1.5] + a.tolist()[1:], p)
    with pytest.raises(ValueError, match="workers"):
        ntt_cy.ntt(a, p, workers=0)
    with pytest.raises(ValueError, match="power of two"):
        ntt_cy.ntt(a[:3], p)
    with pytest.raises(ValueError, match="axis"):
        ntt_cy.ntt(a, p, axis=1)
    with pytest.raises(ValueError, match="reduction"):
        ntt_cy.ntt(a, p, reduction="fast")
