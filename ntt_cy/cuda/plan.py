"""NTTPlan on the GPU: argument checks, twiddle tables per device context, numpy and
device-array inputs.  Results are bit-identical to the CPU path (same transform
definition, fully reduced residues)."""
from __future__ import annotations

import contextlib
from typing import Any, ContextManager

import numpy as np
import numpy.typing as npt

from ..plan import plan_from_parameters
from ..primes import root_of_unity
from . import _driver
from .._support.checks import normalize_axis
from .._typing import Integer, Kind, Reduction
from ._arrays import device_view, is_device_array, new_gpuarray
from ._validate import (
    as_lane_array,
    check_kind,
    check_prime,
    check_transform_size,
    lane_dtype,
    resolve_reduction,
)
from .engine import RangeFlag, TransformEngine
from .schedule import TransformSpec

__all__ = ["NTTPlan"]


class NTTPlan:
    """Batched NTTs of length n modulo the prime p on a CUDA device.

    The parameters and results of the CPU's :class:`ntt_cy.NTTPlan`.  Twiddle tables
    are computed on the device once per plan and device context.

    Parameters
    ----------
    n : int
        Transform length, a power of two dividing p - 1 (2n for negacyclic).
    p : int
        Prime modulus, p < 2**32 for uint32 lanes, p < 2**64 for uint64 lanes.
    dtype : {None, numpy.uint32, numpy.uint64}, optional
        Lanes; None picks uint32 when p < 2**32.
    kind : {"cyclic", "negacyclic"}, default "cyclic"
        As for :class:`ntt_cy.NTTPlan`.
    reduction : {"auto", "montgomery", "barrett", "lazy"}, default "auto"
        Butterfly family; all give identical results.
    root : int, optional
        A primitive n-th (2n-th for negacyclic) root of unity replacing the default.
    _backend : object, optional
        Internal: the tests' host backend in place of PyCUDA; leave it None.

    Raises
    ------
    ValueError, TypeError
        As :class:`ntt_cy.NTTPlan`.
    CudaUnavailableError
        PyCUDA or a device is missing (the arguments are checked first, so bad
        arguments raise ValueError / TypeError on any machine).

    See Also
    --------
    ntt_cy.NTTPlan : The plan on the CPU.
    ntt : Transforms with cached plans.

    Examples
    --------
    >>> import numpy as np, ntt_cy, ntt_cy.cuda
    >>> if ntt_cy.cuda.is_available():
    ...     plan = ntt_cy.cuda.NTTPlan(1024, 998244353)
    ...     x = np.arange(1024, dtype=np.uint32)
    ...     assert (plan.inverse(plan.forward(x)) == x).all()
    >>> ntt_cy.cuda.NTTPlan(6, 998244353)
    Traceback (most recent call last):
    ...
    ValueError: transform length n = 6 is not a power of two
    """

    def __init__(self, n: Integer, p: Integer, *, dtype: npt.DTypeLike | None = None,
                 kind: Kind = "cyclic", reduction: Reduction = "auto",
                 root: Integer | None = None, _backend: Any = None) -> None:
        p = check_prime(p)
        self.kind = check_kind(kind)
        self.dtype = lane_dtype(p, dtype)
        self.n = check_transform_size(n, p, kind)
        self.p = p
        self.reduction = resolve_reduction(reduction, p, self.dtype)
        root = root_of_unity(2 * self.n if kind == "negacyclic" else self.n, p, root)
        self.root = root
        self.spec = TransformSpec.create(self.n, p, 8 * self.dtype.itemsize, self.reduction, kind, root)
        self._backend = _backend          # a host backend in tests; None: PyCUDA
        self._engines: dict[int, TransformEngine] = {}
        with self._activated() as backend:   # CudaUnavailableError here without a GPU
            self._engine(backend)

    def __reduce__(self) -> tuple[Any, ...]:
        # the parameters, not the device tables: a copy (another process's, say) builds
        # its own in its own context, and raises CudaUnavailableError where there is none
        return (plan_from_parameters, (type(self), self.n, self.p, self.dtype.name,
                                        self.kind, self.reduction, self.root))

    def __repr__(self) -> str:
        return (f"ntt_cy.cuda.NTTPlan(n={self.n}, p={self.p}, dtype={self.dtype.name}, "
                f"kind={self.kind!r}, reduction={self.reduction!r})")

    # -- public API ---------------------------------------------------------------------

    def forward(self, a: Any, *, axis: Integer = -1, out: Any = None,
                bit_reversed: bool = False) -> Any:
        """Forward NTT along `axis` (natural order in).

        Parameters
        ----------
        a : array_like of integers, or a device array
            Values in [0, p): a numpy array, transformed along `axis`, or a
            C-contiguous device array (``__cuda_array_interface__``) of the plan's
            dtype, transformed along its last axis.
        axis : int, default -1
            Axis to transform; its length must be n.
        out : ndarray or device array, optional
            Where to write the result: numpy for numpy input, a device array for device
            input; the input's shape and the plan's dtype.
        bit_reversed : bool, default False
            True: the result in bit-reversed order (one pass over the data less).

        Returns
        -------
        ndarray or pycuda.gpuarray.GPUArray
            A numpy array for numpy input, a GPUArray for device input (or `out`).

        Raises
        ------
        ValueError
            A length other than n, values outside [0, p), an `out` of the wrong shape
            or dtype.
        TypeError
            A device array of another dtype than the plan's; `out` of the wrong kind.
        CudaUnavailableError
            No GPU.

        See Also
        --------
        inverse : The inverse transform.

        Examples
        --------
        >>> import numpy as np, ntt_cy, ntt_cy.cuda
        >>> if ntt_cy.cuda.is_available():
        ...     x = np.arange(8, dtype=np.uint32)
        ...     assert (ntt_cy.cuda.NTTPlan(8, 17).forward(x) == ntt_cy.ntt(x, 17)).all()
        """
        return self._apply(a, out, bit_reversed, False, axis)

    def inverse(self, a: Any, *, axis: Integer = -1, out: Any = None,
                bit_reversed: bool = False) -> Any:
        """Normalised inverse NTT along `axis` (natural order out).

        Parameters
        ----------
        a : array_like of integers, or a device array
            Transform values in [0, p), as :meth:`forward` takes them; bit-reversed
            order with ``bit_reversed=True``.
        axis : int, default -1
            Axis to transform; its length must be n.
        out : ndarray or device array, optional
            Where to write the result, as for :meth:`forward`.
        bit_reversed : bool, default False
            Whether `a` is in bit-reversed order.

        Returns
        -------
        ndarray or pycuda.gpuarray.GPUArray
            As :meth:`forward` returns it.

        Raises
        ------
        ValueError, TypeError
            As :meth:`forward`.
        CudaUnavailableError
            No GPU.

        See Also
        --------
        forward : The forward transform.

        Examples
        --------
        >>> import numpy as np, ntt_cy.cuda
        >>> if ntt_cy.cuda.is_available():
        ...     plan, x = ntt_cy.cuda.NTTPlan(8, 17), np.arange(8, dtype=np.uint32)
        ...     X = plan.forward(x, bit_reversed=True)
        ...     assert (plan.inverse(X, bit_reversed=True) == x).all()
        """
        return self._apply(a, out, bit_reversed, True, axis)

    # -- internals ----------------------------------------------------------------------

    def _activated(self) -> ContextManager[Any]:
        if self._backend is not None:
            return contextlib.nullcontext(self._backend)
        return _driver.activated()

    def _engine(self, backend: Any) -> TransformEngine:
        key = id(backend)
        eng = self._engines.get(key)
        if eng is None:
            eng = self._engines[key] = TransformEngine(self.spec, backend)
        return eng

    def _run(self, eng: TransformEngine, src: int, dst: int, rows: int, bit_reversed: bool,
             inverse: bool, flag: int = 0) -> None:
        if inverse:
            eng.inverse(src, dst, rows, bit_reversed=bit_reversed, flag=flag)
        else:
            eng.forward(src, dst, rows, bit_reversed=bit_reversed, flag=flag)

    def _apply(self, a: Any, out: Any, bit_reversed: bool, inverse: bool, axis: Integer = -1,
               validated: bool = False) -> Any:
        """validated: `a` is a numpy array already checked by as_lane_array."""
        if is_device_array(a):
            return self._apply_device(a, out, bit_reversed, inverse, axis)
        lanes = a if validated else as_lane_array(a, self.p, self.dtype)
        axis = normalize_axis(axis, lanes.ndim)
        moved = np.ascontiguousarray(np.moveaxis(lanes, axis, -1))
        self._check_length(moved.shape[-1])
        if out is not None:
            if not isinstance(out, np.ndarray):
                raise TypeError("out must be a numpy array when the input is a numpy array")
            if out.shape != lanes.shape or out.dtype != self.dtype:
                raise ValueError(f"out must have shape {lanes.shape} and dtype {self.dtype}, "
                                 f"got {out.shape} and {out.dtype}")
        result = np.empty_like(moved)
        with self._activated() as backend:
            eng = self._engine(backend)
            buf = backend.upload(moved)
            self._run(eng, buf.ptr, buf.ptr, moved.size // self.n, bit_reversed, inverse)
            backend.download(buf.ptr, result)
        result = np.moveaxis(result, -1, axis)
        if out is None:
            return result
        out[...] = result
        return out

    def _apply_device(self, a: Any, out: Any, bit_reversed: bool, inverse: bool,
                      axis: Integer) -> Any:
        view = device_view(a)
        if normalize_axis(axis, len(view.shape)) != len(view.shape) - 1:
            raise ValueError("device arrays are transformed along their last axis only")
        if view.dtype != self.dtype:
            raise TypeError(f"device input must have dtype {self.dtype} (the plan's lanes), "
                            f"got {view.dtype}")
        self._check_length(view.shape[-1])
        with self._activated() as backend:
            backend.wait_for_stream(view.stream)
            if out is None:
                result = new_gpuarray(backend, view.shape, self.dtype)
                out_ptr = int(result.gpudata)
            else:
                result = out
                out_ptr = self._device_out(out, view.shape)
            flag = RangeFlag(backend)
            self._run(self._engine(backend), view.ptr, out_ptr, view.size // self.n, bit_reversed,
                      inverse, flag.ptr)
            if flag.raised():
                raise ValueError(f"a has values outside [0, p) for p = {self.p}")
        return result

    def _device_out(self, out: Any, shape: tuple[int, ...]) -> int:
        if not is_device_array(out):
            raise TypeError("out must be a device array when the input is a device array")
        ov = device_view(out, "out")
        if ov.shape != shape or ov.dtype != self.dtype:
            raise ValueError(f"out must have shape {shape} and dtype {self.dtype}, "
                             f"got {ov.shape} and {ov.dtype}")
        if ov.readonly:
            raise ValueError("out is read-only")
        return ov.ptr

    def _check_length(self, length: int) -> None:
        if length != self.n:
            raise ValueError(f"input has length {length} along the transform axis, "
                             f"the plan has n = {self.n}")
