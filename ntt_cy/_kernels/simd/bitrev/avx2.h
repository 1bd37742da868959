/* AVX2 bodies of the bit-reversal permutation (simd/bitrev/avx512.h explains the
 * tiling): the same tiles, 16 x 16 uint32 values and 8 x 8 uint64 values, each row one
 * 64-byte cache line, transposed as four quadrants of 8 x 8 (uint32) or 4 x 4 (uint64)
 * in registers, and for uint32 with the four stages at a transform's bit-reversed end
 * fused in.  simd/bitrev/dispatch.h includes this file where simd/select.h picks AVX2;
 * its tile walkers move the tiles through avx2_tile_read / avx2_tile_write.
 * fold_p != 0 maps [0, 2p) to [0, p) on the way.
 */
#ifndef NTT_CY_SIMD_BITREV_AVX2_H
#define NTT_CY_SIMD_BITREV_AVX2_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/avx2.h"   /* the 8-lane butterflies, avx2_u32_transpose8 */

/* r[k] <- column k of the 4 x 4 matrix of 64-bit values whose rows are r[0..3]. */
NTT_INLINE void avx2_u64_transpose4(__m256i r[4]) {
    __m256i t0 = _mm256_unpacklo_epi64(r[0], r[1]), t1 = _mm256_unpackhi_epi64(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi64(r[2], r[3]), t3 = _mm256_unpackhi_epi64(r[2], r[3]);
    r[0] = _mm256_permute2x128_si256(t0, t2, 0x20);
    r[1] = _mm256_permute2x128_si256(t1, t3, 0x20);
    r[2] = _mm256_permute2x128_si256(t0, t2, 0x31);
    r[3] = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* The tile held in t (16 uint32 rows, or 8 uint64: lane64; row k at t + 64k bytes)
 * transposed into the rows at dst + row[k] elements: output row c holds column c,
 * folded by fold_p ([0, 2p) -> [0, p); 0: unchanged).  Quadrants of 8 x 8 uint32 or
 * 4 x 4 uint64 values, one 32-byte vector per row.  Each output row is stored whole,
 * both halves back to back: a tile's rows are 2^(bits-4) values apart, all in one L1
 * set, and a row written in two visits would be evicted in between. */
NTT_INLINE void avx2_tile_out(int lane64, const void *t, void *dst, const size_t *row,
                              __m256i fold_p) {
    const char *in = (const char *)t;
    int rows = lane64 ? 4 : 8;            /* a quadrant's */
    for (int qc = 0; qc < 2; qc++) {      /* output rows rows qc .. rows qc + rows - 1 */
        __m256i lo[8], hi[8];             /* quadrants (0, qc) and (1, qc), transposed */
        for (int k = 0; k < rows; k++) {
            lo[k] = _mm256_load_si256((const __m256i *)(in + 64 * k + 32 * qc));
            hi[k] = _mm256_load_si256((const __m256i *)(in + 64 * (rows + k) + 32 * qc));
        }
        if (lane64) {
            avx2_u64_transpose4(lo);
            avx2_u64_transpose4(hi);
        } else {
            avx2_u32_transpose8(lo);
            avx2_u32_transpose8(hi);
        }
        for (int k = 0; k < rows; k++) {
            char *out = (char *)dst + (lane64 ? 8 : 4) * row[rows * qc + k];
            _mm256_storeu_si256((__m256i *)out, lane64 ? vec_fold_u64(lo[k], fold_p)
                                                       : vec_fold_u32(lo[k], fold_p));
            _mm256_storeu_si256((__m256i *)(out + 32), lane64 ? vec_fold_u64(hi[k], fold_p)
                                                              : vec_fold_u32(hi[k], fold_p));
        }
    }
}

/* A tile's rows (one 64-byte cache line each, at src + row[k] elements of `size`
 * bytes) copied to t, packed: 16 uint32 rows or 8 uint64 rows alike. */
NTT_INLINE void avx2_tile_in(const void *src, size_t size, const size_t *row, int rows,
                             void *t) {
    for (int k = 0; k < rows; k++) {
        const char *from = (const char *)src + row[k] * size;
        char *to = (char *)t + 64 * k;
        _mm256_store_si256((__m256i *)to, _mm256_loadu_si256((const __m256i *)from));
        _mm256_store_si256((__m256i *)(to + 32),
                           _mm256_loadu_si256((const __m256i *)(from + 32)));
    }
}

/* ---- The four stages at the bit-reversed end of a transform fused into the
 * permutation (uint32, every family): the last four of a natural-order forward (DIF),
 * the first four of a natural-order inverse (DIT).
 * A tile's rows are whole 16-value segments of the DIF, the blocks of its last four
 * stages (h = 8, 4, 2, 1).  Stage 8 pairs a row's two halves, so it runs on each row
 * as the row is read; after a quadrant's 8 x 8 transpose, vector k holds column
 * c = 8 qc + k of eight rows, so stages 4, 2 and 1 pair whole vectors (columns c and
 * c + h, twiddle tw[h + c mod h] broadcast): no shuffles for the butterflies, unlike
 * avx2_u32_small_stages, and no pass of their own.  The butterflies are
 * vec_u32_butterfly's (avx2_u32_edge_quadrant's: a fold where the twiddle is 1), values
 * congruent to the unfused order's in the same ranges, so the results are its own. */

/* Rows at a + row[k] through stage 8 into t (row k at t + 16k). */
NTT_INLINE void avx2_u32_tile_in_dif8(const uint32_t *a, const size_t row[16], uint32_t *t,
                                      const avx2_u32_edge_twiddles *d) {
    for (int k = 0; k < 16; k++) {
        __m256i lo = _mm256_loadu_si256((const __m256i *)(a + row[k]));
        __m256i hi = _mm256_loadu_si256((const __m256i *)(a + row[k] + 8));
        vec_u32_butterfly(1, &lo, &hi, &d->t8, &d->m, 0);
        _mm256_store_si256((__m256i *)(t + 16 * k), lo);
        _mm256_store_si256((__m256i *)(t + 16 * k + 8), hi);
    }
}

/* ---- The first four DIT stages (h = 1, 2, 4, 8) of a natural-order inverse, fused
 * into the permutation that gathers its input.  Output row c of a tile is column c of
 * its input rows, so output position k of every segment in a quadrant comes from input
 * row k: stages 1, 2, 4 pair whole input rows (before the transpose, twiddle
 * tw[h + k mod h] broadcast) and stage 8 pairs the two halves of each output row
 * (after it, vector twiddles tw[8..15]).  Same butterflies as avx2_u32_small_stages. */

/* As avx2_tile_out, through the edge stages that remain: forward (DIF tail), stages
 * 4, 2, 1 on the transposed quadrants, then the fold; inverse (DIT head, no fold),
 * stages 1, 2, 4 before the transpose and stage 8 on each output row's halves. */
NTT_INLINE void avx2_u32_tile_out_edge(int forward, const uint32_t *t, uint32_t *dst,
                                       const size_t row[16], __m256i fold_p,
                                       const avx2_u32_edge_twiddles *d) {
    for (int qc = 0; qc < 2; qc++) {
        __m256i lo[8], hi[8];
        for (int k = 0; k < 8; k++)   /* one quadrant at a time: fewer live registers */
            lo[k] = _mm256_load_si256((const __m256i *)(t + 16 * k + 8 * qc));
        avx2_u32_edge_quadrant(forward, lo, d);
        for (int k = 0; k < 8; k++)
            hi[k] = _mm256_load_si256((const __m256i *)(t + 16 * (8 + k) + 8 * qc));
        avx2_u32_edge_quadrant(forward, hi, d);
        for (int k = 0; k < 8; k++) {
            uint32_t *out = dst + row[8 * qc + k];
            if (forward) {
                lo[k] = vec_fold_u32(lo[k], fold_p);
                hi[k] = vec_fold_u32(hi[k], fold_p);
            } else {
                vec_u32_butterfly(0, &lo[k], &hi[k], &d->t8, &d->m, 0);
            }
            _mm256_storeu_si256((__m256i *)out, lo[k]);
            _mm256_storeu_si256((__m256i *)(out + 8), hi[k]);
        }
    }
}

/* ---- The uint32 tiles with or without edge stages (edge a literal at every call, so the
 * unused branches fold away). */
/* A tile's rows a + row[k] into t, through the DIF tail's stage 8 when it has one. */
NTT_INLINE void avx2_u32_tile_load(int edge, const uint32_t *a, const size_t row[16], uint32_t *t,
                                   const avx2_u32_edge_twiddles *d) {
    if (edge == BITREV_EDGE_DIF_TAIL)
        avx2_u32_tile_in_dif8(a, row, t, d);
    else
        avx2_tile_in(a, 4, row, 16, t);
}

/* t transposed into the rows dst + row[c], through the edge's remaining stages. */
NTT_INLINE void avx2_u32_tile_store(int edge, const uint32_t *t, uint32_t *dst,
                                    const size_t row[16], __m256i fold_p,
                                    const avx2_u32_edge_twiddles *d) {
    if (edge != BITREV_EDGE_NONE)
        avx2_u32_tile_out_edge(edge == BITREV_EDGE_DIF_TAIL, t, dst, row, fold_p, d);
    else
        avx2_tile_out(0, t, dst, row, fold_p);
}

/* ---- The tile interface of simd/bitrev/dispatch.h's walkers: a tile in flight is
 * copied to the stack, one whole row (a cache line) at a time, as it is read (in place,
 * both tiles of a pair are, so neither is written over before it was read), then
 * transposed quadrant by quadrant as it is written. */
typedef struct {
    uint32_t v[256] __attribute__((aligned(32)));   /* 16 uint32 rows, or 8 uint64 */
} avx2_tile;

/* The rows at a + row[k] elements (16 of uint32 values, or 8 of uint64: lane64) into t,
 * through the DIF tail's stage 8 when it has one; *top (when not NULL; uint32) raised to
 * their largest value. */
NTT_INLINE void avx2_tile_read(int lane64, int edge, const void *a, const size_t *row,
                               avx2_tile *t, const avx2_u32_edge_twiddles *d, __m256i *top) {
    if (lane64)
        avx2_tile_in(a, 8, row, 8, t->v);
    else
        avx2_u32_tile_load(edge, (const uint32_t *)a, row, t->v, d);
    if (top && !lane64)
        for (int k = 0; k < 256; k += 8)
            *top = _mm256_max_epu32(*top, _mm256_load_si256((const __m256i *)(t->v + k)));
}

/* t transposed into the rows at a + row[c], through the edge's remaining stages, folded
 * by fold_p ([0, 2p) -> [0, p); 0: unchanged). */
NTT_INLINE void avx2_tile_write(int lane64, int edge, const avx2_tile *t, void *a,
                                const size_t *row, uint64_t fold_p,
                                const avx2_u32_edge_twiddles *d) {
    if (lane64)
        avx2_tile_out(1, t->v, a, row, _mm256_set1_epi64x((long long)fold_p));
    else
        avx2_u32_tile_store(edge, t->v, (uint32_t *)a, row, _mm256_set1_epi32((int)fold_p), d);
}
#endif
