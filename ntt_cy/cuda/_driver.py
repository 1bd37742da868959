"""PyCUDA access: lazy import, device contexts, the compiled module, the GPU backend.

PyCUDA is imported only when a GPU operation is requested, so ``import ntt_cy.cuda`` works
on machines without it.  Work runs in the context that PyCUDA has current (if the caller
made one current, e.g. with pycuda.autoinit), otherwise in the primary context of device
$NTT_CY_CUDA_DEVICE (default 0), pushed for the duration of each call and popped after, so
ntt_cy shares the device with CuPy / PyTorch (which use the primary context too).

Kernels: ntt.fatbin next to the sources when present and built from the current sources
(see build.py), otherwise ``pycuda.compiler.SourceModule`` on the sources (PyCUDA caches
the result on disk), one module per context, loaded once per process.
"""
from __future__ import annotations

import atexit
import contextlib
import os
import threading
import warnings
from typing import Iterator

import numpy as np

from . import build
from .abi import CRT_ARGS, NTT_ARGS, kernel_names

__all__ = ["CudaUnavailableError", "pycuda_driver", "is_available", "activated", "PyCudaBackend"]


class CudaUnavailableError(RuntimeError):
    """PyCUDA, the CUDA driver or a CUDA device is missing, or the kernels cannot be loaded.

    Raised by GPU operations after their arguments have been checked, so bad arguments
    raise ValueError or TypeError on any machine.

    See Also
    --------
    is_available : Whether GPU operations can run here.

    Examples
    --------
    >>> import numpy as np, ntt_cy.cuda
    >>> try:
    ...     A = ntt_cy.cuda.ntt(np.arange(8, dtype=np.uint32), 998244353)
    ... except ntt_cy.cuda.CudaUnavailableError:
    ...     A = ntt_cy.ntt(np.arange(8, dtype=np.uint32), 998244353)   # the CPU instead
    >>> A.tolist() == ntt_cy.ntt(np.arange(8), 998244353).tolist()
    True
    """


_lock = threading.RLock()
_state: dict = {}            # "driver": pycuda.driver module or "error": message
_primary: dict = {}          # device ordinal -> retained primary context
_backends: dict = {}         # context handle -> PyCudaBackend


def _reset() -> None:
    """Forget the import outcome, contexts and backends (tests)."""
    with _lock:
        _state.clear()
        _backends.clear()
        _primary.clear()


def pycuda_driver():
    """The initialised ``pycuda.driver`` module; CudaUnavailableError if unusable."""
    with _lock:
        if "driver" in _state:
            return _state["driver"]
        if "error" in _state:
            raise CudaUnavailableError(_state["error"])
        try:
            with warnings.catch_warnings():     # PyCUDA's own guess at a version mismatch
                warnings.simplefilter("ignore")
                import pycuda.driver as drv
        except ImportError as exc:
            if isinstance(exc, ModuleNotFoundError) and (exc.name or "").split(".")[0] == "pycuda":
                _state["error"] = (
                    "PyCUDA is not installed; install the GPU extra (`pip install ntt-cy[cuda]`) "
                    "on a machine with an NVIDIA driver and the CUDA toolkit"
                )
            else:
                _state["error"] = f"PyCUDA could not be loaded (no NVIDIA driver?): {exc}"
            raise CudaUnavailableError(_state["error"]) from exc
        except Exception as exc:
            _state["error"] = f"PyCUDA could not be loaded: {exc}"
            raise CudaUnavailableError(_state["error"]) from exc
        try:
            drv.init()
            count = drv.Device.count()
        except Exception as exc:
            _state["error"] = f"the CUDA driver could not be initialised: {exc}"
            raise CudaUnavailableError(_state["error"]) from exc
        if count == 0:
            _state["error"] = "no CUDA device found"
            raise CudaUnavailableError(_state["error"])
        _state["driver"] = drv
        return drv


def is_available() -> bool:
    """Whether GPU operations can run here: PyCUDA imports, the CUDA driver initialises
    and a device is present.

    Returns
    -------
    bool
        True when :mod:`ntt_cy.cuda`'s functions can run (the kernels are loaded on
        first use).

    See Also
    --------
    CudaUnavailableError : What GPU operations raise where this is False.

    Examples
    --------
    >>> import ntt_cy.cuda
    >>> isinstance(ntt_cy.cuda.is_available(), bool)
    True
    """
    try:
        pycuda_driver()
    except CudaUnavailableError:
        return False
    return True


def _device_ordinal(drv) -> int:
    raw = os.environ.get("NTT_CY_CUDA_DEVICE", "0")
    try:
        ordinal = int(raw)
    except ValueError:
        raise CudaUnavailableError(f"NTT_CY_CUDA_DEVICE must be an integer, got {raw!r}") from None
    if not 0 <= ordinal < drv.Device.count():
        raise CudaUnavailableError(
            f"NTT_CY_CUDA_DEVICE={ordinal} but only {drv.Device.count()} CUDA device(s) present"
        )
    return ordinal


def _context_key(ctx) -> int:
    handle = getattr(ctx, "handle", None)
    return int(handle) if handle is not None else id(ctx)


@contextlib.contextmanager
def activated() -> Iterator[PyCudaBackend]:
    """Yields the PyCudaBackend of the context to use, made current for the block."""
    drv = pycuda_driver()
    current = drv.Context.get_current()
    if current is not None:
        yield _backend_for(drv, current)
        return
    with _lock:
        ordinal = _device_ordinal(drv)
        ctx = _primary.get(ordinal)
        try:
            if ctx is None:
                ctx = _primary[ordinal] = drv.Device(ordinal).retain_primary_context()
            ctx.push()
        except drv.Error as exc:      # e.g. device in exclusive / prohibited compute mode
            raise CudaUnavailableError(f"cannot use CUDA device {ordinal}: {exc}") from exc
    try:
        yield _backend_for(drv, ctx)
    finally:
        drv.Context.pop()


def _backend_for(drv, ctx) -> "PyCudaBackend":
    key = _context_key(ctx)
    with _lock:
        backend = _backends.get(key)
        if backend is None:
            backend = _backends[key] = PyCudaBackend(drv, ctx)
        return backend


def _load_module(drv):
    """The kernels for the current context: the prebuilt fatbin if it is current and loads,
    else runtime compilation of the amalgamated sources."""
    fatbin = build.prebuilt_fatbin()
    errors = []
    if fatbin is not None:
        try:
            return drv.module_from_file(str(fatbin))
        except drv.Error as exc:   # e.g. no code for this GPU or too new for the driver
            errors.append(f"prebuilt {fatbin.name}: {exc}")
    try:
        from pycuda.compiler import SourceModule

        return SourceModule(build.amalgamated_source(), no_extern_c=True, options=list(build.NVCC_FLAGS))
    except Exception as exc:
        errors.append(f"runtime compilation: {exc}")
    raise CudaUnavailableError("could not load the ntt_cy CUDA kernels:\n  " + "\n  ".join(errors))


def _out_of_memory(drv, nbytes: int, exc) -> MemoryError:
    try:
        free, total = drv.mem_get_info()
        detail = f"{free} of {total} bytes free"
    except Exception:
        detail = "free memory unknown"
    return MemoryError(f"CUDA device out of memory allocating {nbytes} bytes ({detail}): {exc}")


class PyCudaBackend:
    """The engine backend (see engine.py) of one CUDA context.  Use inside `activated()`."""

    def __init__(self, drv, ctx):
        from pycuda.tools import DeviceMemoryPool

        self.drv = drv
        self.context = ctx
        self.pool = DeviceMemoryPool()
        self._module = None
        self._functions: dict = {}
        self._flag_host = np.zeros(1, dtype=np.uint32)

    def function(self, name: str):
        fn = self._functions.get(name)
        if fn is None:
            with _lock:
                if self._module is None:
                    module = _load_module(self.drv)
                    missing = [k for k in kernel_names() if not self._has(module, k)]
                    if missing:
                        raise CudaUnavailableError(f"the loaded CUDA module lacks kernels {missing}")
                    self._module = module
            fn = self._module.get_function(name)
            # One parameter: the argument record, passed by value as raw bytes.
            record = CRT_ARGS if name.startswith("crt_") else NTT_ARGS
            fn.prepare([f"{record.itemsize}s"])
            self._functions[name] = fn
        return fn

    def _has(self, module, name: str) -> bool:
        try:
            module.get_function(name)
        except self.drv.Error:
            return False
        return True

    # -- memory -------------------------------------------------------------------------

    def alloc(self, nbytes: int):
        nbytes = max(int(nbytes), 1)
        try:
            return _Buffer(self.pool.allocate(nbytes))
        except self.drv.MemoryError as exc:
            raise _out_of_memory(self.drv, nbytes, exc) from exc

    def allocator(self, nbytes: int):
        """An allocator for pycuda.gpuarray.GPUArray, with clear out-of-memory errors."""
        return self.alloc(nbytes).allocation

    def upload(self, array: np.ndarray):
        buf = self.alloc(array.nbytes)
        self.drv.memcpy_htod(buf.ptr, np.ascontiguousarray(array))
        return buf

    def download(self, ptr: int, array: np.ndarray) -> None:
        self.drv.memcpy_dtoh(array, ptr)

    def copy(self, dst: int, src: int, nbytes: int) -> None:
        self.drv.memcpy_dtod_async(dst, src, nbytes)

    def memset_u32(self, ptr: int, value: int, count: int) -> None:
        self.drv.memset_d32_async(ptr, value, count)

    def wait_for_stream(self, stream) -> None:
        """Order our (legacy default stream) work after a device array's producer stream
        (CAI v3): streams 1 and 2 (default streams) synchronise implicitly, others do not."""
        if stream not in (None, 1, 2):
            self.drv.Context.synchronize()

    def read_u32(self, ptr: int) -> int:
        self.drv.memcpy_dtoh(self._flag_host, ptr)
        return int(self._flag_host[0])

    # -- kernels ------------------------------------------------------------------------

    def launch(self, launch) -> None:
        fn = self.function(launch.kernel)
        try:
            fn.prepared_call((launch.grid, 1, 1), (launch.block, 1, 1), launch.args.tobytes(),
                             shared_size=launch.shared)
        except self.drv.Error as exc:
            raise RuntimeError(f"CUDA launch of {launch.kernel} failed: {exc}") from exc

    def free_held(self) -> None:
        self.pool.free_held()


class _Buffer:
    """A pooled device allocation with its address as .ptr."""

    __slots__ = ("allocation", "ptr")

    def __init__(self, allocation):
        self.allocation = allocation
        self.ptr = int(allocation)


@atexit.register
def _release() -> None:
    """Return pooled memory and the retained primary contexts before PyCUDA shuts down."""
    drv = _state.get("driver")
    if drv is None:
        return
    for backend in list(_backends.values()):
        try:
            backend.context.push()
            try:
                backend.free_held()
            finally:
                drv.Context.pop()
        except Exception:
            pass
    _backends.clear()
    for ctx in list(_primary.values()):
        try:
            ctx.detach()
        except Exception:
            pass
    _primary.clear()
