/* AVX2 bodies of the bit-reversal permutation (_simd_bitrev_avx512.h explains the
 * tiling): the same tiles, 16 x 16 uint32 values and 8 x 8 uint64 values, each row one
 * 64-byte cache line, transposed as four quadrants of 8 x 8 (uint32) or 4 x 4 (uint64)
 * in registers.  _simd_bitrev_avx512.h includes this file in builds that target AVX2
 * but not AVX-512.  A tile is first copied to the stack, one whole row (a cache line)
 * at a time; in place, both tiles of a pair are, so neither is written over before it
 * was read.
 * fold_p != 0 maps [0, 2p) to [0, p) on the way.
 */
#ifndef NTT_CY_SIMD_BITREV_AVX2_H
#define NTT_CY_SIMD_BITREV_AVX2_H
#include <immintrin.h>

/* r[k] <- column k of the 8 x 8 matrix of 32-bit values whose rows are r[0..7]. */
NTT_INLINE void ntt_transpose8x32(__m256i r[8]) {
    __m256i t[8], u[8];
    for (int k = 0; k < 8; k += 2) {      /* pairs of rows interleaved by 32-bit values */
        t[k] = _mm256_unpacklo_epi32(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_epi32(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {      /* by 64-bit pairs: 128-bit half j of u[4g + e] */
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);      /* holds rows 4g..4g+3 of */
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);  /* column 4j + e */
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    for (int e = 0; e < 4; e++) {         /* join the 128-bit halves */
        r[e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x20);
        r[4 + e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x31);
    }
}

/* r[k] <- column k of the 4 x 4 matrix of 64-bit values whose rows are r[0..3]. */
NTT_INLINE void ntt_transpose4x64(__m256i r[4]) {
    __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* [0, 2p) -> [0, p) (fold_p = 0: unchanged). */
NTT_INLINE __m256i ntt_fold32(__m256i x, __m256i fold_p) {
    return _mm256_min_epu32(x, _mm256_sub_epi32(x, fold_p));
}

/* As ntt_fold32 on 64-bit lanes, by the sign of x - p (LAZY values are below 2^63;
 * with fold_p = 0 both choices are x). */
NTT_INLINE __m256i ntt_fold64(__m256i x, __m256i fold_p) {
    __m256d t = _mm256_castsi256_pd(_mm256_sub_epi64(x, fold_p));
    return _mm256_castpd_si256(_mm256_blendv_pd(t, _mm256_castsi256_pd(x), t));
}

/* The tile held in t (row k at t + 16k) transposed into the rows at dst[row[k]]:
 * output row c holds column c.  Each output row is stored whole, both halves back to
 * back: a tile's rows are 2^(bits-4) values apart, all in one L1 set, and a row
 * written in two visits was evicted in between (measured: the permutation 1.6x
 * slower). */
NTT_INLINE void ntt_tile32_out(const uint32_t *t, uint32_t *dst, const size_t row[16],
                               __m256i fold_p) {
    for (int qc = 0; qc < 2; qc++) {      /* output rows 8qc..8qc+7 */
        __m256i lo[8], hi[8];             /* quadrants (0, qc) and (1, qc), transposed */
        for (int k = 0; k < 8; k++) {
            lo[k] = _mm256_load_si256((const __m256i *)(t + 16 * k + 8 * qc));
            hi[k] = _mm256_load_si256((const __m256i *)(t + 16 * (8 + k) + 8 * qc));
        }
        ntt_transpose8x32(lo);
        ntt_transpose8x32(hi);
        for (int k = 0; k < 8; k++) {
            uint32_t *out = dst + row[8 * qc + k];
            _mm256_storeu_si256((__m256i *)out, ntt_fold32(lo[k], fold_p));
            _mm256_storeu_si256((__m256i *)(out + 8), ntt_fold32(hi[k], fold_p));
        }
    }
}

NTT_INLINE void ntt_tile64_out(const uint64_t *t, uint64_t *dst, const size_t row[8],
                               __m256i fold_p) {
    for (int qc = 0; qc < 2; qc++) {
        __m256i lo[4], hi[4];
        for (int k = 0; k < 4; k++) {
            lo[k] = _mm256_load_si256((const __m256i *)(t + 8 * k + 4 * qc));
            hi[k] = _mm256_load_si256((const __m256i *)(t + 8 * (4 + k) + 4 * qc));
        }
        ntt_transpose4x64(lo);
        ntt_transpose4x64(hi);
        for (int k = 0; k < 4; k++) {
            uint64_t *out = dst + row[4 * qc + k];
            _mm256_storeu_si256((__m256i *)out, ntt_fold64(lo[k], fold_p));
            _mm256_storeu_si256((__m256i *)(out + 4), ntt_fold64(hi[k], fold_p));
        }
    }
}

/* A tile's rows (one 64-byte cache line each, at src + row[k] elements of `size`
 * bytes) copied to t, packed: 16 uint32 rows or 8 uint64 rows alike. */
NTT_INLINE void ntt_tile_in(const void *src, size_t size, const size_t *row, int rows,
                            void *t) {
    for (int k = 0; k < rows; k++) {
        const char *from = (const char *)src + row[k] * size;
        char *to = (char *)t + 64 * k;
        _mm256_store_si256((__m256i *)to, _mm256_loadu_si256((const __m256i *)from));
        _mm256_store_si256((__m256i *)(to + 32),
                           _mm256_loadu_si256((const __m256i *)(from + 32)));
    }
}

/* Offsets of a tile's rows: row k at rev_f(k) << shift (f = 4 or 3). */
NTT_INLINE void ntt_tile_rows(const uint32_t *rev, int shift, int count, size_t row[16]) {
    for (int k = 0; k < count; k++)
        row[k] = (size_t)rev[(size_t)k << shift] << shift;
}

static inline int ntt_simd_bitrev32(const uint32_t *src, uint32_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    size_t row[16];
    uint32_t t[256] __attribute__((aligned(32)));
    ntt_tile_rows(rev, bits - 4, 16, row);
    for (size_t m = m0; m < m1; m++) {
        ntt_tile_in(src + rev[m << 4], 4, row, 16, t);
        ntt_tile32_out(t, dst + (m << 4), row, _mm256_setzero_si256());
    }
    return 1;
}

static inline int ntt_simd_bitrev64(const uint64_t *src, uint64_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    size_t row[16];
    uint64_t t[64] __attribute__((aligned(32)));
    ntt_tile_rows(rev, bits - 3, 8, row);
    for (size_t m = m0; m < m1; m++) {
        ntt_tile_in(src + rev[m << 3], 8, row, 8, t);
        ntt_tile64_out(t, dst + (m << 3), row, _mm256_setzero_si256());
    }
    return 1;
}

static inline int ntt_simd_bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p) {
    const __m256i p = _mm256_set1_epi32((int)fold_p);
    size_t row[16];
    uint32_t x[256] __attribute__((aligned(32))), y[256] __attribute__((aligned(32)));
    ntt_tile_rows(rev, bits - 4, 16, row);
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << 4, other = rev[mine];   /* other = rev(m) << 4 */
        if (other < mine)
            continue;                              /* done with its partner */
        ntt_tile_in(a + other, 4, row, 16, x);          /* tile m's values: tile m''s rows */
        if (other != mine) {
            ntt_tile_in(a + mine, 4, row, 16, y);
            ntt_tile32_out(y, a + other, row, p);
        }
        ntt_tile32_out(x, a + mine, row, p);
    }
    return 1;
}

static inline int ntt_simd_bitrev64_inplace(uint64_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint64_t fold_p) {
    const __m256i p = _mm256_set1_epi64x((long long)fold_p);
    size_t row[16];
    uint64_t x[64] __attribute__((aligned(32))), y[64] __attribute__((aligned(32)));
    ntt_tile_rows(rev, bits - 3, 8, row);
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << 3, other = rev[mine];
        if (other < mine)
            continue;
        ntt_tile_in(a + other, 8, row, 8, x);
        if (other != mine) {
            ntt_tile_in(a + mine, 8, row, 8, y);
            ntt_tile64_out(y, a + other, row, p);
        }
        ntt_tile64_out(x, a + mine, row, p);
    }
    return 1;
}
#endif
