# AVX512 build of the transform and CRT kernels: only imported when the CPU has AVX512
# (see ntt_cy/_isa.py); compile flags in setup.py.
include "_ntt_impl.pxi"
include "_garner_impl.pxi"
