# The portable kernel build (x86-64 baseline, or any CPU): the SIMD headers compile no
# vector bodies and the scalar loops do the work.  Chosen by ntt_cy._support.isa.
include "build.pxi"
