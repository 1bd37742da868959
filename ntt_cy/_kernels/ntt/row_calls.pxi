# One row transformed in one compiled call: transform_row (a row and a plan's tables),
# and the fast paths of NTTPlan.forward / inverse (plan_row_call) and of ntt / intt
# (cached_row_call), which also read the call's arguments here.  The Python layers of a
# general call cost ~4 us, more than the butterflies of n = 256..4096 and a third of
# those of n = 2^14; rows below ROW_CALL_BELOW_N (entry.pxi) come here, on the threads
# the caller resolved.  Every check reads a header; whatever one does not accept gives None
# (nothing is written then, except a separate `out` when a value >= p was found): the
# general route then converts, checks and raises as always.

cdef bint writable_row(object out, int lanes, uint64_t p, Py_ssize_t n) noexcept:
    # Whether `out` takes a row of n results in [0, p) written straight by the kernels:
    # an ndarray (no subclass), 1-D of length n, C-contiguous, aligned, writable,
    # native order, integers of the lanes' width that hold [0, p) (unsigned; signed up
    # to p = 2^(bits-1), the rule of ntt_cy._support.checks.holds_residues).
    if not cnp.PyArray_CheckExact(out):
        return False
    cdef cnp.ndarray arr = <cnp.ndarray>out
    if cnp.PyArray_NDIM(arr) != 1 or cnp.PyArray_DIM(arr, 0) != n \
            or not cnp.PyArray_ISCARRAY(arr) or not cnp.PyArray_ISINTEGER(arr) \
            or cnp.PyArray_ITEMSIZE(arr) != lanes:
        return False
    return not cnp.PyArray_ISSIGNED(arr) or p <= (<uint64_t>1 << (8 * lanes - 1))


cdef object row_transform(object x, TransformTables tables, bint is_forward, bint checked,
                          bint natural, object out, int threads):
    # transform_row's work (see there).
    cdef const Tables* t = &tables.c
    cdef uint64_t limit   # x's values lie in [0, p) when the largest lane is below it
    cdef int width = row_width(x, t.mod.p, &limit), lanes = tables.lane_bytes
    cdef Py_ssize_t n = tables.n
    if width == 0 or cnp.PyArray_DIM(<cnp.ndarray>x, 0) != n or n >= ROW_CALL_BELOW:
        return None   # (longer rows: the general route, whose Interrupt polls for signals)
    cdef const char* src = <const char*>cnp.PyArray_DATA(<cnp.ndarray>x)
    cdef cnp.npy_intp length = n
    cdef cnp.ndarray result
    if out is None:
        result = aligned_new(1, &length, cnp.NPY_UINT32 if lanes == 4 else cnp.NPY_UINT64,
                             lanes, 0, 0)
    elif writable_row(out, lanes, t.mod.p, n):
        result = <cnp.ndarray>out
    else:
        return None
    cdef char* dst = <char*>cnp.PyArray_DATA(result)
    cdef bint in_place = <const char*>dst == src
    if out is not None and not in_place and dst < src + n * width and src < dst + n * lanes:
        return None   # (a partial overlap: the general route refuses it)
    if in_place and width != lanes:
        return None
    cdef uint64_t one_slot[SLOT]
    cdef uint64_t* seen = one_slot   # the kernels' largest-value slots, one per thread
    cdef uint64_t top = 0
    try:
        seen = seen_slots_for(threads, one_slot)
        if width != lanes:
            # in place, the kernels' own report of the largest value is not one of x's
            load_lanes(src, width, n, dst, lanes, 1, &top, checked)
            if checked and top >= limit:
                return None
            src = dst
        elif in_place and checked:   # (out is x: its values are checked before any is overwritten)
            if largest_lane(src, width, n) >= limit:
                return None
        with nogil:
            if lanes == 4 and is_forward:
                forward_row(<const uint32_t*>src, <uint32_t*>dst, n, t, threads, natural, True,
                            seen)
            elif lanes == 4:
                inverse_row(<const uint32_t*>src, <uint32_t*>dst, n, t, threads, natural, True,
                            NULL, 0, False, seen)
            elif is_forward:
                forward_row(<const uint64_t*>src, <uint64_t*>dst, n, t, threads, natural, True,
                            seen)
            else:
                inverse_row(<const uint64_t*>src, <uint64_t*>dst, n, t, threads, natural, True,
                            NULL, 0, False, seen)
        # (checked=False: the values are never compared)
        if checked and src != dst and seen_largest(seen, threads) >= limit:
            return None
    finally:
        free_seen_slots(seen, one_slot)
    if out is None and width != lanes and not cnp.PyArray_ISSIGNED(<cnp.ndarray>x) \
            and (width == 8 or t.mod.p <= (<uint64_t>1 << 32)):
        return result.astype((<cnp.ndarray>x).dtype)   # (a uint32 / uint64 input keeps its dtype)
    return result


def transform_row(x, TransformTables tables, bint is_forward, bint checked=True,
                  bint natural=True, out=None, int threads=1):
    """The forward transform (values in [0, p); natural order, or bit-reversed with
    natural=False) or the normalised inverse (of natural or, natural=False,
    bit-reversed input) of one row of n < ROW_CALL_BELOW_N values, on `threads`
    threads (as the caller resolved them: 1 below PARALLEL_MIN_ELEMENTS), straight
    from the caller's 1-D array into a fresh 64-byte aligned result, or into `out`
    (which may be x itself).

    The result's dtype: the lanes', except a uint32 / uint64 x of the other width
    that holds [0, p), which keeps its own (result_dtype's rule).  None (nothing
    returned) when x is not an array row_width takes at the tables' lane width, has
    another length than n, or holds a value >= p, or when `out` is not a row
    writable_row takes or overlaps x without being it (the general route then
    raises).  An array of the other width is first copied into the result, checked,
    and transformed there in place; x as `out` is checked before it is transformed in
    place.  checked=False (the caller guarantees x < p): the values are not compared
    with p at all, so that nothing branches on them; a value >= p then gives a
    meaningless result."""
    return row_transform(x, tables, is_forward, checked, natural, out, threads)


def plan_row_call(x, out, TransformTables tables, bint is_forward, bit_reversed,
                  assume_reduced, axis, int threads=1):
    """NTTPlan.forward / inverse(x, out=out, bit_reversed=..., assume_reduced=...,
    axis=axis) with the plan's default tables on `threads` threads, or None for the
    general route: the flags must be Python bools and axis the int -1 or 0 (anything
    else, the general route checks), then transform_row."""
    return row_call(x, out, tables, is_forward, bit_reversed, assume_reduced, axis, threads)


cdef object row_call(x, out, TransformTables tables, bint is_forward, bit_reversed,
                     assume_reduced, axis, int threads):
    # plan_row_call's work (see there).
    if (bit_reversed is not True and bit_reversed is not False) \
            or (assume_reduced is not True and assume_reduced is not False) \
            or not (type(axis) is int and (axis == -1 or axis == 0)):
        return None
    return row_transform(x, tables, is_forward, assume_reduced is False,
                         bit_reversed is False, out, threads)


def cached_row_call(x, p, kind, dict tables_by_key, bint is_forward, out, assume_reduced,
                    axis, reduction, workers):
    """ntt / intt(x, p, kind=kind, out=out, assume_reduced=..., axis=axis,
    reduction=reduction, workers=workers) with the default plan's tables found in
    tables_by_key under (len(x), p, kind), or None for the general route: x a 1-D
    ndarray, p an int and kind a str (exactly: a float p equal to an int must not
    find its tables), reduction the str "auto", workers None or an int in [1, 1024]
    (ntt_cy._support.threads.MAX_WORKERS; these rows are below the size that uses more
    than one thread: ntt_cy.plan.remember_row_tables keeps no longer ones), tables
    present, then plan_row_call's checks and transform_row."""
    if not cnp.PyArray_CheckExact(x) or cnp.PyArray_NDIM(<cnp.ndarray>x) != 1 \
            or type(p) is not int or type(kind) is not str \
            or not (workers is None or type(workers) is int and 1 <= workers <= 1024) \
            or type(reduction) is not str or reduction != "auto":
        return None
    tables = tables_by_key.get((cnp.PyArray_DIM(<cnp.ndarray>x, 0), p, kind))
    if tables is None:
        return None
    return row_call(x, out, <TransformTables>tables, is_forward, False, assume_reduced, axis,
                    1)


def cached_product_call(a, b, m, kind, dict prepared, assume_reduced):
    """polymul(a, b, m, kind=kind, assume_reduced=...) of two 1-D ndarrays through the
    product prepared for them, found in `prepared` under (len(a), len(b), m, kind)
    (ntt_cy/_single_row.py), or None for polymul's other routes: a and b 1-D
    ndarrays, m an int and kind a str (exactly: a float m equal to an int must not
    find a product), assume_reduced a Python bool, a product prepared (not None),
    then its own checks (product(a, b, checked) returns None for what it does not
    read)."""
    if not cnp.PyArray_CheckExact(a) or cnp.PyArray_NDIM(<cnp.ndarray>a) != 1 \
            or not cnp.PyArray_CheckExact(b) or cnp.PyArray_NDIM(<cnp.ndarray>b) != 1 \
            or type(m) is not int or type(kind) is not str \
            or (assume_reduced is not True and assume_reduced is not False):
        return None
    product = prepared.get((cnp.PyArray_DIM(<cnp.ndarray>a, 0), cnp.PyArray_DIM(<cnp.ndarray>b, 0),
                            m, kind))
    if product is None:
        return None
    return product.product(a, b, assume_reduced is False)
