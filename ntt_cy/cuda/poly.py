"""Polynomial products modulo any 1 <= m < 2**64 on the GPU.

One NTT prime when m itself is a prime with N | m - 1 (N: the padded length, a power of
two >= len(a) + len(b) - 1), else k 32-bit NTT primes whose product exceeds every
coefficient of the integer product, joined by Garner's algorithm on the device.

Per product: one load kernel per input (reduction modulo m and each prime, zero padding),
a batched forward transform of both inputs per prime, an inverse per prime with the
pointwise product fused into its first pass, and one Garner kernel that also folds the
linear product for the cyclic / negacyclic kinds.
"""
from __future__ import annotations

import contextlib
import threading
from collections import OrderedDict
from functools import lru_cache
from typing import Any

import numpy as np

from ..primes import is_prime, ntt_primes, root_of_unity
from . import _driver
from ._arrays import device_view, is_device_array, new_gpuarray
from .._typing import Integer, PolyKind
from ._validate import as_int, as_lane_array, check_poly_kind
from .abi import CRT_MAX_PRIMES, word_name
from .engine import PolymulEngine
from .schedule import CrtSpec

__all__ = ["polymul", "crt_plan"]


@lru_cache(maxsize=64)
def _crt_primes(log_n: int) -> tuple[int, ...]:
    """Up to CRT_MAX_PRIMES largest primes < 2**32 with 2**log_n | p - 1, largest first."""
    for count in range(CRT_MAX_PRIMES, 0, -1):
        try:
            return tuple(ntt_primes(32, max(log_n, 1), count))
        except ValueError:
            continue
    raise ValueError(f"no 32-bit NTT prime supports length 2**{log_n}")


@lru_cache(maxsize=256)
def crt_plan(m: int, log_n: int, min_len: int) -> tuple[CrtSpec, int]:
    """(CrtSpec, lane bits) for products of length-2**log_n convolutions modulo m whose
    shorter input has min_len terms."""
    n = 1 << log_n
    if m > 2 and (m - 1) % n == 0 and is_prime(m):
        return CrtSpec(m, (m,)), 32 if m < 1 << 32 else 64
    bound = min_len * (m - 1) ** 2          # largest coefficient of the integer product
    primes, prod = [], 1
    for q in _crt_primes(log_n):
        primes.append(q)
        prod *= q
        if prod > bound:
            return CrtSpec(m, tuple(primes)), 32
    raise ValueError(f"product of length 2**{log_n} modulo {m} needs more than "
                     f"{len(primes)} CRT primes; split it")


_ENGINE_CACHE_SIZE = 32
# (backend id, CrtSpec, log_n) -> PolymulEngine
_engines: OrderedDict[tuple[int, CrtSpec, int], PolymulEngine] = OrderedDict()
_engines_lock = threading.Lock()


def _engine(backend: Any, crt: CrtSpec, log_n: int, bits: int) -> PolymulEngine:
    """The (cached, least recently used evicted) engine holding the primes' twiddles."""
    key = (id(backend), crt, log_n)
    with _engines_lock:
        eng = _engines.pop(key, None)
        if eng is None:
            n = 1 << log_n
            families = tuple("montgomery" if q & 1 else "barrett" for q in crt.primes)
            roots = tuple(root_of_unity(n, q) for q in crt.primes)
            eng = PolymulEngine(crt, log_n, bits, families, roots, backend)
        _engines[key] = eng
        while len(_engines) > _ENGINE_CACHE_SIZE:
            _engines.popitem(last=False)
        return eng


def _out_dtype(m: int) -> np.dtype[Any]:
    """As on the CPU: uint32 when m <= 2**32, else uint64."""
    return np.dtype(np.uint32 if m <= 1 << 32 else np.uint64)


def _shapes(shape_a: tuple[int, ...], shape_b: tuple[int, ...], kind: str
            ) -> tuple[int, int, int, tuple[int, ...]]:
    la, lb = shape_a[-1], shape_b[-1]
    if kind != "linear" and la != lb:
        raise ValueError(f"kind={kind!r} needs a and b of the same length n, got {la} and {lb}")
    rows = int(np.prod(shape_a[:-1], dtype=np.int64)) if len(shape_a) > 1 else 1
    out_len = la + lb - 1 if kind == "linear" else la
    return la, lb, rows, shape_a[:-1] + (out_len,)


def polymul(a: Any, b: Any, modulus: Integer, *, kind: PolyKind = "linear",
            _backend: Any = None) -> Any:
    """Product of polynomials a and b modulo ``modulus`` on the GPU.

    The product :func:`ntt_cy.polymul` computes, for moduli below 2**64: one NTT prime
    when the modulus is one for the padded length, else several 32-bit primes joined
    by Garner's algorithm on the device.

    Parameters
    ----------
    a, b : array_like of integers, or device arrays
        Coefficients, lowest degree first, along the last axis, row by row over the
        leading shape (numpy inputs broadcast; device inputs must have equal leading
        shapes).  Values are taken modulo `modulus` (numpy: any integers; device
        arrays: uint32 / uint64, C-contiguous).  Both numpy or both device arrays.
    modulus : int
        Any integer 1 <= modulus < 2**64.
    kind : {"linear", "cyclic", "negacyclic"}, default "linear"
        "linear": len(a) + len(b) - 1 coefficients; "cyclic" / "negacyclic": modulo
        x^n - 1 / x^n + 1, for equal lengths n.
    _backend : object, optional
        Internal: the tests' host backend in place of PyCUDA; leave it None.

    Returns
    -------
    ndarray or pycuda.gpuarray.GPUArray
        Coefficients in [0, modulus): uint32 for modulus <= 2**32, else uint64; a
        numpy array for numpy input, a GPUArray for device input.

    Raises
    ------
    ValueError
        A modulus outside [1, 2**64), lengths that differ for a cyclic or negacyclic
        product, shapes that do not broadcast, or a product too long for the CRT
        primes.
    TypeError
        One numpy and one device operand, non-integer values or a device array of
        another dtype.
    CudaUnavailableError
        No GPU, after the arguments have been checked.

    See Also
    --------
    ntt_cy.polymul : The same with ``backend="cuda"``, and on the CPU.

    Examples
    --------
    >>> import numpy as np, ntt_cy, ntt_cy.cuda
    >>> if ntt_cy.cuda.is_available():
    ...     c = ntt_cy.cuda.polymul([1, 2, 3], [4, 5], 2**61 - 1)
    ...     assert c.tolist() == ntt_cy.polymul([1, 2, 3], [4, 5], 2**61 - 1).tolist()
    >>> ntt_cy.cuda.polymul([1, 2, 3], [4, 5], 2**64)
    Traceback (most recent call last):
    ...
    ValueError: modulus must satisfy 1 <= modulus < 2**64 on the GPU, got 18446744073709551616
    """
    m = as_int(modulus, "modulus")
    if not 1 <= m < 1 << 64:
        raise ValueError(f"modulus must satisfy 1 <= modulus < 2**64 on the GPU, got {m}")
    check_poly_kind(kind)
    on_device = is_device_array(a), is_device_array(b)
    if on_device[0] != on_device[1]:
        raise TypeError("a and b must both be numpy arrays or both device arrays")
    out_dtype = _out_dtype(m)
    activated = contextlib.nullcontext(_backend) if _backend is not None else _driver.activated()

    if not on_device[0]:
        A = as_lane_array(a, m, out_dtype, "a", on_range="reduce")
        B = as_lane_array(b, m, out_dtype, "b", on_range="reduce")
        try:
            lead = np.broadcast_shapes(A.shape[:-1], B.shape[:-1])
        except ValueError:
            raise ValueError(f"batch shapes of a {A.shape[:-1]} and b {B.shape[:-1]} do not "
                             f"broadcast (the last axis holds the coefficients)") from None
        A = np.ascontiguousarray(np.broadcast_to(A, lead + A.shape[-1:]))
        B = np.ascontiguousarray(np.broadcast_to(B, lead + B.shape[-1:]))
        la, lb, rows, out_shape = _shapes(A.shape, B.shape, kind)
        log_n = (la + lb - 2).bit_length()          # 2**log_n >= la + lb - 1
        crt, bits = crt_plan(m, log_n, min(la, lb))
        result = np.empty(out_shape, dtype=out_dtype)
        with activated as backend:
            eng = _engine(backend, crt, log_n, bits)
            da, db = backend.upload(A), backend.upload(B)
            dout = backend.alloc(result.nbytes)
            w = word_name(out_dtype)
            eng.run(da.ptr, w, la, db.ptr, w, lb, rows, dout.ptr, w, out_shape[-1], kind)
            backend.download(dout.ptr, result)
        return result

    va, vb = device_view(a, "a"), device_view(b, "b")
    for v, name in ((va, "a"), (vb, "b")):
        if v.dtype not in (np.dtype(np.uint32), np.dtype(np.uint64)):
            raise TypeError(f"device input {name} must be uint32 or uint64, got {v.dtype}")
    if va.shape[:-1] != vb.shape[:-1]:
        raise ValueError(f"device inputs need equal leading shapes, got {va.shape} and {vb.shape}")
    la, lb, rows, out_shape = _shapes(va.shape, vb.shape, kind)
    log_n = (la + lb - 2).bit_length()
    crt, bits = crt_plan(m, log_n, min(la, lb))
    with activated as backend:
        backend.wait_for_stream(va.stream)
        backend.wait_for_stream(vb.stream)
        eng = _engine(backend, crt, log_n, bits)
        result = new_gpuarray(backend, out_shape, out_dtype)
        eng.run(va.ptr, word_name(va.dtype), la, vb.ptr, word_name(vb.dtype), lb, rows,
                int(result.gpudata), word_name(out_dtype), out_shape[-1], kind)
    return result
