cimport numpy as cnp

# aligned_empty for C callers: a builtin dtype's typenum and itemsize, page_offset a
# multiple of 64 below 4096, tail >= 0 (see ntt_cy/_support/aligned.pyx).
cdef cnp.ndarray aligned_new(int ndim, cnp.npy_intp* dims, int typenum, size_t itemsize,
                             size_t page_offset, size_t tail)
