# Stage schedules: which stages run together over which ranges (cache-sized chunks,
# L1 sub-blocks, the large passes over the whole row), and how threads share them.

cdef enum:
    # How a schedule runs the four stages at the bit-reversed end of a transform (the
    # forward's last, h = 8..1; the inverse's first): in registers with the segments'
    # halves shuffled (bit-reversed order), in padded_product's tiled order
    # (tiled_order), or not at all: the natural-order permutation runs them (fused_edge).
    SMALL_SHUFFLED = 0
    SMALL_TILED = 1
    SMALL_IN_PERMUTATION = 2


cdef inline Py_ssize_t lowest_half(int small) noexcept nogil:
    # The smallest half-length a schedule's own stages take: 16 when the permutation
    # runs the four below it, else 1.
    return 16 if small == SMALL_IN_PERMUTATION else 1


cdef void dif_stages(lane_t* a, Py_ssize_t size, Py_ssize_t half_hi,
                     const Tables* t, int small) noexcept nogil:
    # All stages with half-length half_hi, half_hi/2, ..., 1 on a[0:size], the last four
    # as `small` says (down to 16 only for SMALL_IN_PERMUTATION).  Stages whose blocks
    # exceed an L1 sub-block sweep a[0:size]; then each sub-block takes all of its
    # remaining stages before the next one is touched.
    cdef Py_ssize_t half = half_hi, s, blk = L1_BLOCK_BYTES // sizeof(lane_t)
    cdef Py_ssize_t lowest = lowest_half(small)
    if small == SMALL_SHUFFLED and simd_goldilocks_stages(1, a, size, half_hi, t, &t.fwd):
        return
    if size > blk and half_hi >= blk:
        while half >= blk:
            if half >= 2 * blk:
                for s in range(size // (2 * half)):
                    dif_run4(a + 2 * half * s, half, 0, half >> 1, t)
                half >>= 2
            else:
                for s in range(size // (2 * half)):
                    dif_run(a + 2 * half * s, half, 0, half, t)
                half >>= 1
        for s in range(size // blk):
            dif_stages(a + blk * s, blk, half, t, small)
        return
    while half >= lowest:
        if half == small_half(a) and simd_small_stages(1, a, size, t, &t.fwd,
                                                       small == SMALL_TILED):
            return
        if half >= 4 * small_half(a):  # two stages at once; at most one radix-2 before the tail
            for s in range(size // (2 * half)):
                dif_run4(a + 2 * half * s, half, 0, half >> 1, t)
            half >>= 2
            continue
        for s in range(size // (2 * half)):
            dif_run(a + 2 * half * s, half, 0, half, t)
        half >>= 1


cdef void dit_stages(lane_t* a, Py_ssize_t size, Py_ssize_t half_hi, const Tables* t,
                     const Twiddles* tw, const lane_t* mb,
                     lane_t mc, int small) noexcept nogil:
    # All stages with half-length 1, 2, ..., half_hi on a[0:size], the first four as
    # `small` says (from 16 on only for SMALL_IN_PERMUTATION); sub-blocks of L1 size
    # first, each through all of its stages (see dif_stages).  mb != NULL: first
    # a[i] <- a[i] mb[i] mc (pointwise_span), one L1 block at a time, so the product
    # never makes a pass of its own over memory.
    cdef Py_ssize_t half = lowest_half(small)
    cdef Py_ssize_t s, blk = L1_BLOCK_BYTES // sizeof(lane_t)
    if small == SMALL_SHUFFLED and takes_goldilocks_stages(a, half_hi, t, tw):
        if mb != NULL:
            product_for_dit(a, mb, size, t, mc)
            mb = NULL
        if simd_goldilocks_stages(0, a, size, half_hi, t, tw):
            return
    if size > blk and half_hi >= blk:
        for s in range(size // blk):
            dit_stages(a + blk * s, blk, blk >> 1, t, tw,
                       mb + blk * s if mb != NULL else NULL, mc, small)
        half = blk
        while half <= half_hi:
            if 2 * half <= half_hi:
                for s in range(size // (4 * half)):
                    dit_run4(a + 4 * half * s, 2 * half, 0, half, t, tw)
                half <<= 2
            else:
                for s in range(size // (2 * half)):
                    dit_run(a + 2 * half * s, half, 0, half, t, tw)
                half <<= 1
        return
    if mb != NULL:
        product_for_dit(a, mb, size, t, mc)
    if (half == 1 and half_hi >= small_half(a)
            and simd_small_stages(0, a, size, t, tw, small == SMALL_TILED)):
        half = 2 * small_half(a)
    while half <= half_hi:
        if 2 * half <= half_hi and half >= 2 * small_half(a):  # stages half and 2*half at once
            for s in range(size // (4 * half)):
                dit_run4(a + 4 * half * s, 2 * half, 0, half, t, tw)
            half <<= 2
            continue
        for s in range(size // (2 * half)):
            dit_run(a + 2 * half * s, half, 0, half, t, tw)
        half <<= 1


cdef inline Py_ssize_t chunk_size(Py_ssize_t n, int threads) noexcept nogil:
    # A power of two <= CHUNK with at least `threads` chunks when n allows.
    cdef Py_ssize_t c = n if n < CHUNK else CHUNK
    while c > 1 and n // c < threads:
        c >>= 1
    return c


cdef inline void copy_max(const lane_t* src, lane_t* dst, Py_ssize_t count,
                         uint64_t* seen) noexcept nogil:
    # dst[i] = src[i] for i < count, *seen raised to the largest value (a copy and a
    # range check in one read of src; gcc vectorises both).
    cdef Py_ssize_t i
    cdef lane_t v, top = <lane_t>seen[0]
    for i in range(count):
        v = src[i]
        dst[i] = v
        top = v if v > top else top
    seen[0] = top


cdef void max_range(const lane_t* src, Py_ssize_t lo, Py_ssize_t hi,
                    uint64_t* seen) noexcept nogil:
    cdef Py_ssize_t i
    cdef lane_t top = <lane_t>seen[0]
    for i in range(lo, hi):
        top = src[i] if src[i] > top else top
    seen[0] = top


cdef inline Py_ssize_t simd_first_sweep(lane_t* a, const lane_t* src, Py_ssize_t half,
                                        bint radix4, Py_ssize_t j0, Py_ssize_t j1,
                                        const Tables* t, uint64_t* seen,
                                        bint from_q) noexcept nogil:
    # Vector part of a first sweep's butterflies j0 <= j < j1 of the block at a, read
    # straight from src (see dif_large_pass), *seen raised to the largest value read:
    # returns how many were done (vector builds, uint32; 0 elsewhere).  from_q (radix4
    # only): see ntt32_run4.
    cdef const uint32_t* w
    cdef const uint32_t* wq
    if lane_t is uint32_t:
        if radix4:
            return <Py_ssize_t>ntt32_run4_src(
                a, src, half, j0, j1, <const uint32_t*>t.fwd.w, <const uint32_t*>t.fwd.q,
                <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family,
                from_q, seen)
        w = <const uint32_t*>t.fwd.w + half + j0
        wq = <const uint32_t*>t.fwd.q + half + j0 if t.fwd.q != NULL else NULL
        return <Py_ssize_t>ntt32_run_src(
            a + j0, a + half + j0, src + j0, src + half + j0, w, wq, j1 - j0,
            <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family, seen)
    else:   # (an `else`, so that Cython sees no unreachable code in the uint32 copy)
        return 0


cdef inline void first_sweep_range(lane_t* a, const lane_t* src, Py_ssize_t half,
                                   bint radix4, Py_ssize_t width, Py_ssize_t segments,
                                   Py_ssize_t j, Py_ssize_t hi, const Tables* t,
                                   uint64_t* seen, bint from_q) noexcept nogil:
    # Butterflies j <= j' < hi of a first sweep's block at a, its input read from src
    # (see dif_large_pass); from_q: see simd_first_sweep.
    cdef Py_ssize_t j1, k
    j += simd_first_sweep(a, src, half, radix4, j, hi, t, seen, from_q)
    while j < hi:
        j1 = hi if j + COPY_PIECE >= hi else j + COPY_PIECE
        for k in range(segments):
            copy_max(src + k * width + j, a + k * width + j, j1 - j, seen)
        if radix4:
            dif_run4(a, half, j, j1, t)
        else:
            dif_run(a, half, j, j1, t)
        j = j1


cdef void dif_large_pass(lane_t* a, Py_ssize_t n, Py_ssize_t half, int part, int parts,
                         const Tables* t, const lane_t* src, uint64_t* seen) noexcept nogil:
    # One sweep over a[0:n] for the stage(s) starting at half-length `half` (two stages
    # when half/2 is also a large stage, see dif_schedule); this caller's share is
    # part `part` of `parts` of every block's butterfly range.  src != a: the input
    # is src (a's values are ignored): the vector butterflies read it directly
    # (simd_first_sweep), and what they leave is copied into a piece of COPY_PIECE
    # groups at a time right before its butterflies, so the copy costs no pass of its
    # own; *seen is raised to the largest value read.  With an Interrupt (t.irq) the
    # ranges run in pieces of POLL_PIECE groups, the sweep left between two of them
    # once the call is to stop.
    cdef Py_ssize_t s, j, j1, base, q = half >> 1
    cdef bint radix4 = q >= chunk_size(n, parts)
    cdef Py_ssize_t width = q if radix4 else half   # groups per block, one segment each
    cdef Py_ssize_t segments = 4 if radix4 else 2
    cdef Py_ssize_t lo = split(width, part, parts), hi = split(width, part + 1, parts)
    cdef Py_ssize_t piece = POLL_PIECE if t.irq != NULL else width
    for s in range(n // (2 * half)):
        base = 2 * half * s
        j = lo
        while j < hi:
            if stopping(t.irq, part):
                return
            j1 = hi if j + piece >= hi else j + piece
            if src != a:
                first_sweep_range(a + base, src + base, half, radix4, width, segments, j, j1,
                                  t, seen, False)
            elif radix4:
                dif_run4(a + base, half, j, j1, t)
            else:
                dif_run(a + base, half, j, j1, t)
            j = j1


cdef enum:
    # What the last pass of a DIT schedule also does to the values it wrote (see
    # dit_schedule): nothing, fold LAZY's [0, 4p) to [0, p), or scale (finish_inverse).
    FINISH_NONE = 0
    FINISH_FOLD = 1
    FINISH_SCALE = 2

# Groups per piece when the last pass also finishes its values: the piece's four
# segments (4 * 512 values) are still in L1 when they are finished.
cdef enum:
    FINISH_PIECE = 512


cdef inline void finish_range(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t,
                              int finish) noexcept nogil:
    if finish == FINISH_FOLD:
        fold_lazy_dit(a, lo, hi, t)
    elif finish == FINISH_SCALE:
        finish_inverse(a, lo, hi, t)


cdef void dit_large_pass(lane_t* a, Py_ssize_t n, Py_ssize_t half, int part, int parts,
                         const Tables* t, const Twiddles* tw,
                         int finish) noexcept nogil:
    # DIT counterpart: stages `half` and 2*half when 2*half < n, else `half` alone.
    # finish != FINISH_NONE (last pass only): each piece of FINISH_PIECE groups is
    # finished right after its butterflies, instead of in a separate sweep.  With an
    # Interrupt (t.irq): left once the call is to stop, asked every POLL_PIECE groups.
    cdef Py_ssize_t s, j, j1, lo, hi, base, k, width = 2 * half if 2 * half < n else half
    cdef Py_ssize_t piece = FINISH_PIECE if finish != FINISH_NONE else POLL_PIECE
    cdef Py_ssize_t next_poll
    cdef int segments = 4 if 2 * half < n else 2
    if finish == FINISH_NONE and t.irq == NULL:
        piece = half
    for s in range(n // (segments * half)):
        base = segments * half * s
        lo = split(half, part, parts)
        hi = split(half, part + 1, parts)
        j = next_poll = lo
        while j < hi:
            if j >= next_poll:
                if stopping(t.irq, part):
                    return
                next_poll = j + POLL_PIECE
            j1 = hi if j + piece >= hi else j + piece
            if segments == 4:
                dit_run4(a + base, width, j, j1, t, tw)
            else:
                dit_run(a + base, width, j, j1, t, tw)
            for k in range(segments if finish != FINISH_NONE else 0):
                finish_range(a, base + k * half + j, base + k * half + j1, t, finish)
            j = j1


cdef void dif_schedule(lane_t* a, Py_ssize_t n, Py_ssize_t c, int part, int parts,
                       const Tables* t, Py_ssize_t half, const lane_t* src,
                       uint64_t* seen, int small, bint fold) noexcept nogil:
    # Forward DIF stages half, half/2, ..., 1 of a[0:n] (half = n/2 for a whole
    # transform): the large stages (blocks bigger than the chunk c) sweep the whole
    # array, two at a time, then the rest run chunk by chunk.  With parts > 1 this is
    # one thread's share inside an OpenMP region (every sweep split between the
    # threads, a barrier after each sweep).  src != a: the input is src, copied into a
    # by the first sweep (or chunk by chunk when there is no large stage), *seen
    # raised to its largest value.  small: see dif_stages (SMALL_IN_PERMUTATION needs
    # c >= 16, SMALL_TILED c >= NTT32_TILED_BLOCK: the last four stages then run in
    # the chunks).  fold: LAZY's [0, 2p) folded to [0, p) (finish_forward) chunk by
    # chunk right after its stages, while the chunk is in cache, instead of in a pass
    # over memory of its own.
    cdef Py_ssize_t nchunks = n // c, k
    while half >= c:
        if use_columns(half, c):
            dif_columns(a, src, n, c, half, part, parts, t, seen)
            half = c >> 1
        else:
            dif_large_pass(a, n, half, part, parts, t, src, seen)
            half >>= 2 if half >> 1 >= c else 1
        src = a
        if parts > 1:
            ntt_cy_barrier()
    for k in range(nchunks * part // parts, nchunks * (part + 1) // parts):
        if stopping(t.irq, part):
            break
        if src != a:
            copy_max(src + k * c, a + k * c, c, seen)
        if half >= lowest_half(small):
            dif_stages(a + k * c, c, half, t, small)
        if fold:
            finish_forward(a, k * c, (k + 1) * c, t)


cdef bint dit_schedule(lane_t* a, Py_ssize_t n, Py_ssize_t c, int part, int parts,
                       const Tables* t, const Twiddles* tw, int finish,
                       const lane_t* mb, lane_t mc, int small) noexcept nogil:
    # DIT stages with twiddles tw: chunks first, then the large sweeps (a barrier
    # before each sweep when shared between threads).  Returns whether the last
    # sweep also applied `finish` (there is one when n > c); if not, the caller
    # finishes the values in a pass of its own.  mb: see dit_stages (needs c > 1).
    cdef Py_ssize_t half = c, nchunks = n // c, k, step
    if c > 1:
        for k in range(nchunks * part // parts, nchunks * (part + 1) // parts):
            if stopping(t.irq, part):
                break
            dit_stages(a + k * c, c, c >> 1, t, tw, mb + k * c if mb != NULL else NULL, mc,
                       small)
    if half >= n:
        return False
    while half < n:
        if parts > 1:
            ntt_cy_barrier()
        if half == c and use_columns(n >> 1, c):
            dit_columns(a, n, c, n >> 1, part, parts, t, tw, finish)
            break
        step = 4 if 2 * half < n else 2
        dit_large_pass(a, n, half, part, parts, t, tw,
                       finish if half * step >= n else FINISH_NONE)
        half *= step
    return True
