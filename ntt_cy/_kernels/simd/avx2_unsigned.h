/* Unsigned compares, minima and maxima of 32- and 64-bit lanes, and the low 64-bit
 * product, on AVX2, which compares only signed values and has no 64-bit multiply:
 * "a < b" is a signed compare with both top bits flipped; a*b mod 2^64 comes from three
 * 32 x 32-bit vpmuludq products.  Shared by the AVX2 vector ops (simd/vector_ops.h) and
 * the model of the AVX-512 intrinsics (simd/emulated_avx512.h).
 */
#ifndef NTT_CY_SIMD_AVX2_UNSIGNED_H
#define NTT_CY_SIMD_AVX2_UNSIGNED_H
#include <immintrin.h>

#ifndef NTT_INLINE   /* see simd/select.h */
#define NTT_INLINE static inline __attribute__((always_inline))
#endif

/* All ones where a < b as unsigned 32-bit (64-bit) lanes. */
NTT_INLINE __m256i avx2_below_u32(__m256i a, __m256i b) {
    const __m256i top = _mm256_set1_epi32((int)0x80000000u);
    return _mm256_cmpgt_epi32(_mm256_xor_si256(b, top), _mm256_xor_si256(a, top));
}

NTT_INLINE __m256i avx2_below_u64(__m256i a, __m256i b) {
    const __m256i top = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    return _mm256_cmpgt_epi64(_mm256_xor_si256(b, top), _mm256_xor_si256(a, top));
}

NTT_INLINE __m256i avx2_min_u64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, avx2_below_u64(b, a));
}

NTT_INLINE __m256i avx2_max_u64(__m256i a, __m256i b) {
    return _mm256_blendv_epi8(a, b, avx2_below_u64(a, b));
}

/* a*b mod 2^64 = a0 b0 + (a1 b0 + a0 b1) 2^32 (32-bit halves). */
NTT_INLINE __m256i avx2_mullo_u64(__m256i a, __m256i b) {
    __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), b),
                                     _mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)));
    return _mm256_add_epi64(_mm256_mul_epu32(a, b), _mm256_slli_epi64(cross, 32));
}
#endif
