"""The workloads `ntt-cy bench` times: their moduli, sizes and deterministic inputs.

A Case is one operation at one size: a forward NTT (optionally a batch of rows), a linear
polymul modulo any integer, or a product of two big integers.  default_cases() lists the
standard set (or the tiny --quick one) with the sizes the command line asks for.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

__all__ = ["OPS", "P30", "P51", "M_CRT", "M61", "M_BN254", "Case", "default_cases",
           "modulus_label"]

P30 = 998244353                 # 30-bit NTT prime, uint32 lanes
P51 = 1337006139375617          # 51-bit NTT prime (19 * 2^46 + 1), uint64 lanes
M_CRT = 10**9 + 7               # not NTT-friendly: multi-prime CRT
M61 = 2**61 - 1                 # Mersenne prime, 64-bit lanes out: five-prime CRT
# BN254's scalar field (zk-SNARK circuits): four words, nine-prime CRT, Python ints out
M_BN254 = 21888242871839275222246405745257275088548364400416034343698204186575808495617

OPS = ("ntt", "polymul", "bigmul")

# Short names of the standard moduli for figure titles (the tables print them in full).
_MODULUS_NAMES = {M_CRT: "10^9 + 7", M61: "2^61 - 1", M_BN254: "BN254's r (254 bits)"}


def modulus_label(m: int) -> str:
    """A short name of the modulus m: its usual name, its digits, or its bit length."""
    if m in _MODULUS_NAMES:
        return _MODULUS_NAMES[m]
    return str(m) if m < 10**20 else f"a {m.bit_length()}-bit modulus"


@dataclass(frozen=True)
class Case:
    """One workload: `op` on inputs of `size` (length n, or bits for bigmul)."""
    op: str                       # "ntt" | "polymul" | "bigmul"
    size: int                     # n for ntt/polymul, bits for bigmul
    modulus: int | None = None    # prime p (ntt) or any modulus (polymul)
    rows: int = 1                 # ntt: a batch of `rows` transforms of length n

    @property
    def group(self) -> str:
        """The series this case belongs to (table heading, JSON "case"), modulus in full."""
        return self._series_name(str(self.modulus))

    @property
    def title(self) -> str:
        """The series for a figure panel: the modulus by its short name (modulus_label)."""
        return self._series_name(modulus_label(self.modulus) if self.modulus else "")

    def _series_name(self, modulus: str) -> str:
        if self.op == "ntt":
            batch = f" batch {self.rows} rows" if self.rows > 1 else ""
            return f"forward NTT{batch} mod {modulus}"
        if self.op == "polymul":
            return f"polymul (linear) mod {modulus}"
        return "bigmul (two N-bit ints)"

    @property
    def size_label(self) -> str:
        return f"{self.size} bits" if self.op == "bigmul" else f"n = {self.size}"

    def inputs(self, seed: int):
        """Deterministic random inputs: numpy lanes for ntt/polymul, ints for bigmul."""
        if self.op == "bigmul":
            rng = random.Random(seed * 1000003 + self.size)
            top = 1 << (self.size - 1)
            return rng.getrandbits(self.size) | top, rng.getrandbits(self.size) | top
        if self.modulus >= 2**64:   # object arrays of Python ints
            rng = random.Random(seed * 1000003 + self.size + self.modulus)
            return tuple(np.array([rng.randrange(self.modulus) for _ in range(self.size)]
                                  + [None], dtype=object)[:-1] for _ in range(2))
        rng = np.random.default_rng([seed, self.size, self.rows, self.modulus])
        dtype = np.uint32 if self.modulus <= 2**32 else np.uint64
        shape = (self.rows, self.size) if self.rows > 1 else (self.size,)
        if self.op == "ntt":
            return (rng.integers(0, self.modulus, size=shape, dtype=dtype),)
        return (rng.integers(0, self.modulus, size=shape, dtype=dtype),
                rng.integers(0, self.modulus, size=shape, dtype=dtype))


def default_cases(quick=False, sizes=None, bits=None, only=None):
    """The standard workloads: transforms of 2^10..2^20 points and a batch of 64 rows
    of 2^14, polymul of 2^10..2^17 coefficients modulo a 30-bit and a 51-bit NTT prime,
    10^9 + 7, 2^61 - 1 and BN254's r, bigmul of 10^5..10^7 bits.  `quick`: tiny sizes
    (a smoke test); `sizes` / `bits` replace the lengths / bit sizes; `only` keeps one
    operation (a name of OPS) or several (a sequence of them)."""
    if quick:
        ntt_sizes, poly_sizes, big_bits, batch = [16, 64], [4, 64], [1000, 10000], (4, 16)
    else:
        ntt_sizes = [2**10, 2**14, 2**17, 2**20]
        poly_sizes = [1024, 16384, 131072]
        big_bits = [10**5, 10**6, 10**7]
        batch = (64, 2**14)
    if sizes:
        ntt_sizes = poly_sizes = list(sizes)
        small = [s for s in sizes if s <= 2**14]
        n = max(small) if small else min(sizes)
        # keep the batch within ~1M elements: 64 x 2^17 would time the page faults of
        # fresh 32 MiB results more than the transforms
        batch = (max(1, min(batch[0], (1 << 20) // n)), n)
    if bits:
        big_bits = list(bits)
    ops = [only] if isinstance(only, str) else list(only or OPS)
    cases = []
    if "ntt" in ops:
        cases += [Case("ntt", n, P30) for n in ntt_sizes]
        if batch[0] > 1:   # (one row would repeat the single transform of that size)
            cases.append(Case("ntt", batch[1], P30, rows=batch[0]))
    if "polymul" in ops:
        for m in (P30, P51, M_CRT, M61, M_BN254):
            cases += [Case("polymul", n, m) for n in poly_sizes]
    if "bigmul" in ops:
        cases += [Case("bigmul", b) for b in big_bits]
    return cases
