"""Precomputed constants of the CUDA arithmetic helpers (modarith.cuh), on Python ints.

Each function returns exactly what the corresponding C helper expects; tests check the
helpers against Python arithmetic with these constants.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..plan import modulus_constants

__all__ = ["barrett_mu", "mod64_constants", "LaneModulus"]


def barrett_mu(p: int) -> int:
    """mu = floor(2**64 / p) for Mod32 (2 <= p < 2**32)."""
    if not 2 <= p < 1 << 32:
        raise ValueError(f"Mod32 needs 2 <= p < 2**32, got {p}")
    return modulus_constants(p, np.dtype(np.uint32))["barrett_mu"]


def mod64_constants(p: int) -> tuple:
    """(norm, dinv) for Mod64 (1 <= p < 2**64): norm = leading zeros of p,
    dinv = floor((2**128 - 1) / (p << norm)) - 2**64 (Moller-Granlund)."""
    if not 1 <= p < 1 << 64:
        raise ValueError(f"Mod64 needs 1 <= p < 2**64, got {p}")
    c = modulus_constants(p, np.dtype(np.uint64))   # the CPU kernels' barrett_mul64 constants
    return c["barrett_shift"], c["barrett_v"]


@dataclass(frozen=True)
class LaneModulus:
    """A modulus p for `bits`-bit lanes with the NttArgs constants p, pinv, mu, norm, r_mod_p."""

    p: int
    bits: int

    def __post_init__(self):
        if self.bits not in (32, 64):
            raise ValueError(f"lane width must be 32 or 64 bits, got {self.bits}")
        if not 2 <= self.p < 1 << self.bits:
            raise ValueError(f"p = {self.p} does not fit {self.bits}-bit lanes")

    @property
    def pinv(self) -> int:
        """p**-1 mod 2**bits (Montgomery; 0 for even p, where Montgomery is not used)."""
        return modulus_constants(self.p, np.dtype(f"uint{self.bits}"))["mont_pinv"]

    @property
    def mu(self) -> int:
        """Mod32's mu for 32-bit lanes, Mod64's dinv for 64-bit lanes."""
        return barrett_mu(self.p) if self.bits == 32 else mod64_constants(self.p)[1]

    @property
    def norm(self) -> int:
        return 0 if self.bits == 32 else mod64_constants(self.p)[0]

    @property
    def r_mod_p(self) -> int:
        return (1 << self.bits) % self.p

    def fields(self) -> dict:
        """The modulus fields of an NttArgs record."""
        return {"p": self.p, "pinv": self.pinv, "mu": self.mu, "norm": self.norm,
                "r_mod_p": self.r_mod_p}
