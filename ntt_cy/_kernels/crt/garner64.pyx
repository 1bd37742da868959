# Garner's algorithm for the ~62-bit CRT primes (uint64-lane family), scalar and nogil,
# on uint64 residue arrays; the ~30-bit family's twin is garner32.pyx (64-bit products
# there, 128-bit products here), and ntt_cy/_crt.py (CRTBasis) picks between them.
#
#   garner_digits            the mixed-radix digits of x from its residues r_j = x mod p_j,
#                            k distinct primes p_j < 2^62:
#                                x = v_0 + v_1 p_0 + v_2 p_0 p_1 + ... ,   v_j in [0, p_j),
#                            with single-word arithmetic only: v_j = (...((r_j - v_0) c_0j
#                            - v_1) c_1j ...) mod p_j, c_ij = p_i^-1 mod p_j;
#   mixed_radix_mod_horner   x mod m for a one-word m in [2, 2^64), by Horner's rule on the
#                            digits (the weighted sum of garner32's form would overflow two
#                            words with 62-bit digits).
# Moduli of several words take the digits to wide.pyx (mixed_radix_mod_multiword).
from cython.parallel cimport prange
from libc.stdint cimport uint64_t

from ntt_cy._kernels.ntt.arith64 cimport add_mod64, sub_mod64, barrett_mul64, shoup_mul64, fold_once
from ntt_cy._support.openmp cimport check_threads

cdef enum:
    MAX_PRIMES = 16   # garner_digits' limit (ntt_cy/_crt.py, MAX_PRIMES)


def garner_digits(const uint64_t[:, ::1] residues, const uint64_t[::1] primes,
                  const uint64_t[:, ::1] inv, const uint64_t[:, ::1] inv_q,
                  uint64_t[:, ::1] digits, int threads):
    """digits[j, i] = v_j for coefficient i.   # IN residues (k, N), OUT digits (k, N)

    primes[j] < 2^62; inv[i, j] = p_i^-1 mod p_j, inv_q its Shoup quotient
    floor(inv * 2^64 / p_j).  Every value stays in [0, p_j) (Shoup results in
    [0, 2p_j) are folded at once; p_j < 2^63 keeps them exact).
    """
    cdef Py_ssize_t k = residues.shape[0], N = residues.shape[1], i, j, l
    cdef uint64_t t, v, pj
    if k > MAX_PRIMES:
        raise ValueError(f"at most {MAX_PRIMES} CRT primes are supported")
    if digits.shape[0] != k or digits.shape[1] != N or primes.shape[0] < k \
            or inv.shape[0] < k or inv.shape[1] < k or inv_q.shape[0] < k or inv_q.shape[1] < k:
        raise ValueError("internal: garner_digits shapes differ")
    check_threads(threads)
    if N == 0:
        return
    with nogil:
        for i in prange(N, num_threads=threads, schedule="static"):
            for j in range(k):
                pj = primes[j]
                t = residues[j, i]
                for l in range(j):
                    # v_l < p_l may exceed p_j: reduce it first (Shoup by 1).
                    v = fold_once(shoup_mul64(digits[l, i], 1, inv_q[j, j], pj), pj)
                    t = sub_mod64(t, v, pj)
                    t = fold_once(shoup_mul64(t, inv[l, j], inv_q[l, j], pj), pj)
                digits[j, i] = t


def mixed_radix_mod_horner(const uint64_t[:, ::1] digits, const uint64_t[::1] prime_mod_m,
               uint64_t m, uint64_t d, uint64_t v, int shift,
               uint64_t[::1] out, int threads):
    """out[i] = (v_0 + p_0 (v_1 + p_1 (v_2 + ...))) mod m.   # OUT out (N,)

    m in [2, 2^64) (any integer); (d, v, shift) its Moller-Granlund reciprocal as in
    barrett_mul64; prime_mod_m[j] = p_j mod m.  Digits (< 2^62) are reduced with
    barrett_mul64(v, 1) which needs 1 < m.  Every intermediate stays in [0, m).
    """
    cdef Py_ssize_t k = digits.shape[0], N = digits.shape[1], i, j
    cdef uint64_t acc
    if out.shape[0] != N or prime_mod_m.shape[0] < k or k < 1:
        raise ValueError("internal: mixed_radix_mod_horner shapes differ")
    if m < 2:
        raise ValueError("internal: mixed_radix_mod_horner needs m >= 2")
    check_threads(threads)
    if N == 0:
        return
    with nogil:
        for i in prange(N, num_threads=threads, schedule="static"):
            acc = barrett_mul64(digits[k - 1, i], 1, d, v, shift)
            for j in range(k - 2, -1, -1):
                acc = barrett_mul64(acc, prime_mod_m[j], d, v, shift)
                acc = add_mod64(acc, barrett_mul64(digits[j, i], 1, d, v, shift), m)
            out[i] = acc
