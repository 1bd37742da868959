"""Input validation shared by every front end (CPU and GPU).

All checks run in Python before any nogil code, and every failure is a
ValueError or TypeError whose message names the condition.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np

from ntt_cy._support.int_lists import int64_from_ints
from ntt_cy.primes import is_prime

if TYPE_CHECKING:
    from ntt_cy._typing import Kind, PolyKind

BACKENDS = ("cpu", "cuda")
KINDS = ("cyclic", "negacyclic")
REDUCTIONS = ("montgomery", "barrett", "lazy", "goldilocks", "auto")
GOLDILOCKS = 2**64 - 2**32 + 1   # the one modulus of the "goldilocks" family
LANE_DTYPES = (np.dtype(np.uint32), np.dtype(np.uint64))


def check_backend(backend) -> str:
    """`backend` of ntt / intt / polymul: "cpu" or "cuda"."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
    return backend


def as_int(value, name: str) -> int:
    """A Python int from an int or numpy integer; TypeError for anything else."""
    if type(value) is int:   # the common case first (bool is not int's type)
        return value
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer, got bool")
    if isinstance(value, (int, np.integer)):
        return int(value)
    raise TypeError(f"{name} must be an integer, got {type(value).__name__}")


def check_prime_modulus(p) -> int:
    p = as_int(p, "p")
    if p >= 1 << 64:
        raise ValueError(f"p = {p} is out of range: ntt_cy transforms need a prime p < 2**64")
    if not is_prime(p):
        raise ValueError(f"p = {p} is not prime")
    return p


def lane_dtype(p: int, dtype=None) -> np.dtype:
    """The lane dtype for prime p: uint32 when p < 2**32, else uint64; or check `dtype`."""
    if dtype is None:
        return LANE_DTYPES[0] if p < 1 << 32 else LANE_DTYPES[1]
    dt = np.dtype(dtype)
    if dt not in LANE_DTYPES:
        raise TypeError(f"dtype must be uint32 or uint64, got {dt}")
    if dt == LANE_DTYPES[0] and p >= 1 << 32:
        raise ValueError(f"p = {p} is out of range for uint32 lanes (needs p < 2**32)")
    return dt


POLY_KINDS = ("linear", "cyclic", "negacyclic")


def check_poly_kind(kind: str) -> PolyKind:
    if kind not in POLY_KINDS:
        raise ValueError(f"kind must be one of {POLY_KINDS}, got {kind!r}")
    return kind


def normalize_axis(axis, ndim: int) -> int:
    """axis as an index in [0, ndim) (negative axes count from the end)."""
    axis = as_int(axis, "axis")
    if not -ndim <= axis < ndim:
        raise ValueError(f"axis {axis} is out of bounds for an array of dimension {ndim}")
    return axis % ndim


def check_kind(kind: str) -> Kind:
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    return kind


def check_transform_size(n: int, p: int, kind: str) -> None:
    n = as_int(n, "n")
    if n < 1:
        raise ValueError(f"transform length must be >= 1, got {n}")
    if n & (n - 1):
        raise ValueError(f"transform length n = {n} is not a power of two")
    order = 2 * n if kind == "negacyclic" else n
    if (p - 1) % order:
        what = "2n" if kind == "negacyclic" else "n"
        raise ValueError(
            f"{what} = {order} does not divide p - 1 = {p - 1}: no {order}-th root of unity "
            f"mod {p} (largest {kind} length: {largest_length(p, kind)})"
        )


def largest_length(p: int, kind: str) -> int:
    m = p - 1
    top = m & -m
    return top // 2 if kind == "negacyclic" else top


def lazy_is_valid(p: int, dt: np.dtype) -> bool:
    """Harvey butterflies keep values below 4p, which must fit the lane; on uint32 lanes
    2^30 <= p < 2^31 keep [0, p) with Shoup products below 2p instead (the kernels'
    SHOUP31 butterflies), so there p < 2^31 is enough."""
    if dt.itemsize == 4:
        return p < 1 << 31
    return 4 * p <= 1 << (8 * dt.itemsize)


def goldilocks_is_valid(p: int, dt: np.dtype) -> bool:
    """The goldilocks family's reduction is written for p = 2^64 - 2^32 + 1 on uint64
    lanes and nothing else."""
    return p == GOLDILOCKS and dt.itemsize == 8


def _fastest_valid_family(p: int, dt: np.dtype) -> str:
    # Measured per kernel build with asv_bench/scripts/ns_per_butterfly.py (--fields for
    # the special primes): the goldilocks reduction wins for its prime in the vector
    # builds (the portable build's scalar Montgomery, three multiplications on a fast
    # scalar multiplier, beats its adds and shifts); IFMA Montgomery wins on uint64
    # lanes where it exists (odd p < 2**52), then lazy wherever it is valid (uint32
    # lanes up to 2**31); without it Montgomery beats Barrett except on uint32 lanes of
    # the portable build.
    from ntt_cy._kernels import active as _ntt

    if goldilocks_is_valid(p, dt) and _ntt.ACTIVE_ISA != "portable":
        return "goldilocks"
    if dt.itemsize == 8 and p % 2 and _ntt.montgomery_bits(p, 8) == 52:
        return "montgomery"
    if lazy_is_valid(p, dt):
        return "lazy"
    if p % 2 == 0 or (dt.itemsize == 4 and _ntt.ACTIVE_ISA == "portable"):
        return "barrett"
    return "montgomery"


def check_reduction(reduction: str, p: int, dt: np.dtype) -> str:
    """Resolve `reduction` to a concrete family valid for p on lanes of dtype dt."""
    if reduction not in REDUCTIONS:
        raise ValueError(f"reduction must be one of {REDUCTIONS}, got {reduction!r}")
    bits = 8 * dt.itemsize
    if reduction == "auto":
        return _fastest_valid_family(p, dt)
    if reduction == "lazy" and not lazy_is_valid(p, dt):
        raise ValueError(
            f"reduction='lazy' needs {'p < 2**31' if bits == 32 else '4p <= 2**64'} on {dt} "
            f"lanes; p = {p} is too large "
            f"(use 'montgomery' or 'barrett')"
        )
    if reduction == "goldilocks" and not goldilocks_is_valid(p, dt):
        raise ValueError(
            f"reduction='goldilocks' serves p = 2**64 - 2**32 + 1 on uint64 lanes only; got "
            f"p = {p} on {dt} lanes (use 'auto')"
        )
    if reduction == "montgomery" and p % 2 == 0:
        raise ValueError("reduction='montgomery' needs an odd modulus")
    return str(reduction)   # a str subclass (numpy.str_) as the plain str the tables take


def is_integer(v: object) -> TypeGuard[int | np.integer[Any]]:
    """A Python or numpy integer that is not a bool."""
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _integer_objects(values) -> bool:
    """Whether objects are integers as numpy reads a list of them: Python/numpy ints,
    with bools among them standing for the ints they equal (as in [True, 2], int64),
    but not bools alone (a bool array).  None at all: True (the caller reports the
    empty input as such)."""
    types = set(map(type, values))   # (by type: ~15 ns a value, against ~80 one by one)
    return not types or (all(issubclass(t, (int, np.integer, np.bool_)) for t in types)
                         and any(not issubclass(t, (bool, np.bool_)) for t in types))


def _ints_beyond_int64(seq) -> bool:
    """For a list or tuple that int64_from_ints declined: whether it holds exact Python
    ints only, not all in [2^63, 2^64) (so at least one outside int64).  numpy reads
    such a list as an object array (ints beyond 64 bits) or, numpy 2, as float64 (ints
    on both sides of 2^63); ntt_cy makes it an exact object array without numpy's passes
    (a float64 read, then an object one).  Ints all in [2^63, 2^64) are numpy's uint64."""
    return (len(seq) > 0 and set(map(type, seq)) == {int}
            and (min(seq) < 1 << 63 or max(seq) >= 1 << 64))


def single_row_operand(a, limit: int):
    """`a` as the single-row routes read it, or None: a 1-D ndarray itself; a list or
    tuple of fewer than `limit` values as numpy reads it, where that is a 1-D array of
    an integer dtype (Python ints within int64 become int64, all in [2^63, 2^64)
    uint64; other Python ints outside int64 are refused, as_integer_array makes them
    objects).  Anything else,
    and any failure to convert, gives None: the general route then converts and checks
    as always, and raises its own errors (floats in a list are never truncated here)."""
    if type(a) is np.ndarray:
        return a if a.ndim == 1 else None
    if (type(a) is not list and type(a) is not tuple) or not 0 < len(a) < limit:
        return None
    arr = int64_from_ints(a)   # (ints in int64: numpy's int64 array without its dtype pass)
    if arr is not None:
        return arr
    if _ints_beyond_int64(a):   # (an object array, refused below, without making it)
        return None
    try:
        arr = np.asarray(a)
    except (ValueError, TypeError, OverflowError):
        return None
    return arr if arr.ndim == 1 and arr.dtype.kind in "iu" else None


def as_integer_array(a, name: str = "a", allow_empty: bool = False) -> np.ndarray:
    """`a` as an ndarray of at least one dimension holding integers: an int/uint dtype,
    or objects that are all ints.  Never a copy of an ndarray input, except one not
    aligned to its element size (a view at an odd byte offset), which is copied: every
    route's arrays reach the kernels aligned.  Empty arrays raise ValueError unless
    allow_empty (the caller then checks the axes it needs)."""
    known_ints = False   # (object arrays made here of ints: not looked at again)
    if isinstance(a, np.ndarray):
        if isinstance(a, np.ma.MaskedArray) and np.ma.getmaskarray(a).any():
            raise TypeError(f"{name} is a masked array with masked values: pass "
                            f"{name}.filled(value) to say what they stand for")
        arr = a
    else:
        if hasattr(a, "__cuda_array_interface__"):
            raise TypeError(f"{name} is a device array: use backend='cuda' or copy it to the host")
        # (a flat list of ints in int64: numpy's int64 array, ~10x sooner than np.asarray;
        # of ints outside int64: an object array, ~5x sooner)
        arr = None
        if type(a) is list or type(a) is tuple:
            arr = int64_from_ints(a)
            if arr is None and _ints_beyond_int64(a):
                arr = np.empty(len(a), dtype=object)
                arr[:] = a
                known_ints = True
        try:
            if arr is None:
                arr = np.asarray(a)
            if arr.dtype.kind == "f":
                # numpy turns Python ints that fit no single integer dtype (say
                # [-1, 2**64 - 2]) into floats; keep them exact as objects instead.
                as_objects = np.asarray(a, dtype=object)
                if _integer_objects(as_objects.flat):
                    arr, known_ints = as_objects, True
        except (OverflowError, ValueError) as exc:
            raise ValueError(f"{name} could not be converted to an integer array: {exc}") from None
    if arr.ndim == 0 and arr.dtype.kind == "O" and not is_integer(arr.item()):
        # np.asarray wraps what it cannot read as a sequence (None, a generator, a dict)
        raise TypeError(f"{name} must be an array-like of integers, got {type(a).__name__}")
    kind = arr.dtype.kind   # bools are kind "b": rejected here as well
    if kind not in "iuO":
        raise TypeError(f"{name} must hold integers, got dtype {arr.dtype}")
    if arr.size == 0 and not allow_empty:
        raise ValueError(f"{name} is empty")
    if arr.ndim == 0:
        raise ValueError(f"{name} must have at least one dimension")
    if kind == "O" and not known_ints and not _integer_objects(arr.flat):
        raise TypeError(f"{name} must hold integers, got non-integer objects")
    if not arr.flags.aligned:
        # (a view at an odd byte offset: the kernels read uint32_t / uint64_t pointers,
        # which C requires aligned to their size; a copy of the same layout is)
        arr = arr.copy(order="K")
    return arr


def as_lane_array(a, p: int, dt: np.dtype, name: str = "a", on_range: str = "raise",
                  allow_empty: bool = False) -> np.ndarray:
    """Validate `a` and return it as an array of lane dtype `dt` (the input is never modified).

    on_range: "raise" -> ValueError when a value is outside [0, p);
              "reduce" -> values are reduced modulo p (negative values too).
    allow_empty: empty arrays are returned (as empty lanes) instead of refused.
    """
    if on_range not in ("raise", "reduce"):
        raise ValueError(f"on_range must be 'raise' or 'reduce', got {on_range!r}")
    arr = as_integer_array(a, name, allow_empty)
    if arr.size == 0:
        return np.empty(arr.shape, dtype=dt)
    return integers_to_lanes(arr, p, dt, name, on_range)


def integers_to_lanes(arr: np.ndarray, p: int, dt: np.dtype, name: str,
                      on_range: str, into: np.ndarray | None = None) -> np.ndarray:
    """as_lane_array for an array that as_integer_array already accepted.  `into`
    (shape arr.shape, dtype dt): where in-range values that need a dtype
    conversion are written, instead of a new array."""
    if arr.dtype.kind in "iu" and not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))   # the views below read raw bytes
    if arr.dtype.kind == "O":
        if on_range == "reduce":
            return np.array([int(v) % p for v in arr.flat], dtype=dt).reshape(arr.shape)
        _check_range_objects(arr, p, name)
        return arr.astype(dt)
    if not _all_below_unsigned(arr, p):   # else: every value in [0, p), one pass
        if arr.dtype.kind == "i":
            low = arr.min()
            if low < 0:
                if on_range == "reduce":
                    return _reduce_signed(arr, p, dt, int(low), into)
                raise ValueError(f"{name} has values outside [0, p) for p = {p}: minimum {low}")
        high = int(arr.max())
    else:
        high = 0
    if high >= p:
        if on_range == "reduce":
            return (arr.astype(np.uint64) % np.uint64(p)).astype(dt)
        raise ValueError(f"{name} has values outside [0, p) for p = {p}: maximum {high}")
    if arr.dtype.kind == "i" and arr.dtype.itemsize == dt.itemsize:
        return arr.view(dt)   # values in [0, p): the same bits, no copy
    if into is not None and arr.dtype != dt:
        np.copyto(into, arr, casting="unsafe")   # values in [0, p) fit dt
        return into
    return arr.astype(dt, copy=False)


def unsigned_lanes(arr: np.ndarray, p: int) -> tuple[np.ndarray | None, int]:
    """A native-order int/uint array as unsigned lanes of its width (a view), and the
    bound their maximum must stay below for every value to lie in [0, p): p, or
    2^(bits-1) for a signed array and a larger p (a negative value reads as >= 2^(bits-1)
    there, every other value is below it).  (None, p) for other arrays."""
    if arr.dtype.kind not in "iu" or not arr.dtype.isnative:
        return None, p
    if arr.dtype.kind == "u":
        return arr, p
    sign = 1 << (8 * arr.dtype.itemsize - 1)
    return arr.view(np.dtype(f"u{arr.dtype.itemsize}")), min(p, sign)


def unsigned_view(arr: np.ndarray, p: int) -> np.ndarray | None:
    """unsigned_lanes' view where its bound is p itself (signed arrays only for
    p <= 2^(bits-1)), else None."""
    view, limit = unsigned_lanes(arr, p)
    return view if limit == p else None


def _all_below_unsigned(arr: np.ndarray, p: int) -> bool:
    """Whether every value of an int/uint array lies in [0, p), from one max over
    unsigned_view (numpy's min and max are two passes, ~30 us each for 2^17 int64
    values).  False means "check the slow way"."""
    view = unsigned_view(arr, p)
    return view is not None and int(view.max()) < p


def _check_range_objects(arr, p, name):
    low = min(int(v) for v in arr.flat)
    high = max(int(v) for v in arr.flat)
    if low < 0 or high >= p:
        bad = low if low < 0 else high
        raise ValueError(f"{name} has values outside [0, p) for p = {p}: {bad}")


def _reduce_signed(arr, p, dt, low, into=None):
    # arr mod p for a signed array whose minimum `low` is negative; into (uint64
    # lanes of arr's shape, C-contiguous): where the residues are written
    a64 = arr.astype(np.int64, copy=False)
    if p < 1 << 63:   # (residues in [0, p): the same bits as uint64)
        wide = np.dtype(dt) == np.uint64
        r = into.view(np.int64) if wide and into is not None else None
        if low >= -p and int(a64.max()) < p:
            # every value in [-p, p) (centred coefficients, say): p added to the
            # negative ones by a mask of the sign, ~12x sooner than np.remainder
            r = np.right_shift(a64, 63, out=r)
            np.bitwise_and(r, np.int64(p), out=r)
            np.add(r, a64, out=r)
        else:
            r = np.remainder(a64, np.int64(p), out=r)
        return r.view(np.uint64) if wide else r.astype(dt)
    # p >= 2**63: every int64 lies in (-p, p); adding p (mod 2**64) fixes the negatives
    r = a64.astype(np.uint64)
    r[a64 < 0] += np.uint64(p)
    return r.astype(dt)


def _same_view(x: np.ndarray, y: np.ndarray) -> bool:
    """x and y are the same elements of the same memory (e.g. an int64 input and its
    uint64 view used as out): an in-place transform, not a partial overlap."""
    return (x.ctypes.data == y.ctypes.data and x.shape == y.shape and x.strides == y.strides
            and x.dtype.itemsize == y.dtype.itemsize)


def holds_residues(dt: np.dtype[Any], p: int | np.integer[Any]) -> bool:
    """Whether a 32- or 64-bit integer dtype holds every value in [0, p): unsigned up to
    p = 2^bits, signed up to p = 2^(bits-1)."""
    if dt.kind not in "iu" or dt.itemsize not in (4, 8):
        return False
    return p <= 1 << (8 * dt.itemsize - (dt.kind == "i"))


def result_dtype(input_dtype: np.dtype, p: int, lanes: np.dtype) -> np.dtype:
    """The dtype a transform returns without `out` or `dtype`: a uint32 or uint64 input
    that holds [0, p) keeps its own, any other (signed, narrower, objects) gets the
    lanes'."""
    if input_dtype.kind == "u" and input_dtype.isnative and holds_residues(input_dtype, p):
        return input_dtype
    return lanes


def check_out_array(out, shape) -> np.ndarray:
    """The checks every `out` takes: an ndarray of `shape`, writable, no two of its
    elements in one place."""
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out must be a numpy array, got {type(out).__name__}")
    if out.shape != tuple(shape):
        raise ValueError(f"out has shape {out.shape}, expected {tuple(shape)}")
    if not out.flags.writeable:
        raise ValueError("out is read-only")
    for axis, (length, stride) in enumerate(zip(out.shape, out.strides)):
        if stride == 0 and length > 1 and out.size:
            raise ValueError(f"out has stride 0 along axis {axis} (a broadcast view): its "
                             f"{length} elements there are one, and cannot hold {length} "
                             f"results")
    return out


def _check_no_overlap(out, source) -> None:
    if out is not source and np.shares_memory(out, source) and not _same_view(out, source):
        raise ValueError("out overlaps the input without being the same array; "
                         "pass the input itself as out for an in-place transform")


def check_out(out, shape, dt, source: np.ndarray) -> np.ndarray:
    """Validate a user-supplied `out` array of the lane dtype `dt`; it may be the
    (lane-typed) input itself.  source: the caller's array (the lanes the kernel reads
    are its memory or a private converted copy, so only the caller's array can overlap
    `out`)."""
    if isinstance(out, np.ndarray) and out.dtype != dt:
        raise TypeError(f"out has dtype {out.dtype}, expected {dt}")
    check_out_array(out, shape)
    _check_no_overlap(out, source)
    return out


def check_residue_out(out, shape, p: int | np.integer[Any], source,
                      what: str = "every value in [0, p)") -> np.ndarray:
    """Validate a user-supplied `out` for results in [0, p): any 32- or 64-bit integer
    dtype that holds them (holds_residues), of `shape`, writable, without stride-0
    axes; it may be the input `source` itself (None: no input to overlap)."""
    if isinstance(out, np.ndarray) and not holds_residues(out.dtype, p):
        raise TypeError(
            f"out has dtype {out.dtype}, which cannot hold {what} for p = {p}: pass uint32 "
            f"(p <= 2**32) or uint64 (p <= 2**64), or int32 / int64 for p up to 2**31 / 2**63")
    check_out_array(out, shape)
    if isinstance(out, np.ndarray) and not out.dtype.isnative:
        raise TypeError(f"out has dtype {out.dtype}: non-native byte order")
    if source is not None:
        _check_no_overlap(out, source)
    return out


def check_flag(value, name: str) -> bool:
    """A keyword flag: a Python or numpy bool (a truthy string or number is refused,
    not taken for True)."""
    if type(value) is not bool and not isinstance(value, np.bool_):
        raise TypeError(f"{name} must be a bool, got {type(value).__name__}")
    return bool(value)
