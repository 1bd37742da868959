/* The vector-op layer: the operations the SIMD kernels are written in, one definition
 * per ISA, so that a kernel written over them (simd/ntt32/vector.h, simd/ntt64/vector.h,
 * simd/garner/vector.h) exists once for AVX-512 and AVX2 alike.  simd/select.h picks
 * the build's ISA; vec_t is its vector (512 or 256 bits), seen as VEC_U32_LANES 32-bit
 * or VEC_U64_LANES 64-bit lanes.
 *
 * Where an ISA lacks an instruction the operation is built from others (AVX2 has no
 * unsigned compares: "a < b" is a signed compare with both top bits flipped, or the
 * sign of a - b where that cannot overflow; no 64-bit low product: three vpmuludq).
 * A flag such as `narrow` (p < 2^31) lets an ISA pick a cheaper form that is exact
 * only under it; ISAs without such a form ignore it.  Each operation states its range
 * contract; results are the same on every ISA.
 */
#ifndef NTT_CY_SIMD_VECTOR_OPS_H
#define NTT_CY_SIMD_VECTOR_OPS_H
#include <stdint.h>
#include <stddef.h>
#include "simd/select.h"
#if defined(NTT_CY_AVX2)
#include "simd/avx2_unsigned.h"
#endif

#if defined(NTT_CY_AVX512)
typedef __m512i vec_t;
#define VEC_U32_LANES 16
#define VEC_U64_LANES 8
#define VEC_ISA(name) avx512_##name   /* a body of this ISA's own (simd/<concern>/avx512*.h) */
#define VEC_OP(avx512, avx2) avx512   /* the AVX-512 one of an operation's instructions */
#elif defined(NTT_CY_AVX2)
typedef __m256i vec_t;
#define VEC_U32_LANES 8
#define VEC_U64_LANES 4
#define VEC_ISA(name) avx2_##name     /* a body of this ISA's own (simd/<concern>/avx2.h) */
#define VEC_OP(avx512, avx2) avx2
#endif

#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)

/* ---- One instruction each: the AVX-512 and the AVX2 one side by side (VEC_OP). */

/* memory (unaligned) and constants */
NTT_INLINE vec_t vec_load(const void *p) {
    return VEC_OP(_mm512_loadu_si512, _mm256_loadu_si256)((const vec_t *)p);
}
NTT_INLINE void vec_store(void *p, vec_t x) {
    VEC_OP(_mm512_storeu_si512, _mm256_storeu_si256)((vec_t *)p, x);
}
NTT_INLINE vec_t vec_zero(void) { return VEC_OP(_mm512_setzero_si512, _mm256_setzero_si256)(); }
NTT_INLINE vec_t vec_set1_u32(uint32_t x) {
    return VEC_OP(_mm512_set1_epi32, _mm256_set1_epi32)((int)x);
}
NTT_INLINE vec_t vec_set1_u64(uint64_t x) {
    return VEC_OP(_mm512_set1_epi64, _mm256_set1_epi64x)((long long)x);
}
/* VEC_U64_LANES uint32 values at p widened into the 64-bit lanes */
NTT_INLINE vec_t vec_load_u32_as_u64(const uint32_t *p) {
    return VEC_OP(_mm512_cvtepu32_epi64, _mm256_cvtepu32_epi64)(
        VEC_OP(_mm256_loadu_si256, _mm_loadu_si128)((const void *)p));
}

/* bits */
NTT_INLINE vec_t vec_and(vec_t a, vec_t b) {
    return VEC_OP(_mm512_and_si512, _mm256_and_si256)(a, b);
}
NTT_INLINE vec_t vec_or(vec_t a, vec_t b) { return VEC_OP(_mm512_or_si512, _mm256_or_si256)(a, b); }

/* 32-bit lanes, arithmetic mod 2^32 */
NTT_INLINE vec_t vec_add_u32(vec_t a, vec_t b) {
    return VEC_OP(_mm512_add_epi32, _mm256_add_epi32)(a, b);
}
NTT_INLINE vec_t vec_sub_u32(vec_t a, vec_t b) {
    return VEC_OP(_mm512_sub_epi32, _mm256_sub_epi32)(a, b);
}
NTT_INLINE vec_t vec_mullo_u32(vec_t a, vec_t b) {
    return VEC_OP(_mm512_mullo_epi32, _mm256_mullo_epi32)(a, b);
}
NTT_INLINE vec_t vec_min_u32(vec_t a, vec_t b) {
    return VEC_OP(_mm512_min_epu32, _mm256_min_epu32)(a, b);
}
NTT_INLINE vec_t vec_max_u32(vec_t a, vec_t b) {
    return VEC_OP(_mm512_max_epu32, _mm256_max_epu32)(a, b);
}
/* x's odd lanes moved into the even ones, what vpmuludq reads (the odd lanes left
 * undefined: a copy on AVX-512, zeros on AVX2) */
NTT_INLINE vec_t vec_odd_u32(vec_t x) {
    return VEC_OP(_mm512_shuffle_epi32(x, _MM_PERM_DDBB), _mm256_srli_epi64(x, 32));
}
/* the 64-bit products of the even 32-bit lanes (vpmuludq) */
NTT_INLINE vec_t vec_mul_even_u32(vec_t a, vec_t b) {
    return VEC_OP(_mm512_mul_epu32, _mm256_mul_epu32)(a, b);
}
/* the 32-bit lanes of x's lower (upper) half, zero-extended into 64-bit lanes */
NTT_INLINE vec_t vec_widen_lo_u32(vec_t x) {
    return VEC_OP(_mm512_cvtepu32_epi64, _mm256_cvtepu32_epi64)(
        VEC_OP(_mm512_castsi512_si256, _mm256_castsi256_si128)(x));
}
NTT_INLINE vec_t vec_widen_hi_u32(vec_t x) {
    return VEC_OP(_mm512_cvtepu32_epi64, _mm256_cvtepu32_epi64)(
        VEC_OP(_mm512_extracti64x4_epi64, _mm256_extracti128_si256)(x, 1));
}

/* 64-bit lanes, arithmetic mod 2^64; shifts by a count register give 0 for counts above
 * 63 */
NTT_INLINE vec_t vec_add_u64(vec_t a, vec_t b) {
    return VEC_OP(_mm512_add_epi64, _mm256_add_epi64)(a, b);
}
NTT_INLINE vec_t vec_sub_u64(vec_t a, vec_t b) {
    return VEC_OP(_mm512_sub_epi64, _mm256_sub_epi64)(a, b);
}
NTT_INLINE vec_t vec_shr32_u64(vec_t x) {
    return VEC_OP(_mm512_srli_epi64, _mm256_srli_epi64)(x, 32);
}
NTT_INLINE vec_t vec_shl32_u64(vec_t x) {
    return VEC_OP(_mm512_slli_epi64, _mm256_slli_epi64)(x, 32);
}
NTT_INLINE vec_t vec_srl_u64(vec_t x, __m128i n) {
    return VEC_OP(_mm512_srl_epi64, _mm256_srl_epi64)(x, n);
}
NTT_INLINE vec_t vec_sll_u64(vec_t x, __m128i n) {
    return VEC_OP(_mm512_sll_epi64, _mm256_sll_epi64)(x, n);
}
/* each lane by its own count (n's lane), likewise 0 for counts above 63 */
NTT_INLINE vec_t vec_srlv_u64(vec_t x, vec_t n) {
    return VEC_OP(_mm512_srlv_epi64, _mm256_srlv_epi64)(x, n);
}
NTT_INLINE vec_t vec_sllv_u64(vec_t x, vec_t n) {
    return VEC_OP(_mm512_sllv_epi64, _mm256_sllv_epi64)(x, n);
}

/* x in [0, 2c) -> [0, c) on 32-bit lanes, for 2c <= 2^32: x - c wraps above x exactly
 * when x < c (c = 0: x unchanged). */
NTT_INLINE vec_t vec_fold_u32(vec_t x, vec_t c) {
    return vec_min_u32(x, vec_sub_u32(x, c));
}
#endif

#if defined(NTT_CY_AVX512)
/* ---- Built from several instructions, or taking a flag: AVX-512 */

/* The first min(count, 16) uint32 values at p, zeros after them (nothing past them is
 * read). */
NTT_INLINE vec_t vec_load_u32_upto(const uint32_t *p, size_t count) {
    __mmask16 keep = count >= 16 ? 0xFFFF : (__mmask16)((1u << count) - 1);
    return _mm512_maskz_loadu_epi32(keep, p);
}

/* The first min(count, 8) uint64 values at p, zeros after them. */
NTT_INLINE vec_t vec_load_u64_upto(const uint64_t *p, size_t count) {
    __mmask8 keep = count >= 8 ? 0xFF : (__mmask8)((1u << count) - 1);
    return _mm512_maskz_loadu_epi64(keep, p);
}

/* vec_odd_u32(q) for q loaded from p (here the shuffle; AVX2 loads it from p + 1). */
NTT_INLINE vec_t vec_odd_at_u32(vec_t q, const uint32_t *p) {
    (void)p;
    return vec_odd_u32(q);
}

/* High 32 bits of the 64-bit products a*b, lane by lane, b_odd = vec_odd_u32(b) (a
 * broadcast b is its own).  vpmuludq multiplies the even lanes; the two high halves are
 * merged by one vpermt2d (a shuffle on port 5, where the products and the shifts of a
 * shift-and-blend merge would compete for port 0 on Intel cores). */
NTT_INLINE vec_t vec_mulhi_odd_u32(vec_t a, vec_t b, vec_t b_odd) {
    const __m512i high_halves = _mm512_set_epi32(31, 15, 29, 13, 27, 11, 25, 9,
                                                 23, 7, 21, 5, 19, 3, 17, 1);
    __m512i even = _mm512_mul_epu32(a, b);
    __m512i odd = _mm512_mul_epu32(vec_odd_u32(a), b_odd);
    return _mm512_permutex2var_epi32(even, high_halves, odd);
}

/* The low halves of even's and odd's 64-bit lanes interleaved: lane 2i from even's
 * lane i, lane 2i + 1 from odd's. */
NTT_INLINE vec_t vec_merge_even_u32(vec_t even, vec_t odd) {
    const __m512i low_halves = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8,
                                                22, 6, 20, 4, 18, 2, 16, 0);
    return _mm512_permutex2var_epi32(even, low_halves, odd);
}

/* (a - b) mod p and (a + b) mod p for a, b in [0, p), any p < 2^32 (narrow unused). */
NTT_INLINE vec_t vec_sub_mod_u32(vec_t a, vec_t b, vec_t p, int narrow) {
    (void)narrow;
    __m512i r = _mm512_sub_epi32(a, b);
    return _mm512_mask_add_epi32(r, _mm512_cmplt_epu32_mask(a, b), r, p);
}

NTT_INLINE vec_t vec_add_mod_u32(vec_t a, vec_t b, vec_t p, int narrow) {
    return vec_sub_mod_u32(a, _mm512_sub_epi32(p, b), p, narrow);
}

/* The low halves of lo's then hi's 64-bit lanes, in order, as one vector of 32-bit
 * lanes. */
NTT_INLINE vec_t vec_narrow_u64(vec_t lo, vec_t hi) {
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)),
                              _mm512_cvtepi64_epi32(hi), 1);
}

/* The same for the high halves. */
NTT_INLINE vec_t vec_narrow_high_u64(vec_t lo, vec_t hi) {
    return vec_narrow_u64(_mm512_srli_epi64(lo, 32), _mm512_srli_epi64(hi, 32));
}

/* min, max of 64-bit lanes (unsigned) */
NTT_INLINE vec_t vec_min_u64(vec_t a, vec_t b) { return _mm512_min_epu64(a, b); }
NTT_INLINE vec_t vec_max_u64(vec_t a, vec_t b) { return _mm512_max_epu64(a, b); }

/* a*b mod 2^64 (vpmullq); vec_mul_u64_u32: the same for b < 2^32. */
NTT_INLINE vec_t vec_mullo_u64(vec_t a, vec_t b) { return _mm512_mullo_epi64(a, b); }
NTT_INLINE vec_t vec_mul_u64_u32(vec_t a, vec_t b) { return _mm512_mullo_epi64(a, b); }

/* x in [0, 2c) -> [0, c), for 2c <= 2^64: x - c wraps above x exactly when x < c. */
NTT_INLINE vec_t vec_fold_u64(vec_t x, vec_t c) {
    return _mm512_min_epu64(x, _mm512_sub_epi64(x, c));
}

/* x + y where a < b, x elsewhere; x + 1 where a < b; x - y where a >= b (unsigned). */
NTT_INLINE vec_t vec_add_if_below_u64(vec_t x, vec_t a, vec_t b, vec_t y) {
    return _mm512_mask_add_epi64(x, _mm512_cmplt_epu64_mask(a, b), x, y);
}

/* (a - b) mod p for a, b in [0, p], any p < 2^64.  small (p < 2^63): r = a - b, and
 * min(r, r + p) (two plain uops, cheaper than a compare into a mask and a masked add):
 * a >= b gives r <= p and r + p < 2^64 above it; a < b gives r >= 2^64 - p > p, and
 * r + p wraps to a - b + p below it. */
NTT_INLINE vec_t vec_sub_mod_u64(vec_t a, vec_t b, vec_t p, int small) {
    vec_t r = _mm512_sub_epi64(a, b);
    if (small)
        return _mm512_min_epu64(r, _mm512_add_epi64(r, p));
    return vec_add_if_below_u64(r, a, b, p);
}

NTT_INLINE vec_t vec_inc_if_below_u64(vec_t x, vec_t a, vec_t b) {
    return _mm512_mask_add_epi64(x, _mm512_cmplt_epu64_mask(a, b), x, _mm512_set1_epi64(1));
}

NTT_INLINE vec_t vec_sub_unless_below_u64(vec_t x, vec_t a, vec_t b, vec_t y) {
    return _mm512_mask_sub_epi64(x, _mm512_cmpge_epu64_mask(a, b), x, y);
}

/* The largest 64-bit lane. */
NTT_INLINE uint64_t vec_max_lane_u64(vec_t x) { return _mm512_reduce_max_epu64(x); }

#elif defined(NTT_CY_AVX2)
/* ---- Built from several instructions, or taking a flag: AVX2 */

/* The first min(count, 8) uint32 values at p, zeros after them (nothing past them is
 * read: the one vector across the end goes through a zeroed copy). */
NTT_INLINE vec_t vec_load_u32_upto(const uint32_t *p, size_t count) {
    if (count >= 8)
        return vec_load(p);
    uint32_t part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t k = 0; k < count; k++)
        part[k] = p[k];
    return vec_load(part);
}

/* The first min(count, 4) uint64 values at p, zeros after them. */
NTT_INLINE vec_t vec_load_u64_upto(const uint64_t *p, size_t count) {
    if (count >= 4)
        return vec_load(p);
    uint64_t part[4] = {0, 0, 0, 0};
    for (size_t k = 0; k < count; k++)
        part[k] = p[k];
    return vec_load(part);
}

/* vec_odd_u32(q) for q loaded from p: a load one element further on, in place of a
 * shift per product (p[8] must be readable: the twiddle tables are, one vector past
 * their end, TABLE_TAIL_BYTES in ntt_cy/_support/aligned.pyx). */
NTT_INLINE vec_t vec_odd_at_u32(vec_t q, const uint32_t *p) {
    (void)q;
    return vec_load(p + 1);
}

/* High 32 bits of the 64-bit products a*b, lane by lane, b_odd = vec_odd_u32(b) (a
 * broadcast b is its own). */
NTT_INLINE vec_t vec_mulhi_odd_u32(vec_t a, vec_t b, vec_t b_odd) {
    __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(a, b), 32);
    __m256i odd = _mm256_mul_epu32(vec_odd_u32(a), b_odd);
    return _mm256_blend_epi32(even, odd, 0xAA);
}

/* The low halves of even's and odd's 64-bit lanes interleaved. */
NTT_INLINE vec_t vec_merge_even_u32(vec_t even, vec_t odd) {
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

/* x - y for x, y < 2^32 whose true difference lies in [-p, p) -> [0, p): p is added
 * where x < y. */
NTT_INLINE vec_t vec_sub_wrap_u32(vec_t x, vec_t y, vec_t p) {
    return _mm256_add_epi32(_mm256_sub_epi32(x, y), _mm256_and_si256(avx2_below_u32(x, y), p));
}

/* (a - b) mod p and (a + b) mod p for a, b in [0, p), any p < 2^32.  narrow (p < 2^31):
 * a - b + p and a + b stay below 2^32, so one unsigned min picks the residue; else the
 * flipped compare. */
NTT_INLINE vec_t vec_sub_mod_u32(vec_t a, vec_t b, vec_t p, int narrow) {
    if (narrow) {
        __m256i d = _mm256_sub_epi32(a, b);
        return _mm256_min_epu32(d, _mm256_add_epi32(d, p));
    }
    return vec_sub_wrap_u32(a, b, p);
}

NTT_INLINE vec_t vec_add_mod_u32(vec_t a, vec_t b, vec_t p, int narrow) {
    if (narrow) {
        __m256i s = _mm256_add_epi32(a, b);
        return _mm256_min_epu32(s, _mm256_sub_epi32(s, p));
    }
    return vec_sub_wrap_u32(a, _mm256_sub_epi32(p, b), p);
}

/* The low halves of lo's then hi's 64-bit lanes, in order: per 128 bits (lo0 lo1 hi0
 * hi1 | lo2 lo3 hi2 hi3), then the middle 64-bit pairs swapped. */
NTT_INLINE vec_t vec_narrow_u64(vec_t lo, vec_t hi) {
    __m256i x = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(lo),
                                                      _mm256_castsi256_ps(hi), 0x88));
    return _mm256_permute4x64_epi64(x, 0xD8);
}

/* The same for the high halves. */
NTT_INLINE vec_t vec_narrow_high_u64(vec_t lo, vec_t hi) {
    __m256i x = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(lo),
                                                      _mm256_castsi256_ps(hi), 0xDD));
    return _mm256_permute4x64_epi64(x, 0xD8);
}

/* All ones where a < b as unsigned 64-bit values; min, max; a*b mod 2^64 (AVX2 has no
 * vpmullq): simd/avx2_unsigned.h. */
NTT_INLINE vec_t vec_below_u64(vec_t a, vec_t b) { return avx2_below_u64(a, b); }
NTT_INLINE vec_t vec_min_u64(vec_t a, vec_t b) { return avx2_min_u64(a, b); }
NTT_INLINE vec_t vec_max_u64(vec_t a, vec_t b) { return avx2_max_u64(a, b); }
NTT_INLINE vec_t vec_mullo_u64(vec_t a, vec_t b) { return avx2_mullo_u64(a, b); }

/* a*b mod 2^64 for b < 2^32: a0 b + (a1 b) 2^32. */
NTT_INLINE vec_t vec_mul_u64_u32(vec_t a, vec_t b) {
    return _mm256_add_epi64(_mm256_mul_epu32(a, b),
                            _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b), 32));
}

/* where x's sign bit is set (as a signed 64-bit lane), then_; else otherwise */
NTT_INLINE vec_t vec_if_negative_u64(vec_t x, vec_t then_, vec_t otherwise) {
    return _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(otherwise),
                                                _mm256_castsi256_pd(then_),
                                                _mm256_castsi256_pd(x)));
}

/* x in [0, 2c) -> [0, c), for c <= 2^63: x - c lies in [-c, c), exact as a signed
 * value, and its sign picks. */
NTT_INLINE vec_t vec_fold_u64(vec_t x, vec_t c) {
    __m256i t = _mm256_sub_epi64(x, c);
    return vec_if_negative_u64(t, x, t);
}

/* (a - b) mod p for a, b in [0, p], any p < 2^64.  small (p <= 2^63): a - b in
 * (-2^63, 2^63) exactly, and its sign picks; else the flipped compare. */
NTT_INLINE vec_t vec_sub_mod_u64(vec_t a, vec_t b, vec_t p, int small) {
    __m256i r = _mm256_sub_epi64(a, b);
    if (small)
        return vec_if_negative_u64(r, _mm256_add_epi64(r, p), r);
    return _mm256_add_epi64(r, _mm256_and_si256(vec_below_u64(a, b), p));
}

/* x + y where a < b, x elsewhere; x + 1 where a < b; x - y where a >= b (unsigned). */
NTT_INLINE vec_t vec_add_if_below_u64(vec_t x, vec_t a, vec_t b, vec_t y) {
    return _mm256_add_epi64(x, _mm256_and_si256(vec_below_u64(a, b), y));
}

NTT_INLINE vec_t vec_inc_if_below_u64(vec_t x, vec_t a, vec_t b) {
    return _mm256_sub_epi64(x, vec_below_u64(a, b));   /* all ones = -1 */
}

NTT_INLINE vec_t vec_sub_unless_below_u64(vec_t x, vec_t a, vec_t b, vec_t y) {
    return _mm256_sub_epi64(x, _mm256_andnot_si256(vec_below_u64(a, b), y));
}

/* The largest 64-bit lane. */
NTT_INLINE uint64_t vec_max_lane_u64(vec_t x) {
    uint64_t lanes[4], top = 0;
    _mm256_storeu_si256((__m256i *)lanes, x);
    for (int k = 0; k < 4; k++)
        top = lanes[k] > top ? lanes[k] : top;
    return top;
}

#endif

#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)
/* The largest 32-bit lane: the larger half of each 64-bit lane, then the largest of
 * those. */
NTT_INLINE uint64_t vec_max_lane_u32(vec_t x) {
    return vec_max_lane_u64(vec_max_u64(vec_and(x, vec_set1_u64(0xffffffffu)),
                                        vec_shr32_u64(x)));
}
#endif

#endif
