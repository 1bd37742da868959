"""Arrays whose data start on a 64-byte boundary (compiled: see aligned_empty).

numpy only promises 16-byte alignment (large blocks come from mmap at a page
offset of 16).  The AVX-512 kernels load and store whole 64-byte vectors, so on
16-byte aligned rows every access straddles two cache lines: measured here, a
2^16 transform took 109 us instead of 88 us (same C code, data and tables offset
by 16 bytes).  Every array the kernels sweep (twiddle tables, transform rows,
scratch buffers, results) is allocated here.
"""
import numpy as np

cimport numpy as cnp

cnp.import_array()

DEF ALIGN_BYTES = 64
ALIGN = ALIGN_BYTES


def aligned_empty(shape, dtype) -> np.ndarray:
    """np.empty(shape, dtype), C-contiguous, data on an ALIGN-byte boundary (a view
    of a slightly larger byte buffer, which it keeps alive as its base)."""
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    nbytes = dtype.itemsize
    for d in shape:
        nbytes *= d
    cdef cnp.ndarray raw = np.empty(nbytes + ALIGN, np.uint8)
    # the address straight from the array struct: raw.ctypes.data builds a ctypes
    # object (~0.9 us, half the cost of a small transform's call)
    cdef size_t start = (ALIGN_BYTES - <size_t>cnp.PyArray_DATA(raw) % ALIGN_BYTES) % ALIGN_BYTES
    return raw[start:start + nbytes].view(dtype).reshape(shape)


def aligned_copy(a: np.ndarray) -> np.ndarray:
    """A C-contiguous, ALIGN-byte aligned copy of a."""
    out = aligned_empty(a.shape, a.dtype)
    out[...] = a
    return out
