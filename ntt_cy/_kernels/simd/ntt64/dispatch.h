/* The uint64-lane entry points the Cython kernels call (ntt/externs.pxi), in every
 * build, and the modulus record they take (ntt64_params, filled by
 * ntt/butterflies.pxi's simd64_params).
 *
 * Vector builds run the integer kernels of simd/ntt64/vector.h for every family
 * (MONTGOMERY with R = 2^52 for odd p < 2^52 where the build has IFMA, R = 2^64
 * otherwise), one copy per family, and the ISA's own stages at the bit-reversed end
 * (simd/ntt64/avx512_ifma.h, simd/ntt64/avx2.h), and GOLDILOCKS's chunk stages by
 * radix-64 groups (simd/ntt64/goldilocks.h).  AVX2 builds run LAZY in double
 * precision instead for p below NTT64_FLOAT_P_MAX, from the balanced twiddles `wf` and
 * `wf / p` (`wfq`) the plan builds where ntt64_float_twiddles says so.  Each entry
 * point returns how much it did (a count, or 1 for "all"); the scalar loops do the
 * rest.  In the portable build each reports 0 (nothing done).  Ranges: see the bodies.
 */
#ifndef NTT_CY_SIMD_NTT64_DISPATCH_H
#define NTT_CY_SIMD_NTT64_DISPATCH_H
#include <stdint.h>
#include <stddef.h>
#include "simd/families.h"

/* The modulus as the uint64 kernels need it. */
typedef struct {
    uint64_t p;
    uint64_t pinv;           /* MONTGOMERY52: -p^-1 mod 2^52; MONTGOMERY64: p^-1 mod 2^64 */
    uint64_t barrett_d;      /* BARRETT: p << shift (top bit set) */
    uint64_t barrett_v;      /* BARRETT: floor((2^128 - 1) / d) - 2^64 */
    int barrett_shift;       /* BARRETT: clz(p) */
    int family;              /* NTT_MONTGOMERY52, NTT_MONTGOMERY64, NTT_BARRETT, NTT_LAZY or
                              * NTT_GOLDILOCKS */
} ntt64_params;

#if defined(NTT_CY_AVX512)
#include "simd/ntt64/avx512_ifma.h"
#elif defined(NTT_CY_AVX2)
#include "simd/ntt64/avx2.h"
#endif
/* Whether the build runs GOLDILOCKS by radix-64 groups (and the plan should build
 * their tables, laid out as simd/ntt64/goldilocks_layout.h says in every build). */
#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)
#define NTT64_GOLDILOCKS_GROUPS 1
#include "simd/ntt64/goldilocks.h"
#else
#define NTT64_GOLDILOCKS_GROUPS 0
#include "simd/ntt64/goldilocks_layout.h"
#endif

/* The Montgomery radix bits of the uint64 kernels for p: the plan's tables and the
 * scalar loops follow them. */
static inline int ntt64_montgomery_bits(uint64_t p) {
#if defined(NTT_CY_AVX512_IFMA)
    return (p & 1) && p < ((uint64_t)1 << 52) ? 52 : 64;
#else
    (void)p;
    return 64;
#endif
}

/* Whether the plan should build the double-precision twiddle tables for p. */
static inline int ntt64_float_twiddles(uint64_t p) {
#if defined(NTT_CY_AVX2)
    return avx2_f64_takes_p(p);
#else
    (void)p;
    return 0;
#endif
}

/* Radix-2 butterflies j < count of one stage. */
static inline size_t ntt64_run(int forward, uint64_t *x, uint64_t *y, const uint64_t *w,
                               const uint64_t *wq, const double *wf, const double *wfq,
                               size_t count, const ntt64_params *prm) {
#if defined(NTT_CY_AVX2)
    if (avx2_f64_takes(prm, wf))
        return avx2_f64_run(forward, x, y, wf, wfq, count, prm->p);
#endif
    (void)wf; (void)wfq;
    NTT64_BY_FAMILY(vec_u64_run, prm->family, forward, x, y, w, wq, count, prm)
}

/* Radix-4 groups j0 <= j < j1 of the block a[0:2h] (two stages at once). */
static inline size_t ntt64_run4(int forward, uint64_t *a, size_t h, size_t j0, size_t j1,
                                const uint64_t *tw, const uint64_t *twq, const double *twf,
                                const double *twfq, const ntt64_params *prm) {
#if defined(NTT_CY_AVX2)
    if (avx2_f64_takes(prm, twf))
        return avx2_f64_run4(forward, a, h, j0, j1, twf, twfq, prm->p);
#endif
    (void)twf; (void)twfq;
    NTT64_BY_FAMILY(vec_u64_run4, prm->family, forward, a, h, j0, j1, tw, twq, prm)
}

/* Most stages ntt64_run_stages takes in one sweep for this family and these double
 * tables (2 where there is no such sweep: the column pass then runs radix-4): three on
 * AVX-512 and for AVX2's LAZY in double precision (AVX2's integer families, whose
 * butterflies need more registers, take radix-4 sweeps). */
static inline int ntt64_column_stages(const ntt64_params *prm, const double *twf) {
#if defined(NTT_CY_AVX512)
    (void)prm; (void)twf;
    return VEC_U64_COLUMN_STAGES;
#elif defined(NTT_CY_AVX2)
    return avx2_f64_takes(prm, twf) ? AVX2_F64_COLUMN_STAGES : 2;
#else
    (void)prm; (void)twf;
    return 2;
#endif
}

/* k = ntt64_column_stages stages (3) at once on the block a[0:2h], groups j0 <= j < j1 of
 * [0, h / 4) (vec_u64_run_stages, avx2_f64_run_stages); 0 for any other k. */
static inline size_t ntt64_run_stages(int forward, int k, uint64_t *a, size_t h, size_t j0,
                                      size_t j1, const uint64_t *tw, const uint64_t *twq,
                                      const double *twf, const double *twfq,
                                      const ntt64_params *prm) {
#if defined(NTT_CY_AVX512)
    (void)twf; (void)twfq;
    if (k == VEC_U64_COLUMN_STAGES)
        NTT64_BY_FAMILY(vec_u64_run_stages, prm->family, forward, VEC_U64_COLUMN_STAGES, a, h,
                        j0, j1, tw, twq, prm)
#elif defined(NTT_CY_AVX2)
    (void)tw; (void)twq;
    if (k == AVX2_F64_COLUMN_STAGES && avx2_f64_takes(prm, twf))
        return avx2_f64_run_stages(forward, a, h, j0, j1, twf, twfq, prm->p);
#else
    (void)tw; (void)twq; (void)twf; (void)twfq;
#endif
    (void)forward; (void)k; (void)a; (void)h; (void)j0; (void)j1; (void)prm;
    return 0;
}

/* The last three DIF stages (h = 4, 2, 1) or first three DIT stages in registers, on
 * 16 values at a time on AVX-512, 8 on AVX2 (16 in double precision); 1 when done. */
static inline int ntt64_small_stages(int forward, uint64_t *a, size_t size, const uint64_t *tw,
                                     const uint64_t *twq, const double *twf,
                                     const double *twfq, const ntt64_params *prm) {
#if defined(NTT_CY_AVX512)
    (void)twf; (void)twfq;
    if (size < 16 || (size & 15))
        return 0;
    NTT64_BY_FAMILY(avx512_u64_small_stages, prm->family, forward, a, size, tw, twq, prm)
#elif defined(NTT_CY_AVX2)
    if (size < 8 || (size & 7))
        return 0;
    if (avx2_f64_takes(prm, twf))
        return avx2_f64_small_stages(forward, a, size, twf, twfq, prm->p);
    NTT64_BY_FAMILY(avx2_u64_small_stages, prm->family, forward, a, size, tw, twq, prm)
#else
    (void)forward; (void)a; (void)size; (void)tw; (void)twq; (void)twf; (void)twfq; (void)prm;
    return 0;
#endif
}

/* GOLDILOCKS: every stage h = half .. 1 of a[0:size] by radix-64 groups
 * (simd/ntt64/goldilocks.h), DIF forward, DIT inverse; `groups` the family's group
 * tables of tw's direction.  1 when done. */
static inline int ntt64_goldilocks_stages(int forward, uint64_t *a, size_t size, size_t half,
                                          const uint64_t *tw, const uint64_t *groups,
                                          const ntt64_params *prm) {
#if NTT64_GOLDILOCKS_GROUPS
    return gl_stages(forward, a, size, half, tw, groups, prm);
#else
    (void)forward; (void)a; (void)size; (void)half; (void)tw; (void)groups; (void)prm;
    return 0;
#endif
}

/* out[i] = a[i] b[i] f mod p for odd p, Montgomery's constant c carrying f. */
static inline size_t ntt64_pointwise(const uint64_t *a, const uint64_t *b, uint64_t *out,
                                     size_t count, uint64_t c, const ntt64_params *prm) {
#if defined(NTT_CY_AVX2)
    if ((prm->p & 1) && prm->family == NTT_MONTGOMERY64 && avx2_f64_takes_p(prm->p))
        return avx2_f64_pointwise(a, b, out, count, c, prm);
#endif
    return NTT_VECTOR_CALL(vec_u64_pointwise, a, b, out, count, c, prm);
}

/* dst[i] = src[i] w[i] mod p (LAZY, the negacyclic twists): the AVX2 build's double
 * precision only (elsewhere the scalar loops). */
static inline size_t ntt64_times(const uint64_t *src, uint64_t *dst, const double *wf,
                                 const double *wfq, size_t count, int fold,
                                 const ntt64_params *prm) {
#if defined(NTT_CY_AVX2)
    return avx2_f64_twist(src, dst, wf, wfq, count, fold, prm);
#else
    (void)src; (void)dst; (void)wf; (void)wfq; (void)count; (void)fold; (void)prm;
    return 0;
#endif
}

/* a[i] = a[i] c mod p (LAZY: the cyclic inverse's n^-1): the AVX2 build's double
 * precision only. */
static inline size_t ntt64_scale(uint64_t *a, size_t count, uint64_t c,
                                 const ntt64_params *prm) {
#if defined(NTT_CY_AVX2)
    return avx2_f64_scale(a, count, c, prm);
#else
    (void)a; (void)count; (void)c; (void)prm;
    return 0;
#endif
}
#endif
