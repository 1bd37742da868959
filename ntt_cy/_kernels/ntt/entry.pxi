# The Python-facing transform entry points: TransformTables (a plan's tables in one
# family) and forward / inverse over rows (one small row in one call: row_calls.pxi).

cdef enum:
    # Rows of at least this many values get an Interrupt (interrupts.pxi) when an entry
    # point runs them one after the other or one at a time on all threads: from tens
    # of microseconds of work per row on.  Batches of rows on one thread each run in
    # pieces of ~25 ms (ntt_cy._support.pieces) and need none.
    POLL_MIN_N = 65536
    # The compiled one-row calls (row_calls.pxi) take rows below this length, and
    # attach no Interrupt.  A row of 2^16 values takes 0.1-2 ms on one thread (AVX-512
    # uint32 to the emulated build's uint64 Montgomery), far less than POLL_NS: an
    # entry point's Interrupt would not poll during it either, so Ctrl-C is answered
    # as soon as on the general route.
    ROW_CALL_BELOW = 2 * POLL_MIN_N

ROW_CALL_BELOW_N = ROW_CALL_BELOW


cdef inline bint polls(Py_ssize_t rows, Py_ssize_t n, int threads) noexcept nogil:
    # Whether an entry point gives its rows an Interrupt: rows of POLL_MIN_N values or
    # more that it runs one at a time (not the batches it spreads over threads).
    return n >= POLL_MIN_N and (threads <= 1 or rows < threads)


cdef inline const Tables* interruptible(const Tables* t, Tables* copy,
                                        Interrupt* irq) noexcept nogil:
    # t's tables with irq (started by the caller, interrupt_start) attached: written
    # into *copy.
    copy[0] = t[0]
    copy.irq = irq
    return copy


cdef class TransformTables:
    """Twiddle tables of one plan in one reduction family (owns the arrays)."""
    cdef Tables c
    cdef readonly object arrays   # keeps the numpy buffers alive
    cdef readonly str family
    cdef readonly Py_ssize_t n
    cdef readonly int lane_bytes   # 4 (uint32 lanes) or 8 (uint64)

    def __init__(self, str family, dict modulus, dict arrays, Py_ssize_t n,
                 uint64_t scale, uint64_t scale_q):
        self.family = family
        self.n = n
        self.arrays = arrays
        self.lane_bytes = arrays["fwd_tw"].dtype.itemsize
        self.c.family = FAMILY_CODES[family]
        self.c.mod = modulus
        self.c.fwd = _twiddles(arrays, "fwd_tw")
        self.c.inv = _twiddles(arrays, "inv_tw")
        self.c.twist = _twiddles(arrays, "twist")
        self.c.untwist = _twiddles(arrays, "untwist")
        self.c.bitrev = <const uint32_t*>_pointer(arrays, "bitrev")
        self.c.scale = scale
        self.c.scale_q = scale_q


cdef Twiddles _twiddles(dict arrays, str key) except *:
    # The tables key (family form), key_q (Shoup quotients), key_f and key_fq (the
    # double-precision pair, see ntt64_float_twiddles) of one twiddle set.  The
    # vector kernels read one vector past the stage tables (vec_odd_at_u32).
    cdef Twiddles tw
    for name in (key, key + "_q"):
        if name in arrays and readable_tail(arrays[name]) < TABLE_TAIL_BYTES:
            raise ValueError(f"internal: table {name} needs {TABLE_TAIL_BYTES} readable bytes "
                             "past its end (ntt_cy._support.aligned.aligned_copy's tail)")
    tw.w = _pointer(arrays, key)
    tw.q = _pointer(arrays, key + "_q")
    tw.f = <const double*>_pointer(arrays, key + "_f")
    tw.fq = <const double*>_pointer(arrays, key + "_fq")
    if (tw.f == NULL) != (tw.fq == NULL):
        raise ValueError(f"internal: {key}_f and {key}_fq come together")
    return tw


cdef void* _pointer(dict arrays, str key) except? NULL:
    arr = arrays.get(key)
    if arr is None:
        return NULL
    if not arr.flags.c_contiguous:
        raise ValueError(f"table {key} must be C-contiguous")
    return <void*><size_t>arr.ctypes.data


def forward(const lane_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
            int threads, bint natural, bint reduced=True, bint checked=True):
    """Forward NTT of every row of src into dst (dst may be src); returns the largest
    value of src when dst is not src (0 in place).  # IN/OUT

    checked=False (the caller guarantees src < p) returns 0: the largest value is
    not made a Python int, whose size would depend on it (a secret-dependent branch).

    Callers may skip their own range check when dst is not the caller's memory: a
    returned maximum >= p means dst is meaningless (computed without fault).  On cyclic
    plans the copy made by the first sweep finds the maximum, on negacyclic ones a read
    pass of its own.

    reduced=False (bit-reversed output only) skips the LAZY family's final fold:
    values stay in [0, 2p), which pointwise_mul accepts on uint32 lanes (a*b < 4p^2
    < p*2^32 keeps its Montgomery products exact); other families give [0, p) anyway."""
    if not reduced and natural:
        raise ValueError("reduced=False needs bit-reversed output")
    cdef uint64_t top = 0
    _run(src, dst, tables, threads, natural, True, reduced, &top)
    if not checked:
        return 0
    return top


def inverse(const lane_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
            int threads, bint natural, bint scaled=True, bint checked=True):
    """Inverse NTT of every row of src into dst (dst may be src); normalised unless
    scaled=False (cyclic plans only: the caller applies n^-1 itself).  Returns the
    largest value of src when dst is not src (0 in place), found as src is copied: a
    value >= p means dst is meaningless (computed without fault), as for forward;
    checked=False returns 0, as for forward."""
    if not scaled and tables.c.twist.w != NULL:
        raise ValueError("scaled=False needs a cyclic plan")
    cdef uint64_t top = 0
    _run(src, dst, tables, threads, natural, False, scaled, &top)
    if not checked:
        return 0
    return top


def narrow_to_u32(const uint64_t[::1] src, uint32_t[::1] dst):
    """dst[i] = src[i] cut to 32 bits, in one vectorized pass; returns the largest
    src[i] (one >= p means dst is meaningless: the caller checks the input again, and
    raises or reduces).  The general route's conversion of 8-byte integers (a signed
    one as its unsigned view: negative values read >= 2^63) to uint32 lanes: one pass
    instead of numpy's maximum and its cast."""
    cdef Py_ssize_t n = src.shape[0]
    if dst.shape[0] != n:
        raise ValueError("internal: narrow_to_u32 lengths differ")
    cdef uint64_t top = 0
    if n:
        with nogil:
            top = copy_largest(&src[0], &dst[0], n, 0)
    return top


cdef int _run(const lane_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
              int threads, bint natural, bint is_forward, bint finish,
              uint64_t* largest) except -1:
    # finish: forward -> fold to [0, p) (`reduced`); inverse -> scale by n^-1 (`scaled`).
    # *largest <- the largest value of src when dst is not src (0 in place).  (Through
    # a pointer: a returned value would be tested for the error return, a branch on it.)
    cdef Py_ssize_t rows = src.shape[0], n = src.shape[1], r
    cdef const Tables* t = &tables.c
    if n != tables.n or dst.shape[0] != rows or dst.shape[1] != n:
        raise ValueError("internal: array shape does not match the plan")
    if rows == 0:
        return 0
    cdef const lane_t* s = &src[0, 0]
    cdef lane_t* d = &dst[0, 0]
    # one largest-value slot per thread, kept across the rows that thread does
    cdef uint64_t* seen = _seen_slots(threads)
    cdef uint64_t top = 0
    cdef Tables local
    cdef Interrupt irq
    with nogil:
        if threads > 1 and rows >= threads:   # (batches: pieces of ~25 ms, see plan.py)
            for r in prange(rows, num_threads=threads, schedule="static"):
                if is_forward:
                    forward_row(s + r * n, d + r * n, n, t, 1, natural, finish, seen + SLOT * threadid())
                else:
                    inverse_row(s + r * n, d + r * n, n, t, 1, natural, finish, NULL, 0, False,
                                seen + SLOT * threadid())
        else:
            if polls(rows, n, threads):
                interrupt_start(&irq)
                t = interruptible(t, &local, &irq)
            for r in range(rows):
                if stopping(t.irq, 0):
                    break
                if is_forward:
                    forward_row(s + r * n, d + r * n, n, t, threads, natural, finish, seen)
                else:
                    inverse_row(s + r * n, d + r * n, n, t, threads, natural, finish, NULL, 0,
                                False, seen)
        top = seen_largest(seen, threads)
    free(seen)
    if t.irq != NULL and irq.stop:
        return interrupt_raised()
    largest[0] = top
    return 0
