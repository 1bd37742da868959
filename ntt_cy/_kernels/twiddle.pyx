# Twiddle factors generated where they are used: a[i, j] <- a[i, j] w^((row0 + i)(col0 + j))
# mod p, in place.  The four-step transform's middle step (ntt_cy.dask.four_step) and,
# with one row, the negacyclic twist a[j] psi^(start + j) run here, so a block carries
# only its offsets, never a table.
#
# Each row runs CHAINS independent power chains, x_k = w^(r (col0 + k + CHAINS t)) for
# t = 0, 1, ..., so the products are throughput- and not latency-bound.  Per element:
# one Montgomery product a x (x held in Montgomery form x R mod p, so the product is
# a x mod p exactly) and one that advances its chain, x <- x w^(r CHAINS) (the step in
# Montgomery form too).  Row r + 1's chain starts are row r's times w^(col0 + k), its
# step the step times w^CHAINS: CHAINS + 1 products a row.  Each thread takes a run of
# rows and computes its first row's starts by exponentiation.
#
# Ranges: a in [0, p) (values up to 2^L - 1 are also exact: mont_mul32/64 take any
# first operand below 2^L), every factor in [0, p) in Montgomery form; p odd,
# p < 2^32 on uint32 lanes (mont_mul32), p < 2^64 on uint64 lanes (mont_mul64);
# results in [0, p).  Exponents (row0 + i)(col0 + j) must stay below 2^64 (rows and
# columns below 2^32 each).
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t

import numpy as np

from ntt_cy._kernels.ntt.arith32 cimport mont_mul32
from ntt_cy._kernels.ntt.arith64 cimport mont_mul64
from ntt_cy._support.openmp cimport check_threads

ctypedef fused lane_t:
    uint32_t
    uint64_t

cdef enum:
    CHAINS = 8      # independent products in flight per row (a multiplier's latency / throughput)


cdef struct Mont:
    uint64_t p
    uint64_t pinv       # p^-1 mod 2^L
    uint64_t r1         # R mod p (1 in Montgomery form), R = 2^L
    uint64_t r2         # R^2 mod p (to_mont's constant)


cdef inline lane_t mmul(lane_t a, lane_t b, const Mont* m) noexcept nogil:
    # a b R^-1 mod p in [0, p) for a < 2^L, b < p.
    if lane_t is uint32_t:
        return mont_mul32(a, b, <uint32_t>m.p, <uint32_t>m.pinv)
    else:
        return mont_mul64(a, b, m.p, m.pinv)


cdef inline lane_t mont_pow(lane_t base_m, uint64_t e, const Mont* m) noexcept nogil:
    # base^e in Montgomery form, from base in Montgomery form (square and multiply).
    cdef lane_t result = <lane_t>m.r1
    while e:
        if e & 1:
            result = mmul(result, base_m, m)
        base_m = mmul(base_m, base_m, m)
        e >>= 1
    return result


cdef void powers_run(lane_t* out, Py_ssize_t count, lane_t first_m, lane_t step_m,
                     const Mont* m) noexcept nogil:
    # out[j] = first step^j (Montgomery form) by CHAINS interleaved chains.
    cdef lane_t cur[CHAINS]
    cdef lane_t stride
    cdef Py_ssize_t j, k
    if count <= 0:
        return
    cur[0] = first_m
    for k in range(1, CHAINS):
        cur[k] = mmul(cur[k - 1], step_m, m)
    stride = mont_pow(step_m, CHAINS, m)
    j = 0
    while j + CHAINS <= count:
        for k in range(CHAINS):
            out[j + k] = cur[k]
            cur[k] = mmul(cur[k], stride, m)
        j += CHAINS
    for k in range(count - j):
        out[j + k] = cur[k]


cdef void twiddle_run(lane_t* a, Py_ssize_t rows, Py_ssize_t cols, uint64_t r_first,
                      uint64_t col0, lane_t w_m, lane_t* row_factors, lane_t* advance,
                      const Mont* m) noexcept nogil:
    # Rows r_first .. r_first + rows - 1 of the product (a points at the first of them):
    # row_factors[j] = w^(r (col0 + j)) for the current row r, advance[j] = w^(col0 + j),
    # both in Montgomery form; each row is then two element-wise products (vectorisable).
    cdef Py_ssize_t i, j
    cdef lane_t first = mont_pow(w_m, r_first * col0, m)
    powers_run(row_factors, cols, first, mont_pow(w_m, r_first, m), m)
    powers_run(advance, cols, mont_pow(w_m, col0, m), w_m, m)
    for i in range(rows):
        for j in range(cols):
            a[j] = mmul(a[j], row_factors[j], m)
            row_factors[j] = mmul(row_factors[j], advance[j], m)
        a += cols


def multiply_twiddles(lane_t[:, ::1] a, uint64_t p, uint64_t w, uint64_t row0, uint64_t col0,
                      int threads):
    """a[i, j] <- a[i, j] * w**((row0 + i) * (col0 + j)) mod p in place; p odd, below
    2**32 on uint32 lanes; a in [0, p); w in [0, p)."""
    check_threads(threads)
    cdef int bits = 8 * sizeof(lane_t)
    cdef object radix = (<object>1) << bits     # R = 2^L, as a Python int
    if p % 2 == 0 or p < 3 or p >= radix:
        raise ValueError(f"internal: multiply_twiddles needs an odd modulus that fits the lanes, got {p}")
    cdef Mont m
    m.p = p
    m.pinv = pow(p, -1, radix)
    m.r1 = radix % p
    m.r2 = pow(2, 2 * bits, p)
    cdef Py_ssize_t rows = a.shape[0], cols = a.shape[1], part, lo, hi
    if rows == 0 or cols == 0:
        return
    cdef lane_t w_m = mmul(<lane_t>(w % p), <lane_t>m.r2, &m)
    cdef int parts = threads if rows >= threads and rows * cols >= 1 << 15 else 1
    cdef lane_t* base = &a[0, 0]
    cdef lane_t[:, ::1] scratch = np.empty((2 * parts, cols), dtype=np.uint32 if bits == 32 else np.uint64)
    cdef lane_t* work = &scratch[0, 0]
    with nogil:
        if parts == 1:
            twiddle_run(base, rows, cols, row0, col0, w_m, work, work + cols, &m)
        else:
            for part in prange(parts, num_threads=parts, schedule="static"):
                lo = rows * part // parts
                hi = rows * (part + 1) // parts
                twiddle_run(base + lo * cols, hi - lo, cols, row0 + lo, col0, w_m,
                            work + 2 * part * cols, work + (2 * part + 1) * cols, &m)
