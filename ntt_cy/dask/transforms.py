"""ntt / intt on dask arrays: many independent transforms, one task per block.

The transform axis must lie in one chunk (as in dask.array.fft): it is rechunked to one
unless ``rechunk=False``, which refuses a split axis instead.  The other axes keep their
chunks, so a batch of transforms needs no communication at all.
"""
from __future__ import annotations

from typing import Any

import dask.array as da
import numpy as np
import numpy.typing as npt

from ntt_cy._support import checks as _checks
from ntt_cy._support.threads import check_thread_count
from ntt_cy._typing import Integer, Kind, Reduction
from ntt_cy.dask import blocks


def as_dask_array(x: da.Array | npt.ArrayLike, name: str) -> da.Array:
    """x as a dask array (numpy arrays and lists are wrapped, in one chunk)."""
    if isinstance(x, da.Array):
        return x
    if x is None or isinstance(x, (dict, set, str, bytes)):
        raise TypeError(f"{name} must be a dask or numpy array of integers, "
                        f"got {type(x).__name__}")
    return da.from_array(np.asarray(x), chunks=-1)


def check_integer_dtype(x: da.Array, name: str) -> None:
    """Integer arrays only (object arrays of Python ints too), as ntt_cy's in-memory API."""
    if x.dtype.kind not in "iuO":
        raise TypeError(f"{name} must hold integers, got dtype {x.dtype}")


def transform_dtype(p: int) -> np.dtype[Any]:
    """The lanes ntt_cy.ntt computes on for the prime p."""
    return _checks.lane_dtype(p, None)


def result_dtype(dtype: npt.DTypeLike, p: int) -> np.dtype[Any]:
    """What ntt_cy.ntt returns for blocks of `dtype`: a uint32 or uint64 dtype that holds
    [0, p) is kept, any other gives the lanes'."""
    return _checks.result_dtype(np.dtype(dtype), p, transform_dtype(p))


def _transform(x: da.Array | npt.ArrayLike, p: Integer, axis: Integer, kind: Kind,
               root: Integer | None, reduction: Reduction, threads: int, rechunk: bool,
               inverse: bool) -> da.Array:
    x = as_dask_array(x, "x")
    check_integer_dtype(x, "x")
    p = _checks.check_prime_modulus(p)
    kind = _checks.check_kind(kind)
    check_thread_count(threads)
    if x.ndim == 0:
        raise ValueError("x must have at least one dimension")
    axis = _checks.normalize_axis(axis, x.ndim)
    n = x.shape[axis]
    if n is None or np.isnan(n):
        raise ValueError("the transform axis has an unknown length: call x.compute_chunk_sizes()")
    _checks.check_transform_size(n, p, kind)
    _checks.check_reduction(reduction, p, transform_dtype(p))
    dtype = result_dtype(x.dtype, p)
    if root is not None:
        from ntt_cy.primes import root_of_unity

        root = root_of_unity(2 * n if kind == "negacyclic" else n, p, root)
    if x.numblocks[axis] > 1:
        if not rechunk:
            raise ValueError(
                f"axis {axis} is split into {x.numblocks[axis]} chunks; a transform needs it "
                f"in one chunk: call x.rechunk({{{axis}: -1}}) or pass rechunk=True "
                f"(ntt_large splits ONE long transform across chunks)")
        x = x.rechunk({axis: -1})
    return x.map_blocks(blocks.transform, p, axis, kind, root, reduction, inverse, threads,
                        dtype=dtype, meta=np.empty((0,) * x.ndim, dtype=dtype),
                        token="ntt_cy-intt" if inverse else "ntt_cy-ntt")


def ntt(x: da.Array | npt.ArrayLike, p: Integer, *, axis: Integer = -1, kind: Kind = "cyclic",
        root: Integer | None = None, reduction: Reduction = "auto", threads: int = 1,
        rechunk: bool = True) -> da.Array:
    """Forward NTT along `axis` of a dask array, lazily: ntt_cy.ntt on every block.

    Parameters
    ----------
    x : dask.array.Array or array_like of integers
        Values in [0, p) (checked inside the tasks: a value outside raises ValueError
        when the result is computed).
    p : int
        An NTT-friendly prime below 2**64 (the transform length n must divide p - 1;
        2n for negacyclic).
    axis : int, default -1
        Axis to transform (its length n a power of two).
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        As in :func:`ntt_cy.ntt`.
    root : int, optional
        As in :func:`ntt_cy.ntt`.
    reduction : {"auto", "montgomery", "barrett", "lazy", "goldilocks"}, default "auto"
        As in :func:`ntt_cy.ntt`.
    threads : int, default 1
        Kernel threads inside each task (P worker processes x T threads should not
        exceed the cores, and a dask worker already runs tasks side by side).
    rechunk : bool, default True
        Rechunk a transform axis split over several chunks into one; False raises
        ValueError for such an axis instead.

    Returns
    -------
    dask.array.Array
        Same shape; the transform axis in one chunk, the others as they were; the
        dtype :func:`ntt_cy.ntt` gives (a uint32 or uint64 input that holds [0, p)
        keeps its own; others uint32 for p < 2**32, else uint64).

    Raises
    ------
    ValueError
        At once: the arguments :func:`ntt_cy.ntt` refuses, an axis of unknown length,
        or a split axis with ``rechunk=False``.  When computed: values outside [0, p).
    TypeError
        A non-integer dtype, or an argument of the wrong type.

    See Also
    --------
    intt : The inverse.
    ntt_large : One transform longer than a chunk.
    ntt_cy.ntt : The transform of each block.

    Examples
    --------
    >>> import dask.array as da, numpy as np, ntt_cy, ntt_cy.dask
    >>> x = da.from_array(np.arange(64, dtype=np.uint32).reshape(8, 8), chunks=(2, 8))
    >>> A = ntt_cy.dask.ntt(x, 998244353)
    >>> bool((A.compute() == ntt_cy.ntt(np.arange(64).reshape(8, 8), 998244353)).all())
    True
    """
    return _transform(x, p, axis, kind, root, reduction, threads, rechunk, False)


def intt(x: da.Array | npt.ArrayLike, p: Integer, *, axis: Integer = -1, kind: Kind = "cyclic",
         root: Integer | None = None, reduction: Reduction = "auto", threads: int = 1,
         rechunk: bool = True) -> da.Array:
    """Normalised inverse NTT along `axis` of a dask array, lazily: ntt_cy.intt on every
    block.

    Parameters
    ----------
    x : dask.array.Array or array_like of integers
        Transform values in [0, p), natural order (checked inside the tasks).
    p : int
        The prime of the forward transform.
    axis : int, default -1
        Axis to transform.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        The kind of the forward transform.
    root : int, optional
        The root of the forward transform.
    reduction : {"auto", "montgomery", "barrett", "lazy", "goldilocks"}, default "auto"
        Butterfly family; all give identical results.
    threads : int, default 1
        Kernel threads inside each task.
    rechunk : bool, default True
        As in :func:`ntt`.

    Returns
    -------
    dask.array.Array
        As :func:`ntt` returns it.

    Raises
    ------
    ValueError, TypeError
        As :func:`ntt`.

    See Also
    --------
    ntt : The forward transform.
    intt_large : The inverse of one transform longer than a chunk.

    Examples
    --------
    >>> import dask.array as da, numpy as np, ntt_cy.dask
    >>> x = da.from_array(np.arange(16, dtype=np.uint32), chunks=8)
    >>> y = ntt_cy.dask.intt(ntt_cy.dask.ntt(x, 998244353), 998244353)
    >>> bool((y.compute() == np.arange(16)).all())
    True
    """
    return _transform(x, p, axis, kind, root, reduction, threads, rechunk, True)
