/* AVX-512 bodies for 64-bit lanes (8 per vector) where they are AVX-512's own: the
 * MONTGOMERY product with R = 2^52 by IFMA (where the build has it), which the integer
 * kernels of simd/ntt64/vector.h use for odd p < 2^52, and the three stages at a
 * transform's bit-reversed end in registers (vpermt2q gathers).  simd/ntt64/dispatch.h
 * includes this file where simd/select.h picks AVX-512 (after ntt64_params).
 */
#ifndef NTT_CY_SIMD_NTT64_AVX512_IFMA_H
#define NTT_CY_SIMD_NTT64_AVX512_IFMA_H
#include <stdint.h>
#include <stddef.h>
#include "simd/lane_tables.h"
#include "simd/vector_ops.h"

#if defined(NTT_CY_AVX512_IFMA)
/* MONTGOMERY with R = 2^52 (IFMA): vpmadd52luq / vpmadd52huq multiply the low 52 bits
 * of two lanes and add the low / high 52 bits of the 104-bit product to a 64-bit
 * accumulator, which is exactly a Montgomery step with R = 2^52.  a, b in [0, 2^52),
 * b < p, p odd < 2^52, pinv = -p^-1 mod 2^52 -> a b 2^-52 mod p in [0, p).
 * T = a b < 2^52 p; k = lo52(T) pinv mod 2^52 makes T + k p divisible by 2^52, the low
 * halves adding to 2^52 exactly when lo52(T) != 0 (the carry below), and
 * (T + k p) / 2^52 < 2p, folded once.  Twiddles are stored as w 2^52 mod p (the build
 * reports the radix through ntt64_montgomery_bits, so the tables and the scalar tail
 * code agree). */
NTT_INLINE __m512i avx512_u64_mont52(__m512i a, __m512i b, __m512i p, __m512i pinv) {
    const __m512i zero = _mm512_setzero_si512();
    __m512i lo = _mm512_madd52lo_epu64(zero, a, b);
    __m512i hi = _mm512_madd52hi_epu64(zero, a, b);
    __m512i k = _mm512_madd52lo_epu64(zero, lo, pinv);
    __m512i t = _mm512_madd52hi_epu64(hi, k, p);
    t = _mm512_mask_add_epi64(t, _mm512_test_epi64_mask(lo, lo), t, _mm512_set1_epi64(1));
    return _mm512_min_epu64(t, _mm512_sub_epi64(t, p));
}
#endif

#include "simd/ntt64/vector.h"   /* the integer kernels, MONTGOMERY52 among them */

/* The gathers of simd/lane_tables.h for 8 lanes and h = 4, 2, 1 (row k: h = 4 >> k). */
static const struct {
    int64_t gather_x[3][8], gather_y[3][8], scatter_lo[3][8], scatter_hi[3][8];
    int64_t twiddle[3][8];
} avx512_u64_lanes __attribute__((aligned(64))) = LANE_TABLES(LANE_ROWS8, 8);

/* The three last DIF stages (h = 4, 2, 1) or first DIT stages (h = 1, 2, 4) over
 * a[0:size], 16 values (two registers) at a time; lane l of the gathered x / y vectors
 * is block l / h, offset l % h.  Returns 1 when done (size a multiple of 16; the entry
 * point checks).  tw + h .. tw + h + 7 must be in the table (n >= 16). */
NTT_INLINE int avx512_u64_small_stages(int forward, uint64_t *a, size_t size,
                                       const uint64_t *tw, const uint64_t *twq,
                                       const ntt64_params *prm, int family) {
    vec_u64_mod m = vec_u64_modulus(prm, family);
    __m512i gx[3], gy[3], blo[3], bhi[3], w[3], wq[3];
    for (int k = 0; k < 3; k++) {          /* k = 0, 1, 2 <-> h = 4, 2, 1 */
        __m512i wi = _mm512_load_si512(avx512_u64_lanes.twiddle[k]);
        gx[k] = _mm512_load_si512(avx512_u64_lanes.gather_x[k]);
        gy[k] = _mm512_load_si512(avx512_u64_lanes.gather_y[k]);
        blo[k] = _mm512_load_si512(avx512_u64_lanes.scatter_lo[k]);
        bhi[k] = _mm512_load_si512(avx512_u64_lanes.scatter_hi[k]);
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
            vec_u64_butterfly(forward, &x, &y, w[k], wq[k], &m, k == 2);   /* k = 2: h = 1 */
            lo = _mm512_permutex2var_epi64(x, blo[k], y);
            hi = _mm512_permutex2var_epi64(x, bhi[k], y);
        }
        _mm512_storeu_si512(a + i, lo);
        _mm512_storeu_si512(a + i + 8, hi);
    }
    return 1;
}
#endif
