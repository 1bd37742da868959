/* AVX2 bodies of the bit-reversal permutation (simd/bitrev/avx512.h explains the
 * tiling): the same tiles, 16 x 16 uint32 values and 8 x 8 uint64 values, each row one
 * 64-byte cache line, transposed as four quadrants of 8 x 8 (uint32) or 4 x 4 (uint64)
 * in registers.  simd/bitrev/dispatch.h includes this file where simd/select.h picks
 * AVX2 and turns its bodies into entry points.  A tile is first copied to the stack, one whole row (a cache line)
 * at a time; in place, both tiles of a pair are, so neither is written over before it
 * was read.
 * fold_p != 0 maps [0, 2p) to [0, p) on the way.
 */
#ifndef NTT_CY_SIMD_BITREV_AVX2_H
#define NTT_CY_SIMD_BITREV_AVX2_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/avx2.h"   /* the 8-lane butterflies, ntt_w32_transpose8 */

/* r[k] <- column k of the 4 x 4 matrix of 64-bit values whose rows are r[0..3]. */
NTT_INLINE void ntt_transpose4x64(__m256i r[4]) {
    __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* As ntt_w32_fold (fold_p = p: [0, 2p) -> [0, p); 0: unchanged) on 64-bit lanes, by
 * the sign of x - p (LAZY values are below 2^63; with fold_p = 0 both choices are x). */
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
        ntt_w32_transpose8(lo);
        ntt_w32_transpose8(hi);
        for (int k = 0; k < 8; k++) {
            uint32_t *out = dst + row[8 * qc + k];
            _mm256_storeu_si256((__m256i *)out, ntt_w32_fold(lo[k], fold_p));
            _mm256_storeu_si256((__m256i *)(out + 8), ntt_w32_fold(hi[k], fold_p));
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

NTT_INLINE int ntt_simd_bitrev64_body(const uint64_t *src, uint64_t *dst, int bits,
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

/* ---- The four stages at the bit-reversed end of a transform fused into the
 * permutation (uint32, every family): the last four of a natural-order forward (DIF),
 * the first four of a natural-order inverse (DIT).
 * A tile's rows are whole 16-value segments of the DIF, the blocks of its last four
 * stages (h = 8, 4, 2, 1).  Stage 8 pairs a row's two halves, so it runs on each row
 * as the row is read; after a quadrant's 8 x 8 transpose, vector k holds column
 * c = 8 qc + k of eight rows, so stages 4, 2 and 1 pair whole vectors (columns c and
 * c + h, twiddle tw[h + c mod h] broadcast): no shuffles for the butterflies, unlike
 * ntt32_small_stages, and no pass of their own.  The butterflies are
 * ntt_w32_bfly's (ntt_w32_edge_quadrant's: a fold where the twiddle is 1), values
 * congruent to the unfused order's in the same ranges, so the results are its own. */

/* Rows at a + row[k] through stage 8 into t (row k at t + 16k). */
NTT_INLINE void ntt_tile32_in_dif8(const uint32_t *a, const size_t row[16], uint32_t *t,
                                   const ntt_w32_edge_twiddles *d) {
    for (int k = 0; k < 16; k++) {
        __m256i lo = _mm256_loadu_si256((const __m256i *)(a + row[k]));
        __m256i hi = _mm256_loadu_si256((const __m256i *)(a + row[k] + 8));
        ntt_w32_bfly(1, &lo, &hi, &d->t8, &d->m, 0);
        _mm256_store_si256((__m256i *)(t + 16 * k), lo);
        _mm256_store_si256((__m256i *)(t + 16 * k + 8), hi);
    }
}

/* ---- The first four DIT stages (h = 1, 2, 4, 8) of a natural-order inverse, fused
 * into the permutation that gathers its input.  Output row c of a tile is column c of
 * its input rows, so output position k of every segment in a quadrant comes from input
 * row k: stages 1, 2, 4 pair whole input rows (before the transpose, twiddle
 * tw[h + k mod h] broadcast) and stage 8 pairs the two halves of each output row
 * (after it, vector twiddles tw[8..15]).  Same butterflies as ntt32_small_stages. */

/* As ntt_tile32_out, through the edge stages that remain: forward (DIF tail), stages
 * 4, 2, 1 on the transposed quadrants, then the fold; inverse (DIT head, no fold),
 * stages 1, 2, 4 before the transpose and stage 8 on each output row's halves. */
NTT_INLINE void ntt_tile32_out_edge(int forward, const uint32_t *t, uint32_t *dst,
                                    const size_t row[16], __m256i fold_p,
                                    const ntt_w32_edge_twiddles *d) {
    for (int qc = 0; qc < 2; qc++) {
        __m256i lo[8], hi[8];
        for (int k = 0; k < 8; k++)   /* one quadrant at a time: fewer live registers */
            lo[k] = _mm256_load_si256((const __m256i *)(t + 16 * k + 8 * qc));
        ntt_w32_edge_quadrant(forward, lo, d);
        for (int k = 0; k < 8; k++)
            hi[k] = _mm256_load_si256((const __m256i *)(t + 16 * (8 + k) + 8 * qc));
        ntt_w32_edge_quadrant(forward, hi, d);
        for (int k = 0; k < 8; k++) {
            uint32_t *out = dst + row[8 * qc + k];
            if (forward) {
                lo[k] = ntt_w32_fold(lo[k], fold_p);
                hi[k] = ntt_w32_fold(hi[k], fold_p);
            } else {
                ntt_w32_bfly(0, &lo[k], &hi[k], &d->t8, &d->m, 0);
            }
            _mm256_storeu_si256((__m256i *)out, lo[k]);
            _mm256_storeu_si256((__m256i *)(out + 8), hi[k]);
        }
    }
}

/* ---- Tile walkers: every uint32 permutation above, with or without edge stages
 * (edge a literal at every call, so the unused branches fold away). */
enum { NTT_EDGE_NONE = 0, NTT_EDGE_DIF_TAIL = 1, NTT_EDGE_DIT_HEAD = 2 };

/* A tile's rows a + row[k] into t, through the DIF tail's stage 8 when it has one. */
NTT_INLINE void ntt_tile32_load(int edge, const uint32_t *a, const size_t row[16], uint32_t *t,
                                const ntt_w32_edge_twiddles *d) {
    if (edge == NTT_EDGE_DIF_TAIL)
        ntt_tile32_in_dif8(a, row, t, d);
    else
        ntt_tile_in(a, 4, row, 16, t);
}

/* t transposed into the rows dst + row[c], through the edge's remaining stages. */
NTT_INLINE void ntt_tile32_store(int edge, const uint32_t *t, uint32_t *dst,
                                 const size_t row[16], __m256i fold_p,
                                 const ntt_w32_edge_twiddles *d) {
    if (edge != NTT_EDGE_NONE)
        ntt_tile32_out_edge(edge == NTT_EDGE_DIF_TAIL, t, dst, row, fold_p, d);
    else
        ntt_tile32_out(t, dst, row, fold_p);
}

/* dst[i] = src[rev(i)] (src != dst), tiles m0 <= m < m1; max_seen (when not NULL)
 * raised to the largest value of src read (an inverse's input check, from the tile
 * already in L1).  Not for edge == NTT_EDGE_DIF_TAIL, whose load runs a stage. */
NTT_INLINE void ntt_tiles32_copy(int edge, const uint32_t *src, uint32_t *dst, int bits,
                                 const uint32_t *rev, size_t m0, size_t m1,
                                 const ntt_w32_edge_twiddles *d, uint64_t *max_seen) {
    size_t row[16];
    uint32_t t[256] __attribute__((aligned(32)));
    __m256i top = _mm256_setzero_si256();
    ntt_tile_rows(rev, bits - 4, 16, row);
    for (size_t m = m0; m < m1; m++) {
        ntt_tile32_load(edge, src + rev[m << 4], row, t, d);
        if (max_seen)
            for (int k = 0; k < 256; k += 8)
                top = _mm256_max_epu32(top, _mm256_load_si256((const __m256i *)(t + k)));
        ntt_tile32_store(edge, t, dst + (m << 4), row, _mm256_setzero_si256(), d);
    }
    if (max_seen)
        ntt_w32_max_seen(top, max_seen);
}

/* a[i] <-> a[rev(i)] in place for the tile pairs owned by m0 <= m < m1 (a pair's
 * smaller m moves both tiles, each read whole before either is written). */
NTT_INLINE void ntt_tiles32_swap(int edge, uint32_t *a, int bits, const uint32_t *rev,
                                 size_t m0, size_t m1, __m256i fold_p,
                                 const ntt_w32_edge_twiddles *d) {
    size_t row[16];
    uint32_t x[256] __attribute__((aligned(32))), y[256] __attribute__((aligned(32)));
    ntt_tile_rows(rev, bits - 4, 16, row);
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << 4, other = rev[mine];   /* other = rev(m) << 4 */
        if (other < mine)
            continue;                              /* done with its partner */
        ntt_tile32_load(edge, a + other, row, x, d);   /* tile m's values: tile m''s rows */
        if (other != mine) {
            ntt_tile32_load(edge, a + mine, row, y, d);
            ntt_tile32_store(edge, y, a + other, row, fold_p, d);
        }
        ntt_tile32_store(edge, x, a + mine, row, fold_p, d);
    }
}

NTT_INLINE int ntt_simd_bitrev32_body(const uint32_t *src, uint32_t *dst, int bits,
                                    const uint32_t *rev, size_t m0, size_t m1) {
    ntt_tiles32_copy(NTT_EDGE_NONE, src, dst, bits, rev, m0, m1, NULL, NULL);
    return 1;
}

NTT_INLINE int ntt_simd_bitrev32_inplace_body(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p) {
    ntt_tiles32_swap(NTT_EDGE_NONE, a, bits, rev, m0, m1, _mm256_set1_epi32((int)fold_p), NULL);
    return 1;
}

/* The edge walkers, one copy per family (NTT_SIMD_BY_FAMILY); tw, twq: the stage twiddles
 * of the transform (the forward's for the DIF tail, the inverse's for the DIT head). */
NTT_INLINE int ntt_edge_walk(int forward, int family, int in_place, const uint32_t *src,
                             uint32_t *a, int bits, const uint32_t *rev, size_t m0, size_t m1,
                             uint32_t fold_p, const uint32_t *tw, const uint32_t *twq,
                             uint32_t p, uint32_t pinv, uint64_t mu, uint64_t *max_seen) {
    ntt_w32_edge_twiddles d;
    ntt_w32_edge_twiddles_load(&d, tw, twq, p, pinv, mu, family);
    if (forward)
        ntt_tiles32_swap(NTT_EDGE_DIF_TAIL, a, bits, rev, m0, m1, _mm256_set1_epi32((int)fold_p),
                         &d);
    else if (in_place)
        ntt_tiles32_swap(NTT_EDGE_DIT_HEAD, a, bits, rev, m0, m1, _mm256_setzero_si256(), &d);
    else
        ntt_tiles32_copy(NTT_EDGE_DIT_HEAD, src, a, bits, rev, m0, m1, &d, max_seen);
    return 1;
}

NTT_INLINE int ntt_simd_bitrev64_inplace_body(uint64_t *a, int bits, const uint32_t *rev,
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
