# The AVX2 kernel build (with BMI2 and FMA): imported only on CPUs that have them, by
# ntt_cy._support.isa; compile flags in setup.py.
include "build.pxi"
