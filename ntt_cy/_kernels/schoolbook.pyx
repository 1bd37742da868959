# Schoolbook (quadratic) linear convolution modulo m < 2^64: polymul's path for
# small inputs, where it beats three transforms (crossover: ntt_cy/_routing.py).
#
# out[r, k] = sum_i a[r, i] * b[r, k - i] mod m, with a, b in [0, m).  The sum is
# accumulated exactly and reduced once per coefficient, in one of three ways
# (accumulation() is the one place that picks them):
#   ONE_WORD  m <= 2^32 and min(na, nb) * (m - 1)^2 < 2^64: uint32 lanes, a plain
#             uint64 sum.
#   SPLIT     m <= 2^32 otherwise: uint32 lanes; each product p < 2^64 is added as its
#             halves p mod 2^32 and floor(p / 2^32) into two uint64 sums, each below
#             count * 2^32 <= 2^64 for count <= 2^32 products.
#   WIDE      m > 2^32: uint64 lanes; the 128-bit products summed `chunk` at a time
#             in 128 bits, chunk * (m - 1)^2 < 2^128, each chunk's sum added into a
#             192-bit total (ntt_dot_wide, u128.h).
# ONE_WORD and SPLIT are loops of 32 x 32 -> 64-bit multiplies that the compiler
# vectorises, several times faster a product than WIDE's 128-bit ones.
# b is passed reversed (rb[j] = b[nb - 1 - j]) so both operands run forward in the
# inner loop.
cimport numpy as cnp
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport free, malloc

from ntt_cy._kernels.ntt.arith64 cimport add_mod64, barrett_mul64, mod_any_wide64, mod_wide64
from ntt_cy._kernels.ntt.single_row cimport LINEAR, fold, load_lanes, new_row, operand_width, valid_shape

cnp.import_array()

cdef extern from "u128.h" nogil:
    uint64_t ntt_dot_wide(const uint64_t* a, const uint64_t* b, Py_ssize_t count,
                          Py_ssize_t chunk, uint64_t* hi, uint64_t* top)
    Py_ssize_t ntt_wide_chunk(uint64_t m)

ctypedef fused lane_t:
    uint32_t
    uint64_t

cdef enum Accumulation:
    ONE_WORD = 0
    SPLIT = 1
    WIDE = 2


cdef struct Reducer:
    # m in [2, 2^64) with its Moller-Granlund constants (see barrett_mul64),
    # r64 = 2^64 mod m, the accumulation for the shorter operand's length, and for
    # WIDE the products per 128-bit partial sum.
    uint64_t m
    uint64_t d
    uint64_t v
    int shift
    uint64_t r64
    Accumulation accumulation
    Py_ssize_t chunk
    int lanes                # operand lane bytes (lane_bytes)


cdef Accumulation accumulation(uint64_t m, Py_ssize_t shortest) noexcept:
    # ONE_WORD / SPLIT / WIDE as the header says, for dot products of at most
    # `shortest` >= 0 terms (the shorter operand's length), 2 <= m < 2^64.
    if m > (<uint64_t>1 << 32):
        return WIDE
    if <uint64_t>shortest <= (<uint64_t>0xFFFFFFFFFFFFFFFF) // ((m - 1) * (m - 1)):
        return ONE_WORD
    return SPLIT


def accumulation_name(uint64_t m, Py_ssize_t shortest):
    """"one_word", "split" or "wide": how products mod m (2 <= m < 2^64) whose shorter
    operand has `shortest` values are summed (the header; ntt_cy/_routing.py's cost
    model)."""
    if m < 2:
        raise ValueError("internal: schoolbook modulus must be >= 2")
    return ("one_word", "split", "wide")[<int>accumulation(m, shortest)]


cdef inline int lanes_for(uint64_t m) noexcept nogil:
    return 4 if m <= (<uint64_t>1 << 32) else 8


def lane_bytes(uint64_t m):
    """4 (uint32 lanes) for m <= 2^32, else 8: the operand lanes linear_mod takes."""
    return lanes_for(m)


cdef Reducer reducer(uint64_t m, uint64_t d, uint64_t v, int shift,
                     Py_ssize_t shortest) except *:
    if m < 2:
        raise ValueError("internal: schoolbook modulus must be >= 2")
    if m <= (<uint64_t>1 << 32) and <uint64_t>shortest > (<uint64_t>1 << 32):
        raise ValueError("internal: schoolbook rows longer than 2^32")   # SPLIT's bound
    cdef Reducer red
    red.m, red.d, red.v, red.shift = m, d, v, shift
    red.r64 = (<uint64_t>0 - m) % m      # 2^64 mod m
    red.accumulation = accumulation(m, shortest)
    red.chunk = ntt_wide_chunk(m)
    red.lanes = lanes_for(m)
    return red


cdef inline uint64_t mod_word(uint64_t x, const Reducer* r) noexcept nogil:
    return mod_wide64(0, x, r.d, r.v, r.shift)


cdef inline uint64_t mod_two_words(uint64_t hi, uint64_t lo, const Reducer* r) noexcept nogil:
    # (hi * 2^64 + lo) mod m for any hi, lo (the sums here keep hi small, below m mostly)
    return mod_any_wide64(hi, lo, r.m, r.d, r.v, r.shift)


cdef inline uint64_t dot_narrow(const uint32_t* a, const uint32_t* rb, Py_ssize_t count,
                                const Reducer* r) noexcept nogil:
    # sum a[i] * rb[i] mod m, m <= 2^32 (ONE_WORD or SPLIT, see the header).
    cdef uint64_t low = 0, high = 0, p
    cdef Py_ssize_t i
    if r.accumulation == ONE_WORD:
        for i in range(count):
            low += <uint64_t>a[i] * rb[i]
        return mod_word(low, r)
    for i in range(count):
        p = <uint64_t>a[i] * rb[i]
        low += <uint32_t>p
        high += p >> 32
    # high * 2^32 + low = (high >> 32) * 2^64 + ((high << 32) + low), with its carry
    p = (high << 32) + low
    return mod_two_words((high >> 32) + (p < low), p, r)


cdef inline uint64_t dot_wide(const uint64_t* a, const uint64_t* rb, Py_ssize_t count,
                              const Reducer* r) noexcept nogil:
    # sum a[i] * rb[i] mod m for any a[i], rb[i] < m < 2^64 (WIDE).
    cdef uint64_t hi, top
    cdef uint64_t lo = ntt_dot_wide(a, rb, count, r.chunk, &hi, &top)
    if top == 0:
        return mod_two_words(hi, lo, r)
    # (top * 2^128 + hi * 2^64 + lo) mod m by Horner in base 2^64.
    return shift_in(shift_in(mod_word(top, r), hi, r), lo, r)


cdef inline uint64_t shift_in(uint64_t acc, uint64_t x, const Reducer* r) noexcept nogil:
    # (acc * 2^64 + x) mod m for acc in [0, m).
    return add_mod64(barrett_mul64(acc, r.r64, r.d, r.v, r.shift), mod_word(x, r), r.m)


cdef inline uint64_t coefficient(const lane_t* a, Py_ssize_t na, const lane_t* rb,
                                 Py_ssize_t nb, Py_ssize_t k, const Reducer* r) noexcept nogil:
    # Coefficient k of the product of one row a and one row b = rb reversed, mod m.
    # a[i] pairs with b[k - i] = rb[nb - 1 - k + i], for max(0, k-nb+1) <= i <= min(k, na-1)
    cdef Py_ssize_t i0 = k - nb + 1 if k >= nb else 0
    cdef Py_ssize_t i1 = k + 1 if k < na else na
    if lane_t is uint32_t:
        return dot_narrow(a + i0, rb + (nb - 1 - k + i0), i1 - i0, r)
    else:
        return dot_wide(a + i0, rb + (nb - 1 - k + i0), i1 - i0, r)


def linear_mod(const lane_t[:, ::1] a, const lane_t[:, ::1] rb, uint64_t[:, ::1] out,
               uint64_t m, uint64_t d, uint64_t v, int shift, int threads):
    """Row-wise linear convolution mod m.

    # IN a (R, na), rb (R, nb) = b reversed; OUT out (R, na + nb - 1)

    a, rb in [0, m), uint32 lanes for m <= 2^32, else uint64 (lane_bytes(m));
    2 <= m < 2^64, (d, v, shift) = barrett_d/v/shift of
    ntt_cy.plan.modulus_constants(m).  Work is split over all R * (na + nb - 1)
    output coefficients, so one long row is parallel too.
    """
    cdef Py_ssize_t R = a.shape[0], na = a.shape[1], nb = rb.shape[1]
    cdef Py_ssize_t L = na + nb - 1
    if rb.shape[0] != R or out.shape[0] != R or out.shape[1] != L:
        raise ValueError("internal: schoolbook shapes differ")
    if sizeof(lane_t) != lanes_for(m):
        raise ValueError("internal: schoolbook lanes do not match the modulus")
    if R == 0 or na == 0 or nb == 0:
        return
    cdef const lane_t* pa = &a[0, 0]
    cdef const lane_t* pb = &rb[0, 0]
    cdef uint64_t* po = &out[0, 0]
    cdef Reducer red = reducer(m, d, v, shift, min(na, nb))
    cdef Py_ssize_t total = R * L, parts = max(threads, 1), part
    with nogil:
        # one contiguous run of the R * L coefficients per thread (a row's middle
        # coefficients cost most: on two threads the halves of one row cost the same)
        for part in prange(parts, num_threads=parts, schedule="static"):
            coefficient_run(pa, na, pb, nb, total * part // parts,
                            total * (part + 1) // parts, po, &red)


cdef void coefficient_run(const lane_t* a, Py_ssize_t na, const lane_t* rb, Py_ssize_t nb,
                          Py_ssize_t start, Py_ssize_t stop, uint64_t* out,
                          const Reducer* red) noexcept nogil:
    # out[idx] = coefficient idx of the rows' products (row idx // L, coefficient
    # idx % L) for start <= idx < stop, walking the rows without a division each.
    cdef Py_ssize_t L = na + nb - 1, idx
    cdef Py_ssize_t r = start // L
    cdef Py_ssize_t k = start - r * L
    for idx in range(start, stop):
        out[idx] = coefficient(a + r * na, na, rb + r * nb, nb, k, red)
        k += 1
        if k == L:
            k, r = 0, r + 1


cdef uint64_t row_coefficient(const void* a, Py_ssize_t na, const void* rb, Py_ssize_t nb,
                              Py_ssize_t k, const Reducer* r) noexcept nogil:
    # coefficient() on rows of the lanes that m takes (lane_bytes).
    if r.lanes == 4:
        return coefficient(<const uint32_t*>a, na, <const uint32_t*>rb, nb, k, r)
    return coefficient(<const uint64_t*>a, na, <const uint64_t*>rb, nb, k, r)


cdef class SingleRowSchoolbook:
    """linear_mod for one row of each operand mod m, straight from the caller's 1-D
    arrays into a fresh result (ntt_cy/_single_row.py: a small product's Python layers
    cost more than its arithmetic); wrap CYCLIC / NEGACYCLIC (na == nb = n): the
    product modulo x^n -/+ 1, each of its n coefficients folded from two linear
    ones.  Built with linear_mod's constants."""
    cdef Reducer red
    cdef int wrap
    cdef readonly Py_ssize_t na, nb

    def __init__(self, Py_ssize_t na, Py_ssize_t nb, uint64_t m, uint64_t d, uint64_t v,
                 int shift, int wrap=LINEAR):
        if not valid_shape(na, nb, wrap):
            raise ValueError("internal: SingleRowSchoolbook needs na, nb >= 1, and na == nb "
                             "to wrap")
        self.red = reducer(m, d, v, shift, min(na, nb))
        self.na, self.nb, self.wrap = na, nb, wrap

    def product(self, a, b, bint checked=True):
        """The product of a (na values) and b (nb values) mod m, uint32 for m <= 2^32,
        else uint64; None (nothing computed) when an operand is not an array
        row_width takes, has another length, or holds a value >= m.  checked=False
        (the caller guarantees a, b < m): the values are not compared with m."""
        cdef uint64_t m = self.red.m
        cdef int width = operand_width(a, b, m, self.na, self.nb)
        if width == 0:
            return None
        cdef cnp.ndarray xa = <cnp.ndarray>a, xb = <cnp.ndarray>b
        cdef Py_ssize_t na = self.na, nb = self.nb, L = na + nb - 1, i
        cdef Py_ssize_t count = na if self.wrap != LINEAR else L     # result coefficients
        cdef int lanes = self.red.lanes
        # a, and b reversed (as linear_mod takes them), in m's lanes, checked below m
        cdef char* rows = <char*>malloc((na + nb) * lanes)
        if rows == NULL:
            raise MemoryError()
        cdef char* ra = rows
        cdef char* rb = rows + na * lanes
        cdef uint64_t top = 0, value
        cdef void* dst
        try:
            load_lanes(cnp.PyArray_DATA(xa), width, na, ra, lanes, 1, &top)
            load_lanes(cnp.PyArray_DATA(xb), width, nb, rb + (nb - 1) * lanes, lanes, -1, &top)
            if checked and top >= m:
                return None
            out = new_row(count, lanes)
            dst = cnp.PyArray_DATA(<cnp.ndarray>out)
            with nogil:
                for i in range(count):
                    value = row_coefficient(ra, na, rb, nb, i, &self.red)
                    if self.wrap != LINEAR and i + na < L:
                        value = fold(value, row_coefficient(ra, na, rb, nb, i + na, &self.red),
                                     m, self.wrap)
                    if lanes == 4:
                        (<uint32_t*>dst)[i] = <uint32_t>value
                    else:
                        (<uint64_t*>dst)[i] = value
            return out
        finally:
            free(rows)
