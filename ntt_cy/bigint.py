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

The limb width and prime family are chosen per call by transform work
(ntt_cy/_routing.py, bigmul_route): k primes x lane cost (measured for the active
kernels) x N log2 N, over w = 2..6 bytes on ~30-bit (uint32) and ~62-bit (uint64)
primes with a prime product below 2^127 (the carry pass works in two words).  Where
uint32 transforms are several times faster than uint64 ones (the AVX-512 build) three
or four 30-bit primes with 32- to 40-bit limbs win from 10^6 bits on; on the portable
build, two 62-bit primes with 32- to 48-bit limbs.  Below BIGMUL_MIN_BITS (the smaller
operand; PER_PRIME_MIN_BITS on the per-prime route) CPython's own `*` is faster and is
used.
"""
from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ntt_cy import _routing
from ntt_cy._kernels.crt import carry as _carry
from ntt_cy._products import crt_residues
from ntt_cy._support.scratch import scratch
from ntt_cy._crt import CRTBasis
from ntt_cy._support.threads import effective_threads, requested_workers
from ntt_cy._typing import Integer

__all__ = ["bigmul"]

U32 = np.dtype(np.uint32)


def bigmul(x: Integer, y: Integer, *, workers: Integer | None = None) -> int:
    """The product ``x * y`` of two integers of any size and sign, through the NTT.

    Equal to the builtin product.  The operands are cut into limbs of 2 to 6 bytes,
    multiplied through CRT transforms (the limb width and primes with the least
    transform work) and the carries propagated in C.  Where the smaller operand has
    fewer than 7,000 bits (18,000 where the product cannot be one kernel call: very
    unequal operands), CPython's own multiplication is faster and is used.

    Parameters
    ----------
    x, y : int
        Python ints or numpy integers (not bools).
    workers : int, optional
        Threads for the transforms, as for :func:`ntt_cy.ntt` (None:
        :func:`ntt_cy.get_workers`).

    Returns
    -------
    int
        ``x * y``.

    Raises
    ------
    TypeError
        An operand that is not an integer (floats, bools, strings).
    ValueError
        A `workers` count out of range.

    See Also
    --------
    ntt_cy.polymul : Polynomial products, which bigmul's limbs are.

    Examples
    --------
    >>> import ntt_cy
    >>> x, y = 3**200000, -(7**150000)
    >>> ntt_cy.bigmul(x, y) == x * y
    True
    >>> ntt_cy.bigmul(12, 34)
    408
    """
    for name, v in (("x", x), ("y", y)):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name} must be an integer, got {type(v).__name__}")
    x, y = int(x), int(y)
    threads = requested_workers(workers)
    if min(x.bit_length(), y.bit_length()) < _routing.BIGMUL_MIN_BITS:
        return x * y
    negative = (x < 0) != (y < 0)
    ax = abs(x)
    square = x == y or x == -y
    prod = ntt_multiply(ax, ax if square else abs(y), threads, square=square,
                        per_prime_min_bits=_routing.PER_PRIME_MIN_BITS)
    if prod is None:  # no scheme fits (billions of bits), or CPython is faster
        return x * y
    return -prod if negative else prod


def _limbs(v: int, w: int, L: int, slot: str) -> npt.NDArray[np.uint64]:
    """v >= 0 as a (1, L) uint64 array of w-byte limbs, least significant first, in
    scratch `slot` (every limb written)."""
    out = scratch(slot, (1, L), np.uint64)
    _carry.limbs_from_bytes(v.to_bytes(L * w, "little"), w, out[0])
    return out


def ntt_multiply(a: int, b: int, threads: int = 1, square: bool = False,
                 per_prime_min_bits: int = 0) -> int | None:
    """a * b for a, b >= 0 through the NTT, or None if no scheme fits, or if the
    product would take the per-prime route and the smaller operand has fewer than
    per_prime_min_bits bits."""
    route = _routing.bigmul_route(a.bit_length(), b.bit_length(), per_prime_min_bits)
    if route is None:
        return None
    w, basis = route.limb_bytes, route.basis
    La, Lb = _routing.limb_count(a.bit_length(), w), _routing.limb_count(b.bit_length(), w)
    L = La + Lb - 1
    N = _routing.transform_length(L)
    base = 1 << (8 * w)   # every limb is below it
    # The call's temporaries (limbs, digits, bytes: ~2 MB at 10^6 bits) are scratch:
    # freed, glibc handed them back to the kernel and the next call faulted them in
    # again (at 10^6 bits, one thread, over a quarter of the product's time).
    A = _limbs(a, w, La, "input_a")
    B = A if square else _limbs(b, w, Lb, "input_b")
    if route.one_call:
        digits = fused_digits(A, B, basis, N, L, base, threads)
    else:
        residues = crt_residues(A, B, basis, N, "cyclic", L, threads, bound=base)
        digits = basis.digits(residues, effective_threads(threads, L * basis.k), out=residues)
    size = (L + 128 // (8 * w) + 1) * w
    out = scratch("carry_bytes", (size + 8,), np.uint8)   # (+ 8: the last limb's word store)
    _carry.digits_to_bytes(digits, basis.primes_array, w, out)
    return int.from_bytes(out[:size], "little")


def fused_digits(A: npt.NDArray[np.uint64], B: npt.NDArray[np.uint64], basis: CRTBasis,
                 N: int, L: int, base: int, threads: int) -> npt.NDArray[np.uint32]:
    """(k, L) uint32 Garner digits of A * B's coefficients, from one kernel call: every
    prime's product (operands reduced as read) and the vector digits
    (CRTProduct32.digits), in place of the per-prime route's Python call and uint64
    copy per prime and CRTBasis.digits' scalar loop."""
    products = scratch("crt", (basis.k, 1, N), U32)
    work = scratch("operand", (1, N), U32)
    digits = scratch("digits", (basis.k, 1, L), U32)
    t = effective_threads(threads, N)
    if basis.fused_product32(N, base).digits(A, B, products, work, digits, t) >= base:
        raise AssertionError("internal: a limb at or above its base")
    return digits.reshape(basis.k, L)
