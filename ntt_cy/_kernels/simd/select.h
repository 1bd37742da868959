/* The one place that decides which vector bodies a build's SIMD headers compile, and
 * the inline discipline they share.
 *
 * AVX-512 bodies: where the compiler targets AVX-512 (the build_avx512 module, or
 * -march=native on such a CPU), or on the model of the intrinsics in
 * simd/emulated_avx512.h (AVX2 register pairs) when NTT_CY_EMULATE_AVX512 is defined
 * (the build_avx512_emulated module, which the tests run on CPUs without AVX-512).
 * AVX2 bodies: where the compiler targets AVX2 and no AVX-512 body is compiled.
 * Neither (the portable build): every entry point of simd/<concern>/dispatch.h reports
 * that it did nothing, and the scalar Cython loops do all the work.
 *
 *   NTT_CY_AVX512_BW    AVX512F + BW           (uint32 butterflies, bit reversal, Garner)
 *   NTT_CY_AVX512_IFMA  AVX512F + IFMA + DQ    (uint64 butterflies)
 *   NTT_CY_AVX2         AVX2, no AVX512_BW     (uint32 butterflies, bit reversal, Garner)
 *   NTT_CY_AVX2_FMA     AVX2 + FMA, no IFMA    (uint64 butterflies)
 */
#ifndef NTT_CY_SIMD_SELECT_H
#define NTT_CY_SIMD_SELECT_H

/* The vector helpers are forced inline: gcc otherwise keeps some of them (the
 * butterflies) out of line in the large kernel modules, and every call then passes its
 * registers through memory (a 2^18 transform ~20% slower than the same code inlined). */
#ifndef NTT_INLINE
#define NTT_INLINE static inline __attribute__((always_inline))
#endif

#if defined(NTT_CY_EMULATE_AVX512)
#include "simd/emulated_avx512.h"
#define NTT_CY_AVX512_BW 1
#define NTT_CY_AVX512_IFMA 1
#elif defined(__AVX512F__)
#include <immintrin.h>
#if defined(__AVX512BW__)
#define NTT_CY_AVX512_BW 1
#endif
#if defined(__AVX512IFMA__) && defined(__AVX512DQ__)
#define NTT_CY_AVX512_IFMA 1
#endif
#endif

#if defined(__AVX2__)
#include <immintrin.h>
#if !defined(NTT_CY_AVX512_BW)
#define NTT_CY_AVX2 1
#endif
#if defined(__FMA__) && !defined(NTT_CY_AVX512_IFMA)
#define NTT_CY_AVX2_FMA 1
#endif
#endif

#endif
