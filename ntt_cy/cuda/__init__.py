"""GPU path of ntt_cy: CUDA kernels (ntt.cu) loaded through PyCUDA.

Same definitions and results as the CPU API, data on the device or copied there::

    import ntt_cy.cuda as nc
    if nc.is_available():
        A = nc.ntt(a, 998244353)                 # numpy in, numpy out
        plan = nc.NTTPlan(1 << 20, 998244353)
        X = plan.forward(x_gpu)                  # GPUArray / CuPy / ... in, GPUArray out
        c = nc.polymul(a, b, 2**61 - 1)          # any modulus < 2**64

PyCUDA is imported lazily (``pip install ntt-cy[cuda]``); without it or without a device,
GPU operations raise CudaUnavailableError (after the arguments have been checked).  Work
runs in the context PyCUDA has current, else in the primary context of device
$NTT_CY_CUDA_DEVICE (default 0), pushed for each call only.  To use returned GPUArrays
(``.get()``, arithmetic) keep a context current: ``with ntt_cy.cuda.device_context():``
or ``import pycuda.autoprimaryctx``.

Examples
--------
>>> import numpy as np, ntt_cy, ntt_cy.cuda
>>> a = np.arange(1024, dtype=np.uint32)
>>> if ntt_cy.cuda.is_available():   # the same transform on the GPU, bit for bit
...     assert (ntt_cy.cuda.ntt(a, 998244353) == ntt_cy.ntt(a, 998244353)).all()
"""
from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from typing import Any, Iterator

import numpy as np
import numpy.typing as npt

from .._support.checks import check_out, normalize_axis
from .._typing import Integer, Kind, Reduction
from ._arrays import device_view, is_device_array
from ._driver import CudaUnavailableError, activated, is_available
from ._validate import (
    as_lane_array,
    check_kind,
    check_prime,
    check_transform_size,
    lane_dtype,
    resolve_reduction,
)
from .plan import NTTPlan
from .poly import polymul

__all__ = ["is_available", "CudaUnavailableError", "device_context", "NTTPlan", "ntt", "intt",
           "polymul"]

_PLAN_CACHE_SIZE = 64
_plans: OrderedDict[tuple[Any, ...], NTTPlan] = OrderedDict()
_plans_lock = threading.Lock()


@contextlib.contextmanager
def device_context() -> Iterator[None]:
    """Context manager: ntt_cy's CUDA context current for the block.

    To use PyCUDA objects, e.g. the GPUArrays ntt_cy returns (``.get()``,
    arithmetic): the context PyCUDA has current, else the primary context of device
    ``$NTT_CY_CUDA_DEVICE`` (default 0), pushed for the block and popped after.

    Yields
    ------
    None

    Raises
    ------
    CudaUnavailableError
        PyCUDA, the driver or a device is missing.

    See Also
    --------
    is_available : Whether there is a GPU to use.

    Examples
    --------
    >>> import numpy as np, ntt_cy.cuda
    >>> if ntt_cy.cuda.is_available():
    ...     with ntt_cy.cuda.device_context():
    ...         A = ntt_cy.cuda.NTTPlan(8, 998244353).forward(np.arange(8, dtype=np.uint32))
    """
    with activated():
        yield


def _plan(n: int, p: int, kind: Kind, reduction: Reduction, dtype: np.dtype[Any],
          root: Integer | None) -> NTTPlan:
    """A cached plan (least recently used evicted); dtype: the lanes (lane_dtype),
    root: None for the default root of unity (NTTPlan checks it before it needs a GPU)."""
    key = (n, p, kind, reduction, dtype, root)
    with _plans_lock:
        plan = _plans.pop(key, None)
    if plan is None:
        plan = NTTPlan(n, p, dtype=dtype, kind=kind, reduction=reduction, root=root)
    with _plans_lock:
        _plans[key] = plan
        while len(_plans) > _PLAN_CACHE_SIZE:
            _plans.popitem(last=False)
    return plan


def _transform(a: Any, p: Integer, axis: Integer, out: Any, kind: Kind, reduction: Reduction,
               inverse: bool, dtype: npt.DTypeLike | None, root: Integer | None) -> Any:
    """Every argument and input check first, then the (cached) plan and the GPU."""
    p = check_prime(p)
    check_kind(kind)
    dtype = lane_dtype(p, dtype)
    if is_device_array(a):
        shape = device_view(a).shape
        lanes, validated = a, False            # range-checked on the device
    else:
        lanes, validated = as_lane_array(a, p, dtype), True
        shape = lanes.shape
    n = check_transform_size(shape[normalize_axis(axis, len(shape))], p, kind)
    if out is not None and validated:   # the CPU's checks, in its order, before the GPU
        check_out(out, shape, dtype, a if isinstance(a, np.ndarray) else lanes)
    resolve_reduction(reduction, p, dtype)
    return _plan(n, p, kind, reduction, dtype, root)._apply(lanes, out, False, inverse, axis,
                                                           validated)


def ntt(a: Any, p: Integer, *, axis: Integer = -1, out: Any = None, kind: Kind = "cyclic",
        reduction: Reduction = "auto", dtype: npt.DTypeLike | None = None,
        root: Integer | None = None) -> Any:
    """Forward NTT of `a` modulo the prime p along `axis` (natural order), on the GPU.

    A[k] = sum_i a[i] w^(ik) (cyclic) or sum_i a[i] psi^i w^(ik) (negacyclic,
    psi^2 = w): the definition and the results of :func:`ntt_cy.ntt`, bit for bit.

    Parameters
    ----------
    a : array_like of integers, or a device array
        Values in [0, p): a numpy array (any integer dtype, any axis) or a
        C-contiguous device array with ``__cuda_array_interface__`` (PyCUDA, CuPy,
        Numba, PyTorch ...) of the lanes' dtype, transformed along its last axis.
    p : int
        Prime modulus below 2**64 with n | p - 1 (2n | p - 1 for negacyclic).
    axis : int, default -1
        Axis to transform (device arrays: the last one only).
    out : ndarray or device array, optional
        Where to write the result: a numpy array for numpy input, a device array for
        device input, of the result's shape and the lanes' dtype.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        As in :func:`ntt_cy.ntt`.
    reduction : {"auto", "montgomery", "barrett", "lazy"}, default "auto"
        Butterfly family; all give identical results.
    dtype : {None, numpy.uint32, numpy.uint64}, optional
        Lanes; None: uint32 for p < 2**32, else uint64.
    root : int, optional
        A primitive n-th (negacyclic: 2n-th) root of unity instead of the default.

    Returns
    -------
    ndarray or pycuda.gpuarray.GPUArray
        A numpy array for numpy input, a GPUArray for device input (or `out`).

    Raises
    ------
    ValueError
        As :func:`ntt_cy.ntt` (values outside [0, p) too, found on the device).
    TypeError
        As :func:`ntt_cy.ntt`; a device array of another dtype than the lanes'.
    CudaUnavailableError
        No GPU, after the arguments have been checked.

    See Also
    --------
    intt : The inverse.
    NTTPlan : A plan with its device tables.
    ntt_cy.ntt : The same with ``backend="cuda"``.

    Examples
    --------
    >>> import numpy as np, ntt_cy, ntt_cy.cuda
    >>> a = np.arange(16, dtype=np.uint32)
    >>> if ntt_cy.cuda.is_available():
    ...     assert (ntt_cy.cuda.ntt(a, 17) == ntt_cy.ntt(a, 17)).all()
    >>> ntt_cy.cuda.ntt(a, 17, kind="skew")   # arguments are checked first, GPU or not
    Traceback (most recent call last):
    ...
    ValueError: kind must be one of ('cyclic', 'negacyclic'), got 'skew'
    """
    return _transform(a, p, axis, out, kind, reduction, False, dtype, root)


def intt(a: Any, p: Integer, *, axis: Integer = -1, out: Any = None, kind: Kind = "cyclic",
         reduction: Reduction = "auto", dtype: npt.DTypeLike | None = None,
         root: Integer | None = None) -> Any:
    """Normalised inverse NTT on the GPU: ``intt(ntt(a, p), p) == a``.

    Parameters
    ----------
    a : array_like of integers, or a device array
        Transform values in [0, p), natural order, as :func:`ntt` takes them.
    p : int
        The prime of the forward transform.
    axis : int, default -1
        Axis to transform (device arrays: the last one only).
    out : ndarray or device array, optional
        Where to write the result, as for :func:`ntt`.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        The kind of the forward transform.
    reduction : {"auto", "montgomery", "barrett", "lazy"}, default "auto"
        Butterfly family; all give identical results.
    dtype : {None, numpy.uint32, numpy.uint64}, optional
        Lanes, as for :func:`ntt`.
    root : int, optional
        The root of the forward transform.

    Returns
    -------
    ndarray or pycuda.gpuarray.GPUArray
        As :func:`ntt` returns it.

    Raises
    ------
    ValueError, TypeError
        As :func:`ntt`.
    CudaUnavailableError
        No GPU, after the arguments have been checked.

    See Also
    --------
    ntt : The forward transform.

    Examples
    --------
    >>> import numpy as np, ntt_cy.cuda
    >>> a = np.arange(16, dtype=np.uint32)
    >>> if ntt_cy.cuda.is_available():
    ...     assert (ntt_cy.cuda.intt(ntt_cy.cuda.ntt(a, 17), 17) == a).all()
    """
    return _transform(a, p, axis, out, kind, reduction, True, dtype, root)
