"""Argument checks of the CUDA path: the CPU path's rules and messages (ntt_cy._support.checks),
plus what only the GPU path needs (its "auto" family, device-array dtypes)."""
from __future__ import annotations

import numpy as np

from .._support import checks as _checks

__all__ = [
    "POLY_KINDS",
    "as_int",
    "check_prime",
    "check_kind",
    "lane_dtype",
    "check_transform_size",
    "resolve_reduction",
    "check_integer_dtype",
    "as_lane_array",
]

POLY_KINDS = _checks.POLY_KINDS
check_poly_kind = _checks.check_poly_kind

as_int = _checks.as_int
check_prime = _checks.check_prime_modulus
check_kind = _checks.check_kind
lane_dtype = _checks.lane_dtype
as_lane_array = _checks.as_lane_array


def check_transform_size(n, p: int, kind: str) -> int:
    """n as an int: a power of two with n | p - 1 (2n | p - 1 for negacyclic)."""
    n = as_int(n, "n")
    _checks.check_transform_size(n, p, kind)
    return n


def resolve_reduction(reduction, p: int, dtype: np.dtype) -> str:
    """An explicit family is checked as on the CPU; "auto" picks Montgomery for odd p (one
    twiddle table per direction, fully reduced data) and Barrett for p = 2."""
    if reduction == "auto":
        return "montgomery" if p & 1 else "barrett"
    return _checks.check_reduction(reduction, p, np.dtype(dtype))


def check_integer_dtype(dtype, name: str = "a") -> np.dtype:
    dtype = np.dtype(dtype)
    if dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integers, got dtype {dtype}")
    return dtype
