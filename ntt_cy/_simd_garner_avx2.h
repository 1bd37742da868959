/* AVX2 body of the fused CRT reconstruction (_garner_impl.pxi): the AVX-512 version's
 * arithmetic on 4 coefficients per vector, two vectors per step.  _simd_garner_avx512.h
 * includes this file in builds that target AVX2 but not AVX-512.
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
#include <immintrin.h>
#include "_simd32_avx512.h"   /* ntt_w32_shoup of _simd32_avx2.h */

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

/* 8 coefficients from `at`, as ntt_wg_coefficients. */
NTT_INLINE __m256i ntt_wg8_coefficients(const uint32_t *const *rows, size_t at, size_t k,
                                        const uint64_t *primes, const uint64_t *inv,
                                        const uint64_t *inv_q, const uint64_t *offsets,
                                        uint64_t m, const uint64_t *weights,
                                        const uint64_t *weights_q, uint64_t offset_m) {
    const __m256i vm = _mm256_set1_epi32((int)m);
    const __m256i voff = _mm256_set1_epi32((int)offset_m);
    __m256i d[8];
    for (size_t j = 0; j < k; j++) {
        __m256i p = _mm256_set1_epi32((int)primes[j]);
        __m256i r = _mm256_loadu_si256((const __m256i *)(rows[j] + at));
        d[j] = ntt_w32_fold(_mm256_add_epi32(r, _mm256_set1_epi32((int)offsets[j])), p);
        for (size_t l = 0; l < j; l++) {
            __m256i v = ntt_w32_fold(d[l], p);   /* v_l < p_l < 2 p_j -> v_l mod p_j */
            __m256i t = ntt_w32_sub_narrow(d[j], v, p);
            __m256i cq = _mm256_set1_epi32((int)inv_q[l * k + j]);
            d[j] = ntt_w32_fold(
                ntt_w32_shoup(t, _mm256_set1_epi32((int)inv[l * k + j]), cq, cq, p), p);
        }
    }
    __m256i acc = ntt_w32_reduce(d[0], _mm256_set1_epi32((int)weights_q[0]), vm);   /* W_0 = 1 */
    for (size_t j = 1; j < k; j++) {
        __m256i wq = _mm256_set1_epi32((int)weights_q[j]);
        __m256i term = ntt_w32_fold(
            ntt_w32_shoup(d[j], _mm256_set1_epi32((int)weights[j]), wq, wq, vm), vm);
        acc = ntt_w32_fold(_mm256_add_epi32(acc, term), vm);
    }
    return ntt_w32_sub_narrow(acc, voff, vm);
}

/* Coefficients start .. start + cnt (rounded down to 8) into result32 (uint32) when
 * it is not NULL, else into result: in 32-bit lanes when narrow (m < 2^31), else two
 * independent groups of 4 in 64-bit lanes per step.  Storing uint32 straight from
 * the lanes, instead of widening to uint64 and narrowing again in the caller: Zen 3,
 * 2^18 coefficients mod 10^9 + 7, 0.43 -> 0.35 ms. */
NTT_INLINE size_t
ntt_wg_garner32_k(int narrow, const uint32_t *const *rows, size_t start, size_t k, size_t cnt,
                  const uint64_t *primes, const uint64_t *inv, const uint64_t *inv_q,
                  const uint64_t *offsets, uint64_t m, const uint64_t *weights,
                  const uint64_t *weights_q, uint64_t offset_m, uint64_t *result,
                  uint32_t *result32) {
    size_t i, done = cnt & ~(size_t)7;
    if (k > 8)
        return 0;
    for (i = 0; i < done; i += 8) {
        __m256i x, lo, hi;
        if (narrow) {
            x = ntt_wg8_coefficients(rows, start + i, k, primes, inv, inv_q, offsets, m,
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

static inline size_t ntt_simd_garner32(const uint32_t *const *rows, size_t start, size_t k,
                                       size_t cnt, const uint64_t *primes, const uint64_t *inv,
                                       const uint64_t *inv_q, const uint64_t *offsets,
                                       uint64_t m, const uint64_t *weights,
                                       const uint64_t *weights_q, uint64_t offset_m,
                                       uint64_t *result, uint32_t *result32) {
    /* k = 3 (30-bit primes for any m < 2^32 up to n ~ 2^26) as a constant: loops
     * unrolled, constants held in registers; narrow (32-bit lanes) where m allows */
    int narrow = m < (1ull << 31);
    if (k == 3)
        return narrow ? ntt_wg_garner32_k(1, rows, start, 3, cnt, primes, inv, inv_q, offsets, m,
                                          weights, weights_q, offset_m, result, result32)
                      : ntt_wg_garner32_k(0, rows, start, 3, cnt, primes, inv, inv_q, offsets, m,
                                          weights, weights_q, offset_m, result, result32);
    return narrow ? ntt_wg_garner32_k(1, rows, start, k, cnt, primes, inv, inv_q, offsets, m,
                                      weights, weights_q, offset_m, result, result32)
                  : ntt_wg_garner32_k(0, rows, start, k, cnt, primes, inv, inv_q, offsets, m,
                                      weights, weights_q, offset_m, result, result32);
}
#endif
