"""The transform kernels' Cython sources (included by build.pxi) and their .pxd
declarations (arith32, arith64, single_row)."""
