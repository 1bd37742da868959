"""The compiled kernels: one build per ISA (build_<isa>, from build.pxi), the one the
ISA choice picked (active), the element-wise reductions, the schoolbook products and the
CRT helpers (crt/)."""
