/* The uint32-lane butterflies and the sweeps built from them, written once over
 * simd/vector_ops.h for every vector ISA (VEC_U32_LANES lanes per vector): the
 * reductions of the three families, the butterfly, the radix-2 and radix-4 sweeps (also
 * as an out-of-place DIF's first sweep, read straight from its source), the column
 * pass's three-stage sweeps, the twiddles recovered from their Shoup quotients, the
 * zero-padded first pass, the twists and the inverse's scaling.  The ISA headers add what differs
 * (simd/ntt32/avx512.h, simd/ntt32/avx2.h: the stages at the bit-reversed end, the
 * pointwise product).  Ranges are those of the scalar code in ntt/butterflies.pxi /
 * ntt/arith32.pxd, lane for lane:
 *   LAZY DIF  in/out [0, 2p);  LAZY DIT in/out [0, 4p);  needs 4p <= 2^32.
 *   MONTGOMERY in/out [0, p); twiddles w*2^32 mod p; p odd < 2^32.
 *   BARRETT    in/out [0, p); twiddles plain; mu = floor(2^64 / p); any p < 2^32.
 *   SHOUP31    in/out [0, p); LAZY's Shoup twiddles; 2^30 <= p < 2^31 (see
 *              simd/families.h): the DIF's u - v + p lies in (0, 2p), below 2^32.
 * Reference: D. Harvey, "Faster arithmetic for number-theoretic transforms",
 * J. Symbolic Comput. 60 (2014).
 */
#ifndef NTT_CY_SIMD_NTT32_VECTOR_H
#define NTT_CY_SIMD_NTT32_VECTOR_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"
#include "simd/vector_ops.h"

/* Most stages one column sweep keeps in registers (vec_u32_run_stages): 2^4 vectors of
 * data and their twiddles on AVX-512 (32 registers), 2^3 on AVX2 (16).  The four-stage
 * sweep spills some of a group's 31 row and twiddle addresses, so the column pass takes
 * it only where it saves a sweep over memory (ntt/columns.pxi, column_stages_most). */
#if defined(NTT_CY_AVX512)
#define VEC_U32_COLUMN_STAGES 4
#else
#define VEC_U32_COLUMN_STAGES 3
#endif

typedef struct {
    vec_t p, two_p, pinv, p64, mu_lo, mu_hi;   /* p64, mu: BARRETT's 64-bit lanes */
    int family;
    int narrow;   /* p < 2^31: sums and differences of residues fit 32 bits */
} vec_u32_mod;

NTT_INLINE vec_u32_mod vec_u32_modulus(uint32_t p, uint32_t pinv, uint64_t mu, int family) {
    vec_u32_mod m;
    m.p = vec_set1_u32(p);
    m.two_p = vec_set1_u32(2u * p);
    m.pinv = vec_set1_u32(pinv);
    m.p64 = vec_set1_u64(p);
    m.mu_lo = vec_set1_u64(mu & 0xffffffffu);
    m.mu_hi = vec_set1_u64(mu >> 32);
    m.family = family;
    m.narrow = p < (1u << 31);
    return m;
}

/* A butterfly's multiplier: the twiddles w, their Shoup quotients q (w itself for the
 * exact families), and q_odd = vec_odd_u32(q) (vec_mulhi_odd_u32). */
typedef struct {
    vec_t w, q, q_odd;
} vec_u32_twiddle;

/* tw[at..], with twq[at..] (lazy) or tw's own values as q. */
NTT_INLINE vec_u32_twiddle vec_u32_twiddle_at(const uint32_t *tw, const uint32_t *twq,
                                              size_t at, int lazy) {
    const uint32_t *q = lazy ? twq + at : tw + at;
    vec_u32_twiddle t;
    t.w = vec_load(tw + at);
    t.q = lazy ? vec_load(q) : t.w;
    t.q_odd = vec_odd_at_u32(t.q, q);
    return t;
}

/* Where a run's twiddles come from (a literal at every call): TWIDDLES_OWN, the table
 * w alone (the exact families, q = w); TWIDDLES_SHOUP, w and its Shoup quotient q from
 * their two tables; TWIDDLES_FROM_Q (Shoup families), q's table alone, w recovered from
 * it (vec_u32_twiddle_from_q): half the bytes, for a run whose twiddles come from
 * memory once each. */
enum { TWIDDLES_OWN = 0, TWIDDLES_SHOUP = 1, TWIDDLES_FROM_Q = 2 };

/* The twiddle source of `family`'s runs; from_q: the Shoup families read q alone. */
#define VEC_U32_TWIDDLES(family, from_q)                                              \
    (NTT_SHOUP_TWIDDLES(family) ? ((from_q) ? TWIDDLES_FROM_Q : TWIDDLES_SHOUP)      \
                                : TWIDDLES_OWN)

/* A Shoup twiddle from its quotient alone: for 1 <= w < p < 2^32 and q = floor(w 2^32 /
 * p), w 2^32 - p < q p < w 2^32 (equality would need p | w 2^32), so hi(q p) = w - 1
 * exactly: the same w as its table's. */
NTT_INLINE vec_u32_twiddle vec_u32_twiddle_from_q(const uint32_t *twq, size_t at, vec_t p) {
    vec_u32_twiddle t;
    t.q = vec_load(twq + at);
    t.q_odd = vec_odd_at_u32(t.q, twq + at);
    t.w = vec_add_u32(vec_mulhi_odd_u32(p, t.q, t.q_odd), vec_set1_u32(1));
    return t;
}

/* tw[at..] from `source` (TWIDDLES_*; p: the modulus in every lane). */
NTT_INLINE vec_u32_twiddle vec_u32_twiddle_from(const uint32_t *tw, const uint32_t *twq,
                                                size_t at, int source, vec_t p) {
    if (source == TWIDDLES_FROM_Q)
        return vec_u32_twiddle_from_q(twq, at, p);
    return vec_u32_twiddle_at(tw, twq, at, source == TWIDDLES_SHOUP);
}

/* Twiddles already in registers (loop-invariant: the odd lanes are moved once). */
NTT_INLINE vec_u32_twiddle vec_u32_twiddle_of(vec_t w, vec_t q) {
    vec_u32_twiddle t;
    t.w = w;
    t.q = q;
    t.q_odd = vec_odd_u32(q);
    return t;
}

/* One twiddle w (quotient q) in every lane: a broadcast is its own odd lanes. */
NTT_INLINE vec_u32_twiddle vec_u32_twiddle_splat(uint32_t w, uint32_t q) {
    vec_u32_twiddle t;
    t.w = vec_set1_u32(w);
    t.q = vec_set1_u32(q);
    t.q_odd = t.q;
    return t;
}

/* High 32 bits of the 64-bit products a*b. */
NTT_INLINE vec_t vec_u32_mulhi(vec_t a, vec_t b) {
    return vec_mulhi_odd_u32(a, b, vec_odd_u32(b));
}

/* Shoup: a in [0, 2^32), w < p, wq = floor(w 2^32 / p), wq_odd = vec_odd_u32(wq),
 * p < 2^31 -> a w mod p in [0, 2p). */
NTT_INLINE vec_t vec_u32_shoup_odd(vec_t a, vec_t w, vec_t wq, vec_t wq_odd, vec_t p) {
    vec_t q = vec_mulhi_odd_u32(a, wq, wq_odd);
    return vec_sub_u32(vec_mullo_u32(a, w), vec_mullo_u32(q, p));
}

NTT_INLINE vec_t vec_u32_shoup(vec_t a, const vec_u32_twiddle *t, vec_t p) {
    return vec_u32_shoup_odd(a, t->w, t->q, t->q_odd, p);
}

/* Montgomery: a in [0, 2^32), b < p, p odd, b_odd = vec_odd_u32(b) -> a b 2^-32 mod p in
 * [0, p): h1 = hi(a b), h2 = hi(k p) with k = lo(a b) pinv, both in [0, p), and
 * a b 2^-32 = h1 - h2 mod p. */
NTT_INLINE vec_t vec_u32_mont_odd(vec_t a, vec_t b, vec_t b_odd, const vec_u32_mod *m) {
    vec_t h1 = vec_mulhi_odd_u32(a, b, b_odd);
    vec_t h2 = vec_u32_mulhi(vec_mullo_u32(vec_mullo_u32(a, b), m->pinv), m->p);
    return vec_sub_mod_u32(h1, h2, m->p, m->narrow);
}

NTT_INLINE vec_t vec_u32_mont(vec_t a, vec_t b, const vec_u32_mod *m) {
    return vec_u32_mont_odd(a, b, vec_odd_u32(b), m);
}

/* Montgomery before its correction: a b < p 2^32, p odd < 2^31 -> a b 2^-32 mod p as
 * h1 - h2 + p in (0, 2p) (the pointwise products; m->p is a broadcast, its own odd
 * lanes). */
NTT_INLINE vec_t vec_u32_mont_lazy(vec_t a, vec_t b, const vec_u32_mod *m) {
    vec_t h1 = vec_u32_mulhi(a, b);
    vec_t h2 = vec_mulhi_odd_u32(vec_mullo_u32(vec_mullo_u32(a, b), m->pinv), m->p, m->p);
    return vec_add_u32(vec_sub_u32(h1, h2), m->p);
}

/* Barrett on the even 32-bit lanes (the odd ones ignored), as barrett_mul32 lane for
 * lane: t = a b < 2^64, q = hi64(t mu) from four vpmuludq products (the middle column
 * carries as in a schoolbook 64x64 product), r = t - q p in [0, 2p) < 2^33 folded to
 * [0, p).  Result in the low half of each 64-bit lane. */
NTT_INLINE vec_t vec_u32_barrett_even(vec_t a, vec_t b, const vec_u32_mod *m) {
    const vec_t low32 = vec_set1_u64(0xffffffffu);
    vec_t t = vec_mul_even_u32(a, b), t1 = vec_shr32_u64(t);
    vec_t ll = vec_mul_even_u32(t, m->mu_lo), lh = vec_mul_even_u32(t, m->mu_hi);
    vec_t hl = vec_mul_even_u32(t1, m->mu_lo), hh = vec_mul_even_u32(t1, m->mu_hi);
    vec_t mid = vec_add_u64(vec_shr32_u64(ll), vec_and(lh, low32));
    mid = vec_add_u64(mid, vec_and(hl, low32));
    vec_t q = vec_add_u64(hh, vec_shr32_u64(lh));
    q = vec_add_u64(q, vec_add_u64(vec_shr32_u64(hl), vec_shr32_u64(mid)));
    vec_t r = vec_sub_u64(t, vec_mul_u64_u32(q, m->p64));
    return vec_fold_u64(r, m->p64);
}

/* Barrett a b mod p on every lane: a < 2^32, b < p -> [0, p), any p < 2^32. */
NTT_INLINE vec_t vec_u32_barrett(vec_t a, vec_t b, const vec_u32_mod *m) {
    vec_t even = vec_u32_barrett_even(a, b, m);
    vec_t odd = vec_u32_barrett_even(vec_odd_u32(a), vec_odd_u32(b), m);
    return vec_merge_even_u32(even, odd);
}

/* x < 2^32 -> x mod p, p < 2^31, one_q = floor(2^32 / p): Shoup by 1 gives x - q p in
 * [0, 2p), then one fold. */
NTT_INLINE vec_t vec_u32_reduce(vec_t x, vec_t one_q, vec_t p) {
    vec_t q = vec_mulhi_odd_u32(x, one_q, one_q);   /* one_q is a broadcast */
    return vec_fold_u32(vec_sub_u32(x, vec_mullo_u32(q, p)), p);
}

/* (high 2^32 + x) mod p for the halves of 64-bit values, p < 2^31; c = 2^32 mod p,
 * cq = floor(c 2^32 / p), one_q as vec_u32_reduce: high c by Shoup folded to [0, p),
 * plus x mod p, the sum (< 2p < 2^32) folded. */
NTT_INLINE vec_t vec_u32_reduce64(vec_t x, vec_t high, vec_t c, vec_t cq, vec_t one_q,
                                  vec_t p) {
    vec_t t = vec_fold_u32(vec_u32_shoup_odd(high, c, cq, cq, p), p);
    return vec_fold_u32(vec_add_u32(t, vec_u32_reduce(x, one_q, p)), p);
}

/* a * w as the butterflies need it: LAZY (Shoup, a < 2^32) -> [0, 2p); SHOUP31 (Shoup
 * then a fold, a < 2^32) -> [0, p); MONTGOMERY and BARRETT (a < p) -> [0, p).  one (a
 * literal at every call): the twiddle is 1 (the stage h = 1, and the edge stages'
 * butterflies on c mod h = 0): no product, only the range: LAZY a < 4p folds to
 * [0, 2p) as Shoup would leave it, SHOUP31 a < 2p to [0, p), the exact families keep
 * a; the value mod p is the same either way. */
NTT_INLINE vec_t vec_u32_times(vec_t a, const vec_u32_twiddle *t, const vec_u32_mod *m,
                               int one) {
    if (m->family == NTT_LAZY)
        return one ? vec_fold_u32(a, m->two_p) : vec_u32_shoup(a, t, m->p);
    if (m->family == NTT_SHOUP31)   /* a < 2p (one) or < 2^32 -> [0, p) */
        return vec_fold_u32(one ? a : vec_u32_shoup(a, t, m->p), m->p);
    if (one)
        return a;
    return m->family == NTT_BARRETT ? vec_u32_barrett(a, t->w, m)
                                    : vec_u32_mont_odd(a, t->w, t->q_odd, m);
}

/* One butterfly on every lane.  DIF (forward): (u, v) -> (u + v, (u - v) w); DIT:
 * (u, v) -> (u + v w, u - v w).  LAZY keeps DIF values in [0, 2p), DIT in [0, 4p);
 * the exact families and SHOUP31 [0, p).  one: see vec_u32_times. */
NTT_INLINE void vec_u32_butterfly(int forward, vec_t *u, vec_t *v, const vec_u32_twiddle *t,
                                  const vec_u32_mod *m, int one) {
    if (m->family == NTT_LAZY) {
        if (forward) {
            vec_t d = vec_add_u32(vec_sub_u32(*u, *v), m->two_p);
            *u = vec_fold_u32(vec_add_u32(*u, *v), m->two_p);
            *v = vec_u32_times(d, t, m, one);
        } else {
            vec_t x = vec_fold_u32(*u, m->two_p);
            vec_t y = vec_u32_times(*v, t, m, one);
            *u = vec_add_u32(x, y);
            *v = vec_add_u32(vec_sub_u32(x, y), m->two_p);
        }
    } else if (m->family == NTT_SHOUP31) {
        /* p < 2^31: u + v < 2p folds by one min; DIF: u - v + p in (0, 2p) goes to the
         * product unfolded (a valid Shoup input; vec_u32_times folds what it returns) */
        if (forward) {
            vec_t d = vec_add_u32(vec_sub_u32(*u, *v), m->p);
            *u = vec_fold_u32(vec_add_u32(*u, *v), m->p);
            *v = vec_u32_times(d, t, m, one);
        } else {
            vec_t y = vec_u32_times(*v, t, m, one);
            *v = vec_sub_mod_u32(*u, y, m->p, 1);
            *u = vec_fold_u32(vec_add_u32(*u, y), m->p);
        }
    } else if (forward) {
        vec_t d = vec_sub_mod_u32(*u, *v, m->p, m->narrow);
        *u = vec_add_mod_u32(*u, *v, m->p, m->narrow);
        *v = vec_u32_times(d, t, m, one);
    } else {
        vec_t y = vec_u32_times(*v, t, m, one);
        *v = vec_sub_mod_u32(*u, y, m->p, m->narrow);
        *u = vec_add_mod_u32(*u, y, m->p, m->narrow);
    }
}

/* *max_seen raised to seen, without a branch on either: both are the input's values,
 * which may be secret (a compare-and-jump would make the time depend on them). */
NTT_INLINE void raise_max_seen(uint64_t seen, uint64_t *max_seen) {
    uint64_t old = *max_seen, mask = (uint64_t)0 - (uint64_t)(seen > old);
    *max_seen = old ^ ((old ^ seen) & mask);
}

/* *max_seen raised to the largest lane of top. */
NTT_INLINE void vec_u32_max_seen(vec_t top, uint64_t *max_seen) {
    raise_max_seen(vec_max_lane_u32(top), max_seen);
}

/* Radix-2 butterflies j < count of one stage on (x[j], y[j]) with twiddles w[j] (wq
 * ignored for the exact families); returns how many were done (count rounded down to
 * the vector).  from_src (a literal): the first sweep of an out-of-place DIF, read
 * straight from its source rows (sx, sy), so the copy of the input costs no pass of its
 * own; *max_seen raised to the largest value read (values >= p give meaningless but
 * fault-free results, which the caller discards).  from_q (a literal): the Shoup
 * families read the twiddles' quotients alone (TWIDDLES_FROM_Q). */
NTT_INLINE size_t vec_u32_run(int forward, int family, int from_src, int from_q, uint32_t *x,
                              uint32_t *y, const uint32_t *sx, const uint32_t *sy,
                              const uint32_t *w, const uint32_t *wq, size_t count, uint32_t p,
                              uint32_t pinv, uint64_t mu, uint64_t *max_seen) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    size_t j, done = count - count % VEC_U32_LANES;
    vec_t top = vec_zero();
    for (j = 0; j < done; j += VEC_U32_LANES) {
        vec_t u = vec_load((from_src ? sx : x) + j);
        vec_t v = vec_load((from_src ? sy : y) + j);
        vec_u32_twiddle t = vec_u32_twiddle_from(w, wq, j, VEC_U32_TWIDDLES(family, from_q),
                                                 m.p);
        if (from_src)
            top = vec_max_u32(top, vec_max_u32(u, v));
        vec_u32_butterfly(forward, &u, &v, &t, &m, 0);
        vec_store(x + j, u);
        vec_store(y + j, v);
    }
    if (from_src)
        vec_u32_max_seen(top, max_seen);
    return done;
}

/* One radix-4 group j of the block a[0:2h] on its four inputs x0..x3 = a[j], a[j + h/2],
 * a[j + h], a[j + 3h/2], results stored to a: DIF stages h then h/2, or DIT h/2 then
 * h.  source: where the twiddles come from (TWIDDLES_*). */
NTT_INLINE void vec_u32_radix4(int forward, uint32_t *a, size_t h, size_t j, vec_t x0,
                               vec_t x1, vec_t x2, vec_t x3, const uint32_t *tw,
                               const uint32_t *twq, const vec_u32_mod *m, int source) {
    size_t q = h / 2;
    vec_u32_twiddle ta = vec_u32_twiddle_from(tw, twq, h + j, source, m->p);
    vec_u32_twiddle tb = vec_u32_twiddle_from(tw, twq, h + q + j, source, m->p);
    vec_u32_twiddle tc = vec_u32_twiddle_from(tw, twq, q + j, source, m->p);
    if (forward) {
        vec_u32_butterfly(1, &x0, &x2, &ta, m, 0);
        vec_u32_butterfly(1, &x1, &x3, &tb, m, 0);
        vec_u32_butterfly(1, &x0, &x1, &tc, m, 0);
        vec_u32_butterfly(1, &x2, &x3, &tc, m, 0);
    } else {
        vec_u32_butterfly(0, &x0, &x1, &tc, m, 0);
        vec_u32_butterfly(0, &x2, &x3, &tc, m, 0);
        vec_u32_butterfly(0, &x0, &x2, &ta, m, 0);
        vec_u32_butterfly(0, &x1, &x3, &tb, m, 0);
    }
    vec_store(a + j, x0);
    vec_store(a + j + q, x1);
    vec_store(a + j + h, x2);
    vec_store(a + j + h + q, x3);
}

/* Two stages at once (radix-4) on the block a[0:2h], groups j0 <= j < j1 of [0, h/2).
 * Each group touches a[j], a[j+h/2], a[j+h], a[j+3h/2] and nothing else, so groups are
 * independent (threads may split the j range).  Same ranges as two radix-2 stages.
 * from_src as vec_u32_run, src laid out as a; from_q (a literal): the Shoup families
 * read the twiddles' quotients alone (TWIDDLES_FROM_Q).  Returns the number of groups
 * done (a multiple of the vector from j0), 0 when h/2 is not a multiple of the vector. */
NTT_INLINE size_t vec_u32_run4(int forward, int family, int from_src, int from_q,
                               uint32_t *a, const uint32_t *src, size_t h, size_t j0, size_t j1,
                               const uint32_t *tw, const uint32_t *twq, uint32_t p,
                               uint32_t pinv, uint64_t mu, uint64_t *max_seen) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    const uint32_t *in = from_src ? src : a;
    size_t q = h / 2, j, done = (j1 - j0) - (j1 - j0) % VEC_U32_LANES;
    vec_t top = vec_zero();
    if (q % VEC_U32_LANES)
        return 0;
    for (j = j0; j < j0 + done; j += VEC_U32_LANES) {
        vec_t x0 = vec_load(in + j), x1 = vec_load(in + j + q);
        vec_t x2 = vec_load(in + j + h), x3 = vec_load(in + j + h + q);
        if (from_src)
            top = vec_max_u32(top, vec_max_u32(vec_max_u32(x0, x1), vec_max_u32(x2, x3)));
        vec_u32_radix4(forward, a, h, j, x0, x1, x2, x3, tw, twq, &m,
                       VEC_U32_TWIDDLES(family, from_q));
    }
    if (from_src)
        vec_u32_max_seen(top, max_seen);
    return done;
}

/* k stages at once (radix 2^k, k <= VEC_U32_COLUMN_STAGES, a literal) on the block
 * a[0:2h], groups j0 <= j < j1 of [0, s), s = h / 2^(k-1): group j holds the 2^k values
 * x_i = a[j + i s] in registers through every stage.  DIF: stages h, h/2, ..., s in
 * that order; DIT: s, 2s, ..., h.  Stage h / 2^t pairs x_i and x_{i + d}, d = 2^(k-1-t)
 * and i's bit of d clear, with twiddle tw[h / 2^t + j + (i mod d) s] (its offset in the
 * stage's block): the butterflies, twiddles and ranges of k radix-2 runs, so one sweep
 * over the block does the work of k.  from_src and from_q as vec_u32_run4.  Returns
 * the number of groups done (a multiple of the vector from j0), 0 when s is not a
 * multiple of the vector. */
NTT_INLINE size_t vec_u32_run_stages(int forward, int family, int from_src, int from_q, int k,
                                     uint32_t *a, const uint32_t *src, size_t h, size_t j0,
                                     size_t j1, const uint32_t *tw, const uint32_t *twq,
                                     uint32_t p, uint32_t pinv, uint64_t mu,
                                     uint64_t *max_seen) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    const uint32_t *in = from_src ? src : a;
    const int count = 1 << k, source = VEC_U32_TWIDDLES(family, from_q);
    size_t s = h >> (k - 1), j, done = (j1 - j0) - (j1 - j0) % VEC_U32_LANES;
    vec_t top = vec_zero();
    if (s % VEC_U32_LANES)
        return 0;
    for (j = j0; j < j0 + done; j += VEC_U32_LANES) {
        vec_t x[1 << VEC_U32_COLUMN_STAGES];
        int i, g, t;
#pragma GCC unroll 16
        for (i = 0; i < count; i++) {
            x[i] = vec_load(in + j + i * s);
            if (from_src)
                top = vec_max_u32(top, x[i]);
        }
#pragma GCC unroll 4
        for (t = 0; t < k; t++) {
            int stage = forward ? t : k - 1 - t, d = 1 << (k - 1 - stage);
#pragma GCC unroll 8
            for (i = 0; i < d; i++) {
                vec_u32_twiddle w = vec_u32_twiddle_from(tw, twq, (h >> stage) + j + i * s,
                                                         source, m.p);
#pragma GCC unroll 8
                for (g = 0; g < count; g += 2 * d)
                    vec_u32_butterfly(forward, &x[g + i], &x[g + i + d], &w, &m, 0);
            }
        }
#pragma GCC unroll 16
        for (i = 0; i < count; i++)
            vec_store(a + j + i * s, x[i]);
    }
    if (from_src)
        vec_u32_max_seen(top, max_seen);
    return done;
}

/* VEC_U32_LANES source values from i (uint32, or uint64 when src32 is NULL), zeros past
 * n_src; *top keeps their largest (32-bit lanes for uint32 sources, 64-bit lanes for
 * uint64 ones, before any narrowing), *high (uint64 sources) their high 32 bits. */
NTT_INLINE vec_t vec_u32_load_source(const uint32_t *src32, const uint64_t *src64,
                                     size_t n_src, size_t i, vec_t *top, vec_t *high) {
    size_t left = i < n_src ? n_src - i : 0;
    if (src32) {
        vec_t x = vec_load_u32_upto(src32 + i, left);
        *top = vec_max_u32(*top, x);
        return x;
    }
    size_t half = VEC_U64_LANES;
    vec_t lo = vec_load_u64_upto(src64 + i, left);
    vec_t hi = vec_load_u64_upto(src64 + i + half, left > half ? left - half : 0);
    *top = vec_max_u64(*top, vec_max_u64(lo, hi));
    *high = vec_narrow_high_u64(lo, hi);
    return vec_narrow_u64(lo, hi);
}

/* x s mod p for any x < 2^32 as a DIF of m's family takes it: Shoup (s < p < 2^31, sq =
 * floor(s 2^32 / p)) -> [0, 2p), LAZY's DIF range; folded to [0, p) for the others. */
NTT_INLINE vec_t vec_u32_scaled_input(vec_t x, vec_t s, vec_t sq, const vec_u32_mod *m) {
    vec_t r = vec_u32_shoup_odd(x, s, sq, sq, m->p);
    return m->family == NTT_LAZY ? r : vec_fold_u32(r, m->p);
}

/* The first two DIF stages (half-lengths h and h/2) of a row a[0:2h] whose input is
 * src[0:n_src] zero-padded (n_src <= h): x2 = x3 = 0, x0 and x1 read straight from src
 * (uint32, or uint64 when src32 is NULL), so the zero-padded copy is never written or
 * read back.  Without reduce_src the values must be below p (uint64 ones are narrowed to
 * their low 32 bits).  reduce_src: every source value is reduced mod p on the way in
 * (vec_u32_reduce, vec_u32_reduce64); needs p < 2^31.  scale != 0: every value is
 * also multiplied by scale mod p (vec_u32_scaled_input; scale < p < 2^31, scale_q =
 * floor(scale 2^32 / p)), so that a product's pointwise step has one factor less to
 * apply (padded_product_rows).  *max_seen is raised to the largest source value read
 * (before any reduction), so callers can check the "values < p" promise for free.
 * from_q (a literal): the Shoup families read the twiddles' quotients alone
 * (TWIDDLES_FROM_Q).  Groups j0 <= j < j1 of [0, h/2); same butterflies and ranges as
 * vec_u32_run4.  Returns the number of groups done (a multiple of the vector), 0 when
 * h/2 is not a multiple of the vector (or reduce_src or scale with p >= 2^31). */
NTT_INLINE size_t vec_u32_run4_padded(int forward, int family, int from_q, uint32_t *a,
                                      size_t h, size_t j0, size_t j1, const uint32_t *src32,
                                      const uint64_t *src64, size_t n_src, const uint32_t *tw,
                                      const uint32_t *twq, uint32_t p, uint32_t pinv,
                                      uint64_t mu, int reduce_src, uint32_t scale,
                                      uint32_t scale_q, uint64_t *max_seen) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    size_t q = h / 2, j, done = (j1 - j0) - (j1 - j0) % VEC_U32_LANES;
    vec_t top = vec_zero(), high0 = vec_zero(), high1 = vec_zero();
    const vec_t one_q = vec_set1_u32((uint32_t)((1ull << 32) / p));
    const uint32_t c = (uint32_t)((1ull << 32) % p);
    const vec_t vc = vec_set1_u32(c), cq = vec_set1_u32((uint32_t)(((uint64_t)c << 32) / p));
    const vec_t vs = vec_set1_u32(scale), vsq = vec_set1_u32(scale_q);
    uint64_t seen;
    (void)forward;   /* always a DIF */
    if (q % VEC_U32_LANES || ((reduce_src || scale) && p >= (1u << 31)))
        return 0;
    for (j = j0; j < j0 + done; j += VEC_U32_LANES) {
        vec_t x0 = vec_u32_load_source(src32, src64, n_src, j, &top, &high0);
        vec_t x1 = vec_u32_load_source(src32, src64, n_src, j + q, &top, &high1);
        if (reduce_src && src32 && !scale) {
            x0 = vec_u32_reduce(x0, one_q, m.p);
            x1 = vec_u32_reduce(x1, one_q, m.p);
        } else if (reduce_src && !src32) {
            x0 = vec_u32_reduce64(x0, high0, vc, cq, one_q, m.p);
            x1 = vec_u32_reduce64(x1, high1, vc, cq, one_q, m.p);
        }
        if (scale) {   /* uint32 sources: the product reduces them too */
            x0 = vec_u32_scaled_input(x0, vs, vsq, &m);
            x1 = vec_u32_scaled_input(x1, vs, vsq, &m);
        }
        vec_u32_radix4(1, a, h, j, x0, x1, vec_zero(), vec_zero(), tw, twq, &m,
                       VEC_U32_TWIDDLES(family, from_q));
    }
    seen = src32 ? vec_max_lane_u32(top) : vec_max_lane_u64(top);
    raise_max_seen(seen, max_seen);
    return done;
}

/* dst[i] = src[i] w[i] as vec_u32_times (LAZY: src < 2^32 -> [0, 2p), or [0, p) with
 * fold; MONTGOMERY / BARRETT: src < p -> [0, p)): the negacyclic twists.  src may equal
 * dst.  Returns the count done (a multiple of the vector). */
NTT_INLINE size_t vec_u32_twist(int forward, int family, const uint32_t *src, uint32_t *dst,
                                const uint32_t *w, const uint32_t *wq, size_t count,
                                uint32_t p, uint32_t pinv, uint64_t mu, int fold) {
    vec_u32_mod m = vec_u32_modulus(p, pinv, mu, family);
    size_t i, done = count - count % VEC_U32_LANES;
    (void)forward;
    for (i = 0; i < done; i += VEC_U32_LANES) {
        vec_u32_twiddle t = vec_u32_twiddle_at(w, wq, i, NTT_SHOUP_TWIDDLES(family));
        vec_t x = vec_u32_times(vec_load(src + i), &t, &m, 0);
        if (fold && family == NTT_LAZY)
            x = vec_fold_u32(x, m.p);
        vec_store(dst + i, x);
    }
    return done;
}

/* a[i] <- a[i] c mod p in [0, p) for a[i] in [0, 4p) (a LAZY DIT's output, 4p <= 2^32),
 * c < p, cq = floor(c 2^32 / p): Shoup -> [0, 2p), one fold (the cyclic inverse's
 * n^-1). */
NTT_INLINE size_t vec_u32_scale_lazy(uint32_t *a, size_t count, uint32_t c, uint32_t cq,
                                     uint32_t p) {
    const vec_u32_twiddle t = vec_u32_twiddle_splat(c, cq);
    const vec_t vp = vec_set1_u32(p);
    size_t i, done = count - count % VEC_U32_LANES;
    for (i = 0; i < done; i += VEC_U32_LANES)
        vec_store(a + i, vec_fold_u32(vec_u32_shoup(vec_load(a + i), &t, vp), vp));
    return done;
}
#endif
