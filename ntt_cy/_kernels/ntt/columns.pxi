# Column-blocked large stages: every stage of a transform whose blocks are larger than
# the cache chunk c, in one pass over memory.
#
# View a[0:n] as R = n / c rows of c values (element r * c + j).  A large stage of
# half-length h * c (h a power of two below R) pairs rows r and r + h in the same column
# j, with twiddle tw[h * c + (r mod h) * c + j]: columns never mix.  So a block of B
# consecutive columns over all R rows takes every large stage on its own (radix-4 and
# radix-2 runs of B butterflies, one per row of the stage, from the real tables) while
# it stays in cache, and only then the next block is read.  The blocks run in place:
# the rows of a block lie c lane-widths apart, a power of two, so they share the same
# few sets of the L1 and L2, each of which holds only a handful of them, and a block is
# sized for the last-level cache instead (COLUMN_BLOCK_BYTES), with row segments of
# tens of KiB that the hardware prefetchers stream.  (Gathering a block into a
# contiguous L2-sized buffer avoids the aliasing, but the copies of the block, and of
# its twiddles, as many as its values, cost more than the L2 saves.)
#
# Threads take whole column blocks (no barrier between the large stages); with an
# Interrupt (interrupts.pxi) each thread asks `stopping` before each of its blocks.
# The DIF's first two stages read the input from src (with the largest-value check, as
# the first large sweep does); the DIT's last stage finishes (fold or scale) each
# block's rows after its butterflies.

cdef enum:
    # Bytes of data per column block (all rows x B columns): a few MiB, well within a
    # last-level cache, with row segments of tens of KiB (2 and 8 MiB blocks are about
    # as fast; `python asv_bench/scripts/ns_per_butterfly.py --sizes` shows the cost
    # per butterfly across sizes).
    COLUMN_BLOCK_BYTES = 1 << 22
    # Fewest large stages for which the column pass replaces the sweeps: one or two
    # take a single sweep anyway (dif_large_pass / dit_large_pass).
    COLUMN_MIN_STAGES = 3


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


cdef void dif_column_block(lane_t* a, const lane_t* src, Py_ssize_t n, Py_ssize_t c,
                           Py_ssize_t j0, Py_ssize_t b, Py_ssize_t half, const Tables* t,
                           uint64_t* seen) noexcept nogil:
    # DIF stages half, half/2, ..., c on columns j0 <= j < j0 + b of a[0:n]: two at a
    # time, the last one alone when their count is odd.  A radix-4 group j of a block
    # of 2 half values pairs rows r, r + h/2, r + h, r + 3h/2 (h = half / c, j = r c +
    # column), so a stage takes h/2 runs per block.  src != a: the first two stages
    # read their input from src (first_sweep_range, *seen raised to its largest value).
    cdef Py_ssize_t s, r, lo
    cdef bint first = src != a
    while half >= c:
        if half >> 1 >= c:
            for s in range(n // (2 * half)):
                for r in range(half // (2 * c)):
                    lo = r * c + j0
                    if first:
                        first_sweep_range(a + 2 * half * s, src + 2 * half * s, half, True,
                                          half >> 1, 4, lo, lo + b, t, seen)
                    else:
                        dif_run4(a + 2 * half * s, half, lo, lo + b, t)
            first = False
            half >>= 2
        else:
            for s in range(n // (2 * half)):
                dif_run(a + 2 * half * s, half, j0, j0 + b, t)
            half >>= 1


cdef void dit_column_block(lane_t* a, Py_ssize_t n, Py_ssize_t c, Py_ssize_t j0,
                           Py_ssize_t b, const Tables* t,
                           const Twiddles* tw) noexcept nogil:
    # DIT stages c, 2c, ..., n/2 on columns j0 <= j < j0 + b of a[0:n] (see
    # dif_column_block): two at a time while both fit, the last one alone when their
    # count is odd.
    cdef Py_ssize_t s, r, half = c
    while half < n:
        if 4 * half <= n:
            for s in range(n // (4 * half)):
                for r in range(half // c):
                    dit_run4(a + 4 * half * s, 2 * half, r * c + j0, r * c + j0 + b, t, tw)
            half <<= 2
        else:
            for s in range(n // (2 * half)):
                for r in range(half // c):
                    dit_run(a + 2 * half * s, half, r * c + j0, r * c + j0 + b, t, tw)
            half <<= 1


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
