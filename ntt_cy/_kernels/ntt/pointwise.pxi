# The transform-domain product: pointwise_mul, and pointwise_inverse (the product
# taken inside the inverse, block by block).

def pointwise_mul(const lane_t[:, ::1] a, const lane_t[:, ::1] b, lane_t[:, ::1] out,
                  dict modulus, uint64_t factor, int threads):
    """out = a * b * factor mod p element-wise (out may alias a or b).

    a, b in [0, p) (on uint32 lanes with 4p <= 2^32 also [0, 2p): the LAZY forward
    with reduced=False; Montgomery needs only a*b < p*2^32); factor in [0, p);
    result in [0, p).  Odd p: two Montgomery
    products with the constant factor * R^2 mod p (vectorised where the build has
    AVX-512 / IFMA); p = 2: Barrett.  Works for any plan's modulus and family.
    """
    cdef Modulus m = modulus
    cdef Py_ssize_t rows = a.shape[0], n = a.shape[1], total, i, k, lo, hi
    check_threads(threads)
    if b.shape[0] != rows or b.shape[1] != n or out.shape[0] != rows or out.shape[1] != n:
        raise ValueError("internal: pointwise shapes differ")
    if rows == 0 or n == 0:
        return
    cdef bint montgomery = m.p % 2 == 1
    cdef lane_t c = <lane_t>pointwise_constant(&m, factor, 8 * sizeof(lane_t))
    cdef const lane_t* pa = &a[0, 0]
    cdef const lane_t* pb = &b[0, 0]
    cdef lane_t* po = &out[0, 0]
    total = rows * n
    cdef Py_ssize_t parts = threads if total >= 4096 * threads else 1
    with nogil:
        for k in prange(parts, num_threads=threads, schedule="static"):
            lo = total * k // parts
            hi = total * (k + 1) // parts
            pointwise_span(pa + lo, pb + lo, po + lo, hi - lo, &m, c, montgomery, False)


cdef uint64_t pointwise_constant(const Modulus* m, uint64_t factor, int lane_bits):
    # The constant of pointwise_span for `factor`: mont(mont(x, y), c) = x y c R^-2,
    # so c = factor R^2 carries the factor (odd p); Barrett (p = 2) takes it as is.
    cdef int bits = m.mont_bits if lane_bits == 64 else lane_bits
    if m.p % 2 == 0:
        return factor
    return (factor * pow(2, 2 * bits, m.p)) % m.p


def pointwise_inverse(lane_t[:, ::1] a, const lane_t[:, ::1] b, TransformTables tables,
                      int threads, uint64_t factor, bint scaled=True):
    """a <- inverse NTT of (a * b * factor) for every row, in place: bit-reversed
    order in (forward's output), natural order out.   # IN b; IN/OUT a

    Same as pointwise_mul(a, b, a, ...) then inverse(a, a, ..., natural=False,
    scaled), but the product is taken block by block as the inverse's first stages
    reach each L1 block, never in a pass of its own.  Ranges as pointwise_mul."""
    cdef Py_ssize_t rows = a.shape[0], n = a.shape[1], r
    cdef const Tables* t = &tables.c
    if n != tables.n or b.shape[0] != rows or b.shape[1] != n:
        raise ValueError("internal: pointwise_inverse shapes differ")
    check_threads(threads)
    if not scaled and t.twist.w != NULL:
        raise ValueError("scaled=False needs a cyclic plan")
    if rows == 0:
        return
    cdef lane_t c = <lane_t>pointwise_constant(&t.mod, factor, 8 * sizeof(lane_t))
    cdef Tables local
    cdef Interrupt irq
    with nogil:
        if polls(rows, n, threads):
            interrupt_start(&irq)
            t = interruptible(t, &local, &irq)
        pointwise_inverse_rows(&a[0, 0], &b[0, 0], rows, n, t, threads, c, scaled, False)
    if t.irq != NULL and irq.stop:
        interrupt_raised()


cdef void pointwise_inverse_rows(lane_t* pa, const lane_t* pb, Py_ssize_t rows, Py_ssize_t n,
                                 const Tables* t, int threads, lane_t c,
                                 bint scaled, bint tiled) noexcept nogil:
    # pointwise_inverse on pointers, c = pointwise_constant(factor); tiled: pa and pb
    # in padded_product's tiled order (tiled_order).
    cdef Py_ssize_t r
    if threads > 1 and rows >= threads:
        for r in prange(rows, num_threads=threads, schedule="static"):
            inverse_row(pa + r * n, pa + r * n, n, t, 1, False, scaled, pb + r * n, c, tiled,
                        NULL)
    else:
        for r in range(rows):
            if stopping(t.irq, 0):
                break
            inverse_row(pa + r * n, pa + r * n, n, t, threads, False, scaled, pb + r * n, c,
                        tiled, NULL)


cdef inline void product_for_dit(lane_t* a, const lane_t* b, Py_ssize_t count,
                                 const Tables* t, lane_t c) noexcept nogil:
    # a <- a b c' in place, as the next stage of the inverse (a DIT with t's family)
    # takes it: Montgomery for odd p, and [0, 2p) left unfolded for LAZY (not SHOUP31,
    # whose DIT takes [0, p)).
    cdef bint lazy_out = t.family == LAZY and not (lane_t is uint32_t and runs_shoup31(t))
    pointwise_span(a, b, a, count, &t.mod, c, t.mod.p % 2 == 1, lazy_out)


cdef void pointwise_span(const lane_t* a, const lane_t* b, lane_t* out, Py_ssize_t count,
                         const Modulus* m, lane_t c, bint montgomery,
                         bint lazy_out) noexcept nogil:
    # out = a b c' (the factor c carries, see pointwise_constant) in [0, p); lazy_out
    # (the product goes to a LAZY DIT, whose inputs may lie in [0, 4p)): the uint32
    # vector part may leave [0, 2p) unfolded.  uint32 lanes with c = 2^32 mod p (the
    # factor already in one operand, see padded_product_rows): mont(x, c) = x, one
    # product.
    cdef ntt64_params prm
    cdef Py_ssize_t i = 0
    cdef bint one = False
    cdef lane_t x
    if not montgomery:
        for i in range(count):
            out[i] = mul_family(mul_family(a[i], b[i], 0, m, BARRETT), c, 0, m, BARRETT)
        return
    if lane_t is uint32_t:
        i = ntt32_pointwise(a, b, out, count, <uint32_t>m.p, <uint32_t>m.mont_pinv, c,
                            lazy_out)
    else:
        prm = simd64_params(m, MONTGOMERY)
        i = ntt64_pointwise(a, b, out, count, c, &prm)
    if lane_t is uint32_t:
        one = i < count and c == mont_one32(<uint32_t>m.p)
    while i < count:
        x = mul_family(a[i], b[i], 0, m, MONTGOMERY)
        out[i] = x if one else mul_family(x, c, 0, m, MONTGOMERY)
        i += 1
