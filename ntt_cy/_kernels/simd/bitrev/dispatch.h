/* The bit-reversal entry points the Cython kernels call (ntt/permute.pxi), in every
 * build: the permutation dst[i] = src[rev(i)] as a copy or in place, by in-register
 * tile transposes (simd/bitrev/avx512.h, simd/bitrev/avx2.h, as simd/select.h picks),
 * and for uint32 lanes with the four stages at a transform's bit-reversed end fused in
 * (BITREV32_FUSED_EDGE says whether the build has them).  Each returns 1 when done; in
 * the portable build 0 (nothing done), and the caller's scalar tile loops run.
 *
 * rev is the bit-reversal table of range(2^bits); tiles m0 <= m < m1 of the
 * 2^(bits - 2f) (f = 4 for uint32, 3 for uint64) let threads split the work; needs
 * bits >= 2f.  fold_p != 0 also maps [0, 2p) to [0, p) on the way (LAZY's forward
 * output).
 */
#ifndef NTT_CY_SIMD_BITREV_DISPATCH_H
#define NTT_CY_SIMD_BITREV_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

#if defined(NTT_CY_AVX512_BW)
#include "simd/bitrev/avx512.h"
#elif defined(NTT_CY_AVX2)
#include "simd/bitrev/avx2.h"
#endif

#if defined(NTT_CY_AVX512_BW) || defined(NTT_CY_AVX2)
#define BITREV_VECTOR 1
#define BITREV32_FUSED_EDGE 1
#define BITREV_BY_FAMILY NTT_BY_FAMILY
#else
#define BITREV_VECTOR 0
#define BITREV32_FUSED_EDGE 0   /* no fused permutations in this build */
static inline int bitrev_nothing_done(int forward, int family, ...) {
    (void)forward; (void)family;
    return 0;
}
#define BITREV_BY_FAMILY(fn, forward, family, ...) \
    bitrev_nothing_done((forward), (family), __VA_ARGS__)
#endif

static inline int bitrev32_copy(const uint32_t *src, uint32_t *dst, int bits,
                                const uint32_t *rev, size_t m0, size_t m1) {
#if BITREV_VECTOR
    return ntt_simd_bitrev32_body(src, dst, bits, rev, m0, m1);
#else
    (void)src; (void)dst; (void)bits; (void)rev; (void)m0; (void)m1;
    return 0;
#endif
}

static inline int bitrev64_copy(const uint64_t *src, uint64_t *dst, int bits,
                                const uint32_t *rev, size_t m0, size_t m1) {
#if BITREV_VECTOR
    return ntt_simd_bitrev64_body(src, dst, bits, rev, m0, m1);
#else
    (void)src; (void)dst; (void)bits; (void)rev; (void)m0; (void)m1;
    return 0;
#endif
}

static inline int bitrev32_inplace(uint32_t *a, int bits, const uint32_t *rev, size_t m0,
                                   size_t m1, uint32_t fold_p) {
#if BITREV_VECTOR
    return ntt_simd_bitrev32_inplace_body(a, bits, rev, m0, m1, fold_p);
#else
    (void)a; (void)bits; (void)rev; (void)m0; (void)m1; (void)fold_p;
    return 0;
#endif
}

static inline int bitrev64_inplace(uint64_t *a, int bits, const uint32_t *rev, size_t m0,
                                   size_t m1, uint64_t fold_p) {
#if BITREV_VECTOR
    return ntt_simd_bitrev64_inplace_body(a, bits, rev, m0, m1, fold_p);
#else
    (void)a; (void)bits; (void)rev; (void)m0; (void)m1; (void)fold_p;
    return 0;
#endif
}

/* The fused permutations, one copy per family (tw, twq: the stage twiddles of the
 * transform, the forward's for the DIF tail, the inverse's for the DIT head; family
 * etc. as ntt32_small_stages). */

/* bitrev32_inplace of a DIF that stopped before stage 8: the tiles take stages 8, 4,
 * 2, 1 on the way. */
static inline int bitrev32_inplace_dif_tail(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, uint32_t fold_p,
                                            const uint32_t *tw, const uint32_t *twq,
                                            uint32_t p, uint32_t pinv, uint64_t mu,
                                            int family) {
    return BITREV_BY_FAMILY(ntt_edge_walk, 1, family, 1, NULL, a, bits, rev, m0, m1, fold_p,
                            tw, twq, p, pinv, mu, NULL);
}

/* bitrev32_copy (src != dst), then DIT stages 1..8 on dst; max_seen (when not NULL)
 * raised to the largest value of src read (an inverse's input check). */
static inline int bitrev32_copy_dit_head(const uint32_t *src, uint32_t *dst, int bits,
                                         const uint32_t *rev, size_t m0, size_t m1,
                                         const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                         uint32_t pinv, uint64_t mu, int family,
                                         uint64_t *max_seen) {
    return BITREV_BY_FAMILY(ntt_edge_walk, 0, family, 0, src, dst, bits, rev, m0, m1, 0, tw,
                            twq, p, pinv, mu, max_seen);
}

/* In place: bitrev32_inplace (no fold), then DIT stages 1..8. */
static inline int bitrev32_inplace_dit_head(uint32_t *a, int bits, const uint32_t *rev,
                                            size_t m0, size_t m1, const uint32_t *tw,
                                            const uint32_t *twq, uint32_t p, uint32_t pinv,
                                            uint64_t mu, int family) {
    return BITREV_BY_FAMILY(ntt_edge_walk, 0, family, 1, NULL, a, bits, rev, m0, m1, 0, tw,
                            twq, p, pinv, mu, NULL);
}
#endif
