"""ntt_cy: exact number-theoretic transforms and modular polynomial arithmetic.

Transforms modulo NTT primes below 2**64 (:func:`ntt`, :func:`intt`, :class:`NTTPlan`),
products of polynomials modulo any integer (:func:`polymul`), element-wise products
modulo any integer below 2**64 (:func:`mul_mod`) and products of big integers
(:func:`bigmul`); primes and roots of unity in :mod:`ntt_cy.primes`, dask arrays in
:mod:`ntt_cy.dask`, CUDA devices in :mod:`ntt_cy.cuda`.

Examples
--------
>>> import numpy as np, ntt_cy
>>> p = 998244353
>>> A = ntt_cy.ntt(np.arange(8, dtype=np.uint32), p)
>>> ntt_cy.intt(A, p).tolist()
[0, 1, 2, 3, 4, 5, 6, 7]
>>> ntt_cy.polymul([1, 2, 3], [4, 5], 10**9 + 7).tolist()
[4, 13, 22, 15]
"""
from types import ModuleType
from typing import TYPE_CHECKING

from ntt_cy._version import __version__

from ntt_cy._support.openmp_env import short_spin_while_loading

with short_spin_while_loading():   # the kernel modules load libgomp: see _support/openmp_env.py
    from ntt_cy._support.config import show_config
    from ntt_cy.bigint import bigmul
    from ntt_cy import primes
    from ntt_cy.modular import mul_mod
    from ntt_cy.plan import NTTPlan
    from ntt_cy.poly import convolve, polymul
    from ntt_cy._support.memory import get_memory_limit, set_memory_limit
    from ntt_cy._support.threads import get_workers, set_workers
    from ntt_cy.transforms import intt, ntt

__all__ = ["ntt", "intt", "NTTPlan", "polymul", "convolve", "bigmul", "mul_mod", "get_workers",
           "set_workers", "get_memory_limit", "set_memory_limit", "primes", "show_config", "__version__"]


# Loaded on first use, as attributes (`import ntt_cy` then `ntt_cy.dask.polymul(...)`):
# ntt_cy.cuda, whose PyCUDA loads only when a GPU call needs it, and ntt_cy.dask, which
# needs the dask extra (without it, the attribute raises ntt_cy.dask's ImportError,
# which says how to install it).
_SUBMODULES_ON_USE = ("cuda", "dask")

if TYPE_CHECKING:   # (type checkers see the two as attributes)
    from ntt_cy import cuda as cuda
    from ntt_cy import dask as dask
else:
    def __getattr__(name: str) -> ModuleType:
        if name in _SUBMODULES_ON_USE:
            import importlib

            return importlib.import_module(f"ntt_cy.{name}")
        raise AttributeError(f"module 'ntt_cy' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_SUBMODULES_ON_USE})


# (helpers of this file, not names of the package)
del ModuleType, TYPE_CHECKING, short_spin_while_loading
