/* A measurement, not a kernel of the package: could a double-precision FFT replace the
 * third prime of the CRT product mod 10^9 + 7 (n = 2^17, coefficients c < 2^77)?
 *
 * Two primes p0 p1 ~ 2^60 give c mod p0 p1 exactly; an approximation of c with error
 * below p0 p1 / 2 (~2^59) then fixes the multiple of p0 p1 to add.  This file computes
 * that approximation as c mod (x^M - i), M = 2^17: with w = exp(i pi / 2M) (w^M = i),
 * the cyclic convolution e of (a_k w^k) and (b_k w^k) has e_k w^-k = c_k + i c_{k+M},
 * so three complex FFTs of length M (two forward, one inverse) give all 2M - 1
 * coefficients.  Split re / im arrays, AVX2 + FMA, radix-4 DIF forward, DIT inverse,
 * blocked like the NTT kernels (chunks of 2^14 values in L2, blocks of 2^10 in L1).
 * Straightforward code: no fused passes (weighting, the pointwise product and the
 * unweighting each make a pass over memory), no radix-8.
 *
 *     gcc -O3 -mavx2 -mfma tools/fft_prototype.c -o /tmp/fft_prototype -lm && /tmp/fft_prototype
 *
 * prints each phase (best of 100), the rate in L1 and L2, and the largest error over
 * sampled coefficients against exact 128-bit sums (exit status 1 if it reaches 2^40).  tools/fft_vs_prime.py times it
 * beside one prime of ntt_cy's CRT product in one process (docs/speed-journal.md,
 * tenth session, has the figures).
 */
#include <immintrin.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOGM 17
#define M ((size_t)1 << LOGM)
#define CH ((size_t)1 << 14)    /* chunk (complex values): 256 KiB of re + im */
#define BLK ((size_t)1 << 10)   /* L1 block: 16 KiB of re + im */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static double *dalloc(size_t count) {
    return aligned_alloc(64, count * sizeof(double));
}

/* stage twiddles: stage h uses [h, 2h): exp(-i pi j / h) (forward); the inverse uses conj */
static double *twr, *twi, *itwi, *wr, *wi;

typedef __m256d V;
#define LD(p) _mm256_load_pd(p)
#define ST(p, x) _mm256_store_pd(p, x)

static inline void cmul(V xr, V xi, V yr, V yi, V *zr, V *zi) {
    *zr = _mm256_fmsub_pd(xr, yr, _mm256_mul_pd(xi, yi));
    *zi = _mm256_fmadd_pd(xr, yi, _mm256_mul_pd(xi, yr));
}

/* DIF: (u, v) -> (u + v, (u - v) w) */
static inline void dif(V *ur, V *ui, V *vr, V *vi, V w_r, V w_i) {
    V dr = _mm256_sub_pd(*ur, *vr), di = _mm256_sub_pd(*ui, *vi);
    *ur = _mm256_add_pd(*ur, *vr);
    *ui = _mm256_add_pd(*ui, *vi);
    cmul(dr, di, w_r, w_i, vr, vi);
}

/* DIT: (u, v) -> (u + v w, u - v w) */
static inline void dit(V *ur, V *ui, V *vr, V *vi, V w_r, V w_i) {
    V tr, ti;
    cmul(*vr, *vi, w_r, w_i, &tr, &ti);
    *vr = _mm256_sub_pd(*ur, tr);
    *vi = _mm256_sub_pd(*ui, ti);
    *ur = _mm256_add_pd(*ur, tr);
    *ui = _mm256_add_pd(*ui, ti);
}

/* radix-4 groups j0 <= j < j1 (step 4) of the block [0, 2h) at (re, im): DIF stages h
 * then h/2 (forward), or DIT stages h/2 then h with the conjugate twiddles (inverse) */
static void radix4(int forward, double *re, double *im, size_t h, size_t j0, size_t j1) {
    size_t q = h / 2;
    const double *ti = forward ? twi : itwi;
    for (size_t j = j0; j < j1; j += 4) {
        V x0r = LD(re + j), x0i = LD(im + j), x1r = LD(re + j + q), x1i = LD(im + j + q);
        V x2r = LD(re + j + h), x2i = LD(im + j + h), x3r = LD(re + j + h + q),
          x3i = LD(im + j + h + q);
        V ar = LD(twr + h + j), ai = LD(ti + h + j), br = LD(twr + h + q + j),
          bi = LD(ti + h + q + j), cr = LD(twr + q + j), ci = LD(ti + q + j);
        if (forward) {
            dif(&x0r, &x0i, &x2r, &x2i, ar, ai);
            dif(&x1r, &x1i, &x3r, &x3i, br, bi);
            dif(&x0r, &x0i, &x1r, &x1i, cr, ci);
            dif(&x2r, &x2i, &x3r, &x3i, cr, ci);
        } else {
            dit(&x0r, &x0i, &x1r, &x1i, cr, ci);
            dit(&x2r, &x2i, &x3r, &x3i, cr, ci);
            dit(&x0r, &x0i, &x2r, &x2i, ar, ai);
            dit(&x1r, &x1i, &x3r, &x3i, br, bi);
        }
        ST(re + j, x0r); ST(im + j, x0i); ST(re + j + q, x1r); ST(im + j + q, x1i);
        ST(re + j + h, x2r); ST(im + j + h, x2i); ST(re + j + h + q, x3r); ST(im + j + h + q, x3i);
    }
}

/* times -i on lanes 1 and 3: (r, i) -> (i, -r) there */
static inline void mul_mi_odd(V *r, V *i, int inverse) {
    V nr = _mm256_sub_pd(_mm256_setzero_pd(), *r);
    V ni = _mm256_sub_pd(_mm256_setzero_pd(), *i);
    V r2 = inverse ? ni : *i, i2 = inverse ? *r : nr;   /* inverse: times +i: (-i, r) */
    *r = _mm256_blend_pd(*r, r2, 0xA);
    *i = _mm256_blend_pd(*i, i2, 0xA);
}

/* DIF stages h = 4, 2, 1 on segments of 8 (two vectors); output in a permuted
 * bit-reversed order that small_dit reads back. */
static void small_dif(double *re, double *im, size_t size) {
    V w4r = LD(twr + 4), w4i = LD(twi + 4);
    for (size_t s = 0; s < size; s += 8) {
        V ar = LD(re + s), ai = LD(im + s), br = LD(re + s + 4), bi = LD(im + s + 4);
        dif(&ar, &ai, &br, &bi, w4r, w4i);
        V xr = _mm256_permute2f128_pd(ar, br, 0x20), xi = _mm256_permute2f128_pd(ai, bi, 0x20);
        V yr = _mm256_permute2f128_pd(ar, br, 0x31), yi = _mm256_permute2f128_pd(ai, bi, 0x31);
        V dr = _mm256_sub_pd(xr, yr), di = _mm256_sub_pd(xi, yi);
        xr = _mm256_add_pd(xr, yr); xi = _mm256_add_pd(xi, yi);
        mul_mi_odd(&dr, &di, 0);
        V ur = _mm256_unpacklo_pd(xr, dr), ui = _mm256_unpacklo_pd(xi, di);
        V vr = _mm256_unpackhi_pd(xr, dr), vi = _mm256_unpackhi_pd(xi, di);
        ST(re + s, _mm256_add_pd(ur, vr)); ST(im + s, _mm256_add_pd(ui, vi));
        ST(re + s + 4, _mm256_sub_pd(ur, vr)); ST(im + s + 4, _mm256_sub_pd(ui, vi));
    }
}

static void small_dit(double *re, double *im, size_t size) {
    V w4r = LD(twr + 4), w4i = LD(itwi + 4);
    for (size_t s = 0; s < size; s += 8) {
        V ur = LD(re + s), ui = LD(im + s), vr = LD(re + s + 4), vi = LD(im + s + 4);
        V pr = _mm256_add_pd(ur, vr), pi = _mm256_add_pd(ui, vi);
        V mr = _mm256_sub_pd(ur, vr), mi = _mm256_sub_pd(ui, vi);
        V xr = _mm256_unpacklo_pd(pr, mr), xi = _mm256_unpacklo_pd(pi, mi);
        V yr = _mm256_unpackhi_pd(pr, mr), yi = _mm256_unpackhi_pd(pi, mi);
        mul_mi_odd(&yr, &yi, 1);
        V ar = _mm256_add_pd(xr, yr), ai = _mm256_add_pd(xi, yi);
        V br = _mm256_sub_pd(xr, yr), bi = _mm256_sub_pd(xi, yi);
        V Ar = _mm256_permute2f128_pd(ar, br, 0x20), Ai = _mm256_permute2f128_pd(ai, bi, 0x20);
        V Br = _mm256_permute2f128_pd(ar, br, 0x31), Bi = _mm256_permute2f128_pd(ai, bi, 0x31);
        dit(&Ar, &Ai, &Br, &Bi, w4r, w4i);
        ST(re + s, Ar); ST(im + s, Ai); ST(re + s + 4, Br); ST(im + s + 4, Bi);
    }
}

/* all DIF stages h_hi .. 1 of a[0:size] (h_hi = size / 2), blocked */
static void dif_all(double *re, double *im, size_t size, size_t h) {
    size_t lim = size > CH ? CH : BLK;   /* block sizes handled by the next level */
    if (size <= BLK) {
        for (; h >= 8; h /= 4)
            for (size_t s = 0; s < size; s += 2 * h)
                radix4(1, re + s, im + s, h, 0, h / 2);
        small_dif(re, im, size);
        return;
    }
    for (; 2 * h > lim; h /= 4)
        for (size_t s = 0; s < size; s += 2 * h)
            radix4(1, re + s, im + s, h, 0, h / 2);
    for (size_t s = 0; s < size; s += lim)
        dif_all(re + s, im + s, lim, h);
}

/* mirror of dif_all: h = the largest pair half-length of this level (dif_all's entry h) */
static void dit_all(double *re, double *im, size_t size, size_t h) {
    size_t lim = size > CH ? CH : BLK, hs;
    if (size <= BLK) {
        small_dit(re, im, size);
        for (hs = 16; hs <= h; hs *= 4)
            for (size_t s = 0; s < size; s += 2 * hs)
                radix4(0, re + s, im + s, hs, 0, hs / 2);
        return;
    }
    for (hs = h; 2 * hs > lim; hs /= 4)
        ;
    for (size_t s = 0; s < size; s += lim)
        dit_all(re + s, im + s, lim, hs);
    for (hs *= 4; hs <= h; hs *= 4)
        for (size_t s = 0; s < size; s += 2 * hs)
            radix4(0, re + s, im + s, hs, 0, hs / 2);
}

/* a' = a_k w^k */
static void weight(const uint32_t *a, double *re, double *im) {
    for (size_t k = 0; k < M; k += 4) {
        V x = _mm256_cvtepi32_pd(_mm_loadu_si128((const __m128i *)(a + k)));
        ST(re + k, _mm256_mul_pd(x, LD(wr + k)));
        ST(im + k, _mm256_mul_pd(x, LD(wi + k)));
    }
}

static void pointwise(double *ar, double *ai, const double *br, const double *bi) {
    for (size_t k = 0; k < M; k += 4) {
        V zr, zi;
        cmul(LD(ar + k), LD(ai + k), LD(br + k), LD(bi + k), &zr, &zi);
        ST(ar + k, zr); ST(ai + k, zi);
    }
}

/* c_k + i c_{k+M} = e_k conj(w^k) / M: written into (re, im) */
static void unweight(double *re, double *im) {
    V s = _mm256_set1_pd(1.0 / M);
    for (size_t k = 0; k < M; k += 4) {
        V er = LD(re + k), ei = LD(im + k), xr = _mm256_mul_pd(LD(wr + k), s),
          xi = _mm256_mul_pd(LD(wi + k), s);
        /* (er + i ei)(xr - i xi) */
        ST(re + k, _mm256_fmadd_pd(er, xr, _mm256_mul_pd(ei, xi)));
        ST(im + k, _mm256_fmsub_pd(ei, xr, _mm256_mul_pd(er, xi)));
    }
}

static double *sar, *sai, *sbr, *sbi;
static void tables(void);

/* for ctypes (and main): set up once, then fft_product(a, b) leaves c_k + i c_{k+M} in
 * (sar, sai); fft_result copies them out */
void fft_setup(void) {
    tables();
    sar = dalloc(M); sai = dalloc(M); sbr = dalloc(M); sbi = dalloc(M);
}

/* the whole product; t != NULL: t[0..5] the times before and after each phase */
static void product_phases(const uint32_t *a, const uint32_t *b, double *t) {
    if (t) t[0] = now();
    weight(a, sar, sai);
    weight(b, sbr, sbi);
    if (t) t[1] = now();
    dif_all(sar, sai, M, M / 2);
    dif_all(sbr, sbi, M, M / 2);
    if (t) t[2] = now();
    pointwise(sar, sai, sbr, sbi);
    if (t) t[3] = now();
    dit_all(sar, sai, M, M / 2);
    if (t) t[4] = now();
    unweight(sar, sai);
    if (t) t[5] = now();
}

void fft_product(const uint32_t *a, const uint32_t *b) {
    product_phases(a, b, NULL);
}

void fft_result(double *out_re, double *out_im) {
    memcpy(out_re, sar, M * sizeof(double));
    memcpy(out_im, sai, M * sizeof(double));
}

static void tables(void) {
    twr = dalloc(M); twi = dalloc(M); itwi = dalloc(M); wr = dalloc(M); wi = dalloc(M);
    for (size_t h = 1; h < M; h *= 2)
        for (size_t j = 0; j < h; j++) {
            twr[h + j] = cos(M_PI * (double)j / (double)h);
            twi[h + j] = -sin(M_PI * (double)j / (double)h);
            itwi[h + j] = -twi[h + j];
        }
    for (size_t k = 0; k < M; k++) {
        wr[k] = cos(M_PI * (double)k / (2.0 * M));
        wi[k] = sin(M_PI * (double)k / (2.0 * M));
    }
}

int main(void) {
    fft_setup();
    uint32_t *a = malloc(M * 4), *b = malloc(M * 4);
    const uint32_t m = 1000000007u;
    srand(1);
    for (size_t k = 0; k < M; k++) {
        a[k] = (uint32_t)(((uint64_t)rand() << 16 ^ (uint64_t)rand()) % m);
        b[k] = (uint32_t)(((uint64_t)rand() << 16 ^ (uint64_t)rand()) % m);
    }
    a[0] = a[M - 1] = b[0] = b[M - 1] = m - 1;
    double best[6] = {1e9, 1e9, 1e9, 1e9, 1e9, 1e9};
    for (int run = 0; run < 100; run++) {
        double t[6];
        product_phases(a, b, t);
        for (int k = 0; k < 5; k++)
            best[k] = t[k + 1] - t[k] < best[k] ? t[k + 1] - t[k] : best[k];
        best[5] = t[5] - t[0] < best[5] ? t[5] - t[0] : best[5];
    }
    const char *name[6] = {"weight (2 inputs)", "forward FFTs (2)", "pointwise", "inverse FFT",
                           "unweight", "total"};
    for (int k = 0; k < 6; k++)
        printf("%-20s %8.1f us\n", name[k], best[k] * 1e6);
    printf("complex butterflies per FFT %zu: forward %.3f ns/bf, inverse %.3f ns/bf\n",
           (size_t)LOGM * M / 2, best[1] * 1e9 / (2.0 * LOGM * M / 2),
           best[3] * 1e9 / ((double)LOGM * M / 2));
    /* accuracy: exact coefficients at sampled k (both halves) */
    double maxerr = 0;
    for (int s = 0; s < 400; s++) {
        size_t k = s < 4 ? (size_t[]){0, M - 1, M - 2, 1}[s] : (size_t)rand() % M;
        for (int half = 0; half < 2; half++) {
            size_t idx = k + half * M;   /* coefficient index in [0, 2M - 1) */
            unsigned __int128 c = 0;
            for (size_t i = 0; i < M; i++)
                if (idx >= i && idx - i < M)
                    c += (unsigned __int128)a[i] * b[idx - i];
            /* doubles above 2^53 are integers: the error is exact in 128 bits */
            __int128 got = (__int128)nearbyint(half ? sai[k] : sar[k]);
            __int128 diff = got - (__int128)c;
            double err = (double)(diff < 0 ? -diff : diff);
            if (err > maxerr)
                maxerr = err;
        }
    }
    {
        double bestb = 1e9, bestc = 1e9;
        for (int run = 0; run < 2000; run++) {
            double t0 = now();
            dif_all(sbr, sbi, BLK, BLK / 4);
            double t1 = now();
            dif_all(sbr, sbi, CH, CH / 4);
            double t2 = now();
            bestb = t1 - t0 < bestb ? t1 - t0 : bestb;
            bestc = t2 - t1 < bestc ? t2 - t1 : bestc;
        }
        printf("in L1 (2^10, 9 stages) %.3f ns/bf; in L2 (2^14, 13 stages) %.3f ns/bf\n",
               bestb * 1e9 / (9.0 * BLK / 2), bestc * 1e9 / (13.0 * CH / 2));
    }
    printf("max |error| over sampled coefficients: %.3g (2^%.1f); c up to ~2^%.1f\n", maxerr,
           log2(maxerr > 0 ? maxerr : 1), log2((double)M * (m - 1.0) * (m - 1.0)));
    /* far below the ~2^58 two primes tolerate; a wrong transform misses by ~2^76 */
    return maxerr < 0x1p40 ? 0 : 1;
}
