/* The Garner entry points of the fused CRT reconstruction (crt/garner_rows.pxi), in
 * every build: the coefficients (x - offset_m) mod m of a block of residue rows
 * (garner32_vector_mod, m < 2^32), or their Garner digits alone (garner32_vector_digits),
 * in the vector bodies simd/select.h picks (simd/garner/avx512.h, simd/garner/avx2.h).
 * Each returns how many coefficients it did (a multiple of the vector width); the
 * scalar loops of crt/garner_rows.pxi do the rest, and everything in the portable
 * build, where each returns 0.
 */
#ifndef NTT_CY_SIMD_GARNER_DISPATCH_H
#define NTT_CY_SIMD_GARNER_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/select.h"

/* The most primes the digits alone (garner32_vector_digits) take: the wide moduli's
 * bases (crt.WIDE32_MAX_PRIMES), whose digits are held in an array of vectors on the
 * stack (the coefficient bodies take at most 8, held in registers). */
#define GARNER32_MAX_DIGITS 32

/* How a body computes its coefficients: 64-bit lanes (any m < 2^32), 32-bit lanes
 * (m < 2^31), or the lazy 32-bit lanes (primes and m at most 2^30), with or without
 * offsets; both vector bodies pick theirs here. */
enum { NTT_WG_WIDE, NTT_WG_NARROW, NTT_WG_LAZY, NTT_WG_LAZY_NO_OFFSET };

/* Whether every prime is at most 2^30 (lazy digits: 4 p_j fits 32 bits), and whether
 * every offset is 0. */
static inline int ntt_garner_digits_lazy(size_t k, const uint64_t *primes) {
    int lazy = 1;
    for (size_t j = 0; j < k; j++)
        lazy &= primes[j] <= (1ull << 30);
    return lazy;
}

static inline int ntt_garner_no_offset(size_t k, const uint64_t *offsets) {
    int none = 1;
    for (size_t j = 0; j < k; j++)
        none &= offsets[j] == 0;
    return none;
}

static inline int ntt_garner_mode(size_t k, const uint64_t *primes, const uint64_t *offsets,
                                  uint64_t m, uint64_t offset_m) {
    int mode = m < (1ull << 31) ? NTT_WG_NARROW : NTT_WG_WIDE;
    if (m <= (1ull << 30) && ntt_garner_digits_lazy(k, primes))
        mode = offset_m == 0 && ntt_garner_no_offset(k, offsets) ? NTT_WG_LAZY_NO_OFFSET
                                                                 : NTT_WG_LAZY;
    return mode;
}

/* The body's loop with its mode and k as literals: one loop per pair.  k = 3 (30-bit
 * primes for any m < 2^32 up to n ~ 2^26) gets its own copies: loops unrolled,
 * constants held in registers. */
#define NTT_WG_BY_MODE(fn, mode, k, ...)                                                  \
    ((k) == 3 ? NTT_WG_BY_MODE_K(fn, mode, 3, __VA_ARGS__)                                \
              : NTT_WG_BY_MODE_K(fn, mode, k, __VA_ARGS__))
#define NTT_WG_BY_MODE_K(fn, mode, k, ...)                                                \
    ((mode) == NTT_WG_LAZY_NO_OFFSET ? fn(NTT_WG_LAZY_NO_OFFSET, k, __VA_ARGS__)          \
     : (mode) == NTT_WG_LAZY         ? fn(NTT_WG_LAZY, k, __VA_ARGS__)                    \
     : (mode) == NTT_WG_NARROW       ? fn(NTT_WG_NARROW, k, __VA_ARGS__)                  \
                                     : fn(NTT_WG_WIDE, k, __VA_ARGS__))

/* The digits alone (garner32_vector_digits): lazy 32-bit lanes when every prime is
 * at most 2^30, else the folded ones (primes below 2^31); offsets skipped when all
 * are 0.  Both literals, one loop each. */
#define NTT_WG_DIGITS_BY_MODE(fn, k, primes, offsets, ...)                                \
    (ntt_garner_digits_lazy(k, primes)                                                    \
         ? (ntt_garner_no_offset(k, offsets) ? fn(1, 1, k, __VA_ARGS__)                  \
                                             : fn(1, 0, k, __VA_ARGS__))                 \
         : (ntt_garner_no_offset(k, offsets) ? fn(0, 1, k, __VA_ARGS__)                  \
                                             : fn(0, 0, k, __VA_ARGS__)))

#if defined(NTT_CY_AVX512_BW)
#include "simd/garner/avx512.h"
#elif defined(NTT_CY_AVX2)
#include "simd/garner/avx2.h"
#endif

/* Coefficients start .. start + cnt (rounded down to the vector width) into result32
 * (uint32) when it is not NULL, else into result. */
static inline size_t garner32_vector_mod(const uint32_t *const *rows, size_t start, size_t k,
                                         size_t cnt, const uint64_t *primes,
                                         const uint64_t *inv, const uint64_t *inv_q,
                                         const uint64_t *offsets, uint64_t m,
                                         const uint64_t *weights, const uint64_t *weights_q,
                                         uint64_t offset_m, uint64_t *result,
                                         uint32_t *result32) {
#if defined(NTT_CY_AVX512_BW)
    return NTT_WG_BY_MODE(ntt_vg_garner32_k, ntt_garner_mode(k, primes, offsets, m, offset_m),
                          k, rows, start, cnt, primes, inv, inv_q, offsets, m, weights,
                          weights_q, offset_m, result, result32);
#elif defined(NTT_CY_AVX2)
    return NTT_WG_BY_MODE(ntt_wg_garner32_k, ntt_garner_mode(k, primes, offsets, m, offset_m),
                          k, rows, start, cnt, primes, inv, inv_q, offsets, m, weights,
                          weights_q, offset_m, result, result32);
#else
    (void)rows; (void)start; (void)k; (void)cnt; (void)primes; (void)inv; (void)inv_q;
    (void)offsets; (void)m; (void)weights; (void)weights_q; (void)offset_m; (void)result;
    (void)result32;
    return 0;
#endif
}

/* The digits alone, for moduli the weighted sums above cannot take (m >= 2^32):
 * digits[j][i] = v_j in [0, p_j) for coefficients start .. start + cnt, rounded down
 * to the build's vector (NTT_GARNER_DIGITS_LANES; lazy and zero_offset literals as in
 * the coefficient functions), or none where the scalar loop does everything.  Returns
 * how many. */
#ifdef NTT_GARNER_DIGITS_LANES
NTT_INLINE size_t ntt_garner_digits_k(int lazy, int zero_offset, size_t k,
                                      const uint32_t *const *rows, size_t start, size_t cnt,
                                      const uint64_t *primes, const uint64_t *inv,
                                      const uint64_t *inv_q, const uint64_t *offsets,
                                      uint32_t *const *digits) {
    size_t i, done = cnt - cnt % NTT_GARNER_DIGITS_LANES;
    if (k < 1 || k > GARNER32_MAX_DIGITS)
        return 0;
    for (i = 0; i < done; i += NTT_GARNER_DIGITS_LANES)
        NTT_GARNER_STORE_DIGITS(lazy, zero_offset, rows, start + i, k, primes, inv, inv_q,
                                offsets, digits, i);
    return done;
}
#endif

static inline size_t garner32_vector_digits(const uint32_t *const *rows, size_t start,
                                              size_t k, size_t cnt, const uint64_t *primes,
                                              const uint64_t *inv, const uint64_t *inv_q,
                                              const uint64_t *offsets, uint32_t *const *digits) {
#ifdef NTT_GARNER_DIGITS_LANES
    return NTT_WG_DIGITS_BY_MODE(ntt_garner_digits_k, k, primes, offsets, rows, start, cnt,
                                 primes, inv, inv_q, offsets, digits);
#else
    (void)rows; (void)start; (void)k; (void)cnt; (void)primes; (void)inv; (void)inv_q;
    (void)offsets; (void)digits;
    return 0;
#endif
}
#endif
