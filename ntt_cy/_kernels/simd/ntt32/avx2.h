/* AVX2 bodies for 32-bit lanes (8 per vector), all three families: the same sweeps,
 * ranges and results as the AVX-512 ones in simd/ntt32/avx512.h.  simd/ntt32/dispatch.h
 * includes this file where simd/select.h picks AVX2 and turns each body into an entry
 * point.  The twists have no AVX2 body (the scalar Cython loops take them).
 *
 * AVX2 has no unsigned compare: "x < y" is a signed compare of x and y with their
 * top bits flipped, so the exact families stay valid for every p < 2^32; for p < 2^31
 * their sums and differences take an unsigned min instead (ntt_w32_add / _sub).
 */
#ifndef NTT_CY_SIMD_NTT32_AVX2_H
#define NTT_CY_SIMD_NTT32_AVX2_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

typedef struct {
    __m256i p, two_p, pinv, mu_lo, mu_hi;
    int family;
    int narrow;   /* p < 2^31: sums and differences of residues fit 32 bits (ntt_w32_add) */
} ntt_w32_mod;

NTT_INLINE ntt_w32_mod ntt_w32_modulus(uint32_t p, uint32_t pinv, uint64_t mu, int family) {
    ntt_w32_mod m;
    m.p = _mm256_set1_epi32((int)p);
    m.two_p = _mm256_set1_epi32((int)(2u * p));
    m.pinv = _mm256_set1_epi32((int)pinv);
    m.mu_lo = _mm256_set1_epi64x((long long)(mu & 0xffffffffu));
    m.mu_hi = _mm256_set1_epi64x((long long)(mu >> 32));
    m.family = family;
    m.narrow = p < (1u << 31);
    return m;
}

/* High 32 bits of the 64-bit products a*b, lane by lane; b_odd holds b's odd lanes in
 * its even ones (vpmuludq reads those): b >> 32 per 64-bit lane, b itself when all its
 * lanes are equal, or a table load one element further on (ntt_w32_twiddle_at). */
NTT_INLINE __m256i ntt_w32_mulhi_odd(__m256i a, __m256i b, __m256i b_odd) {
    __m256i even = _mm256_srli_epi64(_mm256_mul_epu32(a, b), 32);
    __m256i odd = _mm256_mul_epu32(_mm256_srli_epi64(a, 32), b_odd);
    return _mm256_blend_epi32(even, odd, 0xAA);
}

NTT_INLINE __m256i ntt_w32_mulhi(__m256i a, __m256i b) {
    return ntt_w32_mulhi_odd(a, b, _mm256_srli_epi64(b, 32));
}

/* x - y for x, y < 2^32 whose true difference lies in [-p, p) -> [0, p): p is
 * added where x < y (unsigned). */
NTT_INLINE __m256i ntt_w32_sub_wrap(__m256i x, __m256i y, __m256i p) {
    const __m256i top = _mm256_set1_epi32((int)0x80000000u);
    __m256i below = _mm256_cmpgt_epi32(_mm256_xor_si256(y, top), _mm256_xor_si256(x, top));
    return _mm256_add_epi32(_mm256_sub_epi32(x, y), _mm256_and_si256(below, p));
}

/* x in [0, 2c) -> [0, c) when 2c <= 2^32: x - c wraps above x exactly when x < c
 * (c = 0: x unchanged).  The LAZY folds (c = 2p), the final reductions (c = p). */
NTT_INLINE __m256i ntt_w32_fold(__m256i x, __m256i c) {
    return _mm256_min_epu32(x, _mm256_sub_epi32(x, c));
}

/* (x - y) mod p for x, y in [0, p), p < 2^31: x - y + p wraps below x - y exactly
 * when x >= y (x - y itself wraps above 2^31 when x < y). */
NTT_INLINE __m256i ntt_w32_sub_narrow(__m256i x, __m256i y, __m256i p) {
    __m256i d = _mm256_sub_epi32(x, y);
    return _mm256_min_epu32(d, _mm256_add_epi32(d, p));
}

/* a, b in [0, p): (a + b) mod p and (a - b) mod p.  p < 2^31 (m->narrow): a + b and
 * a - b + p stay below 2^32, so one unsigned min picks the residue (ntt_w32_fold,
 * ntt_w32_sub_narrow); any p < 2^32: (a + b) as a - (p - b), through sub_wrap's
 * signed compare.  Zen 3, 2^16 forward, p < 2^31: Montgomery 0.44 -> 0.34, Barrett
 * 1.00 -> 0.87 ns per butterfly. */
NTT_INLINE __m256i ntt_w32_add(__m256i a, __m256i b, const ntt_w32_mod *m) {
    if (m->narrow)
        return ntt_w32_fold(_mm256_add_epi32(a, b), m->p);
    return ntt_w32_sub_wrap(a, _mm256_sub_epi32(m->p, b), m->p);
}

NTT_INLINE __m256i ntt_w32_sub(__m256i a, __m256i b, const ntt_w32_mod *m) {
    if (m->narrow)
        return ntt_w32_sub_narrow(a, b, m->p);
    return ntt_w32_sub_wrap(a, b, m->p);
}

/* Shoup: a in [0, 2^32), w < p, wq = floor(w 2^32 / p) -> [0, 2p); wq_odd: wq's odd
 * lanes in its even ones (ntt_w32_mulhi_odd). */
NTT_INLINE __m256i ntt_w32_shoup(__m256i a, __m256i w, __m256i wq, __m256i wq_odd,
                                 __m256i p) {
    __m256i q = ntt_w32_mulhi_odd(a, wq, wq_odd);
    return _mm256_sub_epi32(_mm256_mullo_epi32(a, w), _mm256_mullo_epi32(q, p));
}

/* Montgomery: a in [0, 2^32), a*b < p 2^32, p odd -> a*b*2^-32 mod p in [0, p); b_odd
 * as ntt_w32_mulhi_odd. */
NTT_INLINE __m256i ntt_w32_mont_odd(__m256i a, __m256i b, __m256i b_odd,
                                    const ntt_w32_mod *m) {
    __m256i h1 = ntt_w32_mulhi_odd(a, b, b_odd);
    __m256i lo = _mm256_mullo_epi32(a, b);
    __m256i h2 = ntt_w32_mulhi(_mm256_mullo_epi32(lo, m->pinv), m->p);
    return ntt_w32_sub(h1, h2, m);
}

NTT_INLINE __m256i ntt_w32_mont(__m256i a, __m256i b, const ntt_w32_mod *m) {
    return ntt_w32_mont_odd(a, b, _mm256_srli_epi64(b, 32), m);
}

/* Barrett on the even 32-bit lanes, as barrett_mul32 and the AVX-512 version:
 * t = a b, q = hi64(t mu) from four vpmuludq, r = t - q p in [0, 2p) -> [0, p).
 * q p needs only its low 33 bits; p < 2^32, so lo64(q p) = q0 p + (q1 p << 32). */
NTT_INLINE __m256i ntt_w32_barrett_even(__m256i a, __m256i b, const ntt_w32_mod *m) {
    const __m256i low32 = _mm256_set1_epi64x(0xffffffffLL);
    __m256i t = _mm256_mul_epu32(a, b), t1 = _mm256_srli_epi64(t, 32);
    __m256i ll = _mm256_mul_epu32(t, m->mu_lo), lh = _mm256_mul_epu32(t, m->mu_hi);
    __m256i hl = _mm256_mul_epu32(t1, m->mu_lo), hh = _mm256_mul_epu32(t1, m->mu_hi);
    __m256i mid = _mm256_add_epi64(_mm256_srli_epi64(ll, 32), _mm256_and_si256(lh, low32));
    mid = _mm256_add_epi64(mid, _mm256_and_si256(hl, low32));
    __m256i q = _mm256_add_epi64(hh, _mm256_srli_epi64(lh, 32));
    q = _mm256_add_epi64(q, _mm256_add_epi64(_mm256_srli_epi64(hl, 32), _mm256_srli_epi64(mid, 32)));
    __m256i p64 = _mm256_and_si256(m->p, low32);
    __m256i qp = _mm256_add_epi64(_mm256_mul_epu32(q, p64),
                                  _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(q, 32), p64), 32));
    __m256i r = _mm256_sub_epi64(t, qp);   /* < 2p < 2^33 */
    __m256i over = _mm256_cmpgt_epi64(r, _mm256_sub_epi64(p64, _mm256_set1_epi64x(1)));
    return _mm256_sub_epi64(r, _mm256_and_si256(over, p64));
}

NTT_INLINE __m256i ntt_w32_barrett(__m256i a, __m256i b, const ntt_w32_mod *m) {
    __m256i even = ntt_w32_barrett_even(a, b, m);
    __m256i odd = ntt_w32_barrett_even(_mm256_srli_epi64(a, 32), _mm256_srli_epi64(b, 32), m);
    return _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
}

/* x < 2^32 -> x mod p, p < 2^31, one_q = floor(2^32 / p): Shoup with w = 1 gives
 * x - q p in [0, 2p), then one fold. */
NTT_INLINE __m256i ntt_w32_reduce(__m256i x, __m256i one_q, __m256i p) {
    __m256i q = ntt_w32_mulhi_odd(x, one_q, one_q);   /* one_q is a broadcast */
    return ntt_w32_fold(_mm256_sub_epi32(x, _mm256_mullo_epi32(q, p)), p);
}

/* A butterfly's multiplier on 8 lanes: the twiddles w, their Shoup quotients q (w
 * itself for the exact families), and q_odd, q's odd lanes in its even ones
 * (ntt_w32_mulhi_odd). */
typedef struct {
    __m256i w, q, q_odd;
} ntt_w32_twiddle;

/* From vectors, q_odd by a shift (loop-invariant twiddles: hoisted). */
NTT_INLINE ntt_w32_twiddle ntt_w32_twiddle_of(__m256i w, __m256i q) {
    ntt_w32_twiddle t;
    t.w = w;
    t.q = q;
    t.q_odd = _mm256_srli_epi64(q, 32);
    return t;
}

/* tw[at..at+7] with twq's (lazy) or tw's own values as q, and q_odd loaded one element
 * further on, a load in place of a shift per product (Zen 3, C harness, uint32 LAZY
 * 2^17: chunk radix-4 sweeps 45 -> 43 us, L1 blocks 92 -> 89 us, radix-2 sweep 15 -> 14
 * us).  It reads element at + 8: twiddle tables are readable one vector past their end
 * (TABLE_TAIL_BYTES, ntt_cy/_support/aligned.pyx). */
NTT_INLINE ntt_w32_twiddle ntt_w32_twiddle_at(const uint32_t *tw, const uint32_t *twq,
                                              size_t at, int lazy) {
    const uint32_t *q = lazy ? twq + at : tw + at;
    ntt_w32_twiddle t;
    t.w = _mm256_loadu_si256((const __m256i *)(tw + at));
    t.q = lazy ? _mm256_loadu_si256((const __m256i *)q) : t.w;
    t.q_odd = _mm256_loadu_si256((const __m256i *)(q + 1));
    return t;
}

/* a * w as the butterflies need it, and `one` (twiddle 1): as ntt_v32_times. */
NTT_INLINE __m256i ntt_w32_times(__m256i a, const ntt_w32_twiddle *t, const ntt_w32_mod *m,
                                 int one) {
    if (m->family == NTT_LAZY)
        return one ? ntt_w32_fold(a, m->two_p) : ntt_w32_shoup(a, t->w, t->q, t->q_odd, m->p);
    if (one)
        return a;
    return m->family == NTT_BARRETT ? ntt_w32_barrett(a, t->w, m)
                                         : ntt_w32_mont_odd(a, t->w, t->q_odd, m);
}

/* One butterfly on 8 lanes: as ntt_v32_butterfly (DIF forward, DIT otherwise). */
NTT_INLINE void ntt_w32_bfly(int forward, __m256i *u, __m256i *v, const ntt_w32_twiddle *tw,
                             const ntt_w32_mod *m, int one) {
    if (m->family == NTT_LAZY) {
        if (forward) {      /* DIF, in/out [0, 2p) */
            __m256i d = _mm256_add_epi32(_mm256_sub_epi32(*u, *v), m->two_p);
            *u = ntt_w32_fold(_mm256_add_epi32(*u, *v), m->two_p);
            *v = ntt_w32_times(d, tw, m, one);
        } else {            /* DIT, in/out [0, 4p) */
            __m256i x = ntt_w32_fold(*u, m->two_p);
            __m256i t = ntt_w32_times(*v, tw, m, one);
            *u = _mm256_add_epi32(x, t);
            *v = _mm256_add_epi32(_mm256_sub_epi32(x, t), m->two_p);
        }
    } else if (forward) {   /* MONTGOMERY or BARRETT, in/out [0, p) */
        __m256i d = ntt_w32_sub(*u, *v, m);
        *u = ntt_w32_add(*u, *v, m);
        *v = ntt_w32_times(d, tw, m, one);
    } else {
        __m256i t = ntt_w32_times(*v, tw, m, one);
        *v = ntt_w32_sub(*u, t, m);
        *u = ntt_w32_add(*u, t, m);
    }
}

/* One radix-4 group j of the block a[0:2h] (as the AVX-512 ntt_v32_radix4) on its
 * four inputs x0..x3 = a[j], a[j + h/2], a[j + h], a[j + 3h/2], results stored to a. */
NTT_INLINE void ntt_w32_radix4(int forward, uint32_t *a, size_t h, size_t j, __m256i x0,
                               __m256i x1, __m256i x2, __m256i x3, const uint32_t *tw,
                               const uint32_t *twq, const ntt_w32_mod *m, int lazy) {
    size_t q = h / 2;
    ntt_w32_twiddle ta = ntt_w32_twiddle_at(tw, twq, h + j, lazy);
    ntt_w32_twiddle tb = ntt_w32_twiddle_at(tw, twq, h + q + j, lazy);
    ntt_w32_twiddle tc = ntt_w32_twiddle_at(tw, twq, q + j, lazy);
    if (forward) {
        ntt_w32_bfly(1, &x0, &x2, &ta, m, 0);
        ntt_w32_bfly(1, &x1, &x3, &tb, m, 0);
        ntt_w32_bfly(1, &x0, &x1, &tc, m, 0);
        ntt_w32_bfly(1, &x2, &x3, &tc, m, 0);
    } else {
        ntt_w32_bfly(0, &x0, &x1, &tc, m, 0);
        ntt_w32_bfly(0, &x2, &x3, &tc, m, 0);
        ntt_w32_bfly(0, &x0, &x2, &ta, m, 0);
        ntt_w32_bfly(0, &x1, &x3, &tb, m, 0);
    }
    _mm256_storeu_si256((__m256i *)(a + j), x0);
    _mm256_storeu_si256((__m256i *)(a + j + q), x1);
    _mm256_storeu_si256((__m256i *)(a + j + h), x2);
    _mm256_storeu_si256((__m256i *)(a + j + h + q), x3);
}

/* The radix-2 and radix-4 loops, also as the first sweep of an out-of-place DIF read
 * straight from its source rows (from_src): the copy of the input then costs no pass of
 * its own (Zen 3: natural-order 2^20 forward 2.5-2.75 -> 2.36-2.45 ms, 2^17 1-3%), and
 * *max_seen is raised to the largest value read: values >= p give meaningless (but
 * fault-free) results, which the caller discards. */
NTT_INLINE void ntt_w32_max_seen(__m256i top, uint64_t *max_seen) {
    uint32_t lanes[8];
    _mm256_storeu_si256((__m256i *)lanes, top);
    for (int k = 0; k < 8; k++)
        if (lanes[k] > *max_seen)
            *max_seen = lanes[k];
}

/* Radix-2 butterflies j < count on (x, y); from_src (a literal): read from (sx, sy),
 * *max_seen raised to the largest value read. */
NTT_INLINE size_t ntt_simd32_run_body(int forward, int family, int from_src, uint32_t *x,
                                      uint32_t *y, const uint32_t *sx, const uint32_t *sy,
                                      const uint32_t *w, const uint32_t *wq, size_t count,
                                      uint32_t p, uint32_t pinv, uint64_t mu,
                                      uint64_t *max_seen) {
    ntt_w32_mod m = ntt_w32_modulus(p, pinv, mu, family);
    size_t j, done = count & ~(size_t)7;
    __m256i top = _mm256_setzero_si256();
    for (j = 0; j < done; j += 8) {
        __m256i u = _mm256_loadu_si256((const __m256i *)((from_src ? sx : x) + j));
        __m256i v = _mm256_loadu_si256((const __m256i *)((from_src ? sy : y) + j));
        ntt_w32_twiddle t = ntt_w32_twiddle_at(w, wq, j, family == NTT_LAZY);
        if (from_src)
            top = _mm256_max_epu32(top, _mm256_max_epu32(u, v));
        ntt_w32_bfly(forward, &u, &v, &t, &m, 0);
        _mm256_storeu_si256((__m256i *)(x + j), u);
        _mm256_storeu_si256((__m256i *)(y + j), v);
    }
    if (from_src)
        ntt_w32_max_seen(top, max_seen);
    return done;
}

/* Radix-4 groups j0 <= j < j1 of the block a[0:2h] (as the AVX-512 body, 8
 * groups per vector); from_src as ntt_simd32_run_body, src laid out as a. */
NTT_INLINE size_t ntt_simd32_run4_body(int forward, int family, int from_src, uint32_t *a,
                                       const uint32_t *src, size_t h, size_t j0, size_t j1,
                                       const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                       uint32_t pinv, uint64_t mu, uint64_t *max_seen) {
    ntt_w32_mod m = ntt_w32_modulus(p, pinv, mu, family);
    const uint32_t *in = from_src ? src : a;
    size_t q = h / 2, j, done = (j1 - j0) & ~(size_t)7;
    __m256i top = _mm256_setzero_si256();
    if (q % 8)
        return 0;
    for (j = j0; j < j0 + done; j += 8) {
        __m256i x0 = _mm256_loadu_si256((const __m256i *)(in + j));
        __m256i x1 = _mm256_loadu_si256((const __m256i *)(in + j + q));
        __m256i x2 = _mm256_loadu_si256((const __m256i *)(in + j + h));
        __m256i x3 = _mm256_loadu_si256((const __m256i *)(in + j + h + q));
        if (from_src)
            top = _mm256_max_epu32(top, _mm256_max_epu32(_mm256_max_epu32(x0, x1),
                                                         _mm256_max_epu32(x2, x3)));
        ntt_w32_radix4(forward, a, h, j, x0, x1, x2, x3, tw, twq, &m,
                       family == NTT_LAZY);
    }
    if (from_src)
        ntt_w32_max_seen(top, max_seen);
    return done;
}

/* The zero-padded first pass, as the AVX-512 ntt32_run4_padded (its ranges and
 * the 64-bit sources' reduction are stated there): DIF stages h and h/2 of a row
 * a[0:2h] whose input is src[0:n_src] zero-padded (n_src <= h), x0 and x1 read
 * straight from src (uint32, or uint64 when src32 is NULL), x2 = x3 = 0.  *top keeps
 * the largest source value read (before any narrowing): as 32-bit lanes for uint32
 * sources, as 64-bit lanes with the top bit flipped (so a signed compare orders them)
 * for uint64 ones, whose high 32 bits go to *high. */
NTT_INLINE __m256i ntt_w32_load_src(const uint32_t *src32, const uint64_t *src64,
                                    size_t n_src, size_t i, __m256i *top, __m256i *high) {
    const __m256i flip = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    if (i >= n_src) {
        *high = _mm256_setzero_si256();
        return _mm256_setzero_si256();
    }
    if (n_src - i < 8) {   /* the one vector across the end: through a zeroed copy */
        uint64_t part[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        uint32_t part32[8] = {0, 0, 0, 0, 0, 0, 0, 0};
        for (size_t k = 0; k < n_src - i; k++) {
            if (src32)
                part32[k] = src32[i + k];
            else
                part[k] = src64[i + k];
        }
        return src32 ? ntt_w32_load_src(part32, NULL, 8, 0, top, high)
                     : ntt_w32_load_src(NULL, part, 8, 0, top, high);
    }
    if (src32) {
        __m256i x = _mm256_loadu_si256((const __m256i *)(src32 + i));
        *top = _mm256_max_epu32(*top, x);
        return x;
    }
    __m256i lo = _mm256_loadu_si256((const __m256i *)(src64 + i));
    __m256i hi = _mm256_loadu_si256((const __m256i *)(src64 + i + 4));
    __m256i flo = _mm256_xor_si256(lo, flip), fhi = _mm256_xor_si256(hi, flip);
    __m256i big = _mm256_blendv_epi8(fhi, flo, _mm256_cmpgt_epi64(flo, fhi));
    *top = _mm256_blendv_epi8(*top, big, _mm256_cmpgt_epi64(big, *top));
    /* the low 32 bits of each lane, in order: (lo0 lo1 hi0 hi1 | lo2 lo3 hi2 hi3);
     * the high ones likewise */
    __m256i x = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(lo),
                                                      _mm256_castsi256_ps(hi), 0x88));
    __m256i y = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(lo),
                                                      _mm256_castsi256_ps(hi), 0xDD));
    *high = _mm256_permute4x64_epi64(y, 0xD8);
    return _mm256_permute4x64_epi64(x, 0xD8);
}

/* (high 2^32 + x) mod p, as the AVX-512 ntt_v32_reduce_src64. */
NTT_INLINE __m256i ntt_w32_reduce64(__m256i x, __m256i high, __m256i c, __m256i cq,
                                    __m256i one_q, __m256i p) {
    __m256i t = ntt_w32_fold(ntt_w32_shoup(high, c, cq, cq, p), p);    /* [0, p) */
    return ntt_w32_fold(_mm256_add_epi32(t, ntt_w32_reduce(x, one_q, p)), p);
}

NTT_INLINE size_t ntt_simd32_run4_padded_body(int forward, int family, uint32_t *a, size_t h,
                                              size_t j0, size_t j1, const uint32_t *src32,
                                              const uint64_t *src64, size_t n_src,
                                              const uint32_t *tw, const uint32_t *twq,
                                              uint32_t p, uint32_t pinv, uint64_t mu,
                                              int reduce_src, uint64_t *max_seen) {
    ntt_w32_mod m = ntt_w32_modulus(p, pinv, mu, family);
    (void)forward;   /* always a DIF */
    size_t q = h / 2, j, done = (j1 - j0) & ~(size_t)7;
    int lazy = family == NTT_LAZY;
    const __m256i flip = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    __m256i top = src32 ? _mm256_setzero_si256() : flip;   /* the smallest value, 0 */
    const __m256i one_q = _mm256_set1_epi32((int)(uint32_t)((1ull << 32) / p));
    const uint32_t c = (uint32_t)((1ull << 32) % p);
    const __m256i vc = _mm256_set1_epi32((int)c);
    const __m256i cq = _mm256_set1_epi32((int)(uint32_t)(((uint64_t)c << 32) / p));
    __m256i high0 = _mm256_setzero_si256(), high1 = high0;
    uint64_t lanes[4], seen = 0;
    if (q % 8 || (reduce_src && p >= (1u << 31)))
        return 0;
    for (j = j0; j < j0 + done; j += 8) {
        __m256i x0 = ntt_w32_load_src(src32, src64, n_src, j, &top, &high0);
        __m256i x1 = ntt_w32_load_src(src32, src64, n_src, j + q, &top, &high1);
        if (reduce_src && src32) {
            x0 = ntt_w32_reduce(x0, one_q, m.p);
            x1 = ntt_w32_reduce(x1, one_q, m.p);
        } else if (reduce_src) {
            x0 = ntt_w32_reduce64(x0, high0, vc, cq, one_q, m.p);
            x1 = ntt_w32_reduce64(x1, high1, vc, cq, one_q, m.p);
        }
        ntt_w32_radix4(1, a, h, j, x0, x1, _mm256_setzero_si256(), _mm256_setzero_si256(),
                       tw, twq, &m, lazy);
    }
    if (src32) {
        ntt_w32_max_seen(top, max_seen);
        return done;
    }
    _mm256_storeu_si256((__m256i *)lanes, _mm256_xor_si256(top, flip));
    for (int k = 0; k < 4; k++)
        seen = lanes[k] > seen ? lanes[k] : seen;
    if (seen > *max_seen)
        *max_seen = seen;
    return done;
}

/* Stage twiddles of a 16-element segment (a = elements 0-7, b = 8-15) in the lane
 * order of the (x, y) registers ntt_w32_split makes for half-length h. */
NTT_INLINE __m256i ntt_w32_stage_twiddles(const uint32_t *tw, int h) {
    switch (h) {
    case 8: return _mm256_loadu_si256((const __m256i *)(tw + 8));
    case 4: return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(tw + 4)));
    case 2: return _mm256_set1_epi64x(((const int64_t *)(tw + 2))[0]);
    default: return _mm256_set1_epi32((int)tw[1]);
    }
}

/* (a, b) -> (x, y): x the first, y the second inputs of the butterflies of stage h. */
NTT_INLINE void ntt_w32_split(int h, __m256i a, __m256i b, __m256i *x, __m256i *y) {
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

/* Inverse of ntt_w32_split. */
NTT_INLINE void ntt_w32_join(int h, __m256i x, __m256i y, __m256i *a, __m256i *b) {
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
NTT_INLINE void
ntt_w32_small_stage(int forward, int h, __m256i *lo, __m256i *hi, const ntt_w32_twiddle *t,
                    const ntt_w32_mod *m) {
    __m256i x, y;
    ntt_w32_split(h, *lo, *hi, &x, &y);
    ntt_w32_bfly(forward, &x, &y, t, m, h == 1);
    ntt_w32_join(h, x, y, lo, hi);
}

/* The last four DIF stages (h = 8, 4, 2, 1), or the first four DIT stages, on
 * `count` segments of 16 held in (lo[s], hi[s]), stage by stage across them; t[k]: the
 * twiddles of stage h = 8 >> k. */
NTT_INLINE void ntt_w32_small_segments(int forward, __m256i *lo, __m256i *hi, int count,
                                       const ntt_w32_twiddle t[4], const ntt_w32_mod *m) {
    if (forward) {
        for (int s = 0; s < count; s++) ntt_w32_small_stage(1, 8, &lo[s], &hi[s], &t[0], m);
        for (int s = 0; s < count; s++) ntt_w32_small_stage(1, 4, &lo[s], &hi[s], &t[1], m);
        for (int s = 0; s < count; s++) ntt_w32_small_stage(1, 2, &lo[s], &hi[s], &t[2], m);
        for (int s = 0; s < count; s++) ntt_w32_small_stage(1, 1, &lo[s], &hi[s], &t[3], m);
    } else {
        for (int s = 0; s < count; s++) ntt_w32_small_stage(0, 1, &lo[s], &hi[s], &t[3], m);
        for (int s = 0; s < count; s++) ntt_w32_small_stage(0, 2, &lo[s], &hi[s], &t[2], m);
        for (int s = 0; s < count; s++) ntt_w32_small_stage(0, 4, &lo[s], &hi[s], &t[1], m);
        for (int s = 0; s < count; s++) ntt_w32_small_stage(0, 8, &lo[s], &hi[s], &t[0], m);
    }
}

/* The last four DIF stages (h = 8, 4, 2, 1) or first four DIT stages over
 * a[0:size], 16 elements at a time, in registers; 1 when done, 0 when it cannot. */
NTT_INLINE int ntt_simd32_small_stages_body(int forward, int family, uint32_t *a, size_t size,
                                            const uint32_t *tw, const uint32_t *twq,
                                            uint32_t p, uint32_t pinv, uint64_t mu) {
    ntt_w32_mod m = ntt_w32_modulus(p, pinv, mu, family);
    int lazy = family == NTT_LAZY;
    ntt_w32_twiddle t[4];
    if (size < 16 || (size & 15))
        return 0;
    for (int k = 0; k < 4; k++) {
        __m256i w = ntt_w32_stage_twiddles(tw, 8 >> k);
        t[k] = ntt_w32_twiddle_of(w, lazy ? ntt_w32_stage_twiddles(twq, 8 >> k) : w);
    }
    /* Two segments per step, their stages interleaved: one segment's four stages are
     * one long dependency chain (Zen 3: 0.29 -> 0.26 ns per butterfly, in L1). */
    size_t i = 0, pairs = size & ~(size_t)31;
    for (; i < pairs; i += 32) {
        __m256i lo[2], hi[2];
        for (int s = 0; s < 2; s++) {
            lo[s] = _mm256_loadu_si256((const __m256i *)(a + i + 16 * s));
            hi[s] = _mm256_loadu_si256((const __m256i *)(a + i + 16 * s + 8));
        }
        ntt_w32_small_segments(forward, lo, hi, 2, t, &m);
        for (int s = 0; s < 2; s++) {
            _mm256_storeu_si256((__m256i *)(a + i + 16 * s), lo[s]);
            _mm256_storeu_si256((__m256i *)(a + i + 16 * s + 8), hi[s]);
        }
    }
    if (i < size) {   /* an odd segment at the end */
        __m256i lo = _mm256_loadu_si256((const __m256i *)(a + i));
        __m256i hi = _mm256_loadu_si256((const __m256i *)(a + i + 8));
        ntt_w32_small_segments(forward, &lo, &hi, 1, t, &m);
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
 * ones take a fold (ntt_w32_edge_quadrant): values congruent, in the same ranges.  Zen 3
 * (C harness, L1-resident 4096 values, LAZY): forward 0.267 -> 0.170 ns per butterfly,
 * inverse 0.232 -> 0.166. */
#define NTT32_TILED_BLOCK 128   /* the block length */

/* The twiddles of the four stages at a transform's bit-reversed end (h = 8, 4, 2, 1)
 * as vertical butterflies use them: stage 8 a vector (twiddle per lane), stages 4
 * and 2 one broadcast per column.  Shared with simd/bitrev/avx2.h. */
typedef struct {
    ntt_w32_mod m;
    ntt_w32_twiddle t8, t4[4], t2[2];
} ntt_w32_edge_twiddles;

NTT_INLINE void ntt_w32_edge_twiddles_load(ntt_w32_edge_twiddles *d, const uint32_t *tw,
                                           const uint32_t *twq, uint32_t p, uint32_t pinv,
                                           uint64_t mu, int family) {
    int lazy = family == NTT_LAZY;
    d->m = ntt_w32_modulus(p, pinv, mu, family);
    const uint32_t *q = lazy ? twq : tw;
    d->t8 = ntt_w32_twiddle_of(_mm256_loadu_si256((const __m256i *)(tw + 8)),
                               _mm256_loadu_si256((const __m256i *)(q + 8)));
    for (int k = 0; k < 4; k++)
        d->t4[k] = ntt_w32_twiddle_of(_mm256_set1_epi32((int)tw[4 + k]),
                                      _mm256_set1_epi32((int)q[4 + k]));
    for (int k = 0; k < 2; k++)
        d->t2[k] = ntt_w32_twiddle_of(_mm256_set1_epi32((int)tw[2 + k]),
                                      _mm256_set1_epi32((int)q[2 + k]));
}

/* The 8 x 8 transpose of 32-bit values (rows r[0..7] -> columns). */
NTT_INLINE void ntt_w32_transpose8(__m256i r[8]) {
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
 * ntt_w32_times's `one` instead of a product, 7 of the 12 butterflies here (LAZY: 2 ops
 * instead of 8).  The values it leaves may differ from the product's by p, in the same
 * range ([0, 2p) DIF, [0, 4p) DIT): final results are the same. */
NTT_INLINE void ntt_w32_edge_quadrant(int forward, __m256i r[8],
                                      const ntt_w32_edge_twiddles *d) {
    if (forward) {
        ntt_w32_transpose8(r);
        for (int k = 0; k < 4; k++)
            ntt_w32_bfly(1, &r[k], &r[k + 4], &d->t4[k], &d->m, k == 0);
        for (int k = 0; k < 8; k += 4)
            for (int e = 0; e < 2; e++)
                ntt_w32_bfly(1, &r[k + e], &r[k + e + 2], &d->t2[e], &d->m, e == 0);
        for (int k = 0; k < 8; k += 2)
            ntt_w32_bfly(1, &r[k], &r[k + 1], &d->t8, &d->m, 1);
    } else {
        for (int k = 0; k < 8; k += 2)
            ntt_w32_bfly(0, &r[k], &r[k + 1], &d->t8, &d->m, 1);
        for (int k = 0; k < 8; k += 4)
            for (int e = 0; e < 2; e++)
                ntt_w32_bfly(0, &r[k + e], &r[k + e + 2], &d->t2[e], &d->m, e == 0);
        for (int k = 0; k < 4; k++)
            ntt_w32_bfly(0, &r[k], &r[k + 4], &d->t4[k], &d->m, k == 0);
        ntt_w32_transpose8(r);
    }
}

/* 1 when done, 0 when size is not a multiple of 128. */
NTT_INLINE int ntt_simd32_tiled_body(int forward, int family, uint32_t *a, size_t size,
                                     const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                     uint32_t pinv, uint64_t mu) {
    ntt_w32_edge_twiddles d;
    ntt_w32_edge_twiddles_load(&d, tw, twq, p, pinv, mu, family);
    if (size & 127)
        return 0;
    for (size_t i = 0; i < size; i += 128) {
        uint32_t *b = a + i;
        __m256i lo[8], hi[8];   /* segment halves, or the columns 0..7 / 8..15 */
        if (forward) {
            for (int s = 0; s < 8; s++) {
                lo[s] = _mm256_loadu_si256((const __m256i *)(b + 16 * s));
                hi[s] = _mm256_loadu_si256((const __m256i *)(b + 16 * s + 8));
                ntt_w32_bfly(1, &lo[s], &hi[s], &d.t8, &d.m, 0);   /* stage 8 */
            }
            ntt_w32_edge_quadrant(1, lo, &d);
            ntt_w32_edge_quadrant(1, hi, &d);
            for (int k = 0; k < 8; k++) {
                _mm256_storeu_si256((__m256i *)(b + 8 * k), lo[k]);
                _mm256_storeu_si256((__m256i *)(b + 64 + 8 * k), hi[k]);
            }
        } else {
            for (int k = 0; k < 8; k++) {
                lo[k] = _mm256_loadu_si256((const __m256i *)(b + 8 * k));
                hi[k] = _mm256_loadu_si256((const __m256i *)(b + 64 + 8 * k));
            }
            ntt_w32_edge_quadrant(0, lo, &d);
            ntt_w32_edge_quadrant(0, hi, &d);
            for (int s = 0; s < 8; s++) {
                ntt_w32_bfly(0, &lo[s], &hi[s], &d.t8, &d.m, 0);   /* stage 8 */
                _mm256_storeu_si256((__m256i *)(b + 16 * s), lo[s]);
                _mm256_storeu_si256((__m256i *)(b + 16 * s + 8), hi[s]);
            }
        }
    }
    return 1;
}

/* a[i] <- a[i] c mod p in [0, p) for a[i] in [0, 4p) (LAZY DIT output, 4p <= 2^32),
 * c < p, cq = floor(c 2^32 / p): Shoup -> [0, 2p), one fold.  The cyclic inverse's
 * n^-1; the scalar loop it replaces took 15% of a 2^17 intt on Zen 3. */
NTT_INLINE size_t ntt_simd32_scale_lazy_body(uint32_t *a, size_t count, uint32_t c, uint32_t cq,
                                           uint32_t p) {
    const __m256i vc = _mm256_set1_epi32((int)c), vcq = _mm256_set1_epi32((int)cq);
    const __m256i vp = _mm256_set1_epi32((int)p);
    size_t i, done = count & ~(size_t)7;
    for (i = 0; i < done; i += 8) {
        __m256i x = ntt_w32_shoup(_mm256_loadu_si256((const __m256i *)(a + i)), vc, vcq, vcq, vp);
        _mm256_storeu_si256((__m256i *)(a + i), ntt_w32_fold(x, vp));
    }
    return done;
}

/* out[i] = a[i] b[i] c 2^-64 mod p in [0, p), as the AVX-512 version (a b < p 2^32, p odd).
 * For p < 2^31 the Montgomery product is left unreduced, a b 2^-32 = h1 - h2 in (-p, p)
 * -> + p in (0, 2p) below 2^32, and c 2^-64 is one Shoup constant C = c 2^-32 mod p
 * ([0, 2p), then one fold): 25 vector operations per 8 values instead of two full
 * Montgomery products' 38 (each with AVX2's emulated unsigned compare).  lazy_out (the
 * product goes on to a LAZY DIT, whose inputs may lie in [0, 4p)): the Shoup result
 * stays in [0, 2p), without the fold (23 operations). */
NTT_INLINE size_t ntt_simd32_pointwise_body(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                          size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                          int lazy_out) {
    ntt_w32_mod m = ntt_w32_modulus(p, pinv, 0, NTT_MONTGOMERY);
    size_t i, done = count & ~(size_t)7;
    if (p < (1u << 31)) {
        /* C = c 2^-32 mod p by one scalar REDC: (c - k p) / 2^32 with k p = c mod 2^32,
         * i.e. -hi(k p) mod p. */
        uint32_t hi = (uint32_t)(((uint64_t)(c * pinv) * p) >> 32);
        uint32_t cc = hi ? p - hi : 0;
        __m256i vcc = _mm256_set1_epi32((int)cc);
        __m256i vccq = _mm256_set1_epi32((int)(uint32_t)(((uint64_t)cc << 32) / p));
        for (i = 0; i < done; i += 8) {
            __m256i x = _mm256_loadu_si256((const __m256i *)(a + i));
            __m256i y = _mm256_loadu_si256((const __m256i *)(b + i));
            __m256i h1 = ntt_w32_mulhi(x, y);
            __m256i k = _mm256_mullo_epi32(_mm256_mullo_epi32(x, y), m.pinv);
            __m256i t = _mm256_add_epi32(_mm256_sub_epi32(h1, ntt_w32_mulhi_odd(k, m.p, m.p)),
                                         m.p);
            __m256i r = ntt_w32_shoup(t, vcc, vccq, vccq, m.p);
            _mm256_storeu_si256((__m256i *)(out + i), lazy_out ? r : ntt_w32_fold(r, m.p));
        }
        return done;
    }
    __m256i vc = _mm256_set1_epi32((int)c);
    for (i = 0; i < done; i += 8) {
        __m256i x = ntt_w32_mont(_mm256_loadu_si256((const __m256i *)(a + i)),
                                 _mm256_loadu_si256((const __m256i *)(b + i)), &m);
        _mm256_storeu_si256((__m256i *)(out + i), ntt_w32_mont(x, vc, &m));
    }
    return done;
}
#endif
