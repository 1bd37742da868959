/* The one place that decides which vector ISA a build's SIMD headers compile for, and
 * the inline discipline they share.  One vector ISA per build, for every concern:
 *
 *   NTT_CY_AVX512       AVX512F + BW + DQ: where the compiler targets them (the
 *                       build_avx512 module, or -march=native on such a CPU), or on the
 *                       model of the intrinsics in simd/emulated_avx512.h (AVX2 register
 *                       pairs) when NTT_CY_EMULATE_AVX512 is defined (the
 *                       build_avx512_emulated module, which the tests run on CPUs
 *                       without AVX-512).
 *   NTT_CY_AVX512_IFMA  NTT_CY_AVX512 with IFMA as well: the uint64 Montgomery kernels
 *                       with R = 2^52.
 *   NTT_CY_AVX2         AVX2 + FMA where there is no NTT_CY_AVX512 (build_avx2).
 *   neither             the portable build: every entry point of simd/<concern>/dispatch.h
 *                       reports that it did nothing, and the scalar Cython loops do all
 *                       the work.
 */
#ifndef NTT_CY_SIMD_SELECT_H
#define NTT_CY_SIMD_SELECT_H

/* The vector helpers are forced inline: gcc otherwise keeps some of them (the
 * butterflies) out of line in the large kernel modules, and every call then passes its
 * registers through memory. */
#ifndef NTT_INLINE
#define NTT_INLINE static inline __attribute__((always_inline))
#endif

#if defined(NTT_CY_EMULATE_AVX512)
#include "simd/emulated_avx512.h"
#define NTT_CY_AVX512 1
#define NTT_CY_AVX512_IFMA 1
#elif defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#include <immintrin.h>
#define NTT_CY_AVX512 1
#if defined(__AVX512IFMA__)
#define NTT_CY_AVX512_IFMA 1
#endif
#elif defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define NTT_CY_AVX2 1
#endif

#endif
