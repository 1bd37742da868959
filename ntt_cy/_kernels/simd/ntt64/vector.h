/* The uint64-lane integer butterflies and sweeps, written once over simd/vector_ops.h
 * for every vector ISA (VEC_U64_LANES lanes per vector): the scalar mont_mul64 /
 * barrett_mul64 / shoup_mul64 lane for lane, with 128-bit products from four
 * 32 x 32-bit vpmuludq pieces (no vector ISA has a 64 x 64 -> 128-bit product), and
 * MONTGOMERY with R = 2^52 where the ISA header brings IFMA (avx512_u64_mont52, defined
 * before it includes this file).  Ranges, lane for lane those of the scalar code
 * (ntt/arith64.pxd, ntt/butterflies.pxi):
 *   LAZY (Harvey, Shoup twiddles with 64-bit quotients): DIF [0, 2p), DIT [0, 4p),
 *     4p <= 2^64.
 *   MONTGOMERY64 (R = 2^64, odd p), MONTGOMERY52 (R = 2^52, odd p < 2^52), BARRETT (any
 *     p < 2^64), GOLDILOCKS (p = 2^64 - 2^32 + 1, plain twiddles): [0, p).
 * The ISA headers add what differs: the stages at the bit-reversed end
 * (simd/ntt64/avx512_ifma.h, simd/ntt64/avx2.h) and AVX2's double-precision LAZY
 * kernels.
 */
#ifndef NTT_CY_SIMD_NTT64_VECTOR_H
#define NTT_CY_SIMD_NTT64_VECTOR_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"
#include "simd/vector_ops.h"

typedef struct {
    vec_t p, two_p, pinv, d, v;
    __m128i shift, rshift;   /* BARRETT's normalisation: clz(p), 64 - clz(p) */
    int family;
    int small;               /* p < 2^63: differences of residues keep their sign */
} vec_u64_mod;

/* Vector constants of prm; `family` is passed as a literal by the entry points so that
 * each family gets its own specialised loops. */
NTT_INLINE vec_u64_mod vec_u64_modulus(const ntt64_params *prm, int family) {
    vec_u64_mod m;
    m.p = vec_set1_u64(prm->p);
    m.two_p = vec_set1_u64(2 * prm->p);
    m.pinv = vec_set1_u64(prm->pinv);
    m.d = vec_set1_u64(prm->barrett_d);
    m.v = vec_set1_u64(prm->barrett_v);
    m.shift = _mm_cvtsi32_si128(prm->barrett_shift);
    m.rshift = _mm_cvtsi32_si128(64 - prm->barrett_shift);
    m.family = family;
    m.small = prm->p < (UINT64_C(1) << 63);
    return m;
}

/* m->small, settled at compile time where the family settles it (MONTGOMERY52: p <
 * 2^52; GOLDILOCKS: p > 2^63) and the family is a literal, so that the loops test
 * nothing. */
NTT_INLINE int vec_u64_small(const vec_u64_mod *m) {
    if (m->family == NTT_MONTGOMERY52)
        return 1;
    if (m->family == NTT_GOLDILOCKS)
        return 0;
    return m->small;
}

/* The 128-bit products a*b = hi 2^64 + lo, lane by lane.  With a = a1 2^32 + a0 and
 * b = b1 2^32 + b0: a*b = a1b1 2^64 + (a0b1 + a1b0) 2^32 + a0b0, and the middle column
 * mid = lo32(a0b1) + lo32(a1b0) + hi32(a0b0) < 3 2^32 carries mid >> 32 into the high
 * word.  Exact for all a, b < 2^64. */
NTT_INLINE vec_t vec_u64_mul_wide(vec_t a, vec_t b, vec_t *lo) {
    const vec_t low32 = vec_set1_u64(0xffffffffu);
    vec_t a1 = vec_shr32_u64(a), b1 = vec_shr32_u64(b);
    vec_t ll = vec_mul_even_u32(a, b), lh = vec_mul_even_u32(a, b1);
    vec_t hl = vec_mul_even_u32(a1, b), hh = vec_mul_even_u32(a1, b1);
    vec_t mid = vec_add_u64(vec_shr32_u64(ll), vec_and(lh, low32));
    mid = vec_add_u64(mid, vec_and(hl, low32));
    vec_t hi = vec_add_u64(hh, vec_shr32_u64(lh));
    hi = vec_add_u64(hi, vec_shr32_u64(hl));
    *lo = vec_or(vec_shl32_u64(mid), vec_and(ll, low32));
    return vec_add_u64(hi, vec_shr32_u64(mid));
}

/* High words only (the compiler drops the unused low word). */
NTT_INLINE vec_t vec_u64_mulhi(vec_t a, vec_t b) {
    vec_t lo;
    return vec_u64_mul_wide(a, b, &lo);
}

/* Shoup, as shoup_mul64: a < 2^64, w < p, wq = floor(w 2^64 / p), p < 2^63 -> [0, 2p)
 * (q = hi(a wq), a w - q p mod 2^64). */
NTT_INLINE vec_t vec_u64_shoup(vec_t a, vec_t w, vec_t wq, const vec_u64_mod *m) {
    vec_t q = vec_u64_mulhi(a, wq);
    return vec_sub_u64(vec_mullo_u64(a, w), vec_mullo_u64(q, m->p));
}

/* Montgomery, R = 2^64, as mont_mul64: a < 2^64, b < p, p odd, pinv = p^-1 mod 2^64.
 * T = a b < p 2^64; k = lo(T) pinv; hi(T) - hi(k p) in (-p, p) -> [0, p).  lo(T) comes
 * from the same four 32 x 32 pieces as hi(T). */
NTT_INLINE vec_t vec_u64_mont64(vec_t a, vec_t b, const vec_u64_mod *m) {
    vec_t lo, h1 = vec_u64_mul_wide(a, b, &lo);
    vec_t h2 = vec_u64_mulhi(vec_mullo_u64(lo, m->pinv), m->p);
    return vec_sub_mod_u64(h1, h2, m->p, vec_u64_small(m));
}

/* Barrett, as barrett_mul64 lane for lane (Moller & Granlund 2011, Algorithm 4): a <
 * 2^64, b < p -> [0, p) for every p < 2^64.  Shifts by a count register give 0 for a
 * count of 64, so shift = 0 needs no special case. */
NTT_INLINE vec_t vec_u64_barrett(vec_t a, vec_t b, const vec_u64_mod *m) {
    vec_t lo, hi = vec_u64_mul_wide(a, b, &lo);
    vec_t n1 = vec_or(vec_sll_u64(hi, m->shift), vec_srl_u64(lo, m->rshift));
    vec_t n0 = vec_sll_u64(lo, m->shift);
    vec_t q0, q1 = vec_u64_mul_wide(m->v, n1, &q0);
    q0 = vec_add_u64(q0, n0);
    q1 = vec_add_u64(q1, vec_add_u64(n1, vec_set1_u64(1)));
    q1 = vec_inc_if_below_u64(q1, q0, n0);                 /* the carry of q0 + n0 */
    vec_t r = vec_sub_u64(n0, vec_mullo_u64(q1, m->d));
    r = vec_add_if_below_u64(r, q0, r, m->d);              /* r > q0: + d */
    /* r in [0, 2d) here.  r = d would need a*b = 0 mod p with a*b != 0: never, for a
     * prime p and a, b < p (a*b = 0 gives r = 0), so no test through the transforms
     * can tell this >= from >; it stays >= as the algorithm states it for any a. */
    r = vec_sub_unless_below_u64(r, r, m->d, m->d);
    return vec_srl_u64(r, m->shift);
}

/* GOLDILOCKS (p = 2^64 - 2^32 + 1; E = 2^32 - 1 = 2^64 mod p; 2^96 = -1 mod p).
 *
 * a w = hi 2^64 + lo for any a, w < 2^64 from the four 32 x 32-bit pieces, summed as
 * the columns allow: t0 = hl + hi32(ll) <= (2^32 - 1)^2 + 2^32 - 1 < 2^64, t1 = lh +
 * lo32(t0) < 2^64 likewise, hi = hh + hi32(t0) + hi32(t1), lo = lo32(t1) 2^32 + lo32(ll).
 * (Three additions fewer than vec_u64_mul_wide's generic column sum.) */
NTT_INLINE vec_t vec_u64_gl_wide(vec_t a, vec_t w, vec_t *lo) {
    const vec_t eps = vec_set1_u64(0xffffffffu);
    vec_t a1 = vec_shr32_u64(a), w1 = vec_shr32_u64(w);
    vec_t ll = vec_mul_even_u32(a, w), lh = vec_mul_even_u32(a, w1);
    vec_t hl = vec_mul_even_u32(a1, w), hh = vec_mul_even_u32(a1, w1);
    vec_t t0 = vec_add_u64(hl, vec_shr32_u64(ll));
    vec_t t1 = vec_add_u64(lh, vec_and(t0, eps));
    *lo = vec_or(vec_shl32_u64(t1), vec_and(ll, eps));
    return vec_add_u64(vec_add_u64(hh, vec_shr32_u64(t0)), vec_shr32_u64(t1));
}

/* (t + u) mod p in [0, p) for t < 2^64, u <= (2^32 - 1)^2, the last step of
 * vec_u64_goldilocks_reduce below (whose comment gives the bounds and the AVX2 form). */
NTT_INLINE vec_t vec_u64_goldilocks_add_small(vec_t t, vec_t u, const vec_u64_mod *m) {
#if defined(NTT_CY_AVX2)
    (void)m;
    const vec_t top = vec_set1_u64(UINT64_C(1) << 63);
    const vec_t last_s = vec_set1_u64((NTT_GOLDILOCKS_P - 1) ^ (UINT64_C(1) << 63));
    vec_t t_s = _mm256_xor_si256(t, top);
    vec_t r_s = vec_add_u64(t_s, u);
    vec_t wrap = _mm256_or_si256(_mm256_cmpgt_epi64(t_s, r_s),           /* carry */
                                 _mm256_cmpgt_epi64(r_s, last_s));        /* r >= p */
    return _mm256_xor_si256(vec_add_u64(r_s, vec_shr32_u64(wrap)), top);  /* + E */
#else
    vec_t r = vec_add_u64(t, u);
    r = vec_add_if_below_u64(r, r, u, vec_set1_u64(0xffffffffu));
    return vec_min_u64(r, vec_sub_u64(r, m->p));   /* r < p: r - p wraps to r + E > r */
#endif
}

/* (hi 2^64 + lo) mod p in [0, p) for any hi, lo < 2^64, as goldilocks_reduce128 lane
 * for lane.  With hi = hh 2^32 + hl (hh, hl < 2^32), 2^96 = -1 gives
 * hi 2^64 + lo = lo - hh + hl E:
 *   t = lo - hh; a borrow left t + 2^64 = t + E too much, so t -= E (t was
 *     >= 2^64 - 2^32 + 1 then: no new borrow);
 *   u = hl E, one vpmuludq (hi's low half times E), <= (2^32 - 1)^2;
 *   r = t + u; a carry dropped 2^64 = E, so r += E (r <= 2^64 - 2^33 then: no new
 *     carry);
 * r < 2^64 < 2p is congruent to the input: one conditional subtraction of p (r - p =
 * r + E mod 2^64).  The carry and r >= p never hold together (after a carry r <= 2^64
 * - 2^33 < p), and both add E: AVX2 tests them together (t + u >= p as a 65-bit sum)
 * and adds E once.  AVX-512 takes the borrow and the carry as mask registers and r >= p
 * as min(r, r - p) (two plain uops, cheaper than a compare into a mask and a masked
 * subtraction); AVX2, whose only 64-bit compare is signed, keeps t and r with the top
 * bit flipped (x ^ 2^63: adding to or subtracting from x flips the same bit of the
 * result, and a signed compare of two flipped values is the unsigned compare of the
 * values), the correction E being a compare's all-ones mask shifted right by 32. */
NTT_INLINE vec_t vec_u64_goldilocks_reduce(vec_t hi, vec_t lo, const vec_u64_mod *m) {
    vec_t hh = vec_shr32_u64(hi), u = vec_mul_even_u32(hi, vec_set1_u64(0xffffffffu));
#if defined(NTT_CY_AVX2)
    const vec_t top = vec_set1_u64(UINT64_C(1) << 63);
    vec_t lo_s = _mm256_xor_si256(lo, top);
    vec_t t_s = vec_sub_u64(lo_s, hh);                                   /* (lo - hh)^top */
    t_s = vec_sub_u64(t_s, vec_shr32_u64(_mm256_cmpgt_epi64(t_s, lo_s))); /* borrow: - E */
    vec_t t = _mm256_xor_si256(t_s, top);
#else
    vec_t t = vec_add_if_below_u64(vec_sub_u64(lo, hh), lo, hh, m->p);  /* - E = + p */
#endif
    return vec_u64_goldilocks_add_small(t, u, m);
}

/* (hi 2^64 + lo) mod p in [0, p) for hi < 2^32 (hh = 0 above): lo + hi E. */
NTT_INLINE vec_t vec_u64_goldilocks_reduce96(vec_t hi, vec_t lo, const vec_u64_mod *m) {
    return vec_u64_goldilocks_add_small(lo, vec_mul_even_u32(hi, vec_set1_u64(0xffffffffu)), m);
}

/* a w mod p in [0, p) for a, w < 2^64, p = 2^64 - 2^32 + 1. */
NTT_INLINE vec_t vec_u64_goldilocks(vec_t a, vec_t w, const vec_u64_mod *m) {
    vec_t lo, hi = vec_u64_gl_wide(a, w, &lo);
    return vec_u64_goldilocks_reduce(hi, lo, m);
}

/* (a + b) mod p for a, b in [0, p): small (p < 2^63): a + b < 2p < 2^64, one fold;
 * else a - (p - b), no 65-bit sum.  The difference's twin is vec_sub_mod_u64. */
NTT_INLINE vec_t vec_add_mod_u64(vec_t a, vec_t b, vec_t p, int small) {
    if (small)
        return vec_fold_u64(vec_add_u64(a, b), p);
    return vec_sub_mod_u64(a, vec_sub_u64(p, b), p, 0);
}

/* a, b in [0, p) -> (a + b) mod p, (a - b) mod p, p < 2^63 or not as vec_u64_small says. */
NTT_INLINE vec_t vec_u64_add(vec_t a, vec_t b, const vec_u64_mod *m) {
    return vec_add_mod_u64(a, b, m->p, vec_u64_small(m));
}

NTT_INLINE vec_t vec_u64_sub(vec_t a, vec_t b, const vec_u64_mod *m) {
    return vec_sub_mod_u64(a, b, m->p, vec_u64_small(m));
}

/* a * w as the butterflies need it: LAZY (Shoup) -> [0, 2p); the exact families (a < p)
 * -> [0, p).  one: the twiddle is 1 (stage h = 1), only the range is restored (LAZY
 * folds [0, 4p) to [0, 2p)). */
NTT_INLINE vec_t vec_u64_times(vec_t a, vec_t w, vec_t wq, const vec_u64_mod *m, int one) {
    switch (one ? -1 : m->family) {
    case -1: return m->family == NTT_LAZY ? vec_fold_u64(a, m->two_p) : a;
    case NTT_LAZY: return vec_u64_shoup(a, w, wq, m);
    case NTT_BARRETT: return vec_u64_barrett(a, w, m);
    case NTT_GOLDILOCKS: return vec_u64_goldilocks(a, w, m);
#if defined(NTT_CY_AVX512_IFMA)
    case NTT_MONTGOMERY52: return avx512_u64_mont52(a, w, m->p, m->pinv);
#endif
    default: return vec_u64_mont64(a, w, m);   /* NTT_MONTGOMERY64 */
    }
}

/* One butterfly on every lane: DIF (forward) (u + v, (u - v) w), DIT (u + v w, u - v w);
 * LAZY keeps DIF values in [0, 2p), DIT in [0, 4p), the exact families [0, p). */
NTT_INLINE void vec_u64_butterfly(int forward, vec_t *u, vec_t *v, vec_t w, vec_t wq,
                                  const vec_u64_mod *m, int one) {
    if (m->family == NTT_LAZY) {
        if (forward) {
            vec_t d = vec_add_u64(vec_sub_u64(*u, *v), m->two_p);
            *u = vec_fold_u64(vec_add_u64(*u, *v), m->two_p);
            *v = vec_u64_times(d, w, wq, m, one);
        } else {
            vec_t x = vec_fold_u64(*u, m->two_p);
            vec_t t = vec_u64_times(*v, w, wq, m, one);
            *u = vec_add_u64(x, t);
            *v = vec_add_u64(vec_sub_u64(x, t), m->two_p);
        }
    } else if (forward) {
        vec_t d = vec_u64_sub(*u, *v, m);
        *u = vec_u64_add(*u, *v, m);
        *v = vec_u64_times(d, w, wq, m, one);
    } else {
        vec_t t = vec_u64_times(*v, w, wq, m, one);
        *v = vec_u64_sub(*u, t, m);
        *u = vec_u64_add(*u, t, m);
    }
}

/* Butterflies j < count of one stage; returns how many were done (a multiple of the
 * vector). */
NTT_INLINE size_t vec_u64_run(int forward, uint64_t *x, uint64_t *y, const uint64_t *w,
                              const uint64_t *wq, size_t count, const ntt64_params *prm,
                              int family) {
    vec_u64_mod m = vec_u64_modulus(prm, family);
    int lazy = family == NTT_LAZY;
    size_t j, done = count - count % VEC_U64_LANES;
    for (j = 0; j < done; j += VEC_U64_LANES) {
        vec_t u = vec_load(x + j), v = vec_load(y + j), tw = vec_load(w + j);
        vec_u64_butterfly(forward, &u, &v, tw, lazy ? vec_load(wq + j) : tw, &m, 0);
        vec_store(x + j, u);
        vec_store(y + j, v);
    }
    return done;
}

/* Radix-4 groups j0 <= j < j1 of the block a[0:2h] (DIF stages h and h/2, or DIT h/2
 * and h, on a[j], a[j + h/2], a[j + h], a[j + 3h/2]); returns how many were done, 0 when
 * h/2 is not a multiple of the vector. */
NTT_INLINE size_t vec_u64_run4(int forward, uint64_t *a, size_t h, size_t j0, size_t j1,
                               const uint64_t *tw, const uint64_t *twq,
                               const ntt64_params *prm, int family) {
    vec_u64_mod m = vec_u64_modulus(prm, family);
    int lazy = family == NTT_LAZY;
    size_t q = h / 2, j, done = (j1 - j0) - (j1 - j0) % VEC_U64_LANES;
    if (q % VEC_U64_LANES)
        return 0;
    for (j = j0; j < j0 + done; j += VEC_U64_LANES) {
        vec_t x0 = vec_load(a + j), x1 = vec_load(a + j + q);
        vec_t x2 = vec_load(a + j + h), x3 = vec_load(a + j + h + q);
        vec_t wa = vec_load(tw + h + j), wb = vec_load(tw + h + q + j);
        vec_t wc = vec_load(tw + q + j);
        vec_t qa = lazy ? vec_load(twq + h + j) : wa;
        vec_t qb = lazy ? vec_load(twq + h + q + j) : wb;
        vec_t qc = lazy ? vec_load(twq + q + j) : wc;
        if (forward) {
            vec_u64_butterfly(1, &x0, &x2, wa, qa, &m, 0);
            vec_u64_butterfly(1, &x1, &x3, wb, qb, &m, 0);
            vec_u64_butterfly(1, &x0, &x1, wc, qc, &m, 0);
            vec_u64_butterfly(1, &x2, &x3, wc, qc, &m, 0);
        } else {
            vec_u64_butterfly(0, &x0, &x1, wc, qc, &m, 0);
            vec_u64_butterfly(0, &x2, &x3, wc, qc, &m, 0);
            vec_u64_butterfly(0, &x0, &x2, wa, qa, &m, 0);
            vec_u64_butterfly(0, &x1, &x3, wb, qb, &m, 0);
        }
        vec_store(a + j, x0);
        vec_store(a + j + q, x1);
        vec_store(a + j + h, x2);
        vec_store(a + j + h + q, x3);
    }
    return done;
}

/* Stages one column sweep keeps in registers (vec_u64_run_stages): 2^3 vectors of data
 * and their twiddles (four stages, 16 vectors, spill and run slower). */
#define VEC_U64_COLUMN_STAGES 3

/* k stages at once (radix 2^k, k <= VEC_U64_COLUMN_STAGES, a literal) on the block
 * a[0:2h], groups j0 <= j < j1 of [0, s), s = h / 2^(k-1): group j holds the 2^k values
 * x_i = a[j + i s] in registers through every stage, as vec_u32_run_stages (the same
 * butterflies, twiddles and ranges as k radix-2 runs).  Returns the number of groups
 * done (a multiple of the vector from j0), 0 when s is not a multiple of the vector. */
NTT_INLINE size_t vec_u64_run_stages(int forward, int k, uint64_t *a, size_t h, size_t j0,
                                     size_t j1, const uint64_t *tw, const uint64_t *twq,
                                     const ntt64_params *prm, int family) {
    vec_u64_mod m = vec_u64_modulus(prm, family);
    const int count = 1 << k, lazy = family == NTT_LAZY;
    size_t s = h >> (k - 1), j, done = (j1 - j0) - (j1 - j0) % VEC_U64_LANES;
    if (s % VEC_U64_LANES)
        return 0;
    for (j = j0; j < j0 + done; j += VEC_U64_LANES) {
        vec_t x[1 << VEC_U64_COLUMN_STAGES];
        int i, g, t;
#pragma GCC unroll 8
        for (i = 0; i < count; i++)
            x[i] = vec_load(a + j + i * s);
#pragma GCC unroll 4
        for (t = 0; t < k; t++) {
            int stage = forward ? t : k - 1 - t, d = 1 << (k - 1 - stage);
#pragma GCC unroll 4
            for (i = 0; i < d; i++) {
                size_t at = (h >> stage) + j + i * s;
                vec_t w = vec_load(tw + at), wq = lazy ? vec_load(twq + at) : w;
#pragma GCC unroll 4
                for (g = 0; g < count; g += 2 * d)
                    vec_u64_butterfly(forward, &x[g + i], &x[g + i + d], w, wq, &m, 0);
            }
        }
#pragma GCC unroll 8
        for (i = 0; i < count; i++)
            vec_store(a + j + i * s, x[i]);
    }
    return done;
}

/* out[i] = mont(mont(a[i], b[i]), c) with R = 2^64 (MONTGOMERY64) or, where the ISA has
 * IFMA, 2^52 (MONTGOMERY52): with c = f R^2 mod p this is a b f mod p.  a, b, c in
 * [0, p), p odd; out in [0, p).  Returns the count done (a multiple of the vector), 0
 * for another family. */
NTT_INLINE size_t vec_u64_pointwise(const uint64_t *a, const uint64_t *b, uint64_t *out,
                                    size_t count, uint64_t c, const ntt64_params *prm) {
    vec_u64_mod m = vec_u64_modulus(prm, prm->family);
    vec_t vc = vec_set1_u64(c);
    size_t i, done = count - count % VEC_U64_LANES;
#if defined(NTT_CY_AVX512_IFMA)
    if (prm->family == NTT_MONTGOMERY52) {
        for (i = 0; i < done; i += VEC_U64_LANES) {
            vec_t x = avx512_u64_mont52(vec_load(a + i), vec_load(b + i), m.p, m.pinv);
            vec_store(out + i, avx512_u64_mont52(x, vc, m.p, m.pinv));
        }
        return done;
    }
#endif
    if (prm->family != NTT_MONTGOMERY64)
        return 0;
    for (i = 0; i < done; i += VEC_U64_LANES) {
        vec_t x = vec_u64_mont64(vec_load(a + i), vec_load(b + i), &m);
        vec_store(out + i, vec_u64_mont64(x, vc, &m));
    }
    return done;
}
#endif
