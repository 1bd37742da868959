/* The uint32-lane entry points the Cython kernels call (ntt/externs.pxi), in every
 * build.  Each runs a vector body, one copy per family and direction: the butterflies
 * and sweeps written once for every ISA (simd/ntt32/vector.h) or the ISA's own
 * (simd/ntt32/avx512.h, simd/ntt32/avx2.h, as simd/select.h picks), and returns how much
 * it did (a count of butterflies, groups or values, or 1 for "all"); the scalar loops
 * of ntt/butterflies.pxi and ntt/passes.pxi do the rest.  In the portable build, and
 * for a body an ISA lacks, an entry point reports 0 (nothing done) and the scalar loops
 * do everything.  Ranges and returns: see the bodies.
 */
#ifndef NTT_CY_SIMD_NTT32_DISPATCH_H
#define NTT_CY_SIMD_NTT32_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

#if defined(NTT_CY_AVX512)
#include "simd/ntt32/avx512.h"
#elif defined(NTT_CY_AVX2)
#include "simd/ntt32/avx2.h"
#else
#define NTT32_TILED_BLOCK 0   /* no tiled order in the portable build */
#endif

/* Radix-2 butterflies j < count of one stage on (x[j], y[j]) with twiddles w[j].
 * from_q: the Shoup families read the quotients wq alone (TWIDDLES_FROM_Q), for a
 * stage whose twiddles come from memory once each. */
static inline size_t ntt32_run(int forward, uint32_t *x, uint32_t *y, const uint32_t *w,
                               const uint32_t *wq, size_t count, uint32_t p, uint32_t pinv,
                               uint64_t mu, int family, int from_q) {
    family = ntt32_family(family, p);
    return from_q ? NTT_BY_FAMILY(vec_u32_run, forward, family, 0, 1, x, y, x, y, w, wq,
                                  count, p, pinv, mu, NULL)
                  : NTT_BY_FAMILY(vec_u32_run, forward, family, 0, 0, x, y, x, y, w, wq,
                                  count, p, pinv, mu, NULL);
}

/* The first sweep of an out-of-place DIF, read from (sx, sy): see vec_u32_run. */
static inline size_t ntt32_run_src(uint32_t *x, uint32_t *y, const uint32_t *sx,
                                   const uint32_t *sy, const uint32_t *w, const uint32_t *wq,
                                   size_t count, uint32_t p, uint32_t pinv, uint64_t mu,
                                   int family, uint64_t *max_seen) {
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(vec_u32_run, 1, family, 1, 0, x, y, sx, sy, w, wq, count, p, pinv,
                         mu, max_seen);
}

/* Radix-4 groups j0 <= j < j1 of the block a[0:2h] (two stages at once); from_q as
 * ntt32_run. */
static inline size_t ntt32_run4(int forward, uint32_t *a, size_t h, size_t j0, size_t j1,
                                const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                uint32_t pinv, uint64_t mu, int family, int from_q) {
    family = ntt32_family(family, p);
    return from_q ? NTT_BY_FAMILY(vec_u32_run4, forward, family, 0, 1, a, a, h, j0, j1, tw,
                                  twq, p, pinv, mu, NULL)
                  : NTT_BY_FAMILY(vec_u32_run4, forward, family, 0, 0, a, a, h, j0, j1, tw,
                                  twq, p, pinv, mu, NULL);
}

/* ntt32_run4's first sweep read from src (laid out as a), as ntt32_run_src. */
static inline size_t ntt32_run4_src(uint32_t *a, const uint32_t *src, size_t h, size_t j0,
                                    size_t j1, const uint32_t *tw, const uint32_t *twq,
                                    uint32_t p, uint32_t pinv, uint64_t mu, int family,
                                    int from_q, uint64_t *max_seen) {
    family = ntt32_family(family, p);
    return from_q ? NTT_BY_FAMILY(vec_u32_run4, 1, family, 1, 1, a, src, h, j0, j1, tw, twq,
                                  p, pinv, mu, max_seen)
                  : NTT_BY_FAMILY(vec_u32_run4, 1, family, 1, 0, a, src, h, j0, j1, tw, twq,
                                  p, pinv, mu, max_seen);
}

/* Most stages ntt32_run_stages takes in one sweep (1 in the portable build: none). */
#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)
#define NTT32_COLUMN_STAGES VEC_U32_COLUMN_STAGES
#else
#define NTT32_COLUMN_STAGES 1
#endif

/* k = 3 .. NTT32_COLUMN_STAGES stages at once on the block a[0:2h], groups j0 <= j < j1 of
 * [0, h / 2^(k-1)), twiddles from their quotients alone in the Shoup families (see
 * vec_u32_run_stages); src != NULL (DIF only): the input is src, laid out as a,
 * *max_seen raised to the largest value read.  0 for any other k. */
static inline size_t ntt32_run_stages(int forward, int k, uint32_t *a, const uint32_t *src,
                                      size_t h, size_t j0, size_t j1, const uint32_t *tw,
                                      const uint32_t *twq, uint32_t p, uint32_t pinv,
                                      uint64_t mu, int family, uint64_t *max_seen) {
/* the sweep of K (a literal) stages: from src, or in place */
#define NTT32_RUN_STAGES(K)                                                              \
    (src ? NTT_BY_FAMILY(vec_u32_run_stages, 1, family, 1, 1, K, a, src, h, j0, j1, tw,    \
                         twq, p, pinv, mu, max_seen)                                       \
         : NTT_BY_FAMILY(vec_u32_run_stages, forward, family, 0, 1, K, a, a, h, j0, j1, tw, \
                         twq, p, pinv, mu, NULL))
#if NTT32_COLUMN_STAGES >= 3
    family = ntt32_family(family, p);
    if (k == 3)
        return NTT32_RUN_STAGES(3);
#endif
#if NTT32_COLUMN_STAGES >= 4
    if (k == 4)
        return NTT32_RUN_STAGES(4);
#endif
#undef NTT32_RUN_STAGES
    (void)forward; (void)k; (void)a; (void)src; (void)h; (void)j0; (void)j1; (void)tw;
    (void)twq; (void)p; (void)pinv; (void)mu; (void)family; (void)max_seen;
    return 0;
}

/* The first two DIF stages of a zero-padded row, read straight from its source (reduced
 * mod p with reduce_src, times scale mod p unless scale is 0); from_q as ntt32_run4. */
static inline size_t ntt32_run4_padded(uint32_t *a, size_t h, size_t j0, size_t j1,
                                       const uint32_t *src32, const uint64_t *src64,
                                       size_t n_src, const uint32_t *tw, const uint32_t *twq,
                                       uint32_t p, uint32_t pinv, uint64_t mu, int family,
                                       int from_q, int reduce_src, uint32_t scale,
                                       uint32_t scale_q, uint64_t *max_seen) {
    family = ntt32_family(family, p);
    return from_q ? NTT_BY_FAMILY(vec_u32_run4_padded, 1, family, 1, a, h, j0, j1, src32,
                                  src64, n_src, tw, twq, p, pinv, mu, reduce_src, scale,
                                  scale_q, max_seen)
                  : NTT_BY_FAMILY(vec_u32_run4_padded, 1, family, 0, a, h, j0, j1, src32,
                                  src64, n_src, tw, twq, p, pinv, mu, reduce_src, scale,
                                  scale_q, max_seen);
}

/* The four stages at the bit-reversed end (DIF h = 8, 4, 2, 1; DIT 1, 2, 4, 8) in
 * registers; 1 when done. */
static inline int ntt32_small_stages(int forward, uint32_t *a, size_t size, const uint32_t *tw,
                                     const uint32_t *twq, uint32_t p, uint32_t pinv,
                                     uint64_t mu, int family) {
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(VEC_ISA(u32_small_stages), forward, family, a, size, tw, twq, p,
                         pinv, mu);
}

/* The same stages in padded_product's tiled order, on blocks of NTT32_TILED_BLOCK values
 * (0: no tiled order in this build); 1 when done. */
static inline int ntt32_small_stages_tiled(int forward, uint32_t *a, size_t size,
                                           const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                           uint32_t pinv, uint64_t mu, int family) {
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(VEC_ISA(u32_small_stages_tiled), forward, family, a, size, tw, twq,
                         p, pinv, mu);
}

/* dst[i] = src[i] w[i] (the negacyclic twists): AVX-512 builds only (in the AVX2 build
 * gcc vectorises the scalar loops). */
static inline size_t ntt32_times(const uint32_t *src, uint32_t *dst, const uint32_t *w,
                                 const uint32_t *wq, size_t count, uint32_t p, uint32_t pinv,
                                 uint64_t mu, int family, int fold) {
#if defined(NTT_CY_AVX512)
    family = ntt32_family(family, p);
    return NTT_BY_FAMILY(vec_u32_twist, 1, family, src, dst, w, wq, count, p, pinv, mu, fold);
#else
    (void)src; (void)dst; (void)w; (void)wq; (void)count; (void)p; (void)pinv; (void)mu;
    (void)family; (void)fold;
    return 0;
#endif
}

/* a[i] <- a[i] c mod p for a LAZY DIT's output (the cyclic inverse's n^-1). */
static inline size_t ntt32_scale_lazy(uint32_t *a, size_t count, uint32_t c, uint32_t cq,
                                      uint32_t p) {
    return NTT_VECTOR_CALL(vec_u32_scale_lazy, a, count, c, cq, p);
}

/* out[i] = a[i] b[i] c 2^-64 mod p (Montgomery, p odd). */
static inline size_t ntt32_pointwise(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                     size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                     int lazy_out) {
    return NTT_VECTOR_CALL(VEC_ISA(u32_pointwise), a, b, out, count, p, pinv, c, lazy_out);
}
#endif
