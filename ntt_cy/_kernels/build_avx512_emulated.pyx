# The AVX-512 kernel bodies on a model of their intrinsics (simd/emulated_avx512.h),
# for AVX2 CPUs: never chosen by default, only by NTT_CY_ISA=avx512_emulated, so the
# tests run the AVX-512 code bit for bit on machines without AVX-512.  Compile flags in
# setup.py.
include "build.pxi"
