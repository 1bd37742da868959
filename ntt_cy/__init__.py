"""ntt_cy: exact number-theoretic transforms and modular polynomial arithmetic."""
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


if TYPE_CHECKING:   # (type checkers see ntt_cy.cuda as an attribute, and no other)
    from ntt_cy import cuda as cuda
else:
    def __getattr__(name: str) -> ModuleType:
        # ntt_cy.cuda without `import ntt_cy.cuda`; PyCUDA itself loads only when a GPU
        # call needs it
        if name == "cuda":
            import importlib

            return importlib.import_module("ntt_cy.cuda")
        raise AttributeError(f"module 'ntt_cy' has no attribute {name!r}")
