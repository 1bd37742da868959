/* AVX2 bodies for 64-bit lanes (4 per vector) where they are AVX2's own: LAZY in
 * double precision for p < NTT64_FLOAT_P_MAX = 2^51 - 2^29 (every product a*w mod p,
 * below), and the three stages at a transform's bit-reversed end in registers for the
 * integer kernels of simd/ntt64/vector.h, which take MONTGOMERY (R = 2^64), BARRETT, and
 * LAZY for larger p.  simd/ntt64/dispatch.h includes this file where simd/select.h
 * picks AVX2 (after ntt64_params).
 *
 * Why doubles: AVX2 has no 64-bit multiply, and the scalar Shoup butterfly takes three
 * 64-bit products on one multiplier, while two FMA units do a 104-bit product exactly
 * as a double and its FMA-computed error, four lanes per vector.
 *
 * The values in memory stay uint64 in the LAZY ranges of the scalar code (DIF
 * [0, 2p), DIT [0, 4p)), so the scalar loops can finish any range; only the twiddle
 * operands come from separate tables: wf = w balanced into (-p/2, p/2] as doubles,
 * and wfq = fl(wf / p) (NTTPlan builds them when ntt64_float_twiddles says so).
 * Results are bit-identical to the scalar code's after the final reduction (a lazy
 * intermediate may be another representative of the same residue).
 *
 * The product (avx2_f64_mulmod).  u = 2^-53 (unit roundoff, round to nearest).
 * A: an integer with |A| < 2p; W = wf, an integer with |W| <= (p-1)/2; WQ = fl(W/p).
 * X = A W / p, so |X| < p.
 *   Y = fl(A WQ) = X (1 + d1)(1 + d2), |di| <= u, so |Y - X| < 2.0000001 u |X|.
 *   Q = round(Y): |X - Q| < 1/2 + 2.0000001 u p < 1 when p < 2^51 - 2^29.
 *   H = fl(A W); L = fma(A, W, -H) = A W - H exactly (the error of a product is a
 *   double), |L| <= u |H| < p.
 *   H - Q p = (X - Q) p - L is an integer below 2p < 2^53 in size, so
 *   R1 = fma(-Q, p, H) is exact, and R = fl(R1 + L) = (X - Q) p exactly: the integer
 *   A W - Q p in (-p, p), congruent to A W mod p.
 * Conversions: a uint64 x < 2^52 ORed into the exponent of 2^52 reads as the double
 * 2^52 + x; an integer r in [-p, p) plus (2^52 + p) lands in [2^52, 2^53), whose
 * bits minus those of 2^52 are r + p.  Both exact because 2p < 2^52.
 */
#ifndef NTT_CY_SIMD_NTT64_AVX2_H
#define NTT_CY_SIMD_NTT64_AVX2_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt64/vector.h"

#define NTT64_FLOAT_P_MAX ((((uint64_t)1) << 51) - (((uint64_t)1) << 29))

/* Whether the LAZY kernels here take p (and the plan should build wf / wfq). */
NTT_INLINE int avx2_f64_takes_p(uint64_t p) {
    return p > 2 && p < NTT64_FLOAT_P_MAX;
}

typedef struct {
    __m256d p;          /* p */
    __m256d pinv;       /* fl(1 / p), pointwise products only */
    __m256d half_p;     /* (p - 1) / 2 */
    __m256d exp52_d;    /* 2^52 */
    __m256d back;       /* 2^52 + p */
    __m256i exp52;      /* the bits of 2^52 */
    __m256i p_i, two_p; /* p, 2p as integers */
} avx2_f64_mod;

NTT_INLINE avx2_f64_mod avx2_f64_modulus(uint64_t p) {
    avx2_f64_mod m;
    m.p = _mm256_set1_pd((double)p);
    m.pinv = _mm256_set1_pd(1.0 / (double)p);
    m.half_p = _mm256_set1_pd((double)((p - 1) / 2));
    m.exp52_d = _mm256_set1_pd(4503599627370496.0);
    m.back = _mm256_set1_pd(4503599627370496.0 + (double)p);
    m.exp52 = _mm256_set1_epi64x(0x4330000000000000LL);
    m.p_i = _mm256_set1_epi64x((long long)p);
    m.two_p = _mm256_set1_epi64x((long long)(2 * p));
    return m;
}

/* x in [0, 2^52) -> the double 2^52 + x (differences of two such are exact). */
NTT_INLINE __m256d avx2_f64_biased(__m256i x, const avx2_f64_mod *m) {
    return _mm256_castsi256_pd(_mm256_or_si256(x, m->exp52));
}

/* x in [0, 2^52) -> the double x. */
NTT_INLINE __m256d avx2_f64_from(__m256i x, const avx2_f64_mod *m) {
    return _mm256_sub_pd(avx2_f64_biased(x, m), m->exp52_d);
}

/* c in [0, p) balanced into (-p/2, p/2] as a double, as NTTPlan's wf tables. */
NTT_INLINE double avx2_f64_balanced(uint64_t c, uint64_t p) {
    return c > (p - 1) / 2 ? -(double)(p - c) : (double)c;
}

/* An integer double r in [-p, p) -> the uint64 r + p in [0, 2p). */
NTT_INLINE __m256i avx2_f64_plus_p(__m256d r, const avx2_f64_mod *m) {
    return _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(r, m->back)), m->exp52);
}

/* A W - Q p in (-p, p), exactly (see the top of this file): |A| < 2p, |W| <= (p-1)/2,
 * WQ = fl(W / p).  The quotient comes from A WQ, not from H / p, so it does not wait
 * for H. */
NTT_INLINE __m256d avx2_f64_mulmod(__m256d a, __m256d w, __m256d wq, const avx2_f64_mod *m) {
    __m256d h = _mm256_mul_pd(a, w);
    __m256d q = _mm256_round_pd(_mm256_mul_pd(a, wq),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256d l = _mm256_fmsub_pd(a, w, h);
    return _mm256_add_pd(_mm256_fnmadd_pd(q, m->p, h), l);
}

/* As avx2_f64_mulmod for a B without a precomputed B / p: Q = round(fl(H fl(1/p))),
 * |Y - X| < 3.0000001 u |X|.  Needs |X| = |A B / p| < p / 2 (so |X - Q| < 1/2 +
 * 1.5000001 u p < 1 for p < 2^52 / 1.5000001), e.g. |A| < p / 2 + 1 and 0 <= B < p. */
NTT_INLINE __m256d avx2_f64_mulmod_pinv(__m256d a, __m256d b, const avx2_f64_mod *m) {
    __m256d h = _mm256_mul_pd(a, b);
    __m256d q = _mm256_round_pd(_mm256_mul_pd(h, m->pinv),
                                _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    __m256d l = _mm256_fmsub_pd(a, b, h);
    return _mm256_add_pd(_mm256_fnmadd_pd(q, m->p, h), l);
}

/* One LAZY butterfly on 4 lanes.  DIF (forward): in/out [0, 2p),
 * (u, v) -> (u + v, (u - v) w); DIT: in/out [0, 4p), (u, v) -> (u + v w, u - v w + 2p).
 * one: the twiddle is 1 (stage h = 1): no product, the range restored by a fold. */
NTT_INLINE void avx2_f64_butterfly(int forward, __m256i *u, __m256i *v, __m256d w, __m256d wq,
                                   const avx2_f64_mod *m, int one) {
    if (forward) {
        __m256i s = _mm256_add_epi64(*u, *v);                       /* [0, 4p) */
        if (one) {
            *v = vec_fold_u64(_mm256_add_epi64(_mm256_sub_epi64(*u, *v), m->two_p), m->two_p);
        } else {
            /* u - v in (-2p, 2p), exactly, from two biased doubles */
            __m256d d = _mm256_sub_pd(avx2_f64_biased(*u, m), avx2_f64_biased(*v, m));
            *v = avx2_f64_plus_p(avx2_f64_mulmod(d, w, wq, m), m);   /* [0, 2p) */
        }
        *u = vec_fold_u64(s, m->two_p);
    } else {
        __m256i x = vec_fold_u64(*u, m->two_p);                     /* [0, 2p) */
        __m256i y = vec_fold_u64(*v, m->two_p);                     /* [0, 2p) */
        __m256i t = one ? y : avx2_f64_plus_p(avx2_f64_mulmod(avx2_f64_from(y, m), w, wq, m), m);
        *u = _mm256_add_epi64(x, t);                                /* [0, 4p) */
        *v = _mm256_add_epi64(_mm256_sub_epi64(x, t), m->two_p);    /* (0, 4p) */
    }
}

/* The (x, y) operand split of stage h (4, 2, 1) of 8 values (lo, hi), and back:
 * shared by the integer and the double-precision small stages. */
NTT_INLINE void avx2_u64_split(int h, __m256i lo, __m256i hi, __m256i *x, __m256i *y) {
    switch (h) {
    case 4: *x = lo; *y = hi; break;                                   /* (i, i + 4) */
    case 2:                                                           /* (0,2 1,3 | 4,6 5,7) */
        *x = _mm256_permute2x128_si256(lo, hi, 0x20);
        *y = _mm256_permute2x128_si256(lo, hi, 0x31);
        break;
    default:                                                          /* even, odd */
        *x = _mm256_unpacklo_epi64(lo, hi);
        *y = _mm256_unpackhi_epi64(lo, hi);
    }
}

NTT_INLINE void avx2_u64_join(int h, __m256i x, __m256i y, __m256i *lo, __m256i *hi) {
    switch (h) {
    case 4: *lo = x; *hi = y; break;
    case 2:
        *lo = _mm256_permute2x128_si256(x, y, 0x20);
        *hi = _mm256_permute2x128_si256(x, y, 0x31);
        break;
    default:
        *lo = _mm256_unpacklo_epi64(x, y);
        *hi = _mm256_unpackhi_epi64(x, y);
    }
}

/* The last three DIF stages (h = 4, 2, 1) or first three DIT stages over a[0:size],
 * 8 values at a time; 1 when done (size a multiple of 8 here). */
NTT_INLINE int avx2_u64_small_stages(int forward, uint64_t *a, size_t size, const uint64_t *tw,
                                     const uint64_t *twq, const ntt64_params *prm, int family) {
    vec_u64_mod m = vec_u64_modulus(prm, family);
    int lazy = family == NTT_LAZY;
    __m256i w4 = vec_load(tw + 4);
    __m256i w2 = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(tw + 2)));
    __m256i q4 = lazy ? vec_load(twq + 4) : w4;
    __m256i q2 = lazy ? _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(twq + 2)))
                      : w2;
    for (size_t i = 0; i < size; i += 8) {
        __m256i lo = vec_load(a + i);
        __m256i hi = vec_load(a + i + 4);
        for (int s = 0; s < 3; s++) {
            int h = forward ? 4 >> s : 1 << s;
            __m256i x, y;
            avx2_u64_split(h, lo, hi, &x, &y);
            vec_u64_butterfly(forward, &x, &y, h == 4 ? w4 : w2, h == 4 ? q4 : q2, &m, h == 1);
            avx2_u64_join(h, x, y, &lo, &hi);
        }
        vec_store(a + i, lo);
        vec_store(a + i + 4, hi);
    }
    return 1;
}

/* ---------------------------------------------------------------- double-precision
 * LAZY sweeps (avx2_f64_takes: the plan built the double tables and p is in range) */

NTT_INLINE int avx2_f64_takes(const ntt64_params *prm, const double *wf) {
    return prm->family == NTT_LAZY && wf != NULL && avx2_f64_takes_p(prm->p);
}

/* Butterflies j < count of one stage; returns how many were done (multiple of 4). */
NTT_INLINE size_t avx2_f64_run(int forward, uint64_t *x, uint64_t *y, const double *wf,
                               const double *wfq, size_t count, uint64_t p) {
    avx2_f64_mod m = avx2_f64_modulus(p);
    size_t j, done = count & ~(size_t)3;
    for (j = 0; j < done; j += 4) {
        __m256i u = vec_load(x + j), v = vec_load(y + j);
        avx2_f64_butterfly(forward, &u, &v, _mm256_loadu_pd(wf + j), _mm256_loadu_pd(wfq + j), &m,
                           0);
        vec_store(x + j, u);
        vec_store(y + j, v);
    }
    return done;
}

/* One radix-4 group of 4 lanes at offset j (see ntt32_run4): DIF stages h and
 * h/2, or DIT stages h/2 and h, on a[j], a[j+q], a[j+h], a[j+h+q], q = h/2. */
NTT_INLINE void avx2_f64_radix4(int forward, uint64_t *a, size_t h, size_t j, const double *wf,
                                const double *wfq, const avx2_f64_mod *m) {
    size_t q = h / 2;
    __m256i x0 = vec_load(a + j), x1 = vec_load(a + j + q);
    __m256i x2 = vec_load(a + j + h), x3 = vec_load(a + j + h + q);
    __m256d wa = _mm256_loadu_pd(wf + h + j), qa = _mm256_loadu_pd(wfq + h + j);
    __m256d wb = _mm256_loadu_pd(wf + h + q + j), qb = _mm256_loadu_pd(wfq + h + q + j);
    __m256d wc = _mm256_loadu_pd(wf + q + j), qc = _mm256_loadu_pd(wfq + q + j);
    if (forward) {
        avx2_f64_butterfly(1, &x0, &x2, wa, qa, m, 0);
        avx2_f64_butterfly(1, &x1, &x3, wb, qb, m, 0);
        avx2_f64_butterfly(1, &x0, &x1, wc, qc, m, 0);
        avx2_f64_butterfly(1, &x2, &x3, wc, qc, m, 0);
    } else {
        avx2_f64_butterfly(0, &x0, &x1, wc, qc, m, 0);
        avx2_f64_butterfly(0, &x2, &x3, wc, qc, m, 0);
        avx2_f64_butterfly(0, &x0, &x2, wa, qa, m, 0);
        avx2_f64_butterfly(0, &x1, &x3, wb, qb, m, 0);
    }
    vec_store(a + j, x0);
    vec_store(a + j + q, x1);
    vec_store(a + j + h, x2);
    vec_store(a + j + h + q, x3);
}

/* Radix-4 groups j0 <= j < j1 of [0, h/2); returns how many were done.  Two groups
 * per step when q allows: one group's products are a ~25-cycle chain, and a second
 * independent group fills the wait. */
NTT_INLINE size_t avx2_f64_run4(int forward, uint64_t *a, size_t h, size_t j0, size_t j1,
                                const double *twf, const double *twfq, uint64_t p) {
    size_t q = h / 2, j = j0, done = (j1 - j0) & ~(size_t)3;
    if (q % 4)
        return 0;
    avx2_f64_mod m = avx2_f64_modulus(p);
    if (q % 8 == 0)
        for (; j + 8 <= j0 + done; j += 8) {
            avx2_f64_radix4(forward, a, h, j, twf, twfq, &m);
            avx2_f64_radix4(forward, a, h, j + 4, twf, twfq, &m);
        }
    for (; j < j0 + done; j += 4)
        avx2_f64_radix4(forward, a, h, j, twf, twfq, &m);
    return done;
}

/* Stages avx2_f64_run_stages keeps in registers: eight vectors of data and their
 * twiddles, half of AVX2's sixteen registers. */
#define AVX2_F64_COLUMN_STAGES 3

/* k = AVX2_F64_COLUMN_STAGES stages at once (radix 8) on the block a[0:2h], groups j0 <=
 * j < j1 of [0, s), s = h / 4: group j holds the eight values a[j + i s] in registers
 * through the three stages, as vec_u64_run_stages (the same butterflies, twiddles and
 * ranges as three radix-2 runs); returns how many were done, 0 when s is not a multiple
 * of 4. */
NTT_INLINE size_t avx2_f64_run_stages(int forward, uint64_t *a, size_t h, size_t j0,
                                      size_t j1, const double *twf, const double *twfq,
                                      uint64_t p) {
    const int k = AVX2_F64_COLUMN_STAGES, count = 1 << k;
    size_t s = h >> (k - 1), j, done = (j1 - j0) & ~(size_t)3;
    if (s % 4)
        return 0;
    avx2_f64_mod m = avx2_f64_modulus(p);
    for (j = j0; j < j0 + done; j += 4) {
        __m256i x[1 << AVX2_F64_COLUMN_STAGES];
        int i, g, t;
#pragma GCC unroll 8
        for (i = 0; i < count; i++)
            x[i] = vec_load(a + j + i * s);
#pragma GCC unroll 3
        for (t = 0; t < k; t++) {
            int stage = forward ? t : k - 1 - t, d = 1 << (k - 1 - stage);
#pragma GCC unroll 4
            for (i = 0; i < d; i++) {
                size_t at = (h >> stage) + j + i * s;
                __m256d w = _mm256_loadu_pd(twf + at), wq = _mm256_loadu_pd(twfq + at);
#pragma GCC unroll 4
                for (g = 0; g < count; g += 2 * d)
                    avx2_f64_butterfly(forward, &x[g + i], &x[g + i + d], w, wq, &m, 0);
            }
        }
#pragma GCC unroll 8
        for (i = 0; i < count; i++)
            vec_store(a + j + i * s, x[i]);
    }
    return done;
}

/* One stage of half-length h (4, 2 or 1; a literal at every call) on the 8 values
 * (lo, hi): the butterflies' operands gathered into x, y, then put back. */
NTT_INLINE void avx2_f64_small_stage(int forward, int h, __m256i *lo, __m256i *hi, __m256d w,
                                     __m256d wq, const avx2_f64_mod *m) {
    __m256i x, y;
    avx2_u64_split(h, *lo, *hi, &x, &y);
    avx2_f64_butterfly(forward, &x, &y, w, wq, m, h == 1);
    avx2_u64_join(h, x, y, lo, hi);
}

/* The last three DIF stages (h = 4, 2, 1) or first three DIT stages over a[0:size],
 * two 8-value blocks per step (independent chains, as in run4); 1 when done, 0 if size
 * is not a multiple of 16. */
NTT_INLINE int avx2_f64_small_stages(int forward, uint64_t *a, size_t size, const double *twf,
                                     const double *twfq, uint64_t p) {
    if (size < 16 || (size & 15))
        return 0;
    avx2_f64_mod m = avx2_f64_modulus(p);
    __m256d w4 = _mm256_loadu_pd(twf + 4), q4 = _mm256_loadu_pd(twfq + 4);
    __m256d w2 = _mm256_broadcast_pd((const __m128d *)(twf + 2));
    __m256d q2 = _mm256_broadcast_pd((const __m128d *)(twfq + 2));
    for (size_t i = 0; i < size; i += 16) {
        __m256i lo0 = vec_load(a + i), hi0 = vec_load(a + i + 4);
        __m256i lo1 = vec_load(a + i + 8), hi1 = vec_load(a + i + 12);
        for (int s = 0; s < 3; s++) {   /* h = 4, 2, 1 (DIF) or 1, 2, 4 (DIT) */
            int h = forward ? 4 >> s : 1 << s;
            __m256d w = h == 4 ? w4 : h == 2 ? w2 : _mm256_setzero_pd();   /* h = 1: none */
            __m256d wq = h == 4 ? q4 : h == 2 ? q2 : _mm256_setzero_pd();
            avx2_f64_small_stage(forward, h, &lo0, &hi0, w, wq, &m);
            avx2_f64_small_stage(forward, h, &lo1, &hi1, w, wq, &m);
        }
        vec_store(a + i, lo0);
        vec_store(a + i + 4, hi0);
        vec_store(a + i + 8, lo1);
        vec_store(a + i + 12, hi1);
    }
    return 1;
}

/* x in [0, 4p) times (w, wq) -> [0, 2p), or [0, p) with fold: x folded below 2p keeps
 * |X| < p (see the top of this file). */
NTT_INLINE __m256i avx2_f64_times(__m256i x, __m256d w, __m256d wq, const avx2_f64_mod *m,
                                  int fold) {
    __m256d a = avx2_f64_from(vec_fold_u64(x, m->two_p), m);
    __m256i r = avx2_f64_plus_p(avx2_f64_mulmod(a, w, wq, m), m);
    return fold ? vec_fold_u64(r, m->p_i) : r;
}

/* dst[i] = src[i] w[i] mod p (LAZY, the negacyclic twists): src in [0, 4p), out
 * [0, 2p), or [0, p) with fold; wf, wfq the double pair of w (NULL: not taken here).
 * src may equal dst.  Returns the count done (a multiple of 4). */
NTT_INLINE size_t avx2_f64_twist(const uint64_t *src, uint64_t *dst, const double *wf,
                                 const double *wfq, size_t count, int fold,
                                 const ntt64_params *prm) {
    if (!avx2_f64_takes(prm, wf))
        return 0;
    avx2_f64_mod m = avx2_f64_modulus(prm->p);
    size_t i, done = count & ~(size_t)3;
    for (i = 0; i < done; i += 4)
        vec_store(dst + i, avx2_f64_times(vec_load(src + i), _mm256_loadu_pd(wf + i),
                                             _mm256_loadu_pd(wfq + i), &m, fold));
    return done;
}

/* a[i] = a[i] c mod p in [0, p) for a in [0, 4p), c < p (LAZY: the cyclic inverse's
 * n^-1).  Returns the count done (a multiple of 4), 0 if the build does not take p. */
NTT_INLINE size_t avx2_f64_scale(uint64_t *a, size_t count, uint64_t c,
                                 const ntt64_params *prm) {
    uint64_t p = prm->p;
    if (prm->family != NTT_LAZY || !avx2_f64_takes_p(p))
        return 0;
    avx2_f64_mod m = avx2_f64_modulus(p);
    /* c's pair as the tables hold it: balanced, and its correctly rounded quotient by p */
    double cb = avx2_f64_balanced(c, p);
    __m256d w = _mm256_set1_pd(cb), wq = _mm256_set1_pd(cb / (double)p);
    size_t i, done = count & ~(size_t)3;
    for (i = 0; i < done; i += 4)
        vec_store(a + i, avx2_f64_times(vec_load(a + i), w, wq, &m, 1));
    return done;
}

/* c * 2^-64 mod p for p odd, pinv = p^-1 mod 2^64, c < 2^64: m = c pinv makes
 * m p = c mod 2^64, so (c - m p) / 2^64 = -hi(m p). */
NTT_INLINE uint64_t avx2_f64_redc(uint64_t c, uint64_t p, uint64_t pinv) {
    uint64_t hi = (uint64_t)(((unsigned __int128)(c * pinv) * p) >> 64);
    return hi ? p - hi : 0;
}

/* out[i] = a[i] b[i] f mod p in [0, p) for a, b in [0, p), where the caller's
 * constant is c = f 2^128 mod p (pointwise_constant, Montgomery R = 2^64; f is
 * recovered by two Montgomery reductions), for odd p < NTT64_FLOAT_P_MAX (larger odd p
 * take the integer vec_u64_pointwise).  a is balanced into (-p/2, p/2] so both products
 * meet avx2_f64_mulmod_pinv's |X| < p/2, f likewise.  Returns the count done (a
 * multiple of 4). */
NTT_INLINE size_t avx2_f64_pointwise(const uint64_t *a, const uint64_t *b, uint64_t *out,
                                     size_t count, uint64_t c, const ntt64_params *prm) {
    uint64_t p = prm->p;
    uint64_t f = avx2_f64_redc(avx2_f64_redc(c, p, prm->pinv), p, prm->pinv);
    avx2_f64_mod m = avx2_f64_modulus(p);
    __m256d vf = _mm256_set1_pd(avx2_f64_balanced(f, p));
    size_t i, done = count & ~(size_t)3;
    for (i = 0; i < done; i += 4) {
        __m256d x = avx2_f64_from(vec_load(a + i), &m);
        __m256d y = avx2_f64_from(vec_load(b + i), &m);
        x = _mm256_sub_pd(x, _mm256_and_pd(_mm256_cmp_pd(x, m.half_p, _CMP_GT_OQ), m.p));
        __m256d r = avx2_f64_mulmod_pinv(avx2_f64_mulmod_pinv(x, y, &m), vf, &m);
        vec_store(out + i, vec_fold_u64(avx2_f64_plus_p(r, &m), m.p_i));
    }
    return done;
}
#endif
