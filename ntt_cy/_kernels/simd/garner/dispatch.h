/* The Garner entry points of the fused CRT reconstruction (crt/garner_rows.pxi), in
 * every build: the coefficients (x - offset_m) mod m of a block of residue rows
 * (garner32_vector_mod, m < 2^32), or their Garner digits alone (garner32_vector_digits),
 * by the vector body of simd/garner/vector.h in one of the modes below, one copy per
 * mode.  Each returns how many coefficients it did (a multiple of the vector width);
 * the scalar loops of crt/garner_rows.pxi do the rest, and everything in the portable
 * build, where each returns 0.
 */
#ifndef NTT_CY_SIMD_GARNER_DISPATCH_H
#define NTT_CY_SIMD_GARNER_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

/* The most primes of a coefficient body (their digits held in registers), and of the
 * digits alone: the wide moduli's bases (crt.WIDE32_MAX_PRIMES), whose digits are held
 * in an array of vectors on the stack. */
enum { GARNER32_MAX_PRIMES = 8, GARNER32_MAX_DIGITS = 32 };

/* How the body computes its coefficients: 64-bit lanes (any m < 2^32), 32-bit lanes
 * (m < 2^31), or the lazy 32-bit lanes (primes and m at most 2^30), with or without
 * offsets. */
enum { GARNER32_WIDE, GARNER32_NARROW, GARNER32_LAZY, GARNER32_LAZY_NO_OFFSET };

/* Whether every prime is at most 2^30 (lazy digits: 4 p_j fits 32 bits), and whether
 * every offset is 0. */
static inline int garner32_primes_lazy(size_t k, const uint64_t *primes) {
    int lazy = 1;
    for (size_t j = 0; j < k; j++)
        lazy &= primes[j] <= (1ull << 30);
    return lazy;
}

static inline int garner32_no_offset(size_t k, const uint64_t *offsets) {
    int none = 1;
    for (size_t j = 0; j < k; j++)
        none &= offsets[j] == 0;
    return none;
}

static inline int garner32_mode(size_t k, const uint64_t *primes, const uint64_t *offsets,
                                uint64_t m, uint64_t offset_m) {
    int mode = m < (1ull << 31) ? GARNER32_NARROW : GARNER32_WIDE;
    if (m <= (1ull << 30) && garner32_primes_lazy(k, primes))
        mode = offset_m == 0 && garner32_no_offset(k, offsets) ? GARNER32_LAZY_NO_OFFSET
                                                               : GARNER32_LAZY;
    return mode;
}

#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)
#include "simd/garner/vector.h"

/* fn(mode, k, ...) with its mode and k as literals: one loop per pair.  k = 3 (30-bit
 * primes for any m < 2^32 up to n ~ 2^26) gets its own copies: loops unrolled,
 * constants held in registers. */
#define GARNER32_BY_MODE(fn, mode, k, ...)                                                \
    ((k) == 3 ? GARNER32_BY_MODE_K(fn, mode, 3, __VA_ARGS__)                              \
              : GARNER32_BY_MODE_K(fn, mode, k, __VA_ARGS__))
#define GARNER32_BY_MODE_K(fn, mode, k, ...)                                              \
    ((mode) == GARNER32_LAZY_NO_OFFSET ? fn(GARNER32_LAZY_NO_OFFSET, k, __VA_ARGS__)      \
     : (mode) == GARNER32_LAZY         ? fn(GARNER32_LAZY, k, __VA_ARGS__)                \
     : (mode) == GARNER32_NARROW       ? fn(GARNER32_NARROW, k, __VA_ARGS__)              \
                                       : fn(GARNER32_WIDE, k, __VA_ARGS__))

/* The digits alone: lazy 32-bit lanes when every prime is at most 2^30, else the folded
 * ones (primes below 2^31); offsets skipped when all are 0.  Both literals, one loop
 * each. */
#define GARNER32_DIGITS_BY_MODE(fn, k, primes, offsets, ...)                              \
    (garner32_primes_lazy(k, primes)                                                      \
         ? (garner32_no_offset(k, offsets) ? fn(1, 1, k, __VA_ARGS__)                    \
                                           : fn(1, 0, k, __VA_ARGS__))                   \
         : (garner32_no_offset(k, offsets) ? fn(0, 1, k, __VA_ARGS__)                    \
                                           : fn(0, 0, k, __VA_ARGS__)))
#else
/* The portable build: no vector body, 0 done (the arguments taken and dropped). */
#define GARNER32_BY_MODE(fn, mode, k, ...) ntt_nothing_done((mode), (k), __VA_ARGS__)
#define GARNER32_DIGITS_BY_MODE(fn, k, ...) ntt_nothing_done((k), __VA_ARGS__)
#endif

/* Coefficients start .. start + cnt (rounded down to the vector width) into result32
 * (uint32) when it is not NULL, else into result; inv / inv_q (k, k) row-major,
 * weights[j] = W_j, weights_q[j] = floor(W_j 2^32 / m). */
static inline size_t garner32_vector_mod(const uint32_t *const *rows, size_t start, size_t k,
                                         size_t cnt, const uint64_t *primes,
                                         const uint64_t *inv, const uint64_t *inv_q,
                                         const uint64_t *offsets, uint64_t m,
                                         const uint64_t *weights, const uint64_t *weights_q,
                                         uint64_t offset_m, uint64_t *result,
                                         uint32_t *result32) {
    return GARNER32_BY_MODE(vec_garner32_mod, garner32_mode(k, primes, offsets, m, offset_m),
                            k, rows, start, cnt, primes, inv, inv_q, offsets, m, weights,
                            weights_q, offset_m, result, result32);
}

/* The digits alone, for moduli the weighted sums cannot take (m >= 2^32):
 * digits[j][i] = v_j in [0, p_j) for coefficients start .. start + cnt (rounded down to
 * the vector width), k <= GARNER32_MAX_DIGITS. */
static inline size_t garner32_vector_digits(const uint32_t *const *rows, size_t start,
                                            size_t k, size_t cnt, const uint64_t *primes,
                                            const uint64_t *inv, const uint64_t *inv_q,
                                            const uint64_t *offsets, uint32_t *const *digits) {
    return GARNER32_DIGITS_BY_MODE(vec_garner32_digits, k, primes, offsets, rows, start, cnt,
                                   primes, inv, inv_q, offsets, digits);
}
#endif
