# Helpers of the prepared single-row products (poly._single_row): whether the compiled
# product may read a caller's array as it is, decided from its header alone (anything
# it declines goes the general route: conversion, reduction, the errors), and the
# product's scratch and result.
cimport numpy as cnp
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memcpy

from ntt_cy._kernels.ntt.arith64 cimport mask64
from ntt_cy._support.aligned cimport aligned_new

cdef extern from "<stdlib.h>" nogil:
    void* aligned_alloc(size_t alignment, size_t size)   # C11


cdef inline int row_width(object x, uint64_t m, uint64_t* limit=NULL):
    # The width in bytes (4 or 8) at which x's values read as unsigned lanes whose
    # maximum alone tells whether all lie in [0, m); 0 when x is not a non-empty 1-D,
    # C-contiguous, aligned, native-order numpy.ndarray (no subclass) of 32/64-bit
    # integers.  A signed
    # array qualifies only for m <= 2^(bits - 1): a negative value then reads as a lane
    # >= 2^(bits - 1) >= m (the rule of ntt_cy._support.checks.unsigned_view).  Given
    # `limit`, one for a larger m too, *limit set to the bound the maximum must stay
    # below: m, or 2^(bits - 1) for such a signed array (a negative value reads >= it,
    # every other is below it and below m).
    if not cnp.PyArray_CheckExact(x):
        return 0   # subclasses (masked arrays) go the general route, which knows them
    cdef cnp.ndarray arr = <cnp.ndarray>x
    cdef int width = cnp.PyArray_ITEMSIZE(arr)
    if cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_DIM(arr, 0) == 0 \
            or not cnp.PyArray_ISCARRAY_RO(arr) or not cnp.PyArray_ISINTEGER(arr) \
            or (width != 4 and width != 8):
        return 0
    if limit != NULL:
        limit[0] = m
    if cnp.PyArray_ISSIGNED(arr) and m > (<uint64_t>1 << (8 * width - 1)):
        if limit == NULL:
            return 0
        limit[0] = <uint64_t>1 << (8 * width - 1)
    return width


cdef inline int operand_width(object a, object b, uint64_t m, Py_ssize_t na,
                              Py_ssize_t nb):
    # row_width of a and b when they agree and a, b hold na and nb values; else 0.
    cdef int width = row_width(a, m)
    if width == 0 or row_width(b, m) != width \
            or cnp.PyArray_DIM(<cnp.ndarray>a, 0) != na \
            or cnp.PyArray_DIM(<cnp.ndarray>b, 0) != nb:
        return 0
    return width


cdef inline void* aligned_scratch(size_t nbytes) noexcept nogil:
    # 64-byte aligned memory for a product's transform rows (free() it); NULL on failure.
    return aligned_alloc(64, (nbytes + 63) // 64 * 64 if nbytes else 64)


cdef enum:
    # Products with transforms of this many values (PARALLEL_MIN_ELEMENTS) or more return
    # 64-byte aligned results, as the general route's are (a good operand for the next
    # call's kernels); below, numpy's own allocation is cheaper by a tenth of a
    # microsecond, a fifth of a small product's call.
    ALIGNED_RESULTS_FROM = 8192


cdef inline object new_row(cnp.npy_intp length, int width, Py_ssize_t n=0):
    # A fresh 1-D result of uint32 (width 4) or uint64 lanes for a product whose
    # transforms have n values (64-byte aligned from ALIGNED_RESULTS_FROM on).
    cdef int typenum = cnp.NPY_UINT32 if width == 4 else cnp.NPY_UINT64
    if n >= ALIGNED_RESULTS_FROM:
        return aligned_new(1, &length, typenum, width, 0, 0)
    return cnp.PyArray_EMPTY(1, &length, typenum, 0)


cdef inline void copy_lanes(const void* src, int src_width, void* dst, int dst_width,
                            Py_ssize_t count) noexcept nogil:
    # dst[i] = src[i] between uint32/uint64 lanes; narrowing only of values < 2^32.
    cdef Py_ssize_t i
    if src_width == dst_width:
        memcpy(dst, src, count * src_width)
    elif dst_width == 4:
        for i in range(count):
            (<uint32_t*>dst)[i] = <uint32_t>(<const uint64_t*>src)[i]
    else:
        for i in range(count):
            (<uint64_t*>dst)[i] = (<const uint32_t*>src)[i]


# Cyclic and negacyclic products from linear ones (wrap: 1 modulo x^n - 1, 2 modulo
# x^n + 1; 0 linear): coefficient i + n of the linear product folds into coefficient i.
cdef enum:
    LINEAR = 0
    CYCLIC = 1
    NEGACYCLIC = 2


cdef inline bint valid_shape(Py_ssize_t na, Py_ssize_t nb, int wrap) noexcept:
    # Operand lengths and a wrap the single-row products take (wrapping: na == nb = n).
    return na >= 1 and nb >= 1 and (wrap == LINEAR or (wrap == CYCLIC or wrap == NEGACYCLIC)
                                     and na == nb)


cdef inline uint64_t fold(uint64_t x, uint64_t y, uint64_t m, int wrap) noexcept nogil:
    # x + y (CYCLIC) or x - y (NEGACYCLIC) mod m, for x, y in [0, m), 2 <= m < 2^64: a
    # sum past 2^64 wraps, and s - m taken modulo 2^64 is then the right value.
    # Branch-free on the values (masked corrections, arith64.pxd); wrap is public.
    cdef uint64_t s
    if wrap == NEGACYCLIC:
        return x - y + (m & mask64(x < y))
    s = x + y
    return s - (m & mask64((s >= m) | (s < x)))


cdef inline void fold_lanes(void* lin, int width, Py_ssize_t n, Py_ssize_t length, uint64_t m,
                            int wrap) noexcept nogil:
    # lin[i] <- fold(lin[i], lin[n + i]) for n + i < length, in place (lanes of `width`
    # bytes, values in [0, m)): the first n values are then the wrapped product.
    cdef Py_ssize_t i
    for i in range(length - n):
        if width == 4:
            (<uint32_t*>lin)[i] = <uint32_t>fold((<uint32_t*>lin)[i], (<uint32_t*>lin)[n + i],
                                                 m, wrap)
        else:
            (<uint64_t*>lin)[i] = fold((<uint64_t*>lin)[i], (<uint64_t*>lin)[n + i], m, wrap)


cdef inline uint64_t largest_lane(const void* src, int width, Py_ssize_t count) noexcept nogil:
    # The largest of src[0:count] (uint32 lanes, width 4, or uint64, width 8).
    cdef Py_ssize_t i
    cdef uint64_t x, high = 0
    for i in range(count):
        x = (<const uint32_t*>src)[i] if width == 4 else (<const uint64_t*>src)[i]
        high = x if x > high else high   # (a vector maximum or a conditional move)
    return high


ctypedef fused from_lane:
    uint32_t
    uint64_t

ctypedef fused to_lane:
    uint32_t
    uint64_t


cdef inline uint64_t copy_largest(const from_lane* src, to_lane* dst, Py_ssize_t count,
                                  uint64_t high) noexcept nogil:
    # dst[i] = src[i] (cut to 32 bits for uint32 dst); returns the largest of high and
    # every src[i].  (One loop of one type each way, which the compiler vectorizes:
    # load_lanes' general loop, its widths and step read in every iteration, runs
    # scalar.  Not for constant-time calls: the compiled maximum may branch on values.)
    cdef Py_ssize_t i
    cdef uint64_t x
    for i in range(count):
        x = src[i]
        dst[i] = <to_lane>x
        high = x if x > high else high
    return high


cdef inline void load_lanes(const void* src, int src_width, Py_ssize_t count, void* dst,
                            int dst_width, Py_ssize_t step, uint64_t* top,
                            bint checked=False) noexcept nogil:
    # dst[i * step] = src[i] for i < count, between uint32/uint64 lanes (a value that
    # does not fit a uint32 lane is cut: the caller refuses it through *top); *top is
    # raised to the largest value read.  checked (the caller compares *top with the
    # modulus, branching on the values anyway): the vectorized loops below, whose
    # compiled maximum may branch on the values; otherwise the scalar loop, never a
    # jump on a value (assume_reduced calls are constant-time).
    cdef Py_ssize_t i
    cdef uint64_t x, high = top[0]
    if checked and step == 1 and src_width == 8 and dst_width == 4:
        top[0] = copy_largest(<const uint64_t*>src, <uint32_t*>dst, count, high)
        return
    if checked and step == 1 and src_width == 4 and dst_width == 8:
        top[0] = copy_largest(<const uint32_t*>src, <uint64_t*>dst, count, high)
        return
    for i in range(count):
        x = (<const uint32_t*>src)[i] if src_width == 4 else (<const uint64_t*>src)[i]
        if dst_width == 4:
            (<uint32_t*>dst)[i * step] = <uint32_t>x
        else:
            (<uint64_t*>dst)[i * step] = x
        high = x if x > high else high   # (a vector maximum or a conditional move)
    top[0] = high
