/* AVX-512 bodies of the bit-reversal permutation dst[i] = src[rev(i)] (src != dst) by
 * in-register transposes.  simd/bitrev/dispatch.h includes this file where
 * simd/select.h picks AVX-512 and turns its bodies into entry points.
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
 * uint64); returns 1 when done.  The AVX2 bodies (simd/bitrev/avx2.h) move the same
 * tiles in quadrants.
 */
#ifndef NTT_CY_SIMD_BITREV_AVX512_H
#define NTT_CY_SIMD_BITREV_AVX512_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/avx512.h"   /* ntt_transpose16x32, the edge stages */

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

NTT_INLINE int ntt_simd_bitrev64_body(const uint64_t *src, uint64_t *dst, int bits,
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

NTT_INLINE int ntt_simd_bitrev64_inplace_body(uint64_t *a, int bits, const uint32_t *rev,
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

/* ---- uint32: 16 x 16 tiles, plain or with the four stages at the bit-reversed end of
 * a transform fused in (every family): the last four of a natural-order forward (DIF
 * tail), the first four of a natural-order inverse (DIT head).  A tile's rows are whole
 * 16-value segments, the blocks of those stages, so ntt_v32_edge_tile takes the plain
 * transpose's place: the forward's stages on the transposed tile (vector c: value c of
 * every segment), before the store and its fold; the inverse's on the rows as loaded
 * (value k of output row c is row k's lane c, so its stages pair whole rows), then the
 * transpose.  No pass of their own, and no shuffles for the butterflies. */
enum { NTT_EDGE_NONE = 0, NTT_EDGE_DIF_TAIL = 1, NTT_EDGE_DIT_HEAD = 2 };

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

/* The tile's rows r[k] become its columns, through the edge's stages when it has some
 * (edge a literal at every call, so the unused branches fold away). */
NTT_INLINE void ntt_tile32_turn(int edge, __m512i r[16], const ntt_v32_edge_twiddles *d) {
    if (edge == NTT_EDGE_NONE)
        ntt_transpose16x32(r);
    else
        ntt_v32_edge_tile(edge == NTT_EDGE_DIF_TAIL, r, d);
}

/* dst[i] = src[rev(i)] (src != dst), tiles m0 <= m < m1; max_seen (when not NULL)
 * raised to the largest value of src read (an inverse's input check, from the tile
 * already in registers). */
NTT_INLINE void ntt_tiles32_copy(int edge, const uint32_t *src, uint32_t *dst, int bits,
                                 const uint32_t *rev, size_t m0, size_t m1,
                                 const ntt_v32_edge_twiddles *d, uint64_t *max_seen) {
    int shift = bits - 4;
    __m512i top = _mm512_setzero_si512();
    for (size_t m = m0; m < m1; m++) {
        __m512i r[16];
        ntt_tile32_load(src, rev[m << 4], shift, rev, r);   /* row k: source row rev4(k) */
        if (max_seen)
            for (int k = 0; k < 16; k++)
                top = _mm512_max_epu32(top, r[k]);
        ntt_tile32_turn(edge, r, d);
        ntt_tile32_store(dst, m << 4, shift, rev, r, _mm512_setzero_si512());
    }
    if (max_seen)
        ntt_v32_max_seen(top, max_seen);
}

/* a[i] <-> a[rev(i)] in place for the tile pairs owned by m0 <= m < m1 (a pair's
 * smaller m moves both tiles, each read whole before either is written). */
NTT_INLINE void ntt_tiles32_swap(int edge, uint32_t *a, int bits, const uint32_t *rev,
                                 size_t m0, size_t m1, __m512i fold_p,
                                 const ntt_v32_edge_twiddles *d) {
    int shift = bits - 4;
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << 4, other = rev[mine];   /* other = rev(m) << 4 */
        if (other < mine)
            continue;                              /* done with its partner */
        __m512i x[16], y[16];
        ntt_tile32_load(a, other, shift, rev, x);  /* tile m's values */
        ntt_tile32_turn(edge, x, d);
        if (other != mine) {
            ntt_tile32_load(a, mine, shift, rev, y);
            ntt_tile32_turn(edge, y, d);
            ntt_tile32_store(a, other, shift, rev, y, fold_p);
        }
        ntt_tile32_store(a, mine, shift, rev, x, fold_p);
    }
}

NTT_INLINE int ntt_simd_bitrev32_body(const uint32_t *src, uint32_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    ntt_tiles32_copy(NTT_EDGE_NONE, src, dst, bits, rev, m0, m1, NULL, NULL);
    return 1;
}

NTT_INLINE int ntt_simd_bitrev32_inplace_body(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p) {
    ntt_tiles32_swap(NTT_EDGE_NONE, a, bits, rev, m0, m1, _mm512_set1_epi32((int)fold_p), NULL);
    return 1;
}

/* The edge walkers, one copy per family (NTT_SIMD_BY_FAMILY); tw, twq: the stage
 * twiddles of the transform (the forward's for the DIF tail, the inverse's for the DIT
 * head). */
NTT_INLINE int ntt_edge_walk(int forward, int family, int in_place, const uint32_t *src,
                             uint32_t *a, int bits, const uint32_t *rev, size_t m0, size_t m1,
                             uint32_t fold_p, const uint32_t *tw, const uint32_t *twq,
                             uint32_t p, uint32_t pinv, uint64_t mu, uint64_t *max_seen) {
    ntt_v32_edge_twiddles d;
    ntt_v32_edge_twiddles_load(&d, tw, twq, p, pinv, mu, family);
    if (forward)
        ntt_tiles32_swap(NTT_EDGE_DIF_TAIL, a, bits, rev, m0, m1, _mm512_set1_epi32((int)fold_p),
                         &d);
    else if (in_place)
        ntt_tiles32_swap(NTT_EDGE_DIT_HEAD, a, bits, rev, m0, m1, _mm512_setzero_si512(), &d);
    else
        ntt_tiles32_copy(NTT_EDGE_DIT_HEAD, src, a, bits, rev, m0, m1, &d, max_seen);
    return 1;
}

#endif
