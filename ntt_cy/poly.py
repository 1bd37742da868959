"""polymul / convolve: exact polynomial products modulo any integer m >= 1.

The door of every product: the arguments are checked and the operands converted here,
once; ntt_cy/_routing.py then picks the route (schoolbook, transforms modulo m itself,
multi-prime CRT; its notes list them) and ntt_cy/_products.py runs it.  A small 1-D
product goes first to the product prepared for its shape (ntt_cy/_single_row.py), in one
compiled call: found by one compiled lookup once prepared (_ntt.cached_product_call).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from ntt_cy._kernels import active as _ntt
from ntt_cy._kernels.crt import wide as _wide
from ntt_cy._products import peak_bytes, result_dtype, run_route
from ntt_cy._routing import Route, product_route
from ntt_cy._single_row import prepared_products, single_row_product
from ntt_cy._support.checks import (as_int, as_integer_array, check_backend, check_flag,
                                    check_out_array, check_poly_kind, check_residue_out,
                                    lane_dtype, single_row_operand, unsigned_view)
from ntt_cy._support.aligned import aligned_empty
from ntt_cy._support.memory import check_memory, settings as memory_settings
from ntt_cy._support.scratch import scratch
from ntt_cy._support.threads import PARALLEL_MIN_ELEMENTS, check_workers, requested_workers
from ntt_cy._typing import Backend, Integer, PolyKind
from ntt_cy.plan import integer_lanes

__all__ = ["polymul", "convolve"]

U32, U64, OBJ = np.dtype(np.uint32), np.dtype(np.uint64), np.dtype(object)
# Bytes per operand value (plus m's bits) that bound _products.peak_bytes: transform rows
# of up to twice the values' count for up to 32 CRT primes and their tables; smaller
# products skip the estimate.
PEAK_BYTES_PER_VALUE = 4096


def polymul(a: npt.ArrayLike, b: npt.ArrayLike, modulus: Integer, *, kind: PolyKind = "linear",
            out: npt.NDArray[Any] | None = None, workers: Integer | None = None,
            backend: Backend = "cpu", assume_reduced: bool = False) -> npt.NDArray[Any]:
    """Product of polynomials a and b with coefficients modulo `modulus`.

    Parameters
    ----------
    a, b : array_like of integers
        Coefficients, lowest degree first.  1-D, or N-D batches multiplied row by
        row along the last axis (leading shapes broadcast as in numpy; an empty batch
        gives an empty result).  Any integer values (negative, above the modulus,
        Python ints of any size) are reduced modulo `modulus`; floats, bool arrays
        and empty polynomials are rejected (a Python bool inside a list of ints is the
        int it equals, as in numpy).  The inputs are never modified.
    modulus : int
        Any integer m >= 1: prime or not, below 2**64 or not.
    kind : {"linear", "cyclic", "negacyclic"}
        "linear": the full product, ``len(a) + len(b) - 1`` coefficients.
        "cyclic" / "negacyclic": the product modulo x^n - 1 / x^n + 1, n
        coefficients; a and b must have the same length n (any n >= 1).
    out : numpy.ndarray, optional
        Where to write the result: its shape, writable, a 32- or 64-bit integer dtype
        that holds every value in [0, m) (as :func:`ntt_cy.ntt` takes it), or object;
        it may be one of the inputs.  A fresh array when None.  On the transform
        routes a C-contiguous `out` of the result's dtype, not one of the inputs, gets
        the products written into it directly (no result array of their own).
    workers : int, optional
        Threads, as for :func:`ntt_cy.ntt`: k > 0 exactly k, -k counting back from the
        usable CPUs, None :func:`ntt_cy.get_workers`.
    backend : {"cpu", "cuda"}
        "cuda" runs on the GPU through ntt_cy.cuda (moduli < 2**64; numpy or device
        arrays in, numpy or device arrays out).
    assume_reduced : bool, default False
        True: the caller guarantees coefficients in [0, modulus).  A one-row product
        (1-D uint32/uint64 operands below 8192 coefficients, modulus below 2**64)
        then never compares them with the modulus, so that on the transform routes no
        branch and no memory index depends on them (see "Security and constant
        time" in the guide); a value outside gives a meaningless result.  Other
        calls check and reduce their operands as usual.

    Returns
    -------
    numpy.ndarray
        Coefficients in [0, m) (`out` when given): dtype uint32 when m <= 2**32,
        uint64 when m <= 2**64, and object (Python ints) above.

    Raises
    ------
    ValueError
        A modulus below 1, an empty or 0-d polynomial, batch shapes that do not
        broadcast, operands of different lengths for a cyclic or negacyclic product,
        an `out` of the wrong shape, a `workers` count out of range, or a modulus
        beyond what the CRT route reaches (the message names the bound).
    TypeError
        Non-integer coefficients (floats, bools arrays), a non-integer modulus, an
        `out` whose dtype cannot hold [0, m), or a non-bool `assume_reduced`.
    MemoryError
        The product would need more memory than is available (or than
        :func:`ntt_cy.set_memory_limit` allows).

    See Also
    --------
    convolve : The same function.
    ntt_cy.ntt : The transforms underneath.
    ntt_cy.bigmul : Products of big integers.
    ntt_cy.dask.polymul : Products of dask arrays.

    Notes
    -----
    Every result is exact.  Moduli >= 2**64: small linear products (rows * len(a) *
    len(b) * m.bit_length() <= 2**16) by a Python-int schoolbook; the others through
    the same multi-prime CRT, the operands' residues and the coefficients mod m
    computed on 64-bit words in C, which needs the coefficient bound min(len a, len b)
    * (m - 1)**2 below ~2**990, sixteen 62-bit primes (above it: the schoolbook up to
    4096 products, else ValueError naming the bound).  Cyclic and negacyclic products
    of such moduli are linear ones, wrapped.

    Examples
    --------
    >>> import numpy as np, ntt_cy
    >>> ntt_cy.polymul([1, 2, 3], [4, 5], 7)
    array([4, 6, 1, 1], dtype=uint32)
    >>> ntt_cy.polymul([1, 2, 3], [4, 5, 6], 7, kind="negacyclic")
    array([5, 2, 0], dtype=uint32)
    >>> ntt_cy.polymul([-1, 2**70], [3], 2**64)   # any integers, reduced
    array([18446744073709551613,                    0], dtype=uint64)
    >>> out = np.empty((2, 3), np.uint64)
    >>> _ = ntt_cy.polymul([[1, 1], [1, 2]], [1, 1], 10**9 + 7, out=out)
    >>> out.tolist()
    [[1, 2, 1], [1, 3, 2]]
    """
    if type(backend) is str and backend == "cpu":   # a small product prepared before
        if workers is not None:
            check_workers(workers)
        result = _ntt.cached_product_call(a, b, modulus, kind, prepared_products,
                                          assume_reduced)
        if result is not None:
            return result if out is None else _deliver(result, out, modulus)
    if check_backend(backend) == "cuda":
        from ntt_cy import cuda

        check_workers(workers)   # as on the CPU; the GPU sizes its own grid
        return _deliver(cuda.polymul(a, b, modulus, kind=kind), out, modulus)
    trusted = assume_reduced is not False and check_flag(assume_reduced, "assume_reduced")
    if type(modulus) is int and type(kind) is str:
        row_a = single_row_operand(a, PARALLEL_MIN_ELEMENTS)
        row_b = row_a if b is a else single_row_operand(b, PARALLEL_MIN_ELEMENTS)
        if row_a is not None and row_b is not None:
            result = single_row_product(row_a, row_b, modulus, kind, workers, not trusted)
            if result is not None:
                return result if out is None else _deliver(result, out, modulus)
            a, b = row_a, row_b   # (lists: read once; b is a still where it was)
    m = as_int(modulus, "modulus")
    if m < 1:
        raise ValueError(f"modulus must be >= 1, got {m}")
    check_poly_kind(kind)
    A, B, a_reduced, b_reduced, threads = _read_operands(a, b, m, workers)
    na, nb = A.shape[-1], B.shape[-1]
    try:
        batch = () if A.ndim == B.ndim == 1 else np.broadcast_shapes(A.shape[:-1], B.shape[:-1])
    except ValueError:
        raise ValueError(f"batch shapes of a {A.shape[:-1]} and b {B.shape[:-1]} do not "
                         f"broadcast (the last axis holds the coefficients)") from None
    if kind != "linear" and na != nb:
        raise ValueError(f"kind={kind!r} needs a and b of the same length n, got {na} and {nb}")
    rows = math.prod(batch)
    if rows == 0:   # an empty batch: nothing to multiply
        return _deliver(np.empty(batch + (na + nb - 1 if kind == "linear" else na,),
                                 dtype=output_dtype(m)), out, m)
    route = product_route(rows, na, nb, m, kind)
    if rows * (na + nb) * (PEAK_BYTES_PER_VALUE + m.bit_length()) >= memory_settings.check_from:
        check_memory(peak_bytes(route, rows, na, nb, m),
                     "polymul of {} row(s) of lengths {} and {} mod m", rows, na, nb)
    result = None
    into = _out_rows(out, route, batch + (na + nb - 1 if kind == "linear" else na,), m, A, B)
    if route.unchecked:
        # 32/64-bit integer arrays go in as they are (unsigned views): the route's kernels
        # see every value anyway and report the largest; one >= m (or a negative one)
        # sends the product to the residues below
        lanes = _unchecked_rows(A, B, m, batch, _read_width(route, m))
        if lanes is not None:
            result = run_route(route, lanes[0], lanes[1], m, threads, False, into)
    if result is None:
        RA = A if a_reduced else _residues(A, m, "a")
        RB = RA if B is A else B if b_reduced else _residues(B, m, "b")
        A2, B2 = _rows(RA, RB, batch)
        result = run_route(route, A2, B2, m, threads, True, into)
    if out is not None and result is into:
        return out   # (written by the kernels)
    result = result.reshape(batch + result.shape[-1:])
    dt = output_dtype(m)
    if result.dtype != dt and dt != OBJ:   # (uint64 rows of a uint32 result)
        narrowed = aligned_empty(result.shape, dt)   # (aligned, as every route's result)
        np.copyto(narrowed, result, casting="unsafe")   # (values < m fit)
        result = narrowed
    return _deliver(result.astype(dt, copy=False), out, m)


convolve = polymul


def output_dtype(m: int) -> np.dtype[Any]:
    """uint32 for m <= 2**32, uint64 up to 2**64, object (Python ints) above."""
    if m <= 1 << 32:
        return U32
    return U64 if m <= 1 << 64 else OBJ


def _deliver(result: npt.NDArray[Any], out: npt.NDArray[Any] | None, m: Integer
             ) -> npt.NDArray[Any]:
    """result, or result written into the user's `out` (checked here: any 32- or
    64-bit integer dtype that holds [0, m), or object)."""
    if out is None:
        return result
    if isinstance(out, np.ndarray) and out.dtype == OBJ:
        check_out_array(out, result.shape)
    else:
        check_residue_out(out, result.shape, m, None, "every coefficient in [0, m)")
    out[...] = result
    return out


def _out_rows(out: Any, route: Route, shape: tuple[int, ...], m: int,
              A: npt.NDArray[Any], B: npt.NDArray[Any]) -> npt.NDArray[Any] | None:
    """The user's `out` as the (rows, L) array the route's kernels write the products
    into (no result array, no copy): an ndarray of the result's shape and of the dtype
    the route computes in (result_dtype: the direct and fused CRT routes, which is then
    the result's own), C-contiguous, aligned, writable, sharing no memory with the
    operands; else None (the result is computed, then copied into `out` by _deliver,
    which checks it)."""
    if type(out) is not np.ndarray:
        return None
    dt = result_dtype(route, m)
    if (dt is None or dt != output_dtype(m) or out.dtype != dt or out.shape != shape
            or not out.flags.c_contiguous or not out.flags.aligned
            or not out.flags.writeable):
        return None
    if np.may_share_memory(out, A) or np.may_share_memory(out, B):
        return None
    return out.reshape(-1, shape[-1])


# ---------------------------------------------------------------- the operands

def _read_operands(a: Any, b: Any, m: int, workers: Integer | None
                   ) -> tuple[npt.NDArray[Any], npt.NDArray[Any], bool, bool, int | None]:
    """(A, B, a_reduced, b_reduced, threads): a and b as checked integer ndarrays (B is
    A for a square), each read once: lists and tuples before `workers` is checked, every
    other input after it; a_reduced, b_reduced: whether their values are residues mod m
    already; threads: a count, or None for get_workers() (resolved by effective_threads
    where a product is large enough for threads)."""
    squaring = b is a
    A = as_integer_array(a, "a", True) if type(a) is list or type(a) is tuple else None
    B = as_integer_array(b, "b", True) if not squaring and (type(b) is list or type(b) is tuple) \
        else None
    threads = None if workers is None else requested_workers(workers)
    A, a_reduced = _operand(a, m, "a") if A is None else _operand(A, m, "a", True)
    if squaring:
        return A, A, a_reduced, a_reduced, threads
    B, b_reduced = _operand(b, m, "b") if B is None else _operand(B, m, "b", True)
    return A, B, a_reduced, b_reduced, threads


def _operand(x: Any, m: int, name: str, checked: bool = False
             ) -> tuple[npt.NDArray[Any], bool]:
    """(x as a checked integer ndarray, whether its values are residues mod m already):
    object arrays of exact Python ints in [0, m), m >= 2**64, are taken as they are.
    checked: x is one already (a list read by as_integer_array)."""
    if (m >= 1 << 64 and type(x) is np.ndarray and x.dtype == OBJ and x.ndim and x.size
            and _wide.exact_ints_below(x, m)):
        return x, True   # (nothing more to check; the products only read them)
    x = x if checked else as_integer_array(x, name, True)
    if x.shape[-1] == 0:   # (an empty batch of non-empty rows is fine)
        raise ValueError(f"{name} is empty")
    return x, False


def _read_width(route: Route, m: int) -> int:
    """The integer width (bytes) an unchecked route's kernels read rows of: its lanes'
    for the transforms of a cyclic or negacyclic product of length n (they read full
    rows of the lanes' dtype only), else 0: any 32- or 64-bit rows."""
    if route.path == "direct" and route.kind != "linear":
        return lane_dtype(m).itemsize
    return 0


def _unchecked_rows(A: npt.NDArray[Any], B: npt.NDArray[Any], m: int, batch: tuple[int, ...],
                    width: int = 0) -> tuple[npt.NDArray[Any], npt.NDArray[Any]] | None:
    """The rows of 32/64-bit integer arrays A and B (of `width` bytes, when not 0) as
    unsigned lanes of their widths (views, unchecked: see checks.unsigned_view for when
    a maximum over them suffices), as _rows makes them, or None."""
    widths = (width,) if width else (4, 8)
    if A.dtype.kind not in "iu" or A.dtype.itemsize not in widths:
        return None
    lanes_a = unsigned_view(A, m)
    if lanes_a is None:
        return None
    if B is A:
        return _rows(lanes_a, lanes_a, batch)
    if B.dtype.kind not in "iu" or B.dtype.itemsize not in widths:
        return None
    lanes_b = unsigned_view(B, m)
    return None if lanes_b is None else _rows(lanes_a, lanes_b, batch)


def _residues(arr: npt.NDArray[Any], m: int, name: str) -> npt.NDArray[Any]:
    """arr mod m: unsigned lanes for m < 2**64 (uint64 for 64-bit inputs, so that
    values already in [0, m) are a view of arr, not a copy; else uint32 when
    m <= 2**32), else an object array of Python ints."""
    if m < 1 << 64:
        dt = U64 if m > 1 << 32 or arr.dtype.itemsize == 8 else U32
        # (a conversion into a scratch buffer: the residues never leave the call)
        into = (scratch(f"residues_{name}", arr.shape, dt)
                if arr.dtype != dt and arr.flags.c_contiguous else None)
        return integer_lanes(arr, m, dt, name, "reduce", into)
    if arr.dtype.kind in "iu":   # 64-bit values: below m, unless negative
        out = arr.astype(object)   # (Python ints, ~10x sooner than int(v) % m each)
        if arr.dtype.kind == "i" and arr.min() < 0:
            out %= m
        return out
    out = np.empty(arr.shape, dtype=object)
    out.flat[:] = [int(v) % m for v in arr.flat]
    return out


def _rows(A: npt.NDArray[Any], B: npt.NDArray[Any], batch: tuple[int, ...]
          ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    """A and B broadcast to batch + (their length,), as C-contiguous 2-D arrays of rows
    of one unsigned width (uint32 rows widened where the other's are uint64, as the
    one-call kernels want), or of objects."""
    A2 = _batch_rows(A, batch)
    B2 = A2 if B is A else _batch_rows(B, batch)
    if A2.dtype != B2.dtype and A2.dtype != OBJ and B2.dtype != OBJ:
        A2, B2 = A2.astype(U64, copy=False), B2.astype(U64, copy=False)
    return A2, B2


def _batch_rows(x: npt.NDArray[Any], batch: tuple[int, ...]) -> npt.NDArray[Any]:
    """x broadcast to batch + (len,), as a C-contiguous 2-D array of rows."""
    n = x.shape[-1]
    full = x if x.shape[:-1] == batch else np.broadcast_to(x, batch + (n,))
    return np.ascontiguousarray(full).reshape(-1, n)
