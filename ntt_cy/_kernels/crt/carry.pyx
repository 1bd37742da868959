# bigmul's limbs: the operands' bytes (int.to_bytes) cut into w-byte limbs, and the
# product's coefficients, given as Garner mixed-radix digits over at most a few NTT
# primes, carried into w-byte limbs written straight back as bytes (int.from_bytes).
#
# Coefficient c_k = v_0 + p_0 (v_1 + p_1 (v_2 + ...)) < p_0 p_1 ... < 2^128 (the
# caller's primes guarantee it), evaluated in two 64-bit words.  The running
# carry after a shift is < 2^(128 - b) <= 2^127, and c_k < p_0 p_1 ... < 2^127, so
# carry + c_k never leaves the two words.
#
# Both byte loops move whole 8-byte words (unaligned, on a little-endian CPU: checked,
# RuntimeError elsewhere) and mask or overlap the bytes past a limb, one load or store
# a limb, where copying w bytes a limb through a strided (L, 8) numpy byte view cost
# ~15-35 ns a limb.
import sys

from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)

ctypedef fused digit_t:   # Garner digits: CRTProduct32.digits' uint32, CRTBasis.digits' uint64
    uint32_t
    uint64_t

MAX_LIMB_BYTES = 7   # (a limb and the carry's shift stay below 64 bits)
cdef enum:
    MAX_DIGITS = 16   # (digits a coefficient; the primes' product < 2^127 allows 4 below 2^31)


cdef bint LITTLE_ENDIAN = sys.byteorder == "little"   # (read once, at import)


cdef int _check_little_endian() except -1:
    if not LITTLE_ENDIAN:
        raise RuntimeError("internal: bigmul's limb packing assumes a little-endian CPU")
    return 0


def limbs_from_bytes(const uint8_t[::1] raw, int limb_bytes, uint64_t[::1] out):
    """out[i] = the limb of bytes raw[i w : (i + 1) w], little-endian, w = limb_bytes.

    # IN raw, len(raw) == len(out) * w; OUT out (every limb < 2^(8 w))

    1 <= w <= MAX_LIMB_BYTES.
    """
    cdef Py_ssize_t L = out.shape[0], i, fast
    cdef int w = limb_bytes
    cdef uint64_t word, mask
    _check_little_endian()
    if w < 1 or w > MAX_LIMB_BYTES or raw.shape[0] != L * w:
        raise ValueError("internal: bad limb parameters")
    if L == 0:
        return
    mask = (<uint64_t>1 << (8 * w)) - 1
    # limbs whose 8-byte load stays inside raw; the last few are copied w bytes each
    fast = (raw.shape[0] - 8) // w + 1 if raw.shape[0] >= 8 else 0
    with nogil:
        for i in range(fast):
            memcpy(&word, &raw[i * w], 8)
            out[i] = word & mask
        for i in range(fast, L):
            word = 0
            memcpy(&word, &raw[i * w], w)
            out[i] = word


def digits_to_bytes(const digit_t[:, ::1] digits, const uint64_t[::1] primes, int limb_bytes,
                    uint8_t[::1] out):
    """out = the base-2^(8 w) limbs of sum_k c_k 2^(8 w k), w bytes each, little-endian.

    # IN digits (K, L) Garner digits of c_k (digit j < p_j); OUT out, at least (L + 128 // (8 w) + 1) w + 8
    # bytes (the last 8 are slack for the last limb's whole-word store; every limb's
    # bytes are written, nothing past them is meaningful)

    1 <= w <= MAX_LIMB_BYTES; product of the K primes < 2^127.
    """
    cdef Py_ssize_t K = digits.shape[0], L = digits.shape[1], k, j, total
    cdef int w = limb_bytes, b
    cdef uint64_t lo, hi, clo, chi, t, v, limb, mask
    cdef const digit_t* rows[MAX_DIGITS]
    cdef uint64_t p[MAX_DIGITS]
    _check_little_endian()
    if w < 1 or w > MAX_LIMB_BYTES or not 1 <= K <= MAX_DIGITS or primes.shape[0] < K:
        raise ValueError("internal: bad carry parameters")
    # (only now: with cdivision, 128 // b of a zero b would be undefined, not an error)
    b = 8 * w                     # 8 <= b <= 56
    total = L + 128 // b + 1
    if out.shape[0] < total * w + 8:
        raise ValueError("internal: carry output too short")
    for j in range(K):
        rows[j] = &digits[j, 0]   # (only read below L)
        p[j] = primes[j]
    mask = (<uint64_t>1 << b) - 1
    clo = 0
    chi = 0
    with nogil:
        for k in range(total):
            if k < L:
                # c = v_{K-1}; c = c * p_j + v_j for j = K-2 .. 0 (two words).  (The
                # weighted sum of v_j p_0 ... p_{j-1}, independent terms, took ~1.3x
                # as long.)
                lo = rows[K - 1][k]
                hi = 0
                for j in range(K - 2, -1, -1):
                    lo = ntt_mul_wide(lo, p[j], &t)
                    hi = hi * p[j] + t
                    v = rows[j][k]
                    lo += v
                    hi += lo < v
                clo += lo
                chi += hi + (clo < lo)
            # the word's bytes past the limb are zero, and the next limb's store
            # overwrites them
            limb = clo & mask
            memcpy(&out[k * w], &limb, 8)
            clo = (clo >> b) | (chi << (64 - b))
            chi >>= b
