/* Bit-reversal permutation dst[i] = src[rev(i)] with AVX-512 gathers.
 *
 * i = hi << (bits-4) | m << 4 | lo (4-bit hi and lo) reverses field by field:
 * rev(i) = rev(lo) | rev(m << 4) | rev(hi << (bits-4)), and rev(lo) for lo < 16 is
 * just rev[lo].  So for one (m, hi) the 16 source indices are the vector rev[0..15]
 * OR-ed with one scalar, gathered in one instruction, and stored as 16 contiguous
 * elements.  Tiles m in [m0, m1) let threads split the work.  Needs bits >= 8.
 * Returns 1 when done, 0 in builds without AVX-512 (the caller's scalar loop runs).
 */
#ifndef NTT_CY_SIMD_BITREV_AVX512_H
#define NTT_CY_SIMD_BITREV_AVX512_H
#include <stdint.h>
#include <stddef.h>

#if defined(__AVX512F__)
#include <immintrin.h>

static inline int ntt_simd_bitrev32(const uint32_t *src, uint32_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    int shift = bits - 4;
    __m512i low = _mm512_loadu_si512(rev);            /* rev(lo), lo = 0..15 */
    for (size_t m = m0; m < m1; m++) {
        uint32_t rm = rev[m << 4];
        for (size_t hi = 0; hi < 16; hi++) {
            __m512i idx = _mm512_or_si512(low, _mm512_set1_epi32((int)(rm | rev[hi << shift])));
            __m512i v = _mm512_i32gather_epi32(idx, (const void *)src, 4);
            _mm512_storeu_si512(dst + ((hi << shift) | (m << 4)), v);
        }
    }
    return 1;
}

static inline int ntt_simd_bitrev64(const uint64_t *src, uint64_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    int shift = bits - 4;
    __m256i low_a = _mm256_loadu_si256((const __m256i *)rev);        /* lo = 0..7 */
    __m256i low_b = _mm256_loadu_si256((const __m256i *)(rev + 8));  /* lo = 8..15 */
    for (size_t m = m0; m < m1; m++) {
        uint32_t rm = rev[m << 4];
        for (size_t hi = 0; hi < 16; hi++) {
            __m256i base = _mm256_set1_epi32((int)(rm | rev[hi << shift]));
            uint64_t *out = dst + ((hi << shift) | (m << 4));
            _mm512_storeu_si512(out, _mm512_i32gather_epi64(_mm256_or_si256(low_a, base),
                                                             (const void *)src, 8));
            _mm512_storeu_si512(out + 8, _mm512_i32gather_epi64(_mm256_or_si256(low_b, base),
                                                                 (const void *)src, 8));
        }
    }
    return 1;
}

#else

static inline int ntt_simd_bitrev32(const uint32_t *src, uint32_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    (void)src; (void)dst; (void)bits; (void)rev; (void)m0; (void)m1;
    return 0;
}

static inline int ntt_simd_bitrev64(const uint64_t *src, uint64_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    (void)src; (void)dst; (void)bits; (void)rev; (void)m0; (void)m1;
    return 0;
}
#endif
#endif
