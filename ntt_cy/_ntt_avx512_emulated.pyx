# The AVX512 kernel bodies on a model of their intrinsics (_avx512_emulated.h):
# never chosen by default; NTT_CY_ISA=avx512_emulated selects it, so the tests check
# the AVX512 code on CPUs without AVX512 (see ntt_cy/_isa.py).  Compile flags in setup.py.
include "_ntt_impl.pxi"
include "_garner_impl.pxi"
