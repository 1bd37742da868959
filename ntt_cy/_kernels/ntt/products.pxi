# Zero-padded transforms and whole products in one call: forward_padded,
# padded_product, PaddedProducts (every CRT prime's product) and the single-row
# products (SingleRowProduct, SingleRowWrapped) that poly's small calls use.

def forward_padded(const source_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
                   int threads, bint reduced=True, bint reduce_src=False):
    """Forward NTT (bit-reversed order) of every row of src zero-padded to the plan's
    length n, into dst (R, n); returns the largest value of src.
    # IN src (R, m <= n/2), values < p (any with reduce_src); OUT dst

    The zero half is never materialised: the first two stages read src directly.
    The callers may skip their own range check: if the returned maximum is >= p,
    dst is meaningless (but was computed without fault) and the caller reduces
    src and starts again.  reduce_src (uint32 lanes, p < 2^31): every value (uint64
    ones whole) is reduced mod p as it is read, and the maximum is only reported.
    reduced=False as in forward()."""
    _check_padded(src.shape[0], src.shape[1], dst.shape[0], dst.shape[1], tables)
    if src.shape[0] == 0:
        return 0
    cdef uint64_t* seen = _seen_slots(threads)
    cdef uint64_t top
    cdef const Tables* t = &tables.c
    cdef Tables local
    cdef Interrupt irq
    with nogil:
        if polls(src.shape[0], dst.shape[1], threads):
            interrupt_start(&irq)
            t = interruptible(t, &local, &irq)
        top = forward_padded_rows(&src[0, 0] if src.shape[1] else NULL, src.shape[0],
                                  src.shape[1], &dst[0, 0], dst.shape[1], t, threads,
                                  reduced, reduce_src, seen, False, 0, 0)
    free(seen)
    if t.irq != NULL and irq.stop:
        interrupt_raised()
    return top


def padded_product(const source_t[:, ::1] a, const source_t[:, ::1] b, lane_t[:, ::1] dst,
                   lane_t[:, ::1] work, TransformTables tables, int threads, uint64_t factor,
                   bint reduce_src=False, uint64_t limit=0):
    """dst <- factor times the cyclic convolution of the rows of a and b zero-padded to
    the plan's length n (factor = n^-1: the plain convolution), in natural order; returns
    the largest value of a and b.   # IN a, b (R, <= n/2), values < p; OUT dst; work
    (R, n) scratch

    forward_padded of both (b may be a: squaring, one transform), the product taken
    inside the unscaled inverse (pointwise_inverse): one call instead of three.  As in
    forward_padded, a returned maximum >= p means dst is meaningless (computed without
    fault); reduce_src as in forward_padded.  limit != 0: the call stops as soon as an
    operand's largest value is at or above it (the caller discards dst then: no
    transform of the other operand, no inverse).  Cyclic plans; pointwise ranges as
    pointwise_mul."""
    cdef Py_ssize_t rows = a.shape[0], n = dst.shape[1]
    _check_padded(rows, a.shape[1], dst.shape[0], n, tables)
    _check_padded(b.shape[0], b.shape[1], dst.shape[0], n, tables)
    if work.shape[0] != rows or work.shape[1] != n:
        raise ValueError("internal: padded_product work shape differs")
    if rows == 0:
        return 0
    cdef bint square = (a.shape[1] == b.shape[1] and
                        (a.shape[1] == 0 or &a[0, 0] == &b[0, 0]))
    cdef lane_t c = <lane_t>pointwise_constant(&tables.c.mod, factor, 8 * sizeof(lane_t))
    cdef uint64_t* seen = _seen_slots(threads)
    cdef uint64_t top
    cdef const Tables* t = &tables.c
    cdef Tables local
    cdef Interrupt irq
    with nogil:
        if polls(rows, n, threads):
            interrupt_start(&irq)
            t = interruptible(t, &local, &irq)
        top = padded_product_rows(&a[0, 0] if a.shape[1] else NULL,
                                  &b[0, 0] if b.shape[1] else NULL, square,
                                  rows, a.shape[1], b.shape[1], &dst[0, 0], &work[0, 0], n,
                                  t, threads, c, reduce_src, seen, limit)
    free(seen)
    if t.irq != NULL and irq.stop:
        interrupt_raised()
    return top


cdef class SingleRowProduct:
    """padded_product for one row of lengths na, nb of each operand mod the tables'
    prime p, straight from the caller's 1-D arrays into a fresh result of their
    na + nb - 1 product coefficients (poly._single_row: a small product's Python
    layers cost more than its transforms); wrap CYCLIC / NEGACYCLIC (na == nb): the
    product modulo x^na -/+ 1 folded from the linear one.  tables: a cyclic plan's,
    of length n >= 8 and >= 2 max(na, nb)."""
    cdef TransformTables tables
    cdef uint64_t c                 # pointwise_constant(n^-1) at the lane width
    cdef int lane                   # lane bytes: 4 or 8
    cdef int wrap
    cdef readonly Py_ssize_t n, na, nb

    def __init__(self, TransformTables tables, Py_ssize_t na, Py_ssize_t nb,
                 int wrap=LINEAR):
        if tables.c.twist.w != NULL or tables.n < 8 or not valid_shape(na, nb, wrap) \
                or 2 * max(na, nb) > tables.n:
            raise ValueError("internal: SingleRowProduct needs a cyclic plan, n >= 8, "
                             "1 <= na, nb <= n/2, and na == nb to wrap")
        self.tables, self.n, self.na, self.nb, self.wrap = tables, tables.n, na, nb, wrap
        self.lane = tables.lane_bytes
        self.c = pointwise_constant(&tables.c.mod, pow(self.n, -1, tables.c.mod.p),
                                    8 * self.lane)

    def product(self, a, b, bint checked=True, int threads=1):
        """a * b mod p, uint32 for p < 2^32, else uint64, on `threads` threads (as the
        caller resolved them); None (nothing computed) when an operand is not an array
        row_width takes, has another length, or holds a value >= p (padded_product
        reports the largest it read).  checked=False (the caller guarantees a, b < p):
        the values are not compared with p."""
        cdef uint64_t p = self.tables.c.mod.p
        cdef Py_ssize_t na = self.na, nb = self.nb, n = self.n
        cdef int width = operand_width(a, b, p, na, nb)
        if width == 0:
            return None
        cdef const void* pa = cnp.PyArray_DATA(<cnp.ndarray>a)
        cdef const void* pb = cnp.PyArray_DATA(<cnp.ndarray>b)
        cdef bint square = pa == pb and na == nb
        cdef void* rows = aligned_scratch(2 * n * self.lane)   # the product's, then work
        if rows == NULL:
            raise MemoryError()
        cdef uint64_t one_slot[SLOT]
        cdef uint64_t* seen = one_slot
        cdef uint64_t top
        cdef uint64_t limit = p if checked else 0   # (unchecked: no value compared)
        cdef const Tables* t = &self.tables.c
        try:
            seen = seen_slots_for(threads, one_slot)
            with nogil:
                if self.lane == 4 and width == 4:
                    top = padded_product_rows(<const uint32_t*>pa, <const uint32_t*>pb, square,
                                              1, na, nb, <uint32_t*>rows, <uint32_t*>rows + n,
                                              n, t, threads, <uint32_t>self.c, False, seen,
                                              limit)
                elif self.lane == 4:
                    top = padded_product_rows(<const uint64_t*>pa, <const uint64_t*>pb, square,
                                              1, na, nb, <uint32_t*>rows, <uint32_t*>rows + n,
                                              n, t, threads, <uint32_t>self.c, False, seen,
                                              limit)
                elif width == 4:
                    top = padded_product_rows(<const uint32_t*>pa, <const uint32_t*>pb, square,
                                              1, na, nb, <uint64_t*>rows, <uint64_t*>rows + n,
                                              n, t, threads, self.c, False, seen, limit)
                else:
                    top = padded_product_rows(<const uint64_t*>pa, <const uint64_t*>pb, square,
                                              1, na, nb, <uint64_t*>rows, <uint64_t*>rows + n,
                                              n, t, threads, self.c, False, seen, limit)
            if checked and top >= p:
                return None
            if self.wrap != LINEAR:
                fold_lanes(rows, self.lane, na, na + nb - 1, p, self.wrap)
            count = na if self.wrap != LINEAR else na + nb - 1
            out = new_row(count, 4 if p < (<uint64_t>1 << 32) else 8, n)
            copy_lanes(rows, self.lane, cnp.PyArray_DATA(<cnp.ndarray>out),
                       cnp.PyArray_ITEMSIZE(<cnp.ndarray>out), count)
            return out
        finally:
            free(rows)
            free_seen_slots(seen, one_slot)


cdef class SingleRowWrapped:
    """The cyclic or negacyclic product of one row of n values of each operand mod the
    tables' prime p, by transforms of length n (the tables' plan is of that kind):
    both operands loaded into the transform rows (32- or 64-bit values, their largest
    noted), both forward transforms in place, the product taken inside the inverse,
    into a fresh result (poly._single_row).  Cyclic: n^-1 folded into the product,
    the inverse unscaled; negacyclic: the inverse scales and untwists."""
    cdef TransformTables tables
    cdef uint64_t c                 # pointwise_constant(factor) at the lane width
    cdef bint scaled
    cdef readonly Py_ssize_t n

    def __init__(self, TransformTables tables):
        self.tables, self.n = tables, tables.n
        self.scaled = tables.c.twist.w != NULL
        factor = 1 if self.scaled else pow(self.n, -1, tables.c.mod.p)
        self.c = pointwise_constant(&tables.c.mod, factor, 8 * tables.lane_bytes)

    def product(self, a, b, bint checked=True, int threads=1):
        """a * b mod (x^n -/+ 1, p): uint32 for p < 2^32, else uint64, on `threads`
        threads (as the caller resolved them); None (nothing computed) when an operand
        is not an array row_width takes, has another length than n, or holds a value
        >= p.  checked=False (the caller guarantees a, b < p): the values are not
        compared with p."""
        cdef const Tables* t = &self.tables.c
        cdef int lane = self.tables.lane_bytes
        cdef Py_ssize_t n = self.n
        cdef int width = operand_width(a, b, t.mod.p, n, n)
        if width == 0:
            return None
        cdef const void* pa = cnp.PyArray_DATA(<cnp.ndarray>a)
        cdef const void* pb = cnp.PyArray_DATA(<cnp.ndarray>b)
        cdef bint square = pa == pb
        cdef char* rows = <char*>aligned_scratch(2 * n * lane)   # a's transform, then b's
        if rows == NULL:
            raise MemoryError()
        cdef uint64_t one_slot[SLOT]
        cdef uint64_t* seen = one_slot
        cdef uint64_t top = 0
        try:
            seen = seen_slots_for(threads, one_slot)
            with nogil:
                load_lanes(pa, width, n, rows, lane, 1, &top, checked)
                if not square:
                    load_lanes(pb, width, n, rows + n * lane, lane, 1, &top, checked)
                if not checked or top < t.mod.p:
                    if lane == 4:
                        wrapped_product(<uint32_t*>rows, square, n, t, <uint32_t>self.c,
                                        self.scaled, threads, seen)
                    else:
                        wrapped_product(<uint64_t*>rows, square, n, t, self.c, self.scaled,
                                        threads, seen)
            if checked and top >= t.mod.p:
                return None
            out = new_row(n, 4 if t.mod.p < (<uint64_t>1 << 32) else 8, n)
            copy_lanes(rows, lane, cnp.PyArray_DATA(<cnp.ndarray>out),
                       cnp.PyArray_ITEMSIZE(<cnp.ndarray>out), n)
            return out
        finally:
            free(rows)
            free_seen_slots(seen, one_slot)


cdef void wrapped_product(lane_t* rows, bint square, Py_ssize_t n, const Tables* t, lane_t c,
                          bint scaled, int threads, uint64_t* seen) noexcept nogil:
    # rows[0:n] <- the product of rows[0:n] and rows[n:2n] (values in [0, p); squaring:
    # rows[0:n] by itself), mod x^n -/+ 1 as t's plan is cyclic or negacyclic, on
    # `threads` threads; seen: _seen_slots(threads) (in place, the forward reports
    # nothing here).  As _prime_product does it: uint32 lanes leave the LAZY forward's
    # [0, 2p) for the product, which takes it (see forward).
    cdef bint reduced = sizeof(lane_t) != 4
    forward_row(rows, rows, n, t, threads, False, reduced, seen)
    if not square:
        forward_row(rows + n, rows + n, n, t, threads, False, reduced, seen)
    pointwise_inverse_rows(rows, rows if square else rows + n, 1, n, t, threads, c, scaled,
                           False)


cdef uint64_t padded_product_rows(const source_t* pa, const source_t* pb, bint square,
                                  Py_ssize_t rows, Py_ssize_t ma, Py_ssize_t mb, lane_t* d,
                                  lane_t* w, Py_ssize_t n, const Tables* t, int threads,
                                  lane_t c, bint reduce_src, uint64_t* seen,
                                  uint64_t limit) noexcept nogil:
    # padded_product on pointers (shapes checked by the caller; square: pb is pa);
    # c = pointwise_constant(factor); seen: _seen_slots(threads), left dirty.  Returns
    # the largest source value; limit != 0: as soon as one operand's is at or above it
    # (the rest of the product would be discarded).  (limit = 0 compares no value:
    # the calls of constant-time products pass it.)
    cdef uint64_t top, top_b = 0
    # uint32 lanes: the LAZY forward's [0, 2p) goes to the product unreduced
    cdef bint reduced = sizeof(lane_t) != 4
    # the transforms never leave this call: their order only has to agree
    cdef bint tiled = tiled_order(d, n, threads)
    cdef uint32_t p = <uint32_t>t.mod.p, scale = 0, scale_q = 0
    if lane_t is uint32_t:
        scale = operand_scale(<uint32_t>c, square, n, t)
        if scale:   # the factor is in the operand: mont(x, c) = x, one product
            scale_q = <uint32_t>((<uint64_t>scale << 32) // p)
            c = <lane_t>mont_one32(p)
    top = forward_padded_rows(pa, rows, ma, d, n, t, threads, reduced, reduce_src, seen, tiled,
                              scale if square else 0, scale_q if square else 0)
    if limit != 0 and top >= limit:
        return top
    if not square:
        memset(seen, 0, (threads if threads > 1 else 1) * SLOT * sizeof(uint64_t))
        top_b = forward_padded_rows(pb, rows, mb, w, n, t, threads, reduced, reduce_src, seen,
                                    tiled, scale, scale_q)
        if limit != 0 and top_b >= limit:
            return top_b
    pointwise_inverse_rows(d, d if square else w, rows, n, t, threads, c, False, tiled)
    return max64(top, top_b)


cdef uint32_t operand_scale(uint32_t c, bint square, Py_ssize_t n,
                            const Tables* t) noexcept nogil:
    # What padded_product_rows reads b's rows times (a square: its one operand), c =
    # pointwise_constant(factor) of uint32 tables of length n, odd p < 2^31; 0: nothing
    # (other tables, or a square without a root found).  b times factor 2^32 = c 2^-32
    # mod p (a Shoup product, its reduction for free) makes the pointwise step one
    # Montgomery product a b' 2^-32 = a b factor, whose constant becomes 2^32 mod p
    # (mont(x, c) = x): the vector bodies take it as one product instead of two.  A
    # square takes a square root of factor 2^32 (square_root_scale).
    cdef uint32_t p = <uint32_t>t.mod.p, scale
    if p % 2 == 0 or p >= (<uint32_t>1 << 31):
        return 0
    scale = mont_mul32(c, 1, p, <uint32_t>t.mod.mont_pinv)
    return square_root_scale(scale, n, t) if square else scale


cdef uint32_t square_root_scale(uint32_t scale, Py_ssize_t n, const Tables* t) noexcept nogil:
    # A square root of scale = factor 2^32 mod p (uint32 tables of length n = 2^k >= 8,
    # odd p < 2^31) for the factor every product uses, n^-1: then scale = 2^e, e = 32 -
    # k, whose root is 2^(e/2) for even e, else 2^((e-1)/2) sqrt(2) with sqrt(2) = r_8 +
    # r_8^-1 = r_8 - r_8^3 (r_8 = tw[5], a primitive 8th root of unity; (r_8 + r_8^-1)^2
    # = r_8^2 + 2 + r_8^-2 and r_8^-2 = -r_8^2).  The candidate is checked (its square
    # mod p is scale), so another factor gives 0: no root used.
    cdef uint64_t p = t.mod.p, root
    cdef uint32_t r1 = plain_twiddle32(t, 5), r3 = plain_twiddle32(t, 7)
    cdef int e = 32
    while n > 1:
        n >>= 1
        e -= 1
    root = (<uint64_t>1 << (e >> 1)) % p
    if e & 1:
        root = root * ((r1 + p - r3) % p) % p
    return <uint32_t>root if root * root % p == scale else 0


def operand_scale_of(TransformTables tables, uint64_t factor, bint square):
    """What padded_product reads the second operand (a square: its one operand) times
    for `factor`: a residue s, s^2 = factor 2^32 mod p for a square, s = factor 2^32
    mod p otherwise; 0 where it scales nothing (then the pointwise step takes two
    products).   # IN a cyclic plan's tables"""
    if tables.lane_bytes != 4 or tables.n < 8:
        return 0
    cdef uint32_t c = <uint32_t>pointwise_constant(&tables.c.mod, factor, 32)
    return operand_scale(c, square, tables.n, &tables.c)


cdef inline uint32_t plain_twiddle32(const Tables* t, Py_ssize_t i) noexcept nogil:
    # The forward stage twiddle tw[i] of uint32 tables as a residue (MONTGOMERY stores
    # w 2^32 mod p).
    cdef uint32_t w = (<const uint32_t*>t.fwd.w)[i]
    if t.family == MONTGOMERY:
        return mont_mul32(w, 1, <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv)
    return w


cdef class PaddedProducts:
    """padded_product for every prime of a CRT basis in one call, each prime's operands
    its own rows (residues): a product modulo a multi-word m (crt.CRTBasis.padded_products,
    cached per primes and length) pays for no per-prime Python call, which would be most
    of a small product's time.

    tables: one cyclic TransformTables of length n per prime, all with the same lanes."""
    cdef const Tables** t
    cdef uint64_t* c               # pointwise constants, n^-1 folded in
    cdef readonly tuple tables     # keeps t's tables alive
    cdef readonly Py_ssize_t n, k
    cdef readonly int lane_bytes

    def __cinit__(self):
        self.t = NULL
        self.c = NULL

    def __init__(self, tuple tables, const uint64_t[::1] primes):
        cdef Py_ssize_t j, k = len(tables)
        cdef TransformTables tt
        if k < 1 or primes.shape[0] != k:
            raise ValueError("internal: PaddedProducts needs a table per prime")
        self.t = <const Tables**>calloc(k, sizeof(Tables*))
        self.c = <uint64_t*>calloc(k, sizeof(uint64_t))
        if self.t == NULL or self.c == NULL:
            raise MemoryError()
        self.tables, self.k = tables, k
        self.n = (<TransformTables?>tables[0]).n
        self.lane_bytes = (<TransformTables?>tables[0]).lane_bytes
        for j in range(k):
            tt = <TransformTables?>tables[j]
            if tt.n != self.n or tt.c.mod.p != primes[j] or tt.c.twist.w != NULL \
                    or tt.lane_bytes != self.lane_bytes or self.n < 8:
                raise ValueError("internal: PaddedProducts needs cyclic tables of one length "
                                 "(>= 8) and lane width, one per prime")
            self.t[j] = &tt.c
            self.c[j] = pointwise_constant(&tt.c.mod, pow(self.n, -1, primes[j]),
                                           8 * self.lane_bytes)

    def __dealloc__(self):
        free(self.t)
        free(self.c)

    def run(self, const uint64_t[:, :, ::1] a, const uint64_t[:, :, ::1] b,
            lane_t[:, :, ::1] products, lane_t[:, ::1] work, int threads):
        """products[j] <- the cyclic convolution of the rows of a[j] and b[j] (b may be
        a: squaring) zero-padded to n, mod primes[j].   # IN a (k, R, <= n/2), b (k, R,
        <= n/2), a[j], b[j] < primes[j]; OUT products (k, R, n); work (R, n) scratch

        ValueError (internal) when a value is not below its prime."""
        cdef Py_ssize_t k = self.k, R = a.shape[1], ma = a.shape[2], mb = b.shape[2]
        cdef Py_ssize_t n = self.n, j
        if a.shape[0] != k or b.shape[0] != k or b.shape[1] != R \
                or products.shape[0] != k or products.shape[1] != R or products.shape[2] != n \
                or work.shape[0] != R or work.shape[1] != n or 2 * ma > n or 2 * mb > n \
                or sizeof(lane_t) != self.lane_bytes:
            raise ValueError("internal: PaddedProducts.run shapes differ")
        check_threads(threads)
        if R == 0:
            return
        cdef bint square = ma == mb and (ma == 0 or &a[0, 0, 0] == &b[0, 0, 0])
        cdef size_t seen_bytes = (threads if threads > 1 else 1) * SLOT * sizeof(uint64_t)
        cdef uint64_t* seen = _seen_slots(threads)
        cdef Py_ssize_t bad = -1    # the first prime that saw a value at or above it
        cdef const Tables* t
        cdef Tables local
        cdef Interrupt irq
        cdef bint polled = polls(R, n, threads)
        try:
            with nogil:
                if polled:
                    interrupt_start(&irq)
                for j in range(k):
                    t = interruptible(self.t[j], &local, &irq) if polled else self.t[j]
                    memset(seen, 0, seen_bytes)
                    if padded_product_rows(&a[j, 0, 0] if ma else NULL,
                                           &b[j, 0, 0] if mb else NULL, square, R, ma, mb,
                                           &products[j, 0, 0], &work[0, 0], n, t,
                                           threads, <lane_t>self.c[j], False,
                                           seen, t.mod.p) >= t.mod.p:
                        bad = j
                        break
                    if stopping(t.irq, 0):
                        break
        finally:
            free(seen)
        if polled and irq.stop:
            interrupt_raised()
        if bad >= 0:
            raise ValueError("internal: PaddedProducts.run needs a[j], b[j] below primes[j]")


cdef void _check_padded(Py_ssize_t rows, Py_ssize_t m, Py_ssize_t dst_rows, Py_ssize_t n,
                        TransformTables tables) except *:
    if n != tables.n or dst_rows != rows or n < 8 or 2 * m > n:
        raise ValueError("internal: padded transforms need dst (R, n), n >= 8, src (R, <= n/2)")
    if tables.c.twist.w != NULL:
        raise ValueError("internal: padded transforms need a cyclic plan")


cdef uint64_t* _seen_slots(int threads) except NULL:
    # Zeroed largest-value slots of the forward kernels: one per thread (slot k at
    # seen + k * SLOT, a cache line each, so threads never update a line they share),
    # each kept across the rows that thread transforms.  The one check of the thread count for the entry
    # points that take slots.
    check_threads(threads)
    cdef uint64_t* seen = <uint64_t*>calloc((threads if threads > 1 else 1) * SLOT,
                                            sizeof(uint64_t))
    if seen == NULL:
        raise MemoryError()
    return seen


cdef inline uint64_t* seen_slots_for(int threads, uint64_t* one_slot) except NULL:
    # Zeroed largest-value slots for `threads` threads: one_slot (SLOT values on the
    # caller's stack) for one thread, so that a small call allocates nothing; else
    # _seen_slots(threads).  Released by free_seen_slots.
    if threads == 1:
        memset(one_slot, 0, SLOT * sizeof(uint64_t))
        return one_slot
    return _seen_slots(threads)


cdef inline void free_seen_slots(uint64_t* seen, const uint64_t* one_slot) noexcept nogil:
    if seen != one_slot:
        free(seen)


cdef inline uint64_t seen_largest(const uint64_t* seen, int threads) noexcept nogil:
    # The largest value the slots of `threads` threads (_seen_slots) saw.
    cdef uint64_t top = 0
    cdef int k
    for k in range(threads if threads > 1 else 1):
        top = max64(top, seen[k * SLOT])
    return top


cdef uint64_t forward_padded_rows(const source_t* s, Py_ssize_t rows, Py_ssize_t m, lane_t* d,
                                  Py_ssize_t n, const Tables* t, int threads, bint reduced,
                                  bint reduce_src, uint64_t* seen, bint tiled,
                                  uint32_t scale, uint32_t scale_q) noexcept nogil:
    # forward_padded on pointers (shapes checked by the caller); seen: _seen_slots(
    # threads); scale, scale_q: every source value times scale mod p (padded_first_pass;
    # 0: none).  Returns the largest source value.
    cdef Py_ssize_t r, c
    if threads > 1 and rows >= threads:
        c = chunk_size(n, 1)
        for r in prange(rows, num_threads=threads, schedule="static"):
            forward_padded_part(s + r * m, m, d + r * n, n, c, t, reduced, reduce_src,
                                scale, scale_q, seen + SLOT * threadid(), 0, 1, tiled)
    else:
        c = chunk_size(n, threads)
        for r in range(rows):
            if stopping(t.irq, 0):
                break
            if threads == 1:
                forward_padded_part(s + r * m, m, d + r * n, n, c, t, reduced, reduce_src,
                                    scale, scale_q, seen, 0, 1, tiled)
            else:
                with parallel(num_threads=threads):
                    forward_padded_part(s + r * m, m, d + r * n, n, c, t, reduced, reduce_src,
                                        scale, scale_q, seen + SLOT * threadid(), threadid(),
                                        threads, tiled)
    return seen_largest(seen, threads)
