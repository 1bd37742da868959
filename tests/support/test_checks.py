"""Every input check raises the documented exception with a message naming the condition."""
import numpy as np
import pytest

import ntt_cy
from ntt_cy import NTTPlan

P = 998244353


@pytest.mark.parametrize("n", [3, 6, 12, 1000])
def test_length_not_power_of_two(n):
    with pytest.raises(ValueError, match="not a power of two"):
        ntt_cy.ntt(np.zeros(n, dtype=np.uint32), P)
    with pytest.raises(ValueError, match="not a power of two"):
        NTTPlan(n, P)


def test_n_does_not_divide_p_minus_1():
    # Kyber's prime: 3328 = 2^8 * 13, so n = 256 at most (128 negacyclic).
    with pytest.raises(ValueError, match=r"n = 512 does not divide p - 1 = 3328"):
        NTTPlan(512, 3329)
    NTTPlan(256, 3329)
    with pytest.raises(ValueError, match=r"2n = 512 does not divide"):
        NTTPlan(256, 3329, kind="negacyclic")
    with pytest.raises(ValueError, match="largest negacyclic length: 128"):
        ntt_cy.ntt(np.zeros(256, np.uint32), 3329, kind="negacyclic")


def test_p_not_prime_or_out_of_range():
    with pytest.raises(ValueError, match="is not prime"):
        NTTPlan(4, 998244351)
    with pytest.raises(ValueError, match="is not prime"):
        ntt_cy.ntt([1, 2], 1)
    with pytest.raises(ValueError, match=r"out of range.*p < 2\*\*64"):
        ntt_cy.ntt([1, 2], 2**64 + 13)
    with pytest.raises(ValueError, match="out of range for uint32 lanes"):
        NTTPlan(4, 2**64 - 2**32 + 1, dtype=np.uint32)
    with pytest.raises(TypeError, match="dtype must be uint32 or uint64"):
        NTTPlan(4, P, dtype=np.int64)
    with pytest.raises(TypeError, match="p must be an integer"):
        ntt_cy.ntt([1, 2], 998244353.0)


def test_values_outside_range_raise():
    with pytest.raises(ValueError, match=r"outside \[0, p\).*maximum 998244353"):
        ntt_cy.ntt(np.array([0, P], dtype=np.uint32), P)
    with pytest.raises(ValueError, match=r"outside \[0, p\).*minimum -1"):
        ntt_cy.ntt(np.array([0, -1], dtype=np.int64), P)
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        ntt_cy.ntt([2**70, 1], P)
    # Python ints numpy would turn into floats stay exact (and are range-checked).
    with pytest.raises(ValueError, match=r"outside \[0, p\).*-1"):
        ntt_cy.ntt([-1, 2**64 - 2], 2**64 - 59)
    with pytest.raises(TypeError, match="must hold integers"):
        ntt_cy.ntt([1.5, 2.0], P)
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        ntt_cy.ntt(np.full(4, 2**64 - 1, dtype=np.uint64), 2**64 - 2**32 + 1)


@pytest.mark.parametrize("bad", [
    np.zeros(4, dtype=np.float64), np.zeros(4, dtype=np.complex128),
    np.zeros(4, dtype=bool), np.array([1, "x", 2, 3], dtype=object),
    np.array([1.0, 2, 3, 4], dtype=object),
])
def test_bad_dtypes_raise_type_error(bad):
    with pytest.raises(TypeError, match="must hold integers"):
        ntt_cy.ntt(bad, P)


def test_bools_among_ints_are_the_ints_they_equal():
    # as numpy reads [True, 2] (int64), also where the other values make the list one
    # of objects (past 2^64) or floats (both sides of 2^63); bools alone stay refused
    from ntt_cy._support.checks import as_integer_array

    for values in ([True, 2], [2, True, 2**64 - 60], [True, 2**70], [np.True_, -1, 2**64 - 2]):
        got = as_integer_array(values)
        assert [int(v) for v in got] == [int(v) for v in values], values
    assert ntt_cy.polymul([2, True, 2**64 - 60], [1, 2], 2**64 - 59).tolist() == \
        ntt_cy.polymul([2, 1, 2**64 - 60], [1, 2], 2**64 - 59).tolist()
    for bools in ([True, False], np.array([True, False], dtype=object), [True, 1.5]):
        with pytest.raises(TypeError, match="must hold integers"):
            as_integer_array(bools)
    for empty in ([], np.array([], dtype=object)):   # empty, not a dtype error
        with pytest.raises(ValueError, match="empty"):
            as_integer_array(empty)


def test_empty_arrays():
    with pytest.raises(ValueError, match="empty"):
        ntt_cy.ntt(np.zeros(0, dtype=np.uint32), P)
    with pytest.raises(ValueError, match="empty"):
        ntt_cy.ntt(np.zeros((8, 0), dtype=np.uint32), P)
    # an empty batch of length-8 rows is no error: an empty result (numpy.fft's rule)
    assert ntt_cy.ntt(np.zeros((0, 8), dtype=np.uint32), P).shape == (0, 8)


@pytest.mark.parametrize("bad", [None, (v for v in range(8)), {0: 1}, object()])
def test_not_array_like_names_the_type(bad):
    with pytest.raises(TypeError, match="must be an array-like of integers, got"):
        ntt_cy.ntt(bad, P)
    with pytest.raises(TypeError, match="must be an array-like of integers, got"):
        ntt_cy.polymul(bad, [1, 2], 7)


def test_masked_values_are_refused_not_read():
    a = np.ma.masked_array(np.arange(8, dtype=np.uint32), mask=[0, 1] + [0] * 6)
    with pytest.raises(TypeError, match="masked array"):
        ntt_cy.ntt(a, P)
    with pytest.raises(TypeError, match="masked array"):
        ntt_cy.polymul(a, a, 7)
    plain = np.ma.masked_array(np.arange(8, dtype=np.uint32))   # nothing masked
    assert np.array_equal(ntt_cy.ntt(plain, P), ntt_cy.ntt(np.arange(8, dtype=np.uint32), P))


def test_bad_out():
    a = np.arange(16, dtype=np.uint32)
    with pytest.raises(ValueError, match="out has shape"):
        ntt_cy.ntt(a, P, out=np.empty(8, np.uint32))
    with pytest.raises(TypeError, match="out has dtype uint16, which cannot hold"):
        ntt_cy.ntt(a, P, out=np.empty(16, np.uint16))
    big = np.arange(32, dtype=np.uint32)
    with pytest.raises(ValueError, match="overlaps the input"):
        ntt_cy.ntt(big[:16], P, out=big[8:24])
    ro = np.empty(16, np.uint32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        ntt_cy.ntt(a, P, out=ro)
    with pytest.raises(TypeError, match="out must be a numpy array"):
        ntt_cy.ntt(a, P, out=[0] * 16)


def test_bad_kind_reduction_axis_backend():
    a = np.arange(8, dtype=np.uint32)
    with pytest.raises(ValueError, match="kind must be one of"):
        ntt_cy.ntt(a, P, kind="acyclic")
    with pytest.raises(ValueError, match="kind must be one of"):
        ntt_cy.ntt(a, P, kind=["cyclic"])
    with pytest.raises(ValueError, match="reduction must be one of"):
        ntt_cy.ntt(a, P, reduction="fast")
    # a str subclass names a family as the str does
    assert np.array_equal(ntt_cy.ntt(a, P, reduction=np.str_("barrett")), ntt_cy.ntt(a, P))
    assert np.array_equal(ntt_cy.intt(list(a), P, reduction=np.str_("lazy")), ntt_cy.intt(a, P))
    with pytest.raises(ValueError, match="axis 1 is out of bounds"):
        ntt_cy.ntt(a, P, axis=1)
    with pytest.raises(ValueError, match="backend must be one of"):
        ntt_cy.ntt(a, P, backend="tpu")


@pytest.mark.parametrize("transform", [ntt_cy.ntt, ntt_cy.intt])
def test_gpu_backend_checks_every_argument_first(transform):
    # The same refusals with backend="cuda" as on the CPU, before any GPU is needed.
    a = [1, 2, 3, 4]
    with pytest.raises(ValueError, match="not a primitive 4-th root"):
        transform(a, P, root=2, backend="cuda")
    with pytest.raises(TypeError, match="dtype must be uint32 or uint64"):
        transform(a, P, dtype=np.int64, backend="cuda")
    with pytest.raises(ValueError, match="out of range for uint32 lanes"):
        transform(a, 2**64 - 2**32 + 1, dtype=np.uint32, backend="cuda")
    with pytest.raises(ValueError, match="workers = 0 is out of range"):
        transform(a, P, workers=0, backend="cuda")
    with pytest.raises(ValueError, match="workers = .* is out of range"):
        ntt_cy.polymul(a, a, P, workers=-10**6, backend="cuda")


def test_lazy_refused_without_headroom_and_montgomery_needs_odd():
    with pytest.raises(ValueError, match=r"lazy' needs p < 2\*\*31"):
        ntt_cy.ntt(np.arange(8, dtype=np.uint32), 2281701377, reduction="lazy")
    with pytest.raises(ValueError, match=r"lazy' needs 4p <= 2\*\*64"):
        ntt_cy.ntt(np.arange(8, dtype=np.uint64), 2**64 - 2**32 + 1, reduction="lazy")
    with pytest.raises(ValueError, match="needs an odd modulus"):
        NTTPlan(1, 2, reduction="montgomery")


def test_trivial_modulus_two():
    assert ntt_cy.ntt([1], 2).tolist() == [1]
    assert ntt_cy.intt([1], 2).tolist() == [1]


def test_plan_length_mismatch():
    plan = NTTPlan(16, P)
    with pytest.raises(ValueError, match="plan expects n = 16"):
        plan.forward(np.zeros(8, np.uint32))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64,
                                   np.uint8, np.uint16, np.uint32, np.uint64])
@pytest.mark.parametrize("p", [7, 2**31 - 1, 2**31 + 11, 2**63 - 25, 2**63 + 29, 2**64 - 59])
def test_range_check_every_dtype_and_sign_boundary(dtype, p):
    # the one-pass unsigned-view check must agree with Python ints on both sides
    # of every signed/unsigned boundary (p around 2^31, 2^63)
    from ntt_cy._support.checks import integers_to_lanes

    info = np.iinfo(dtype)
    lanes = np.dtype(np.uint64)
    samples = {info.min, info.max, 0, 1, -1, p - 1, p, -p, info.min // 2}
    values = sorted(v for v in samples if info.min <= v <= info.max)
    arr = np.array(values, dtype=dtype)
    reduced = integers_to_lanes(arr, p, lanes, "a", "reduce")
    assert [int(v) for v in reduced] == [v % p for v in values]
    inside = [v for v in values if 0 <= v < p]
    ok = integers_to_lanes(np.array(inside, dtype=dtype), p, lanes, "a", "raise")
    assert [int(v) for v in ok] == inside
    if len(inside) < len(values):
        with pytest.raises(ValueError, match="outside"):
            integers_to_lanes(arr, p, lanes, "a", "raise")


def test_byte_swapped_inputs_of_transforms():
    p = 3221225473
    x = np.arange(1, 9)
    want = ntt_cy.ntt(x, p)
    for order in (">", "<"):
        for dt in ("i4", "i8", "u4", "u8"):
            assert np.array_equal(ntt_cy.ntt(x.astype(order + dt), p), want), (order, dt)


def test_out_may_be_the_input_seen_through_another_integer_dtype():
    # int64 input transformed in place through its uint64 view
    p = 4179340454199820289
    x = np.arange(1, 17, dtype=np.int64)
    want = ntt_cy.ntt(x, p, dtype=np.uint64)
    plan = NTTPlan(16, p, dtype=np.uint64)
    out = plan.forward(x, out=x.view(np.uint64))
    assert np.shares_memory(out, x) and np.array_equal(out, want)
    with pytest.raises(ValueError, match="overlaps"):
        y = np.arange(1, 18, dtype=np.int64)
        plan.forward(y[:16], out=y[1:].view(np.uint64))


@pytest.mark.parametrize("transform", [ntt_cy.ntt, ntt_cy.intt])
def test_out_overlapping_an_input_that_needs_converting(transform):
    # The kernel reads a converted copy of such an input, so only the caller's array
    # tells that `out` overlaps it: int64 or uint64 values with uint32 lanes.
    for dtype in (np.int64, np.uint64):
        buf = np.arange(16, dtype=dtype)
        before = buf.copy()
        with pytest.raises(ValueError, match="overlaps the input"):
            transform(buf[:8], P, out=buf.view(np.uint32)[4:12])
        assert np.array_equal(buf, before)


@pytest.mark.parametrize("values", [[2**64], [2**70, -1], [-(2**63) - 1, 3], [5, 2**100, 7],
                                    (2**64, 1), [2**63, 5], [-1, 2**63], [2**64 - 1, 0],
                                    [2**63, 2**64 - 1], [1, 2], [True, 2**70]])
def test_int_lists_convert_exactly(values):
    # lists of Python ints: int64 where every value fits it, uint64 where all lie in
    # [2^63, 2^64) (as numpy reads them), else an exact object array (numpy 2 reads
    # [2**63, 5] as float64); the single-row routes take the int64 and uint64 ones
    from ntt_cy._support.checks import as_integer_array, single_row_operand
    got = as_integer_array(values)
    if all(-(2**63) <= v < 2**63 for v in values):
        dtype = np.int64
    elif all(2**63 <= v < 2**64 for v in values):
        dtype = np.uint64
    else:
        dtype = object
    assert got.dtype == dtype
    assert [int(v) for v in got] == [int(v) for v in values]
    assert dtype != object or all(type(v) in (int, bool) for v in got)
    row = single_row_operand(values, 100)
    assert row is None if dtype == object else row.dtype == dtype


@pytest.mark.parametrize("dtype", [np.int16, np.int32, np.int64])
@pytest.mark.parametrize("p", [7, 12289, 998244353, 2**31 - 1, 2**62 + 135, 2**63 - 25])
@pytest.mark.parametrize("outside", [None, "below", "above"])
def test_signed_reduction_of_centred_values_and_beyond(dtype, p, outside):
    # values in [-p, p) (centred coefficients) take the sign-mask reduction, any value
    # outside that the general remainder: both as Python's %
    from ntt_cy._support.checks import integers_to_lanes

    info = np.iinfo(dtype)
    rng = np.random.default_rng(p % 1000)
    bound = min(p, info.max)
    values = [-p, -p + 1, -1, 0, 1, p - 1, -(p // 2), p // 2]
    values = [v for v in values if info.min <= v <= info.max]
    values += [int(v) for v in rng.integers(-bound, bound, 200)]
    if outside == "below" and -p - 1 >= info.min:
        values.append(-p - 1)
    if outside == "above" and p <= info.max:
        values.append(p)
    arr = np.array(values, dtype=dtype)
    original = arr.copy()
    for lanes in (np.dtype(np.uint32), np.dtype(np.uint64)):
        if lanes == np.uint32 and p > 2**32:
            continue
        reduced = integers_to_lanes(arr, p, lanes, "a", "reduce")
        assert reduced.dtype == lanes
        assert [int(v) for v in reduced] == [v % p for v in values]
    assert np.array_equal(arr, original)
