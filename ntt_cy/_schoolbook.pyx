# Schoolbook (quadratic) linear convolution modulo m < 2^64: polymul's path for
# small inputs, where it beats three transforms (crossover: ntt_cy/poly.py).
#
# out[r, k] = sum_i a[r, i] * b[r, k - i] mod m, with a, b in [0, m).  The sum is
# accumulated exactly and reduced once per coefficient:
#   ONE_WORD    min(na, nb) * (m - 1)^2 < 2^64: a plain uint64 sum;
#   THREE_WORDS otherwise: each 128-bit product added into a 192-bit accumulator
#               (lo, hi, top), which holds any sum of up to 2^64 such products.
# b is passed reversed (rb[j] = b[nb - 1 - j]) so both operands run forward in the
# inner loop.
from cython.parallel cimport prange
from libc.stdint cimport uint64_t

from ntt_cy._arith64 cimport add_mod64, barrett_mul64

cdef extern from "_u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)


cdef struct Reducer:
    # m in [2, 2^64) with its Moller-Granlund constants (see barrett_mul64) and
    # r64 = 2^64 mod m: x mod m = barrett_mul64(x, 1) for any x < 2^64.
    uint64_t m
    uint64_t d
    uint64_t v
    int shift
    uint64_t r64


cdef inline uint64_t mod_word(uint64_t x, const Reducer* r) noexcept nogil:
    return barrett_mul64(x, 1, r.d, r.v, r.shift)


cdef inline uint64_t shift_in(uint64_t acc, uint64_t x, const Reducer* r) noexcept nogil:
    # (acc * 2^64 + x) mod m for acc in [0, m).
    return add_mod64(barrett_mul64(acc, r.r64, r.d, r.v, r.shift), mod_word(x, r), r.m)


cdef inline uint64_t dot_one_word(const uint64_t* a, const uint64_t* rb, Py_ssize_t count,
                                  const Reducer* r) noexcept nogil:
    # sum a[i] * rb[i] mod m; the caller guarantees the sum is < 2^64.
    cdef uint64_t acc = 0
    cdef Py_ssize_t i
    for i in range(count):
        acc += a[i] * rb[i]
    return mod_word(acc, r)


cdef inline uint64_t dot_three_words(const uint64_t* a, const uint64_t* rb, Py_ssize_t count,
                                     const Reducer* r) noexcept nogil:
    # sum a[i] * rb[i] mod m for any a[i], rb[i] < 2^64 and count < 2^64.
    cdef uint64_t lo = 0, hi = 0, top = 0, plo, phi
    cdef Py_ssize_t i
    for i in range(count):
        plo = ntt_mul_wide(a[i], rb[i], &phi)
        lo += plo
        phi += lo < plo          # phi <= 2^64 - 2, so the carry cannot overflow it
        hi += phi
        top += hi < phi
    # (top * 2^128 + hi * 2^64 + lo) mod m by Horner in base 2^64.
    return shift_in(shift_in(mod_word(top, r), hi, r), lo, r)


def linear_mod(const uint64_t[:, ::1] a, const uint64_t[:, ::1] rb, uint64_t[:, ::1] out,
               uint64_t m, uint64_t d, uint64_t v, int shift, bint one_word, int threads):
    """Row-wise linear convolution mod m.

    # IN a (R, na), rb (R, nb) = b reversed; OUT out (R, na + nb - 1)

    a, rb in [0, m), 2 <= m < 2^64, (d, v, shift) = barrett_d/v/shift of
    ntt_cy.plan.modulus_constants(m).  one_word must only be set when
    min(na, nb) * (m - 1)^2 < 2^64.  Work is split over all R * (na + nb - 1)
    output coefficients, so one long row is parallel too.
    """
    cdef Py_ssize_t R = a.shape[0], na = a.shape[1], nb = rb.shape[1]
    cdef Py_ssize_t L = na + nb - 1, idx, r, k, i0, i1
    if rb.shape[0] != R or out.shape[0] != R or out.shape[1] != L:
        raise ValueError("internal: schoolbook shapes differ")
    if R == 0 or na == 0 or nb == 0:
        return
    cdef const uint64_t* pa = &a[0, 0]
    cdef const uint64_t* pb = &rb[0, 0]
    cdef uint64_t* po = &out[0, 0]
    cdef Reducer red
    if m < 2:
        raise ValueError("internal: schoolbook modulus must be >= 2")
    red.m, red.d, red.v, red.shift = m, d, v, shift
    red.r64 = (<uint64_t>0 - m) % m      # 2^64 mod m
    with nogil:
        for idx in prange(R * L, num_threads=threads, schedule="static"):
            r = idx // L
            k = idx - r * L
            # a[i] pairs with b[k - i] = rb[nb - 1 - k + i], for max(0, k-nb+1) <= i <= min(k, na-1)
            i0 = k - nb + 1 if k >= nb else 0
            i1 = k + 1 if k < na else na
            if one_word:
                po[idx] = dot_one_word(pa + r * na + i0, pb + r * nb + (nb - 1 - k + i0),
                                       i1 - i0, &red)
            else:
                po[idx] = dot_three_words(pa + r * na + i0, pb + r * nb + (nb - 1 - k + i0),
                                          i1 - i0, &red)
