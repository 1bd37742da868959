"""The fuzz suite's own model of the public API: how to draw arguments, which of them
are valid (from the documentation, docs/guide.md, never from ntt_cy's checks), and
reference results computed on Python ints (python-flint factors and tests primes).

A call drawn here is judged by `judge`: with no fault in the model, it must return the
reference value, of the documented dtype; with faults, it must raise one of their
exception classes (exactly that class where there is one fault), with a message.  The
inputs must be unchanged either way (except an `out` that is the input of a valid call).
"""
from __future__ import annotations

import copy
from functools import lru_cache

import flint
import numpy as np
from hypothesis import event
from hypothesis import strategies as st

from ntt_oracle import PRIME_BELOW_2_62, bit_reverse_permutation

CORES = len(__import__("os").sched_getaffinity(0))
MAX_WORKERS = 1024

# Moduli: NTT primes of every lane and family (2 and 3 at the small end), primes
# without many roots (10**9 + 7, 2**61 - 1, 2**64 - 59), composites, the edges.
NTT_PRIMES = [2, 3, 5, 17, 97, 257, 3329, 7681, 12289, 65537, 7340033, 8380417, 998244353,
              2013265921, 2281701377, 4293918721, 1337006139375617, 2**64 - 2**32 + 1,
              PRIME_BELOW_2_62, 4611686018326724609]
OTHER_PRIMES = [10**9 + 7, 2**31 - 1, 4294967291, 2**61 - 1, 2**64 - 59]
COMPOSITES = [1, 4, 15, 2**32, 10**9 + 6, 2**64 - 1, 2147483629 * 2147483587]
BEYOND_64 = [2**64, 2**64 + 13, 2**89 - 1, 2**127 - 1, 2**255 - 19]
NOT_INTEGERS = [17.0, "17", None, True, np.bool_(True), [17], np.float64(97.0), 1j]

# Array layouts: how an operand is made from its values.
LAYOUTS = ["contiguous", "strided", "fortran", "misaligned", "readonly", "list", "tuple"]
INT_DTYPES = ["uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
              ">u4", ">i8", "object"]
NON_INT_DTYPES = ["float64", "bool", "complex128"]


# ---------------------------------------------------------------- faults and judging

class Faults(list):
    """(exception class, why) pairs, the model's reasons a call must raise."""

    def add(self, exc, why):
        self.append((exc, why))

    def classes(self):
        return {exc for exc, _ in self}


def is_integer(v) -> bool:
    """The documented integer arguments: Python or numpy integers, not bools."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def snapshot(*values):
    """Deep copies of the arguments, to check afterwards that nothing changed them."""
    return [copy.deepcopy(v) if not isinstance(v, np.ndarray) else v.copy() for v in values]


def same(x, y) -> bool:
    if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
        return (isinstance(x, np.ndarray) and isinstance(y, np.ndarray) and x.dtype == y.dtype
                and x.shape == y.shape and np.array_equal(x, y))
    return type(x) is type(y) and x == y


def judge(call, faults, expected, inputs, mutable=()):
    """Run call(); check it against the model (see the module notes).  expected: a
    function of the result that asserts it is right (run only without faults).
    inputs: the arguments to check unchanged; mutable: those a valid call may write."""
    before = snapshot(*inputs)
    event("valid" if not faults else "fault: " + faults[0][1] if len(faults) == 1
          else "faults: " + " + ".join(sorted(why for _, why in faults)))
    try:
        result = call()
    except (ValueError, TypeError, MemoryError) as exc:
        assert faults, f"a valid call raised {type(exc).__name__}: {exc}"
        classes = faults.classes()
        assert type(exc) in classes or any(isinstance(exc, c) for c in classes), \
            f"raised {type(exc).__name__}: {exc}; the model expects {faults}"
        if len(faults) == 1:
            assert isinstance(exc, faults[0][0]), (exc, faults)
        assert str(exc).strip(), f"{type(exc).__name__} without a message"
        for value, old in zip(inputs, before):
            assert same(value, old), "an input changed on an error"
        return None
    assert not faults, f"returned {result!r:.200} where the model expects {faults}"
    expected(result)
    for value, old in zip(inputs, before):
        if not any(value is m for m in mutable):
            assert same(value, old), "an input changed"
    return result


# ---------------------------------------------------------------- primes on flint

@lru_cache(maxsize=None)
def prime(p) -> bool:
    return p >= 2 and bool(flint.fmpz(p).is_prime())


@lru_cache(maxsize=None)
def smallest_generator(p: int) -> int:
    """The smallest generator mod the prime p (the documented default root's g)."""
    if p == 2:
        return 1
    cofactors = [(p - 1) // int(q) for q, _ in flint.fmpz(p - 1).factor()]
    g = 2
    while any(pow(g, e, p) == 1 for e in cofactors):
        g += 1
    return g


def order_of(r: int, p: int, order: int) -> bool:
    """Whether r has multiplicative order exactly `order` mod the prime p."""
    if pow(r, order, p) != 1:
        return False
    return all(pow(r, order // int(q), p) != 1 for q, _ in flint.fmpz(order).factor())


# ---------------------------------------------------------------- reference transforms

def transform_roots(n, p, kind, root):
    """(w, psi) of the transform of length n: psi = 1 for cyclic ones."""
    order = 2 * n if kind == "negacyclic" else n
    r = pow(smallest_generator(p), (p - 1) // order, p) if root is None else int(root) % p
    return (r * r % p, r) if kind == "negacyclic" else (r, 1)


def reference_rows(rows, p, kind, root=None, inverse=False):
    """The transforms (inverse: the normalised inverses) of the rows (lists of ints in
    [0, p)) by the definition, O(n^2) on Python ints."""
    n = len(rows[0]) if rows else 0
    if n == 0:
        return []
    w, psi = transform_roots(n, p, kind, root)
    if inverse:
        w, psi = pow(w, -1, p), pow(psi, -1, p)
    wk = [pow(w, k, p) for k in range(n)]
    matrix = np.array([[wk[(i * k) % n] for i in range(n)] for k in range(n)], dtype=object)
    twist = np.array([pow(psi, i, p) for i in range(n)], dtype=object)
    x = np.array(rows, dtype=object).reshape(len(rows), n)
    if inverse:
        out = (x.dot(matrix.T) % p) * twist % p * pow(n, -1, p) % p
    else:
        out = (x * twist % p).dot(matrix.T) % p
    return out.tolist()


def reference_transform(values, p, axis, kind, root=None, inverse=False, bit_reversed=False):
    """reference_rows along `axis` of an object array of ints in [0, p); bit_reversed:
    the forward's output / the inverse's input in bit-reversed order."""
    moved = np.moveaxis(values, axis, -1)
    n = moved.shape[-1]
    rows = moved.reshape(-1, n)
    if inverse and bit_reversed:
        rows = rows[:, np.argsort(bit_reverse_permutation(n))]
    out = np.array(reference_rows(rows.tolist(), p, kind, root, inverse), dtype=object)
    out = out.reshape(rows.shape)
    if not inverse and bit_reversed:
        out = out[:, bit_reverse_permutation(n)]
    return np.moveaxis(out.reshape(moved.shape), -1, axis)


def polymul_rows(a_rows, b_rows, m, kind):
    """Products of corresponding rows (Python ints, any values) by python-flint,
    folded modulo x^n -/+ 1, reduced mod m."""
    out = []
    for a, b in zip(a_rows, b_rows):
        c = [int(v) for v in (flint.fmpz_poly(a) * flint.fmpz_poly(b)).coeffs()]
        c += [0] * (len(a) + len(b) - 1 - len(c))
        if kind != "linear":
            n = len(a)
            sign = -1 if kind == "negacyclic" else 1
            for i in range(n, len(c)):
                c[i - n] += sign * c[i]
            c = c[:n]
        out.append([v % m for v in c])
    return out


# ---------------------------------------------------------------- drawing operands

def rarely(draw, common, rare, one_in=10):
    """A draw from `rare` one time in `one_in`, else from `common`: each argument of a
    call is invalid now and then, so that most calls are valid and most invalid ones
    have a single fault."""
    # (the rare branch last: hypothesis favours the first choices of sampled_from)
    return draw(rare) if draw(st.sampled_from(range(one_in))) == one_in - 1 else draw(common)


@st.composite
def moduli(draw, valid_weight=16):
    """A modulus argument: mostly NTT primes, sometimes a prime with few roots, a
    composite, one beyond 2**64, a numpy integer, or no integer at all."""
    group = draw(st.sampled_from(["ntt"] * valid_weight + ["other", "composite", "beyond",
                                                           "numpy", "numpy", "bad"]))
    if group == "ntt":
        return draw(st.sampled_from(NTT_PRIMES))
    if group == "other":
        return draw(st.sampled_from(OTHER_PRIMES))
    if group == "composite":
        return draw(st.sampled_from(COMPOSITES + [0, -17]))
    if group == "beyond":
        return draw(st.sampled_from(BEYOND_64))
    if group == "numpy":
        p = draw(st.sampled_from(NTT_PRIMES[1:] + OTHER_PRIMES))
        return np.uint64(p) if p >= 2**63 else draw(st.sampled_from([np.int64, np.uint64]))(p)
    return draw(st.sampled_from(NOT_INTEGERS))


@st.composite
def workers_values(draw):
    return rarely(draw, st.sampled_from([None, None, 1, 2, -1, np.int64(2)]),
                  st.sampled_from([0, -CORES, -CORES - 1, MAX_WORKERS, MAX_WORKERS + 1, 1.0,
                                   "2", True]))


def workers_faults(workers, faults):
    if workers is None:
        return
    if not is_integer(workers):
        faults.add(TypeError, "workers not an integer")
    elif not (1 <= workers <= MAX_WORKERS or -CORES <= workers <= -1):
        faults.add(ValueError, "workers out of range")


@st.composite
def integer_values(draw, shape, low, high, dtype):
    """An object array of Python ints of `shape` that `dtype` holds: in [low, high),
    except (one time in eight) some at the edges of the dtype's range or of [low, high)
    (out-of-range values, where the dtype holds them)."""
    if dtype == "object":
        lo, hi = -(2**70), 2**70
    elif dtype in ("float64", "complex128", "bool"):
        lo, hi = 0, 2**20
    else:
        info = np.iinfo(np.dtype(dtype))
        lo, hi = int(info.min), int(info.max)
    low, high = max(low, lo), min(high, hi + 1)
    size = int(np.prod(shape))
    edge = st.sampled_from([lo, hi, high, high - 1, -1, 0])
    if high <= low:
        inner = st.integers(lo, hi)
    else:
        inner = st.integers(low, high - 1)
    values = draw(st.lists(inner, min_size=size, max_size=size))
    if size and draw(st.integers(0, 7)) == 0:
        spots = draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3))
        for k in spots:
            values[k] = draw(edge)
    values = [min(max(v, lo), hi) for v in values]
    arr = np.empty(size, dtype=object)
    arr[:] = values
    return arr.reshape(shape)


def make_operand(values, dtype, layout):
    """`values` (an object array of ints) as the operand the call gets: an array of
    `dtype` in `layout`, or a (nested) list or tuple of Python ints."""
    if layout in ("list", "tuple"):
        data = values.tolist()
        if dtype in ("float64", "complex128"):
            data = np.asarray(values, dtype=dtype).tolist()
        elif dtype == "bool":
            data = np.asarray(values, dtype=bool).tolist()
        return data if layout == "list" else _tuples(data)
    dt = np.dtype(dtype)
    if dt == object:
        base = values.copy()
    elif dt.kind == "b":
        base = np.asarray(values != 0, dtype=bool)
    else:
        base = np.asarray(values.astype(np.float64) if dt.kind in "fc" else values).astype(dt)
    if layout == "strided":
        wide = np.zeros(base.shape[:-1] + (2 * base.shape[-1],), dtype=dt) if base.ndim \
            else base
        if base.ndim:
            wide[..., ::2] = base
            return wide[..., ::2]
        return base
    if layout == "fortran":
        return np.asfortranarray(base)
    if layout == "misaligned" and dt != object and dt.itemsize > 1:
        raw = np.zeros(base.nbytes + 1, np.uint8)[1:]
        arr = raw.view(dt).reshape(base.shape)
        arr[...] = base
        return arr
    if layout == "readonly":
        base.flags.writeable = False
    return base


def _tuples(data):
    return tuple(_tuples(v) for v in data) if isinstance(data, list) else data


def operand_dtype(operand):
    """The dtype numpy reads the operand as (lists: numpy's own reading, or None when
    it cannot: ragged)."""
    if isinstance(operand, np.ndarray):
        return operand.dtype
    try:
        arr = np.asarray(operand)
    except (ValueError, OverflowError):
        return None
    if arr.dtype.kind == "f":
        flat = list(_flatten(operand))
        if all(is_integer(v) or isinstance(v, bool) for v in flat):
            # ints beyond every numpy integer dtype, or none at all ([], [[]]): read as
            # ints (numpy reads such lists as floats)
            return np.dtype(object)
    return arr.dtype


def _flatten(data):
    for v in data:
        if isinstance(v, (list, tuple)):
            yield from _flatten(v)
        else:
            yield v


def operand_faults(operand, name, faults):
    """The documented faults of an integer operand's type; returns its values as an
    object array of ints (None where it has none)."""
    dt = operand_dtype(operand)
    if dt is None:
        faults.add(ValueError, f"{name} ragged")
        return None
    if dt.kind not in "iuO":
        faults.add(TypeError, f"{name} of dtype {dt}")
        return None
    values = np.array(operand, dtype=object)
    if values.ndim == 0:
        faults.add(ValueError, f"{name} of no dimension")
        return None
    if dt.kind == "O" and not all(is_integer(v) for v in values.flat):
        faults.add(TypeError, f"{name} holds non-integer objects")
        return None
    return np.vectorize(int, otypes=[object])(values) if values.size else values


@st.composite
def out_arrays(draw, shape, source):
    """An `out` argument for a result of `shape`: None, a fresh array of a drawn dtype
    and layout, the input `source` itself, a reversed view of it (overlapping without
    being the same view), a broadcast view, a read-only, misaligned or byte-swapped
    array, one of another shape, a list."""
    choice = rarely(draw, st.sampled_from(["none"] * 6 + ["fresh"] * 3 + ["same", "strided",
                                                                          "misaligned"]),
                    st.sampled_from(["overlap", "broadcast", "readonly", "shape", "list",
                                     "byteorder"]))
    dtype = np.dtype(rarely(draw, st.sampled_from(["uint32", "uint64", "int32", "int64"]),
                            st.sampled_from(["uint16", "object", "float64"])))
    if choice == "none":
        return None
    if choice == "same":
        return source
    if choice == "overlap":
        if isinstance(source, np.ndarray) and source.ndim:
            return source[..., ::-1]
        return None
    if choice == "list":
        return np.zeros(shape, dtype=np.uint64).tolist()
    if choice == "shape":
        return np.zeros(tuple(shape) + (1,), dtype=dtype)
    if choice == "broadcast":
        if len(shape) > 1:
            return np.broadcast_to(np.zeros(shape[-1:], dtype=dtype), shape)
        return np.zeros(shape, dtype=dtype)
    if choice == "byteorder" and dtype.itemsize > 1 and dtype != object:
        return np.zeros(shape, dtype=dtype.newbyteorder(">"))
    layout = {"fresh": "contiguous", "readonly": "readonly", "misaligned": "misaligned",
              "strided": "strided", "byteorder": "contiguous"}[choice]
    return make_operand(np.zeros(shape, dtype=object), "object" if dtype == object
                        else dtype.str, layout)


def out_faults(out, shape, holds, faults, source=None):
    """The documented faults of `out` for a result of `shape` (holds(dtype): whether
    its dtype holds every result); source: the input it must not partly overlap."""
    if out is None:
        return
    if not isinstance(out, np.ndarray):
        faults.add(TypeError, "out not an array")
        return
    if not holds(out.dtype):
        faults.add(TypeError, f"out of dtype {out.dtype}")
    elif out.dtype.kind in "iu" and not out.dtype.isnative:
        faults.add(TypeError, "out of non-native byte order")
    if out.shape != tuple(shape):
        faults.add(ValueError, "out of another shape")
        return
    if not out.flags.writeable:
        faults.add(ValueError, "out read-only")
    if out.size and any(s == 0 and n > 1 for n, s in zip(out.shape, out.strides)):
        faults.add(ValueError, "out with a stride-0 axis")
    if source is not None and isinstance(source, np.ndarray) and out is not source and np.shares_memory(out, source) \
            and not (out.__array_interface__["data"][0] == source.__array_interface__["data"][0]
                     and out.strides == source.strides and out.shape == source.shape
                     and out.dtype.itemsize == source.dtype.itemsize):
        faults.add(ValueError, "out partly overlapping the input")


def holds_residues(dtype, p) -> bool:
    """Whether a 32- or 64-bit integer dtype holds every value in [0, p) (the documented
    out= dtypes: unsigned up to 2**bits, signed up to 2**(bits-1))."""
    return (dtype.kind in "iu" and dtype.itemsize in (4, 8)
            and p <= 2 ** (8 * dtype.itemsize - (dtype.kind == "i")))
