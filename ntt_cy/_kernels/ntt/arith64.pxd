# Modular arithmetic on 64-bit lanes: every function is exact for the stated
# ranges and every prime p < 2**64 unless a tighter bound is named.
# Constant time: no branch and no memory index depends on a value (masked corrections,
# min(x, x - p) folds and selects of r + p or r, as in arith32.pxd), except
# mod_any_wide64's reduction of a high word >= p (a branch; the schoolbook and CRT
# routes use it).
from libc.stdint cimport uint64_t

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)
    uint64_t ntt_mulhi64(uint64_t a, uint64_t b)


cdef inline uint64_t mask64(bint condition) noexcept nogil:
    # 0xFFFFFFFFFFFFFFFF where condition holds, else 0 (condition is 0 or 1).
    return <uint64_t>0 - <uint64_t>condition


cdef inline uint64_t min64(uint64_t a, uint64_t b) noexcept nogil:
    # min(a, b): a conditional move or a vector minimum, never a jump.  min64(x, x - p)
    # folds x in [0, 2p) to [0, p): below p, x - p wraps above x.
    return a if a < b else b


cdef inline uint64_t max64(uint64_t a, uint64_t b) noexcept nogil:
    # max(a, b) without a branch (the kernels' running maximum of the input values).
    return b ^ ((a ^ b) & mask64(a > b))


cdef inline uint64_t add_mod64(uint64_t a, uint64_t b, uint64_t p) noexcept nogil:
    # a, b in [0, p) -> (a + b) mod p in [0, p), without a 65-bit intermediate.
    cdef uint64_t t = p - b
    cdef uint64_t r = a - t
    return r + p if a < t else r


cdef inline uint64_t sub_mod64(uint64_t a, uint64_t b, uint64_t p) noexcept nogil:
    # a, b in [0, p) -> (a - b) mod p in [0, p).
    cdef uint64_t r = a - b
    return r + p if a < b else r


cdef inline uint64_t mont_mul64(uint64_t a, uint64_t b, uint64_t p, uint64_t pinv) noexcept nogil:
    # Montgomery product a*b*2^-64 mod p.  a in [0, 2^64), b in [0, p), p odd < 2^64,
    # pinv = p^-1 mod 2^64.  As in mont_mul32: hi(T) - hi(m*p) in (-p, p) -> [0, p).
    cdef uint64_t h1
    cdef uint64_t m = ntt_mul_wide(a, b, &h1) * pinv
    cdef uint64_t h2 = ntt_mulhi64(m, p)
    return h1 - h2 + (p & mask64(h1 < h2))


cdef inline uint64_t barrett_mul64(uint64_t a, uint64_t b, uint64_t d, uint64_t v, int shift) noexcept nogil:
    # a*b mod p by division with a precomputed reciprocal (Moller & Granlund 2011,
    # Algorithm 4; the 128-bit form of Barrett reduction).  shift = clz(p), d = p << shift
    # (top bit set), v = floor((2^128 - 1) / d) - 2^64.
    # a in [0, 2^64), b in [0, p): then a*b < p*2^64, as mod_wide64 requires.
    # Result in [0, p) for every p < 2^64.
    cdef uint64_t hi
    cdef uint64_t lo = ntt_mul_wide(a, b, &hi)
    return mod_wide64(hi, lo, d, v, shift)


cdef inline uint64_t mod_wide64(uint64_t hi, uint64_t lo, uint64_t d, uint64_t v,
                                int shift) noexcept nogil:
    # (hi 2^64 + lo) mod p for hi < p, constants as barrett_mul64: hi < p makes the
    # normalised numerator (n1, n0) = (hi, lo) << shift have n1 < d, as Moller &
    # Granlund's division step requires.  Result in [0, p).
    # r = n0 - q1 d (mod 2^64) is the remainder, or the remainder - d when the
    # quotient estimate is one too large (then r > q0: add d back), or the remainder
    # + d when it is one too small (then r in [d, 2d): the final min64 fold).  (The
    # branch on shift is on the modulus, which is public.)
    cdef uint64_t n1 = hi
    cdef uint64_t n0 = lo
    cdef uint64_t q1, q0, r
    if shift:
        n1 = (hi << shift) | (lo >> (64 - shift))
        n0 = lo << shift
    q0 = ntt_mul_wide(v, n1, &q1)
    q0 += n0
    q1 += n1 + 1 + (q0 < n0)
    r = n0 - q1 * d
    r += d & mask64(r > q0)
    return min64(r, r - d) >> shift


cdef inline uint64_t mod_any_wide64(uint64_t hi, uint64_t lo, uint64_t p, uint64_t d,
                                    uint64_t v, int shift) noexcept nogil:
    # (hi 2^64 + lo) mod p for any hi, lo: hi is reduced first where it is >= p
    # (hi 2^64 = (hi mod p) 2^64 mod p), as mod_wide64 needs.  Result in [0, p).
    if hi >= p:
        hi = mod_wide64(0, hi, d, v, shift)
    return mod_wide64(hi, lo, d, v, shift)


cdef inline uint64_t fold_once(uint64_t x, uint64_t p) noexcept nogil:
    # [0, 2p) -> [0, p), for every p < 2^63.
    return min64(x, x - p)


cdef inline uint64_t shoup_mul32_wide(uint64_t a, uint64_t w, uint64_t wq,
                                      uint64_t p) noexcept nogil:
    # Shoup product of 32-bit operands in 64-bit words: a*w mod p in [0, 2p) for
    # a < 2^32, w < p < 2^32, wq = floor(w 2^32 / p).  The quotient estimate
    # floor(a wq / 2^32) is the true quotient or one less, every product stays below
    # 2^64, and unlike shoup_mul32 the result may exceed 2^32 (p up to 2^32).
    return a * w - ((a * wq) >> 32) * p


cdef inline uint64_t shoup_mul64(uint64_t a, uint64_t w, uint64_t wq, uint64_t p) noexcept nogil:
    # Shoup product with a constant: a*w mod p, LAZY result in [0, 2p).
    # a in [0, 2^64), w in [0, p), wq = floor(w * 2^64 / p), p < 2^63 (2p must fit).
    cdef uint64_t q = ntt_mulhi64(a, wq)
    return a * w - q * p


cdef inline uint64_t mont_mul52(uint64_t a, uint64_t b, uint64_t p, uint64_t pinv52) noexcept nogil:
    # Montgomery product with R = 2^52 (the IFMA kernels' form): a*b*2^-52 mod p.
    # a in [0, 2^52), b in [0, p), p odd < 2^52, pinv52 = -p^-1 mod 2^52.
    # T + m*p with m = lo52(T) * pinv52 mod 2^52 is divisible by 2^52 and below
    # 2^53 p < 2^105, so (T + m*p) >> 52 < 2p; one conditional subtraction -> [0, p).
    cdef uint64_t hi, mhi, mlo, lo2
    cdef uint64_t lo = ntt_mul_wide(a, b, &hi)
    cdef uint64_t mask = (<uint64_t>1 << 52) - 1
    cdef uint64_t m = ((lo & mask) * pinv52) & mask
    mlo = ntt_mul_wide(m, p, &mhi)
    lo2 = lo + mlo
    hi = hi + mhi + (lo2 < lo)
    cdef uint64_t t = (hi << 12) | (lo2 >> 52)
    return min64(t, t - p)
