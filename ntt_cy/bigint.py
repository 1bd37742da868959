"""bigmul: products of large Python ints through the NTT.

|x| and |y| are cut into w-byte limbs (straight from int.to_bytes), giving
polynomials X, Y with x = X(2^(8w)).  Their linear product has coefficients below
min(Lx, Ly) (2^(8w) - 1)^2, which k NTT primes with a larger product determine
exactly.  Per prime: two forward transforms (one for a square), a pointwise product
and one inverse; then Garner digits, and one nogil pass (ntt_cy/_kernels/crt/carry.pyx) adds
the coefficients into w-byte limbs with carries; int.from_bytes rebuilds the result.
With ~30-bit (uint32) primes and operands of comparable size, the transforms and the
digits are one kernel call (CRTProduct32.digits, vectorised digits); otherwise each
prime is a call of its own and the digits a scalar pass (the per-prime route).

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

from ntt_cy._kernels.crt import carry as _carry
from ntt_cy._support.threads import effective_threads, requested_workers
from ntt_cy._crt import U32, U64, basis_for, lane_costs
from ntt_cy._support.scratch import scratch
from ntt_cy.poly import _next_pow2, _padded_lengths, crt_residues

__all__ = ["bigmul"]

LIMB_CHOICES = (2, 3, 4, 5, 6)   # bytes per limb

# Smaller operand size (bits) from which the NTT beats CPython's Karatsuba, balanced
# operands, one thread (fixed per-call costs dominate at these sizes).  Measured on the
# 2-core Zen 3 VM, NTT against CPython:
#   one kernel call (uint32 primes, _fused_digits): 6,000 bits 22-34 us vs 25-38,
#   8,000 bits 27-44 vs 63-65 (AVX2 build);
#   the per-prime route (uint64 primes, the portable build's choice, or operands too
#   unequal for one call): 12,000 bits 114-123 us vs 117-126, 18,000 bits 174-186 vs
#   224-229 (portable build; the AVX-512 build's was 15,000-20,000 bits too).
BIGMUL_MIN_BITS = 7_000
PER_PRIME_MIN_BITS = 18_000


def bigmul(x, y, *, workers=None):
    """x * y for Python ints (any signs), equal to the builtin product.

    Operands whose smaller one has fewer than BIGMUL_MIN_BITS bits (PER_PRIME_MIN_BITS
    where the product cannot be one kernel call) use CPython's multiplication; larger
    ones go through a multi-prime NTT (see the module notes).
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
    prod = ntt_multiply(ax, ax if square else abs(y), threads, square=square,
                        per_prime_min_bits=PER_PRIME_MIN_BITS)
    if prod is None:  # no scheme fits (billions of bits), or CPython is faster
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


def _limbs(v: int, w: int, L: int, slot: str) -> np.ndarray:
    """v >= 0 as a (1, L) uint64 array of w-byte limbs, least significant first, in
    scratch `slot` (every limb written)."""
    out = scratch(slot, (1, L), np.uint64)
    _carry.limbs_from_bytes(v.to_bytes(L * w, "little"), w, out[0])
    return out


def _limb_count(v: int, w: int) -> int:
    return max(1, -(-v.bit_length() // (8 * w)))


def ntt_multiply(a: int, b: int, threads: int = 1, square: bool = False,
                 per_prime_min_bits: int = 0):
    """a * b for a, b >= 0 through the NTT, or None if no scheme fits, or if the
    product would take the per-prime route and the smaller operand has fewer than
    per_prime_min_bits bits."""
    scheme = choose_scheme(a.bit_length(), b.bit_length())
    if scheme is None:
        return None
    w, basis = scheme
    La, Lb = _limb_count(a, w), _limb_count(b, w)
    L = La + Lb - 1
    N = _next_pow2(L)
    base = 1 << (8 * w)   # every limb is below it
    # one kernel call: uint32 primes, operands within padded_product's zero-padded half
    fused = basis.fused(base) and _padded_lengths(La, Lb, N)
    if not fused and min(a.bit_length(), b.bit_length()) < per_prime_min_bits:
        return None
    # The call's temporaries (limbs, digits, bytes: ~2 MB at 10^6 bits) are scratch:
    # freed, glibc handed them back to the kernel and the next call faulted them in
    # again (10^6 bits, one thread, Zen 3: ~0.7 ms of ~2.5).
    A = _limbs(a, w, La, "input_a")
    B = A if square else _limbs(b, w, Lb, "input_b")
    if fused:
        digits = _fused_digits(A, B, basis, N, L, base, threads)
    else:
        residues = crt_residues(A, B, basis, N, "cyclic", L, threads, bound=base)
        digits = basis.digits(residues, effective_threads(threads, L * basis.k), out=residues)
    size = (L + 128 // (8 * w) + 1) * w
    out = scratch("carry_bytes", (size + 8,), np.uint8)   # (+ 8: the last limb's word store)
    _carry.digits_to_bytes(digits, basis.primes_array, w, out)
    return int.from_bytes(out[:size], "little")


def _fused_digits(A, B, basis, N, L, base, threads):
    """(k, L) uint32 Garner digits of A * B's coefficients, from one kernel call: every
    prime's product (operands reduced as read) and the vector digits
    (CRTProduct32.digits).  Against the per-prime route (crt_residues' Python call
    and uint64 copy per prime, CRTBasis.digits' scalar loop) it took, both routes in
    turn in one process on the Zen 3 VM (AVX2 build, a slow phase): 2 x 10^4 bits
    109-112 -> 60-63 us, 10^5 bits 382-403 -> 276-286 us, 10^6 bits 3.65-4.06 ->
    2.78-2.95 ms, 10^7 bits 46.7-49.4 -> 34.5-42.9 ms."""
    products = scratch("crt", (basis.k, 1, N), U32)
    work = scratch("operand", (1, N), U32)
    digits = scratch("digits", (basis.k, 1, L), U32)
    t = effective_threads(threads, N)
    if basis.fused_product32(N, base).digits(A, B, products, work, digits, t) >= base:
        raise AssertionError("internal: a limb at or above its base")
    return digits.reshape(basis.k, L)
