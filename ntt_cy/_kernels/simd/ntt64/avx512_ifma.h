/* AVX-512 bodies for 64-bit lanes (8 per vector), every family.  simd/ntt64/dispatch.h
 * includes this file where simd/select.h picks AVX-512 with IFMA (after ntt64_params)
 * and turns its bodies into entry points.
 *
 *   MONTGOMERY with R = 2^52 for odd p < 2^52 (IFMA).  vpmadd52luq / vpmadd52huq
 *   multiply the low 52 bits of two lanes and add the low / high 52 bits of the
 *   104-bit product to a 64-bit accumulator, which is exactly a Montgomery step
 *   with R = 2^52.  Values stay in [0, p); twiddles are stored as w * 2^52 mod p
 *   (the build reports this through ntt64_montgomery_bits so the tables and the
 *   scalar tail code agree).
 *   MONTGOMERY with R = 2^64 for odd p >= 2^52, and BARRETT for any p < 2^64: the
 *   scalar mont_mul64 / barrett_mul64 lane for lane, 128-bit products built from
 *   32x32-bit vpmuludq pieces (AVX-512 has no 64x64 -> 128-bit product).
 *   LAZY (Harvey, Shoup twiddles with 64-bit quotients) for 4p <= 2^64: the same
 *   ranges as the scalar dif_run_lazy / dit_run_lazy (DIF [0, 2p), DIT [0, 4p)).
 *   The Shoup quotient's high word is built from four 32x32 vpmuludq products, the
 *   low words come from vpmullq.
 */
#ifndef NTT_CY_SIMD_NTT64_AVX512_IFMA_H
#define NTT_CY_SIMD_NTT64_AVX512_IFMA_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

typedef struct {
    __m512i p, two_p, pinv, zero, one, d, v;
    __m128i shift, rshift;
    int family;
} ntt_v64_mod;

/* Vector constants of prm; `family` is passed as a literal by the dispatchers below
 * so that each family gets its own specialised loops. */
NTT_INLINE ntt_v64_mod ntt_v64_modulus(const ntt64_params *prm, int family) {
    ntt_v64_mod m;
    m.p = _mm512_set1_epi64((long long)prm->p);
    m.two_p = _mm512_set1_epi64((long long)(2 * prm->p));
    m.pinv = _mm512_set1_epi64((long long)prm->pinv);
    m.zero = _mm512_setzero_si512();
    m.one = _mm512_set1_epi64(1);
    m.d = _mm512_set1_epi64((long long)prm->barrett_d);
    m.v = _mm512_set1_epi64((long long)prm->barrett_v);
    m.shift = _mm_cvtsi32_si128(prm->barrett_shift);
    m.rshift = _mm_cvtsi32_si128(64 - prm->barrett_shift);
    m.family = family;
    return m;
}

/* The 128-bit products a*b = hi 2^64 + lo, lane by lane.  With a = a1 2^32 + a0
 * and b = b1 2^32 + b0: a*b = a1b1 2^64 + (a0b1 + a1b0) 2^32 + a0b0, and the
 * middle column mid = lo32(a0b1) + lo32(a1b0) + hi32(a0b0) < 3 2^32 carries
 * mid >> 32 into the high word.  Exact for all a, b < 2^64. */
NTT_INLINE __m512i ntt_v64_mul_wide(__m512i a, __m512i b, __m512i *lo) {
    const __m512i low32 = _mm512_set1_epi64(0xffffffffLL);
    __m512i a1 = _mm512_srli_epi64(a, 32), b1 = _mm512_srli_epi64(b, 32);
    __m512i ll = _mm512_mul_epu32(a, b), lh = _mm512_mul_epu32(a, b1);
    __m512i hl = _mm512_mul_epu32(a1, b), hh = _mm512_mul_epu32(a1, b1);
    __m512i mid = _mm512_add_epi64(_mm512_srli_epi64(ll, 32), _mm512_and_si512(lh, low32));
    mid = _mm512_add_epi64(mid, _mm512_and_si512(hl, low32));
    __m512i hi = _mm512_add_epi64(hh, _mm512_srli_epi64(lh, 32));
    hi = _mm512_add_epi64(hi, _mm512_srli_epi64(hl, 32));
    *lo = _mm512_or_si512(_mm512_slli_epi64(mid, 32), _mm512_and_si512(ll, low32));
    return _mm512_add_epi64(hi, _mm512_srli_epi64(mid, 32));
}

/* High words only (the compiler drops the unused low word). */
NTT_INLINE __m512i ntt_v64_mulhi(__m512i a, __m512i b) {
    __m512i lo;
    return ntt_v64_mul_wide(a, b, &lo);
}

/* Shoup, 64-bit: a < 2^64, w < p, wq = floor(w 2^64 / p), p < 2^63 -> [0, 2p),
 * lane for lane the scalar shoup_mul64 (q = hi(a wq), a w - q p mod 2^64). */
NTT_INLINE __m512i ntt_v64_shoup(__m512i a, __m512i w, __m512i wq, const ntt_v64_mod *m) {
    __m512i q = ntt_v64_mulhi(a, wq);
    return _mm512_sub_epi64(_mm512_mullo_epi64(a, w), _mm512_mullo_epi64(q, m->p));
}

/* Montgomery, R = 2^64, as the scalar mont_mul64: a < 2^64, b < p, p odd, pinv =
 * p^-1 mod 2^64.  T = a b < p 2^64; m = lo(T) pinv; hi(T) - hi(m p) in (-p, p)
 * -> [0, p).  lo(T) comes from the same four 32x32 pieces as hi(T). */
NTT_INLINE __m512i ntt_v64_mont64(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i lo, h1 = ntt_v64_mul_wide(a, b, &lo);
    __m512i h2 = ntt_v64_mulhi(_mm512_mullo_epi64(lo, m->pinv), m->p);
    __m512i r = _mm512_sub_epi64(h1, h2);
    return _mm512_mask_add_epi64(r, _mm512_cmplt_epu64_mask(h1, h2), r, m->p);
}

/* Barrett, 64-bit, as the scalar barrett_mul64 lane for lane (Moller & Granlund
 * 2011, Algorithm 4): a < 2^64, b < p -> [0, p) for every p < 2^64.  Shifts by
 * a count register give 0 for a count of 64, so shift = 0 needs no special case. */
NTT_INLINE __m512i ntt_v64_barrett(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i lo, hi = ntt_v64_mul_wide(a, b, &lo);
    __m512i n1 = _mm512_or_si512(_mm512_sll_epi64(hi, m->shift), _mm512_srl_epi64(lo, m->rshift));
    __m512i n0 = _mm512_sll_epi64(lo, m->shift);
    __m512i q0, q1 = ntt_v64_mul_wide(m->v, n1, &q0);
    q0 = _mm512_add_epi64(q0, n0);
    q1 = _mm512_add_epi64(q1, _mm512_add_epi64(n1, m->one));
    q1 = _mm512_mask_add_epi64(q1, _mm512_cmplt_epu64_mask(q0, n0), q1, m->one);
    __m512i r = _mm512_sub_epi64(n0, _mm512_mullo_epi64(q1, m->d));
    r = _mm512_mask_add_epi64(r, _mm512_cmpgt_epu64_mask(r, q0), r, m->d);
    /* r in [0, 2d) here.  r = d would need a*b = 0 mod p with a*b != 0: never, for a
     * prime p and a, b < p (a*b = 0 gives r = 0), so no test through the transforms
     * can tell this >= from >; it stays >= as the algorithm states it for any a. */
    r = _mm512_mask_sub_epi64(r, _mm512_cmpge_epu64_mask(r, m->d), r, m->d);
    return _mm512_srl_epi64(r, m->shift);
}

/* a, b in [0, p) -> (a + b) mod p, (a - b) mod p.  Any p < 2^64: compare against
 * p - b, no 65-bit sum.  For p < 2^52 (the IFMA family) the sum stays far below 2^64
 * and one minimum does it, a uop less (~5% of an IFMA transform). */
NTT_INLINE __m512i ntt_v64_add(__m512i a, __m512i b, const ntt_v64_mod *m) {
    if (m->family == NTT_MONTGOMERY52) {
        __m512i s = _mm512_add_epi64(a, b);
        return _mm512_min_epu64(s, _mm512_sub_epi64(s, m->p));
    }
    __m512i t = _mm512_sub_epi64(m->p, b);
    __m512i r = _mm512_sub_epi64(a, t);
    return _mm512_mask_add_epi64(r, _mm512_cmplt_epu64_mask(a, t), r, m->p);
}

NTT_INLINE __m512i ntt_v64_sub(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i r = _mm512_sub_epi64(a, b);
    if (m->family == NTT_MONTGOMERY52)
        return _mm512_min_epu64(r, _mm512_add_epi64(r, m->p));
    return _mm512_mask_add_epi64(r, _mm512_cmplt_epu64_mask(a, b), r, m->p);
}

/* x in [0, 4p) -> [0, 2p) when 4p <= 2^64 (x - 2p wraps above x when x < 2p). */
NTT_INLINE __m512i ntt_v64_fold2p(__m512i x, const ntt_v64_mod *m) {
    return _mm512_min_epu64(x, _mm512_sub_epi64(x, m->two_p));
}

/* a, b in [0, 2^52), b < p: a*b*2^-52 mod p in [0, p).  pinv = -p^-1 mod 2^52.
 * T = a*b < 2^52 p; m = lo52(T) * pinv mod 2^52 makes T + m p divisible by 2^52,
 * the low halves adding to 2^52 exactly when lo52(T) != 0 (the carry below), and
 * (T + m p) / 2^52 < 2p, folded once. */
NTT_INLINE __m512i ntt_v64_mont(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i lo = _mm512_madd52lo_epu64(m->zero, a, b);
    __m512i hi = _mm512_madd52hi_epu64(m->zero, a, b);
    __m512i q = _mm512_madd52lo_epu64(m->zero, lo, m->pinv);
    __m512i t = _mm512_madd52hi_epu64(hi, q, m->p);
    t = _mm512_mask_add_epi64(t, _mm512_test_epi64_mask(lo, lo), t, m->one);
    return _mm512_min_epu64(t, _mm512_sub_epi64(t, m->p));
}

/* a * w as the butterflies need it: LAZY (Shoup) -> [0, 2p); the exact families
 * (a < p) -> [0, p).  one: the twiddle is 1 (stage h = 1), only the range is restored
 * (see ntt_v32_times). */
NTT_INLINE __m512i ntt_v64_times(__m512i a, __m512i w, __m512i wq, const ntt_v64_mod *m,
                                 int one) {
    switch (one ? -1 : m->family) {
    case -1: return m->family == NTT_LAZY ? ntt_v64_fold2p(a, m) : a;
    case NTT_LAZY: return ntt_v64_shoup(a, w, wq, m);
    case NTT_MONTGOMERY64: return ntt_v64_mont64(a, w, m);
    case NTT_BARRETT: return ntt_v64_barrett(a, w, m);
    default: return ntt_v64_mont(a, w, m);   /* NTT_MONTGOMERY52 */
    }
}

/* One butterfly on 8 lanes: DIF (forward) (u + v, (u - v) w), DIT (u + v w, u - v w);
 * LAZY keeps DIF values in [0, 2p), DIT in [0, 4p), the exact families [0, p). */
NTT_INLINE void ntt_v64_bfly(int forward, __m512i *u, __m512i *v, __m512i w, __m512i wq,
                             const ntt_v64_mod *m, int one) {
    if (m->family == NTT_LAZY) {
        if (forward) {
            __m512i d = _mm512_add_epi64(_mm512_sub_epi64(*u, *v), m->two_p);
            *u = ntt_v64_fold2p(_mm512_add_epi64(*u, *v), m);
            *v = ntt_v64_times(d, w, wq, m, one);
        } else {
            __m512i x = ntt_v64_fold2p(*u, m);
            __m512i t = ntt_v64_times(*v, w, wq, m, one);
            *u = _mm512_add_epi64(x, t);
            *v = _mm512_add_epi64(_mm512_sub_epi64(x, t), m->two_p);
        }
    } else if (forward) {
        __m512i d = ntt_v64_sub(*u, *v, m);
        *u = ntt_v64_add(*u, *v, m);
        *v = ntt_v64_times(d, w, wq, m, one);
    } else {
        __m512i t = ntt_v64_times(*v, w, wq, m, one);
        *v = ntt_v64_sub(*u, t, m);
        *u = ntt_v64_add(*u, t, m);
    }
}

/* Butterflies j < count of one stage; returns how many were done (multiple of 8). */
NTT_INLINE size_t
ntt_v64_run_body(int forward, uint64_t *x, uint64_t *y, const uint64_t *w, const uint64_t *wq,
                 size_t count, const ntt64_params *prm, int family) {
    ntt_v64_mod m = ntt_v64_modulus(prm, family);
    int lazy = family == NTT_LAZY;
    size_t j, done = count & ~(size_t)7;
    for (j = 0; j < done; j += 8) {
        __m512i u = _mm512_loadu_si512(x + j), v = _mm512_loadu_si512(y + j);
        __m512i tw = _mm512_loadu_si512(w + j);
        ntt_v64_bfly(forward, &u, &v, tw, lazy ? _mm512_loadu_si512(wq + j) : tw, &m, 0);
        _mm512_storeu_si512(x + j, u);
        _mm512_storeu_si512(y + j, v);
    }
    return done;
}

/* Radix-4 pass as ntt32_run4 (see simd/ntt32/avx512.h), 8 groups per vector. */
NTT_INLINE size_t
ntt_v64_run4_body(int forward, uint64_t *a, size_t h, size_t j0, size_t j1, const uint64_t *tw,
                  const uint64_t *twq, const ntt64_params *prm, int family) {
    ntt_v64_mod m = ntt_v64_modulus(prm, family);
    int lazy = family == NTT_LAZY;
    size_t q = h / 2, j, done = (j1 - j0) & ~(size_t)7;
    if (q % 8)
        return 0;
    for (j = j0; j < j0 + done; j += 8) {
        __m512i x0 = _mm512_loadu_si512(a + j), x1 = _mm512_loadu_si512(a + j + q);
        __m512i x2 = _mm512_loadu_si512(a + j + h), x3 = _mm512_loadu_si512(a + j + h + q);
        __m512i wa = _mm512_loadu_si512(tw + h + j), wb = _mm512_loadu_si512(tw + h + q + j);
        __m512i wc = _mm512_loadu_si512(tw + q + j);
        __m512i qa = lazy ? _mm512_loadu_si512(twq + h + j) : wa;
        __m512i qb = lazy ? _mm512_loadu_si512(twq + h + q + j) : wb;
        __m512i qc = lazy ? _mm512_loadu_si512(twq + q + j) : wc;
        if (forward) {
            ntt_v64_bfly(1, &x0, &x2, wa, qa, &m, 0);
            ntt_v64_bfly(1, &x1, &x3, wb, qb, &m, 0);
            ntt_v64_bfly(1, &x0, &x1, wc, qc, &m, 0);
            ntt_v64_bfly(1, &x2, &x3, wc, qc, &m, 0);
        } else {
            ntt_v64_bfly(0, &x0, &x1, wc, qc, &m, 0);
            ntt_v64_bfly(0, &x2, &x3, wc, qc, &m, 0);
            ntt_v64_bfly(0, &x0, &x2, wa, qa, &m, 0);
            ntt_v64_bfly(0, &x1, &x3, wb, qb, &m, 0);
        }
        _mm512_storeu_si512(a + j, x0);
        _mm512_storeu_si512(a + j + q, x1);
        _mm512_storeu_si512(a + j + h, x2);
        _mm512_storeu_si512(a + j + h + q, x3);
    }
    return done;
}

/* As in simd/ntt32/avx512.h, for 8 lanes and h = 4, 2, 1 (row k <-> h = 4 >> k). */
static const int64_t ntt_v64_gx[3][8] __attribute__((aligned(64))) = {
    {0, 1, 2, 3, 8, 9, 10, 11},
    {0, 1, 4, 5, 8, 9, 12, 13},
    {0, 2, 4, 6, 8, 10, 12, 14}};
static const int64_t ntt_v64_gy[3][8] __attribute__((aligned(64))) = {
    {4, 5, 6, 7, 12, 13, 14, 15},
    {2, 3, 6, 7, 10, 11, 14, 15},
    {1, 3, 5, 7, 9, 11, 13, 15}};
static const int64_t ntt_v64_blo[3][8] __attribute__((aligned(64))) = {
    {0, 1, 2, 3, 8, 9, 10, 11},
    {0, 1, 8, 9, 2, 3, 10, 11},
    {0, 8, 1, 9, 2, 10, 3, 11}};
static const int64_t ntt_v64_bhi[3][8] __attribute__((aligned(64))) = {
    {4, 5, 6, 7, 12, 13, 14, 15},
    {4, 5, 12, 13, 6, 7, 14, 15},
    {4, 12, 5, 13, 6, 14, 7, 15}};
static const int64_t ntt_v64_wi[3][8] __attribute__((aligned(64))) = {
    {0, 1, 2, 3, 0, 1, 2, 3},
    {0, 1, 0, 1, 0, 1, 0, 1},
    {0, 0, 0, 0, 0, 0, 0, 0}};

/* The three last DIF stages (h = 4, 2, 1) or first DIT stages (h = 1, 2, 4) over
 * a[0:size], 16 elements (two registers) at a time; lane l of the gathered X/Y
 * vectors is block l/h, offset l%h.  Returns 1 when done, 0 if size is not a
 * multiple of 16.  tw + h .. tw + h + 7 must be in the table (n >= 16). */
NTT_INLINE int
ntt_v64_small_body(int forward, uint64_t *a, size_t size, const uint64_t *tw,
                   const uint64_t *twq, const ntt64_params *prm, int family) {
    ntt_v64_mod m = ntt_v64_modulus(prm, family);
    __m512i gx[3], gy[3], blo[3], bhi[3], w[3], wq[3];
    for (int k = 0; k < 3; k++) {          /* k = 0, 1, 2 <-> h = 4, 2, 1 */
        __m512i wi = _mm512_load_si512(ntt_v64_wi[k]);
        gx[k] = _mm512_load_si512(ntt_v64_gx[k]);
        gy[k] = _mm512_load_si512(ntt_v64_gy[k]);
        blo[k] = _mm512_load_si512(ntt_v64_blo[k]);
        bhi[k] = _mm512_load_si512(ntt_v64_bhi[k]);
        w[k] = _mm512_permutexvar_epi64(wi, _mm512_loadu_si512(tw + (4 >> k)));
        wq[k] = family == NTT_LAZY
                    ? _mm512_permutexvar_epi64(wi, _mm512_loadu_si512(twq + (4 >> k))) : w[k];
    }
    for (size_t i = 0; i < size; i += 16) {
        __m512i lo = _mm512_loadu_si512(a + i), hi = _mm512_loadu_si512(a + i + 8);
        for (int s = 0; s < 3; s++) {
            int k = forward ? s : 2 - s;
            __m512i x = _mm512_permutex2var_epi64(lo, gx[k], hi);
            __m512i y = _mm512_permutex2var_epi64(lo, gy[k], hi);
            ntt_v64_bfly(forward, &x, &y, w[k], wq[k], &m, k == 2);   /* k = 2: h = 1 */
            lo = _mm512_permutex2var_epi64(x, blo[k], y);
            hi = _mm512_permutex2var_epi64(x, bhi[k], y);
        }
        _mm512_storeu_si512(a + i, lo);
        _mm512_storeu_si512(a + i + 8, hi);
    }
    return 1;
}

/* out[i] = mont(mont(a[i], b[i]), c) with R = 2^52 (family NTT_MONTGOMERY52, p < 2^52)
 * or 2^64 (NTT_MONTGOMERY64): with c = f R^2 mod p this is a*b*f mod p.  a, b, c in
 * [0, p), p odd; out in [0, p).  Returns the count done (multiple of 8). */
NTT_INLINE size_t ntt_v64_pointwise_body(const uint64_t *a, const uint64_t *b, uint64_t *out,
                                         size_t count, uint64_t c, const ntt64_params *prm) {
    ntt_v64_mod m = ntt_v64_modulus(prm, prm->family);
    __m512i vc = _mm512_set1_epi64((long long)c);
    size_t i, done = count & ~(size_t)7;
    if (prm->family != NTT_MONTGOMERY52 && prm->family != NTT_MONTGOMERY64)
        return 0;
    for (i = 0; i < done; i += 8) {
        __m512i x = _mm512_loadu_si512(a + i), y = _mm512_loadu_si512(b + i);
        if (prm->family == NTT_MONTGOMERY64)
            x = ntt_v64_mont64(ntt_v64_mont64(x, y, &m), vc, &m);
        else
            x = ntt_v64_mont(ntt_v64_mont(x, y, &m), vc, &m);
        _mm512_storeu_si512(out + i, x);
    }
    return done;
}

#endif
