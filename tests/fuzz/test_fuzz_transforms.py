"""Fuzzing ntt, intt and NTTPlan.forward / inverse: arguments drawn valid and invalid
(tests/fuzz/model.py judges them from the documentation), results against transforms
by the definition on Python ints.  The budget comes from the hypothesis profile
(tests/conftest.py: `--hypothesis-profile=ci` or `long`)."""
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ntt_cy
from fuzz.model import (INT_DTYPES, LAYOUTS, NON_INT_DTYPES, Faults, holds_residues,
                        integer_values, is_integer, judge, make_operand, moduli,
                        operand_dtype, operand_faults, order_of, out_arrays, out_faults,
                        prime, rarely, reference_transform, smallest_generator,
                        workers_faults, workers_values)

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])
KINDS = st.sampled_from(["cyclic", "negacyclic"])
BAD_KINDS = st.sampled_from(["Cyclic", None, ["cyclic"]])
REDUCTIONS = st.sampled_from(["auto", "auto", "montgomery", "barrett", "lazy", "goldilocks",
                              None])
BAD_REDUCTIONS = st.sampled_from(["fast", "Auto", 3])
LANE_ARGS = st.sampled_from([None] * 6 + [np.uint32, np.uint64, "uint64"])
BAD_LANE_ARGS = st.sampled_from([np.int64, "float64", "u8x"])
BAD_AXES = st.sampled_from([0.0, "0", None])
BAD_LENGTHS = st.sampled_from([0, 3, 12, 5])
BAD_N = st.sampled_from([0, -4, 3, 12, 4.0, True, "8"])


def root_order(q, kind, N, faults):
    """The order of root a transform of length N needs (2N negacyclic), or None: q or N
    unknown, or q without a root of that order (then a fault is noted)."""
    if q is None or N is None:
        return None
    order = 2 * N if kind == "negacyclic" else N
    if (q - 1) % order:
        faults.add(ValueError, "no root of that order")
        return None
    return order


@st.composite
def lengths(draw, p, kind=None):
    """A transform length for modulus p (any argument): mostly a power of two up to 64
    with the roots mod p, now and then one without them or not a power of two."""
    top = 64
    if is_integer(p) and prime(int(p)) and int(p) < 2**64:
        adicity = ((int(p) - 1) & -(int(p) - 1)).bit_length() - 1
        top = max(1, min(64, 2 ** (adicity - (kind == "negacyclic"))))
    good = st.sampled_from([2 ** k for k in range(top.bit_length())])
    return rarely(draw, good, st.one_of(BAD_LENGTHS, st.sampled_from([2 * top, 128])))


def lane_bits(p, lanes):
    return 8 * np.dtype(lanes).itemsize if lanes is not None else (32 if p < 2**32 else 64)


def reduction_faults(reduction, p, lanes, faults, none_ok=False):
    """reduction's documented faults for prime p on `lanes` (None: the default lanes)."""
    if reduction is None and none_ok:
        return
    if reduction not in ("auto", "montgomery", "barrett", "lazy", "goldilocks"):
        faults.add(ValueError, f"unknown reduction {reduction!r}")
    elif p is not None and reduction == "lazy" and (
            p >= 2**31 if lane_bits(p, lanes) == 32 else 4 * p > 2**64):
        faults.add(ValueError, "lazy without headroom")
    elif p is not None and reduction == "goldilocks" and (
            p != 2**64 - 2**32 + 1 or lane_bits(p, lanes) != 64):
        faults.add(ValueError, "goldilocks for another prime or lane")
    elif p is not None and reduction == "montgomery" and p % 2 == 0:
        faults.add(ValueError, "montgomery with an even p")


def modulus_faults(p, faults):
    """p's faults as a transform prime; p as an int where it is one."""
    if not is_integer(p):
        faults.add(TypeError, "p not an integer")
        return None
    p = int(p)
    if not (prime(p) and p < 2**64):
        faults.add(ValueError, f"p = {p} not a prime below 2**64")
        return None
    return p


def lanes_faults(dtype, p, faults):
    """The dtype= argument's faults; the lane dtype (None: the default)."""
    if dtype is None:
        return None
    try:
        dt = np.dtype(dtype)
    except TypeError:
        faults.add(TypeError, "dtype not a dtype")
        return None
    if dt not in (np.dtype(np.uint32), np.dtype(np.uint64)):
        faults.add(TypeError, f"dtype {dt}")
        return None
    if dt == np.uint32 and p is not None and p >= 2**32:
        faults.add(ValueError, "uint32 lanes for p >= 2**32")
    return dt


def root_faults(root, p, order, faults):
    if root is None:
        return
    if not is_integer(root):
        faults.add(TypeError, "root not an integer")
    elif p is not None and order is not None and not order_of(int(root) % p, p, order):
        faults.add(ValueError, "root of another order")


def default_lanes(p):
    return np.dtype(np.uint32) if p < 2**32 else np.dtype(np.uint64)


def kept_dtype(input_dtype, p, lanes):
    """The documented result dtype without out= or dtype=: a native uint32 / uint64
    input that holds [0, p) keeps its own, anything else gets the lanes'."""
    if input_dtype.kind == "u" and input_dtype.isnative and input_dtype.itemsize in (4, 8) \
            and p <= 2 ** (8 * input_dtype.itemsize):
        return input_dtype
    return lanes


@st.composite
def operands(draw, p, shape):
    """An operand of `shape` for modulus p (any argument): values mostly in [0, p)."""
    dtype = rarely(draw, st.sampled_from(INT_DTYPES), st.sampled_from(NON_INT_DTYPES), 20)
    layout = draw(st.sampled_from(LAYOUTS))
    high = int(p) if is_integer(p) and 2 <= int(p) < 2**64 else 100
    values = draw(integer_values(shape, 0, high, dtype))
    return make_operand(values, dtype, layout)


def place_axis(batch, length, axis):
    """The operand's shape: `batch` with the transform axis of `length` at `axis`."""
    ndim = len(batch) + 1
    at = int(axis) % ndim if is_integer(axis) and -ndim <= axis < ndim else ndim - 1
    return tuple(batch[:at]) + (length,) + tuple(batch[at:]), at


def fitted(values, axis, n):
    """values cropped or zero-padded to n along axis (scipy.fft's n=)."""
    length = values.shape[axis]
    if n <= length:
        return values[(slice(None),) * axis + (slice(0, n),)]
    shape = values.shape[:axis] + (n,) + values.shape[axis + 1:]
    out = np.zeros(shape, dtype=object)
    out[(slice(None),) * axis + (slice(0, length),)] = values
    return out


def range_faults(values, p, faults, name="a"):
    if values is not None and p is not None and values.size \
            and (min(values.flat) < 0 or max(values.flat) >= p):
        faults.add(ValueError, f"{name} holds values outside [0, p)")


def check_result(result, want, dtype, out):
    if out is not None:
        assert result is out
    assert isinstance(result, np.ndarray) and result.dtype == dtype, (result.dtype, dtype)
    assert result.shape == want.shape, (result.shape, want.shape)
    assert np.array_equal(result.astype(object), want)


def overlap_source(a):
    """The input an `out` must not partly overlap: an aligned array (a misaligned one is
    copied before anything is read)."""
    return a if isinstance(a, np.ndarray) and a.flags.aligned else None


@FUZZ
@given(data=st.data(), inverse=st.booleans())
def test_ntt_and_intt(data, inverse):
    draw = data.draw
    p = draw(moduli())
    kind = rarely(draw, KINDS, BAD_KINDS, 20)
    batch = draw(st.lists(st.integers(0, 3), max_size=2))
    axis = rarely(draw, st.one_of(st.integers(-len(batch) - 1, len(batch)), st.just(np.int64(0))),
                  st.one_of(BAD_AXES, st.sampled_from([len(batch) + 1, -len(batch) - 2])))
    shape, at = place_axis(batch, draw(lengths(p, kind)), axis)
    a = draw(operands(p, shape))
    n = draw(st.one_of(st.none(), st.none(), lengths(p, kind),
                       st.integers(0, 9).flatmap(lambda k: BAD_N if k == 0 else st.none())))
    reduction = rarely(draw, REDUCTIONS, BAD_REDUCTIONS, 20)
    dtype = rarely(draw, LANE_ARGS, BAD_LANE_ARGS, 20)
    workers = draw(workers_values())

    faults = Faults()
    q = modulus_faults(p, faults)
    kind_ok = kind in ("cyclic", "negacyclic")
    if not kind_ok:
        faults.add(ValueError, "unknown kind")
    lanes = lanes_faults(dtype, q, faults)
    # (ntt takes reduction=None as its plan's family, "auto", as plans do)
    reduction_faults(reduction, q, lanes, faults, none_ok=True)
    values = operand_faults(a, "a", faults)
    axis_ok = False
    if not is_integer(axis):
        faults.add(TypeError, "axis not an integer")
    elif values is not None:
        axis_ok = -values.ndim <= axis < values.ndim
        if not axis_ok:
            faults.add(ValueError, "axis out of range")
        else:
            at = int(axis) % values.ndim   # (a list of an empty batch reads as fewer axes)
    N = None
    if n is None:
        if values is not None and axis_ok:
            length = values.shape[at]
            if length == 0:
                faults.add(ValueError, "an empty transform axis")
            elif length & (length - 1):
                faults.add(ValueError, "a length not a power of two")
            else:
                N = length
    elif not is_integer(n):
        faults.add(TypeError, "n not an integer")
    elif n < 1:
        faults.add(ValueError, "n < 1")
    elif n & (n - 1):
        faults.add(ValueError, "n not a power of two")
    else:
        N = int(n)
    order = root_order(q, kind, N, faults) if kind_ok else None
    root = draw(roots(q, order))
    root_faults(root, q, order, faults)
    fit = None
    if values is not None and axis_ok and N is not None:
        fit = fitted(values, at, N)
        range_faults(fit, q, faults)
    workers_faults(workers, faults)
    result_shape = fit.shape if fit is not None else shape
    out = draw(out_arrays(result_shape, a))
    if q is not None and fit is not None:
        out_faults(out, result_shape, lambda dt: holds_residues(dt, q), faults,
                   overlap_source(a) if N == values.shape[at] else None)
    elif out is not None and not isinstance(out, np.ndarray):
        faults.add(TypeError, "out not an array")

    def expected(result):
        want = reference_transform(fit, q, at, kind, root, inverse)
        lanes_dt = lanes or default_lanes(q)
        dt = out.dtype if out is not None else (
            lanes if lanes is not None else kept_dtype(operand_dtype(a), q, lanes_dt))
        check_result(result, want, dt, out)

    fn = ntt_cy.intt if inverse else ntt_cy.ntt
    writes = (out,) if out is not None and isinstance(a, np.ndarray) \
        and np.shares_memory(out, a) else ()
    judge(lambda: fn(a, p, n=n, axis=axis, out=out, workers=workers, kind=kind,
                     reduction=reduction, dtype=dtype, root=root),
          faults, expected, [a], mutable=(a,) if writes else ())


@st.composite
def roots(draw, p, order):
    """root=: mostly None; else a primitive root of the order (an odd power of the
    default's), one of another order, or no integer."""
    choice = draw(st.sampled_from(["none"] * 12 + ["valid"] * 4 + ["other", "bad"]))
    if choice == "none" or (choice == "valid" and (p is None or order is None)):
        return None
    if choice == "valid":
        r = pow(smallest_generator(p), (p - 1) // order, p)
        return pow(r, 2 * draw(st.integers(0, order)) + 1, p) + draw(st.sampled_from([0, p]))
    if choice == "other":
        return draw(st.sampled_from([1, 0, -1, 2]))
    return draw(st.sampled_from([3.0, "3", np.float64(3)]))


@FUZZ
@given(data=st.data(), inverse=st.booleans())
def test_plans(data, inverse):
    draw = data.draw
    p = draw(moduli())
    kind = rarely(draw, KINDS, BAD_KINDS, 20)
    n = rarely(draw, st.one_of(lengths(p, kind), st.just(np.int64(2))), BAD_N, 20)
    reduction = rarely(draw, REDUCTIONS, BAD_REDUCTIONS, 20)
    dtype = rarely(draw, LANE_ARGS, BAD_LANE_ARGS, 20)

    made = Faults()
    q = modulus_faults(p, made)
    kind_ok = kind in ("cyclic", "negacyclic")
    if not kind_ok:
        made.add(ValueError, "unknown kind")
    lanes = lanes_faults(dtype, q, made)
    N = None
    if not is_integer(n):
        made.add(TypeError, "n not an integer")
    elif n < 1 or n & (n - 1):
        made.add(ValueError, "n not a power of two >= 1")
    else:
        N = int(n)
    order = root_order(q, kind, N, made) if kind_ok else None
    reduction_faults(reduction, q, lanes, made)
    root = draw(roots(q, order))
    root_faults(root, q, order, made)
    plan = judge(lambda: ntt_cy.NTTPlan(n, p, dtype=dtype, kind=kind, reduction=reduction,
                                        root=root),
                 made, lambda plan: None, [])
    if plan is None:
        return

    batch = draw(st.lists(st.integers(0, 3), max_size=2))
    axis = rarely(draw, st.integers(-len(batch) - 1, len(batch)),
                  st.one_of(BAD_AXES, st.just(len(batch) + 1)), 20)
    length = rarely(draw, st.just(N), st.sampled_from([2 * N, max(N // 2, 1)]), 20)
    shape, at = place_axis(batch, length, axis)
    a = draw(operands(q, shape))
    call_reduction = rarely(draw, REDUCTIONS, BAD_REDUCTIONS, 20)
    bit_reversed = rarely(draw, st.sampled_from([False, True, np.bool_(True)]),
                          st.sampled_from(["yes", 1, None]), 20)
    workers = draw(workers_values())

    faults = Faults()
    values = operand_faults(a, "a", faults)
    axis_ok = False
    if not is_integer(axis):
        faults.add(TypeError, "axis not an integer")
    elif values is not None:
        axis_ok = -values.ndim <= axis < values.ndim
        if axis_ok:
            at = int(axis) % values.ndim   # (a list of an empty batch reads as fewer axes)
        if not axis_ok:
            faults.add(ValueError, "axis out of range")
        elif values.shape[at] != N:
            faults.add(ValueError, "a length other than the plan's")
            axis_ok = False
    if axis_ok:
        range_faults(values, q, faults)
    reduction_faults(call_reduction, q, lanes, faults, none_ok=True)
    if not isinstance(bit_reversed, (bool, np.bool_)):
        faults.add(TypeError, "bit_reversed not a bool")
    workers_faults(workers, faults)
    out = draw(out_arrays(shape, a))
    if values is not None:
        out_faults(out, values.shape, lambda dt: holds_residues(dt, q), faults,
                   overlap_source(a))
    elif out is not None and not isinstance(out, np.ndarray):
        faults.add(TypeError, "out not an array")

    def expected(result):
        want = reference_transform(values, q, at, kind, root, inverse, bool(bit_reversed))
        dt = out.dtype if out is not None else kept_dtype(operand_dtype(a), q, plan.dtype)
        check_result(result, want, dt, out)

    method = plan.inverse if inverse else plan.forward
    writes = out is not None and isinstance(a, np.ndarray) and np.shares_memory(out, a)
    judge(lambda: method(a, axis=axis, out=out, workers=workers, reduction=call_reduction,
                         bit_reversed=bit_reversed),
          faults, expected, [a], mutable=(a,) if writes else ())
