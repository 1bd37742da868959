/* AVX2 body of the fused CRT reconstruction (crt/garner_rows.pxi): the AVX-512 version's
 * arithmetic on 4 coefficients per vector, two vectors per step.  simd/garner/dispatch.h
 * includes this file where simd/select.h picks AVX2.
 *
 * Every value lives in a 64-bit lane and stays below 2^33, so AVX2's signed 64-bit
 * view is exact: "x < q" is the sign of x - q, and a sign-bit blend replaces
 * AVX-512's unsigned min and masked add.  Products are vpmuludq (32 x 32 -> 64 bits).
 * Ranges as the scalar code: p_j < 2^31 with max p < 2 min p, m < 2^32, residues <
 * p_j, offsets < p_j, offset_m < m.  Returns how many coefficients it wrote to result
 * (cnt rounded down to 8).
 */
#ifndef NTT_CY_SIMD_GARNER_AVX2_H
#define NTT_CY_SIMD_GARNER_AVX2_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/avx2.h"   /* ntt_w32_shoup */

/* a*w mod q in [0, 2q): a, w, wq = floor(w 2^32 / q), q all below 2^32. */
NTT_INLINE __m256i ntt_wg_shoup(__m256i a, __m256i w, __m256i wq, __m256i q) {
    __m256i quot = _mm256_srli_epi64(_mm256_mul_epu32(a, wq), 32);
    return _mm256_sub_epi64(_mm256_mul_epu32(a, w), _mm256_mul_epu32(quot, q));
}

/* x if x < 0 (as a signed 64-bit lane) else y. */
NTT_INLINE __m256i ntt_wg_if_negative(__m256i x, __m256i then, __m256i otherwise) {
    return _mm256_castpd_si256(_mm256_blendv_pd(_mm256_castsi256_pd(otherwise),
                                                _mm256_castsi256_pd(then),
                                                _mm256_castsi256_pd(x)));
}

/* [0, 2q) -> [0, q). */
NTT_INLINE __m256i ntt_wg_fold(__m256i x, __m256i q) {
    __m256i t = _mm256_sub_epi64(x, q);
    return ntt_wg_if_negative(t, x, t);
}

/* (x - y) mod q for x, y in [0, q). */
NTT_INLINE __m256i ntt_wg_sub(__m256i x, __m256i y, __m256i q) {
    __m256i t = _mm256_sub_epi64(x, y);
    return ntt_wg_if_negative(t, _mm256_add_epi64(t, q), t);
}

/* 4 coefficients from i: the digits of every prime, then x mod m, then - offset_m. */
NTT_INLINE __m256i ntt_wg_coefficients(const uint32_t *const *rows, size_t at, size_t k,
                                       const uint64_t *primes, const uint64_t *inv,
                                       const uint64_t *inv_q, const uint64_t *offsets,
                                       uint64_t m, const uint64_t *weights,
                                       const uint64_t *weights_q, uint64_t offset_m) {
    const __m256i vm = _mm256_set1_epi64x((long long)m);
    const __m256i voff = _mm256_set1_epi64x((long long)offset_m);
    __m256i d[8];
    for (size_t j = 0; j < k; j++) {
        __m256i p = _mm256_set1_epi64x((long long)primes[j]);
        __m256i r = _mm256_cvtepu32_epi64(_mm_loadu_si128((const __m128i *)(rows[j] + at)));
        d[j] = ntt_wg_fold(_mm256_add_epi64(r, _mm256_set1_epi64x((long long)offsets[j])), p);
        for (size_t l = 0; l < j; l++) {
            __m256i v = ntt_wg_fold(d[l], p);   /* v_l < p_l < 2 p_j -> v_l mod p_j */
            __m256i t = ntt_wg_sub(d[j], v, p);
            d[j] = ntt_wg_fold(ntt_wg_shoup(t, _mm256_set1_epi64x((long long)inv[l * k + j]),
                                            _mm256_set1_epi64x((long long)inv_q[l * k + j]), p),
                               p);
        }
    }
    __m256i acc = ntt_wg_fold(ntt_wg_shoup(d[0], _mm256_set1_epi64x(1),
                                           _mm256_set1_epi64x((long long)weights_q[0]), vm), vm);
    for (size_t j = 1; j < k; j++) {
        __m256i term = ntt_wg_fold(
            ntt_wg_shoup(d[j], _mm256_set1_epi64x((long long)weights[j]),
                         _mm256_set1_epi64x((long long)weights_q[j]), vm), vm);
        acc = ntt_wg_fold(_mm256_add_epi64(acc, term), vm);
    }
    return ntt_wg_sub(acc, voff, vm);
}

/* ---- The same reconstruction on 8 coefficients per vector in 32-bit lanes, for
 * m < 2^31: with p_j < 2^31 and m < 2^31 every value stays below 2^32 (Shoup results
 * < 2q, sums of two residues < 2m), so unsigned 32-bit min folds replace the 64-bit
 * lanes' blends and each product covers twice the coefficients.  Zen 3, n = 2^17 mod
 * 10^9 + 7: reconstruction 0.84 -> 0.65 ms. */

/* 8 coefficients from `at`, as ntt_wg_coefficients.  Residues r_j < p_j, offsets_j <
 * p_j, offset_m < m, max p < 2 min p.  lazy and zero_offset are literals at every call:
 *   lazy = 0 (m < 2^31): every digit in progress folded to [0, p_j) before and after
 *     each Shoup product, every term and partial sum to [0, m);
 *   lazy = 1 (every p_j and m at most 2^30, so 4 p_j and 4m fit 32 bits; the uint32
 *     CRT pool's primes all are): Shoup accepts any input below 2^32, so a digit in
 *     progress stays in [0, 2 p_j) and takes t + (2 p_j - v_l), with v_l < p_l < 2 p_j,
 *     as its next Shoup input (< 4 p_j); the sum mod m stays in [0, 2m), each term's
 *     sum folded by 2m (< 4m): one fold per digit and one at the end instead of three
 *     per step (k = 3, no offsets: 65 vector ops per 8 coefficients instead of 92, 57
 *     when p_0 <= 2m: see the sum's start below);
 *   zero_offset: all offsets 0 (linear products), their additions skipped. */
NTT_INLINE void ntt_wg8_digits(int lazy, int zero_offset, const uint32_t *const *rows,
                               size_t at, size_t k, const uint64_t *primes,
                               const uint64_t *inv, const uint64_t *inv_q,
                               const uint64_t *offsets, __m256i *d) {
    /* d[j] <- the digit v_j in [0, p_j) of 8 coefficients from `at` */
    for (size_t j = 0; j < k; j++) {
        __m256i p = _mm256_set1_epi32((int)primes[j]);
        __m256i two_p = _mm256_set1_epi32((int)(2 * primes[j]));
        __m256i t = _mm256_loadu_si256((const __m256i *)(rows[j] + at));   /* [0, p_j) */
        if (!zero_offset)   /* r_j + offset_j in [0, 2 p_j) */
            t = _mm256_add_epi32(t, _mm256_set1_epi32((int)offsets[j]));
        if (!lazy)
            t = ntt_w32_fold(t, p);
        for (size_t l = 0; l < j; l++) {
            __m256i cq = _mm256_set1_epi32((int)inv_q[l * k + j]);
            if (lazy)   /* t + 2 p_j - v_l in (0, 4 p_j) */
                t = _mm256_add_epi32(t, _mm256_sub_epi32(two_p, d[l]));
            else        /* v_l < p_l < 2 p_j -> v_l mod p_j, then t - v_l mod p_j */
                t = ntt_w32_sub_narrow(t, ntt_w32_fold(d[l], p), p);
            t = ntt_w32_shoup(t, _mm256_set1_epi32((int)inv[l * k + j]), cq, cq, p);
            if (!lazy)
                t = ntt_w32_fold(t, p);
        }
        /* the digit v_j < p_j (already so unless lazy, or with offsets) */
        d[j] = !lazy || (zero_offset && j == 0) ? t : ntt_w32_fold(t, p);
    }
}

NTT_INLINE __m256i ntt_wg8_coefficients(int lazy, int zero_offset,
                                        const uint32_t *const *rows, size_t at, size_t k,
                                        const uint64_t *primes, const uint64_t *inv,
                                        const uint64_t *inv_q, const uint64_t *offsets,
                                        uint64_t m, const uint64_t *weights,
                                        const uint64_t *weights_q, uint64_t offset_m) {
    const __m256i vm = _mm256_set1_epi32((int)m), two_m = _mm256_set1_epi32((int)(2 * m));
    __m256i d[8];
    if (k < 1)
        return _mm256_setzero_si256();
    ntt_wg8_digits(lazy, zero_offset, rows, at, k, primes, inv, inv_q, offsets, d);
    /* W_0 = 1: v_0 mod m, in [0, 2m) (lazy) or [0, m).  Lazy with p_0 <= 2m (m near
     * the pool's primes, e.g. 10^9 + 7): v_0 < p_0 already is, no product (a test the
     * loop hoists: p_0 and m are the same for every coefficient). */
    __m256i q0 = _mm256_set1_epi32((int)weights_q[0]), acc;
    if (lazy && primes[0] <= 2 * m)
        acc = d[0];
    else if (lazy)
        acc = ntt_w32_shoup(d[0], _mm256_set1_epi32(1), q0, q0, vm);
    else
        acc = ntt_w32_reduce(d[0], q0, vm);
    for (size_t j = 1; j < k; j++) {
        __m256i wq = _mm256_set1_epi32((int)weights_q[j]);
        __m256i term = ntt_w32_shoup(d[j], _mm256_set1_epi32((int)weights[j]), wq, wq, vm);
        if (lazy)   /* [0, 4m) -> [0, 2m) */
            acc = ntt_w32_fold(_mm256_add_epi32(acc, term), two_m);
        else
            acc = ntt_w32_fold(_mm256_add_epi32(acc, ntt_w32_fold(term, vm)), vm);
    }
    if (lazy)
        acc = ntt_w32_fold(acc, vm);
    if (zero_offset)
        return acc;
    return ntt_w32_sub_narrow(acc, _mm256_set1_epi32((int)offset_m), vm);
}

/* Coefficients start .. start + cnt (rounded down to 8) into result32 (uint32) when
 * it is not NULL, else into result, as `mode` says (a literal at every call; the modes
 * in simd/garner/avx512.h: 8 coefficients as two groups of 4 in 64-bit lanes, or one
 * vector of 32-bit lanes).  Storing
 * uint32 straight from the lanes, instead of widening to uint64 and narrowing again in
 * the caller: Zen 3, 2^18 coefficients mod 10^9 + 7, 0.43 -> 0.35 ms. */
NTT_INLINE size_t
ntt_wg_garner32_k(int mode, size_t k, const uint32_t *const *rows, size_t start, size_t cnt,
                  const uint64_t *primes, const uint64_t *inv, const uint64_t *inv_q,
                  const uint64_t *offsets, uint64_t m, const uint64_t *weights,
                  const uint64_t *weights_q, uint64_t offset_m, uint64_t *result,
                  uint32_t *result32) {
    size_t i = 0, done = cnt & ~(size_t)7;
    if (k > 8)
        return 0;
    if (mode == NTT_WG_LAZY || mode == NTT_WG_LAZY_NO_OFFSET) {
        /* two independent groups per step: their chains (four Shoup products deep)
         * overlap within the scheduler's window (C micro-benchmark, L1-resident rows:
         * 1.02 -> 0.92 ns per coefficient) */
        int no_offset = mode == NTT_WG_LAZY_NO_OFFSET;
        for (; i + 16 <= done && result32; i += 16) {
            __m256i x0 = ntt_wg8_coefficients(1, no_offset, rows, start + i, k, primes, inv,
                                              inv_q, offsets, m, weights, weights_q, offset_m);
            __m256i x1 = ntt_wg8_coefficients(1, no_offset, rows, start + i + 8, k, primes,
                                              inv, inv_q, offsets, m, weights, weights_q,
                                              offset_m);
            _mm256_storeu_si256((__m256i *)(result32 + i), x0);
            _mm256_storeu_si256((__m256i *)(result32 + i + 8), x1);
        }
    }
    for (; i < done; i += 8) {
        __m256i x, lo, hi;
        if (mode != NTT_WG_WIDE) {
            x = ntt_wg8_coefficients(mode != NTT_WG_NARROW, mode == NTT_WG_LAZY_NO_OFFSET,
                                     rows, start + i, k, primes, inv, inv_q, offsets, m,
                                     weights, weights_q, offset_m);
            lo = _mm256_cvtepu32_epi64(_mm256_castsi256_si128(x));
            hi = _mm256_cvtepu32_epi64(_mm256_extracti128_si256(x, 1));
        } else {
            lo = ntt_wg_coefficients(rows, start + i, k, primes, inv, inv_q, offsets, m,
                                     weights, weights_q, offset_m);
            hi = ntt_wg_coefficients(rows, start + i + 4, k, primes, inv, inv_q, offsets, m,
                                     weights, weights_q, offset_m);
            /* the low halves of the 64-bit lanes, in order (values < m < 2^32) */
            x = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(lo),
                                                      _mm256_castsi256_ps(hi), 0x88));
            x = _mm256_permute4x64_epi64(x, 0xD8);
        }
        if (result32) {
            _mm256_storeu_si256((__m256i *)(result32 + i), x);
        } else {
            _mm256_storeu_si256((__m256i *)(result + i), lo);
            _mm256_storeu_si256((__m256i *)(result + i + 4), hi);
        }
    }
    return done;
}

/* The digits of 8 coefficients from `at`, stored at digits[j] + i (the loop of
 * garner32_vector_digits, simd/garner/avx512.h, takes 8 at a time). */
NTT_INLINE void ntt_wg8_store_digits(int lazy, int zero_offset, const uint32_t *const *rows,
                                     size_t at, size_t k, const uint64_t *primes,
                                     const uint64_t *inv, const uint64_t *inv_q,
                                     const uint64_t *offsets, uint32_t *const *digits,
                                     size_t i) {
    __m256i d[GARNER32_MAX_DIGITS];
    ntt_wg8_digits(lazy, zero_offset, rows, at, k, primes, inv, inv_q, offsets, d);
    for (size_t j = 0; j < k; j++)
        _mm256_storeu_si256((__m256i *)(digits[j] + i), d[j]);
}

#define NTT_GARNER_DIGITS_LANES 8
#define NTT_GARNER_STORE_DIGITS ntt_wg8_store_digits
#endif
