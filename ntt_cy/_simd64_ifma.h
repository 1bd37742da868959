/* AVX-512 IFMA butterflies for 64-bit lanes (8 per vector), MONTGOMERY family with
 * R = 2^52, for odd p < 2^52.
 *
 * vpmadd52luq / vpmadd52huq multiply the low 52 bits of two lanes and add the low /
 * high 52 bits of the 104-bit product to a 64-bit accumulator, which is exactly a
 * Montgomery step with R = 2^52.  Values stay in [0, p) between butterflies;
 * twiddles are stored as w * 2^52 mod p (the build reports this through
 * ntt_simd64_montgomery_bits so the tables and the scalar tail code agree).
 * Compiled into every build; outside IFMA builds each function does nothing
 * and returns 0, and the scalar Cython loops do all the work.
 */
#ifndef NTT_CY_SIMD64_IFMA_H
#define NTT_CY_SIMD64_IFMA_H
#include <stdint.h>
#include <stddef.h>

#if defined(__AVX512F__) && defined(__AVX512IFMA__)
#include <immintrin.h>

static inline int ntt_simd64_montgomery_bits(uint64_t p) {
    return (p & 1) && p < ((uint64_t)1 << 52) ? 52 : 64;
}

typedef struct { __m512i p, pinv, zero, one; } ntt_v64_mod;

static inline ntt_v64_mod ntt_v64_modulus(uint64_t p, uint64_t pinv52) {
    ntt_v64_mod m;
    m.p = _mm512_set1_epi64((long long)p);
    m.pinv = _mm512_set1_epi64((long long)pinv52);
    m.zero = _mm512_setzero_si512();
    m.one = _mm512_set1_epi64(1);
    return m;
}

/* a, b in [0, 2^52), b < p: a*b*2^-52 mod p in [0, p).  pinv = -p^-1 mod 2^52.
 * T = a*b < 2^52 p; m = lo52(T) * pinv mod 2^52 makes T + m p divisible by 2^52,
 * the low halves adding to 2^52 exactly when lo52(T) != 0 (the carry below), and
 * (T + m p) / 2^52 < 2p, folded once. */
static inline __m512i ntt_v64_mont(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i lo = _mm512_madd52lo_epu64(m->zero, a, b);
    __m512i hi = _mm512_madd52hi_epu64(m->zero, a, b);
    __m512i q = _mm512_madd52lo_epu64(m->zero, lo, m->pinv);
    __m512i t = _mm512_madd52hi_epu64(hi, q, m->p);
    t = _mm512_mask_add_epi64(t, _mm512_test_epi64_mask(lo, lo), t, m->one);
    return _mm512_min_epu64(t, _mm512_sub_epi64(t, m->p));
}

/* a, b in [0, p), p < 2^52: sums below 2^53, one fold each. */
static inline __m512i ntt_v64_add(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i s = _mm512_add_epi64(a, b);
    return _mm512_min_epu64(s, _mm512_sub_epi64(s, m->p));
}

static inline __m512i ntt_v64_sub(__m512i a, __m512i b, const ntt_v64_mod *m) {
    __m512i d = _mm512_add_epi64(_mm512_sub_epi64(a, b), m->p);
    return _mm512_min_epu64(d, _mm512_sub_epi64(d, m->p));
}

static inline void ntt_v64_bfly(int forward, __m512i *u, __m512i *v, __m512i w,
                                const ntt_v64_mod *m) {
    if (forward) {              /* DIF: (u + v, (u - v) w) */
        __m512i d = ntt_v64_sub(*u, *v, m);
        *u = ntt_v64_add(*u, *v, m);
        *v = ntt_v64_mont(d, w, m);
    } else {                    /* DIT: (u + v w, u - v w) */
        __m512i t = ntt_v64_mont(*v, w, m);
        *v = ntt_v64_sub(*u, t, m);
        *u = ntt_v64_add(*u, t, m);
    }
}

/* Butterflies j < count of one stage; returns how many were done (multiple of 8). */
static inline size_t ntt_simd64_run(int forward, uint64_t *x, uint64_t *y, const uint64_t *w,
                                    size_t count, uint64_t p, uint64_t pinv52) {
    ntt_v64_mod m = ntt_v64_modulus(p, pinv52);
    size_t j, done = count & ~(size_t)7;
    for (j = 0; j < done; j += 8) {
        __m512i u = _mm512_loadu_si512(x + j), v = _mm512_loadu_si512(y + j);
        ntt_v64_bfly(forward, &u, &v, _mm512_loadu_si512(w + j), &m);
        _mm512_storeu_si512(x + j, u);
        _mm512_storeu_si512(y + j, v);
    }
    return done;
}

/* Radix-4 pass as ntt_simd32_run4 (see _simd32_avx512.h), 8 groups per vector. */
static inline size_t ntt_simd64_run4(int forward, uint64_t *a, size_t h, size_t j0, size_t j1,
                                     const uint64_t *tw, uint64_t p, uint64_t pinv52) {
    ntt_v64_mod m = ntt_v64_modulus(p, pinv52);
    size_t q = h / 2, j, done = (j1 - j0) & ~(size_t)7;
    if (q % 8)
        return 0;
    for (j = j0; j < j0 + done; j += 8) {
        __m512i x0 = _mm512_loadu_si512(a + j), x1 = _mm512_loadu_si512(a + j + q);
        __m512i x2 = _mm512_loadu_si512(a + j + h), x3 = _mm512_loadu_si512(a + j + h + q);
        __m512i wa = _mm512_loadu_si512(tw + h + j), wb = _mm512_loadu_si512(tw + h + q + j);
        __m512i wc = _mm512_loadu_si512(tw + q + j);
        if (forward) {
            ntt_v64_bfly(1, &x0, &x2, wa, &m);
            ntt_v64_bfly(1, &x1, &x3, wb, &m);
            ntt_v64_bfly(1, &x0, &x1, wc, &m);
            ntt_v64_bfly(1, &x2, &x3, wc, &m);
        } else {
            ntt_v64_bfly(0, &x0, &x1, wc, &m);
            ntt_v64_bfly(0, &x2, &x3, wc, &m);
            ntt_v64_bfly(0, &x0, &x2, wa, &m);
            ntt_v64_bfly(0, &x1, &x3, wb, &m);
        }
        _mm512_storeu_si512(a + j, x0);
        _mm512_storeu_si512(a + j + q, x1);
        _mm512_storeu_si512(a + j + h, x2);
        _mm512_storeu_si512(a + j + h + q, x3);
    }
    return done;
}

/* As in _simd32_avx512.h, for 8 lanes and h = 4, 2, 1 (row k <-> h = 4 >> k). */
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
static inline int ntt_simd64_small_stages(int forward, uint64_t *a, size_t size,
                                          const uint64_t *tw, uint64_t p, uint64_t pinv52) {
    if (size < 16 || (size & 15))
        return 0;
    ntt_v64_mod m = ntt_v64_modulus(p, pinv52);
    __m512i gx[3], gy[3], blo[3], bhi[3], w[3];
    for (int k = 0; k < 3; k++) {          /* k = 0, 1, 2 <-> h = 4, 2, 1 */
        gx[k] = _mm512_load_si512(ntt_v64_gx[k]);
        gy[k] = _mm512_load_si512(ntt_v64_gy[k]);
        blo[k] = _mm512_load_si512(ntt_v64_blo[k]);
        bhi[k] = _mm512_load_si512(ntt_v64_bhi[k]);
        w[k] = _mm512_permutexvar_epi64(_mm512_load_si512(ntt_v64_wi[k]),
                                        _mm512_loadu_si512(tw + (4 >> k)));
    }
    for (size_t i = 0; i < size; i += 16) {
        __m512i lo = _mm512_loadu_si512(a + i), hi = _mm512_loadu_si512(a + i + 8);
        for (int s = 0; s < 3; s++) {
            int k = forward ? s : 2 - s;
            __m512i x = _mm512_permutex2var_epi64(lo, gx[k], hi);
            __m512i y = _mm512_permutex2var_epi64(lo, gy[k], hi);
            ntt_v64_bfly(forward, &x, &y, w[k], &m);
            lo = _mm512_permutex2var_epi64(x, blo[k], y);
            hi = _mm512_permutex2var_epi64(x, bhi[k], y);
        }
        _mm512_storeu_si512(a + i, lo);
        _mm512_storeu_si512(a + i + 8, hi);
    }
    return 1;
}

/* out[i] = mont52(mont52(a[i], b[i]), c): with c = f 2^104 mod p this is a*b*f mod p.
 * a, b, c in [0, p), p odd < 2^52; out in [0, p).  Returns the count done (mult. of 8). */
static inline size_t ntt_simd64_pointwise(const uint64_t *a, const uint64_t *b, uint64_t *out,
                                          size_t count, uint64_t p, uint64_t pinv52, uint64_t c) {
    ntt_v64_mod m = ntt_v64_modulus(p, pinv52);
    __m512i vc = _mm512_set1_epi64((long long)c);
    size_t i, done = count & ~(size_t)7;
    for (i = 0; i < done; i += 8) {
        __m512i x = ntt_v64_mont(_mm512_loadu_si512(a + i), _mm512_loadu_si512(b + i), &m);
        _mm512_storeu_si512(out + i, ntt_v64_mont(x, vc, &m));
    }
    return done;
}

#else  /* no IFMA in this build: Montgomery keeps R = 2^64 and runs scalar */

static inline int ntt_simd64_montgomery_bits(uint64_t p) {
    (void)p;
    return 64;
}

static inline size_t ntt_simd64_run(int forward, uint64_t *x, uint64_t *y, const uint64_t *w,
                                    size_t count, uint64_t p, uint64_t pinv52) {
    (void)forward; (void)x; (void)y; (void)w; (void)count; (void)p; (void)pinv52;
    return 0;
}

static inline size_t ntt_simd64_run4(int forward, uint64_t *a, size_t h, size_t j0, size_t j1,
                                     const uint64_t *tw, uint64_t p, uint64_t pinv52) {
    (void)forward; (void)a; (void)h; (void)j0; (void)j1; (void)tw; (void)p; (void)pinv52;
    return 0;
}

static inline size_t ntt_simd64_pointwise(const uint64_t *a, const uint64_t *b, uint64_t *out,
                                          size_t count, uint64_t p, uint64_t pinv52, uint64_t c) {
    (void)a; (void)b; (void)out; (void)count; (void)p; (void)pinv52; (void)c;
    return 0;
}

static inline int ntt_simd64_small_stages(int forward, uint64_t *a, size_t size,
                                          const uint64_t *tw, uint64_t p, uint64_t pinv52) {
    (void)forward; (void)a; (void)size; (void)tw; (void)p; (void)pinv52;
    return 0;
}
#endif
#endif
