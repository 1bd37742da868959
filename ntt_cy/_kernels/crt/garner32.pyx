# Garner's algorithm for the ~30-bit CRT primes (uint32-lane family, p_j < 2^31), scalar
# and nogil, on uint64 residue arrays: the same digits as garner64.pyx, but every product
# fits 64 bits.  (The vector Garner straight from the primes' uint32 transform rows is
# garner_rows.pxi, in the kernel builds.)
#
#   garner_digits32            v_j = (((r_j - v_0) c_0j - v_1) c_1j - ...) mod p_j with
#                              Shoup products on 32-bit operands (c_lj = p_l^-1 mod p_j),
#                              block by block with the coefficient index innermost (unit
#                              stride, vectorisable);
#   mixed_radix_mod_weighted   x mod m = sum_j v_j W_j mod m, W_j = p_0 ... p_{j-1} mod m,
#                              one-word m: one reduction per coefficient (Horner's form,
#                              garner64's, needs one per digit).
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t

from ntt_cy._kernels.ntt.arith64 cimport add_mod64, barrett_mul64, fold_once, shoup_mul32_wide
from ntt_cy._support.openmp cimport check_threads

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)

cdef enum:
    BLOCK = 2048   # coefficients a block of garner_digits32


def garner_digits32(const uint64_t[:, ::1] residues, const uint64_t[::1] primes,
                    const uint64_t[:, ::1] inv, const uint64_t[:, ::1] inv_q,
                    uint64_t[:, ::1] digits, int threads):
    """Mixed-radix digits.   # IN residues (k, N), r_j < p_j; OUT digits (k, N), may be residues

    primes[j] < 2^31 distinct; inv[l, j] = p_l^-1 mod p_j for l < j, inv[j, j] = 1;
    inv_q[l, j] = floor(inv[l, j] 2^32 / p_j).  Every stored value lies in [0, p_j).
    """
    cdef Py_ssize_t k = residues.shape[0], N = residues.shape[1]
    cdef Py_ssize_t nblocks, blk, i, i0, i1, j, l
    cdef uint64_t pj, c, cq, one_q, t, v
    cdef const uint64_t* r
    cdef uint64_t* dj
    cdef const uint64_t* dl
    if digits.shape[0] != k or digits.shape[1] != N or primes.shape[0] < k \
            or inv.shape[0] < k or inv.shape[1] < k or inv_q.shape[0] < k or inv_q.shape[1] < k:
        raise ValueError("internal: garner_digits32 shapes differ")
    check_threads(threads)
    for j in range(k):
        if primes[j] >= (<uint64_t>1 << 31):
            raise ValueError("garner_digits32 needs primes below 2^31")
    if k == 0 or N == 0:
        return
    nblocks = (N + BLOCK - 1) // BLOCK
    with nogil:
        for blk in prange(nblocks, num_threads=threads, schedule="static"):
            i0 = blk * BLOCK
            i1 = i0 + BLOCK if i0 + BLOCK < N else N
            for j in range(k):
                pj = primes[j]
                one_q = inv_q[j, j]
                r = &residues[j, 0]
                dj = &digits[j, 0]
                if <size_t>r != <size_t>dj:
                    for i in range(i0, i1):
                        dj[i] = r[i]
                for l in range(j):
                    c = inv[l, j]
                    cq = inv_q[l, j]
                    dl = &digits[l, 0]
                    for i in range(i0, i1):
                        v = fold_once(shoup_mul32_wide(dl[i], 1, one_q, pj), pj)     # v_l mod p_j
                        t = dj[i]
                        t = t - v + (pj if t < v else 0)
                        dj[i] = fold_once(shoup_mul32_wide(t, c, cq, pj), pj)


def mixed_radix_mod_weighted(const uint64_t[:, ::1] digits, const uint64_t[::1] weights,
                             uint64_t m, uint64_t d, uint64_t v, int shift, bint one_word,
                             uint64_t[::1] out, int threads):
    """out[i] = sum_j digits[j, i] * weights[j] mod m.   # IN digits (k, N); OUT out (N,)

    2 <= m < 2^64 with (d, v, shift) its barrett_mul64 constants; weights[j] =
    p_0 ... p_{j-1} mod m; digits < 2^31.  one_word: the caller checked that
    sum_j (p_j - 1) * max(weights) < 2^64; otherwise the sum is kept in two words
    (k <= 16 terms below 2^95 each).
    """
    cdef Py_ssize_t k = digits.shape[0], N = digits.shape[1], i, j
    cdef uint64_t lo, hi, plo, phi, r64
    if out.shape[0] != N or weights.shape[0] < k:
        raise ValueError("internal: mixed_radix_mod_weighted shapes differ")
    if m < 2:
        raise ValueError("internal: mixed_radix_mod_weighted needs m >= 2")
    check_threads(threads)
    if k == 0 or N == 0:
        return
    r64 = (<uint64_t>0 - m) % m                 # 2^64 mod m
    with nogil:
        if one_word:
            for i in prange(N, num_threads=threads, schedule="static"):
                lo = 0
                for j in range(k):
                    lo = lo + digits[j, i] * weights[j]
                out[i] = barrett_mul64(lo, 1, d, v, shift)
        else:
            for i in prange(N, num_threads=threads, schedule="static"):
                lo = 0
                hi = 0
                for j in range(k):
                    plo = ntt_mul_wide(digits[j, i], weights[j], &phi)
                    lo = lo + plo
                    hi = hi + phi + (lo < plo)
                # (hi 2^64 + lo) mod m = hi (2^64 mod m) + lo, hi < 2^35
                out[i] = add_mod64(barrett_mul64(hi, r64, d, v, shift),
                                   barrett_mul64(lo, 1, d, v, shift), m)
