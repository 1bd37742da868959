"""Fuzzing polymul (convolve), mul_mod and bigmul: arguments drawn valid and invalid
(tests/fuzz/model.py judges them from the documentation), results against
python-flint's integer polynomial products and Python-int arithmetic."""
import random

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ntt_cy
from fuzz.model import (BEYOND_64, COMPOSITES, INT_DTYPES, LAYOUTS, NON_INT_DTYPES,
                        NOT_INTEGERS, NTT_PRIMES, OTHER_PRIMES, Faults, holds_residues,
                        integer_values, is_integer, judge, make_operand, operand_faults,
                        out_arrays, out_faults, polymul_rows, rarely, workers_faults,
                        workers_values)

FUZZ = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                      HealthCheck.data_too_large])
ANY_MODULUS = NTT_PRIMES + OTHER_PRIMES + COMPOSITES[:4] + [2**64, 2**64 - 1, 2**32 + 1] \
    + BEYOND_64
PRODUCT_KINDS = st.sampled_from(["linear", "linear", "cyclic", "negacyclic"])


@st.composite
def any_integers(draw, shape, bits=70):
    """An operand of `shape` holding any integers (products reduce them)."""
    dtype = rarely(draw, st.sampled_from(INT_DTYPES), st.sampled_from(NON_INT_DTYPES), 20)
    layout = draw(st.sampled_from(LAYOUTS))
    values = draw(integer_values(shape, -(2**bits), 2**bits, dtype))
    return make_operand(values, dtype, layout)


@st.composite
def product_moduli(draw):
    return rarely(draw, st.one_of(st.sampled_from(ANY_MODULUS), st.integers(1, 2**64),
                                  st.sampled_from([np.uint64(2**64 - 59), np.int32(7)])),
                  st.sampled_from([0, -5] + NOT_INTEGERS), 20)


def modulus_faults(m, faults):
    """polymul's / mul_mod's modulus: an integer >= 1 (below: the caller's bound)."""
    if not is_integer(m):
        faults.add(TypeError, "modulus not an integer")
        return None
    if m < 1:
        faults.add(ValueError, "modulus < 1")
        return None
    return int(m)


def output_dtype(m):
    """The documented result dtype of polymul for modulus m."""
    if m <= 2**32:
        return np.dtype(np.uint32)
    return np.dtype(np.uint64) if m <= 2**64 else np.dtype(object)


def rows_of(values, batch):
    """values broadcast to batch + (its length,), as a list of rows of ints."""
    n = values.shape[-1]
    return np.broadcast_to(values, tuple(batch) + (n,)).reshape(-1, n).tolist()


@FUZZ
@given(data=st.data())
def test_polymul(data):
    draw = data.draw
    m = draw(product_moduli())
    kind = rarely(draw, PRODUCT_KINDS, st.sampled_from(["circular", None]), 20)
    na = draw(st.integers(1, 40))
    nb = na if kind != "linear" and draw(st.integers(0, 9)) else draw(st.integers(1, 40))
    batch_a = draw(st.lists(st.integers(0, 3), max_size=2))
    batch_b = rarely(draw, st.sampled_from([batch_a, [], batch_a[-1:], [1] * len(batch_a)]),
                     st.lists(st.integers(0, 3), max_size=2), 8)
    a = draw(any_integers(tuple(batch_a) + (na,)))
    b = a if draw(st.integers(0, 9)) == 0 else draw(any_integers(tuple(batch_b) + (nb,)))
    workers = draw(workers_values())

    faults = Faults()
    q = modulus_faults(m, faults)
    if kind not in ("linear", "cyclic", "negacyclic"):
        faults.add(ValueError, "unknown kind")
    A = operand_faults(a, "a", faults)
    B = A if b is a else operand_faults(b, "b", faults)
    batch = None
    for X, name in ((A, "a"), (B, "b")):
        if X is not None and X.shape[-1] == 0:
            faults.add(ValueError, f"{name} empty")
    if A is not None and B is not None and A.shape[-1] and B.shape[-1]:
        try:
            batch = () if A.ndim == B.ndim == 1 else np.broadcast_shapes(A.shape[:-1],
                                                                         B.shape[:-1])
        except ValueError:
            faults.add(ValueError, "batch shapes that do not broadcast")
        if kind in ("cyclic", "negacyclic") and A.shape[-1] != B.shape[-1]:
            faults.add(ValueError, "wrapped lengths differ")
            batch = None
    workers_faults(workers, faults)
    shape = None
    if batch is not None and kind in ("linear", "cyclic", "negacyclic"):
        L = A.shape[-1] + B.shape[-1] - 1 if kind == "linear" else A.shape[-1]
        shape = tuple(batch) + (L,)
    out = draw(out_arrays(shape if shape is not None else (1,), a))
    if q is not None and shape is not None:
        out_faults(out, shape, lambda dt: dt == object or holds_residues(dt, q), faults)
    elif out is not None and not isinstance(out, np.ndarray):
        faults.add(TypeError, "out not an array")

    def expected(result):
        want = np.empty(shape, dtype=object)
        rows = polymul_rows(rows_of(A, batch), rows_of(B, batch), q, kind)
        want.reshape(-1, shape[-1])[...] = rows if rows else np.empty((0, shape[-1]))
        if out is not None:
            assert result is out
        else:
            assert result.dtype == output_dtype(q), (result.dtype, q)
        assert result.shape == shape
        assert np.array_equal(result.astype(object), want)

    fn = draw(st.sampled_from([ntt_cy.polymul, ntt_cy.convolve]))
    writes = out is not None and any(isinstance(x, np.ndarray) and np.shares_memory(out, x)
                                     for x in (a, b))
    judge(lambda: fn(a, b, m, kind=kind, out=out, workers=workers), faults, expected,
          [a, b], mutable=(a, b) if writes else ())


@FUZZ
@given(data=st.data())
def test_mul_mod(data):
    draw = data.draw
    p = rarely(draw, st.one_of(st.sampled_from(ANY_MODULUS[:-5] + [2**64 - 1]),
                               st.integers(1, 2**64 - 1)),
               st.sampled_from([0, -3, 2**64, 2**70] + NOT_INTEGERS), 20)
    shape_a = tuple(draw(st.lists(st.integers(0, 4), max_size=3)))
    shape_b = rarely(draw, st.sampled_from([shape_a, shape_a[-1:], (), (1,) * len(shape_a)]),
                     st.lists(st.integers(0, 4), max_size=3).map(tuple), 8)
    scalar = draw(st.integers(0, 9)) == 0
    a = draw(st.integers(-(2**70), 2**70)) if scalar and not shape_a \
        else draw(any_integers(shape_a))
    b = a if draw(st.integers(0, 9)) == 0 else draw(any_integers(shape_b))
    workers = draw(workers_values())

    faults = Faults()
    q = None
    if not is_integer(p):
        faults.add(TypeError, "p not an integer")
    elif not 1 <= p < 2**64:
        faults.add(ValueError, "p outside [1, 2**64)")
    else:
        q = int(p)
    A = _elements(a, "a", faults)
    B = A if b is a else _elements(b, "b", faults)
    shape = None
    if A is not None and B is not None:
        try:
            shape = np.broadcast_shapes(A.shape, B.shape)
        except ValueError:
            faults.add(ValueError, "shapes that do not broadcast")
    workers_faults(workers, faults)
    out = draw(out_arrays(shape if shape is not None else (1,), a))
    if q is not None and shape is not None:
        out_faults(out, shape, lambda dt: holds_residues(dt, q), faults)
    elif out is not None and not isinstance(out, np.ndarray):
        faults.add(TypeError, "out not an array")

    def expected(result):
        x, y = np.broadcast_arrays(A, B)
        want = np.frompyfunc(lambda u, v: int(u) * int(v) % q, 2, 1)(x, y)
        if out is not None:
            assert result is out
        else:
            assert result.dtype == (np.uint32 if q < 2**32 else np.uint64)
        assert isinstance(result, np.ndarray) and result.shape == shape
        assert np.array_equal(np.asarray(result).astype(object), want)

    writes = out is not None and any(isinstance(x, np.ndarray) and np.shares_memory(out, x)
                                     for x in (a, b))
    judge(lambda: ntt_cy.mul_mod(a, b, p, out=out, workers=workers), faults, expected,
          [a, b], mutable=(a, b) if writes else ())


def _elements(x, name, faults):
    """mul_mod's operand: integers of any shape, scalars (0-d) included, as an object
    array of ints (None where the model finds a fault)."""
    if isinstance(x, np.ndarray) and x.ndim == 0:
        values = operand_faults(x.reshape(1), name, faults)
        return None if values is None else values.reshape(())
    if np.ndim(x) == 0:
        if is_integer(x):
            return np.array(int(x), dtype=object)
        faults.add(TypeError, f"{name} not an integer")
        return None
    return operand_faults(x, name, faults)


@st.composite
def big_integers(draw):
    """Python ints around bigmul's threshold and beyond, of patterns that stress the
    carries: random, all ones, a power of two; any sign."""
    bits = draw(st.one_of(st.integers(0, 64), st.integers(6000, 60000)))
    pattern = draw(st.sampled_from(["random", "random", "ones", "power"]))
    if pattern == "random":
        v = random.Random(draw(st.integers(0, 2**32))).getrandbits(bits)
    elif pattern == "ones":
        v = 2**bits - 1
    else:
        v = 2**bits
    return -v if draw(st.booleans()) else v


@FUZZ
@given(data=st.data())
def test_bigmul(data):
    draw = data.draw
    x = rarely(draw, big_integers(), st.sampled_from([1.5, "7", None, True]), 20)
    relation = draw(st.sampled_from(["other", "other", "square", "negated"]))
    if relation == "other":
        y = rarely(draw, st.one_of(big_integers(), st.just(np.int64(-3))),
                   st.sampled_from([2.0, b"1", np.bool_(False)]), 20)
    else:
        y = x if relation == "square" or not is_integer(x) else -x
    workers = draw(workers_values())

    faults = Faults()
    for v, name in ((x, "x"), (y, "y")):
        if not is_integer(v):
            faults.add(TypeError, f"{name} not an integer")
    workers_faults(workers, faults)

    def expected(result):
        assert type(result) is int and result == int(x) * int(y)

    judge(lambda: ntt_cy.bigmul(x, y, workers=workers), faults, expected, [x, y])
