# Modular arithmetic on 32-bit lanes: every function is exact for the stated
# ranges and every prime p < 2**32 unless a tighter bound is named.
# Constant time: no branch and no memory index depends on a value, as
# tests/kernels/test_constant_time.py checks in the compiled kernels.  mont_mul32 adds
# `p & mask32(condition)`, a mask of all ones or all zeros (gcc compiles a choice
# between its two computed results to a jump); a fold of [0, 2p) to [0, p) takes
# min(x, x - p); add_mod32 / sub_mod32 choose between r + p and r.  gcc compiles the
# last two to conditional moves or vector minima and blends.
from libc.stdint cimport uint32_t, uint64_t

cdef extern from "u128.h" nogil:
    uint64_t ntt_mulhi64(uint64_t a, uint64_t b)


cdef inline uint32_t mask32(bint condition) noexcept nogil:
    # 0xFFFFFFFF where condition holds, else 0 (condition is 0 or 1).
    return <uint32_t>0 - <uint32_t>condition


cdef inline uint32_t add_mod32(uint32_t a, uint32_t b, uint32_t p) noexcept nogil:
    # a, b in [0, p) -> (a + b) mod p in [0, p). No 33-bit intermediate: a - (p - b)
    # wraps exactly when a + b < p, and adding p back undoes the wrap.
    cdef uint32_t t = p - b
    cdef uint32_t r = a - t
    return r + p if a < t else r


cdef inline uint32_t sub_mod32(uint32_t a, uint32_t b, uint32_t p) noexcept nogil:
    # a, b in [0, p) -> (a - b) mod p in [0, p).
    cdef uint32_t r = a - b
    return r + p if a < b else r


cdef inline uint32_t mont_one32(uint32_t p) noexcept nogil:
    # 1 in Montgomery form, 2^32 mod p (p odd): mont_mul32(x, mont_one32(p)) = x mod p.
    return <uint32_t>((<uint64_t>1 << 32) % p)


cdef inline uint32_t mont_mul32(uint32_t a, uint32_t b, uint32_t p, uint32_t pinv) noexcept nogil:
    # Montgomery product a*b*2^-32 mod p.  a in [0, 2^32), b in [0, p), p odd < 2^32,
    # pinv = p^-1 mod 2^32.  T = a*b < p*2^32 and m*p share their low word, so
    # (T - m*p) / 2^32 = hi(T) - hi(m*p) lies in (-p, p): one conditional add -> [0, p).
    cdef uint64_t t = <uint64_t>a * b
    cdef uint32_t m = <uint32_t>t * pinv
    cdef uint32_t h1 = <uint32_t>(t >> 32)
    cdef uint32_t h2 = <uint32_t>((<uint64_t>m * p) >> 32)
    return h1 - h2 + (p & mask32(h1 < h2))


cdef inline uint32_t barrett_mul32(uint32_t a, uint32_t b, uint32_t p, uint64_t mu) noexcept nogil:
    # Barrett a*b mod p.  a in [0, 2^32), b in [0, p), mu = floor(2^64 / p).
    # T = a*b < 2^64; q = hi(T*mu) satisfies T/p - 2 < q <= T/p, so T - q*p in [0, 2p)
    # and one conditional subtraction gives [0, p).  Exact for every p < 2^32.
    cdef uint64_t t = <uint64_t>a * b
    cdef uint64_t r = t - ntt_mulhi64(t, mu) * p
    return <uint32_t>(r if r < r - p else r - p)   # (min(r, r - p), as arith64's min64)


cdef inline uint32_t shoup_mul32(uint32_t a, uint32_t w, uint32_t wq, uint32_t p) noexcept nogil:
    # Shoup product with a constant: a*w mod p, LAZY result in [0, 2p).
    # a in [0, 2^32), w in [0, p), wq = floor(w * 2^32 / p), p < 2^31 (2p must fit).
    # q = hi(a*wq) satisfies a*w/p - 2 < q <= a*w/p, so a*w - q*p in [0, 2p),
    # computed modulo 2^32 where it is exact.
    cdef uint32_t q = <uint32_t>((<uint64_t>a * wq) >> 32)
    return a * w - q * p
