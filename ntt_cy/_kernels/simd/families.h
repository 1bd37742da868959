/* The reduction families' codes, shared by the C kernels and Cython (ntt/types.pxi reads
 * them with `cdef extern from "simd/families.h"`), and the macros that give every
 * vector body one specialised copy per family.
 *
 * Families and the ranges their butterflies keep (L = lane bits; the scalar code is in
 * ntt/butterflies.pxi, ntt/arith32.pxd, ntt/arith64.pxd):
 *   NTT_MONTGOMERY  values in [0, p); twiddles w R mod p; p odd.  R = 2^L, or 2^52 for
 *                   the uint64 IFMA kernels (NTT_MONTGOMERY52 / NTT_MONTGOMERY64 below).
 *   NTT_BARRETT     values in [0, p); twiddles plain; any p < 2^L.
 *   NTT_LAZY        Harvey's butterflies with Shoup twiddles: DIF values in [0, 2p), DIT
 *                   values in [0, 4p), one correction at the end; needs 4p <= 2^L.
 */
#ifndef NTT_CY_SIMD_FAMILIES_H
#define NTT_CY_SIMD_FAMILIES_H
#include "simd/select.h"   /* NTT_CY_AVX512_IFMA for NTT64_BY_FAMILY */

enum {
    NTT_MONTGOMERY = 0,
    NTT_BARRETT = 1,
    NTT_LAZY = 2,
    /* The uint64 vector kernels tell MONTGOMERY's two radices apart: R = 2^52 (IFMA,
     * odd p < 2^52; the same code as NTT_MONTGOMERY) and R = 2^64. */
    NTT_MONTGOMERY52 = NTT_MONTGOMERY,
    NTT_MONTGOMERY64 = 3
};

/* fn(forward, family, ...) with both as literals: one copy of fn's loop per pair, so
 * gcc folds the family tests out of the butterflies (with the family a run-time value
 * it kept them inside). */
#define NTT_BY_FAMILY(fn, forward, family, ...)                                         \
    ((family) == NTT_LAZY                                                              \
         ? ((forward) ? fn(1, NTT_LAZY, __VA_ARGS__) : fn(0, NTT_LAZY, __VA_ARGS__))   \
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
    NTT64_MONTGOMERY52_CASE(fn, __VA_ARGS__)                               \
    default: return 0;                                                     \
    }

#endif
