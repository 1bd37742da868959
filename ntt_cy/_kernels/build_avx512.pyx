# The AVX-512 kernel build (F, DQ, BW, VL and IFMA): imported only on CPUs that have
# them, by ntt_cy._support.isa; compile flags in setup.py.
include "build.pxi"
