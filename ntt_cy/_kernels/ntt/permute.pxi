# The bit-reversal permutation: in place (tiles of 16 x 16 / 8 x 8 swapped with
# their partners, the edge stages fused) and as a permuting copy.

cdef inline Py_ssize_t index_bits(Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t bits = 0
    while (<Py_ssize_t>1 << bits) < n:
        bits += 1
    return bits


cdef void owned_tiles(const uint32_t* rev, Py_ssize_t tiles, int field, int part, int parts,
                      Py_ssize_t* m0, Py_ssize_t* m1) noexcept nogil:
    # This caller's tiles [m0, m1) of bit_reverse_inplace with the work balanced: tile m
    # costs 2 tiles moved when m < rev(m), 1 when m == rev(m), 0 when its partner does it.
    # One scan of tiles = n / 2^(2 field) table entries.
    cdef Py_ssize_t m, mate, done = 0, start = tiles * part // parts
    cdef Py_ssize_t stop = tiles * (part + 1) // parts
    m0[0] = tiles
    m1[0] = tiles
    if parts == 1:
        m0[0] = 0
        return
    for m in range(tiles):
        if done >= start and m0[0] == tiles:
            m0[0] = m
        if done >= stop:
            m1[0] = m
            return
        mate = rev[m << field] >> field
        done += 2 if m < mate else 1 if m == mate else 0


cdef inline void tile_rows_in(const lane_t* a, const Py_ssize_t* row, int width,
                              lane_t* tile) noexcept nogil:
    # tile[j][c] = a[row[j] + c]: each row one contiguous run (one cache line).
    cdef Py_ssize_t j, c
    for j in range(width):
        for c in range(width):
            tile[j * width + c] = a[row[j] + c]


cdef inline void tile_columns_out(const lane_t* tile, lane_t* a, const Py_ssize_t* row,
                                  int width, lane_t p) noexcept nogil:
    # a[row[k] + j] = tile[j][k], folded below p (p = 0: unchanged).
    cdef Py_ssize_t j, k
    cdef lane_t v
    for k in range(width):
        for j in range(width):
            v = tile[j * width + k]
            a[row[k] + j] = v - p if v >= p else v


cdef enum:
    # Stages a permutation also runs (see fused_edge): none, the last four of the
    # forward DIF (before it permutes), the first four of the inverse DIT (after).
    EDGE_NONE = 0
    EDGE_DIF_TAIL = 1
    EDGE_DIT_HEAD = 2


cdef enum:
    # Tiles per piece of an in-place permutation whose call can be interrupted (2^18
    # values of uint32, 2^16 of uint64): see bit_reverse_inplace.
    POLL_TILES = 1024


cdef void bit_reverse_inplace(lane_t* a, Py_ssize_t n, const Tables* t, bint fold, int part,
                              int parts, int edge) noexcept nogil:
    # a[i] <-> a[rev(i)] in place, and with fold LAZY's [0, 2p) mapped to [0, p) on
    # the way; edge (uint32, the caller checked fused_edge): those stages too.  Index
    # i = hi | m | lo with outer fields of `field` bits: tile m (2^field x 2^field
    # values) takes its values from tile rev(m) and gives its own to it, so the owner
    # of each pair (its smaller m) moves both tiles at once: rows of the one become
    # columns of the other (transposes in registers in AVX-512 and AVX2 builds,
    # simd/bitrev/; through stack buffers elsewhere).
    # Every access to `a` is a whole row, one cache line.  With an Interrupt (t.irq)
    # this caller's tiles go in pieces of POLL_TILES, left once the call is to stop.
    cdef const uint32_t* rev = t.bitrev
    cdef int field = 4 if lane_t is uint32_t else 3   # log2 of the lanes per vector
    cdef Py_ssize_t bits = index_bits(n), m0, m1, m, piece, i
    cdef lane_t p = <lane_t>t.mod.p if fold and t.family == LAZY else 0
    cdef lane_t v
    cdef lane_t tile_x[256]
    if bits < 2 * field:   # n < 2^(2 field) <= 256: through a stack copy, branch-free
        if part == 0:
            memcpy(tile_x, a, n * sizeof(lane_t))
            for i in range(n):
                v = tile_x[rev[i]]
                a[i] = v - p if v >= p else v
        return
    owned_tiles(rev, <Py_ssize_t>1 << (bits - 2 * field), field, part, parts, &m0, &m1)
    piece = POLL_TILES if t.irq != NULL else m1 - m0
    m = m0
    while m < m1:
        if stopping(t.irq, part):
            return
        swap_tiles(a, bits, t, m, m + piece if m + piece < m1 else m1, p, edge)
        m += piece


cdef void swap_tiles(lane_t* a, Py_ssize_t bits, const Tables* t, Py_ssize_t m0,
                     Py_ssize_t m1, lane_t p, int edge) noexcept nogil:
    # bit_reverse_inplace's work for tiles m0 <= m < m1 (p: the fold's modulus, or 0).
    cdef const uint32_t* rev = t.bitrev
    cdef int field = 4 if lane_t is uint32_t else 3
    cdef int width = 1 << field
    cdef Py_ssize_t m, mine, other, k, shift
    cdef lane_t tile_x[256]
    cdef lane_t tile_y[256]
    cdef Py_ssize_t row[16]
    if lane_t is uint32_t:
        if edge == EDGE_DIF_TAIL:
            bitrev32_inplace_dif_tail(a, bits, rev, m0, m1, p, <const uint32_t*>t.fwd.w,
                                      <const uint32_t*>t.fwd.q, <uint32_t>t.mod.p,
                                      <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                                      t.family)
            return
        if edge == EDGE_DIT_HEAD:
            bitrev32_inplace_dit_head(a, bits, rev, m0, m1, <const uint32_t*>t.inv.w,
                                      <const uint32_t*>t.inv.q, <uint32_t>t.mod.p,
                                      <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                                      t.family)
            return
        if bitrev32_inplace(a, bits, rev, m0, m1, p):
            return
    else:
        if bitrev64_inplace(a, bits, rev, m0, m1, p):
            return
    shift = bits - field
    for k in range(width):   # row k of a tile: offset rev_field(k) << shift
        row[k] = <Py_ssize_t>rev[k << shift] << shift
    for m in range(m0, m1):
        mine = m << field
        other = rev[mine]   # rev(m) << field
        if other < mine:
            continue
        tile_rows_in(a + other, row, width, tile_x)   # tile m's values
        if other != mine:
            tile_rows_in(a + mine, row, width, tile_y)
            tile_columns_out(tile_y, a + other, row, width, p)
        tile_columns_out(tile_x, a + mine, row, width, p)


cdef void permute_copy(const lane_t* src, lane_t* dst, Py_ssize_t n, const Tables* t,
                       int part, int parts, int edge, uint64_t* seen) noexcept nogil:
    # dst[i] = src[rev[i]], src != dst.  AVX-512 and AVX2 builds transpose one tile in
    # registers at a time (simd/bitrev/); otherwise i is visited in 16 x 16 tiles (high
    # and low 4 index bits) so both the reads and the writes touch only 16 cache lines
    # per tile.  This caller does tiles part of parts.  Values are copied unchanged,
    # except that edge == EDGE_DIT_HEAD (uint32, the caller checked fused_edge) runs the
    # inverse's first four stages on dst.
    # seen != NULL: *seen raised to the largest value of src (inside the fused tiles,
    # else by a pass over this caller's share of src).
    permute_copy_values(src, dst, n, t, part, parts, edge, seen)
    if seen != NULL and edge != EDGE_DIT_HEAD:
        max_range(src, n * part // parts, n * (part + 1) // parts, seen)


cdef void permute_copy_values(const lane_t* src, lane_t* dst, Py_ssize_t n, const Tables* t,
                              int part, int parts, int edge, uint64_t* seen) noexcept nogil:
    # permute_copy's copy; seen is only passed to the fused tiles.
    cdef const uint32_t* rev = t.bitrev
    cdef Py_ssize_t bits = index_bits(n), i, m, hi, lo, shift, base, tiles
    cdef int field = 4 if lane_t is uint32_t else 3   # log2 of the lanes per vector
    if bits >= 2 * field:
        tiles = <Py_ssize_t>1 << (bits - 2 * field)
        if lane_t is uint32_t:
            if edge == EDGE_DIT_HEAD:
                bitrev32_copy_dit_head(src, dst, bits, rev, tiles * part // parts,
                                       tiles * (part + 1) // parts, <const uint32_t*>t.inv.w,
                                       <const uint32_t*>t.inv.q, <uint32_t>t.mod.p,
                                       <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family,
                                       seen)
                return
            if bitrev32_copy(src, dst, bits, rev, tiles * part // parts,
                             tiles * (part + 1) // parts):
                return
        else:
            if bitrev64_copy(src, dst, bits, rev, tiles * part // parts,
                             tiles * (part + 1) // parts):
                return
    if bits < 8:
        if part == 0:
            for i in range(n):
                dst[i] = src[rev[i]]
        return
    shift = bits - 4
    tiles = <Py_ssize_t>1 << (bits - 8)
    for m in range(tiles * part // parts, tiles * (part + 1) // parts):
        for hi in range(16):
            base = (hi << shift) | (m << 4)
            for lo in range(16):
                i = base | lo
                dst[i] = src[rev[i]]
