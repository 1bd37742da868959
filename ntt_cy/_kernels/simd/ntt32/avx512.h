/* AVX-512 bodies for 32-bit lanes (16 per vector), all three families: the radix-2 and
 * radix-4 sweeps, the four stages at a transform's bit-reversed end (in registers, and
 * on 16 x 16 tiles), the zero-padded first pass, the twists, the scaling and the
 * pointwise product.  simd/ntt32/dispatch.h includes this file where simd/select.h
 * picks AVX-512 and turns each body into an entry point.  Ranges are those of the
 * scalar code in ntt/butterflies.pxi / ntt/arith32.pxd, lane for lane:
 *   LAZY DIF  in/out [0, 2p);  LAZY DIT in/out [0, 4p);  needs 4p <= 2^32.
 *   MONTGOMERY in/out [0, p); twiddles w*2^32 mod p; p odd < 2^32.
 *   BARRETT    in/out [0, p); twiddles plain; mu = floor(2^64 / p); any p < 2^32.
 * Reference: D. Harvey, "Faster arithmetic for number-theoretic transforms",
 * J. Symbolic Comput. 60 (2014).
 */
#ifndef NTT_CY_SIMD_NTT32_AVX512_H
#define NTT_CY_SIMD_NTT32_AVX512_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

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

typedef struct {
    __m512i p, two_p, pinv, p64, mu_lo, mu_hi;
    int family;
} ntt_v32_mod;

NTT_INLINE ntt_v32_mod ntt_v32_modulus(uint32_t p, uint32_t pinv, uint64_t mu, int family) {
    ntt_v32_mod m;
    m.p = _mm512_set1_epi32((int)p);
    m.two_p = _mm512_set1_epi32((int)(2u * p));
    m.pinv = _mm512_set1_epi32((int)pinv);
    m.p64 = _mm512_set1_epi64((long long)p);
    m.mu_lo = _mm512_set1_epi64((long long)(mu & 0xffffffffu));
    m.mu_hi = _mm512_set1_epi64((long long)(mu >> 32));
    m.family = family;
    return m;
}

/* High 32 bits of the 64-bit products a*b, lane by lane.  vpmuludq multiplies the
 * even lanes; the odd lanes are copied down by vpshufd and the two high halves
 * merged by one vpermt2d.  Shuffles run on port 5 while the products (and the
 * shifts an srli/blend version needs) compete for port 0 on Intel cores.
 * ntt_v32_mulhi_odd takes b's odd lanes already moved down (b_odd): a broadcast b is
 * its own, one shuffle less. */
NTT_INLINE __m512i ntt_v32_mulhi_odd(__m512i a, __m512i b, __m512i b_odd) {
    const __m512i high_halves = _mm512_set_epi32(31, 15, 29, 13, 27, 11, 25, 9,
                                                 23, 7, 21, 5, 19, 3, 17, 1);
    __m512i even = _mm512_mul_epu32(a, b);
    __m512i odd = _mm512_mul_epu32(_mm512_shuffle_epi32(a, _MM_PERM_DDBB), b_odd);
    return _mm512_permutex2var_epi32(even, high_halves, odd);
}

NTT_INLINE __m512i ntt_v32_mulhi(__m512i a, __m512i b) {
    return ntt_v32_mulhi_odd(a, b, _mm512_shuffle_epi32(b, _MM_PERM_DDBB));
}

/* Shoup: a in [0, 2^32), w < p, wq = floor(w 2^32 / p), p < 2^31 -> [0, 2p).
 * ntt_v32_shoup_odd: wq_odd as ntt_v32_mulhi_odd's b_odd. */
NTT_INLINE __m512i ntt_v32_shoup_odd(__m512i a, __m512i w, __m512i wq, __m512i wq_odd,
                                     __m512i p) {
    __m512i q = ntt_v32_mulhi_odd(a, wq, wq_odd);
    return _mm512_sub_epi32(_mm512_mullo_epi32(a, w), _mm512_mullo_epi32(q, p));
}

NTT_INLINE __m512i ntt_v32_shoup(__m512i a, __m512i w, __m512i wq, __m512i p) {
    return ntt_v32_shoup_odd(a, w, wq, _mm512_shuffle_epi32(wq, _MM_PERM_DDBB), p);
}

/* The two high words of a Montgomery product, a in [0, 2^32), b < p, p odd: h1 =
 * hi(a b) and *h2 = hi(k p), k = lo(a b) pinv, both in [0, p); a*b*2^-32 = h1 - h2 mod p. */
NTT_INLINE __m512i ntt_v32_mont_high(__m512i a, __m512i b, const ntt_v32_mod *m, __m512i *h2) {
    __m512i lo = _mm512_mullo_epi32(a, b);
    *h2 = ntt_v32_mulhi(_mm512_mullo_epi32(lo, m->pinv), m->p);
    return ntt_v32_mulhi(a, b);
}

/* Montgomery: a in [0, 2^32), b < p, p odd -> a*b*2^-32 mod p in [0, p). */
NTT_INLINE __m512i ntt_v32_mont(__m512i a, __m512i b, const ntt_v32_mod *m) {
    __m512i h2, h1 = ntt_v32_mont_high(a, b, m, &h2);
    __m512i r = _mm512_sub_epi32(h1, h2);
    return _mm512_mask_add_epi32(r, _mm512_cmplt_epu32_mask(h1, h2), r, m->p);
}

/* ntt_v32_mont before its correction: h1 - h2 + p in (0, 2p), for p < 2^31. */
NTT_INLINE __m512i ntt_v32_mont_lazy(__m512i a, __m512i b, const ntt_v32_mod *m) {
    __m512i h2, h1 = ntt_v32_mont_high(a, b, m, &h2);
    return _mm512_add_epi32(_mm512_sub_epi32(h1, h2), m->p);
}

/* Barrett on the even 32-bit lanes (odd lanes ignored), as barrett_mul32 lane for
 * lane: t = a b < 2^64, q = hi64(t mu) built from four vpmuludq products (the
 * middle column carries as in a schoolbook 64x64 product), r = t - q p in [0, 2p)
 * folded to [0, p).  Result in the low half of each 64-bit lane. */
NTT_INLINE __m512i ntt_v32_barrett_even(__m512i a, __m512i b, const ntt_v32_mod *m) {
    const __m512i low32 = _mm512_set1_epi64(0xffffffffLL);
    __m512i t = _mm512_mul_epu32(a, b);
    __m512i t1 = _mm512_srli_epi64(t, 32);
    __m512i ll = _mm512_mul_epu32(t, m->mu_lo), lh = _mm512_mul_epu32(t, m->mu_hi);
    __m512i hl = _mm512_mul_epu32(t1, m->mu_lo), hh = _mm512_mul_epu32(t1, m->mu_hi);
    __m512i mid = _mm512_add_epi64(_mm512_srli_epi64(ll, 32), _mm512_and_si512(lh, low32));
    mid = _mm512_add_epi64(mid, _mm512_and_si512(hl, low32));
    __m512i q = _mm512_add_epi64(hh, _mm512_srli_epi64(lh, 32));
    q = _mm512_add_epi64(q, _mm512_add_epi64(_mm512_srli_epi64(hl, 32), _mm512_srli_epi64(mid, 32)));
    __m512i r = _mm512_sub_epi64(t, _mm512_mullo_epi64(q, m->p64));
    return _mm512_min_epu64(r, _mm512_sub_epi64(r, m->p64));
}

/* Barrett a*b mod p on all 16 lanes: a < 2^32, b < p -> [0, p). */
NTT_INLINE __m512i ntt_v32_barrett(__m512i a, __m512i b, const ntt_v32_mod *m) {
    const __m512i low_halves = _mm512_set_epi32(30, 14, 28, 12, 26, 10, 24, 8,
                                                22, 6, 20, 4, 18, 2, 16, 0);
    __m512i even = ntt_v32_barrett_even(a, b, m);
    __m512i odd = ntt_v32_barrett_even(_mm512_shuffle_epi32(a, _MM_PERM_DDBB),
                                       _mm512_shuffle_epi32(b, _MM_PERM_DDBB), m);
    return _mm512_permutex2var_epi32(even, low_halves, odd);
}

/* a, b in [0, p) -> (a + b) mod p, (a - b) mod p; exact for every p < 2^32. */
NTT_INLINE __m512i ntt_v32_add(__m512i a, __m512i b, __m512i p) {
    __m512i t = _mm512_sub_epi32(p, b);
    __m512i r = _mm512_sub_epi32(a, t);
    return _mm512_mask_add_epi32(r, _mm512_cmplt_epu32_mask(a, t), r, p);
}

NTT_INLINE __m512i ntt_v32_sub(__m512i a, __m512i b, __m512i p) {
    __m512i r = _mm512_sub_epi32(a, b);
    return _mm512_mask_add_epi32(r, _mm512_cmplt_epu32_mask(a, b), r, p);
}

/* x in [0, 4p) -> [0, 2p) when 4p <= 2^32 (x - 2p wraps above x when x < 2p). */
NTT_INLINE __m512i ntt_v32_fold2p(__m512i x, __m512i two_p) {
    return _mm512_min_epu32(x, _mm512_sub_epi32(x, two_p));
}

/* How a butterfly's twiddle comes: a vector of twiddles; 1 in every family's form (the
 * stage h = 1, and the edge stages' butterflies on c mod h = 0: no product, only the
 * range: LAZY a < 4p folds to [0, 2p) as Shoup would leave it, exact families keep a;
 * the value mod p is the same either way); or one twiddle broadcast to every lane (LAZY:
 * Shoup without the shuffle of wq; the exact families still shuffle it). */
enum { NTT_V32_TW_VECTOR = 0, NTT_V32_TW_ONE = 1, NTT_V32_TW_BROADCAST = 2 };

/* a * w as the butterflies need it: LAZY (Shoup, a < 2^32) -> [0, 2p); MONTGOMERY and
 * BARRETT (a < p) -> [0, p).  tw_kind: NTT_V32_TW_*, a literal at every call. */
NTT_INLINE __m512i ntt_v32_times(__m512i a, __m512i w, __m512i wq, const ntt_v32_mod *m,
                                 int tw_kind) {
    if (m->family == NTT_LAZY) {
        if (tw_kind == NTT_V32_TW_ONE)
            return ntt_v32_fold2p(a, m->two_p);
        if (tw_kind == NTT_V32_TW_BROADCAST)
            return ntt_v32_shoup_odd(a, w, wq, wq, m->p);
        return ntt_v32_shoup(a, w, wq, m->p);
    }
    if (tw_kind == NTT_V32_TW_ONE)
        return a;
    return m->family == NTT_BARRETT ? ntt_v32_barrett(a, w, m) : ntt_v32_mont(a, w, m);
}

/* One butterfly on 16 lanes.  DIF (forward): (u, v) -> (u + v, (u - v) w); DIT:
 * (u, v) -> (u + v w, u - v w).  LAZY keeps DIF values in [0, 2p), DIT in [0, 4p);
 * the exact families [0, p).  tw_kind: see ntt_v32_times. */
NTT_INLINE void ntt_v32_butterfly(int forward, __m512i *u, __m512i *v, __m512i w, __m512i wq,
                                  const ntt_v32_mod *m, int tw_kind) {
    if (m->family == NTT_LAZY) {
        if (forward) {
            __m512i d = _mm512_add_epi32(_mm512_sub_epi32(*u, *v), m->two_p);
            *u = ntt_v32_fold2p(_mm512_add_epi32(*u, *v), m->two_p);
            *v = ntt_v32_times(d, w, wq, m, tw_kind);
        } else {
            __m512i x = ntt_v32_fold2p(*u, m->two_p);
            __m512i t = ntt_v32_times(*v, w, wq, m, tw_kind);
            *u = _mm512_add_epi32(x, t);
            *v = _mm512_add_epi32(_mm512_sub_epi32(x, t), m->two_p);
        }
    } else if (forward) {
        __m512i d = ntt_v32_sub(*u, *v, m->p);
        *u = ntt_v32_add(*u, *v, m->p);
        *v = ntt_v32_times(d, w, wq, m, tw_kind);
    } else {
        __m512i t = ntt_v32_times(*v, w, wq, m, tw_kind);
        *v = ntt_v32_sub(*u, t, m->p);
        *u = ntt_v32_add(*u, t, m->p);
    }
}

/* *max_seen raised to the largest of top's 32-bit lanes. */
NTT_INLINE void ntt_v32_max_seen(__m512i top, uint64_t *max_seen) {
    __m512i low = _mm512_and_si512(top, _mm512_set1_epi64(0xffffffffLL));
    uint64_t seen = _mm512_reduce_max_epu64(_mm512_max_epu64(low, _mm512_srli_epi64(top, 32)));
    if (seen > *max_seen)
        *max_seen = seen;
}

/* Butterflies j < count of one stage (x[j], y[j], w[j]); returns how many were
 * done (count rounded down to 16).  wq is ignored for MONTGOMERY.  from_src (a
 * literal): the first sweep of an out-of-place DIF, read straight from its source rows
 * (sx, sy) so the copy of the input costs no pass of its own, *max_seen raised to the
 * largest value read (values >= p give meaningless but fault-free results, which the
 * caller discards); as the AVX2 build. */
NTT_INLINE size_t ntt_simd32_run_body(int forward, int family, int from_src, uint32_t *x,
                                      uint32_t *y, const uint32_t *sx, const uint32_t *sy,
                                      const uint32_t *w, const uint32_t *wq, size_t count,
                                      uint32_t p, uint32_t pinv, uint64_t mu,
                                      uint64_t *max_seen) {
    ntt_v32_mod m = ntt_v32_modulus(p, pinv, mu, family);
    size_t j, done = count & ~(size_t)15;
    __m512i top = _mm512_setzero_si512();
    for (j = 0; j < done; j += 16) {
        __m512i u = _mm512_loadu_si512((from_src ? sx : x) + j);
        __m512i v = _mm512_loadu_si512((from_src ? sy : y) + j);
        __m512i tw = _mm512_loadu_si512(w + j);
        __m512i twq = family == NTT_LAZY ? _mm512_loadu_si512(wq + j) : tw;
        if (from_src)
            top = _mm512_max_epu32(top, _mm512_max_epu32(u, v));
        ntt_v32_butterfly(forward, &u, &v, tw, twq, &m, NTT_V32_TW_VECTOR);
        _mm512_storeu_si512(x + j, u);
        _mm512_storeu_si512(y + j, v);
    }
    if (from_src)
        ntt_v32_max_seen(top, max_seen);
    return done;
}

/* Permutations for a stage of half-length h in {1, 2, 4, 8} on a 32-element
 * segment held in two registers: X gathers the butterflies' first inputs, Y the
 * second (lane l is block l/h, offset l%h), and `back` undoes the gather. */
typedef struct {
    __m512i gx, gy, back_lo, back_hi, w, wq;
} ntt_v32_small_stage;

/* Gather/scatter indices per small stage h = 8, 4, 2, 1 (row k <-> h = 8 >> k):
 * gx[l] = (l/h)*2h + l%h, gy = gx + h, back undoes the gather, wi[l] = l % h.
 * Constant tables: computing them per call cost ~1 us, which dominated small transforms. */
static const int32_t ntt_v32_gx[4][16] __attribute__((aligned(64))) = {
    {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23},
    {0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27},
    {0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21, 24, 25, 28, 29},
    {0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30}};
static const int32_t ntt_v32_gy[4][16] __attribute__((aligned(64))) = {
    {8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31},
    {4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31},
    {2, 3, 6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 26, 27, 30, 31},
    {1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31}};
static const int32_t ntt_v32_blo[4][16] __attribute__((aligned(64))) = {
    {0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23},
    {0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23},
    {0, 1, 16, 17, 2, 3, 18, 19, 4, 5, 20, 21, 6, 7, 22, 23},
    {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23}};
static const int32_t ntt_v32_bhi[4][16] __attribute__((aligned(64))) = {
    {8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31},
    {8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31},
    {8, 9, 24, 25, 10, 11, 26, 27, 12, 13, 28, 29, 14, 15, 30, 31},
    {8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31}};
static const int32_t ntt_v32_wi[4][16] __attribute__((aligned(64))) = {
    {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7},
    {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3},
    {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1},
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}};

NTT_INLINE ntt_v32_small_stage ntt_v32_stage(int k, const uint32_t *tw, const uint32_t *twq,
                                                int lazy) {
    ntt_v32_small_stage s;
    int h = 8 >> k;
    __m512i wi = _mm512_load_si512(ntt_v32_wi[k]);
    s.gx = _mm512_load_si512(ntt_v32_gx[k]);
    s.gy = _mm512_load_si512(ntt_v32_gy[k]);
    s.back_lo = _mm512_load_si512(ntt_v32_blo[k]);
    s.back_hi = _mm512_load_si512(ntt_v32_bhi[k]);
    /* tw + h .. tw + h + 15 is inside the table: callers guarantee n >= 32. */
    s.w = _mm512_permutexvar_epi32(wi, _mm512_loadu_si512(tw + h));
    s.wq = lazy ? _mm512_permutexvar_epi32(wi, _mm512_loadu_si512(twq + h)) : s.w;
    return s;
}

NTT_INLINE void ntt_v32_apply(int forward, __m512i *lo, __m512i *hi,
                                 const ntt_v32_small_stage *s, const ntt_v32_mod *m) {
    __m512i x = _mm512_permutex2var_epi32(*lo, s->gx, *hi);
    __m512i y = _mm512_permutex2var_epi32(*lo, s->gy, *hi);
    ntt_v32_butterfly(forward, &x, &y, s->w, s->wq, m, NTT_V32_TW_VECTOR);
    *lo = _mm512_permutex2var_epi32(x, s->back_lo, y);
    *hi = _mm512_permutex2var_epi32(x, s->back_hi, y);
}

/* The four last DIF stages (h = 8, 4, 2, 1) or first DIT stages (h = 1, 2, 4, 8)
 * over a[0:size], 32 elements at a time, in registers.  Between two stages the
 * data go straight from one stage's (x, y) lane order to the next one's with one
 * permutation per register (the composition of `back` and the next gather, built
 * once per call), and two segments are interleaved for instruction-level
 * parallelism.  Returns 1 when done, 0 when it cannot (size not a multiple of 32,
 * or no AVX-512 in this build). */
NTT_INLINE int ntt_simd32_small_stages_body(int forward, int family, uint32_t *a, size_t size,
                                            const uint32_t *tw, const uint32_t *twq,
                                            uint32_t p, uint32_t pinv, uint64_t mu) {
    if (size < 32 || (size & 31))
        return 0;
    ntt_v32_mod m = ntt_v32_modulus(p, pinv, mu, family);
    int lazy = family == NTT_LAZY;
    ntt_v32_small_stage st[4];
    __m512i next_x[4], next_y[4];
    for (int k = 0; k < 4; k++) /* in execution order: h = 8, 4, 2, 1 forward, reversed inverse */
        st[k] = ntt_v32_stage(forward ? k : 3 - k, tw, twq, lazy);
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
            int kind = k == (forward ? 3 : 0) ? NTT_V32_TW_ONE   /* h = 1: twiddle 1 */
                                               : NTT_V32_TW_VECTOR;
            ntt_v32_butterfly(forward, &x0, &y0, st[k].w, st[k].wq, &m, kind);
            ntt_v32_butterfly(forward, &x1, &y1, st[k].w, st[k].wq, &m, kind);
        }
        _mm512_storeu_si512(a + i, _mm512_permutex2var_epi32(x0, st[3].back_lo, y0));
        _mm512_storeu_si512(a + i + 16, _mm512_permutex2var_epi32(x0, st[3].back_hi, y0));
        _mm512_storeu_si512(a + i + 32, _mm512_permutex2var_epi32(x1, st[3].back_lo, y1));
        _mm512_storeu_si512(a + i + 48, _mm512_permutex2var_epi32(x1, st[3].back_hi, y1));
    }
    if (i < size) {   /* one 32-element segment left */
        __m512i lo = _mm512_loadu_si512(a + i), hi = _mm512_loadu_si512(a + i + 16);
        for (int k = 0; k < 4; k++)
            ntt_v32_apply(forward, &lo, &hi, &st[k], &m);
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
 * butterflies (ntt32_small_stages spends four vpermt2d per pair of segments and
 * stage), one fewer in each Shoup product (NTT_V32_TW_BROADCAST), and the 15 of the 32
 * butterflies whose twiddle is 1 (c mod h = 0) take ntt_v32_times's fold instead of a
 * product: values congruent to ntt32_small_stages's, in the same ranges, so the
 * transforms' results are the same.  Used by padded_product's tiled order (below) and
 * by the natural-order permutations (simd/bitrev/avx512.h).  The AVX2 build does the
 * same in quadrants of 8 x 8 (simd/ntt32/avx2.h, ntt_w32_edge_quadrant). */
typedef struct {
    ntt_v32_mod m;
    __m512i w[16], wq[16];   /* [h + c mod h] for h = 1, 2, 4, 8: entries 1..15 */
} ntt_v32_edge_twiddles;

NTT_INLINE void ntt_v32_edge_twiddles_load(ntt_v32_edge_twiddles *d, const uint32_t *tw,
                                           const uint32_t *twq, uint32_t p, uint32_t pinv,
                                           uint64_t mu, int family) {
    const uint32_t *q = family == NTT_LAZY ? twq : tw;
    d->m = ntt_v32_modulus(p, pinv, mu, family);
    for (int k = 1; k < 16; k++) {
        d->w[k] = _mm512_set1_epi32((int)tw[k]);
        d->wq[k] = _mm512_set1_epi32((int)q[k]);
    }
}

/* The stages on whole vectors r[c]: DIF h = 8, 4, 2, 1 (forward), DIT 1, 2, 4, 8. */
NTT_INLINE void ntt_v32_edge_stages(int forward, __m512i r[16], const ntt_v32_edge_twiddles *d) {
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
                ntt_v32_butterfly(forward, &r[c], &r[c + h], d->w[k], d->wq[k], &d->m,
                                  NTT_V32_TW_BROADCAST);
            else
                ntt_v32_butterfly(forward, &r[c], &r[c + h], d->w[k], d->wq[k], &d->m,
                                  NTT_V32_TW_ONE);
        }
    }
}

/* Forward: r[0..15] the segments in, the transposed tile out, through the DIF stages.
 * Inverse: the transposed tile in (r[c] = value c of every segment), through the DIT
 * stages, the segments out. */
NTT_INLINE void ntt_v32_edge_tile(int forward, __m512i r[16], const ntt_v32_edge_twiddles *d) {
    if (forward) {
        ntt_transpose16x32(r);
        ntt_v32_edge_stages(1, r, d);
    } else {
        ntt_v32_edge_stages(0, r, d);
        ntt_transpose16x32(r);
    }
}

/* ---- Tiled order (padded_product only, where both forwards and the inverse are
 * internal and the pointwise product ignores order): the four edge stages on blocks of
 * 256 values, sixteen segments s, by ntt_v32_edge_tile, stored as it leaves them:
 * block position 16 c + s holds segment s's value c, i.e. the bit-reversed order with
 * each block's 16 x 16 matrix transposed.  The inverse takes that order back. */
#define NTT32_TILED_BLOCK 256

/* 1 when done, 0 when size is not a multiple of 256. */
NTT_INLINE int ntt_simd32_tiled_body(int forward, int family, uint32_t *a, size_t size,
                                     const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                     uint32_t pinv, uint64_t mu) {
    ntt_v32_edge_twiddles d;
    if (size & 255)
        return 0;
    ntt_v32_edge_twiddles_load(&d, tw, twq, p, pinv, mu, family);
    for (size_t i = 0; i < size; i += 256) {
        __m512i r[16];
        for (int k = 0; k < 16; k++)
            r[k] = _mm512_loadu_si512(a + i + 16 * k);
        ntt_v32_edge_tile(forward, r, &d);
        for (int k = 0; k < 16; k++)
            _mm512_storeu_si512(a + i + 16 * k, r[k]);
    }
    return 1;
}

/* One radix-4 group j of the block a[0:2h] (see ntt32_run4) on its four
 * inputs x0..x3 = a[j], a[j + h/2], a[j + h], a[j + 3h/2], results stored to a. */
NTT_INLINE void ntt_v32_radix4(int forward, uint32_t *a, size_t h, size_t j, __m512i x0,
                                  __m512i x1, __m512i x2, __m512i x3, const uint32_t *tw,
                                  const uint32_t *twq, const ntt_v32_mod *m, int lazy) {
    size_t q = h / 2;
    __m512i wa = _mm512_loadu_si512(tw + h + j), wb = _mm512_loadu_si512(tw + h + q + j);
    __m512i wc = _mm512_loadu_si512(tw + q + j);
    __m512i wqa = lazy ? _mm512_loadu_si512(twq + h + j) : wa;
    __m512i wqb = lazy ? _mm512_loadu_si512(twq + h + q + j) : wb;
    __m512i wqc = lazy ? _mm512_loadu_si512(twq + q + j) : wc;
    if (forward) {
        ntt_v32_butterfly(1, &x0, &x2, wa, wqa, m, NTT_V32_TW_VECTOR);
        ntt_v32_butterfly(1, &x1, &x3, wb, wqb, m, NTT_V32_TW_VECTOR);
        ntt_v32_butterfly(1, &x0, &x1, wc, wqc, m, NTT_V32_TW_VECTOR);
        ntt_v32_butterfly(1, &x2, &x3, wc, wqc, m, NTT_V32_TW_VECTOR);
    } else {
        ntt_v32_butterfly(0, &x0, &x1, wc, wqc, m, NTT_V32_TW_VECTOR);
        ntt_v32_butterfly(0, &x2, &x3, wc, wqc, m, NTT_V32_TW_VECTOR);
        ntt_v32_butterfly(0, &x0, &x2, wa, wqa, m, NTT_V32_TW_VECTOR);
        ntt_v32_butterfly(0, &x1, &x3, wb, wqb, m, NTT_V32_TW_VECTOR);
    }
    _mm512_storeu_si512(a + j, x0);
    _mm512_storeu_si512(a + j + q, x1);
    _mm512_storeu_si512(a + j + h, x2);
    _mm512_storeu_si512(a + j + h + q, x3);
}

/* Two stages at once (radix-4): half-lengths h then h/2 for DIF, h/2 then h for
 * DIT, on the block a[0:2h], butterfly groups j0 <= j < j1 (j < h/2).  Each
 * group touches a[j], a[j+h/2], a[j+h], a[j+3h/2] and nothing else, so groups are
 * independent (threads may split the j range).  Same ranges as two radix-2 stages.
 * Returns the number of groups done (a multiple of 16 from j0). */
NTT_INLINE size_t ntt_simd32_run4_body(int forward, int family, int from_src, uint32_t *a,
                                       const uint32_t *src, size_t h, size_t j0, size_t j1,
                                       const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                       uint32_t pinv, uint64_t mu, uint64_t *max_seen) {
    ntt_v32_mod m = ntt_v32_modulus(p, pinv, mu, family);
    const uint32_t *in = from_src ? src : a;
    size_t q = h / 2, j, done = (j1 - j0) & ~(size_t)15;
    __m512i top = _mm512_setzero_si512();
    if (q % 16)
        return 0;
    for (j = j0; j < j0 + done; j += 16) {
        __m512i x0 = _mm512_loadu_si512(in + j), x1 = _mm512_loadu_si512(in + j + q);
        __m512i x2 = _mm512_loadu_si512(in + j + h), x3 = _mm512_loadu_si512(in + j + h + q);
        if (from_src)
            top = _mm512_max_epu32(top, _mm512_max_epu32(_mm512_max_epu32(x0, x1),
                                                         _mm512_max_epu32(x2, x3)));
        ntt_v32_radix4(forward, a, h, j, x0, x1, x2, x3, tw, twq, &m,
                       family == NTT_LAZY);
    }
    if (from_src)
        ntt_v32_max_seen(top, max_seen);
    return done;
}

/* dst[i] = src[i] * w[i] as ntt_v32_times (LAZY: src < 2^32 -> [0, 2p), or [0, p) with
 * fold; MONTGOMERY / BARRETT: src < p -> [0, p)): the negacyclic twists.  src may equal
 * dst.  Returns the count done (a multiple of 16). */
NTT_INLINE size_t ntt_v32_times_body(int forward, int family, const uint32_t *src,
                                     uint32_t *dst, const uint32_t *w, const uint32_t *wq,
                                     size_t count, uint32_t p, uint32_t pinv, uint64_t mu,
                                     int fold) {
    (void)forward;
    ntt_v32_mod m = ntt_v32_modulus(p, pinv, mu, family);
    size_t i, done = count & ~(size_t)15;
    for (i = 0; i < done; i += 16) {
        __m512i tw = _mm512_loadu_si512(w + i);
        __m512i twq = family == NTT_LAZY ? _mm512_loadu_si512(wq + i) : tw;
        __m512i x = ntt_v32_times(_mm512_loadu_si512(src + i), tw, twq, &m, NTT_V32_TW_VECTOR);
        if (fold && family == NTT_LAZY)
            x = _mm512_min_epu32(x, _mm512_sub_epi32(x, m.p));
        _mm512_storeu_si512(dst + i, x);
    }
    return done;
}

/* a[i] <- a[i] c mod p in [0, p) for a[i] in [0, 4p) (LAZY DIT output, 4p <= 2^32),
 * c < p, cq = floor(c 2^32 / p): Shoup -> [0, 2p), one fold (the cyclic inverse's n^-1,
 * as the AVX2 version; a scalar loop in this build before). */
NTT_INLINE size_t ntt_simd32_scale_lazy_body(uint32_t *a, size_t count, uint32_t c, uint32_t cq,
                                           uint32_t p) {
    const __m512i vc = _mm512_set1_epi32((int)c), vcq = _mm512_set1_epi32((int)cq);
    const __m512i vp = _mm512_set1_epi32((int)p);
    size_t i, done = count & ~(size_t)15;
    for (i = 0; i < done; i += 16) {
        __m512i x = ntt_v32_shoup(_mm512_loadu_si512(a + i), vc, vcq, vp);
        _mm512_storeu_si512(a + i, _mm512_min_epu32(x, _mm512_sub_epi32(x, vp)));
    }
    return done;
}

/* out[i] = mont(mont(a[i], b[i]), c) = a b c 2^-64 mod p: with c = f 2^64 mod p this
 * is a*b*f mod p.  a, b, c in [0, p), p odd < 2^32; out in [0, p), or in [0, 2p) with
 * lazy_out (for a LAZY DIT, whose inputs may lie in [0, 4p); p < 2^30 there): the
 * second product's h1 - h2 + p without its correction, a mask compare and masked add
 * less.  Returns the count done (a multiple of 16). */
NTT_INLINE size_t ntt_simd32_pointwise_body(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                          size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                          int lazy_out) {
    ntt_v32_mod m = ntt_v32_modulus(p, pinv, 0, NTT_MONTGOMERY);
    __m512i vc = _mm512_set1_epi32((int)c);
    size_t i, done = count & ~(size_t)15;
    for (i = 0; i < done; i += 16) {
        __m512i x = ntt_v32_mont(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i), &m);
        _mm512_storeu_si512(out + i, lazy_out ? ntt_v32_mont_lazy(x, vc, &m)
                                              : ntt_v32_mont(x, vc, &m));
    }
    return done;
}

/* The first two DIF stages (half-lengths h and h/2) of a row a[0:2h] whose input
 * is src[0:n_src] zero-padded (n_src <= h): x2 = x3 = 0, x0 and x1 read straight
 * from src (uint32, or uint64 when src32 is NULL), so the zero-padded copy is never
 * written or read back.  Without reduce_src the values must be below p (uint64 ones
 * are narrowed to their low 32 bits).  reduce_src: every source value is reduced mod
 * p on the way in; needs p < 2^31.  A 32-bit x: x - floor(x floor(2^32/p) / 2^32) p
 * in [0, 2p) (Shoup by 1), folded to [0, p); a 64-bit one, x = hi 2^32 + lo: hi
 * (2^32 mod p) by Shoup (hi < 2^32) folded to [0, p), plus lo mod p, the sum (< 2p
 * < 2^32) folded.  Groups j0 <= j < j1 of [0, h/2); same butterflies and ranges as
 * ntt32_run4.  Returns the number of groups done (a multiple of 16), 0 when h/2
 * is not a multiple of 16 (or reduce_src with p >= 2^31). */
NTT_INLINE __m512i ntt_v32_load_src(const uint32_t *src32, const uint64_t *src64,
                                     size_t n_src, size_t i, __m512i *top, __m512i *high) {
    /* 16 source values from i (zeros past n_src); *top keeps the largest value read
     * (before narrowing), so callers can check the "values < p" promise for free;
     * *high (uint64 sources) gets their high 32 bits. */
    __mmask16 keep = i >= n_src ? 0 : n_src - i >= 16 ? 0xFFFF
                                       : (__mmask16)((1u << (n_src - i)) - 1);
    if (src32) {
        __m512i x = _mm512_maskz_loadu_epi32(keep, src32 + i);
        *top = _mm512_max_epu64(*top, _mm512_max_epu32(_mm512_srli_epi64(x, 32),
                                                       _mm512_and_si512(x, _mm512_set1_epi64(0xffffffffLL))));
        return x;
    }
    __m512i lo = _mm512_maskz_loadu_epi64((__mmask8)keep, src64 + i);
    __m512i hi = _mm512_maskz_loadu_epi64((__mmask8)(keep >> 8), src64 + i + 8);
    *top = _mm512_max_epu64(*top, _mm512_max_epu64(lo, hi));
    *high = _mm512_inserti64x4(_mm512_castsi256_si512(
                                   _mm512_cvtepi64_epi32(_mm512_srli_epi64(lo, 32))),
                               _mm512_cvtepi64_epi32(_mm512_srli_epi64(hi, 32)), 1);
    return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi64_epi32(lo)),
                              _mm512_cvtepi64_epi32(hi), 1);
}

/* x < 2^32 -> x mod p, p < 2^31, one_q = floor(2^32 / p): Shoup with w = 1 gives
 * x - q p in [0, 2p), then one fold. */
NTT_INLINE __m512i ntt_v32_reduce_src(__m512i x, __m512i one_q, __m512i p) {
    __m512i q = ntt_v32_mulhi_odd(x, one_q, one_q);   /* one_q is a broadcast */
    __m512i r = _mm512_sub_epi32(x, _mm512_mullo_epi32(q, p));
    return _mm512_min_epu32(r, _mm512_sub_epi32(r, p));
}

/* (high 2^32 + x) mod p for the low and high halves of 64-bit values, p < 2^31;
 * c = 2^32 mod p, cq = floor(c 2^32 / p), one_q as ntt_v32_reduce_src. */
NTT_INLINE __m512i ntt_v32_reduce_src64(__m512i x, __m512i high, __m512i c, __m512i cq,
                                        __m512i one_q, __m512i p) {
    __m512i t = ntt_v32_shoup_odd(high, c, cq, cq, p);          /* [0, 2p) */
    t = _mm512_min_epu32(t, _mm512_sub_epi32(t, p));             /* [0, p) */
    t = _mm512_add_epi32(t, ntt_v32_reduce_src(x, one_q, p));    /* [0, 2p) */
    return _mm512_min_epu32(t, _mm512_sub_epi32(t, p));
}

NTT_INLINE size_t ntt_simd32_run4_padded_body(int forward, int family, uint32_t *a, size_t h,
                                              size_t j0, size_t j1, const uint32_t *src32,
                                              const uint64_t *src64, size_t n_src,
                                              const uint32_t *tw, const uint32_t *twq,
                                              uint32_t p, uint32_t pinv, uint64_t mu,
                                              int reduce_src, uint64_t *max_seen) {
    (void)forward;
    ntt_v32_mod m = ntt_v32_modulus(p, pinv, mu, family);
    size_t q = h / 2, j, done = (j1 - j0) & ~(size_t)15;
    int lazy = family == NTT_LAZY;
    __m512i top = _mm512_setzero_si512();   /* largest source value read (64-bit lanes) */
    __m512i high0 = _mm512_setzero_si512(), high1 = high0;
    const __m512i one_q = _mm512_set1_epi32((int)(uint32_t)((1ull << 32) / p));
    const uint32_t c = (uint32_t)((1ull << 32) % p);
    const __m512i vc = _mm512_set1_epi32((int)c);
    const __m512i cq = _mm512_set1_epi32((int)(uint32_t)(((uint64_t)c << 32) / p));
    if (q % 16 || (reduce_src && p >= (1u << 31)))
        return 0;
    for (j = j0; j < j0 + done; j += 16) {
        __m512i x0 = ntt_v32_load_src(src32, src64, n_src, j, &top, &high0);
        __m512i x1 = ntt_v32_load_src(src32, src64, n_src, j + q, &top, &high1);
        if (reduce_src && src32) {
            x0 = ntt_v32_reduce_src(x0, one_q, m.p);
            x1 = ntt_v32_reduce_src(x1, one_q, m.p);
        } else if (reduce_src) {
            x0 = ntt_v32_reduce_src64(x0, high0, vc, cq, one_q, m.p);
            x1 = ntt_v32_reduce_src64(x1, high1, vc, cq, one_q, m.p);
        }
        ntt_v32_radix4(1, a, h, j, x0, x1, _mm512_setzero_si512(), _mm512_setzero_si512(),
                       tw, twq, &m, lazy);
    }
    uint64_t seen = _mm512_reduce_max_epu64(top);
    if (seen > *max_seen)
        *max_seen = seen;
    return done;
}
#endif
