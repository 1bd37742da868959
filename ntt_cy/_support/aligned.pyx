"""Arrays whose data start on a 64-byte boundary, and where in a page they start.

numpy only promises 16-byte alignment (large blocks come from mmap at a page
offset of 16).  The AVX-512 kernels load and store whole 64-byte vectors, so on
16-byte aligned rows every access straddles two cache lines (a 2^16 transform takes
~25% longer with data and tables offset by 16 bytes, same C code).  Every array the kernels sweep (twiddle tables, transform rows,
scratch buffers, results) is allocated here.

Page placement.  A radix-4 group reads four rows of data q elements apart and
three twiddles (and three Shoup quotients) from stages whose tables start at
multiples of a page: for the large stages all of them sit at one offset within
a 4 KiB page, i.e. in one set of the 8-way L1 (and of the L2 for 64 KiB
multiples).  Ten lines in one set thrash it.  So the arrays of at least a page
start where this module puts them: data (PAGE_DATA) at the start of a page, the
stage twiddles (PAGE_TWIDDLES) and their quotients (PAGE_QUOTIENTS) a quarter and
three quarters into one.  With these placements radix-4 sweeps over 2^17 values run at
the speed of L1-resident data (uint32 LAZY; ~40% slower with data and tables at one
page offset).

Readable tails.  The AVX2 uint32 butterflies load a twiddle vector's odd-lane
quotients one element further on (ntt_w32_twiddle_at), so the last vector of a
stage table reads one element past it: twiddle tables are allocated with
TABLE_TAIL_BYTES readable past their end (aligned_empty's `tail`), which
TransformTables checks (readable_tail).
"""
import operator

import numpy as np

cimport numpy as cnp

cnp.import_array()

DEF ALIGN_BYTES = 64
DEF PAGE_BYTES = 4096
ALIGN = ALIGN_BYTES
PAGE = PAGE_BYTES
PAGE_DATA = 0
PAGE_TWIDDLES = 1024
PAGE_QUOTIENTS = 3072
PAGE_ELEMENTWISE = 2048   # per-element tables (twists), read alongside data only
TABLE_TAIL_BYTES = 64     # one vector of the widest ISA
NPY_MAX_INTP = np.iinfo(np.intp).max
DEF MAX_DIMS = 32         # numpy's NPY_MAXDIMS (64 since numpy 2; 32 is plenty here)


def aligned_empty(shape, dtype, page_offset=PAGE_DATA, tail=0) -> np.ndarray:
    """np.empty(shape, dtype), C-contiguous, data on an ALIGN-byte boundary (a view
    of a slightly larger byte buffer, which it keeps alive as its base).  Arrays of
    at least a page start `page_offset` bytes (a multiple of ALIGN) into a page; the
    buffer has at least `tail` bytes past the array's end (readable_tail)."""
    dtype = np.dtype(dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    cdef int ndim = len(shape), k
    if ndim > MAX_DIMS:
        raise ValueError(f"at most {MAX_DIMS} dimensions, got {ndim}")
    cdef cnp.npy_intp dims[MAX_DIMS]
    nbytes = dtype.itemsize
    for k in range(ndim):
        dims[k] = operator.index(shape[k])
        if dims[k] < 0:
            raise ValueError(f"negative dimensions are not allowed, got {shape}")
        nbytes *= dims[k]
    if page_offset % ALIGN_BYTES:
        raise ValueError(f"page_offset must be a multiple of {ALIGN_BYTES}, got {page_offset}")
    if tail < 0:
        raise ValueError(f"tail must be >= 0, got {tail}")
    if nbytes + PAGE_BYTES + page_offset % PAGE_BYTES + tail > NPY_MAX_INTP:
        # (the C sums below would wrap)
        raise ValueError(f"array too large: {nbytes} bytes, tail {tail}")
    if dtype.isbuiltin == 1 and not dtype.hasobject:
        return aligned_new(ndim, dims, dtype.num, dtype.itemsize, page_offset % PAGE_BYTES, tail)
    cdef cnp.ndarray raw = _aligned_bytes(nbytes, page_offset % PAGE_BYTES, tail)
    cdef size_t start = _start(raw, nbytes, page_offset % PAGE_BYTES)
    return raw[start:start + nbytes].view(dtype).reshape(shape)


cdef cnp.ndarray aligned_new(int ndim, cnp.npy_intp* dims, int typenum, size_t itemsize,
                             size_t page_offset, size_t tail):
    # aligned_empty for a builtin dtype (typenum, itemsize) and its checked arguments,
    # for C callers as well (the single-row transforms' results).  A view made through
    # the C API: 0.4 us, where slicing, viewing and reshaping the bytes took 1.5 us (a
    # quarter of a small transform's call).
    cdef size_t nbytes = itemsize
    cdef int k
    for k in range(ndim):
        nbytes *= dims[k]
    cdef cnp.ndarray raw = _aligned_bytes(nbytes, page_offset, tail)
    cdef cnp.ndarray out = cnp.PyArray_SimpleNewFromData(
        ndim, dims, typenum, <char*>cnp.PyArray_DATA(raw) + _start(raw, nbytes, page_offset))
    cnp.set_array_base(out, raw)
    return out


cdef cnp.ndarray _aligned_bytes(size_t nbytes, size_t page_offset, size_t tail):
    # The uint8 buffer of an aligned array of nbytes (see _start for where it begins).
    cdef size_t boundary = PAGE_BYTES if nbytes >= PAGE_BYTES else ALIGN_BYTES
    cdef cnp.npy_intp total = nbytes + boundary + (page_offset if nbytes >= PAGE_BYTES else 0) \
        + tail
    return cnp.PyArray_EMPTY(1, &total, cnp.NPY_UINT8, 0)


cdef size_t _start(cnp.ndarray raw, size_t nbytes, size_t page_offset):
    # The offset into raw of an array of nbytes: on an ALIGN boundary, and for arrays of
    # at least a page, page_offset bytes into a page.  The address straight from the
    # array struct: raw.ctypes.data builds a ctypes object (~0.9 us, half the cost of
    # a small transform's call).
    cdef size_t boundary = PAGE_BYTES if nbytes >= PAGE_BYTES else ALIGN_BYTES
    cdef size_t offset = page_offset if nbytes >= PAGE_BYTES else 0
    return (boundary - <size_t>cnp.PyArray_DATA(raw) % boundary) % boundary + offset


def aligned_copy(a: np.ndarray, page_offset=PAGE_DATA, tail=0) -> np.ndarray:
    """A C-contiguous, ALIGN-byte aligned copy of a, placed as aligned_empty places it."""
    out = aligned_empty(a.shape, a.dtype, page_offset, tail)
    out[...] = a
    return out


def readable_tail(a: np.ndarray) -> int:
    """Bytes of the buffer that owns a's memory past a's end (0 when a owns it, or
    its owner is not an array)."""
    owner = a.base
    if not isinstance(owner, np.ndarray) or owner.base is not None:
        return 0
    cdef size_t end = <size_t>cnp.PyArray_DATA(a) + a.nbytes
    cdef size_t owner_end = <size_t>cnp.PyArray_DATA(owner) + owner.nbytes
    return owner_end - end if owner_end > end else 0
