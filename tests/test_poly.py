"""polymul / convolve against exact oracles: a Python-int schoolbook for small sizes,
python-flint's fmpz_poly product (then reduced) for large ones."""
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ntt_cy
import ntt_cy.poly as poly
from ntt_cy import _crt as crt
from ntt_cy import _products, _routing, _single_row
from ntt_cy._single_row import clear_route_caches
from ntt_cy._support.checks import single_row_operand
from ntt_cy.poly import convolve, polymul

import flint  # test dependency (pip install -e ".[test]"): the independent oracle

REFERENCE_PRIMES = [3329, 7340033, 8380417, 104857601, 167772161, 469762049, 998244353,
                    1004535809, 2013265921, 2281701377, 1337006139375617, 2**64 - 2**32 + 1]
# A fixed random 62-bit composite: the product of two ~31-bit primes.
COMPOSITE_62 = 2147483629 * 2147483587
OTHER_MODULI = [1, 2, 2**31 - 1, 2**32 - 5, 2**32, 2**63 - 1, 10**9 + 7, 10**18 + 9,
                COMPOSITE_62, 2**64 - 1, 2**64 + 13, 2**100 + 277]
MODULI = REFERENCE_PRIMES + OTHER_MODULI
SMALL_LENGTHS = [1, 2, 3, 17]
KINDS = ["linear", "cyclic", "negacyclic"]


# ---------------------------------------------------------------- oracles

def naive(a, b, m, kind="linear"):
    """Python-int schoolbook, then the x^n -/+ 1 wrap, reduced mod m."""
    c = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            c[i + j] += int(x) * int(y)
    return [v % m for v in _wrap(c, len(a), kind)]


def _wrap(c, n, kind):
    if kind == "linear":
        return c
    sign = -1 if kind == "negacyclic" else 1
    out = c[:n]
    for i in range(n, len(c)):
        out[i - n] += sign * c[i]
    return out


def flint_product(a, b, m, kind="linear"):
    """fmpz_poly product over the integers, wrapped, reduced mod m."""
    c = flint.fmpz_poly([int(v) for v in a]) * flint.fmpz_poly([int(v) for v in b])
    coeffs = [int(v) for v in c.coeffs()]
    coeffs += [0] * (len(a) + len(b) - 1 - len(coeffs))
    return [v % m for v in _wrap(coeffs, len(a), kind)]


def as_ints(arr):
    return [int(v) for v in np.asarray(arr).ravel()]


def rand_vec(rng, n, m):
    return [rng.randrange(m) for _ in range(n)]


def force_path(mp, schoolbook):
    """Make every size/modulus take the schoolbook (True) or the transforms (False)."""
    mp.setattr(_routing, "schoolbook_cheaper", lambda *args: schoolbook)
    clear_route_caches()   # routes are cached per (R, na, nb, m, kind), and prepared


@pytest.fixture(params=["auto", "schoolbook", "transform"])
def path(request, monkeypatch):
    """Run a test with the automatic choice, or with one path forced."""
    if request.param != "auto":
        force_path(monkeypatch, request.param == "schoolbook")
    yield request.param
    clear_route_caches()


# ---------------------------------------------------------------- small sizes, all moduli

@pytest.mark.parametrize("m", MODULI)
def test_small_lengths_all_kinds(m, path):
    rng = random.Random(m % 1000003)
    for n in SMALL_LENGTHS:
        a, b = rand_vec(rng, n, m), rand_vec(rng, n, m)
        for kind in KINDS:
            assert as_ints(polymul(a, b, m, kind=kind)) == naive(a, b, m, kind), (n, kind)


@pytest.mark.parametrize("m", MODULI)
def test_unequal_lengths(m, path):
    rng = random.Random(7)
    for na, nb in [(1, 5), (2, 17), (17, 3), (40, 1)]:
        a, b = rand_vec(rng, na, m), rand_vec(rng, nb, m)
        assert as_ints(polymul(a, b, m)) == naive(a, b, m)


# ---------------------------------------------------------------- large sizes vs flint

@pytest.mark.parametrize("m", MODULI)
@pytest.mark.parametrize("na,nb", [(1000, 1000), (4096, 4096), (4096, 1000), (3, 4096)])
def test_large_vs_flint(m, na, nb):
    rng = np.random.default_rng(na * 7 + nb)
    a = _random_array(rng, na, m)
    b = _random_array(rng, nb, m)
    assert as_ints(polymul(a, b, m)) == flint_product(a.tolist(), b.tolist(), m)


def _random_array(rng, n, m):
    if m < 2**64:
        return rng.integers(0, m, size=n, dtype=np.uint64)
    r = random.Random(int(rng.integers(2**32)))
    return np.array([r.randrange(m) for _ in range(n)], dtype=object)


@pytest.mark.parametrize("m", [998244353, 7340033, 10**9 + 7, 2**64 - 1, 2**64 + 13])
def test_length_65537(m):
    rng = np.random.default_rng(65537)
    n = 65537
    if m < 2**64:
        a = rng.integers(0, m, size=n, dtype=np.uint64)
        b = rng.integers(0, m, size=n, dtype=np.uint64)
    else:
        a = rng.integers(0, 2**63, size=n, dtype=np.int64)
        b = rng.integers(-(2**63), 0, size=n, dtype=np.int64)
    got = polymul(a, b, m)
    assert as_ints(got) == flint_product(a.tolist(), b.tolist(), m)


BN254_R = 21888242871839275222246405745257275088548364400416034343698204186575808495617
WORST_CASE_MODULI = [2, 2**32, 10**9 + 7, 10**18 + 9, COMPOSITE_62, 2**63 - 1, 2**64 - 1,
                     2**64 + 13, 2**128, BN254_R, 2**255 - 19]
# n = 65537 only for a few moduli (the closed form is the same check; keeps CI fast).
WORST_CASES = [(m, n) for n in (1000, 4096) for m in WORST_CASE_MODULI] + \
    [(m, 65537) for m in (10**9 + 7, 2**64 - 1, 2**64 + 13)]


@pytest.mark.parametrize("m,n", WORST_CASES)
def test_all_m_minus_one_is_worst_case(m, n):
    """All coefficients m-1: every product term is (m-1)^2, the CRT bound is met with
    equality; (m-1)^2 = 1 mod m gives the closed form c_k = #terms mod m."""
    a = np.full(n, m - 1, dtype=np.uint64) if m < 2**64 else np.array([m - 1] * n, dtype=object)
    got = as_ints(polymul(a, a, m))
    expected = [min(k + 1, 2 * n - 1 - k) % m for k in range(2 * n - 1)]
    assert got == expected
    if n == 65537:
        return
    # negacyclic: c_k = (k + 1) - (n - 1 - k) products of (m-1)^2; cyclic: n.
    assert as_ints(polymul(a, a.copy(), m, kind="negacyclic")) == \
        [(2 * k + 2 - n) % m for k in range(n)]
    assert as_ints(polymul(a, a.copy(), m, kind="cyclic")) == [n % m] * n


BLS12_381_R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


@pytest.mark.parametrize("m", [2**64, 2**127 - 1, BN254_R, BLS12_381_R, 2**255 - 19, 3**300])
@pytest.mark.parametrize("na,nb", [(300, 300), (2048, 2000), (5000, 17)])
def test_multiword_moduli_vs_flint(m, na, nb):
    # moduli of several words (lattice / ZK sizes): the C residues and reduction of
    # _wide, from lists and from object arrays, against fmpz_poly over the integers
    rng = random.Random(m % 10007 + na)
    a = rand_vec(rng, na, m)
    b = [m - 1] * nb if na == 2048 else rand_vec(rng, nb, m)
    want = flint_product(a, b, m)
    got = polymul(a, b, m)
    assert as_ints(got) == want
    if m > 2**64:   # Python ints; m = 2**64: every value fits uint64
        assert got.dtype == object and all(type(v) is int for v in got)
    else:
        assert got.dtype == np.uint64
    assert as_ints(polymul(np.array(a, dtype=object), b, m, workers=2)) == want
    # values outside [0, m) are reduced first; the operands are left as they were
    shifted = [v - m if i % 3 else v + 5 * m for i, v in enumerate(a)]
    keep = list(shifted)
    assert as_ints(polymul(shifted, b, m)) == want and shifted == keep


@pytest.mark.parametrize("m", [2**64, 2**64 + 13, BN254_R])
@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.int32, np.uint8])
@pytest.mark.parametrize("n", [5, 3000])
def test_integer_arrays_modulo_multiword_moduli(m, dtype, n):
    # fixed-width arrays with m >= 2^64: Python ints below m, negatives reduced; the
    # extremes of each dtype, the operands left as they were
    info = np.iinfo(dtype)
    rng = np.random.default_rng(n)
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    b = rng.integers(info.min, info.max, n + 3, dtype=dtype, endpoint=True)
    a[:2] = info.min, info.max
    b[:2] = info.max, info.min
    keep = a.copy(), b.copy()
    want = flint_product(a.tolist(), b.tolist(), m)
    for x, y in ((a, b), (a.tolist(), b), (a, a)):
        got = polymul(x, y, m)
        assert got.dtype == (object if m > 2**64 else np.uint64)
        assert m == 2**64 or all(type(v) is int for v in got)
        if y is a:
            assert as_ints(got) == flint_product(a.tolist(), a.tolist(), m)
        else:
            assert as_ints(got) == want
    assert np.array_equal(a, keep[0]) and np.array_equal(b, keep[1])


@pytest.mark.parametrize("m", [2**64 + 13, BN254_R])
def test_strided_and_read_only_object_arrays_modulo_multiword_moduli(m):
    # views that are not C-contiguous, and read-only arrays, as any other operand
    rng = random.Random(m % 1000)
    base = np.array(rand_vec(rng, 400, m) + [None], dtype=object)[:-1]
    short = base[:10].copy()
    want = flint_product(base[::2].tolist(), short.tolist(), m)
    assert as_ints(polymul(base[::2], short, m)) == want
    grid = base.reshape(20, 20)[:, ::2]
    got = polymul(grid, short, m)
    for r in range(20):
        assert as_ints(got[r]) == flint_product(grid[r].tolist(), short.tolist(), m)
    frozen = base.copy()
    frozen.flags.writeable = False
    for x in (frozen, frozen[::3]):
        assert as_ints(polymul(x, x, m)) == flint_product(x.tolist(), x.tolist(), m)
        assert as_ints(polymul(x, short, m, kind="linear")) == \
            flint_product(x.tolist(), short.tolist(), m)
    assert as_ints(polymul(frozen[:64], frozen[64:128], m, kind="negacyclic")) == \
        flint_product(frozen[:64].tolist(), frozen[64:128].tolist(), m, "negacyclic")


# ---------------------------------------------------------------- cyclic / negacyclic

@pytest.mark.parametrize("m", [3329, 8380417, 998244353, 2, 2**32, 10**9 + 7, 2**64 - 1,
                               2**64 + 13])
@pytest.mark.parametrize("n", [1, 2, 3, 17, 128, 256, 1000, 1024])
def test_negacyclic_vs_direct_reduction(m, n, path):
    rng = random.Random(n)
    a, b = rand_vec(rng, n, m), rand_vec(rng, n, m)
    lin = flint_product(a, b, m)
    # direct reduction mod x^n + 1: x^(n+i) = -x^i
    expected = [(lin[i] - (lin[i + n] if i + n < len(lin) else 0)) % m for i in range(n)]
    assert as_ints(polymul(a, b, m, kind="negacyclic")) == expected
    cyc = [(lin[i] + (lin[i + n] if i + n < len(lin) else 0)) % m for i in range(n)]
    assert as_ints(polymul(a, b, m, kind="cyclic")) == cyc


def test_negacyclic_beyond_two_adicity():
    # 3329 has 2-adicity 8: negacyclic n = 256 needs 512 | p - 1, so it falls back.
    rng = random.Random(3)
    for n in (128, 256, 4096):
        a, b = rand_vec(rng, n, 3329), rand_vec(rng, n, 3329)
        assert as_ints(polymul(a, b, 3329, kind="negacyclic")) == \
            flint_product(a, b, 3329, "negacyclic")


def test_batched_negacyclic_rows():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 8380417, size=(64, 256), dtype=np.uint32)
    b = rng.integers(0, 8380417, size=(64, 256), dtype=np.uint32)
    got = polymul(a, b, 8380417, kind="negacyclic")
    assert got.shape == (64, 256) and got.dtype == np.uint32
    for r in (0, 17, 63):
        assert as_ints(got[r]) == flint_product(a[r].tolist(), b[r].tolist(), 8380417,
                                                "negacyclic")


# ---------------------------------------------------------------- batching and dtypes

@pytest.mark.parametrize("m", [998244353, 10**9 + 7, 2**64 + 13])
def test_batched_rows_and_broadcast(m):
    rng = random.Random(11)
    A = [rand_vec(rng, 20, m) for _ in range(3)]
    B = [rand_vec(rng, 7, m) for _ in range(3)]
    A_arr = np.array(A, dtype=object if m >= 2**64 else np.uint64)
    B_arr = np.array(B, dtype=object if m >= 2**64 else np.uint64)
    got = polymul(A_arr, B_arr, m)
    assert got.shape == (3, 26)
    for r in range(3):
        assert as_ints(got[r]) == naive(A[r], B[r], m)
    one = polymul(A_arr[0], B_arr, m)           # 1-D broadcast against rows
    assert one.shape == (3, 26)
    for r in range(3):
        assert as_ints(one[r]) == naive(A[0], B[r], m)
    deep = polymul(A_arr.reshape(3, 1, 20), B_arr.reshape(1, 3, 7), m)
    assert deep.shape == (3, 3, 26)
    assert as_ints(deep[2, 1]) == naive(A[2], B[1], m)


def test_output_dtypes():
    assert polymul([1, 2], [3], 998244353).dtype == np.uint32
    assert polymul([1, 2], [3], 2**32).dtype == np.uint32
    assert polymul([1, 2], [3], 2**32 + 1).dtype == np.uint64
    assert polymul([1, 2], [3], 2**64 - 1).dtype == np.uint64
    assert polymul([1, 2], [3], 2**64).dtype == np.uint64   # every value fits
    assert polymul([1, 2], [3], 2**64 + 1).dtype == object
    assert polymul([1, 2], [3], 1).dtype == np.uint32


def test_any_integer_values_are_reduced():
    m = 10**9 + 7
    a = [-1, 2**70, -(2**65) - 3, m, 5]
    b = [2**64 - 1, -7]
    assert as_ints(polymul(a, b, m)) == naive(a, b, m)
    a8 = np.array([-128, 127, -1], dtype=np.int8)
    assert as_ints(polymul(a8, a8, 97)) == naive(a8.tolist(), a8.tolist(), 97)
    big = np.array([2**64 - 1, 2**63], dtype=np.uint64)
    assert as_ints(polymul(big, big, 2**61 - 1)) == naive(big.tolist(), big.tolist(), 2**61 - 1)
    i64 = np.array([-(2**63), 2**63 - 1], dtype=np.int64)
    for m in (2**63 + 29, 2**64 - 59, 7):
        assert as_ints(polymul(i64, i64, m)) == naive(i64.tolist(), i64.tolist(), m)


def test_inputs_are_not_modified():
    rng = np.random.default_rng(2)
    for m in (998244353, 10**9 + 7, 2**64 + 13):
        a = rng.integers(-(2**40), 2**40, size=(2, 300))
        b = rng.integers(0, 2**62, size=(2, 300), dtype=np.uint64)
        a0, b0 = a.copy(), b.copy()
        polymul(a, b, m)
        polymul(a, b, m, kind="negacyclic")
        assert np.array_equal(a, a0) and np.array_equal(b, b0)



@pytest.mark.parametrize("m", [998244353, 1337006139375617, 10**9 + 7])
@pytest.mark.parametrize("rows", [1, 2, 16])
def test_results_share_no_memory_with_later_calls(m, rows):
    # the transforms' rows live in per-thread scratch buffers, reused by the next call:
    # a result is never a view of one (a linear product's rows are cropped out of them)
    rng = np.random.default_rng(rows)
    results = []
    for n in (300, 300, 4096, 4096):
        a = rng.integers(0, m, (rows, n), dtype=np.uint64)
        b = rng.integers(0, m, (rows, n), dtype=np.uint64)
        c = polymul(a, b, m)
        assert c.flags.c_contiguous and c.shape == (rows, 2 * n - 1)
        results.append((c, c.copy(), a, b))
    for i, (c, kept, a, b) in enumerate(results):   # intact after the later calls
        assert np.array_equal(c, kept)
        assert not any(np.shares_memory(c, later[0]) for later in results[i + 1:])
        assert as_ints(c[-1]) == flint_product(a[-1].tolist(), b[-1].tolist(), m)

def test_squaring_same_object_and_workers():
    rng = np.random.default_rng(9)
    a = rng.integers(0, 10**9 + 7, size=3000, dtype=np.uint64)
    expected = flint_product(a.tolist(), a.tolist(), 10**9 + 7)
    assert as_ints(polymul(a, a, 10**9 + 7, workers=1)) == expected
    assert as_ints(polymul(a, a, 10**9 + 7, workers=2)) == expected


def test_convolve_alias_and_export():
    assert convolve is polymul
    assert ntt_cy.polymul is polymul and ntt_cy.convolve is polymul


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize("modulus,exc", [(0, ValueError), (-5, ValueError), (2.5, TypeError),
                                         (True, TypeError), ("7", TypeError), (None, TypeError)])
def test_bad_modulus(modulus, exc):
    with pytest.raises(exc, match="modulus"):
        polymul([1], [1], modulus)


@pytest.mark.parametrize("a,exc", [
    ([], ValueError),
    (np.zeros((3, 0), dtype=np.int64), ValueError),
    (np.array(5), ValueError),
    ([1.0, 2.0], TypeError),
    (np.array([1.5]), TypeError),
    (np.array([True, False]), TypeError),
    (["1", "2"], TypeError),
    ([[1, 2], [3]], ValueError),
    (np.array([1, None], dtype=object), TypeError),
])
@pytest.mark.parametrize("m", [998244353, 2**64 + 13])
def test_bad_inputs(a, exc, m):
    with pytest.raises(exc):
        polymul(a, [1, 2], m)
    with pytest.raises(exc):
        polymul([1, 2], a, m)


def test_huge_modulus_limit():
    m = 2**600
    small = polymul(list(range(1, 11)), list(range(5)), m)     # Python-int schoolbook
    assert as_ints(small) == naive(list(range(1, 11)), list(range(5)), m)
    with pytest.raises(ValueError, match="too large"):
        polymul(list(range(100)), list(range(100)), m)         # needs > 16 CRT primes


def test_bad_kind_shapes_workers():
    with pytest.raises(ValueError, match="kind"):
        polymul([1], [1], 7, kind="circular")
    with pytest.raises(ValueError, match="same length"):
        polymul([1, 2, 3], [1, 2], 7, kind="cyclic")
    with pytest.raises(ValueError, match="broadcast"):
        polymul(np.ones((2, 3), dtype=int), np.ones((3, 3), dtype=int), 7)
    with pytest.raises(ValueError, match="workers"):
        polymul([1], [1], 7, workers=0)


# ---------------------------------------------------------------- properties

MODULUS = st.one_of(st.sampled_from(MODULI), st.integers(1, 2**70))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), m=MODULUS, kind=st.sampled_from(KINDS),
       na=st.integers(1, 40), nb=st.integers(1, 40))
def test_property_matches_schoolbook(data, m, kind, na, nb):
    if kind != "linear":
        nb = na
    values = st.integers(-(2**70), 2**70)
    a = data.draw(st.lists(values, min_size=na, max_size=na))
    b = data.draw(st.lists(values, min_size=nb, max_size=nb))
    assert as_ints(polymul(a, b, m, kind=kind)) == naive(a, b, m, kind)


@settings(max_examples=25, deadline=None)
@given(data=st.data(), m=MODULUS, na=st.integers(1, 300), nb=st.integers(1, 300),
       forced=st.booleans())
def test_property_both_paths_agree(data, m, na, nb, forced):
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    a, b = rand_vec(rng, na, m), rand_vec(rng, nb, m)
    with pytest.MonkeyPatch.context() as mp:
        force_path(mp, forced)
        got = as_ints(polymul(a, b, m))
    clear_route_caches()
    assert got == flint_product(a, b, m)


def test_backend_argument():
    with pytest.raises(ValueError, match="backend must be one of"):
        polymul([1, 2], [3], 7, backend="tpu")
    import ntt_cy.cuda as cuda
    if cuda.is_available():
        a, b = list(range(1, 300)), list(range(7, 100))
        for m in (998244353, 10**9 + 7):
            assert np.array_equal(polymul(a, b, m, backend="cuda"), polymul(a, b, m))
    else:  # the CPU machine's answer: a clear error, no crash
        with pytest.raises(cuda.CudaUnavailableError):
            polymul([1, 2], [3], 998244353, backend="cuda")


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64, np.int32, np.int64])
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("m", [998244353, 10**9 + 7, 2**32 - 5, 2**32, 2**61 - 1, 2**64 - 59])
def test_values_outside_range_found_inside_the_transform(dtype, workers, m):
    # 32/64-bit inputs reach the direct path (998244353), the one-call CRT products
    # (10**9 + 7, every prime above m; 2**32 - 5 and the moduli >= 2^32, inputs read
    # mod each prime as they load, 64-bit ones whole) and the schoolbook unchecked; a
    # value >= m or < 0 anywhere (first, last, vector tails, second quarter, any row)
    # must still be reduced
    rng = np.random.default_rng(11)
    for rows, n in ((2, 5), (1, 37), (1, 1000), (3, 4099), (1, 1 << 15)):   # (2, 5): schoolbook
        base = rng.integers(0, min(m, 2**63), (rows, n), dtype=np.uint64).astype(dtype)
        spots = [(0, 0), (rows - 1, n - 1), (rows // 2, n // 2), (rows - 1, n // 3)]
        for r, i in spots:
            for bad in ([m, m + 1, 2**32 - 1, 2**63, 2**64 - 1] if np.dtype(dtype).kind == "u"
                        else [m, -1, -m]):
                a = base.copy()
                if int(np.iinfo(dtype).max) < bad or int(np.iinfo(dtype).min) > bad:
                    continue
                a[r, i] = bad
                b = base[:, ::-1].copy()
                before = a.copy()
                got = polymul(a, b, m, workers=workers)
                # (the reduced values, in [0, m) below 2^64: the checked route)
                a_mod, b_mod = ((np.asarray(x, dtype=object) % m).astype(np.uint64) for x in (a, b))
                want = polymul(a_mod, b_mod, m, workers=1)
                assert np.array_equal(got, want), (rows, n, r, i, bad)
                assert np.array_equal(a, before)


@pytest.mark.parametrize("dtype,m,low,high", [
    (np.int32, 4179340454199820289, -(2**31), 0),          # any negative int32 < 2^32 < m
    (np.int32, 3221225473, -(2**31), -(2**30) - 2**29),     # reads as [2^31, m)
    (np.int64, 2**64 - 2**32 + 1, -(2**62), -(2**33)),      # reads as [2^63, m)
    (np.int32, 998244353, -(2**31), 0)])                    # always >= m as unsigned
def test_negative_signed_inputs_with_moduli_above_the_sign_bit(dtype, m, low, high):
    # negative values whose unsigned reading lies below m must still be reduced as
    # negatives (no value here gives the unchecked route away by reading >= m)
    rng = np.random.default_rng(12)
    a = rng.integers(low, high, 1000).astype(dtype)
    b = rng.integers(0, 2**20, 1000).astype(dtype)
    assert as_ints(polymul(a, b, m)) == flint_product(a.tolist(), b.tolist(), m)


@pytest.mark.parametrize("order", [">", "<"])
@pytest.mark.parametrize("dtype", ["i4", "u4", "i8", "u8"])
def test_byte_order_of_inputs(order, dtype):
    m = 998244353
    rng = np.random.default_rng(13)
    a = rng.integers(0, min(m, 2**31 - 1), 3000)
    b = rng.integers(0, 60, 3000)
    expected = flint_product(a.tolist(), b.tolist(), m)
    got = polymul(a.astype(order + dtype), b.astype(order + dtype), m)
    assert as_ints(got) == expected


@pytest.mark.parametrize("m", [998244353, 10**9 + 7, 2**32 - 5])
@pytest.mark.parametrize("da,db", [("i4", "i8"), ("u4", "u8"), ("u8", "i4"), ("u4", "i8")])
def test_operands_of_different_widths(m, da, db):
    # read as one unsigned width (uint64) on every path, checked and unchecked
    rng = np.random.default_rng(14)
    for n in (5, 128, 3000):
        a = rng.integers(0, min(m, 2**31 - 1), n).astype(da)
        b = rng.integers(0, min(m, 2**31 - 1), n).astype(db)
        b[0] = -1 if np.dtype(db).kind == "i" else b[0]
        assert as_ints(polymul(a, b, m)) == flint_product(a.tolist(), b.tolist(), m), n



@pytest.mark.parametrize("m", [998244353, 10**9 + 7, 1337006139375617])
@pytest.mark.parametrize("da,db", [("i8", "u4"), ("u4", "i8"), ("i4", "u8"), ("u2", "i8")])
def test_one_row_operands_of_different_widths_take_the_prepared_product(m, da, db,
                                                                       monkeypatch):
    # one 1-D row each (numpy's default int64 beside another product's uint32, say): the
    # narrower read as 8-byte values by the product prepared for the shape (where the
    # build's costs make it one call: not every shape mod 10^9 + 7 on the portable
    # build), without the general route's reading of the operands
    def general_route(*args):
        raise AssertionError("the general route read the operands")

    rng = np.random.default_rng(15)
    prepared = 0
    for n, kind in [(7, "linear"), (300, "linear"), (4096, "cyclic"), (8192, "negacyclic")]:
        a = rng.integers(0, 2**15, n).astype(da)
        b = rng.integers(0, 2**15, n).astype(db)
        a[0], b[-1] = np.iinfo(da).max % m, np.iinfo(db).max % m   # (below m)
        before = a.copy(), b.copy()
        with monkeypatch.context() as patch:
            if _single_row.prepare(n, n, m, kind) is not None:
                patch.setattr(poly, "_read_operands", general_route)
                prepared += 1
            got = polymul(a, b, m, kind=kind)
        assert as_ints(got) == flint_product(a.tolist(), b.tolist(), m, kind), (n, kind)
        assert got.dtype == poly.output_dtype(m)
        assert np.array_equal(a, before[0]) and np.array_equal(b, before[1])
    assert prepared >= 2   # (the schoolbook's shapes at least)

# ---------------------------------------------------------------- one small row
# 1-D integer arrays below PARALLEL_MIN_ELEMENTS take a product prepared per
# (len a, len b, m) (ntt_cy/_single_row.py): the schoolbook, a direct prime's padded
# product or the one-call CRT product, straight from the caller's arrays.

SINGLE_ROW_MODULI = [2, 3, 3329, 998244353, 2**31 - 1, 10**9 + 7, 2013265921, 2**32 - 5,
                     2**32, 2281701377, 1337006139375617, COMPOSITE_62, 2**61 - 1,
                     2**64 - 2**32 + 1, 2**64 - 59, 2**64 - 1]
SINGLE_ROW_LENGTHS = [(1, 1), (1, 7), (5, 3), (16, 16), (24, 24), (33, 64), (64, 64),
                      (100, 3), (255, 256), (1000, 1000), (2048, 2047)]


def _row(rng, n, m, dtype, fill):
    """n values below m that fit dtype: random, or all the largest (m - 1 where it fits)."""
    top = min(m, int(np.iinfo(dtype).max) + 1)
    if fill == "largest":
        return np.full(n, top - 1, dtype=dtype)
    return rng.integers(0, top, n, dtype=np.uint64).astype(dtype)


@pytest.mark.parametrize("m", SINGLE_ROW_MODULI)
@pytest.mark.parametrize("dtype", ["u4", "u8", "i4", "i8"])
def test_single_row_products_against_flint(m, dtype, path):
    rng = np.random.default_rng(m % 65521)
    for na, nb in SINGLE_ROW_LENGTHS:
        for fill in ("random", "largest"):
            a, b = _row(rng, na, m, dtype, fill), _row(rng, nb, m, dtype, fill)
            got = polymul(a, b, m)
            assert got.dtype == poly.output_dtype(m) and got.shape == (na + nb - 1,)
            assert as_ints(got) == flint_product(a.tolist(), b.tolist(), m), (na, nb, fill)
            square = polymul(a, a, m)
            assert as_ints(square) == flint_product(a.tolist(), a.tolist(), m), (na, fill)


@pytest.mark.parametrize("m", SINGLE_ROW_MODULI)
@pytest.mark.parametrize("kind", ["cyclic", "negacyclic"])
def test_single_row_wrapped_products_against_flint(m, kind, path):
    rng = np.random.default_rng(m % 65519)
    for n in (1, 2, 3, 8, 16, 64, 100, 256, 1024, 2048):
        for dtype in ("u4", "i8"):
            for fill in ("random", "largest"):
                a, b = _row(rng, n, m, dtype, fill), _row(rng, n, m, dtype, fill)
                got = polymul(a, b, m, kind=kind)
                assert got.dtype == poly.output_dtype(m) and got.shape == (n,)
                want = flint_product(a.tolist(), b.tolist(), m, kind)
                assert as_ints(got) == want, (n, dtype, fill)
                assert as_ints(polymul(a, a, m, kind=kind)) == \
                    flint_product(a.tolist(), a.tolist(), m, kind), (n, dtype, fill)


@pytest.mark.parametrize("m,na,nb,kind", [
    (998244353, 8, 8, "SingleRowSchoolbook"), (998244353, 64, 64, "SingleRowProduct"),
    (1337006139375617, 250, 200, "SingleRowProduct"), (10**9 + 7, 128, 128, "SingleRowCRT"),
    (2**32, 256, 256, "SingleRowCRT"), (2**64 - 59, 1000, 1000, "SingleRowCRT"),
    (2**61 - 1, 3, 2000, "SingleRowSchoolbook"),
    # cyclic / negacyclic: transforms of length n, or the linear route folded
    (8380417, 256, 256, "SingleRowWrapped/negacyclic"),
    (1337006139375617, 512, 512, "SingleRowWrapped/cyclic"),
    (998244353, 100, 100, "SingleRowProduct/cyclic"),
    (10**9 + 7, 256, 256, "SingleRowCRT/negacyclic"),
    (2**64 - 59, 64, 64, "SingleRowCRT/cyclic"),
    (8380417, 8, 8, "SingleRowSchoolbook/negacyclic")])
def test_single_row_routes_are_prepared(m, na, nb, kind):
    kind, product_kind = (kind.split("/") + ["linear"])[:2]
    # the routes depend on the measured kernel costs: pinned at the vector builds'
    # (the portable build's uint64 lanes cost ~1.4x its uint32 ones, not ~4.5x, and its
    # transforms ~6x theirs, which moves the CRT primes and the schoolbook's crossover)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_routing, "transform_costs", lambda: (0.18, 4.5))
        clear_route_caches()
        try:
            prepared = _single_row.prepare(na, nb, m, product_kind)
            assert type(prepared).__name__ == kind
            rng = np.random.default_rng(na)
            a, b = _row(rng, na, m, "u8", "random"), _row(rng, nb, m, "u8", "random")
            got = prepared.product(a, b)
            # the same operands as 32-bit lanes (values below 2^32), or as int64 (below 2^63)
            other = (np.uint32 if m < 2**32 else np.int64 if m <= 2**63 else None)
            if other is not None:
                assert np.array_equal(prepared.product(a.astype(other), b.astype(other)), got)
        finally:
            clear_route_caches()   # nothing chosen under the pinned costs stays cached
    # the general route (lists), and the exact product
    assert np.array_equal(got, polymul(a.tolist(), b.tolist(), m, kind=product_kind))
    assert got.dtype == poly.output_dtype(m)
    assert as_ints(got) == flint_product(a.tolist(), b.tolist(), m, product_kind)
    assert got.flags.owndata and got.flags.c_contiguous and got.flags.writeable


@pytest.mark.parametrize("m,na,nb,kind", [
    (998244353, 8, 8, "linear"), (998244353, 64, 64, "linear"), (10**9 + 7, 64, 64, "linear"),
    (2**64 - 59, 100, 100, "linear"), (998244353, 256, 256, "negacyclic"),
    (1337006139375617, 64, 64, "cyclic"), (10**9 + 7, 64, 64, "negacyclic")])
def test_single_row_declines_what_it_cannot_read(m, na, nb, kind):
    # product() returns None (and polymul the general route's answer) for every
    # operand it does not take as it is
    prepared = _single_row.prepare(na, nb, m, kind)
    rng = np.random.default_rng(5)
    lanes = "u4" if m < 2**32 else "u8"
    a, b = _row(rng, na, m, lanes, "random"), _row(rng, nb, m, lanes, "random")
    above = a.copy()
    above[-1] = m
    negative = a.astype(np.int64)
    negative[0] = -1
    wide = np.zeros(2 * na, dtype=np.uint64)
    wide[::2] = a
    cases = {
        "value >= m": (above, b),
        "negative": (negative, b.astype(np.int64)),
        "longer": (np.concatenate([a, a[:1]]), b),
        "strided": (wide[::2], b),
        "two-dimensional": (a.reshape(1, -1), b),
        "float": (a.astype(np.float64), b),
        "widths differ": ((a % 2**31).astype(np.uint32 if lanes == "u8" else np.uint64), b),
        "byte-swapped": (a.astype(">" + lanes), b),
        "bool": (a.astype(bool), b),
        "masked": (np.ma.masked_array(a), b),
    }
    if m > 2**63:   # int64 cannot tell a negative value from one below m: refused
        cases["signed above the sign bit"] = (a.astype(np.int64), b.astype(np.int64))
    assert prepared.product(a, b) is not None
    for name, (x, y) in cases.items():
        assert prepared.product(x, y) is None, name
        if x.ndim == 2 or x.dtype.kind == "f" or x.dtype == bool or name == "longer" \
                and kind != "linear":
            continue   # the general route's errors, or a batch: tested elsewhere
        want = flint_product(x.astype(object).tolist(), y.astype(object).tolist(), m, kind)
        before = x.copy()
        assert as_ints(polymul(x, y, m, kind=kind)) == want, name
        assert np.array_equal(x, before), name


def test_single_row_keeps_the_general_contract():
    m = 998244353
    a = np.arange(1, 65, dtype=np.uint32)
    a.setflags(write=False)   # read-only inputs are read, not copied
    assert as_ints(polymul(a, a, m)) == naive(a.tolist(), a.tolist(), m)
    from ntt_cy._support.threads import cpu_count

    for workers in (0, -cpu_count() - 1, 1.5):
        with pytest.raises((ValueError, TypeError), match="workers"):
            polymul(a, a, m, workers=workers)
    assert as_ints(polymul(a, a, m, workers=2)) == naive(a.tolist(), a.tolist(), m)
    with pytest.raises(ValueError, match="empty|length"):
        polymul(a[:0], a, m)
    # the cache of prepared products stays bounded, the newest kept
    for n in range(1, _single_row.PREPARED_LIMIT + 20):
        polymul(a[:1], np.ones(n, dtype=np.uint32), m)
    assert len(_single_row.prepared_products) <= _single_row.PREPARED_LIMIT
    assert (1, _single_row.PREPARED_LIMIT + 19, m, "linear") in _single_row.prepared_products
    # moduli it never serves are not kept alive by it
    huge = (1 << 4096) + 1
    assert as_ints(polymul(a[:3], a[:3], huge)) == naive(a[:3].tolist(), a[:3].tolist(), huge)
    assert not any(key[2] == huge for key in _single_row.prepared_products)
    # numpy subclasses go the general route (a masked value is an error there)
    masked = np.ma.masked_array(a, mask=[i == 5 for i in range(64)])
    with pytest.raises(TypeError, match="masked"):
        polymul(masked, a, m)
    prepared = _single_row.prepare(64, 64, m)
    assert prepared.product(masked, a) is None and prepared.product(a, a) is not None


@pytest.mark.parametrize("m", [2, 3329, 998244353, 10**9 + 7, 2**32, 2**61 - 1, 2**64 - 59])
@pytest.mark.parametrize("kind", KINDS)
def test_lists_and_tuples_take_the_single_row_route(m, kind, monkeypatch):
    # numpy reads a list of Python ints as int64 (uint64 above 2^63); the prepared
    # product takes that array where its values lie in [0, m), the general route the
    # rest, with the same answers
    rng = random.Random(m % 10007)
    seen = []
    real = poly.single_row_product

    def spy(a, b, m_, kind_, workers, checked=True):
        out = real(a, b, m_, kind_, workers, checked)
        seen.append((type(a), type(b), out is not None))
        return out

    monkeypatch.setattr(poly, "single_row_product", spy)
    for n in (1, 5, 64, 300):
        a, b = rand_vec(rng, n, m), rand_vec(rng, n, m)
        want = naive(a, b, m, kind)
        seen.clear()
        assert as_ints(polymul(a, b, m, kind=kind)) == want, n
        assert as_ints(polymul(tuple(a), b, m, kind=kind)) == want, n
        # above m = 2^63 only uint64 rows are read as lanes: numpy reads a list as
        # int64, or as float64 where values past 2^63 mix with others (refused before
        # the route), the general route taking both
        rows = [single_row_operand(x, 8192) for x in (a, b)]
        if m <= 2**63:
            assert seen and all(ok for _, _, ok in seen), (n, seen)
        elif any(r is None for r in rows):
            assert not seen, (n, seen)
        else:
            assert seen and all(ok == (rows[0].dtype == rows[1].dtype == np.uint64)
                                for _, _, ok in seen), (n, seen)
        assert all(ta is np.ndarray and tb is np.ndarray for ta, tb, _ in seen)
        # values outside [0, m), negatives, huge ints, floats: the general route's answer
        # or its error
        for bad in (-1, m, 2**64 + 5, -(2**70)):
            x = [bad] + a[1:]
            assert as_ints(polymul(x, b, m, kind=kind)) == \
                naive([v % m for v in x], b, m, kind), (n, bad)
        with pytest.raises(TypeError, match="integers"):
            polymul([1.5] + a[1:], b, m, kind=kind)
    assert as_ints(polymul(a, a, m, kind=kind)) == naive(a, a, m, kind)   # squaring


def test_single_row_operand_reads_only_integer_rows():
    limit = 100
    assert single_row_operand([1, 2, 3], limit).dtype == np.int64
    assert single_row_operand([2**63, 2**64 - 1], limit).dtype == np.uint64
    assert single_row_operand((True, 2), limit).tolist() == [1, 2]
    for refused in ([], [1.0, 2], [2**64], [-1, 2**64 - 2], [2**63, 1], [[1, 2], [3]],
                    ["1"], [True], list(range(limit)), {1, 2}, range(3),
                    np.ones((2, 2), np.int64), 5, None):
        assert single_row_operand(refused, limit) is None, refused
    row = np.arange(3)
    assert single_row_operand(row, limit) is row


@pytest.mark.parametrize("m", [2**64 + 13, 2**127 - 1, BN254_R, BLS12_381_R, 2**255 - 19,
                               2**400 - 593])
@pytest.mark.parametrize("shape_a,shape_b", [((300,), (1,)), ((37,), (64,)), ((3, 200), (3, 129)),
                                             ((600,), (600,))])
def test_wide32_route_vs_flint(monkeypatch, m, shape_a, shape_b):
    # moduli of several words on uint32 primes (crt.wide32_basis: 3 to 32 of them,
    # _products.object_products), forced at every length, rows of a batch and all-(m - 1)
    # operands included, against fmpz_poly
    monkeypatch.setattr(_routing, "WIDE32_MIN_LENGTH", 1)
    clear_route_caches()
    calls = []
    real = _products.object_products
    monkeypatch.setattr(_products, "object_products",
                        lambda *a: calls.append((a[3].k, a[3].dtype)) or real(*a))
    rng = random.Random(m % 10007 + shape_a[-1])
    size_a, size_b = math.prod(shape_a), math.prod(shape_b)
    a = np.array(rand_vec(rng, size_a, m), dtype=object).reshape(shape_a)
    b = np.array([m - 1] * size_b if size_b == 600 else rand_vec(rng, size_b, m),
                 dtype=object).reshape(shape_b)
    for workers in (1, 2):
        got = polymul(a, b, m, workers=workers)
        for r in range(got.shape[0] if got.ndim == 2 else 1):
            ra, rb = (a[r], b[r]) if got.ndim == 2 else (a, b)
            want = flint_product(ra.tolist(), rb.tolist(), m)
            assert as_ints(got[r] if got.ndim == 2 else got) == want
    clear_route_caches()   # (none chosen with the length switched stays cached)
    if size_a * shape_b[-1] * m.bit_length() <= _routing.OBJECT_SCHOOLBOOK_BITS:   # R na nb
        assert not calls   # (the Python-int schoolbook's products)
        return
    bits = (2 * (m - 1).bit_length() + min(shape_a[-1], shape_b[-1]).bit_length())
    k, lanes = calls[0]
    assert lanes == np.uint32 and 3 <= k <= crt.WIDE32_MAX_PRIMES and k * 30 > bits


def test_wide32_basis_limits():
    # at most WIDE32_MAX_PRIMES primes; beyond them (m of ~480 bits at n = 2^11) the
    # 62-bit basis serves instead, as before
    basis = crt.wide32_basis(2**500, 11)
    assert basis.k == 17 and basis.dtype == np.uint32 and basis.product > 2**500
    assert crt.wide32_basis(2**960, 11) is None
    m = 3**300
    a = [m - 1] * 2048
    assert as_ints(polymul(a, a, m)) == [min(k + 1, 4095 - k) % m for k in range(4095)]


# ---------------------------------------------------------------- out= written directly

@pytest.mark.parametrize("m, kind, na, nb", [(998244353, "linear", 3000, 2000),
                                             (998244353, "cyclic", 4096, 4096),
                                             (998244353, "negacyclic", 4096, 4096),
                                             (10**9 + 7, "linear", 3000, 2000),
                                             (2**61 - 1, "linear", 3000, 2000)])
@pytest.mark.parametrize("aligned", [True, False])
def test_a_batch_product_into_out_allocates_no_result(m, kind, na, nb, aligned):
    # the kernels write the products into `out` (or into scratch rows copied there):
    # no result-sized array, whether out is 64-byte aligned or numpy's own
    import tracemalloc

    from ntt_cy._support.aligned import aligned_empty
    rng = np.random.default_rng(na)
    dtype = np.uint32 if m < 2**32 else np.uint64
    a = rng.integers(0, m, (4, na), dtype=np.uint64).astype(dtype)
    b = rng.integers(0, m, (4, nb), dtype=np.uint64).astype(dtype)
    want = polymul(a, b, m, kind=kind)
    shape = want.shape
    out = aligned_empty(shape, dtype) if aligned else np.empty(shape, dtype)
    if not aligned and out.ctypes.data % 64 == 0:
        out = np.empty(want.size + 16, dtype)[4:4 + want.size].reshape(shape)
    assert polymul(a, b, m, kind=kind, out=out) is out and np.array_equal(out, want)
    out[...] = 0
    tracemalloc.start()
    try:
        assert polymul(a, b, m, kind=kind, out=out) is out
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(out, want)
    route = _routing.product_route(4, na, nb, m, kind)
    if _products.result_dtype(route, m) is not None:
        assert peak < want.nbytes // 4, (route, peak, want.nbytes)


def test_out_sharing_an_operands_memory_gets_the_whole_product():
    rng = np.random.default_rng(21)
    m = 998244353
    a = rng.integers(0, m, (3, 4096), dtype=np.uint32)
    b = rng.integers(0, m, (3, 4096), dtype=np.uint32)
    want = polymul(a, b, m, kind="cyclic")
    assert polymul(a, b, m, kind="cyclic", out=b) is b
    assert np.array_equal(b, want)


@pytest.mark.parametrize("m", [12289, 998244353, 10**9 + 7, 2**61 - 1])
@pytest.mark.parametrize("dtype", [np.int64, np.int32])
@pytest.mark.parametrize("spread", ["centred", "wide"])
def test_signed_operands_reduce_to_the_python_product(m, dtype, spread):
    # centred coefficients (every value in [-m, m): the sign-mask reduction) and wider
    # ones (the remainder), one row and a batch, against Python ints; the transform
    # routes see a negative value on their first read and start again on residues
    rng = np.random.default_rng(m % 1009)
    info = np.iinfo(dtype)
    bound = min(m, info.max) if spread == "centred" else info.max
    a = rng.integers(-bound, bound, (3, 300), dtype=np.int64).astype(dtype)
    b = rng.integers(-bound, bound, (3, 257), dtype=np.int64).astype(dtype)
    if spread == "centred":
        a[0, :2] = [-min(m, -int(info.min)), bound - 1]
    originals = a.copy(), b.copy()
    got = polymul(a, b, m)
    for row in range(3):
        want = np.convolve(a[row].astype(object), b[row].astype(object)) % m
        assert [int(v) for v in got[row]] == [int(v) for v in want]
        assert np.array_equal(polymul(a[row], b[row], m), got[row])
    assert np.array_equal(a, originals[0]) and np.array_equal(b, originals[1])
