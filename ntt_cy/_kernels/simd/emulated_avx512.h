/* A model of the AVX-512 intrinsics the kernel headers use, for the
 * build_avx512_emulated module (see simd/select.h): the AVX-512 bodies of simd/ then run
 * on any x86-64 with AVX2, so the tests check their arithmetic and data movement bit for
 * bit against the other builds on machines without AVX-512.  It models results, not
 * speed.
 *
 * Each function follows the instruction's definition in the Intel Intrinsics Guide
 * lane by lane.  Where the hardware is stricter than a plain C loop, the model is too:
 * an aligned load traps on a misaligned address (the hardware raises #GP), masked loads
 * read only the selected elements (the hardware suppresses faults on the others), and
 * the upper half of a widened 256-bit value holds a pattern rather than zeros, so
 * code that reads it gives wrong results here as it may on the hardware.
 *
 * The intrinsics' names are macros for ntt_emu_* functions on a pair of AVX2 registers
 * (lo: 64-bit elements 0-3 / 32-bit elements 0-7; hi: the rest), each written with
 * the AVX2 instructions of the same rule (most work per 128-bit lane, as AVX-512's
 * do) or element by element where AVX2 has none (IFMA), not with gcc's generic
 * 64-byte vectors, which lower the shuffles and masks to single elements.  <immintrin.h> is included first, so its own declarations keep
 * their names.
 */
#ifndef NTT_CY_AVX512_EMULATED_H
#define NTT_CY_AVX512_EMULATED_H
#include <immintrin.h>
#include <stdint.h>
#include "simd/avx2_unsigned.h"

#ifndef NTT_INLINE
#define NTT_INLINE static inline __attribute__((always_inline))
#endif

typedef struct {
    __m256i lo, hi;
} ntt_emu_512;

typedef uint8_t ntt_emu_mask8;
typedef uint16_t ntt_emu_mask16;

#define NTT_EMU_PAIR(expr_lo, expr_hi) ((ntt_emu_512){(expr_lo), (expr_hi)})
#define NTT_EMU_HALVES(a, b, fn) NTT_EMU_PAIR(fn((a).lo, (b).lo), fn((a).hi, (b).hi))

/* ---- loads, stores, constants */

NTT_INLINE ntt_emu_512 ntt_emu_loadu(const void *p) {
    return NTT_EMU_PAIR(_mm256_loadu_si256((const __m256i *)p),
                        _mm256_loadu_si256((const __m256i *)((const char *)p + 32)));
}

NTT_INLINE ntt_emu_512 ntt_emu_load(const void *p) {
    if ((uintptr_t)p & 63)
        __builtin_trap();
    return ntt_emu_loadu(p);
}

NTT_INLINE void ntt_emu_storeu(void *p, ntt_emu_512 a) {
    _mm256_storeu_si256((__m256i *)p, a.lo);
    _mm256_storeu_si256((__m256i *)((char *)p + 32), a.hi);
}

NTT_INLINE ntt_emu_512 ntt_emu_set1_epi64(long long v) {
    return NTT_EMU_PAIR(_mm256_set1_epi64x(v), _mm256_set1_epi64x(v));
}

NTT_INLINE ntt_emu_512 ntt_emu_set1_epi32(int v) {
    return NTT_EMU_PAIR(_mm256_set1_epi32(v), _mm256_set1_epi32(v));
}

NTT_INLINE ntt_emu_512 ntt_emu_setzero(void) { return ntt_emu_set1_epi64(0); }

/* _mm512_set_epi32(e15, ..., e0): the last argument is element 0. */
NTT_INLINE ntt_emu_512 ntt_emu_set_epi32(int e15, int e14, int e13, int e12, int e11, int e10,
                                         int e9, int e8, int e7, int e6, int e5, int e4,
                                         int e3, int e2, int e1, int e0) {
    return NTT_EMU_PAIR(_mm256_setr_epi32(e0, e1, e2, e3, e4, e5, e6, e7),
                        _mm256_setr_epi32(e8, e9, e10, e11, e12, e13, e14, e15));
}

/* ---- masks: mask bits <-> lanes of all ones or zero */

NTT_INLINE ntt_emu_mask8 ntt_emu_mask_of64(ntt_emu_512 lanes) {
    return (ntt_emu_mask8)(_mm256_movemask_pd(_mm256_castsi256_pd(lanes.lo)) |
                           _mm256_movemask_pd(_mm256_castsi256_pd(lanes.hi)) << 4);
}

NTT_INLINE ntt_emu_mask16 ntt_emu_mask_of32(ntt_emu_512 lanes) {
    return (ntt_emu_mask16)(_mm256_movemask_ps(_mm256_castsi256_ps(lanes.lo)) |
                            _mm256_movemask_ps(_mm256_castsi256_ps(lanes.hi)) << 8);
}

NTT_INLINE __m256i ntt_emu_bits64(unsigned k) {   /* 4 mask bits -> 4 lanes */
    const __m256i bits = _mm256_setr_epi64x(1, 2, 4, 8);
    return _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_set1_epi64x(k & 15), bits), bits);
}

NTT_INLINE __m256i ntt_emu_bits32(unsigned k) {   /* 8 mask bits -> 8 lanes */
    const __m256i bits = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
    return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32((int)(k & 255)), bits), bits);
}

NTT_INLINE ntt_emu_512 ntt_emu_lanes_of64(ntt_emu_mask8 k) {
    return NTT_EMU_PAIR(ntt_emu_bits64(k), ntt_emu_bits64(k >> 4));
}

NTT_INLINE ntt_emu_512 ntt_emu_lanes_of32(ntt_emu_mask16 k) {
    return NTT_EMU_PAIR(ntt_emu_bits32(k), ntt_emu_bits32(k >> 8));
}

/* masked-off elements are not read (vpmaskmov suppresses their faults, as AVX-512 does) */
NTT_INLINE ntt_emu_512 ntt_emu_maskz_loadu_epi64(ntt_emu_mask8 k, const void *p) {
    const long long *q = (const long long *)p;
    return NTT_EMU_PAIR(_mm256_maskload_epi64(q, ntt_emu_bits64(k)),
                        _mm256_maskload_epi64(q + 4, ntt_emu_bits64(k >> 4)));
}

NTT_INLINE ntt_emu_512 ntt_emu_maskz_loadu_epi32(ntt_emu_mask16 k, const void *p) {
    const int *d = (const int *)p;
    return NTT_EMU_PAIR(_mm256_maskload_epi32(d, ntt_emu_bits32(k)),
                        _mm256_maskload_epi32(d + 8, ntt_emu_bits32(k >> 8)));
}

/* ---- lane arithmetic */

NTT_INLINE ntt_emu_512 ntt_emu_add_epi64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_add_epi64);
}
NTT_INLINE ntt_emu_512 ntt_emu_sub_epi64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_sub_epi64);
}
NTT_INLINE ntt_emu_512 ntt_emu_add_epi32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_add_epi32);
}
NTT_INLINE ntt_emu_512 ntt_emu_sub_epi32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_sub_epi32);
}
NTT_INLINE ntt_emu_512 ntt_emu_and(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_and_si256);
}
NTT_INLINE ntt_emu_512 ntt_emu_or(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_or_si256);
}
NTT_INLINE ntt_emu_512 ntt_emu_min_epu32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_min_epu32);
}
NTT_INLINE ntt_emu_512 ntt_emu_max_epu32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_max_epu32);
}
/* vpmuludq: the low 32 bits of each 64-bit lane, multiplied to 64 bits */
NTT_INLINE ntt_emu_512 ntt_emu_mul_epu32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_mul_epu32);
}
NTT_INLINE ntt_emu_512 ntt_emu_mullo_epi32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_mullo_epi32);
}

/* a > b as unsigned lanes, min and max (simd/avx2_unsigned.h) */
NTT_INLINE __m256i ntt_emu_gt_epu64(__m256i a, __m256i b) { return avx2_below_u64(b, a); }
NTT_INLINE __m256i ntt_emu_gt_epu32(__m256i a, __m256i b) { return avx2_below_u32(b, a); }
NTT_INLINE ntt_emu_512 ntt_emu_min_epu64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, avx2_min_u64);
}
NTT_INLINE ntt_emu_512 ntt_emu_max_epu64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, avx2_max_u64);
}

/* vpmullq: the low 64 bits of a b (simd/avx2_unsigned.h) */
NTT_INLINE ntt_emu_512 ntt_emu_mullo_epi64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, avx2_mullo_u64);
}

/* shifts: vpsrlq / vpsllq by a register give 0 for counts above 63, as AVX-512's do */
NTT_INLINE ntt_emu_512 ntt_emu_srl_epi64(ntt_emu_512 a, __m128i count) {
    return NTT_EMU_PAIR(_mm256_srl_epi64(a.lo, count), _mm256_srl_epi64(a.hi, count));
}
NTT_INLINE ntt_emu_512 ntt_emu_sll_epi64(ntt_emu_512 a, __m128i count) {
    return NTT_EMU_PAIR(_mm256_sll_epi64(a.lo, count), _mm256_sll_epi64(a.hi, count));
}
/* vpsrlvq / vpsllvq: each lane by its own count, 0 above 63 in both ISAs */
NTT_INLINE ntt_emu_512 ntt_emu_srlv_epi64(ntt_emu_512 a, ntt_emu_512 count) {
    return NTT_EMU_PAIR(_mm256_srlv_epi64(a.lo, count.lo), _mm256_srlv_epi64(a.hi, count.hi));
}
NTT_INLINE ntt_emu_512 ntt_emu_sllv_epi64(ntt_emu_512 a, ntt_emu_512 count) {
    return NTT_EMU_PAIR(_mm256_sllv_epi64(a.lo, count.lo), _mm256_sllv_epi64(a.hi, count.hi));
}
/* the immediate forms read the count's low 8 bits (imm8) */
NTT_INLINE ntt_emu_512 ntt_emu_srli_epi64(ntt_emu_512 a, unsigned n) {
    return ntt_emu_srl_epi64(a, _mm_cvtsi64_si128((long long)(n & 255)));
}
NTT_INLINE ntt_emu_512 ntt_emu_slli_epi64(ntt_emu_512 a, unsigned n) {
    return ntt_emu_sll_epi64(a, _mm_cvtsi64_si128((long long)(n & 255)));
}

/* vpmadd52luq / vpmadd52huq: a + the low / high 52 bits of the 104-bit product of
 * the low 52 bits of b and c (no AVX2 counterpart: element by element) */
NTT_INLINE ntt_emu_512 ntt_emu_madd52(ntt_emu_512 a, ntt_emu_512 b, ntt_emu_512 c, int high) {
    const uint64_t low52 = (1ULL << 52) - 1;
    uint64_t x[8], y[8], z[8];
    ntt_emu_storeu(x, a);
    ntt_emu_storeu(y, b);
    ntt_emu_storeu(z, c);
    for (int i = 0; i < 8; i++) {
        unsigned __int128 t = (unsigned __int128)(y[i] & low52) * (z[i] & low52);
        x[i] += high ? (uint64_t)(t >> 52) : (uint64_t)t & low52;
    }
    return ntt_emu_loadu(x);
}

/* ---- compares to masks, masked arithmetic */

NTT_INLINE ntt_emu_mask8 ntt_emu_cmpgt_epu64_mask(ntt_emu_512 a, ntt_emu_512 b) {
    return ntt_emu_mask_of64(NTT_EMU_HALVES(a, b, ntt_emu_gt_epu64));
}
NTT_INLINE ntt_emu_mask8 ntt_emu_cmplt_epu64_mask(ntt_emu_512 a, ntt_emu_512 b) {
    return ntt_emu_cmpgt_epu64_mask(b, a);
}
NTT_INLINE ntt_emu_mask8 ntt_emu_cmpge_epu64_mask(ntt_emu_512 a, ntt_emu_512 b) {
    return (ntt_emu_mask8)~ntt_emu_cmpgt_epu64_mask(b, a);
}
NTT_INLINE ntt_emu_mask16 ntt_emu_cmplt_epu32_mask(ntt_emu_512 a, ntt_emu_512 b) {
    return ntt_emu_mask_of32(NTT_EMU_HALVES(b, a, ntt_emu_gt_epu32));
}
NTT_INLINE ntt_emu_mask8 ntt_emu_test_epi64_mask(ntt_emu_512 a, ntt_emu_512 b) {
    ntt_emu_512 both = ntt_emu_and(a, b), zero = ntt_emu_setzero();
    return (ntt_emu_mask8)~ntt_emu_mask_of64(NTT_EMU_HALVES(both, zero, _mm256_cmpeq_epi64));
}

/* a op b where k selects, src elsewhere */
NTT_INLINE ntt_emu_512 ntt_emu_where(ntt_emu_512 take, ntt_emu_512 x, ntt_emu_512 src) {
    return NTT_EMU_PAIR(_mm256_blendv_epi8(src.lo, x.lo, take.lo),
                        _mm256_blendv_epi8(src.hi, x.hi, take.hi));
}
NTT_INLINE ntt_emu_512 ntt_emu_mask_add_epi64(ntt_emu_512 src, ntt_emu_mask8 k, ntt_emu_512 a,
                                              ntt_emu_512 b) {
    return ntt_emu_where(ntt_emu_lanes_of64(k), ntt_emu_add_epi64(a, b), src);
}
NTT_INLINE ntt_emu_512 ntt_emu_mask_sub_epi64(ntt_emu_512 src, ntt_emu_mask8 k, ntt_emu_512 a,
                                              ntt_emu_512 b) {
    return ntt_emu_where(ntt_emu_lanes_of64(k), ntt_emu_sub_epi64(a, b), src);
}
NTT_INLINE ntt_emu_512 ntt_emu_mask_add_epi32(ntt_emu_512 src, ntt_emu_mask16 k, ntt_emu_512 a,
                                              ntt_emu_512 b) {
    return ntt_emu_where(ntt_emu_lanes_of32(k), ntt_emu_add_epi32(a, b), src);
}

/* ---- data movement */

/* vpshufd: within each 128-bit lane, element j takes element (imm >> 2j) & 3 (the AVX2
 * instruction's rule; imm must be a constant) */
#define ntt_emu_shuffle_epi32(a, imm)                                                \
    __extension__({                                                                  \
        ntt_emu_512 x_ = (a);                                                        \
        NTT_EMU_PAIR(_mm256_shuffle_epi32(x_.lo, (imm)), _mm256_shuffle_epi32(x_.hi, (imm))); \
    })

/* vshufi64x2 / vshufi32x4 (the same data movement): 128-bit lanes 0, 1 from a, 2, 3
 * from b, lane j chosen by bits 2j..2j+1 of imm (a constant).  vperm2i128 on (lo, hi)
 * numbers their 128-bit lanes 0-3 as imm does. */
#define NTT_EMU_LANE_PAIR(x, imm2) \
    _mm256_permute2x128_si256((x).lo, (x).hi, ((imm2) & 3) | ((imm2) >> 2 & 3) << 4)
#define ntt_emu_shuffle_128(a, b, imm)                                               \
    __extension__({                                                                  \
        ntt_emu_512 a_ = (a), b_ = (b);                                              \
        NTT_EMU_PAIR(NTT_EMU_LANE_PAIR(a_, (imm) & 15), NTT_EMU_LANE_PAIR(b_, (imm) >> 4 & 15)); \
    })

/* vpunpck{l,h}{q,d}q: per 128-bit lane, as the AVX2 instructions */
NTT_INLINE ntt_emu_512 ntt_emu_unpacklo_epi64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_unpacklo_epi64);
}
NTT_INLINE ntt_emu_512 ntt_emu_unpackhi_epi64(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_unpackhi_epi64);
}
NTT_INLINE ntt_emu_512 ntt_emu_unpacklo_epi32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_unpacklo_epi32);
}
NTT_INLINE ntt_emu_512 ntt_emu_unpackhi_epi32(ntt_emu_512 a, ntt_emu_512 b) {
    return NTT_EMU_HALVES(a, b, _mm256_unpackhi_epi32);
}

/* Element j of the 16 32-bit elements of a, chosen by k & 15 per lane of k (one half's
 * indices): vpermd on each half of a, then bit 3 picks the half. */
NTT_INLINE __m256i ntt_emu_pick32(ntt_emu_512 a, __m256i k) {
    __m256i upper = _mm256_srai_epi32(_mm256_slli_epi32(k, 28), 31);
    return _mm256_blendv_epi8(_mm256_permutevar8x32_epi32(a.lo, k),
                              _mm256_permutevar8x32_epi32(a.hi, k), upper);
}

/* The same for the 8 64-bit elements, k & 7 per 64-bit lane: as 32-bit indices 2e, 2e + 1. */
NTT_INLINE __m256i ntt_emu_pick64(ntt_emu_512 a, __m256i k) {
    __m256i e2 = _mm256_slli_epi64(_mm256_and_si256(k, _mm256_set1_epi64x(7)), 1);
    __m256i k32 = _mm256_or_si256(e2, _mm256_slli_epi64(_mm256_add_epi64(e2, _mm256_set1_epi64x(1)),
                                                        32));
    return ntt_emu_pick32(a, k32);
}

/* vpermt2d / vpermt2q: element j from (idx bit 4 / bit 3 ? b : a)[idx & 15 / 7] */
NTT_INLINE ntt_emu_512 ntt_emu_permutex2var_epi32(ntt_emu_512 a, ntt_emu_512 idx,
                                                  ntt_emu_512 b) {
    __m256i from_b_lo = _mm256_srai_epi32(_mm256_slli_epi32(idx.lo, 27), 31);
    __m256i from_b_hi = _mm256_srai_epi32(_mm256_slli_epi32(idx.hi, 27), 31);
    return NTT_EMU_PAIR(_mm256_blendv_epi8(ntt_emu_pick32(a, idx.lo), ntt_emu_pick32(b, idx.lo),
                                           from_b_lo),
                        _mm256_blendv_epi8(ntt_emu_pick32(a, idx.hi), ntt_emu_pick32(b, idx.hi),
                                           from_b_hi));
}
NTT_INLINE ntt_emu_512 ntt_emu_permutex2var_epi64(ntt_emu_512 a, ntt_emu_512 idx,
                                                  ntt_emu_512 b) {
    const __m256i bit3 = _mm256_set1_epi64x(8);
    __m256i from_b_lo = _mm256_cmpeq_epi64(_mm256_and_si256(idx.lo, bit3), bit3);
    __m256i from_b_hi = _mm256_cmpeq_epi64(_mm256_and_si256(idx.hi, bit3), bit3);
    return NTT_EMU_PAIR(_mm256_blendv_epi8(ntt_emu_pick64(a, idx.lo), ntt_emu_pick64(b, idx.lo),
                                           from_b_lo),
                        _mm256_blendv_epi8(ntt_emu_pick64(a, idx.hi), ntt_emu_pick64(b, idx.hi),
                                           from_b_hi));
}

/* vpermd / vpermq: element j = a[idx[j]] (note the argument order: idx first) */
NTT_INLINE ntt_emu_512 ntt_emu_permutexvar_epi32(ntt_emu_512 idx, ntt_emu_512 a) {
    return NTT_EMU_PAIR(ntt_emu_pick32(a, idx.lo), ntt_emu_pick32(a, idx.hi));
}
NTT_INLINE ntt_emu_512 ntt_emu_permutexvar_epi64(ntt_emu_512 idx, ntt_emu_512 a) {
    return NTT_EMU_PAIR(ntt_emu_pick64(a, idx.lo), ntt_emu_pick64(a, idx.hi));
}

NTT_INLINE uint64_t ntt_emu_reduce_max_epu64(ntt_emu_512 a) {
    uint64_t q[8], top = 0;
    ntt_emu_storeu(q, a);
    for (int i = 0; i < 8; i++)
        top = q[i] > top ? q[i] : top;
    return top;
}

/* ---- 256-bit halves */

/* vpmovqd: each 64-bit lane truncated to 32 bits */
NTT_INLINE __m256i ntt_emu_cvtepi64_epi32(ntt_emu_512 a) {
    const __m256i low_dwords = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    __m128i lo = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a.lo, low_dwords));
    __m128i hi = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(a.hi, low_dwords));
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* vpmovzxdq: eight 32-bit values zero-extended to 64 bits */
NTT_INLINE ntt_emu_512 ntt_emu_cvtepu32_epi64(__m256i a) {
    return NTT_EMU_PAIR(_mm256_cvtepu32_epi64(_mm256_castsi256_si128(a)),
                        _mm256_cvtepu32_epi64(_mm256_extracti128_si256(a, 1)));
}

/* the upper half is undefined on the hardware: a pattern here, so a reader of it fails */
NTT_INLINE ntt_emu_512 ntt_emu_castsi256_si512(__m256i a) {
    return NTT_EMU_PAIR(a, _mm256_set1_epi64x((long long)0xdeadbeefdeadbeefULL));
}

NTT_INLINE ntt_emu_512 ntt_emu_inserti64x4(ntt_emu_512 a, __m256i b, int half) {
    if (half & 1)
        a.hi = b;
    else
        a.lo = b;
    return a;
}

/* the lower half, as it is */
NTT_INLINE __m256i ntt_emu_castsi512_si256(ntt_emu_512 a) {
    return a.lo;
}

NTT_INLINE __m256i ntt_emu_extracti64x4(ntt_emu_512 a, int half) {
    return half & 1 ? a.hi : a.lo;
}

/* ---- the intrinsics' names (each #undef first: at -O0 gcc's own headers define some of
 * them as macros) */
#undef __m512i
#define __m512i ntt_emu_512
#undef __mmask8
#define __mmask8 ntt_emu_mask8
#undef __mmask16
#define __mmask16 ntt_emu_mask16
#undef _mm512_loadu_si512
#define _mm512_loadu_si512 ntt_emu_loadu
#undef _mm512_load_si512
#define _mm512_load_si512 ntt_emu_load
#undef _mm512_storeu_si512
#define _mm512_storeu_si512 ntt_emu_storeu
#undef _mm512_maskz_loadu_epi64
#define _mm512_maskz_loadu_epi64 ntt_emu_maskz_loadu_epi64
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32 ntt_emu_maskz_loadu_epi32
#undef _mm512_set1_epi64
#define _mm512_set1_epi64 ntt_emu_set1_epi64
#undef _mm512_set1_epi32
#define _mm512_set1_epi32 ntt_emu_set1_epi32
#undef _mm512_setzero_si512
#define _mm512_setzero_si512 ntt_emu_setzero
#undef _mm512_set_epi32
#define _mm512_set_epi32 ntt_emu_set_epi32
#undef _mm512_add_epi64
#define _mm512_add_epi64 ntt_emu_add_epi64
#undef _mm512_sub_epi64
#define _mm512_sub_epi64 ntt_emu_sub_epi64
#undef _mm512_add_epi32
#define _mm512_add_epi32 ntt_emu_add_epi32
#undef _mm512_sub_epi32
#define _mm512_sub_epi32 ntt_emu_sub_epi32
#undef _mm512_and_si512
#define _mm512_and_si512 ntt_emu_and
#undef _mm512_or_si512
#define _mm512_or_si512 ntt_emu_or
#undef _mm512_min_epu64
#define _mm512_min_epu64 ntt_emu_min_epu64
#undef _mm512_max_epu64
#define _mm512_max_epu64 ntt_emu_max_epu64
#undef _mm512_min_epu32
#define _mm512_min_epu32 ntt_emu_min_epu32
#undef _mm512_max_epu32
#define _mm512_max_epu32 ntt_emu_max_epu32
#undef _mm512_mul_epu32
#define _mm512_mul_epu32 ntt_emu_mul_epu32
#undef _mm512_mullo_epi32
#define _mm512_mullo_epi32 ntt_emu_mullo_epi32
#undef _mm512_mullo_epi64
#define _mm512_mullo_epi64 ntt_emu_mullo_epi64
#undef _mm512_srli_epi64
#define _mm512_srli_epi64 ntt_emu_srli_epi64
#undef _mm512_slli_epi64
#define _mm512_slli_epi64 ntt_emu_slli_epi64
#undef _mm512_srl_epi64
#define _mm512_srl_epi64 ntt_emu_srl_epi64
#undef _mm512_sll_epi64
#define _mm512_sll_epi64 ntt_emu_sll_epi64
#undef _mm512_srlv_epi64
#define _mm512_srlv_epi64 ntt_emu_srlv_epi64
#undef _mm512_sllv_epi64
#define _mm512_sllv_epi64 ntt_emu_sllv_epi64
#undef _mm512_madd52lo_epu64
#define _mm512_madd52lo_epu64(a, b, c) ntt_emu_madd52(a, b, c, 0)
#undef _mm512_madd52hi_epu64
#define _mm512_madd52hi_epu64(a, b, c) ntt_emu_madd52(a, b, c, 1)
#undef _mm512_cmplt_epu64_mask
#define _mm512_cmplt_epu64_mask ntt_emu_cmplt_epu64_mask
#undef _mm512_cmpgt_epu64_mask
#define _mm512_cmpgt_epu64_mask ntt_emu_cmpgt_epu64_mask
#undef _mm512_cmpge_epu64_mask
#define _mm512_cmpge_epu64_mask ntt_emu_cmpge_epu64_mask
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask ntt_emu_cmplt_epu32_mask
#undef _mm512_test_epi64_mask
#define _mm512_test_epi64_mask ntt_emu_test_epi64_mask
#undef _mm512_mask_add_epi64
#define _mm512_mask_add_epi64 ntt_emu_mask_add_epi64
#undef _mm512_mask_sub_epi64
#define _mm512_mask_sub_epi64 ntt_emu_mask_sub_epi64
#undef _mm512_mask_add_epi32
#define _mm512_mask_add_epi32 ntt_emu_mask_add_epi32
#undef _mm512_shuffle_epi32
#define _mm512_shuffle_epi32(a, imm) ntt_emu_shuffle_epi32(a, (int)(imm))
#undef _mm512_shuffle_i64x2
#define _mm512_shuffle_i64x2 ntt_emu_shuffle_128
#undef _mm512_shuffle_i32x4
#define _mm512_shuffle_i32x4 ntt_emu_shuffle_128
#undef _mm512_unpacklo_epi64
#define _mm512_unpacklo_epi64 ntt_emu_unpacklo_epi64
#undef _mm512_unpackhi_epi64
#define _mm512_unpackhi_epi64 ntt_emu_unpackhi_epi64
#undef _mm512_unpacklo_epi32
#define _mm512_unpacklo_epi32 ntt_emu_unpacklo_epi32
#undef _mm512_unpackhi_epi32
#define _mm512_unpackhi_epi32 ntt_emu_unpackhi_epi32
#undef _mm512_permutex2var_epi32
#define _mm512_permutex2var_epi32 ntt_emu_permutex2var_epi32
#undef _mm512_permutex2var_epi64
#define _mm512_permutex2var_epi64 ntt_emu_permutex2var_epi64
#undef _mm512_permutexvar_epi32
#define _mm512_permutexvar_epi32 ntt_emu_permutexvar_epi32
#undef _mm512_permutexvar_epi64
#define _mm512_permutexvar_epi64 ntt_emu_permutexvar_epi64
#undef _mm512_reduce_max_epu64
#define _mm512_reduce_max_epu64 ntt_emu_reduce_max_epu64
#undef _mm512_cvtepi64_epi32
#define _mm512_cvtepi64_epi32 ntt_emu_cvtepi64_epi32
#undef _mm512_cvtepu32_epi64
#define _mm512_cvtepu32_epi64 ntt_emu_cvtepu32_epi64
#undef _mm512_castsi256_si512
#define _mm512_castsi256_si512 ntt_emu_castsi256_si512
#undef _mm512_inserti64x4
#define _mm512_inserti64x4 ntt_emu_inserti64x4
#undef _mm512_castsi512_si256
#define _mm512_castsi512_si256 ntt_emu_castsi512_si256
#undef _mm512_extracti64x4_epi64
#define _mm512_extracti64x4_epi64 ntt_emu_extracti64x4

#endif
