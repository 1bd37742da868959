/* The reduction families' codes, shared by the C kernels and Cython (ntt/types.pxi reads
 * them with `cdef extern from "simd/families.h"`), and the macros that give every
 * vector body one specialised copy per family (and none in the portable build).
 *
 * Families and the ranges their butterflies keep (L = lane bits; the scalar code is in
 * ntt/butterflies.pxi, ntt/arith32.pxd, ntt/arith64.pxd):
 *   NTT_MONTGOMERY  values in [0, p); twiddles w R mod p; p odd.  R = 2^L, or 2^52 for
 *                   the uint64 IFMA kernels (NTT_MONTGOMERY52 / NTT_MONTGOMERY64 below).
 *   NTT_BARRETT     values in [0, p); twiddles plain; any p < 2^L.
 *   NTT_LAZY        Harvey's butterflies with Shoup twiddles: DIF values in [0, 2p), DIT
 *                   values in [0, 4p), one correction at the end; needs 4p <= 2^L.
 *   NTT_GOLDILOCKS  (uint64 lanes) p = 2^64 - 2^32 + 1 only: values in [0, p), twiddles
 *                   plain; a product's 128 bits reduce with 2^64 = 2^32 - 1 and 2^96 = -1
 *                   (mod p) by adds, subtractions and shifts (simd/ntt64/vector.h); the
 *                   chunk stages by radix-64 groups, most twiddles shifts
 *                   (simd/ntt64/goldilocks.h).
 *   NTT_SHOUP31     (uint32 lanes) the LAZY tables for 2^30 <= p < 2^31, where [0, 4p)
 *                   no longer fits: values in [0, p) in both directions, each Shoup
 *                   product ([0, 2p), exact since 2p <= 2^32) folded once; sums and
 *                   differences by one unsigned min (2p <= 2^32).  The vector bodies
 *                   take it where the Cython kernels pass NTT_LAZY with such a p
 *                   (ntt32_family); the scalar loops are ntt/butterflies.pxi's
 *                   *_run_shoup31.
 *
 * The SIMD headers (simd/) and their names:
 *   select.h                  which vector ISA the build compiles for (NTT_CY_AVX512,
 *                             NTT_CY_AVX512_IFMA, NTT_CY_AVX2, or none: portable)
 *   families.h                this file
 *   vector_ops.h              the vector-op layer: vec_t, the build's vector, and the
 *                             operations on it, vec_<op>_u32 / vec_<op>_u64 by lane width
 *                             (one definition per ISA; avx2_unsigned.h holds AVX2's
 *                             unsigned compares; emulated_avx512.h models AVX-512 on AVX2)
 *   <concern>/dispatch.h      the entry points Cython calls, named by concern and lane
 *                             width: ntt32_*, ntt64_*, bitrev32_*, bitrev64_*,
 *                             garner32_*; each returns how much its vector body did, 0
 *                             (nothing done) in the portable build
 *   <concern>/vector.h        kernels written once over vector_ops.h for every ISA:
 *                             vec_u32_* and vec_u64_* by lane width (vec_garner32_* for the
 *                             reconstruction, which uses both)
 *   <concern>/avx512*.h, avx2.h   bodies where the algorithm is an ISA's own, named for
 *                             it: avx512_u32_*, avx2_u32_* (32-bit lanes), avx512_u64_*,
 *                             avx2_u64_* (64-bit integer lanes), avx2_f64_* (the AVX2
 *                             uint64 kernels that compute in double precision), avx512_* /
 *                             avx2_* (either width); VEC_ISA(name) names the build's one
 *   lane_tables.h             the index tables of the AVX-512 in-register small stages
 * Concerns: ntt32 and ntt64 (butterflies and sweeps by lane width), bitrev (the
 * bit-reversal permutation, with the edge stages fused in), garner (the CRT
 * reconstruction of crt/garner_rows.pxi).
 */
#ifndef NTT_CY_SIMD_FAMILIES_H
#define NTT_CY_SIMD_FAMILIES_H
#include <stdint.h>
#include "simd/select.h"   /* the ISA the dispatch macros below serve */

enum {
    NTT_MONTGOMERY = 0,
    NTT_BARRETT = 1,
    NTT_LAZY = 2,
    /* The uint64 vector kernels tell MONTGOMERY's two radices apart: R = 2^52 (IFMA,
     * odd p < 2^52; the same code as NTT_MONTGOMERY) and R = 2^64. */
    NTT_MONTGOMERY52 = NTT_MONTGOMERY,
    NTT_MONTGOMERY64 = 3,
    NTT_SHOUP31 = 4,
    NTT_GOLDILOCKS = 5
};

/* The one modulus NTT_GOLDILOCKS serves. */
#define NTT_GOLDILOCKS_P UINT64_C(0xFFFFFFFF00000001)

/* Families whose twiddles come with Shoup quotients (the LAZY tables). */
#define NTT_SHOUP_TWIDDLES(family) ((family) == NTT_LAZY || (family) == NTT_SHOUP31)

/* The uint32 vector bodies' family for the tables' `family` and p: LAZY's tables with
 * 2^30 <= p < 2^31 run as NTT_SHOUP31. */
static inline int ntt32_family(int family, uint32_t p) {
    return family == NTT_LAZY && p >= (1u << 30) ? NTT_SHOUP31 : family;
}

#if defined(NTT_CY_AVX512) || defined(NTT_CY_AVX2)
/* fn(forward, family, ...) with both as literals: one copy of fn's loop per pair, so
 * gcc folds the family tests out of the butterflies (with the family a run-time value
 * it kept them inside). */
#define NTT_BY_FAMILY(fn, forward, family, ...)                                         \
    ((family) == NTT_LAZY                                                              \
         ? ((forward) ? fn(1, NTT_LAZY, __VA_ARGS__) : fn(0, NTT_LAZY, __VA_ARGS__))   \
     : (family) == NTT_SHOUP31                                                         \
         ? ((forward) ? fn(1, NTT_SHOUP31, __VA_ARGS__)                                \
                      : fn(0, NTT_SHOUP31, __VA_ARGS__))                               \
     : (family) == NTT_MONTGOMERY                                                      \
         ? ((forward) ? fn(1, NTT_MONTGOMERY, __VA_ARGS__)                             \
                      : fn(0, NTT_MONTGOMERY, __VA_ARGS__))                            \
         : ((forward) ? fn(1, NTT_BARRETT, __VA_ARGS__) : fn(0, NTT_BARRETT, __VA_ARGS__)))

/* A statement: return fn(..., family) with the uint64 family code as a literal (one copy
 * of fn's loop per family; MONTGOMERY52 only where the build has IFMA), 0 for a code
 * the build has no kernel for. */
#if defined(NTT_CY_AVX512_IFMA)
#define NTT64_MONTGOMERY52_CASE(fn, ...) \
    case NTT_MONTGOMERY52: return fn(__VA_ARGS__, NTT_MONTGOMERY52);
#else
#define NTT64_MONTGOMERY52_CASE(fn, ...)
#endif
#define NTT64_BY_FAMILY(fn, family, ...)                                   \
    switch (family) {                                                      \
    case NTT_LAZY: return fn(__VA_ARGS__, NTT_LAZY);                       \
    case NTT_MONTGOMERY64: return fn(__VA_ARGS__, NTT_MONTGOMERY64);       \
    case NTT_BARRETT: return fn(__VA_ARGS__, NTT_BARRETT);                 \
    case NTT_GOLDILOCKS: return fn(__VA_ARGS__, NTT_GOLDILOCKS);           \
    NTT64_MONTGOMERY52_CASE(fn, __VA_ARGS__)                               \
    default: return 0;                                                     \
    }

/* fn(...): a vector body (NTT_NOTHING_DONE in the portable build). */
#define NTT_VECTOR_CALL(fn, ...) fn(__VA_ARGS__)

#else
/* The portable build has no vector bodies: an entry point written over these macros
 * reports 0 done without naming its body (its arguments taken and dropped, inlined to
 * 0), and the scalar loops do the work. */
static inline int ntt_nothing_done(int first, ...) {
    (void)first;
    return 0;
}
#define NTT_BY_FAMILY(fn, forward, family, ...) \
    ntt_nothing_done((forward), (family), __VA_ARGS__)
#define NTT64_BY_FAMILY(fn, family, ...) return ntt_nothing_done((family), __VA_ARGS__);
#define NTT_VECTOR_CALL(fn, ...) ntt_nothing_done(0, __VA_ARGS__)
#endif

#endif
