/* The fused CRT reconstruction (crt/garner_rows.pxi) with every digit in a register,
 * written once over simd/vector_ops.h for every vector ISA.  Per coefficient, with
 * residues r_j (+ offset_j) mod p_j: the Garner digits v_0 = r_0,
 * v_j = (((r_j - v_0) c_0j - v_1) c_1j - ... ) mod p_j (c_lj = p_l^-1 mod p_j), then
 * x mod m = sum_j v_j W_j mod m (W_j = p_0 ... p_{j-1} mod m), then (x - offset_m) mod m,
 * in one of simd/garner/dispatch.h's modes: 64-bit lanes (any m < 2^32), 32-bit lanes
 * (m < 2^31: every value below 2^32, so unsigned 32-bit min folds and twice the
 * coefficients per product), or lazy 32-bit lanes (primes and m at most 2^30).  Every
 * operand is below 2^32, so each product is one vpmuludq (gcc vectorises the scalar
 * loops with 64 x 64-bit products instead: vpmullq, 3 uops, or longer on AVX2).
 * Ranges as the scalar code: p_j < 2^31 with max p < 2 min p, m < 2^32, residues < p_j,
 * offsets < p_j, offset_m < m.
 */
#ifndef NTT_CY_SIMD_GARNER_VECTOR_H
#define NTT_CY_SIMD_GARNER_VECTOR_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt32/vector.h"   /* the 32-bit lanes' Shoup products and folds */

/* Coefficient groups per step in the lazy modes with uint32 results: on AVX2 two
 * independent groups, whose chains (four Shoup products deep) overlap within the
 * scheduler's window; one on AVX-512. */
#if defined(NTT_CY_AVX2)
#define GARNER32_GROUPS_PER_STEP 2
#else
#define GARNER32_GROUPS_PER_STEP 1
#endif

/* a*w mod q in [0, 2q) on 64-bit lanes: a, w, wq = floor(w 2^32 / q), q all below
 * 2^32. */
NTT_INLINE vec_t vec_u64_garner_shoup(vec_t a, vec_t w, vec_t wq, vec_t q) {
    vec_t quot = vec_shr32_u64(vec_mul_even_u32(a, wq));
    return vec_sub_u64(vec_mul_even_u32(a, w), vec_mul_even_u32(quot, q));
}

/* VEC_U64_LANES coefficients from `at` in 64-bit lanes (GARNER32_WIDE): the digits of
 * every prime, then x mod m, then - offset_m. */
NTT_INLINE vec_t vec_u64_garner_coefficients(const uint32_t *const *rows, size_t at, size_t k,
                                             const uint64_t *primes, const uint64_t *inv,
                                             const uint64_t *inv_q, const uint64_t *offsets,
                                             uint64_t m, const uint64_t *weights,
                                             const uint64_t *weights_q, uint64_t offset_m) {
    const vec_t vm = vec_set1_u64(m), voff = vec_set1_u64(offset_m);
    vec_t d[GARNER32_MAX_PRIMES], acc;
    for (size_t j = 0; j < k; j++) {
        vec_t p = vec_set1_u64(primes[j]);
        vec_t r = vec_load_u32_as_u64(rows[j] + at);
        d[j] = vec_fold_u64(vec_add_u64(r, vec_set1_u64(offsets[j])), p);
        for (size_t l = 0; l < j; l++) {
            vec_t v = vec_fold_u64(d[l], p);   /* v_l < p_l < 2 p_j -> v_l mod p_j */
            vec_t t = vec_sub_mod_u64(d[j], v, p, 1);
            d[j] = vec_fold_u64(vec_u64_garner_shoup(t, vec_set1_u64(inv[l * k + j]),
                                                     vec_set1_u64(inv_q[l * k + j]), p), p);
        }
    }
    /* v_0 < p_0 (W_0 = 1): v_0 mod m is v_0 itself when p_0 <= m, one fold when
     * p_0 <= 2m, else a Shoup product by 1 and a fold (tests the loop hoists) */
    if (primes[0] <= m)
        acc = d[0];
    else if (primes[0] <= 2 * m)
        acc = vec_fold_u64(d[0], vm);
    else
        acc = vec_fold_u64(vec_u64_garner_shoup(d[0], vec_set1_u64(1),
                                                vec_set1_u64(weights_q[0]), vm), vm);
    for (size_t j = 1; j < k; j++) {
        vec_t term = vec_fold_u64(vec_u64_garner_shoup(d[j], vec_set1_u64(weights[j]),
                                                       vec_set1_u64(weights_q[j]), vm), vm);
        acc = vec_fold_u64(vec_add_u64(acc, term), vm);
    }
    return vec_sub_mod_u64(acc, voff, vm, 1);
}

/* The digits v_j in [0, p_j) of VEC_U32_LANES coefficients from `at`, into d[0..k), in
 * 32-bit lanes.  lazy and zero_offset are literals at every call:
 *   lazy = 0 (primes below 2^31): every digit in progress folded to [0, p_j) before and
 *     after each Shoup product;
 *   lazy = 1 (every p_j at most 2^30, so 4 p_j fits 32 bits; the uint32 CRT pool's
 *     primes all are): Shoup accepts any input below 2^32, so a digit in progress stays
 *     in [0, 2 p_j) and takes t + (2 p_j - v_l), with v_l < p_l < 2 p_j, as its next
 *     Shoup input (< 4 p_j): one fold per digit instead of three per step;
 *   zero_offset: all offsets 0 (linear products), their additions skipped. */
NTT_INLINE void vec_u32_garner_digits(int lazy, int zero_offset, const uint32_t *const *rows,
                                      size_t at, size_t k, const uint64_t *primes,
                                      const uint64_t *inv, const uint64_t *inv_q,
                                      const uint64_t *offsets, vec_t *d) {
    for (size_t j = 0; j < k; j++) {
        vec_t p = vec_set1_u32((uint32_t)primes[j]);
        vec_t two_p = vec_set1_u32((uint32_t)(2 * primes[j]));
        vec_t t = vec_load(rows[j] + at);   /* [0, p_j) */
        if (!zero_offset)   /* r_j + offset_j in [0, 2 p_j) */
            t = vec_add_u32(t, vec_set1_u32((uint32_t)offsets[j]));
        if (!lazy)
            t = vec_fold_u32(t, p);
        for (size_t l = 0; l < j; l++) {
            vec_t cq = vec_set1_u32((uint32_t)inv_q[l * k + j]);
            if (lazy)   /* t + 2 p_j - v_l in (0, 4 p_j) */
                t = vec_add_u32(t, vec_sub_u32(two_p, d[l]));
            else        /* v_l < p_l < 2 p_j -> v_l mod p_j, then t - v_l mod p_j */
                t = vec_sub_mod_u32(t, vec_fold_u32(d[l], p), p, 1);
            t = vec_u32_shoup_odd(t, vec_set1_u32((uint32_t)inv[l * k + j]), cq, cq, p);
            if (!lazy)
                t = vec_fold_u32(t, p);
        }
        /* the digit v_j < p_j (already so unless lazy, or with offsets) */
        d[j] = !lazy || (zero_offset && j == 0) ? t : vec_fold_u32(t, p);
    }
}

/* VEC_U32_LANES coefficients from `at` in 32-bit lanes (m < 2^31; lazy: every p_j and m
 * at most 2^30).  The sum mod m: lazy = 0, every term and partial sum folded to [0, m);
 * lazy = 1, the sum stays in [0, 2m), each step's sum folded by 2m (< 4m), one fold at
 * the end. */
NTT_INLINE vec_t vec_u32_garner_coefficients(int lazy, int zero_offset,
                                             const uint32_t *const *rows, size_t at, size_t k,
                                             const uint64_t *primes, const uint64_t *inv,
                                             const uint64_t *inv_q, const uint64_t *offsets,
                                             uint64_t m, const uint64_t *weights,
                                             const uint64_t *weights_q, uint64_t offset_m) {
    const vec_t vm = vec_set1_u32((uint32_t)m), two_m = vec_set1_u32((uint32_t)(2 * m));
    vec_t d[GARNER32_MAX_PRIMES];
    vec_u32_garner_digits(lazy, zero_offset, rows, at, k, primes, inv, inv_q, offsets, d);
    /* W_0 = 1: v_0 mod m, in [0, 2m) (lazy) or [0, m).  Lazy with p_0 <= 2m (m near
     * the pool's primes, e.g. 10^9 + 7): v_0 < p_0 already is, no product (a test the
     * loop hoists: p_0 and m are the same for every coefficient). */
    vec_t q0 = vec_set1_u32((uint32_t)weights_q[0]), acc;
    if (lazy && primes[0] <= 2 * m)
        acc = d[0];
    else if (lazy)
        acc = vec_u32_shoup_odd(d[0], vec_set1_u32(1), q0, q0, vm);
    else
        acc = vec_u32_reduce(d[0], q0, vm);
    for (size_t j = 1; j < k; j++) {
        vec_t wq = vec_set1_u32((uint32_t)weights_q[j]);
        vec_t term = vec_u32_shoup_odd(d[j], vec_set1_u32((uint32_t)weights[j]), wq, wq, vm);
        if (lazy)   /* [0, 4m) -> [0, 2m) */
            acc = vec_fold_u32(vec_add_u32(acc, term), two_m);
        else
            acc = vec_fold_u32(vec_add_u32(acc, vec_fold_u32(term, vm)), vm);
    }
    if (lazy)
        acc = vec_fold_u32(acc, vm);
    if (zero_offset)
        return acc;
    return vec_sub_mod_u32(acc, vec_set1_u32((uint32_t)offset_m), vm, 1);
}

/* Coefficients start .. start + cnt (rounded down to the vector) into result32 (uint32)
 * when it is not NULL, else into result, as `mode` says (a literal at every call).
 * Storing uint32 straight from the lanes, not widened to uint64 and narrowed again by
 * the caller. */
NTT_INLINE size_t vec_garner32_mod(int mode, size_t k, const uint32_t *const *rows,
                                   size_t start, size_t cnt, const uint64_t *primes,
                                   const uint64_t *inv, const uint64_t *inv_q,
                                   const uint64_t *offsets, uint64_t m, const uint64_t *weights,
                                   const uint64_t *weights_q, uint64_t offset_m,
                                   uint64_t *result, uint32_t *result32) {
    const size_t lanes = VEC_U32_LANES, half = VEC_U64_LANES;
    size_t i = 0, done = cnt - cnt % lanes;
    if (k < 1 || k > GARNER32_MAX_PRIMES)
        return 0;
    if (GARNER32_GROUPS_PER_STEP == 2 && result32 &&
        (mode == GARNER32_LAZY || mode == GARNER32_LAZY_NO_OFFSET)) {
        int no_offset = mode == GARNER32_LAZY_NO_OFFSET;
        for (; i + 2 * lanes <= done; i += 2 * lanes) {
            vec_t x0 = vec_u32_garner_coefficients(1, no_offset, rows, start + i, k, primes,
                                                   inv, inv_q, offsets, m, weights,
                                                   weights_q, offset_m);
            vec_t x1 = vec_u32_garner_coefficients(1, no_offset, rows, start + i + lanes, k,
                                                   primes, inv, inv_q, offsets, m, weights,
                                                   weights_q, offset_m);
            vec_store(result32 + i, x0);
            vec_store(result32 + i + lanes, x1);
        }
    }
    for (; i < done; i += lanes) {
        vec_t lo, hi;   /* coefficients i .. i + half - 1 and on, 64-bit lanes */
        if (mode != GARNER32_WIDE) {
            vec_t x = vec_u32_garner_coefficients(mode != GARNER32_NARROW,
                                                  mode == GARNER32_LAZY_NO_OFFSET, rows,
                                                  start + i, k, primes, inv, inv_q, offsets, m,
                                                  weights, weights_q, offset_m);
            if (result32) {
                vec_store(result32 + i, x);
                continue;
            }
            lo = vec_widen_lo_u32(x);
            hi = vec_widen_hi_u32(x);
        } else {
            lo = vec_u64_garner_coefficients(rows, start + i, k, primes, inv, inv_q, offsets,
                                             m, weights, weights_q, offset_m);
            hi = vec_u64_garner_coefficients(rows, start + i + half, k, primes, inv, inv_q,
                                             offsets, m, weights, weights_q, offset_m);
            if (result32) {   /* values < m < 2^32: the low halves */
                vec_store(result32 + i, vec_narrow_u64(lo, hi));
                continue;
            }
        }
        vec_store(result + i, lo);
        vec_store(result + i + half, hi);
    }
    return done;
}

/* The digits alone: digits[j][i] = v_j in [0, p_j) for coefficients start .. start + cnt
 * (rounded down to the vector), k <= GARNER32_MAX_DIGITS, lazy and zero_offset as
 * vec_u32_garner_digits (literals).  The digits of one vector of coefficients are held
 * in an array of vectors on the stack.  Returns how many. */
NTT_INLINE size_t vec_garner32_digits(int lazy, int zero_offset, size_t k,
                                      const uint32_t *const *rows, size_t start, size_t cnt,
                                      const uint64_t *primes, const uint64_t *inv,
                                      const uint64_t *inv_q, const uint64_t *offsets,
                                      uint32_t *const *digits) {
    size_t i, done = cnt - cnt % VEC_U32_LANES;
    if (k < 1 || k > GARNER32_MAX_DIGITS)
        return 0;
    for (i = 0; i < done; i += VEC_U32_LANES) {
        vec_t d[GARNER32_MAX_DIGITS];
        vec_u32_garner_digits(lazy, zero_offset, rows, start + i, k, primes, inv, inv_q,
                              offsets, d);
        for (size_t j = 0; j < k; j++)
            vec_store(digits[j] + i, d[j]);
    }
    return done;
}
#endif
