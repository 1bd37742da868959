"""bigmul: products of large Python ints through the NTT.

|x| and |y| are cut into w-byte limbs (straight from int.to_bytes), giving
polynomials X, Y with x = X(2^(8w)).  Their linear product has coefficients below
min(Lx, Ly) (2^(8w) - 1)^2, which k NTT primes with a larger product determine
exactly.  Per prime: two forward transforms (one for a square), a pointwise product
and one inverse; then Garner digits, and one nogil pass (ntt_cy/_carry.pyx) adds
the coefficients into w-byte limbs with carries; int.from_bytes rebuilds the result.

The limb width and prime family are chosen per call by transform work: k primes x
lane cost (crt.lane_costs(), measured for the active kernels) x N log2 N, over
w = 2..6 bytes on ~30-bit (uint32) and ~62-bit (uint64) primes with a prime
product below 2^127 (the carry pass works in two words).  Typical winners on the
AVX-512 build (uint32 transforms ~4.5x faster than uint64 ones): three 30-bit
primes with 32-bit limbs at 10^6 bits, four with 40-bit limbs at 10^7 bits; on the
portable build, two 62-bit primes with 32- to 48-bit limbs.
Below BIGMUL_MIN_BITS (the smaller operand) CPython's own `*` is faster and is used.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from ntt_cy import _carry
from ntt_cy._threads import effective_threads, requested_workers
from ntt_cy.crt import U32, U64, basis_for, lane_costs
from ntt_cy.poly import _next_pow2, crt_residues

__all__ = ["bigmul"]

LIMB_CHOICES = (2, 3, 4, 5, 6)   # bytes per limb

# Smaller operand size (bits) from which the NTT beats CPython's Karatsuba,
# measured with balanced operands, one thread: 15,000 bits 117 us NTT vs 90 us
# CPython, 20,000 bits 124 vs 151 us (AVX-512 build; ~15,000 bits on the portable
# build): fixed per-call and per-prime costs dominate at these sizes.
BIGMUL_MIN_BITS = 18_000


def bigmul(x, y, *, workers=None):
    """x * y for Python ints (any signs), equal to the builtin product.

    Operands whose smaller one has fewer than BIGMUL_MIN_BITS bits use CPython's
    multiplication; larger ones go through a multi-prime NTT (see the module notes).
    workers: threads for the transforms (None or -1: all cores).
    """
    for name, v in (("x", x), ("y", y)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, got {type(v).__name__}")
    x, y = int(x), int(y)
    threads = requested_workers(workers)
    if min(x.bit_length(), y.bit_length()) < BIGMUL_MIN_BITS:
        return x * y
    negative = (x < 0) != (y < 0)
    ax = abs(x)
    square = x == y or x == -y
    prod = ntt_multiply(ax, ax if square else abs(y), threads, square=square)
    if prod is None:  # no scheme fits (operands of billions of bits): CPython
        return x * y
    return -prod if negative else prod


def choose_scheme(bits_a: int, bits_b: int):
    """(limb bytes, CRTBasis) with the least estimated transform work, or None."""
    costs = lane_costs()
    return _cheapest_scheme(bits_a, bits_b, LIMB_CHOICES, costs[U32], costs[U64])


@lru_cache(maxsize=1024)   # (~50 us a choice: 7% of a 10^5-bit product)
def _cheapest_scheme(bits_a, bits_b, limb_choices, u32_cost, u64_cost):
    best = None
    costs = {U32: u32_cost, U64: u64_cost}
    for w in limb_choices:
        la = max(1, -(-bits_a // (8 * w)))
        lb = max(1, -(-bits_b // (8 * w)))
        N = _next_pow2(la + lb - 1)
        log2n = N.bit_length() - 1
        bound = min(la, lb) * ((1 << (8 * w)) - 1) ** 2
        for dt in (U32, U64):
            basis = basis_for(bound, log2n, dt)
            if basis is None or basis.product >= 1 << 127:
                continue
            cost = basis.k * costs[dt] * N * max(log2n, 1)
            if best is None or cost < best[0]:
                best = (cost, w, basis)
    return None if best is None else best[1:]


def _limbs(v: int, w: int) -> np.ndarray:
    """v >= 0 as a (1, L) uint64 array of w-byte limbs, least significant first."""
    L = max(1, -(-v.bit_length() // (8 * w)))
    out = np.empty((1, L), dtype=np.uint64)
    _carry.limbs_from_bytes(v.to_bytes(L * w, "little"), w, out[0])
    return out


def ntt_multiply(a: int, b: int, threads: int = 1, square: bool = False):
    """a * b for a, b >= 0 through the NTT, or None if no scheme fits."""
    scheme = choose_scheme(a.bit_length(), b.bit_length())
    if scheme is None:
        return None
    w, basis = scheme
    A = _limbs(a, w)
    B = A if square else _limbs(b, w)
    La, Lb = A.shape[1], B.shape[1]
    L = La + Lb - 1
    N = _next_pow2(L)
    residues = crt_residues(A, B, basis, N, "cyclic", L, threads, bound=1 << (8 * w))
    digits = basis.digits(residues, effective_threads(threads, L * basis.k), out=residues)
    size = (L + 128 // (8 * w) + 1) * w
    out = np.empty(size + 8, dtype=np.uint8)   # (+ 8: the last limb's word store)
    _carry.digits_to_bytes(digits, basis.primes_array, w, out)
    return int.from_bytes(out[:size], "little")
