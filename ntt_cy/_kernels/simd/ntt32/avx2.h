/* AVX2 bodies for 32-bit lanes (8 per vector) where the algorithm is AVX2's own: the
 * four stages at a transform's bit-reversed end in registers (16-value segments split
 * and joined by shuffles) and in quadrants of 8 x 8 (padded_product's tiled order, and
 * the natural-order permutations of simd/bitrev/avx2.h), and the pointwise product.
 * The butterflies and the sweeps are simd/ntt32/vector.h's; ranges as stated there.
 * simd/ntt32/dispatch.h includes this file where simd/select.h picks AVX2.
 */
#ifndef NTT_CY_SIMD_NTT32_AVX2_H
#define NTT_CY_SIMD_NTT32_AVX2_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/vector.h"

/* Stage twiddles of a 16-element segment (a = elements 0-7, b = 8-15) in the lane
 * order of the (x, y) registers avx2_u32_split makes for half-length h. */
NTT_INLINE __m256i avx2_u32_stage_twiddles(const uint32_t *tw, int h) {
    switch (h) {
    case 8: return _mm256_loadu_si256((const __m256i *)(tw + 8));
    case 4: return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(tw + 4)));
    case 2: return _mm256_set1_epi64x(((const int64_t *)(tw + 2))[0]);
    default: return _mm256_set1_epi32((int)tw[1]);
    }
}

/* (a, b) -> (x, y): x the first, y the second inputs of the butterflies of stage h. */
NTT_INLINE void avx2_u32_split(int h, __m256i a, __m256i b, __m256i *x, __m256i *y) {
    switch (h) {
    case 8: *x = a; *y = b; break;                            /* (i, i + 8) */
    case 4:                                                   /* [a.lo b.lo], [a.hi b.hi] */
        *x = _mm256_permute2x128_si256(a, b, 0x20);
        *y = _mm256_permute2x128_si256(a, b, 0x31);
        break;
    case 2:                                                   /* per 128 bits: (0,1 | 2,3) */
        *x = _mm256_unpacklo_epi64(a, b);
        *y = _mm256_unpackhi_epi64(a, b);
        break;
    default:                                                  /* even / odd elements */
        *x = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a),
                                                   _mm256_castsi256_ps(b), 0x88));
        *y = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(a),
                                                   _mm256_castsi256_ps(b), 0xDD));
    }
}

/* Inverse of avx2_u32_split. */
NTT_INLINE void avx2_u32_join(int h, __m256i x, __m256i y, __m256i *a, __m256i *b) {
    switch (h) {
    case 8: *a = x; *b = y; break;
    case 4:
        *a = _mm256_permute2x128_si256(x, y, 0x20);
        *b = _mm256_permute2x128_si256(x, y, 0x31);
        break;
    case 2:
        *a = _mm256_unpacklo_epi64(x, y);
        *b = _mm256_unpackhi_epi64(x, y);
        break;
    default:
        *a = _mm256_unpacklo_epi32(x, y);
        *b = _mm256_unpackhi_epi32(x, y);
    }
}

/* One stage of half-length h (a literal at every call, so the switches fold) on a
 * 16-element segment held in (lo, hi). */
NTT_INLINE void avx2_u32_small_stage(int forward, int h, __m256i *lo, __m256i *hi,
                                     const vec_u32_twiddle *t, const vec_u32_mod *m) {
    __m256i x, y;
    avx2_u32_split(h, *lo, *hi, &x, &y);
    vec_u32_butterfly(forward, &x, &y, t, m, h == 1);
    avx2_u32_join(h, x, y, lo, hi);
}

/* The last four DIF stages (h = 8, 4, 2, 1), or the first four DIT stages, on
 * `count` segments of 16 held in (lo[s], hi[s]), stage by stage across them; t[k]: the
 * twiddles of stage h = 8 >> k. */
NTT_INLINE void avx2_u32_small_segments(int forward, __m256i *lo, __m256i *hi, int count,
                                        const vec_u32_twiddle t[4], const vec_u32_mod *m) {
    if (forward) {
        for (int s = 0; s < count; s++) avx2_u32_small_stage(1, 8, &lo[s], &hi[s], &t[0], m);
        for (int s = 0; s < count; s++) avx2_u32_small_stage(1, 4, &lo[s], &hi[s], &t[1], m);
        for (int s = 0; s < count; s++) avx2_u32_small_stage(1, 2, &lo[s], &hi[s], &t[2], m);
        for (int s = 0; s < count; s++) avx2_u32_small_stage(1, 1, &lo[s], &hi[s], &t[3], m);
    } else {
        for (int s = 0; s < count; s++) avx2_u32_small_stage(0, 1, &lo[s], &hi[s], &t[3], m);
        for (int s = 0; s < count; s++) avx2_u32_small_stage(0, 2, &lo[s], &hi[s], &t[2], m);
        for (int s = 0; s < count; s++) avx2_u32_small_stage(0, 4, &lo[s], &hi[s], &t[1], m);
        for (int s = 0; s < count; s++) avx2_u32_small_stage(0, 8, &lo[s], &hi[s], &t[0], m);
    }
}

/* The last four DIF stages (h = 8, 4, 2, 1) or first four DIT stages over
 * a[0:size], 16 elements at a time, in registers; 1 when done, 0 when it cannot. */
NTT_INLINE int avx2_u32_small_stages(int forward, int family, uint32_t *a, size_t size,
                                     const uint32_t *tw, const uint32_t *twq,
                                     uint32_t p, uint32_t pinv, uint64_t mu) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    int lazy = NTT_SHOUP_TWIDDLES(family);
    vec_u32_twiddle t[4];
    if (size < 16 || (size & 15))
        return 0;
    for (int k = 0; k < 4; k++) {
        __m256i w = avx2_u32_stage_twiddles(tw, 8 >> k);
        t[k] = vec_u32_twiddle_of(w, lazy ? avx2_u32_stage_twiddles(twq, 8 >> k) : w);
    }
    /* Two segments per step, their stages interleaved: one segment's four stages are
     * one long dependency chain. */
    size_t i = 0, pairs = size & ~(size_t)31;
    for (; i < pairs; i += 32) {
        __m256i lo[2], hi[2];
        for (int s = 0; s < 2; s++) {
            lo[s] = _mm256_loadu_si256((const __m256i *)(a + i + 16 * s));
            hi[s] = _mm256_loadu_si256((const __m256i *)(a + i + 16 * s + 8));
        }
        avx2_u32_small_segments(forward, lo, hi, 2, t, &m);
        for (int s = 0; s < 2; s++) {
            _mm256_storeu_si256((__m256i *)(a + i + 16 * s), lo[s]);
            _mm256_storeu_si256((__m256i *)(a + i + 16 * s + 8), hi[s]);
        }
    }
    if (i < size) {   /* an odd segment at the end */
        __m256i lo = _mm256_loadu_si256((const __m256i *)(a + i));
        __m256i hi = _mm256_loadu_si256((const __m256i *)(a + i + 8));
        avx2_u32_small_segments(forward, &lo, &hi, 1, t, &m);
        _mm256_storeu_si256((__m256i *)(a + i), lo);
        _mm256_storeu_si256((__m256i *)(a + i + 8), hi);
    }
    return 1;
}

/* ---- Tiled order (padded_product only, where both forwards and the inverse are
 * internal and the pointwise product ignores order): the last four DIF stages (and the
 * first four DIT ones) on blocks of 128 values, eight 16-value segments s = 0..7, with
 * the segments transposed instead of shuffled.  Stage 8 pairs the two halves of a
 * segment (whole vectors); then the 8 x 8 quadrant of the first halves, transposed,
 * holds column c of every segment in vector c, so stages 4, 2, 1 pair whole vectors
 * (broadcast twiddles tw[h + c mod h]); the same for the second halves (columns 8..15).
 * The forward stores the quadrants transposed: block position 8 c + s holds segment
 * s's value c (c < 8), 64 + 8 (c - 8) + s for c >= 8, i.e. the bit-reversed order with
 * each block's 8 x 16 matrix transposed quadrant by quadrant.  The inverse takes that
 * order back.  Same butterflies as ntt32_small_stages, except that twiddle-1
 * ones take a fold (avx2_u32_edge_quadrant): values congruent, in the same ranges. */
#define NTT32_TILED_BLOCK 128   /* the block length */

/* The twiddles of the four stages at a transform's bit-reversed end (h = 8, 4, 2, 1)
 * as vertical butterflies use them: stage 8 a vector (twiddle per lane), stages 4
 * and 2 one broadcast per column.  Shared with simd/bitrev/avx2.h. */
typedef struct {
    vec_u32_mod m;
    vec_u32_twiddle t8, t4[4], t2[2];
} avx2_u32_edge_twiddles;

NTT_INLINE void avx2_u32_edge_twiddles_load(avx2_u32_edge_twiddles *d, const uint32_t *tw,
                                            const uint32_t *twq, uint32_t p, uint32_t pinv,
                                            uint64_t mu, int family) {
    int lazy = NTT_SHOUP_TWIDDLES(family);
    d->m = vec_u32_modulus(p, pinv, mu, family);
    const uint32_t *q = lazy ? twq : tw;
    d->t8 = vec_u32_twiddle_of(_mm256_loadu_si256((const __m256i *)(tw + 8)),
                               _mm256_loadu_si256((const __m256i *)(q + 8)));
    for (int k = 0; k < 4; k++)
        d->t4[k] = vec_u32_twiddle_splat(tw[4 + k], q[4 + k]);
    for (int k = 0; k < 2; k++)
        d->t2[k] = vec_u32_twiddle_splat(tw[2 + k], q[2 + k]);
}

/* The 8 x 8 transpose of 32-bit values (rows r[0..7] -> columns). */
NTT_INLINE void avx2_u32_transpose8(__m256i r[8]) {
    __m256i t[8], u[8];
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_epi32(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    for (int e = 0; e < 4; e++) {
        r[e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x20);
        r[4 + e] = _mm256_permute2x128_si256(u[e], u[4 + e], 0x31);
    }
}

/* Stages 4, 2, 1 (DIF, forward) or 1, 2, 4 (DIT) of eight 16-value segments' halves,
 * r[s] = segment s's values 8 h .. 8 h + 7 (h = 0 or 1), by way of their transpose,
 * where column k (value 8 h + k of every segment) is one vector and each butterfly
 * pairs two whole vectors.  Forward: in rows, out columns; inverse: in columns, out
 * rows.  Twiddle 1 (tw[h] = r_2h^0: the four butterflies of stage 1, the two on
 * columns (0, 2) and (4, 6) of stage 2, the one on (0, 4) of stage 4) takes the fold of
 * vec_u32_times's `one` instead of a product, 7 of the 12 butterflies here (LAZY: 2 ops
 * instead of 8).  The values it leaves may differ from the product's by p, in the same
 * range ([0, 2p) DIF, [0, 4p) DIT): final results are the same. */
NTT_INLINE void avx2_u32_edge_quadrant(int forward, __m256i r[8],
                                       const avx2_u32_edge_twiddles *d) {
    if (forward) {
        avx2_u32_transpose8(r);
        for (int k = 0; k < 4; k++)
            vec_u32_butterfly(1, &r[k], &r[k + 4], &d->t4[k], &d->m, k == 0);
        for (int k = 0; k < 8; k += 4)
            for (int e = 0; e < 2; e++)
                vec_u32_butterfly(1, &r[k + e], &r[k + e + 2], &d->t2[e], &d->m, e == 0);
        for (int k = 0; k < 8; k += 2)
            vec_u32_butterfly(1, &r[k], &r[k + 1], &d->t8, &d->m, 1);
    } else {
        for (int k = 0; k < 8; k += 2)
            vec_u32_butterfly(0, &r[k], &r[k + 1], &d->t8, &d->m, 1);
        for (int k = 0; k < 8; k += 4)
            for (int e = 0; e < 2; e++)
                vec_u32_butterfly(0, &r[k + e], &r[k + e + 2], &d->t2[e], &d->m, e == 0);
        for (int k = 0; k < 4; k++)
            vec_u32_butterfly(0, &r[k], &r[k + 4], &d->t4[k], &d->m, k == 0);
        avx2_u32_transpose8(r);
    }
}

/* 1 when done, 0 when size is not a multiple of 128. */
NTT_INLINE int avx2_u32_small_stages_tiled(int forward, int family, uint32_t *a, size_t size,
                                           const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                           uint32_t pinv, uint64_t mu) {
    avx2_u32_edge_twiddles d;
    avx2_u32_edge_twiddles_load(&d, tw, twq, p, pinv, mu, family);
    if (size & 127)
        return 0;
    for (size_t i = 0; i < size; i += 128) {
        uint32_t *b = a + i;
        __m256i lo[8], hi[8];   /* segment halves, or the columns 0..7 / 8..15 */
        if (forward) {
            for (int s = 0; s < 8; s++) {
                lo[s] = _mm256_loadu_si256((const __m256i *)(b + 16 * s));
                hi[s] = _mm256_loadu_si256((const __m256i *)(b + 16 * s + 8));
                vec_u32_butterfly(1, &lo[s], &hi[s], &d.t8, &d.m, 0);   /* stage 8 */
            }
            avx2_u32_edge_quadrant(1, lo, &d);
            avx2_u32_edge_quadrant(1, hi, &d);
            for (int k = 0; k < 8; k++) {
                _mm256_storeu_si256((__m256i *)(b + 8 * k), lo[k]);
                _mm256_storeu_si256((__m256i *)(b + 64 + 8 * k), hi[k]);
            }
        } else {
            for (int k = 0; k < 8; k++) {
                lo[k] = _mm256_loadu_si256((const __m256i *)(b + 8 * k));
                hi[k] = _mm256_loadu_si256((const __m256i *)(b + 64 + 8 * k));
            }
            avx2_u32_edge_quadrant(0, lo, &d);
            avx2_u32_edge_quadrant(0, hi, &d);
            for (int s = 0; s < 8; s++) {
                vec_u32_butterfly(0, &lo[s], &hi[s], &d.t8, &d.m, 0);   /* stage 8 */
                _mm256_storeu_si256((__m256i *)(b + 16 * s), lo[s]);
                _mm256_storeu_si256((__m256i *)(b + 16 * s + 8), hi[s]);
            }
        }
    }
    return 1;
}

/* out[i] = a[i] b[i] c 2^-64 mod p in [0, p), as the AVX-512 version (a b < p 2^32, p odd).
 * For p < 2^31 the Montgomery product is left unreduced, a b 2^-32 = h1 - h2 in (-p, p)
 * -> + p in (0, 2p) below 2^32, and c 2^-64 is one Shoup constant C = c 2^-32 mod p
 * ([0, 2p), then one fold): 25 vector operations per 8 values instead of two full
 * Montgomery products' 38 (each with AVX2's emulated unsigned compare).  lazy_out (the
 * product goes on to a LAZY DIT, whose inputs may lie in [0, 4p)): the Shoup result
 * stays in [0, 2p), without the fold (23 operations).  C = 1 (c = 2^32 mod p: one
 * operand already carries the factor, see padded_product_rows): no Shoup product, the
 * Montgomery one's h1 - h2 + p is the result (15 operations). */
NTT_INLINE size_t avx2_u32_pointwise(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                     size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                     int lazy_out) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, 0, NTT_MONTGOMERY);
    size_t i, done = count & ~(size_t)7;
    if (p < (1u << 31)) {
        /* C = c 2^-32 mod p by one scalar REDC: (c - k p) / 2^32 with k p = c mod 2^32,
         * i.e. -hi(k p) mod p. */
        uint32_t hi = (uint32_t)(((uint64_t)(c * pinv) * p) >> 32);
        uint32_t cc = hi ? p - hi : 0;
        __m256i vcc = _mm256_set1_epi32((int)cc);
        __m256i vccq = _mm256_set1_epi32((int)(uint32_t)(((uint64_t)cc << 32) / p));
        if (cc == 1) {
            for (i = 0; i < done; i += 8) {
                __m256i t = vec_u32_mont_lazy(_mm256_loadu_si256((const __m256i *)(a + i)),
                                               _mm256_loadu_si256((const __m256i *)(b + i)),
                                               &m);
                _mm256_storeu_si256((__m256i *)(out + i), lazy_out ? t : vec_fold_u32(t, m.p));
            }
            return done;
        }
        for (i = 0; i < done; i += 8) {
            __m256i t = vec_u32_mont_lazy(_mm256_loadu_si256((const __m256i *)(a + i)),
                                           _mm256_loadu_si256((const __m256i *)(b + i)), &m);
            __m256i r = vec_u32_shoup_odd(t, vcc, vccq, vccq, m.p);
            _mm256_storeu_si256((__m256i *)(out + i), lazy_out ? r : vec_fold_u32(r, m.p));
        }
        return done;
    }
    __m256i vc = _mm256_set1_epi32((int)c);
    for (i = 0; i < done; i += 8) {
        __m256i x = vec_u32_mont(_mm256_loadu_si256((const __m256i *)(a + i)),
                                 _mm256_loadu_si256((const __m256i *)(b + i)), &m);
        _mm256_storeu_si256((__m256i *)(out + i), vec_u32_mont(x, vc, &m));
    }
    return done;
}
#endif
