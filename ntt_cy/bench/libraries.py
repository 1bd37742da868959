"""The libraries `ntt-cy bench` times: ntt_cy and each competitor a user might pick instead.

A Library adapter says which operations it runs (ops), why it skips a case (skip), how
its inputs are converted before timing (prepare returns the timed zero-argument call) and
how its answer is put into the common form every answer is checked in (canonical:
uint64 or object arrays for ntt/polymul, int for bigmul).  LIBRARIES is the list the
command runs, ntt_cy first (its answer is the reference).  A library that is not
installed raises ImportError from load(); the runner reports it, never fails on it.
"""
from __future__ import annotations

import contextlib
import importlib
import platform

import numpy as np

from ntt_cy.bench.cases import OPS, Case

__all__ = ["Library", "NttCy", "Flint", "Galois", "Sympy", "Numpy", "CPythonInt", "Gmpy2",
           "LIBRARIES"]


def _as_u64(x) -> np.ndarray:
    return np.asarray(x).astype(np.uint64)


def _padded(coeffs, length) -> np.ndarray:
    """Coefficient list (trailing zeros possibly stripped) as uint64 of `length`, or
    as Python ints (object) where one does not fit 64 bits."""
    vals = [int(c) for c in coeffs]
    wide = any(v >= 2**64 for v in vals)
    out = np.zeros(length, dtype=object if wide else np.uint64)   # (object: int 0s)
    out[:len(vals)] = vals
    return out


def _friendly(p: int, length: int) -> bool:
    """p is prime-like for NTTs of `length` (a power of two >= length divides p - 1)."""
    n = 1 << max(0, (length - 1).bit_length())
    return (p - 1) % n == 0


class Library:
    """A contender.  Subclasses set `name`, `module`, `ops` and implement prepare()."""
    name = "?"
    module: str | None = None          # import name probed for "installed"
    ops: tuple = ()
    multithreaded = False              # honours a thread count (else timed on one thread)
    jit = False                        # first call compiles: the loop is sized from the second

    def load(self):
        """The imported module (ImportError when not installed)."""
        return importlib.import_module(self.module)

    def version(self) -> str:
        mod = self.load()
        return str(getattr(mod, "__version__", None) or getattr(mod, "version", lambda: "?")())

    def skip(self, case: Case) -> str | None:
        """Why this library does not run `case` (None: it does)."""
        return None

    def prepare(self, case: Case, inputs, threads: int):
        """A zero-argument callable doing the timed work (conversions done here)."""
        raise NotImplementedError

    def canonical(self, case: Case, result):
        """The result in the common form: a uint64 array (ntt), a uint64 or object array
        of the 2n - 1 product coefficients (polymul), an int (bigmul)."""
        if case.op == "bigmul":
            return int(result)
        if case.op == "ntt":
            return _as_u64(result)
        return _padded(result, 2 * case.size - 1)

    @contextlib.contextmanager
    def using_threads(self, threads: int):
        """A block in which the library runs on `threads` threads (where it has a setting)."""
        yield


class NttCy(Library):
    """ntt_cy.ntt, ntt_cy.polymul (linear) and ntt_cy.bigmul with workers=threads."""
    name, module, ops, multithreaded = "ntt_cy", "ntt_cy", OPS, True

    def prepare(self, case, inputs, threads):
        mod = self.load()
        if case.op == "ntt":
            (a,) = inputs
            return lambda: mod.ntt(a, case.modulus, workers=threads)
        if case.op == "polymul":
            a, b = inputs
            return lambda: mod.polymul(a, b, case.modulus, kind="linear", workers=threads)
        x, y = inputs
        return lambda: mod.bigmul(x, y, workers=threads)


class Flint(Library):
    """python-flint: nmod_poly (word-size moduli) and fmpz_mod_poly (larger primes)
    products, fmpz big integers."""
    name, module, ops, multithreaded = "python-flint", "flint", ("polymul", "bigmul"), True

    def skip(self, case):
        from ntt_cy.primes import is_prime

        if case.op == "polymul" and case.modulus >= 2**64 and not is_prime(case.modulus):
            return "fmpz_mod_poly needs a prime modulus"
        return None

    def prepare(self, case, inputs, threads):
        flint = self.load()
        if case.op == "polymul":
            if case.modulus >= 2**64:
                ctx = flint.fmpz_mod_poly_ctx(case.modulus)
                fa, fb = (ctx(x.tolist()) for x in inputs)
            else:
                fa, fb = (flint.nmod_poly(x.tolist(), case.modulus) for x in inputs)
            return lambda: fa * fb
        fx, fy = (flint.fmpz(v) for v in inputs)
        return lambda: fx * fy

    def canonical(self, case, result):
        if case.op == "polymul":
            return _padded(result.coeffs(), 2 * case.size - 1)
        return int(result)

    @contextlib.contextmanager
    def using_threads(self, threads):
        ctx = self.load().ctx
        old = ctx.threads
        ctx.threads = threads
        try:
            yield
        finally:
            ctx.threads = old


class Galois(Library):
    """galois.ntt (numba kernels); batches are a Python loop over rows."""
    name, module, ops, jit = "galois", "galois", ("ntt",), True
    max_n = 2**20

    def skip(self, case):
        if case.modulus >= 2**31:
            return "galois uses slow object arithmetic for p >= 2^31"
        if case.size * case.rows > self.max_n:
            return f"n x rows > {self.max_n}"
        return None

    def prepare(self, case, inputs, threads):
        galois = self.load()
        (a,) = inputs
        p = case.modulus
        if case.rows > 1:
            return lambda: [galois.ntt(row, modulus=p) for row in a]
        return lambda: galois.ntt(a, modulus=p)

    def canonical(self, case, result):
        if case.rows > 1:
            return np.stack([_as_u64(r) for r in result])
        return _as_u64(result)


class Sympy(Library):
    """sympy.discrete: pure-Python ntt and convolution_ntt (small sizes only)."""
    name, module, ops = "sympy", "sympy", ("ntt", "polymul")
    max_n = 2**14

    def skip(self, case):
        if case.size > self.max_n or case.rows > 1:
            return f"pure Python: n <= {self.max_n}, no batches"
        if case.op == "polymul" and not _friendly(case.modulus, 2 * case.size - 1):
            return "convolution_ntt needs an NTT-friendly prime"
        return None

    def prepare(self, case, inputs, threads):
        from sympy.discrete.convolutions import convolution_ntt
        from sympy.discrete.transforms import ntt

        lists = [x.tolist() for x in inputs]
        if case.op == "ntt":
            return lambda: ntt(lists[0], case.modulus)
        return lambda: convolution_ntt(lists[0], lists[1], prime=case.modulus)

    def canonical(self, case, result):
        if case.op == "ntt":
            return np.array([int(v) for v in result], dtype=np.uint64)
        return _padded(result, 2 * case.size - 1)


class Numpy(Library):
    """np.convolve: int64 when n (m-1)^2 < 2^63, object (Python ints) for n <= 2048."""
    name, module, ops = "numpy", "numpy", ("polymul",)
    max_object_n = 2048

    def _dtype(self, case):
        if case.size * (case.modulus - 1) ** 2 < 2**63:
            return np.int64
        if case.size <= self.max_object_n:
            return object
        return None

    def skip(self, case):
        if self._dtype(case) is None:
            return f"int64 would overflow; object dtype too slow for n > {self.max_object_n}"
        return None

    def prepare(self, case, inputs, threads):
        dt = self._dtype(case)
        a, b = (x.astype(dt) for x in inputs)
        m = case.modulus
        return lambda: np.convolve(a, b) % m


class CPythonInt(Library):
    """The builtin int product."""
    name, module, ops = "CPython int", "sys", ("bigmul",)

    def version(self):
        return platform.python_version()

    def prepare(self, case, inputs, threads):
        x, y = inputs
        return lambda: x * y


class Gmpy2(Library):
    """gmpy2.mpz products (GMP)."""
    name, module, ops = "gmpy2", "gmpy2", ("bigmul",)

    def prepare(self, case, inputs, threads):
        gmpy2 = self.load()
        x, y = (gmpy2.mpz(v) for v in inputs)
        return lambda: x * y


LIBRARIES: list = [NttCy(), Flint(), Galois(), Sympy(), Numpy(), CPythonInt(), Gmpy2()]
