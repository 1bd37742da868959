# Column-blocked large stages: every stage of a transform whose blocks are larger than
# the cache chunk c, in one pass over memory.
#
# View a[0:n] as R = n / c rows of c values (element r * c + j).  A large stage of
# half-length h * c (h a power of two below R) pairs rows r and r + h in the same column
# j, with twiddle tw[h * c + (r mod h) * c + j]: columns never mix.  So a block of B
# consecutive columns over all R rows takes every large stage on its own while it stays
# in cache, and only then the next block is read.  The blocks run in place: the rows of
# a block lie c lane-widths apart, a power of two, so they share the same few sets of
# the L1 and L2, each of which holds only a handful of them, and a block is sized for
# the last-level cache instead (COLUMN_BLOCK_BYTES), with row segments of tens of KiB
# that the hardware prefetchers stream.  (Gathering a block into a contiguous L2-sized
# buffer avoids the aliasing, but the copy costs more than the L2 saves.)
#
# Every sweep over a block after the first comes from the last-level cache, so a block
# takes its stages in as few sweeps as the registers allow (sweep_stages): groups of 8
# rows through three stages in the vector builds' uint32 lanes (ntt32_run_stages; 16
# rows through four on AVX-512 past 2^22 values) and the uint64 lanes of AVX-512 and of
# AVX2's double-precision LAZY (ntt64_run_stages), radix-4 (and one radix-2) runs
# elsewhere, the same butterflies either way.  The
# twiddles of a block's first sweep are used once each and come from memory: the Shoup
# families read their quotients alone (from_q, see ntt32_run4), half the bytes.
#
# Threads take whole column blocks (no barrier between the large stages); with an
# Interrupt (interrupts.pxi) each thread asks `stopping` before each of its blocks.
# The DIF's first sweep reads the input from src (with the largest-value check, as the
# first large sweep does); the DIT's last stage finishes (fold or scale) each block's
# rows after its butterflies.

cdef enum:
    # Bytes of data per column block (all rows x B columns): a few MiB, well within a
    # last-level cache, with row segments of KiB to tens of KiB (1, 4 and 8 MiB blocks
    # ran 2-5% slower than 2 MiB past the last-level cache; `python
    # asv_bench/scripts/ns_per_butterfly.py --sizes` shows the cost per butterfly
    # across sizes).
    COLUMN_BLOCK_BYTES = 1 << 21
    # Fewest large stages for which the column pass replaces the sweeps: one or two
    # take a single sweep anyway (dif_large_pass / dit_large_pass).
    COLUMN_MIN_STAGES = 3


cdef inline void column_run4(int forward, lane_t* a, Py_ssize_t half, Py_ssize_t j0,
                             Py_ssize_t j1, const Tables* t,
                             const Twiddles* tw) noexcept nogil:
    # Radix-4 groups j0 <= j < j1 of a column block's sweep (dif_run4 / dit_run4), the
    # vector part reading the twiddles' quotients alone (from_q, see ntt32_run4).
    j0 += simd_run4(forward, a, half, j0, j1, t, tw, True)
    if forward:
        dif_run4(a, half, j0, j1, t)
    else:
        dit_run4(a, half, j0, j1, t, tw)


cdef inline void column_run(int forward, lane_t* a, Py_ssize_t half, Py_ssize_t j0,
                            Py_ssize_t j1, const Tables* t,
                            const Twiddles* tw) noexcept nogil:
    # Radix-2 butterflies j0 <= j < j1 of a column block's sweep (dif_run / dit_run), as
    # column_run4.
    if lane_t is uint32_t:
        j0 += simd32_run(forward, a, half, j0, j1, tw, t, True)
    if forward:
        dif_run(a, half, j0, j1, t)
    else:
        dit_run(a, half, j0, j1, t, tw)


cdef inline Py_ssize_t column_width(Py_ssize_t n, Py_ssize_t c, int parts,
                                    Py_ssize_t lane_bytes) noexcept nogil:
    # B: a power of two <= c, about COLUMN_BLOCK_BYTES of data over all rows, and at
    # least two blocks per part so that threads share the pass evenly.
    cdef Py_ssize_t b = c
    while b > 16 and (b * (n // c) * lane_bytes > COLUMN_BLOCK_BYTES or c // b < 2 * parts):
        b >>= 1
    return b


cdef inline bint use_columns(Py_ssize_t half, Py_ssize_t c) noexcept nogil:
    # Whether the large stages half, half/2, ..., c (at least COLUMN_MIN_STAGES of
    # them) go through the column pass.
    return half >= c << (COLUMN_MIN_STAGES - 1)


cdef inline int column_stages_most(lane_t* a, int left, const Tables* t,
                                   const Twiddles* tw) noexcept nogil:
    # Most stages one sweep of a column block takes when `left` large stages remain: as
    # many as the vector builds keep in registers (NTT32_COLUMN_STAGES,
    # ntt64_column_stages), else a radix-4 pair.  AVX-512's four-stage uint32 sweep (16
    # vectors) spills a little, so it runs only where it saves a third sweep over the
    # block (left > 6: n >= 2^23, 32 MiB and more, where every sweep after the first
    # comes from the last-level cache at best); below that, three at most.
    cdef ntt64_params prm
    if lane_t is uint32_t:
        if NTT32_COLUMN_STAGES > 3 and left <= 6:
            return 3
        return NTT32_COLUMN_STAGES if NTT32_COLUMN_STAGES > 2 else 2
    else:
        prm = simd64_params(&t.mod, t.family)
        return ntt64_column_stages(&prm, tw.f)


cdef inline int sweep_stages(int left, int most) noexcept nogil:
    # Stages of the next sweep when `left` remain: the fewest sweeps of at most `most`,
    # their sizes as even as they go (the larger first).
    cdef int sweeps = (left + most - 1) // most
    return (left + sweeps - 1) // sweeps


cdef void column_group(int forward, lane_t* a, const lane_t* src, Py_ssize_t top, int k,
                       Py_ssize_t lo, Py_ssize_t hi, const Tables* t, const Twiddles* tw,
                       uint64_t* seen) noexcept nogil:
    # Stages top, top/2, ..., s = top / 2^(k-1) (DIF, in that order; DIT from s up) on the
    # block a[0:2 top], groups lo <= j < hi of [0, s): group j is the 2^k values a[j + i
    # s].  The vector builds' uint32 lanes keep a group in registers through all k
    # (ntt32_run_stages); the rest, and other lanes, run the same butterflies as radix-4
    # and radix-2 runs over the group's rows.  src != a (DIF): the input is src, laid out
    # as a, *seen raised to its largest value.
    cdef Py_ssize_t s = top >> (k - 1), v, w
    cdef ntt64_params prm
    if k <= 2:
        if src != a:
            first_sweep_range(a, src, top, k == 2, s, 1 << k, lo, hi, t, seen, True)
        elif k == 2:
            column_run4(forward, a, top, lo, hi, t, tw)
        else:
            column_run(forward, a, top, lo, hi, t, tw)
        return
    if lane_t is uint32_t:
        lo += <Py_ssize_t>ntt32_run_stages(
            forward, k, a, src if src != a else NULL, top, lo, hi, <const uint32_t*>tw.w,
            <const uint32_t*>tw.q, <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv,
            t.mod.barrett_mu, t.family, seen)
    if lo >= hi:
        return
    if src != a:
        for v in range(1 << k):
            copy_max(src + v * s + lo, a + v * s + lo, hi - lo, seen)
    if lane_t is uint64_t:
        prm = simd64_params(&t.mod, t.family)
        lo += <Py_ssize_t>ntt64_run_stages(forward, k, a, top, lo, hi, <const uint64_t*>tw.w,
                                           <const uint64_t*>tw.q, tw.f, tw.fq, &prm)
        if lo >= hi:
            return
    # The top two stages pair a[j + v s + {0, 1, 2, 3} top / 2] (v < 2^(k-2)); the other
    # k - 2 run on the block's four quarters.
    if not forward:
        for w in range(4):
            column_group(0, a + w * (top >> 1), a + w * (top >> 1), top >> 2, k - 2, lo, hi,
                         t, tw, seen)
    for v in range(1 << (k - 2)):
        column_run4(forward, a, top, lo + v * s, hi + v * s, t, tw)
    if forward:
        for w in range(4):
            column_group(1, a + w * (top >> 1), a + w * (top >> 1), top >> 2, k - 2, lo, hi,
                         t, tw, seen)


cdef void column_sweep(int forward, lane_t* a, const lane_t* src, Py_ssize_t n, Py_ssize_t c,
                       Py_ssize_t j0, Py_ssize_t b, Py_ssize_t top, int k, const Tables* t,
                       const Twiddles* tw, uint64_t* seen) noexcept nogil:
    # One sweep of the column block j0 <= j < j0 + b of a[0:n]: the k stages top, ...,
    # top / 2^(k-1) (all large: top / 2^(k-1) >= c), every group of 2^k rows (see
    # column_group) in turn.
    cdef Py_ssize_t g, r, lo, s = top >> (k - 1)
    for g in range(n // (2 * top)):
        for r in range(s // c):
            lo = r * c + j0
            column_group(forward, a + 2 * top * g, src + 2 * top * g, top, k, lo, lo + b, t,
                         tw, seen)


cdef void dif_column_block(lane_t* a, const lane_t* src, Py_ssize_t n, Py_ssize_t c,
                           Py_ssize_t j0, Py_ssize_t b, Py_ssize_t half, const Tables* t,
                           uint64_t* seen) noexcept nogil:
    # DIF stages half, half/2, ..., c on columns j0 <= j < j0 + b of a[0:n], in sweeps of
    # up to column_stages_most (sweep_stages).  src != a: the first sweep reads its
    # input from src, *seen raised to its largest value.
    cdef int left = 0, k, most
    cdef Py_ssize_t h = half
    while h >= c:
        left += 1
        h >>= 1
    most = column_stages_most(a, left, t, &t.fwd)
    while left > 0:
        k = sweep_stages(left, most)
        column_sweep(1, a, src, n, c, j0, b, half, k, t, &t.fwd, seen)
        src = a
        half >>= k
        left -= k


cdef void dit_column_block(lane_t* a, Py_ssize_t n, Py_ssize_t c, Py_ssize_t j0,
                           Py_ssize_t b, const Tables* t,
                           const Twiddles* tw) noexcept nogil:
    # DIT stages c, 2c, ..., n/2 on columns j0 <= j < j0 + b of a[0:n] (see
    # dif_column_block), from the smallest.
    cdef int left = 0, k, most
    cdef Py_ssize_t h = c
    while h < n:
        left += 1
        h <<= 1
    most = column_stages_most(a, left, t, tw)
    h = c
    while left > 0:
        k = sweep_stages(left, most)
        column_sweep(0, a, a, n, c, j0, b, h << (k - 1), k, t, tw, NULL)
        h <<= k
        left -= k


cdef void dif_columns(lane_t* a, const lane_t* src, Py_ssize_t n, Py_ssize_t c,
                      Py_ssize_t half, int part, int parts, const Tables* t,
                      uint64_t* seen) noexcept nogil:
    # DIF stages half, half/2, ..., c of a[0:n] by column blocks (see the top of this
    # file), group by group of 2 half values (the stages never reach across one), this
    # caller's share of each group's blocks.  src != a: the input is src, read by each
    # block's first stages with *seen raised to its largest value.
    cdef Py_ssize_t size = 2 * half, b = column_width(size, c, parts, sizeof(lane_t))
    cdef Py_ssize_t blocks = c // b, g, k
    cdef lane_t* x
    for g in range(n // size):
        x = a + g * size
        for k in range(blocks * part // parts, blocks * (part + 1) // parts):
            if stopping(t.irq, part):
                return
            dif_column_block(x, src + g * size, size, c, k * b, b, half, t, seen)


cdef void dit_columns(lane_t* a, Py_ssize_t n, Py_ssize_t c, Py_ssize_t half_hi, int part,
                      int parts, const Tables* t, const Twiddles* tw,
                      int finish) noexcept nogil:
    # DIT stages c, 2c, ..., half_hi of a[0:n] by column blocks, group by group of
    # 2 half_hi values, this caller's share; each block's rows finished (finish_range)
    # right after its butterflies.
    cdef Py_ssize_t size = 2 * half_hi, b = column_width(size, c, parts, sizeof(lane_t))
    cdef Py_ssize_t blocks = c // b, g, k, r, j0
    cdef lane_t* x
    for g in range(n // size):
        x = a + g * size
        for k in range(blocks * part // parts, blocks * (part + 1) // parts):
            if stopping(t.irq, part):
                return
            j0 = k * b
            dit_column_block(x, size, c, j0, b, t, tw)
            for r in range(size // c if finish != FINISH_NONE else 0):
                finish_range(x, r * c + j0, r * c + j0 + b, t, finish)
