# The AVX-512 kernel build without IFMA (F, DQ, BW and VL), for AVX-512 CPUs that lack
# it (Skylake-SP, Cascade Lake): uint64 Montgomery with R = 2^64 instead of 2^52.
# Imported only on CPUs that have them, by ntt_cy._support.isa; compile flags in setup.py.
include "build.pxi"
