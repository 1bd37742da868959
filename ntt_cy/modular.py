"""mul_mod: exact element-wise products modulo any integer below 2**64.

numpy cannot do this for 64-bit values (``a * b % p`` wraps at 2**64 first); ntt_cy's
pointwise kernel does it exactly, vectorised and threaded: two Montgomery products a
value for odd moduli (with the constant R**2 folded in, see pointwise.pxi), Barrett
reduction of the 128-bit product for even ones.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ntt_cy._kernels import active as _kernels
from ntt_cy._support import checks as _checks
from ntt_cy._support.pieces import ELEMENTS_PER_PIECE, PIECE_NS, piece_rows, piece_starts
from ntt_cy._support.scratch import LIMIT_BYTES as SCRATCH_LIMIT_BYTES, scratch
from ntt_cy._support.threads import check_workers, effective_threads
from ntt_cy._typing import Integer, IntegerArray

__all__ = ["mul_mod"]

U32, U64 = np.dtype(np.uint32), np.dtype(np.uint64)


def modulus_lanes(m: int) -> np.dtype[Any]:
    """The lanes mul_mod computes on for modulus m: uint32 below 2**32, else uint64."""
    return U32 if m < 1 << 32 else U64


def mul_mod(a: npt.ArrayLike, b: npt.ArrayLike, p: Integer, *, out: IntegerArray | None = None,
            workers: Integer | None = None) -> IntegerArray:
    """Element-wise ``a * b mod p``, exact for every modulus ``1 <= p < 2**64``.

    Parameters
    ----------
    a, b : array_like of integers
        Factors; any integer values (negative, ``>= p``, Python ints) are reduced
        modulo ``p`` first.  Shapes broadcast as in numpy.  Never modified.
    p : int
        The modulus, ``1 <= p < 2**64``; prime or not.
    out : numpy.ndarray, optional
        Where to write the result: the broadcast shape, writable, any 32- or 64-bit
        integer dtype that holds every value in ``[0, p)`` (as :func:`ntt_cy.ntt` takes
        it); it may be ``a`` or ``b`` itself.
    workers : int, optional
        Threads, as for :func:`ntt_cy.ntt` (None: :func:`ntt_cy.get_workers`; small
        inputs use one).

    Returns
    -------
    numpy.ndarray
        The products in ``[0, p)`` (`out` when given): dtype uint32 when
        ``p < 2**32``, else uint64; empty inputs give an empty result, two scalars
        a 0-d array.

    Raises
    ------
    ValueError
        ``p`` outside ``[1, 2**64)``, shapes that do not broadcast, or an `out` of
        the wrong shape.
    TypeError
        Non-integer factors (floats, bools) or modulus, or an `out` whose dtype
        cannot hold ``[0, p)``.

    See Also
    --------
    ntt_cy.ntt : Transforms whose pointwise products use the same kernel.
    ntt_cy.polymul : Products of polynomials.

    Examples
    --------
    >>> import numpy as np, ntt_cy
    >>> p = 2**64 - 59
    >>> ntt_cy.mul_mod(np.array([2**63, p - 1], dtype=np.uint64), [3, p - 1], p)
    array([9223372036854775867,                   1], dtype=uint64)
    >>> ntt_cy.mul_mod([-1, 5], 7, 11)
    array([4, 2], dtype=uint32)
    >>> int(ntt_cy.mul_mod(10**18, 10**18, 10**18 + 9))   # a 0-d array for scalars
    81
    """
    m = _checks.as_int(p, "p")
    if not 1 <= m < 1 << 64:
        raise ValueError(f"p must satisfy 1 <= p < 2**64, got {m}")
    lanes = modulus_lanes(m)
    scalar = np.ndim(a) == 0 and np.ndim(b) == 0
    x = _factor_array(a, "a")
    y = x if b is a else _factor_array(b, "b")
    shape = () if scalar else np.broadcast_shapes(np.shape(a), np.shape(b))
    # Integer factors of the result's shape whose lanes exceed the scratch buffers
    # convert piece by piece, each piece into the buffer just before its products
    # (fresh lanes of that size are faulted in on every call); others at once.
    piecewise = (x.shape == shape == y.shape and x.flags.c_contiguous
                 and y.flags.c_contiguous and x.dtype.kind in "iu" and y.dtype.kind in "iu"
                 and (x.dtype != lanes or y.dtype != lanes)
                 and x.size * lanes.itemsize > SCRATCH_LIMIT_BYTES)
    if not piecewise:
        x = _factor_lanes(x, m, lanes, "a")
        y = x if b is a else _factor_lanes(y, m, lanes, "b")
    if out is None:
        result = np.empty(shape, dtype=lanes)
    else:
        result = _checks.check_residue_out(out, shape, m, None)
    if result.size == 0 or m == 1:
        check_workers(workers)   # (checked as on every other call)
    if result.size == 0:
        return result
    if m == 1:
        result[...] = 0
        return result
    rows = _as_rows(x, shape)
    cols = _as_rows(y, shape)
    # the kernel writes out[i] after reading a[i] and b[i]: out may be either operand
    # itself, not an overlapping view of one; a misaligned out gets the products through
    # an aligned temporary
    exact_alias = all(not np.shares_memory(result, v) or _same_buffer(result, v)
                      for v in (rows, cols))
    target = (result if result.flags.c_contiguous and result.flags.aligned and exact_alias
              and result.dtype == lanes else np.empty(shape, dtype=lanes))
    constants = _modulus_constants(m, lanes)
    threads = effective_threads(workers, result.size)
    step = piece_rows(rows.size, PIECE_NS / ELEMENTS_PER_PIECE, threads, lanes.itemsize,
                      lanes.itemsize if piecewise else 0)
    if step == rows.size and not piecewise:
        _kernels.pointwise_mul(rows, cols, target.reshape(rows.shape), constants, 1, threads)
    else:   # (a long call: Ctrl-C is answered between pieces, _support/pieces.py)
        flat = (rows.reshape(1, -1), cols.reshape(1, -1), target.reshape(1, -1))
        for start, stop in piece_starts(rows.size, step):
            xs, ys, into = (v[:, start:stop] for v in flat)
            if piecewise:
                xs = _factor_lanes(xs, m, lanes, "a")
                ys = xs if b is a else _factor_lanes(ys, m, lanes, "b")
            _kernels.pointwise_mul(xs, ys, into, constants, 1, threads)
    if target is not result:
        result[...] = target
    return result


def _factor_array(v: npt.ArrayLike, name: str) -> npt.NDArray[Any]:
    """The factor v as a checked integer array (a scalar as a 1-element one)."""
    return _checks.as_integer_array(np.atleast_1d(v) if np.ndim(v) == 0 else v, name, True)


def _factor_lanes(arr: npt.NDArray[Any], m: int, lanes: np.dtype[Any], name: str
                  ) -> npt.NDArray[Any]:
    """The checked integer array arr (a factor, or a piece of one) as lanes of values in
    [0, m): one of another dtype is converted into a per-thread scratch buffer (a fresh
    temporary is faulted in again on every call once glibc has trimmed the heap: int64
    factors of 2^16 values took ten times as long as uint32 ones)."""
    # imported here, as in _modulus_constants
    from ntt_cy.plan import integer_lanes

    if arr.size == 0:
        return np.empty(arr.shape, dtype=lanes)
    convert = arr.dtype.kind in "iu" and arr.dtype != lanes
    into = scratch(f"factor_{name}", arr.shape, lanes) if convert else None
    return integer_lanes(arr, m, lanes, name, "reduce", into)


def _as_rows(x: npt.NDArray[Any], shape: tuple[int, ...]) -> npt.NDArray[Any]:
    """x broadcast to `shape`, as a C-contiguous 2-D array (a view where it is one)."""
    full = x.reshape(shape) if x.size == 1 and not shape else x
    full = full if full.shape == shape else np.broadcast_to(full, shape)
    full = np.ascontiguousarray(full)
    return full.reshape(-1, shape[-1] if shape else 1)


def _same_buffer(x: npt.NDArray[Any], y: npt.NDArray[Any]) -> bool:
    """Whether the C-contiguous x and y are the same elements of the same memory."""
    return (x.__array_interface__["data"][0] == y.__array_interface__["data"][0]
            and x.size == y.size and x.dtype.itemsize == y.dtype.itemsize)


def _modulus_constants(m: int, lanes: np.dtype[Any]) -> dict[str, int]:
    # imported here: plan imports the transforms, which import this module's users
    from ntt_cy.plan import modulus_constants

    return modulus_constants(m, lanes, _kernels.montgomery_bits(m, lanes.itemsize))
