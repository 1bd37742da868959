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
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from ntt_cy._arith64 cimport add_mod64, barrett_mul64
from ntt_cy._single_row cimport LINEAR, fold, load_lanes, new_row, operand_width, valid_shape

cnp.import_array()

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


cdef Reducer reducer(uint64_t m, uint64_t d, uint64_t v, int shift) except *:
    if m < 2:
        raise ValueError("internal: schoolbook modulus must be >= 2")
    cdef Reducer red
    red.m, red.d, red.v, red.shift = m, d, v, shift
    red.r64 = (<uint64_t>0 - m) % m      # 2^64 mod m
    return red


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


cdef inline uint64_t coefficient(const uint64_t* a, Py_ssize_t na, const uint64_t* rb,
                                 Py_ssize_t nb, Py_ssize_t k, const Reducer* r,
                                 bint one_word) noexcept nogil:
    # Coefficient k of the product of one row a and one row b = rb reversed, mod m.
    # a[i] pairs with b[k - i] = rb[nb - 1 - k + i], for max(0, k-nb+1) <= i <= min(k, na-1)
    cdef Py_ssize_t i0 = k - nb + 1 if k >= nb else 0
    cdef Py_ssize_t i1 = k + 1 if k < na else na
    if one_word:
        return dot_one_word(a + i0, rb + (nb - 1 - k + i0), i1 - i0, r)
    return dot_three_words(a + i0, rb + (nb - 1 - k + i0), i1 - i0, r)


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
    cdef Py_ssize_t L = na + nb - 1, idx, r
    if rb.shape[0] != R or out.shape[0] != R or out.shape[1] != L:
        raise ValueError("internal: schoolbook shapes differ")
    if R == 0 or na == 0 or nb == 0:
        return
    cdef const uint64_t* pa = &a[0, 0]
    cdef const uint64_t* pb = &rb[0, 0]
    cdef uint64_t* po = &out[0, 0]
    cdef Reducer red = reducer(m, d, v, shift)
    with nogil:
        for idx in prange(R * L, num_threads=threads, schedule="static"):
            r = idx // L
            po[idx] = coefficient(pa + r * na, na, pb + r * nb, nb, idx - r * L, &red, one_word)


cdef class SingleRowSchoolbook:
    """linear_mod for one row of each operand mod m, straight from the caller's 1-D
    arrays into a fresh result (poly._single_row: a small product's Python layers
    cost more than its arithmetic); wrap CYCLIC / NEGACYCLIC (na == nb = n): the
    product modulo x^n -/+ 1, each of its n coefficients folded from two linear
    ones.  Built with linear_mod's constants; one_word only when
    min(na, nb) * (m - 1)^2 < 2^64."""
    cdef Reducer red
    cdef bint one_word
    cdef int wrap
    cdef readonly Py_ssize_t na, nb

    def __init__(self, Py_ssize_t na, Py_ssize_t nb, uint64_t m, uint64_t d, uint64_t v,
                 int shift, bint one_word, int wrap=LINEAR):
        if not valid_shape(na, nb, wrap):
            raise ValueError("internal: SingleRowSchoolbook needs na, nb >= 1, and na == nb "
                             "to wrap")
        self.red = reducer(m, d, v, shift)
        self.na, self.nb, self.one_word, self.wrap = na, nb, one_word, wrap

    def product(self, a, b):
        """The product of a (na values) and b (nb values) mod m, uint32 for m <= 2^32,
        else uint64; None (nothing computed) when an operand is not an array
        row_width takes, has another length, or holds a value >= m."""
        cdef uint64_t m = self.red.m
        cdef int width = operand_width(a, b, m, self.na, self.nb)
        if width == 0:
            return None
        cdef cnp.ndarray xa = <cnp.ndarray>a, xb = <cnp.ndarray>b
        cdef Py_ssize_t na = self.na, nb = self.nb, L = na + nb - 1, i
        cdef Py_ssize_t count = na if self.wrap != LINEAR else L     # result coefficients
        # a widened, b reversed (as linear_mod takes them), both checked below m
        cdef uint64_t* rows = <uint64_t*>malloc((na + nb) * sizeof(uint64_t))
        if rows == NULL:
            raise MemoryError()
        cdef uint64_t* ra = rows
        cdef uint64_t* rb = rows + na
        cdef uint64_t top = 0, value
        cdef bint out32 = m <= (<uint64_t>1 << 32)
        cdef void* dst
        try:
            load_lanes(cnp.PyArray_DATA(xa), width, na, ra, 8, 1, &top)
            load_lanes(cnp.PyArray_DATA(xb), width, nb, rb + nb - 1, 8, -1, &top)
            if top >= m:
                return None
            out = new_row(count, 4 if out32 else 8)
            dst = cnp.PyArray_DATA(<cnp.ndarray>out)
            with nogil:
                for i in range(count):
                    value = coefficient(ra, na, rb, nb, i, &self.red, self.one_word)
                    if self.wrap != LINEAR and i + na < L:
                        value = fold(value, coefficient(ra, na, rb, nb, i + na, &self.red,
                                                        self.one_word), m, self.wrap)
                    if out32:
                        (<uint32_t*>dst)[i] = <uint32_t>value
                    else:
                        (<uint64_t*>dst)[i] = value
            return out
        finally:
            free(rows)
