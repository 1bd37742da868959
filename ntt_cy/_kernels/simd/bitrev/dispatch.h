/* The bit-reversal entry points the Cython kernels call (ntt/permute.pxi), in every
 * build: the permutation dst[i] = src[rev(i)] as a copy or in place, by in-register
 * tile transposes (simd/bitrev/avx512.h, simd/bitrev/avx2.h, as simd/select.h picks),
 * and for uint32 lanes with the four stages at a transform's bit-reversed end fused in
 * (BITREV32_FUSED_EDGE says whether the build has them).  Each returns 1 when done; in
 * the portable build 0 (nothing done), and the caller's scalar tile loops run.
 *
 * rev is the bit-reversal table of range(2^bits); tiles m0 <= m < m1 of the
 * 2^(bits - 2f) (f = 4 for uint32, 3 for uint64) let threads split the work; needs
 * bits >= 2f.  fold_p != 0 also maps [0, 2p) to [0, p) on the way (LAZY's forward
 * output).
 */
#ifndef NTT_CY_SIMD_BITREV_DISPATCH_H
#define NTT_CY_SIMD_BITREV_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

/* What a uint32 permutation also runs (the tile walkers take it as a literal): nothing,
 * the last four stages of a forward DIF (before the permutation), or the first four of
 * an inverse DIT (after it). */
enum { BITREV_EDGE_NONE = 0, BITREV_EDGE_DIF_TAIL = 1, BITREV_EDGE_DIT_HEAD = 2 };

#if defined(NTT_CY_AVX512)
#include "simd/bitrev/avx512.h"
#elif defined(NTT_CY_AVX2)
#include "simd/bitrev/avx2.h"
#endif

#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)
#define BITREV32_FUSED_EDGE 1

/* The walkers, written once over the ISA's tile interface (VEC_ISA(tile), _read and
 * _write: a 16 x 16 tile of uint32 values or an 8 x 8 tile of uint64 ones, lane64, in
 * flight), with the edge's stages (a BITREV_EDGE_* literal at every call) or not. */

/* Offsets of a tile's rows: row k at rev_f(k) << shift. */
NTT_INLINE void bitrev_tile_rows(const uint32_t *rev, int shift, int count, size_t *row) {
    for (int k = 0; k < count; k++)
        row[k] = (size_t)rev[(size_t)k << shift] << shift;
}

/* dst[i] = src[rev(i)] (src != dst), tiles m0 <= m < m1; max_seen (uint32, when not
 * NULL) raised to the largest value of src read (an inverse's input check, from the
 * tile in flight). */
NTT_INLINE int bitrev_tiles_copy(int lane64, int edge, const void *src, void *dst, int bits,
                                 const uint32_t *rev, size_t m0, size_t m1,
                                 const VEC_ISA(u32_edge_twiddles) *d, uint64_t *max_seen) {
    int field = lane64 ? 3 : 4, size = lane64 ? 8 : 4;
    size_t row[16];
    VEC_ISA(tile) t;
    vec_t top = vec_zero();
    bitrev_tile_rows(rev, bits - field, 1 << field, row);
    for (size_t m = m0; m < m1; m++) {
        /* row k of tile m: source row rev_f(k) of the middle value rev(m) */
        VEC_ISA(tile_read)(lane64, edge, (const char *)src + size * rev[m << field], row, &t,
                           d, max_seen ? &top : NULL);
        VEC_ISA(tile_write)(lane64, edge, &t, (char *)dst + size * (m << field), row, 0, d);
    }
    if (max_seen)
        vec_u32_max_seen(top, max_seen);
    return 1;
}

/* a[i] <-> a[rev(i)] in place for the tile pairs owned by m0 <= m < m1: tile m reads the
 * rows of tile rev(m) and the other way round, so a pair's smaller m moves both tiles,
 * each read whole before either is written; folded by fold_p on the way. */
NTT_INLINE int bitrev_tiles_swap(int lane64, int edge, void *a, int bits, const uint32_t *rev,
                                 size_t m0, size_t m1, uint64_t fold_p,
                                 const VEC_ISA(u32_edge_twiddles) *d) {
    int field = lane64 ? 3 : 4, size = lane64 ? 8 : 4;
    size_t row[16];
    VEC_ISA(tile) x, y;
    bitrev_tile_rows(rev, bits - field, 1 << field, row);
    for (size_t m = m0; m < m1; m++) {
        size_t mine = m << field, other = rev[mine];   /* other = rev(m) << field */
        if (other < mine)
            continue;                                  /* done with its partner */
        VEC_ISA(tile_read)(lane64, edge, (char *)a + size * other, row, &x, d, NULL);
        if (other != mine) {
            VEC_ISA(tile_read)(lane64, edge, (char *)a + size * mine, row, &y, d, NULL);
            VEC_ISA(tile_write)(lane64, edge, &y, (char *)a + size * other, row, fold_p, d);
        }
        VEC_ISA(tile_write)(lane64, edge, &x, (char *)a + size * mine, row, fold_p, d);
    }
    return 1;
}

/* The fused walks, one copy per family (NTT_BY_FAMILY); tw, twq: the stage twiddles of
 * the transform (the forward's for the DIF tail, the inverse's for the DIT head). */
NTT_INLINE int bitrev32_edge_walk(int forward, int family, int in_place, const uint32_t *src,
                                  uint32_t *a, int bits, const uint32_t *rev, size_t m0,
                                  size_t m1, uint32_t fold_p, const uint32_t *tw,
                                  const uint32_t *twq, uint32_t p, uint32_t pinv, uint64_t mu,
                                  uint64_t *max_seen) {
    VEC_ISA(u32_edge_twiddles) d;
    VEC_ISA(u32_edge_twiddles_load)(&d, tw, twq, p, pinv, mu, family);
    if (forward)
        return bitrev_tiles_swap(0, BITREV_EDGE_DIF_TAIL, a, bits, rev, m0, m1, fold_p, &d);
    if (in_place)
        return bitrev_tiles_swap(0, BITREV_EDGE_DIT_HEAD, a, bits, rev, m0, m1, 0, &d);
    return bitrev_tiles_copy(0, BITREV_EDGE_DIT_HEAD, src, a, bits, rev, m0, m1, &d,
                             max_seen);
}
#else
#define BITREV32_FUSED_EDGE 0   /* no fused permutations in the portable build */
#endif

static inline int bitrev32_copy(const uint32_t *src, uint32_t *dst, int bits,
                                const uint32_t *rev, size_t m0, size_t m1) {
    return NTT_VECTOR_CALL(bitrev_tiles_copy, 0, BITREV_EDGE_NONE, src, dst, bits, rev, m0,
                           m1, NULL, NULL);
}

static inline int bitrev64_copy(const uint64_t *src, uint64_t *dst, int bits,
                                const uint32_t *rev, size_t m0, size_t m1) {
    return NTT_VECTOR_CALL(bitrev_tiles_copy, 1, BITREV_EDGE_NONE, src, dst, bits, rev, m0,
                           m1, NULL, NULL);
}

static inline int bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev, size_t m0,
                                   size_t m1, uint32_t fold_p) {
    return NTT_VECTOR_CALL(bitrev_tiles_swap, 0, BITREV_EDGE_NONE, a, bits, rev, m0, m1,
                           fold_p, NULL);
}

static inline int bitrev64_inplace(uint64_t *a, int bits, const uint32_t *rev, size_t m0,
                                   size_t m1, uint64_t fold_p) {
    return NTT_VECTOR_CALL(bitrev_tiles_swap, 1, BITREV_EDGE_NONE, a, bits, rev, m0, m1,
                           fold_p, NULL);
}

/* The fused permutations (family etc. as ntt32_small_stages). */

/* bitrev32_inplace of a DIF that stopped before stage 8: the tiles take stages 8, 4,
 * 2, 1 on the way. */
static inline int bitrev32_inplace_dif_tail(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p,
                                            const uint32_t *tw, const uint32_t *twq,
                                            uint32_t p, uint32_t pinv, uint64_t mu,
                                            int family) {
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(bitrev32_edge_walk, 1, family, 1, NULL, a, bits, rev, m0, m1,
                         fold_p, tw, twq, p, pinv, mu, NULL);
}

/* bitrev32_copy (src != dst), then DIT stages 1..8 on dst; max_seen (when not NULL)
 * raised to the largest value of src read (an inverse's input check). */
static inline int bitrev32_copy_dit_head(const uint32_t *src, uint32_t *dst, int bits,
                                         const uint32_t *rev, size_t m0, size_t m1,
                                         const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                         uint32_t pinv, uint64_t mu, int family,
                                         uint64_t *max_seen) {
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(bitrev32_edge_walk, 0, family, 0, src, dst, bits, rev, m0, m1, 0,
                         tw, twq, p, pinv, mu, max_seen);
}

/* In place: bitrev32_inplace (no fold), then DIT stages 1..8. */
static inline int bitrev32_inplace_dit_head(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, const uint32_t *tw,
                                            const uint32_t *twq, uint32_t p, uint32_t pinv,
                                            uint64_t mu, int family) {
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(bitrev32_edge_walk, 0, family, 1, NULL, a, bits, rev, m0, m1, 0,
                         tw, twq, p, pinv, mu, NULL);
}
#endif
