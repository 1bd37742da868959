/* AVX-512 bodies of the fused CRT reconstruction (crt/garner_rows.pxi), with every digit
 * in a register: 8 coefficients per step in 64-bit lanes (any m < 2^32), 16 in 32-bit
 * lanes (m < 2^31, and lazily for primes and m at most 2^30), the modes of
 * simd/garner/dispatch.h (simd/garner/avx2.h explains them).  gcc vectorises the
 * scalar loops too, but with 64x64-bit products (vpmullq, 3 uops); every operand here
 * is below 2^32, so vpmuludq (1 uop) gives the same products.  Ranges as the scalar
 * code: p_j < 2^31 with max p < 2 min p, m < 2^32, residues < p_j, offsets < p_j,
 * offset_m < m.  simd/garner/dispatch.h includes this file where simd/select.h picks
 * AVX-512.
 */
#ifndef NTT_CY_SIMD_GARNER_AVX512_H
#define NTT_CY_SIMD_GARNER_AVX512_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/avx512.h"   /* the 16-lane Shoup products */


/* a*w mod q in [0, 2q): a, w, wq = floor(w 2^32 / q), q all below 2^32. */
NTT_INLINE __m512i ntt_vg_shoup(__m512i a, __m512i w, __m512i wq, __m512i q) {
    __m512i quot = _mm512_srli_epi64(_mm512_mul_epu32(a, wq), 32);
    return _mm512_sub_epi64(_mm512_mul_epu32(a, w), _mm512_mul_epu32(quot, q));
}

/* [0, 2q) -> [0, q): x - q wraps above x exactly when x < q. */
NTT_INLINE __m512i ntt_vg_fold(__m512i x, __m512i q) {
    return _mm512_min_epu64(x, _mm512_sub_epi64(x, q));
}

/* 8 coefficients from `at` in 64-bit lanes (NTT_WG_WIDE): the digits of every prime,
 * then x mod m, then - offset_m. */
NTT_INLINE __m512i ntt_vg_coefficients(const uint32_t *const *rows, size_t at, size_t k,
                                       const uint64_t *primes, const uint64_t *inv,
                                       const uint64_t *inv_q, const uint64_t *offsets,
                                       uint64_t m, const uint64_t *weights,
                                       const uint64_t *weights_q, uint64_t offset_m) {
    const __m512i one = _mm512_set1_epi64(1), vm = _mm512_set1_epi64((long long)m);
    const __m512i voff = _mm512_set1_epi64((long long)offset_m);
    __m512i d[8];
    for (size_t j = 0; j < k; j++) {
        __m512i p = _mm512_set1_epi64((long long)primes[j]);
        __m512i r = _mm512_cvtepu32_epi64(_mm256_loadu_si256((const __m256i *)(rows[j] + at)));
        d[j] = ntt_vg_fold(_mm512_add_epi64(r, _mm512_set1_epi64((long long)offsets[j])), p);
        for (size_t l = 0; l < j; l++) {
            __m512i v = ntt_vg_fold(d[l], p);   /* v_l < p_l < 2 p_j -> v_l mod p_j */
            __m512i t = _mm512_sub_epi64(d[j], v);
            t = _mm512_mask_add_epi64(t, _mm512_cmplt_epu64_mask(d[j], v), t, p);
            d[j] = ntt_vg_fold(ntt_vg_shoup(t, _mm512_set1_epi64((long long)inv[l * k + j]),
                                            _mm512_set1_epi64((long long)inv_q[l * k + j]), p),
                               p);
        }
    }
    /* v_0 < p_0 (W_0 = 1): v_0 mod m is v_0 itself when p_0 <= m, one fold when
     * p_0 <= 2m, else a Shoup product by 1 and a fold */
    __m512i acc = primes[0] <= m ? d[0]
                  : primes[0] <= 2 * m
                      ? ntt_vg_fold(d[0], vm)
                      : ntt_vg_fold(ntt_vg_shoup(d[0], one,
                                                 _mm512_set1_epi64((long long)weights_q[0]),
                                                 vm), vm);
    for (size_t j = 1; j < k; j++) {
        __m512i term = ntt_vg_fold(
            ntt_vg_shoup(d[j], _mm512_set1_epi64((long long)weights[j]),
                         _mm512_set1_epi64((long long)weights_q[j]), vm), vm);
        acc = ntt_vg_fold(_mm512_add_epi64(acc, term), vm);
    }
    __m512i x = _mm512_sub_epi64(acc, voff);
    return _mm512_mask_add_epi64(x, _mm512_cmplt_epu64_mask(acc, voff), x, vm);
}

/* 16 coefficients from `at` in 32-bit lanes, as the AVX2 ntt_wg8_coefficients (lazy,
 * zero_offset: literals; the ranges that make them exact are stated there). */
NTT_INLINE void ntt_vg16_digits(int lazy, int zero_offset, const uint32_t *const *rows,
                                size_t at, size_t k, const uint64_t *primes,
                                const uint64_t *inv, const uint64_t *inv_q,
                                const uint64_t *offsets, __m512i *d) {
    /* d[j] <- the digit v_j in [0, p_j) of 16 coefficients from `at` */
    for (size_t j = 0; j < k; j++) {
        __m512i p = _mm512_set1_epi32((int)primes[j]);
        __m512i two_p = _mm512_set1_epi32((int)(2 * primes[j]));
        __m512i t = _mm512_loadu_si512(rows[j] + at);   /* [0, p_j) */
        if (!zero_offset)   /* r_j + offset_j in [0, 2 p_j) */
            t = _mm512_add_epi32(t, _mm512_set1_epi32((int)offsets[j]));
        if (!lazy)
            t = ntt_v32_fold2p(t, p);
        for (size_t l = 0; l < j; l++) {
            __m512i cq = _mm512_set1_epi32((int)inv_q[l * k + j]);
            if (lazy)   /* t + 2 p_j - v_l in (0, 4 p_j) */
                t = _mm512_add_epi32(t, _mm512_sub_epi32(two_p, d[l]));
            else        /* v_l < p_l < 2 p_j -> v_l mod p_j, then t - v_l mod p_j */
                t = ntt_v32_sub(t, ntt_v32_fold2p(d[l], p), p);
            t = ntt_v32_shoup_odd(t, _mm512_set1_epi32((int)inv[l * k + j]), cq, cq, p);
            if (!lazy)
                t = ntt_v32_fold2p(t, p);
        }
        /* the digit v_j < p_j (already so unless lazy, or with offsets) */
        d[j] = !lazy || (zero_offset && j == 0) ? t : ntt_v32_fold2p(t, p);
    }
}

NTT_INLINE __m512i ntt_vg16_coefficients(int lazy, int zero_offset,
                                         const uint32_t *const *rows, size_t at, size_t k,
                                         const uint64_t *primes, const uint64_t *inv,
                                         const uint64_t *inv_q, const uint64_t *offsets,
                                         uint64_t m, const uint64_t *weights,
                                         const uint64_t *weights_q, uint64_t offset_m) {
    const __m512i vm = _mm512_set1_epi32((int)m), two_m = _mm512_set1_epi32((int)(2 * m));
    __m512i d[8];
    ntt_vg16_digits(lazy, zero_offset, rows, at, k, primes, inv, inv_q, offsets, d);
    /* W_0 = 1: v_0 mod m, in [0, 2m) (lazy) or [0, m); lazy with p_0 <= 2m: v_0 < p_0
     * already is, no product */
    __m512i q0 = _mm512_set1_epi32((int)weights_q[0]), acc;
    if (lazy && primes[0] <= 2 * m)
        acc = d[0];
    else if (lazy)
        acc = ntt_v32_shoup_odd(d[0], _mm512_set1_epi32(1), q0, q0, vm);
    else
        acc = ntt_v32_reduce_src(d[0], q0, vm);
    for (size_t j = 1; j < k; j++) {
        __m512i wq = _mm512_set1_epi32((int)weights_q[j]);
        __m512i term = ntt_v32_shoup_odd(d[j], _mm512_set1_epi32((int)weights[j]), wq, wq, vm);
        if (lazy)   /* [0, 4m) -> [0, 2m) */
            acc = ntt_v32_fold2p(_mm512_add_epi32(acc, term), two_m);
        else
            acc = ntt_v32_fold2p(_mm512_add_epi32(acc, ntt_v32_fold2p(term, vm)), vm);
    }
    if (lazy)
        acc = ntt_v32_fold2p(acc, vm);
    if (zero_offset)
        return acc;
    return ntt_v32_sub(acc, _mm512_set1_epi32((int)offset_m), vm);
}

/* Coefficients start .. start + cnt (rounded down to 16) into result32 (uint32) when
 * it is not NULL, else into result, as `mode` says (a literal at every call). */
NTT_INLINE size_t ntt_vg_garner32_k(int mode, size_t k, const uint32_t *const *rows,
                                    size_t start, size_t cnt, const uint64_t *primes,
                                    const uint64_t *inv, const uint64_t *inv_q,
                                    const uint64_t *offsets, uint64_t m,
                                    const uint64_t *weights, const uint64_t *weights_q,
                                    uint64_t offset_m, uint64_t *result, uint32_t *result32) {
    size_t i, done = cnt & ~(size_t)15;
    if (k < 1 || k > 8)
        return 0;
    for (i = 0; i < done; i += 16) {
        __m512i lo, hi;   /* coefficients i .. i + 7 and i + 8 .. i + 15, 64-bit lanes */
        if (mode != NTT_WG_WIDE) {
            __m512i x = ntt_vg16_coefficients(mode != NTT_WG_NARROW,
                                              mode == NTT_WG_LAZY_NO_OFFSET, rows, start + i,
                                              k, primes, inv, inv_q, offsets, m, weights,
                                              weights_q, offset_m);
            if (result32) {
                _mm512_storeu_si512(result32 + i, x);
                continue;
            }
            lo = _mm512_cvtepu32_epi64(_mm512_castsi512_si256(x));
            hi = _mm512_cvtepu32_epi64(_mm512_extracti64x4_epi64(x, 1));
        } else {
            lo = ntt_vg_coefficients(rows, start + i, k, primes, inv, inv_q, offsets, m,
                                     weights, weights_q, offset_m);
            hi = ntt_vg_coefficients(rows, start + i + 8, k, primes, inv, inv_q, offsets, m,
                                     weights, weights_q, offset_m);
            if (result32) {   /* values < m < 2^32: the low halves */
                _mm256_storeu_si256((__m256i *)(result32 + i), _mm512_cvtepi64_epi32(lo));
                _mm256_storeu_si256((__m256i *)(result32 + i + 8), _mm512_cvtepi64_epi32(hi));
                continue;
            }
        }
        _mm512_storeu_si512(result + i, lo);
        _mm512_storeu_si512(result + i + 8, hi);
    }
    return done;
}

/* The digits of 16 coefficients from `at`, stored at digits[j] + i (the loop of
 * garner32_vector_digits below takes 16 at a time). */
NTT_INLINE void ntt_vg16_store_digits(int lazy, int zero_offset, const uint32_t *const *rows,
                                      size_t at, size_t k, const uint64_t *primes,
                                      const uint64_t *inv, const uint64_t *inv_q,
                                      const uint64_t *offsets, uint32_t *const *digits,
                                      size_t i) {
    __m512i d[GARNER32_MAX_DIGITS];
    ntt_vg16_digits(lazy, zero_offset, rows, at, k, primes, inv, inv_q, offsets, d);
    for (size_t j = 0; j < k; j++)
        _mm512_storeu_si512(digits[j] + i, d[j]);
}

#define NTT_GARNER_DIGITS_LANES 16
#define NTT_GARNER_STORE_DIGITS ntt_vg16_store_digits

#endif
