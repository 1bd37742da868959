/* AVX-512 bodies of the bit-reversal permutation dst[i] = src[rev(i)] (src != dst) by
 * in-register transposes, uint32 and uint64 lanes, and for uint32 lanes with the four
 * stages at a transform's bit-reversed end fused in.  simd/bitrev/dispatch.h includes
 * this file where simd/select.h picks AVX-512 and turns its bodies into entry points.
 *
 * Split a `bits`-bit index into its top field, middle and bottom field, each outer
 * field `f` bits wide (f = 4 for uint32: 16 lanes, f = 3 for uint64: 8 lanes):
 * i = hi << (bits-f) | m << f | lo.  Reversal swaps and reverses the outer fields and
 * reverses the middle: rev(i) = rev_f(lo) << (bits-f) | rev(m << f) | rev_f(hi).  So
 * for one middle value m, the 2^f x 2^f tile of src made of rows
 * src[k << (bits-f) | rev(m << f) ...], k = rev_f(lo), each one contiguous vector,
 * transposed, gives output row c = rev_f(hi), i.e. dst[hi << (bits-f) | m << f ...].
 * Every cache line read or written is used whole, and the transposes are shuffles
 * (port 5) instead of a gather per output vector.
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
#include "simd/ntt32/avx512.h"   /* the transposes, the edge stages */

/* r[k] <- column k of the 8 x 8 matrix of 64-bit values whose rows are r[0..7]. */
NTT_INLINE void avx512_u64_transpose8(__m512i r[8]) {
    __m512i t[8];
    int k, e;
    for (k = 0; k < 8; k += 2) {          /* 128-bit block j of t[2g + e] holds rows */
        t[k] = _mm512_unpacklo_epi64(r[k], r[k + 1]);      /* 2g, 2g+1 of column 2j + e */
        t[k + 1] = _mm512_unpackhi_epi64(r[k], r[k + 1]);
    }
    for (e = 0; e < 2; e++)               /* a 4 x 4 transpose of 128-bit blocks per e */
        avx512_transpose_blocks(t[e], t[2 + e], t[4 + e], t[6 + e], &r[e], &r[2 + e],
                                &r[4 + e], &r[6 + e]);
}

/* ---- uint32: 16 x 16 tiles, plain or with the four stages at the bit-reversed end of
 * a transform fused in (every family): the last four of a natural-order forward (DIF
 * tail), the first four of a natural-order inverse (DIT head).  A tile's rows are whole
 * 16-value segments, the blocks of those stages, so avx512_u32_edge_tile takes the plain
 * transpose's place: the forward's stages on the transposed tile (vector c: value c of
 * every segment), before the store and its fold; the inverse's on the rows as loaded
 * (value k of output row c is row k's lane c, so its stages pair whole rows), then the
 * transpose.  No pass of their own, and no shuffles for the butterflies. */

/* The tile's rows r[k] become its columns, through the edge's stages when it has some
 * (edge, a BITREV_EDGE_* literal at every call, so the unused branches fold away). */
NTT_INLINE void avx512_u32_tile_turn(int edge, __m512i r[16],
                                     const avx512_u32_edge_twiddles *d) {
    if (edge == BITREV_EDGE_NONE)
        avx512_u32_transpose16(r);
    else
        avx512_u32_edge_tile(edge == BITREV_EDGE_DIF_TAIL, r, d);
}

/* ---- The tile interface of simd/bitrev/dispatch.h's walkers: a tile in flight is held
 * in registers, one row per vector, turned as soon as it is read. */
typedef struct {
    __m512i r[16];   /* 16 rows of uint32 values, or 8 of uint64 */
} avx512_tile;

/* The rows at a + row[k] elements (16 of uint32 values, or 8 of uint64: lane64) into t,
 * *top (when not NULL; uint32) raised to their largest value, then turned: its rows
 * become its columns, through the edge's stages when it has some. */
NTT_INLINE void avx512_tile_read(int lane64, int edge, const void *a, const size_t *row,
                                 avx512_tile *t, const avx512_u32_edge_twiddles *d,
                                 __m512i *top) {
    for (int k = 0; k < (lane64 ? 8 : 16); k++)
        t->r[k] = _mm512_loadu_si512((const char *)a + (lane64 ? 8 : 4) * row[k]);
    if (top && !lane64)
        for (int k = 0; k < 16; k++)
            *top = _mm512_max_epu32(*top, t->r[k]);
    if (lane64)
        avx512_u64_transpose8(t->r);
    else
        avx512_u32_tile_turn(edge, t->r, d);
}

/* t's rows stored at a + row[k], each folded by fold_p ([0, 2p) -> [0, p); 0:
 * unchanged). */
NTT_INLINE void avx512_tile_write(int lane64, int edge, const avx512_tile *t, void *a,
                                  const size_t *row, uint64_t fold_p,
                                  const avx512_u32_edge_twiddles *d) {
    const __m512i p = lane64 ? _mm512_set1_epi64((long long)fold_p)
                             : _mm512_set1_epi32((int)fold_p);
    (void)edge; (void)d;
    for (int k = 0; k < (lane64 ? 8 : 16); k++)
        _mm512_storeu_si512((char *)a + (lane64 ? 8 : 4) * row[k],
                            lane64 ? vec_fold_u64(t->r[k], p) : vec_fold_u32(t->r[k], p));
}
#endif
