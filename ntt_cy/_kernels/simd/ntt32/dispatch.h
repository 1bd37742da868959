/* The uint32-lane entry points the Cython kernels call (ntt/externs.pxi), in every
 * build.  Each runs the vector body of the ISA simd/select.h picks (simd/ntt32/avx512.h
 * or simd/ntt32/avx2.h), one copy per family and direction, and returns how much it
 * did (a count of butterflies, groups or values, or 1 for "all"); the scalar loops of
 * ntt/butterflies.pxi and ntt/passes.pxi do the rest.  In the portable build, and for
 * a body an ISA lacks, an entry point reports 0 (nothing done) and the scalar loops do
 * everything.  Ranges and returns: see the bodies.
 */
#ifndef NTT_CY_SIMD_NTT32_DISPATCH_H
#define NTT_CY_SIMD_NTT32_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

#if defined(NTT_CY_AVX512_BW)
#include "simd/ntt32/avx512.h"
#elif defined(NTT_CY_AVX2)
#include "simd/ntt32/avx2.h"
#endif

#if defined(NTT_CY_AVX512_BW) || defined(NTT_CY_AVX2)
#define NTT32_BY_FAMILY NTT_BY_FAMILY
#else
/* No vector bodies: every entry point written over NTT32_BY_FAMILY reports 0 done
 * without naming its body (the arguments taken and dropped, inlined to 0). */
static inline int ntt32_nothing_done(int forward, int family, ...) {
    (void)forward; (void)family;
    return 0;
}
#define NTT32_BY_FAMILY(fn, forward, family, ...) \
    ntt32_nothing_done((forward), (family), __VA_ARGS__)
#define NTT32_TILED_BLOCK 0   /* no tiled order */
#endif

/* Radix-2 butterflies j < count of one stage on (x[j], y[j]) with twiddles w[j]. */
static inline size_t ntt32_run(int forward, uint32_t *x, uint32_t *y, const uint32_t *w,
                               const uint32_t *wq, size_t count, uint32_t p, uint32_t pinv,
                               uint64_t mu, int family) {
    return NTT32_BY_FAMILY(ntt_simd32_run_body, forward, family, 0, x, y, x, y, w, wq, count,
                           p, pinv, mu, NULL);
}

/* The first sweep of an out-of-place DIF, read from (sx, sy): see ntt_simd32_run_body. */
static inline size_t ntt32_run_src(uint32_t *x, uint32_t *y, const uint32_t *sx,
                                   const uint32_t *sy, const uint32_t *w, const uint32_t *wq,
                                   size_t count, uint32_t p, uint32_t pinv, uint64_t mu,
                                   int family, uint64_t *max_seen) {
    return NTT32_BY_FAMILY(ntt_simd32_run_body, 1, family, 1, x, y, sx, sy, w, wq, count, p,
                           pinv, mu, max_seen);
}

/* Radix-4 groups j0 <= j < j1 of the block a[0:2h] (two stages at once). */
static inline size_t ntt32_run4(int forward, uint32_t *a, size_t h, size_t j0, size_t j1,
                                const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                uint32_t pinv, uint64_t mu, int family) {
    return NTT32_BY_FAMILY(ntt_simd32_run4_body, forward, family, 0, a, a, h, j0, j1, tw, twq,
                           p, pinv, mu, NULL);
}

/* ntt32_run4's first sweep read from src (laid out as a), as ntt32_run_src. */
static inline size_t ntt32_run4_src(uint32_t *a, const uint32_t *src, size_t h, size_t j0,
                                    size_t j1, const uint32_t *tw, const uint32_t *twq,
                                    uint32_t p, uint32_t pinv, uint64_t mu, int family,
                                    uint64_t *max_seen) {
    return NTT32_BY_FAMILY(ntt_simd32_run4_body, 1, family, 1, a, src, h, j0, j1, tw, twq, p,
                           pinv, mu, max_seen);
}

/* The first two DIF stages of a zero-padded row, read straight from its source. */
static inline size_t ntt32_run4_padded(uint32_t *a, size_t h, size_t j0, size_t j1,
                                       const uint32_t *src32, const uint64_t *src64,
                                       size_t n_src, const uint32_t *tw, const uint32_t *twq,
                                       uint32_t p, uint32_t pinv, uint64_t mu, int family,
                                       int reduce_src, uint64_t *max_seen) {
    return NTT32_BY_FAMILY(ntt_simd32_run4_padded_body, 1, family, a, h, j0, j1, src32, src64,
                           n_src, tw, twq, p, pinv, mu, reduce_src, max_seen);
}

/* The four stages at the bit-reversed end (DIF h = 8, 4, 2, 1; DIT 1, 2, 4, 8) in
 * registers; 1 when done. */
static inline int ntt32_small_stages(int forward, uint32_t *a, size_t size, const uint32_t *tw,
                                     const uint32_t *twq, uint32_t p, uint32_t pinv,
                                     uint64_t mu, int family) {
    return NTT32_BY_FAMILY(ntt_simd32_small_stages_body, forward, family, a, size, tw, twq, p,
                           pinv, mu);
}

/* The same stages in padded_product's tiled order, on blocks of NTT32_TILED_BLOCK values
 * (0: no tiled order in this build); 1 when done. */
static inline int ntt32_small_stages_tiled(int forward, uint32_t *a, size_t size,
                                           const uint32_t *tw, const uint32_t *twq, uint32_t p,
                                           uint32_t pinv, uint64_t mu, int family) {
    return NTT32_BY_FAMILY(ntt_simd32_tiled_body, forward, family, a, size, tw, twq, p, pinv,
                           mu);
}

/* dst[i] = src[i] w[i] (the negacyclic twists): AVX-512 only. */
static inline size_t ntt32_times(const uint32_t *src, uint32_t *dst, const uint32_t *w,
                                 const uint32_t *wq, size_t count, uint32_t p, uint32_t pinv,
                                 uint64_t mu, int family, int fold) {
#if defined(NTT_CY_AVX512_BW)
    return NTT_BY_FAMILY(ntt_v32_times_body, 1, family, src, dst, w, wq, count, p, pinv, mu,
                         fold);
#else
    (void)src; (void)dst; (void)w; (void)wq; (void)count; (void)p; (void)pinv; (void)mu;
    (void)family; (void)fold;
    return 0;
#endif
}

/* a[i] <- a[i] c mod p for a LAZY DIT's output (the cyclic inverse's n^-1). */
static inline size_t ntt32_scale_lazy(uint32_t *a, size_t count, uint32_t c, uint32_t cq,
                                      uint32_t p) {
#if defined(NTT_CY_AVX512_BW) || defined(NTT_CY_AVX2)
    return ntt_simd32_scale_lazy_body(a, count, c, cq, p);
#else
    (void)a; (void)count; (void)c; (void)cq; (void)p;
    return 0;
#endif
}

/* out[i] = a[i] b[i] c 2^-64 mod p (Montgomery, p odd). */
static inline size_t ntt32_pointwise(const uint32_t *a, const uint32_t *b, uint32_t *out,
                                     size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                     int lazy_out) {
#if defined(NTT_CY_AVX512_BW) || defined(NTT_CY_AVX2)
    return ntt_simd32_pointwise_body(a, b, out, count, p, pinv, c, lazy_out);
#else
    (void)a; (void)b; (void)out; (void)count; (void)p; (void)pinv; (void)c; (void)lazy_out;
    return 0;
#endif
}
#endif
