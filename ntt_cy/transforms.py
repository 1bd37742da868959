"""ntt / intt: the numpy-style function interface over cached plans."""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ntt_cy._support import checks as _checks
from ntt_cy._support.checks import check_backend
from ntt_cy._support.threads import check_workers
from ntt_cy._typing import Backend, Integer, IntegerArray, Kind, Reduction
from ntt_cy._kernels import active as _ntt
from ntt_cy.plan import (ROW_CALL_BELOW_N, NTTPlan, cached_plan, get_plan, remember_row_tables,
                          row_tables_by_key, single_row_transform)


__all__ = ["ntt", "intt"]


def fit_length(arr: npt.NDArray[Any], n: int, axis: int) -> npt.NDArray[Any]:
    """arr cropped (a view) or zero-padded (a copy) to length n along `axis`, as
    scipy.fft's n= does."""
    length = arr.shape[axis]
    if length == n:
        return arr
    if length > n:
        return arr[(slice(None),) * axis + (slice(0, n),)]
    padded = np.zeros(arr.shape[:axis] + (n,) + arr.shape[axis + 1:], dtype=arr.dtype)
    padded[(slice(None),) * axis + (slice(0, length),)] = arr
    return padded


def _plan_for(a: npt.ArrayLike, p: Integer, n: Integer | None, axis: Integer, kind: Kind,
              dtype: npt.DTypeLike | None, root: Integer | None
              ) -> tuple[npt.NDArray[Any], int, NTTPlan]:
    """(a as a validated integer ndarray cropped or padded to n, the axis, its cached
    plan): converted once, here."""
    a = _checks.as_integer_array(a, allow_empty=True)
    axis = _checks.normalize_axis(axis, a.ndim)
    length = a.shape[axis]
    if n is None:
        if length == 0:
            raise ValueError(f"a is empty along axis {axis}, the transform axis")
        if length & (length - 1):
            raise ValueError(f"transform length n = {length} (axis {axis}) is not a power of "
                             f"two: pass n= (a power of two) to crop or zero-pad the axis to it")
    else:
        n = _checks.as_int(n, "n")
        if n < 1:
            raise ValueError(f"n must be >= 1, got {n}")
        _checks.check_transform_size(n, _checks.check_prime_modulus(p), _checks.check_kind(kind))
        a = fit_length(a, n, axis)
    return a, axis, get_plan(a.shape[axis], p, dtype=dtype, kind=kind, root=root)


def _single_row(a: npt.ArrayLike, p: Integer, axis: Integer, kind: Kind, reduction: Reduction,
                workers: Integer | None, is_forward: bool, trusted: bool,
                out: IntegerArray | None) -> IntegerArray | None:
    """ntt / intt of a small 1-D ndarray, list or tuple with the default plan, into a
    fresh array or `out` (plan.single_row_transform; trusted: assume_reduced), or None
    for the general route."""
    if type(p) is not int or type(kind) is not str:
        return None
    a = _checks.single_row_operand(a, ROW_CALL_BELOW_N)
    if a is None or a.dtype.kind not in "iu":
        return None   # (before the plan: tables are not built for an input refused anyway)
    try:
        plan = cached_plan(a.shape[0], p, None, kind, None)
    except (ValueError, TypeError):
        return None   # the general route raises it, after its checks of `a`
    result = single_row_transform(plan, a, axis, reduction, workers, is_forward, not trusted,
                                  out)
    if result is not None and reduction == "auto":
        remember_row_tables(plan, kind)   # (the next such call: cached_row_call)
    return result


def _transform(a: npt.ArrayLike, p: Integer, n: Integer | None, axis: Integer,
               out: IntegerArray | None, workers: Integer | None, kind: Kind,
               reduction: Reduction, dtype: npt.DTypeLike | None, root: Integer | None,
               backend: Backend, inverse: bool, trusted: bool) -> IntegerArray:
    """ntt / intt past the one-row route (which the two functions try first); trusted:
    assume_reduced (the GPU checks its input whatever it says)."""
    if check_backend(backend) == "cuda":
        return _cuda_transform(a, p, n, axis, out, workers, kind, reduction, dtype, root,
                               inverse)
    a, axis, plan = _plan_for(a, p, n, axis, kind, dtype, root)
    return plan._transform(a, axis, out, workers, reduction, False, not inverse,
                           None if dtype is None else plan.dtype, trusted)


def _cuda_transform(a: npt.ArrayLike, p: Integer, n: Integer | None, axis: Integer,
                    out: IntegerArray | None, workers: Integer | None, kind: Kind,
                    reduction: Reduction, dtype: npt.DTypeLike | None, root: Integer | None,
                    inverse: bool) -> IntegerArray:
    from ntt_cy import cuda

    check_workers(workers)   # as on the CPU; the GPU sizes its own grid
    if n is not None:
        if hasattr(a, "__cuda_array_interface__"):
            raise ValueError("n= crops or pads host arrays only: pass a device array of "
                             "the transform length")
        a, _, _ = _plan_for(a, p, n, axis, kind, dtype, root)
    fn = cuda.intt if inverse else cuda.ntt
    result: IntegerArray = fn(a, p, axis=axis, out=out, kind=kind, reduction=reduction,
                              dtype=dtype, root=root)   # (a device array for device inputs)
    return result


def ntt(a: npt.ArrayLike, p: Integer, *, n: Integer | None = None, axis: Integer = -1,
        out: IntegerArray | None = None, workers: Integer | None = None,
        kind: Kind = "cyclic", reduction: Reduction = "auto", dtype: npt.DTypeLike | None = None,
        root: Integer | None = None, backend: Backend = "cpu",
        assume_reduced: bool = False) -> IntegerArray:
    """Forward number-theoretic transform modulo the prime `p` along `axis`.

    A[k] = sum_i a[i] w^(i k) mod p (cyclic), or sum_i a[i] psi^i w^(i k) with
    w = psi^2 (negacyclic), w a primitive n-th root of unity.

    Parameters
    ----------
    a : array_like of integers
        Values in [0, p) (anything else raises ValueError, nothing is reduced); any
        integer dtype, lists, Python ints; N-D arrays transform along `axis`, every
        other axis a batch (an empty batch gives an empty result).  Never modified
        unless passed as `out` too.
    p : int
        Prime modulus below 2**64 with n | p - 1 (2n | p - 1 for negacyclic).
    n : int, optional
        Transform length: the axis is cropped or zero-padded to n first (as in
        scipy.fft).  None: the axis length, which must then be a power of two.
    axis : int, default -1
        Axis to transform (negative counts from the end).
    out : ndarray, optional
        Where to write the result: the result's shape, writable, contiguous or not,
        any 32- or 64-bit integer dtype that holds every value in [0, p) (uint32 for
        p <= 2**32, uint64; int32 / int64 for p up to 2**31 / 2**63); ``out=a``
        transforms in place.  A fresh array when None.
    workers : int, optional
        Threads: k > 0 exactly k, -k counting back from the usable CPUs (-1 all of
        them, -2 all but one), None :func:`ntt_cy.get_workers`.  Jobs under 8192
        values run on one thread, and so does every call in a child forked after
        this process ran threads (libgomp's threads do not survive fork).
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        Cyclic: products modulo x^n - 1.  Negacyclic: modulo x^n + 1.
    reduction : {"auto", "montgomery", "barrett", "lazy", "goldilocks"}, default "auto"
        Butterfly family; every family gives identical results ("auto": the fastest
        valid one for this modulus and kernel build).
    dtype : {None, numpy.uint32, numpy.uint64}, optional
        Lanes the kernels compute on, and the result's dtype.  None: the lanes are
        uint32 for p < 2**32, else uint64, and the result keeps the input's dtype
        when it is uint32 or uint64 (and holds [0, p)), else takes the lanes'.
    root : int, optional
        A primitive n-th (negacyclic: 2n-th) root of unity instead of the default
        g^((p-1)/n), g the smallest generator modulo p.
    backend : {"cpu", "cuda"}, default "cpu"
        "cuda" runs on the GPU through PyCUDA (:mod:`ntt_cy.cuda`), same checks and
        results; device arrays in give device arrays out.
    assume_reduced : bool, default False
        True: the caller guarantees that every value of `a` is in [0, p); they are
        not checked (a value outside gives a meaningless result, not an error), and
        on 32/64-bit integer input no branch and no memory index depends on them
        (the CPU backend; see "Security and constant time" in the guide).

    Returns
    -------
    ndarray
        The transform in natural order (`out` when given), values in [0, p).

    Raises
    ------
    ValueError
        A value of `a` outside [0, p), p not a prime below 2**64, a length that is
        not a power of two (without `n`) or does not divide p - 1, a `kind`,
        `reduction`, `root`, `axis`, `out` shape or `workers` count that is not valid.
    TypeError
        A non-integer `a` (floats, bools), `out` of a dtype that cannot hold [0, p),
        a non-integer `p`, `n` or `workers`, or a non-bool `assume_reduced`.
    MemoryError
        The call would need more memory than is available (or than
        :func:`ntt_cy.set_memory_limit` allows).

    See Also
    --------
    intt : The inverse transform.
    NTTPlan : A transform with its tables, reused across calls.
    polymul : Polynomial products, through transforms where they pay.

    Examples
    --------
    >>> import numpy as np, ntt_cy
    >>> ntt_cy.ntt([1, 2, 3, 4], 17)
    array([10,  6, 15,  7], dtype=uint32)
    >>> ntt_cy.ntt(np.array([1, 2, 3], dtype=np.uint64), 17, n=4)   # zero-padded
    array([6, 7, 2, 6], dtype=uint64)
    >>> ntt_cy.ntt([1, 2, 3, 4], 17, kind="negacyclic")
    array([16, 11, 13, 15], dtype=uint32)
    >>> a = np.arange(8, dtype=np.uint64).reshape(2, 4)
    >>> _ = ntt_cy.ntt(a, 998244353, out=a)   # in place, each row
    >>> ntt_cy.intt(a, 998244353).tolist()
    [[0, 1, 2, 3], [4, 5, 6, 7]]
    """
    if n is None and dtype is None and root is None and backend == "cpu":
        # a small 1-D call whose tables a call like it kept: one compiled call
        result: IntegerArray | None = _ntt.cached_row_call(
            a, p, kind, row_tables_by_key, True, out, assume_reduced,
            axis, reduction, workers)
        if result is not None:
            return result
    trusted = assume_reduced is not False and _checks.check_flag(assume_reduced, "assume_reduced")
    if n is None and dtype is None and root is None and backend == "cpu":
        result = _single_row(a, p, axis, kind, reduction, workers, True, trusted, out)
        if result is not None:
            return result
    return _transform(a, p, n, axis, out, workers, kind, reduction, dtype, root, backend,
                      False, trusted)


def intt(a: npt.ArrayLike, p: Integer, *, n: Integer | None = None, axis: Integer = -1,
         out: IntegerArray | None = None, workers: Integer | None = None,
         kind: Kind = "cyclic", reduction: Reduction = "auto", dtype: npt.DTypeLike | None = None,
         root: Integer | None = None, backend: Backend = "cpu",
         assume_reduced: bool = False) -> IntegerArray:
    """Inverse number-theoretic transform modulo the prime `p` along `axis`, normalised:
    ``intt(ntt(x, p), p) == x``.

    a[i] = n^-1 sum_k A[k] w^(-i k) mod p (cyclic; negacyclic: times psi^-i), the
    same w and psi as :func:`ntt`.

    Parameters
    ----------
    a : array_like of integers
        Transform values in [0, p), natural order; as :func:`ntt` takes them
        (cropped or zero-padded to `n` when given, as scipy.fft.ifft does).
    p : int
        Prime modulus below 2**64, as for :func:`ntt`.
    n : int, optional
        Transform length; None: the axis length, a power of two.
    axis : int, default -1
        Axis to transform.
    out : ndarray, optional
        Where to write the result, as for :func:`ntt`; ``out=a`` works in place.
    workers : int, optional
        Threads, as for :func:`ntt`.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        The kind the forward transform had.
    reduction : {"auto", "montgomery", "barrett", "lazy", "goldilocks"}, default "auto"
        Butterfly family; all give identical results.
    dtype : {None, numpy.uint32, numpy.uint64}, optional
        Lanes and result dtype, as for :func:`ntt`.
    root : int, optional
        The root the forward transform used (its inverse is applied).
    backend : {"cpu", "cuda"}, default "cpu"
        Where the transform runs, as for :func:`ntt`.
    assume_reduced : bool, default False
        As for :func:`ntt`: values of `a` taken to be in [0, p), never compared with p.

    Returns
    -------
    ndarray
        The inverse transform (`out` when given), values in [0, p).

    Raises
    ------
    ValueError
        As :func:`ntt`: values outside [0, p), lengths and arguments that are not valid.
    TypeError
        As :func:`ntt`.
    MemoryError
        As :func:`ntt`.

    See Also
    --------
    ntt : The forward transform.
    NTTPlan.inverse : The same with a plan's tables.

    Examples
    --------
    >>> import ntt_cy
    >>> ntt_cy.intt([10, 6, 15, 7], 17)
    array([1, 2, 3, 4], dtype=uint32)
    >>> ntt_cy.intt(ntt_cy.ntt([5, 0, 1, 9], 17, kind="negacyclic"), 17, kind="negacyclic")
    array([5, 0, 1, 9], dtype=uint32)
    """
    if n is None and dtype is None and root is None and backend == "cpu":
        # a small 1-D call whose tables a call like it kept: one compiled call
        result: IntegerArray | None = _ntt.cached_row_call(
            a, p, kind, row_tables_by_key, False, out, assume_reduced,
            axis, reduction, workers)
        if result is not None:
            return result
    trusted = assume_reduced is not False and _checks.check_flag(assume_reduced, "assume_reduced")
    if n is None and dtype is None and root is None and backend == "cpu":
        result = _single_row(a, p, axis, kind, reduction, workers, False, trusted, out)
        if result is not None:
            return result
    return _transform(a, p, n, axis, out, workers, kind, reduction, dtype, root, backend,
                      True, trusted)
