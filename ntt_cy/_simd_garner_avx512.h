/* AVX-512 body of the fused CRT reconstruction (_garner_impl.pxi), 8 coefficients
 * per step with every digit in a register.  gcc vectorises the scalar loops too,
 * but with 64x64-bit products (vpmullq, 3 uops); every operand here is below
 * 2^32, so vpmuludq (1 uop) gives the same products.  Ranges as the scalar code:
 * p_j < 2^31 with max p < 2 min p, m < 2^32, residues < p_j, offsets < p_j,
 * offset_m < m.
 * Returns how many coefficients it wrote (cnt rounded down to 8): to result32 as
 * uint32 when that is not NULL, else to result.  AVX2
 * builds get the same function from _simd_garner_avx2.h; elsewhere it returns 0 and
 * the scalar loop does everything.
 */
#ifndef NTT_CY_SIMD_GARNER_AVX512_H
#define NTT_CY_SIMD_GARNER_AVX512_H
#include <stdint.h>
#include <stddef.h>
#include "_avx512_select.h"

#ifndef NTT_INLINE   /* see _simd32_avx512.h */
#define NTT_INLINE static inline __attribute__((always_inline))
#endif

#if defined(NTT_CY_AVX512_F)

/* a*w mod q in [0, 2q): a, w, wq = floor(w 2^32 / q), q all below 2^32. */
NTT_INLINE __m512i ntt_vg_shoup(__m512i a, __m512i w, __m512i wq, __m512i q) {
    __m512i quot = _mm512_srli_epi64(_mm512_mul_epu32(a, wq), 32);
    return _mm512_sub_epi64(_mm512_mul_epu32(a, w), _mm512_mul_epu32(quot, q));
}

/* [0, 2q) -> [0, q): x - q wraps above x exactly when x < q. */
NTT_INLINE __m512i ntt_vg_fold(__m512i x, __m512i q) {
    return _mm512_min_epu64(x, _mm512_sub_epi64(x, q));
}

NTT_INLINE size_t
ntt_simd_garner32_k(const uint32_t *const *rows, size_t start, size_t k, size_t cnt,
                    const uint64_t *primes, const uint64_t *inv, const uint64_t *inv_q,
                    const uint64_t *offsets, uint64_t m, const uint64_t *weights,
                    const uint64_t *weights_q, uint64_t offset_m, uint64_t *result) {
    size_t i, j, l, done = cnt & ~(size_t)7;
    const __m512i one = _mm512_set1_epi64(1), vm = _mm512_set1_epi64((long long)m);
    const __m512i voff = _mm512_set1_epi64((long long)offset_m);
    __m512i d[8];
    if (k > 8)
        return 0;
    for (i = 0; i < done; i += 8) {
        for (j = 0; j < k; j++) {
            __m512i p = _mm512_set1_epi64((long long)primes[j]);
            __m512i r = _mm512_cvtepu32_epi64(
                _mm256_loadu_si256((const __m256i *)(rows[j] + start + i)));
            d[j] = ntt_vg_fold(_mm512_add_epi64(r, _mm512_set1_epi64((long long)offsets[j])), p);
            for (l = 0; l < j; l++) {
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
        for (j = 1; j < k; j++) {
            __m512i term = ntt_vg_fold(
                ntt_vg_shoup(d[j], _mm512_set1_epi64((long long)weights[j]),
                             _mm512_set1_epi64((long long)weights_q[j]), vm), vm);
            acc = ntt_vg_fold(_mm512_add_epi64(acc, term), vm);
        }
        __m512i x = _mm512_sub_epi64(acc, voff);
        x = _mm512_mask_add_epi64(x, _mm512_cmplt_epu64_mask(acc, voff), x, vm);
        _mm512_storeu_si512(result + i, x);
    }
    return done;
}

static inline size_t ntt_simd_garner32(const uint32_t *const *rows, size_t start, size_t k,
                                       size_t cnt, const uint64_t *primes, const uint64_t *inv,
                                       const uint64_t *inv_q, const uint64_t *offsets,
                                       uint64_t m, const uint64_t *weights,
                                       const uint64_t *weights_q, uint64_t offset_m,
                                       uint64_t *result, uint32_t *result32) {
    /* k = 3 (30-bit primes for any m < 2^32 up to n ~ 2^26) with k a constant:
     * loops unrolled, constants held in registers */
    size_t done = k == 3 ? ntt_simd_garner32_k(rows, start, 3, cnt, primes, inv, inv_q, offsets,
                                               m, weights, weights_q, offset_m, result)
                         : ntt_simd_garner32_k(rows, start, k, cnt, primes, inv, inv_q, offsets,
                                               m, weights, weights_q, offset_m, result);
    if (result32)   /* narrowed here (the AVX2 body stores uint32 from its lanes) */
        for (size_t i = 0; i < done; i++)
            result32[i] = (uint32_t)result[i];
    return done;
}

#elif defined(__AVX2__)
#include "_simd_garner_avx2.h"

#else  /* neither: the scalar loop does everything */

static inline size_t ntt_simd_garner32(const uint32_t *const *rows, size_t start, size_t k,
                                       size_t cnt, const uint64_t *primes, const uint64_t *inv,
                                       const uint64_t *inv_q, const uint64_t *offsets,
                                       uint64_t m, const uint64_t *weights,
                                       const uint64_t *weights_q, uint64_t offset_m,
                                       uint64_t *result, uint32_t *result32) {
    (void)rows; (void)start; (void)k; (void)cnt; (void)primes; (void)inv; (void)inv_q;
    (void)offsets; (void)m; (void)weights; (void)weights_q; (void)offset_m; (void)result;
    (void)result32;
    return 0;
}
#endif
#endif
