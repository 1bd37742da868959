# Modular arithmetic on 64-bit lanes for the one prime p = 2^64 - 2^32 + 1 ("Goldilocks",
# the GOLDILOCKS family): a 128-bit product reduces with 2^64 = 2^32 - 1 and
# 2^96 = -1 (mod p), adds, subtractions and shifts, no second multiplication.
from libc.stdint cimport uint64_t

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)


cdef inline uint64_t goldilocks_reduce128(uint64_t hi, uint64_t lo) noexcept nogil:
    # (hi 2^64 + lo) mod p in [0, p) for any hi, lo < 2^64.  E = 2^32 - 1 = 2^64 mod p
    # and 2^96 = -1 mod p, so with hi = hh 2^32 + hl the value is lo - hh + hl E mod p.
    # t0 = lo - hh: on a borrow t0 holds 2^64 = E too much and is >= 2^64 - 2^32 + 1, so
    # t0 - E does not borrow.  t1 = hl E < 2^64.  t2 = t0 + t1: on a carry 2^64 = E was
    # dropped and t2 <= 2^64 - 2^33, so t2 + E does not carry.  t2 < 2^64 < 2p: one
    # conditional subtraction gives [0, p).  The borrow and the carry (the latter
    # taken by about half of all products) are masks, not branches.
    cdef uint64_t p = 0xFFFFFFFF00000001ULL
    cdef uint64_t e = 0xFFFFFFFFULL
    cdef uint64_t hh = hi >> 32
    cdef uint64_t hl = hi & e
    cdef uint64_t t0 = (lo - hh) - (e & (0 - <uint64_t>(lo < hh)))
    cdef uint64_t t1 = (hl << 32) - hl
    cdef uint64_t t2 = t0 + t1
    t2 += e & (0 - <uint64_t>(t2 < t1))
    return t2 - p if t2 >= p else t2


cdef inline uint64_t goldilocks_mul64(uint64_t a, uint64_t b) noexcept nogil:
    # a*b mod p in [0, p) for any a, b < 2^64.
    cdef uint64_t hi
    cdef uint64_t lo = ntt_mul_wide(a, b, &hi)
    return goldilocks_reduce128(hi, lo)
