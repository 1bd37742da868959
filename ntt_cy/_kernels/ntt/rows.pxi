# Whole transforms of one row: the forward (DIF, natural in, bit-reversed out) and the
# inverse (DIT) with their loads, permutations and finishes, on one thread or split
# over an OpenMP team.

cdef inline bint fused_edge(lane_t* a, Py_ssize_t n, Py_ssize_t c) noexcept nogil:
    # Whether a natural-order transform leaves the four stages at its bit-reversed end
    # (the forward's last, h = 8..1; the inverse's first, h = 1..8) to its permutation
    # (simd/bitrev/): uint32 lanes in builds that have it, whole 16 x 16 tiles (n >= 256)
    # and chunks that keep those stages out of the large sweeps (c >= 16).  With the
    # in-register shuffles of ntt32_small_stages they are the dearest stages per
    # butterfly; in the permutation they pair whole vectors and take no pass of their
    # own.
    if lane_t is uint32_t:
        return BITREV32_FUSED_EDGE != 0 and n >= 256 and c >= 16
    else:
        return False


cdef inline bint tiled_order(lane_t* a, Py_ssize_t n, int threads) noexcept nogil:
    # Whether padded_product keeps its transforms in the tiled order
    # (ntt32_small_stages_tiled: bit-reversed order with each block's segments
    # transposed, 8 x 16 quadrant by quadrant in AVX2 builds, 16 x 16 in AVX-512 ones,
    # whose small stages pair whole vectors).  uint32 lanes in builds that have it, and
    # every schedule of the call (rows on one thread each: chunk_size(n, 1); one row on
    # all threads: chunk_size(n, threads)) running its small stages on whole chunks of
    # at least a block.
    if lane_t is uint32_t:
        return (NTT32_TILED_BLOCK != 0 and n >= 256
                and chunk_size(n, threads) >= NTT32_TILED_BLOCK)
    else:
        return False


cdef void forward_part(const lane_t* src, lane_t* dst, Py_ssize_t n, Py_ssize_t c,
                       const Tables* t, bint natural, bint reduced, uint64_t* seen, int part,
                       int parts) noexcept nogil:
    # DIF from src into dst (the first sweep makes the copy, see dif_schedule): bit-
    # reversed order; natural order by one in-place tile permutation that also folds
    # LAZY's [0, 2p).  DIF rather than a permuted copy then DIT: the DIF is the faster
    # of the two here, and the fold rides on the permutation.  *seen (src != dst only): raised to
    # the largest value of this part's share of src, by the first sweep's copy or, for
    # negacyclic plans, a read pass of its own.
    cdef Py_ssize_t lo = n * part // parts, hi = n * (part + 1) // parts
    cdef bint tail = natural and fused_edge(dst, n, c)
    if t.twist.w != NULL and src != dst:
        max_range(src, lo, hi, seen)
    if t.twist.w != NULL:   # negacyclic: the twist pass makes the copy
        load_forward(src, dst, lo, hi, t)
        src = dst
        if parts > 1:
            ntt_cy_barrier()
    # reduced, bit-reversed: each chunk folded as it is finished; natural: the
    # permutation folds (else LAZY leaves [0, 2p), see forward())
    dif_schedule(dst, n, c, part, parts, t, n >> 1, src, seen,
                 SMALL_IN_PERMUTATION if tail else SMALL_SHUFFLED, reduced and not natural)
    if natural:
        if parts > 1:
            ntt_cy_barrier()
        bit_reverse_inplace(dst, n, t, True, part, parts, EDGE_DIF_TAIL if tail else EDGE_NONE)


# The natural-order inverse of a row of at least this many bytes from a separate
# source copies it straight into dst, then permutes dst in place (as the forward
# does), instead of gathering tiles from the source (permute_copy): past the L2 the
# gather's reads and writes, 16 rows of a tile in 16 pages on each side, are slower
# than a sequential copy plus the in-place swap (from 2 MiB rows on, uint32 and uint64
# alike; below that the gather is as fast or faster).
cdef enum:
    GATHER_MAX_BYTES = 1 << 21


cdef void inverse_part(const lane_t* src, lane_t* dst, Py_ssize_t n, Py_ssize_t c,
                       const Tables* t, bint natural, bint scaled, const lane_t* mb, lane_t mc,
                       int part, int parts, bint tiled, uint64_t* seen) noexcept nogil:
    # mb != NULL (bit-reversed order, src == dst): the transform of dst * mb * mc.
    # tiled (not natural): src in padded_product's tiled order (tiled_order).  seen !=
    # NULL (src != dst): *seen raised to the largest value of src as it is copied.
    cdef Py_ssize_t lo = n * part // parts, hi = n * (part + 1) // parts
    cdef int edge = EDGE_DIT_HEAD if natural and mb == NULL and fused_edge(dst, n, c) else EDGE_NONE
    if natural and src != dst and n * <Py_ssize_t>sizeof(lane_t) < GATHER_MAX_BYTES:
        permute_copy(src, dst, n, t, part, parts, edge, seen)
    else:
        # this caller's share copied as it is (nothing in place), then, in natural
        # order, the in-place permutation (rows of GATHER_MAX_BYTES or more: a straight
        # copy first)
        if seen != NULL and src != dst:
            copy_max(src + lo, dst + lo, hi - lo, seen)
        else:
            copy_range(src, dst, lo, hi)
        if natural:
            if parts > 1 and src != dst:
                ntt_cy_barrier()
            bit_reverse_inplace(dst, n, t, False, part, parts, edge)
    if mb != NULL and c < 2:   # no chunk stages to carry the product (n = 1)
        product_for_dit(dst + lo, mb + lo, hi - lo, t, mc)
        mb = NULL
    if parts > 1:
        ntt_cy_barrier()
    if dit_schedule(dst, n, c, part, parts, t, &t.inv,
                    FINISH_SCALE if scaled else FINISH_FOLD, mb, mc,
                    SMALL_IN_PERMUTATION if edge == EDGE_DIT_HEAD
                    else SMALL_TILED if tiled else SMALL_SHUFFLED):
        return
    if parts > 1:
        ntt_cy_barrier()
    if stopping(t.irq, part):
        return
    if scaled:
        finish_inverse(dst, lo, hi, t)
    else:
        fold_lazy_dit(dst, lo, hi, t)


cdef void forward_row(const lane_t* src, lane_t* dst, Py_ssize_t n, const Tables* t,
                      int threads, bint natural, bint reduced, uint64_t* seen) noexcept nogil:
    # seen: _seen_slots(threads), one largest-value slot per thread.
    cdef Py_ssize_t c = chunk_size(n, threads)
    if threads == 1:
        forward_part(src, dst, n, c, t, natural, reduced, seen, 0, 1)
    else:
        with parallel(num_threads=threads):
            forward_part(src, dst, n, c, t, natural, reduced, seen + SLOT * threadid(), threadid(),
                         threads)


cdef void padded_first_pass(const source_t* src, Py_ssize_t n_src, lane_t* a, Py_ssize_t n,
                            Py_ssize_t j0, Py_ssize_t j1, const Tables* t, bint reduce_src,
                            uint32_t scale, uint32_t scale_q, uint64_t* max_seen) noexcept nogil:
    # DIF stages n/2 and n/4 of a = src[0:n_src] zero-padded to n (n_src <= n/2),
    # groups j0 <= j < j1 of [0, n/4): straight from src in the vector code (the
    # padded copy is never written or read back), else by writing the padded values
    # and running the usual butterflies.  reduce_src: src values (any, uint32 or
    # uint64) are reduced mod p as they are read.  scale != 0 (uint32 lanes, p < 2^31;
    # scale < p, scale_q = floor(scale 2^32 / p)): every value is also multiplied by
    # scale mod p.  *max_seen: raised to the largest value read (before any
    # reduction).  A row longer than a chunk reads the Shoup families' twiddles from
    # their quotients alone (from_q, see ntt32_run4): the pass streams its 3n/4
    # twiddles (6n bytes with the quotients) once per operand, beside the source and
    # the n values it writes, and waits on that traffic more than on the product that
    # rebuilds each w (a CRT product's six padded passes run faster so on the AVX2 and
    # AVX-512 builds).
    cdef Py_ssize_t h = n >> 1, q = n >> 2, j
    cdef bint from_q = n > CHUNK
    cdef uint64_t v0, v1
    if lane_t is uint32_t:
        if source_t is uint32_t:
            j0 += ntt32_run4_padded(a, h, j0, j1, src, NULL, n_src,
                                    <const uint32_t*>t.fwd.w, <const uint32_t*>t.fwd.q,
                                    <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv,
                                    t.mod.barrett_mu, t.family, from_q, reduce_src,
                                    scale, scale_q, max_seen)
        else:
            j0 += ntt32_run4_padded(a, h, j0, j1, NULL, src, n_src,
                                    <const uint32_t*>t.fwd.w, <const uint32_t*>t.fwd.q,
                                    <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv,
                                    t.mod.barrett_mu, t.family, from_q, reduce_src,
                                    scale, scale_q, max_seen)
    if j0 >= j1:
        return
    for j in range(j0, j1):
        v0 = src[j] if j < n_src else 0
        v1 = src[j + q] if j + q < n_src else 0
        max_seen[0] = max64(max64(max_seen[0], v0), v1)
        if reduce_src and not (scale and source_t is uint32_t):
            v0 %= t.mod.p
            v1 %= t.mod.p
        if scale:   # any 32-bit value (uint32 sources), else below p or meaningless
            v0 = shoup_fold31(<uint32_t>v0, scale, scale_q, <uint32_t>t.mod.p)
            v1 = shoup_fold31(<uint32_t>v1, scale, scale_q, <uint32_t>t.mod.p)
        a[j] = <lane_t>v0
        a[j + q] = <lane_t>v1
        a[j + h] = 0
        a[j + h + q] = 0
    dif_run4(a, h, j0, j1, t)


cdef void forward_padded_part(const source_t* src, Py_ssize_t n_src, lane_t* a, Py_ssize_t n,
                              Py_ssize_t c, const Tables* t, bint reduced, bint reduce_src,
                              uint32_t scale, uint32_t scale_q, uint64_t* max_seen, int part,
                              int parts, bint tiled) noexcept nogil:
    # reduce_src, scale, scale_q: how the source is read (padded_first_pass).  (With an
    # Interrupt, t.irq, the first pass runs in pieces of POLL_PIECE groups.)
    cdef Py_ssize_t q = n >> 2
    cdef Py_ssize_t j = split(q, part, parts), j1 = split(q, part + 1, parts)
    cdef Py_ssize_t piece = POLL_PIECE if t.irq != NULL else j1 - j
    while j < j1 and not stopping(t.irq, part):
        padded_first_pass(src, n_src, a, n, j, j + piece if j + piece < j1 else j1, t,
                          reduce_src, scale, scale_q, max_seen)
        j += piece
    if parts > 1:
        ntt_cy_barrier()
    dif_schedule(a, n, c, part, parts, t, n >> 3, a, NULL,
                 SMALL_TILED if tiled else SMALL_SHUFFLED, reduced)


cdef void inverse_row(const lane_t* src, lane_t* dst, Py_ssize_t n, const Tables* t,
                      int threads, bint natural, bint scaled, const lane_t* mb,
                      lane_t mc, bint tiled, uint64_t* seen) noexcept nogil:
    # scaled=False (cyclic only) leaves out the factor n^-1, for callers that fold it
    # into a pointwise product; the result is still reduced to [0, p).  seen: NULL, or
    # _seen_slots(threads) (see inverse_part).
    cdef Py_ssize_t c = chunk_size(n, threads)
    if threads == 1:
        inverse_part(src, dst, n, c, t, natural, scaled, mb, mc, 0, 1, tiled, seen)
    else:
        with parallel(num_threads=threads):
            inverse_part(src, dst, n, c, t, natural, scaled, mb, mc, threadid(), threads, tiled,
                         seen + SLOT * threadid() if seen != NULL else NULL)
