"""Device arrays: objects with ``__cuda_array_interface__`` (PyCUDA GPUArray, CuPy, Numba,
PyTorch ...) described as (address, shape, dtype), and new PyCUDA GPUArrays for results."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["DeviceView", "is_device_array", "device_view", "new_gpuarray"]


@dataclass(frozen=True)
class DeviceView:
    ptr: int
    shape: tuple
    dtype: np.dtype
    readonly: bool
    stream: object      # the producer's stream per CAI v3 (None: no synchronisation needed)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1


def is_device_array(obj) -> bool:
    return not isinstance(obj, np.ndarray) and hasattr(obj, "__cuda_array_interface__")


def _c_strides(shape, itemsize: int) -> tuple:
    strides, step = [], itemsize
    for dim in reversed(shape):
        strides.append(step)
        step *= dim
    return tuple(reversed(strides))


def device_view(obj, name: str = "a") -> DeviceView:
    """Describe a device array; TypeError for non-integer dtypes, ValueError for empty,
    0-d, masked or non-C-contiguous arrays."""
    cai = obj.__cuda_array_interface__
    shape = tuple(int(d) for d in cai["shape"])
    dtype = np.dtype(cai["typestr"])
    if dtype.kind not in "iu":
        raise TypeError(f"{name} must have an integer dtype, got {dtype}")
    if not shape:
        raise ValueError(f"{name} must have at least one dimension")
    if 0 in shape:
        raise ValueError(f"{name} is empty")
    if cai.get("mask") is not None:
        raise ValueError(f"{name}: masked device arrays are not supported")
    strides = cai.get("strides")
    if strides is not None:
        want = _c_strides(shape, dtype.itemsize)
        if any(s != w for s, w, d in zip(strides, want, shape) if d > 1):
            raise ValueError(f"{name} must be a C-contiguous device array")
    ptr, readonly = cai["data"]
    return DeviceView(int(ptr), shape, dtype, bool(readonly), cai.get("stream"))


def new_gpuarray(backend: Any, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """An uninitialised PyCUDA GPUArray from the backend's memory pool."""
    from pycuda import gpuarray

    return gpuarray.GPUArray(shape, dtype, allocator=backend.allocator)
