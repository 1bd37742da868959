"""Per-thread scratch buffers for the temporaries of one call.

A product's transform rows that never reach the caller (the second operand, the
per-prime rows of a CRT product) live here and are reused from call to call.
Fresh memory costs a page fault per 4 KiB on first touch, and glibc hands
megabyte-sized blocks back to the kernel when they are freed: with fresh buffers a
polymul at n = 2^17 mod 998244353 spends about a quarter of its time faulting them
in.  Buffers above LIMIT_BYTES are not kept: numpy allocates those on huge pages
(4 MiB and up), so they fault rarely, and holding them would pin a large amount of
memory per thread.

Each thread has its own buffers (threading.local), so concurrent calls from
several Python threads never share one.  A slot hands out one buffer: callers
that need two temporaries at once use two slots.  Never return a scratch view
to a caller: the next call overwrites it.
"""
import threading

import numpy as np

from ntt_cy._support.aligned import aligned_empty

LIMIT_BYTES = 4 << 20
_local = threading.local()


def scratch(slot: str, shape: tuple, dtype) -> np.ndarray:
    """An uninitialised C-contiguous, 64-byte aligned array of `shape` and `dtype`,
    reused per thread and slot when it fits in LIMIT_BYTES (a fresh array otherwise)."""
    views = getattr(_local, "views", None)
    if views is None:
        views = _local.views = {}
    last = views.get(slot)   # (shape, dtype, view): the slot's last view, ~1 us to remake
    if last is not None and last[0] == shape and last[1] == dtype:
        return last[2]
    request = (shape, dtype)
    dtype = np.dtype(dtype)
    nbytes = dtype.itemsize
    for d in shape:
        nbytes *= d
    if nbytes > LIMIT_BYTES:
        return aligned_empty(shape, dtype)
    buffers = getattr(_local, "buffers", None)
    if buffers is None:
        buffers = _local.buffers = {}
    buf = buffers.get(slot)
    if buf is None or buf.nbytes < nbytes:
        # a power of two (<= LIMIT_BYTES), so growing sizes reallocate rarely
        buf = buffers[slot] = aligned_empty(1 << max(nbytes - 1, 1).bit_length(), np.uint8)
    view = buf[:nbytes].view(dtype).reshape(shape)
    views[slot] = request + (view,)
    return view
