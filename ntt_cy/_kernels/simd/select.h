/* The one place that decides whether the kernel headers compile their AVX-512 bodies:
 * when the compiler targets AVX-512 (the _ntt_avx512 build, or -march=native on such a
 * CPU), or on the model of the intrinsics in simd/emulated_avx512.h (AVX2 register
 * pairs) when NTT_CY_EMULATE_AVX512 is defined (the _ntt_avx512_emulated build, which
 * the tests run on CPUs without AVX-512).  Each header tests the feature set its bodies use:
 *   NTT_CY_AVX512_BW    AVX512F + BW                (_simd32, _simd_bitrev, _simd_garner)
 *   NTT_CY_AVX512_IFMA  AVX512F + IFMA + DQ         (_simd64)
 */
#ifndef NTT_CY_AVX512_SELECT_H
#define NTT_CY_AVX512_SELECT_H

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

#endif
