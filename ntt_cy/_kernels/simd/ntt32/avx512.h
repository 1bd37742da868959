/* AVX-512 bodies for 32-bit lanes (16 per vector) where the algorithm is AVX-512's own:
 * the four stages at a transform's bit-reversed end in registers (vpermt2d gathers) and
 * on 16 x 16 tiles (padded_product's tiled order, and the natural-order permutations of
 * simd/bitrev/avx512.h), and the pointwise product.  The butterflies and the sweeps are
 * simd/ntt32/vector.h's; ranges as stated there.  simd/ntt32/dispatch.h includes this
 * file where simd/select.h picks AVX-512.
 */
#ifndef NTT_CY_SIMD_NTT32_AVX512_H
#define NTT_CY_SIMD_NTT32_AVX512_H
#include <stdint.h>
#include <stddef.h>
#include "simd/lane_tables.h"
#include "simd/ntt32/vector.h"

/* The 4 x 4 transpose of the 128-bit blocks of r0..r3 (block j of r_i -> block i of
 * out_j): shuffles of whole blocks, the same for any lane width. */
NTT_INLINE void avx512_transpose_blocks(__m512i r0, __m512i r1, __m512i r2, __m512i r3,
                                        __m512i *out0, __m512i *out1, __m512i *out2,
                                        __m512i *out3) {
    __m512i v0 = _mm512_shuffle_i64x2(r0, r1, 0x44);
    __m512i v1 = _mm512_shuffle_i64x2(r0, r1, 0xEE);
    __m512i v2 = _mm512_shuffle_i64x2(r2, r3, 0x44);
    __m512i v3 = _mm512_shuffle_i64x2(r2, r3, 0xEE);
    *out0 = _mm512_shuffle_i64x2(v0, v2, 0x88);
    *out1 = _mm512_shuffle_i64x2(v0, v2, 0xDD);
    *out2 = _mm512_shuffle_i64x2(v1, v3, 0x88);
    *out3 = _mm512_shuffle_i64x2(v1, v3, 0xDD);
}

/* r[k] <- column k of the 16 x 16 matrix of 32-bit values whose rows are r[0..15]. */
NTT_INLINE void avx512_u32_transpose16(__m512i r[16]) {
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
    for (e = 0; e < 4; e++)               /* a 4 x 4 transpose of 128-bit blocks per e */
        avx512_transpose_blocks(r[e], r[4 + e], r[8 + e], r[12 + e], &t[e], &t[4 + e],
                                &t[8 + e], &t[12 + e]);
    for (k = 0; k < 16; k++)
        r[k] = t[k];
}

/* ---- The four stages at the bit-reversed end in registers, 32 values at a time: the
 * gathers of simd/lane_tables.h for a stage of half-length h in {8, 4, 2, 1} on a
 * 32-value segment held in two registers (row k of each table: h = 8 >> k).  Constant
 * tables: computed per call they would dominate small transforms. */
static const struct {
    int32_t gather_x[4][16], gather_y[4][16], scatter_lo[4][16], scatter_hi[4][16];
    int32_t twiddle[4][16];
} avx512_u32_lanes __attribute__((aligned(64))) = LANE_TABLES(LANE_ROWS16, 16);

typedef struct {
    __m512i gx, gy, back_lo, back_hi;
    vec_u32_twiddle t;
} avx512_u32_small_stage;

NTT_INLINE avx512_u32_small_stage avx512_u32_stage(int k, const uint32_t *tw,
                                                   const uint32_t *twq, int lazy) {
    avx512_u32_small_stage s;
    int h = 8 >> k;
    __m512i wi = _mm512_load_si512(avx512_u32_lanes.twiddle[k]);
    __m512i w, wq;
    s.gx = _mm512_load_si512(avx512_u32_lanes.gather_x[k]);
    s.gy = _mm512_load_si512(avx512_u32_lanes.gather_y[k]);
    s.back_lo = _mm512_load_si512(avx512_u32_lanes.scatter_lo[k]);
    s.back_hi = _mm512_load_si512(avx512_u32_lanes.scatter_hi[k]);
    /* tw + h .. tw + h + 15 is inside the table: callers guarantee n >= 32. */
    w = _mm512_permutexvar_epi32(wi, _mm512_loadu_si512(tw + h));
    wq = lazy ? _mm512_permutexvar_epi32(wi, _mm512_loadu_si512(twq + h)) : w;
    s.t = vec_u32_twiddle_of(w, wq);
    return s;
}

NTT_INLINE void avx512_u32_stage_apply(int forward, __m512i *lo, __m512i *hi,
                                       const avx512_u32_small_stage *s, const vec_u32_mod *m,
                                       int one) {
    __m512i x = _mm512_permutex2var_epi32(*lo, s->gx, *hi);
    __m512i y = _mm512_permutex2var_epi32(*lo, s->gy, *hi);
    vec_u32_butterfly(forward, &x, &y, &s->t, m, one);
    *lo = _mm512_permutex2var_epi32(x, s->back_lo, y);
    *hi = _mm512_permutex2var_epi32(x, s->back_hi, y);
}

/* The four last DIF stages (h = 8, 4, 2, 1) or first DIT stages (h = 1, 2, 4, 8) over
 * a[0:size], 32 values at a time.  Between two stages the data go straight from one
 * stage's (x, y) lane order to the next one's with one permutation per register (the
 * composition of `back` and the next gather, built once per call), and two segments
 * are interleaved for instruction-level parallelism.  Returns 1 when done, 0 when size
 * is not a multiple of 32. */
NTT_INLINE int avx512_u32_small_stages(int forward, int family, uint32_t *a, size_t size,
                                       const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                       uint32_t pinv, uint64_t mu) {
    if (size < 32 || (size & 31))
        return 0;
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    int lazy = NTT_SHOUP_TWIDDLES(family);
    avx512_u32_small_stage st[4];
    __m512i next_x[4], next_y[4];
    for (int k = 0; k < 4; k++) /* in execution order: h = 8, 4, 2, 1 forward, reversed inverse */
        st[k] = avx512_u32_stage(forward ? k : 3 - k, tw, twq, lazy);
    for (int k = 1; k < 4; k++) {
        next_x[k] = _mm512_permutex2var_epi32(st[k - 1].back_lo, st[k].gx, st[k - 1].back_hi);
        next_y[k] = _mm512_permutex2var_epi32(st[k - 1].back_lo, st[k].gy, st[k - 1].back_hi);
    }
    size_t i = 0;
    for (; i + 64 <= size; i += 64) {
        __m512i lo0 = _mm512_loadu_si512(a + i), hi0 = _mm512_loadu_si512(a + i + 16);
        __m512i lo1 = _mm512_loadu_si512(a + i + 32), hi1 = _mm512_loadu_si512(a + i + 48);
        __m512i x0 = _mm512_permutex2var_epi32(lo0, st[0].gx, hi0);
        __m512i y0 = _mm512_permutex2var_epi32(lo0, st[0].gy, hi0);
        __m512i x1 = _mm512_permutex2var_epi32(lo1, st[0].gx, hi1);
        __m512i y1 = _mm512_permutex2var_epi32(lo1, st[0].gy, hi1);
        for (int k = 0; k < 4; k++) {
            if (k > 0) {
                __m512i t0 = _mm512_permutex2var_epi32(x0, next_x[k], y0);
                __m512i t1 = _mm512_permutex2var_epi32(x1, next_x[k], y1);
                y0 = _mm512_permutex2var_epi32(x0, next_y[k], y0);
                y1 = _mm512_permutex2var_epi32(x1, next_y[k], y1);
                x0 = t0;
                x1 = t1;
            }
            int one = k == (forward ? 3 : 0);   /* h = 1: twiddle 1 */
            vec_u32_butterfly(forward, &x0, &y0, &st[k].t, &m, one);
            vec_u32_butterfly(forward, &x1, &y1, &st[k].t, &m, one);
        }
        _mm512_storeu_si512(a + i, _mm512_permutex2var_epi32(x0, st[3].back_lo, y0));
        _mm512_storeu_si512(a + i + 16, _mm512_permutex2var_epi32(x0, st[3].back_hi, y0));
        _mm512_storeu_si512(a + i + 32, _mm512_permutex2var_epi32(x1, st[3].back_lo, y1));
        _mm512_storeu_si512(a + i + 48, _mm512_permutex2var_epi32(x1, st[3].back_hi, y1));
    }
    if (i < size) {   /* one 32-value segment left */
        __m512i lo = _mm512_loadu_si512(a + i), hi = _mm512_loadu_si512(a + i + 16);
        for (int k = 0; k < 4; k++)
            avx512_u32_stage_apply(forward, &lo, &hi, &st[k], &m, 0);
        _mm512_storeu_si512(a + i, lo);
        _mm512_storeu_si512(a + i + 16, hi);
    }
    return 1;
}

/* ---- The four stages at a transform's bit-reversed end (the forward's last, DIF
 * h = 8, 4, 2, 1; the inverse's first, DIT h = 1, 2, 4, 8) on a 16 x 16 tile whose
 * rows are the stages' 16-value blocks ("segments").  Transposed, vector c holds value
 * c of every segment, so each butterfly pairs two whole vectors, c and c + h
 * (c mod 2h < h), with one twiddle tw[h + c mod h] broadcast: no shuffles for the
 * butterflies (avx512_u32_small_stages spends four vpermt2d per pair of segments and
 * stage), one fewer in each Shoup product (a broadcast is its own odd lanes), and the
 * 15 of the 32 butterflies whose twiddle is 1 (c mod h = 0) take vec_u32_times's fold
 * instead of a product: values congruent to avx512_u32_small_stages's, in the same
 * ranges, so the transforms' results are the same.  Used by padded_product's tiled
 * order (below) and by the natural-order permutations (simd/bitrev/avx512.h).  The AVX2
 * bodies do the same in quadrants of 8 x 8 (simd/ntt32/avx2.h). */
typedef struct {
    vec_u32_mod m;
    vec_u32_twiddle t[16];   /* [h + c mod h] for h = 1, 2, 4, 8: entries 1..15 */
} avx512_u32_edge_twiddles;

NTT_INLINE void avx512_u32_edge_twiddles_load(avx512_u32_edge_twiddles *d, const uint32_t *tw,
                                              const uint32_t *twq, uint32_t p, uint32_t pinv,
                                              uint64_t mu, int family) {
    const uint32_t *q = NTT_SHOUP_TWIDDLES(family) ? twq : tw;
    d->m = vec_u32_modulus(p, pinv, mu, family);
    for (int k = 1; k < 16; k++)
        d->t[k] = vec_u32_twiddle_splat(tw[k], q[k]);
}

/* The stages on whole vectors r[c]: DIF h = 8, 4, 2, 1 (forward), DIT 1, 2, 4, 8. */
NTT_INLINE void avx512_u32_edge_stages(int forward, __m512i r[16],
                                       const avx512_u32_edge_twiddles *d) {
    /* unrolled whole, so r stays in registers (gcc otherwise kept these loops, and r on
     * the stack) */
#pragma GCC unroll 4
    for (int s = 0; s < 4; s++) {
        int h = forward ? 8 >> s : 1 << s;
#pragma GCC unroll 16
        for (int c = 0; c < 16; c++) {
            if (c & h)
                continue;
            int k = h + (c & (h - 1));
            if (c & (h - 1))
                vec_u32_butterfly(forward, &r[c], &r[c + h], &d->t[k], &d->m, 0);
            else
                vec_u32_butterfly(forward, &r[c], &r[c + h], &d->t[k], &d->m, 1);
        }
    }
}

/* Forward: r[0..15] the segments in, the transposed tile out, through the DIF stages.
 * Inverse: the transposed tile in (r[c] = value c of every segment), through the DIT
 * stages, the segments out. */
NTT_INLINE void avx512_u32_edge_tile(int forward, __m512i r[16],
                                     const avx512_u32_edge_twiddles *d) {
    if (forward) {
        avx512_u32_transpose16(r);
        avx512_u32_edge_stages(1, r, d);
    } else {
        avx512_u32_edge_stages(0, r, d);
        avx512_u32_transpose16(r);
    }
}

/* ---- Tiled order (padded_product only, where both forwards and the inverse are
 * internal and the pointwise product ignores order): the four edge stages on blocks of
 * 256 values, sixteen segments s, by avx512_u32_edge_tile, stored as it leaves them:
 * block position 16 c + s holds segment s's value c, i.e. the bit-reversed order with
 * each block's 16 x 16 matrix transposed.  The inverse takes that order back. */
#define NTT32_TILED_BLOCK 256

/* 1 when done, 0 when size is not a multiple of 256. */
NTT_INLINE int avx512_u32_small_stages_tiled(int forward, int family, uint32_t *a, size_t size,
                                             const uint32_t *tw, const uint32_t *twq,
                                             uint32_t p, uint32_t pinv, uint64_t mu) {
    avx512_u32_edge_twiddles d;
    if (size & 255)
        return 0;
    avx512_u32_edge_twiddles_load(&d, tw, twq, p, pinv, mu, family);
    for (size_t i = 0; i < size; i += 256) {
        __m512i r[16];
        for (int k = 0; k < 16; k++)
            r[k] = _mm512_loadu_si512(a + i + 16 * k);
        avx512_u32_edge_tile(forward, r, &d);
        for (int k = 0; k < 16; k++)
            _mm512_storeu_si512(a + i + 16 * k, r[k]);
    }
    return 1;
}

/* ---- The pointwise product */

/* out[i] = mont(mont(a[i], b[i]), c) = a b c 2^-64 mod p: with c = f 2^64 mod p this
 * is a*b*f mod p.  a, b, c in [0, p), p odd < 2^32; out in [0, p), or in [0, 2p) with
 * lazy_out (for a LAZY DIT, whose inputs may lie in [0, 4p); p < 2^30 there): the
 * last product's h1 - h2 + p without its correction, a mask compare and masked add
 * less.  c = 2^32 mod p (one operand already carries the factor, see
 * padded_product_rows): mont(x, c) = x, one product.  Returns the count done (a
 * multiple of 16). */
NTT_INLINE size_t avx512_u32_pointwise(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                       size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                       int lazy_out) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, 0, NTT_MONTGOMERY);
    __m512i vc = _mm512_set1_epi32((int)c);
    size_t i, done = count & ~(size_t)15;
    if (c == (uint32_t)((1ull << 32) % p)) {
        for (i = 0; i < done; i += 16) {
            __m512i x = _mm512_loadu_si512(a + i), y = _mm512_loadu_si512(b + i);
            _mm512_storeu_si512(out + i, lazy_out ? vec_u32_mont_lazy(x, y, &m)
                                                  : vec_u32_mont(x, y, &m));
        }
        return done;
    }
    for (i = 0; i < done; i += 16) {
        __m512i x = vec_u32_mont(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i), &m);
        _mm512_storeu_si512(out + i, lazy_out ? vec_u32_mont_lazy(x, vc, &m)
                                              : vec_u32_mont(x, vc, &m));
    }
    return done;
}
#endif
