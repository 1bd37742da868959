/* Bit-reversal permutation dst[i] = src[rev(i)] (src != dst) by in-register transposes.
 *
 * Split a `bits`-bit index into its top field, middle and bottom field, each outer
 * field `f` bits wide (f = 4 for uint32: 16 lanes, f = 3 for uint64: 8 lanes):
 * i = hi << (bits-f) | m << f | lo.  Reversal swaps and reverses the outer fields and
 * reverses the middle: rev(i) = rev_f(lo) << (bits-f) | rev(m << f) | rev_f(hi).  So
 * for one middle value m, the 2^f x 2^f tile of src made of rows
 * src[k << (bits-f) | rev(m << f) ...], k = rev_f(lo), each one contiguous vector,
 * transposed, gives output row c = rev_f(hi), i.e. dst[hi << (bits-f) | m << f ...].
 * Every cache line read or written is used whole, and the transposes are shuffles
 * (port 5) instead of a gather per output vector (about 4x faster at n = 2^17).
 *
 * In place (the _inplace functions): tile m reads the rows of tile m' = rev(m) and
 * tile m' those of tile m, so each pair is loaded whole, transposed and stored
 * crosswise by the caller that owns its smaller index (m <= m'; tiles with m > m'
 * are skipped).  fold_p != 0 also maps [0, 2p) to [0, p) on the way (LAZY's forward
 * output), at no extra pass.
 *
 * rev is the bit-reversal table of range(2^bits); tiles m0 <= m < m1 of the
 * 2^(bits - 2f) let threads split the work.  Needs bits >= 2f (8 for uint32, 6 for
 * uint64); returns 1 when done.  AVX2 builds get the same functions from
 * _simd_bitrev_avx2.h; elsewhere they return 0 and the caller's scalar loop runs.
 */
#ifndef NTT_CY_SIMD_BITREV_AVX512_H
#define NTT_CY_SIMD_BITREV_AVX512_H
#include <stdint.h>
#include <stddef.h>
#include "_avx512_select.h"

#ifndef NTT_INLINE
#define NTT_INLINE static inline __attribute__((always_inline))
#endif

#if defined(NTT_CY_AVX512_F)

/* r[k] <- column k of the 16 x 16 matrix of 32-bit values whose rows are r[0..15]. */
NTT_INLINE void ntt_transpose16x32(__m512i r[16]) {
    __m512i t[16];
    int k, e;
    for (k = 0; k < 16; k += 2) {         /* pairs of rows interleaved by 32-bit values */
        t[k] = _mm512_unpacklo_epi32(r[k], r[k + 1]);
        t[k + 1] = _mm512_unpackhi_epi32(r[k], r[k + 1]);
    }
    for (k = 0; k < 16; k += 4) {         /* then by 64-bit pairs: in each 128-bit block j */
        r[k] = _mm512_unpacklo_epi64(t[k], t[k + 2]);      /* of r[4g + e] sit rows */
        r[k + 1] = _mm512_unpackhi_epi64(t[k], t[k + 2]);  /* 4g..4g+3 of column 4j + e */
        r[k + 2] = _mm512_unpacklo_epi64(t[k + 1], t[k + 3]);
        r[k + 3] = _mm512_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    for (e = 0; e < 4; e++) {             /* a 4 x 4 transpose of 128-bit blocks per e */
        __m512i v0 = _mm512_shuffle_i32x4(r[e], r[4 + e], 0x44);
        __m512i v1 = _mm512_shuffle_i32x4(r[e], r[4 + e], 0xEE);
        __m512i v2 = _mm512_shuffle_i32x4(r[8 + e], r[12 + e], 0x44);
        __m512i v3 = _mm512_shuffle_i32x4(r[8 + e], r[12 + e], 0xEE);
        t[e] = _mm512_shuffle_i32x4(v0, v2, 0x88);
        t[4 + e] = _mm512_shuffle_i32x4(v0, v2, 0xDD);
        t[8 + e] = _mm512_shuffle_i32x4(v1, v3, 0x88);
        t[12 + e] = _mm512_shuffle_i32x4(v1, v3, 0xDD);
    }
    for (k = 0; k < 16; k++)
        r[k] = t[k];
}

/* r[k] <- column k of the 8 x 8 matrix of 64-bit values whose rows are r[0..7]. */
NTT_INLINE void ntt_transpose8x64(__m512i r[8]) {
    __m512i t[8];
    int k, e;
    for (k = 0; k < 8; k += 2) {          /* 128-bit block j of t[2g + e] holds rows */
        t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]);      /* 2g, 2g+1 of column 2j + e */
        t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]);
    }
    for (e = 0; e < 2; e++) {             /* a 4 x 4 transpose of 128-bit blocks per e */
        __m512i v0 = _mm512_shuffle_i64x2(t[e], t[2 + e], 0x44);
        __m512i v1 = _mm512_shuffle_i64x2(t[e], t[2 + e], 0xEE);
        __m512i v2 = _mm512_shuffle_i64x2(t[4 + e], t[6 + e], 0x44);
        __m512i v3 = _mm512_shuffle_i64x2(t[4 + e], t[6 + e], 0xEE);
        r[e] = _mm512_shuffle_i64x2(v0, v2, 0x88);
        r[2 + e] = _mm512_shuffle_i64x2(v0, v2, 0xDD);
        r[4 + e] = _mm512_shuffle_i64x2(v1, v3, 0x88);
        r[6 + e] = _mm512_shuffle_i64x2(v1, v3, 0xDD);
    }
}

static inline int ntt_simd_bitrev32(const uint32_t *src, uint32_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    int shift = bits - 4;
    size_t m;
    int k;
    for (m = m0; m < m1; m++) {
        const uint32_t *from = src + rev[m << 4];
        uint32_t *to = dst + (m << 4);
        __m512i r[16];
        for (k = 0; k < 16; k++)          /* row k is source row rev4(k) */
            r[k] = _mm512_loadu_si512(from + ((size_t)rev[(size_t)k << shift] << shift));
        ntt_transpose16x32(r);
        for (k = 0; k < 16; k++)          /* column k is output row rev4(k) */
            _mm512_storeu_si512(to + ((size_t)rev[(size_t)k << shift] << shift), r[k]);
    }
    return 1;
}

static inline int ntt_simd_bitrev64(const uint64_t *src, uint64_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    int shift = bits - 3;
    size_t m;
    int k;
    for (m = m0; m < m1; m++) {
        const uint64_t *from = src + rev[m << 3];
        uint64_t *to = dst + (m << 3);
        __m512i r[8];
        for (k = 0; k < 8; k++)
            r[k] = _mm512_loadu_si512(from + ((size_t)rev[(size_t)k << shift] << shift));
        ntt_transpose8x64(r);
        for (k = 0; k < 8; k++)
            _mm512_storeu_si512(to + ((size_t)rev[(size_t)k << shift] << shift), r[k]);
    }
    return 1;
}

/* Rows of the tile whose rows start at a + base (row k at offset rev4(k) << shift,
 * as the out-of-place loops read and write them). */
NTT_INLINE void ntt_tile32_load(const uint32_t *a, size_t base, int shift, const uint32_t *rev,
                                __m512i r[16]) {
    for (int k = 0; k < 16; k++)
        r[k] = _mm512_loadu_si512(a + base + ((size_t)rev[(size_t)k << shift] << shift));
}

NTT_INLINE void ntt_tile32_store(uint32_t *a, size_t base, int shift, const uint32_t *rev,
                                 __m512i r[16], __m512i fold_p) {
    for (int k = 0; k < 16; k++) {   /* fold_p = 0: min(x, x) keeps x */
        __m512i x = _mm512_min_epu32(r[k], _mm512_sub_epi32(r[k], fold_p));
        _mm512_storeu_si512(a + base + ((size_t)rev[(size_t)k << shift] << shift), x);
    }
}

static inline int ntt_simd_bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p) {
    int shift = bits - 4;
    const __m512i p = _mm512_set1_epi32((int)fold_p);
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << 4, other = rev[mine];   /* other = rev(m) << 4 */
        if (other < mine)
            continue;                              /* done with its partner */
        __m512i x[16], y[16];
        ntt_tile32_load(a, other, shift, rev, x);  /* tile m's values */
        ntt_transpose16x32(x);
        if (other != mine) {
            ntt_tile32_load(a, mine, shift, rev, y);
            ntt_transpose16x32(y);
            ntt_tile32_store(a, other, shift, rev, y, p);
        }
        ntt_tile32_store(a, mine, shift, rev, x, p);
    }
    return 1;
}

NTT_INLINE void ntt_tile64_load(const uint64_t *a, size_t base, int shift, const uint32_t *rev,
                                __m512i r[8]) {
    for (int k = 0; k < 8; k++)
        r[k] = _mm512_loadu_si512(a + base + ((size_t)rev[(size_t)k << shift] << shift));
}

NTT_INLINE void ntt_tile64_store(uint64_t *a, size_t base, int shift, const uint32_t *rev,
                                 __m512i r[8], __m512i fold_p) {
    for (int k = 0; k < 8; k++) {
        __m512i x = _mm512_min_epu64(r[k], _mm512_sub_epi64(r[k], fold_p));
        _mm512_storeu_si512(a + base + ((size_t)rev[(size_t)k << shift] << shift), x);
    }
}

static inline int ntt_simd_bitrev64_inplace(uint64_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint64_t fold_p) {
    int shift = bits - 3;
    const __m512i p = _mm512_set1_epi64((long long)fold_p);
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << 3, other = rev[mine];
        if (other < mine)
            continue;
        __m512i x[8], y[8];
        ntt_tile64_load(a, other, shift, rev, x);
        ntt_transpose8x64(x);
        if (other != mine) {
            ntt_tile64_load(a, mine, shift, rev, y);
            ntt_transpose8x64(y);
            ntt_tile64_store(a, other, shift, rev, y, p);
        }
        ntt_tile64_store(a, mine, shift, rev, x, p);
    }
    return 1;
}

#elif defined(__AVX2__)
#include "_simd_bitrev_avx2.h"

#else  /* neither: the caller's scalar tile loops run */

static inline int ntt_simd_bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p) {
    (void)a; (void)bits; (void)rev; (void)m0; (void)m1; (void)fold_p;
    return 0;
}

static inline int ntt_simd_bitrev64_inplace(uint64_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint64_t fold_p) {
    (void)a; (void)bits; (void)rev; (void)m0; (void)m1; (void)fold_p;
    return 0;
}

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

#ifndef NTT_CY_FUSED_BITREV32   /* only the AVX2 build fuses edge stages into it */
#define NTT_CY_FUSED_BITREV32 0
static inline int ntt_simd_dif4_bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev,
                                                 size_t m0, size_t m1, uint32_t fold_p,
                                                 const uint32_t *tw, const uint32_t *twq,
                                                 uint32_t p, uint32_t pinv, uint64_t mu,
                                                 int family) {
    (void)a; (void)bits; (void)rev; (void)m0; (void)m1; (void)fold_p; (void)tw; (void)twq;
    (void)p; (void)pinv; (void)mu; (void)family;
    return 0;
}

static inline int ntt_simd_dit4_bitrev32(const uint32_t *src, uint32_t *dst, int bits,
                                         const uint32_t *rev, size_t m0, size_t m1,
                                         const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                         uint32_t pinv, uint64_t mu, int family,
                                         uint64_t *max_seen) {
    (void)src; (void)dst; (void)bits; (void)rev; (void)m0; (void)m1; (void)tw; (void)twq;
    (void)p; (void)pinv; (void)mu; (void)family; (void)max_seen;
    return 0;
}

static inline int ntt_simd_dit4_bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev,
                                                 size_t m0, size_t m1, const uint32_t *tw,
                                                 const uint32_t *twq, uint32_t p, uint32_t pinv,
                                                 uint64_t mu, int family) {
    (void)a; (void)bits; (void)rev; (void)m0; (void)m1; (void)tw; (void)twq;
    (void)p; (void)pinv; (void)mu; (void)family;
    return 0;
}
#endif
#endif
