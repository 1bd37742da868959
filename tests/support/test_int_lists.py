"""ntt_cy._support.int_lists: lists and tuples of Python ints as int64 arrays, numpy's answer
without numpy's dtype pass; anything else declined (None) for numpy to convert."""
import enum

import numpy as np
import pytest

import ntt_cy
from ntt_cy._support import checks as _checks
from ntt_cy._support.int_lists import int64_from_ints

I64_MIN, I64_MAX = -(1 << 63), (1 << 63) - 1

TAKEN = [
    [0],
    [5, -3, 7],
    [I64_MIN, I64_MAX, 0, -1, 1],
    list(range(-1000, 1000, 7)),
    [998244352] * 300,
    [(1 << 62) + 12345, -(1 << 62)],
]


class Colour(enum.IntEnum):
    RED = 1


DECLINED = [
    [True, 2],                # bools stand for ints, as numpy reads them: numpy's job
    [1, np.int64(2)],         # numpy scalars
    [Colour.RED, 2],          # int subclasses
    [1, 2.0],                 # floats are never truncated here
    [I64_MAX + 1],            # past int64: numpy makes uint64
    [I64_MIN - 1, 0],         # past int64 below: numpy makes objects or floats
    [1, [2]],                 # nested
    [1, "2"], [None], [1, 2, 3, 4, 2 ** 200],
]


@pytest.mark.parametrize("values", TAKEN)
@pytest.mark.parametrize("container", [list, tuple])
def test_ints_in_int64_are_numpys_int64_array(values, container):
    seq = container(values)
    got = int64_from_ints(seq)
    want = np.asarray(seq)
    assert got.dtype == want.dtype == np.int64
    assert got.shape == want.shape and got.flags.c_contiguous and got.flags.writeable
    np.testing.assert_array_equal(got, want)
    assert [int(v) for v in got] == list(values)


@pytest.mark.parametrize("values", DECLINED, ids=repr)
def test_anything_else_is_left_to_numpy(values):
    assert int64_from_ints(values) is None
    assert int64_from_ints(tuple(values)) is None


def test_empty_and_non_sequences():
    assert int64_from_ints([]).shape == (0,)
    for bad in (np.arange(3), range(3), "123", {1: 2}):
        with pytest.raises(TypeError, match="list or a tuple"):
            int64_from_ints(bad)


@pytest.mark.parametrize("values", TAKEN + DECLINED[:6], ids=repr)
def test_the_checks_read_lists_as_numpy_does(values):
    # the single-row routes and the general route see the dtype and values numpy gives
    row = _checks.single_row_operand(values, 8192)
    numpy_row = np.asarray(values)
    if numpy_row.dtype.kind in "iu":
        assert row.dtype == numpy_row.dtype
        np.testing.assert_array_equal(row, numpy_row)
    else:
        assert row is None   # (floats and objects take the general route)
    if any(type(v) is float for v in values):
        with pytest.raises(TypeError, match="must hold integers"):
            _checks.as_integer_array(values)
        return
    arr = _checks.as_integer_array(values)
    assert [int(v) for v in arr] == [int(v) for v in values]


def test_products_and_transforms_of_lists_are_exact():
    rng = np.random.default_rng(11)
    for m in (998244353, 10**9 + 7, 2**61 - 1, 2**64 - 59):
        for n in (3, 16, 257, 9000):   # 9000: past the single-row routes
            a = [int(v) for v in rng.integers(-(1 << 62), 1 << 62, n)]
            b = [int(v) for v in rng.integers(0, 1 << 62, n)]
            a[0], b[-1] = I64_MIN, I64_MAX
            got = ntt_cy.polymul(a, b, m)
            if n <= 257:
                want = [0] * (2 * n - 1)
                for i, x in enumerate(a):
                    for j, y in enumerate(b):
                        want[i + j] += x * y
                assert [int(v) for v in got] == [v % m for v in want]
            np.testing.assert_array_equal(got, ntt_cy.polymul(np.array(a), np.array(b), m))
    p = 998244353
    x = [int(v) for v in rng.integers(0, p, 256)]
    np.testing.assert_array_equal(ntt_cy.ntt(x, p), ntt_cy.ntt(np.array(x, dtype=np.uint32), p))
    with pytest.raises(ValueError, match=r"outside \[0, p\)"):
        ntt_cy.ntt(x[:-1] + [p], p)
