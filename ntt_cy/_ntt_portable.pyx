# Portable build of the transform and CRT kernels (x86-64 baseline / any CPU).
# _ntt_avx2.pyx and _ntt_avx512.pyx compile the same source with wider ISAs;
# ntt_cy/_isa.py picks one at import time.
include "_ntt_impl.pxi"
include "_garner_impl.pxi"
