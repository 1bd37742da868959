# Carry propagation for bigmul: the product's coefficients, given as Garner
# mixed-radix digits over at most a few NTT primes, become base-2^b limbs.
#
# Coefficient c_k = v_0 + p_0 (v_1 + p_1 (v_2 + ...)) < p_0 p_1 ... < 2^128 (the
# caller's primes guarantee it), evaluated in two 64-bit words.  The running
# carry after a shift is < 2^(128 - b) <= 2^127, and c_k < p_0 p_1 ... < 2^127, so
# carry + c_k never leaves the two words.
from libc.stdint cimport uint64_t

cdef extern from "_u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)


def digits_to_limbs(const uint64_t[:, ::1] digits, const uint64_t[::1] primes, int limb_bits,
                    uint64_t[::1] out):
    """out[k] = k-th base-2^b limb of sum_k c_k 2^(k b), b = limb_bits.

    # IN digits (K, L) Garner digits of c_k; OUT out, at least L + 128 // b + 1 limbs

    1 <= limb_bits <= 63; product of the K primes < 2^127.
    """
    cdef Py_ssize_t K = digits.shape[0], L = digits.shape[1], k, j, total = out.shape[0]
    cdef uint64_t lo, hi, clo, chi, t, mask = (<uint64_t>1 << limb_bits) - 1
    cdef int b = limb_bits
    if limb_bits < 1 or limb_bits > 63 or K < 1 or primes.shape[0] < K:
        raise ValueError("internal: bad carry parameters")
    if total < L + 128 // limb_bits + 1:
        raise ValueError("internal: carry output too short")
    clo = 0
    chi = 0
    with nogil:
        for k in range(total):
            if k < L:
                # c = v_{K-1}; c = c * p_j + v_j for j = K-2 .. 0 (two words)
                lo = digits[K - 1, k]
                hi = 0
                for j in range(K - 2, -1, -1):
                    lo = ntt_mul_wide(lo, primes[j], &t)
                    hi = hi * primes[j] + t
                    lo += digits[j, k]
                    hi += lo < digits[j, k]
                clo += lo
                chi += hi + (clo < lo)
            out[k] = clo & mask
            clo = (clo >> b) | (chi << (64 - b))
            chi >>= b
