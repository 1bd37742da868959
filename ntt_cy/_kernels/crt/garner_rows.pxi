# CRT reconstruction straight from the uint32 transform rows, for small primes
# (p_j < 2^31, the uint32-lane CRT family) and a target modulus m < 2^32 (the 2^32 <=
# m < 2^64 form, garner32_mod64, is at the end of this file).
#
# Included by every kernel build (build.pxi): AVX-512 and AVX2 builds run the vector
# body of simd/garner/ (32x32 -> 64-bit vpmuludq products) on whole vectors of
# coefficients, these scalar loops the rest (and everything in the portable build).  One
# pass per block of coefficients, in place of the general route (copy rows to uint64,
# Garner digits, 128-bit reduction mod m, narrow to uint32).
#
# Per coefficient, with residues r_j (+ offset_j) mod p_j:
#   digits   v_0 = r_0,  v_j = (((r_j - v_0) c_0j - v_1) c_1j - ... ) mod p_j,
#            c_lj = p_l^-1 mod p_j, so x = v_0 + p_0 (v_1 + p_1 (v_2 + ...));
#   mod m    x mod m = sum_j v_j W_j mod m, W_j = p_0 ... p_{j-1} mod m;
#   then     (x - offset_m) mod m.

cdef extern from "simd/garner/dispatch.h" nogil:
    size_t garner32_vector_mod(const uint32_t* const* rows, size_t start, size_t k, size_t cnt,
                               const uint64_t* primes, const uint64_t* inv, const uint64_t* inv_q,
                               const uint64_t* offsets, uint64_t m, const uint64_t* weights,
                               const uint64_t* weights_q, uint64_t offset_m, uint64_t* result,
                               uint32_t* result32)
    size_t garner32_vector_digits(const uint32_t* const* rows, size_t start, size_t k,
                                  size_t cnt, const uint64_t* primes, const uint64_t* inv,
                                  const uint64_t* inv_q, const uint64_t* offsets,
                                  uint32_t* const* digits)

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)

cdef extern from "simd/garner/dispatch.h":
    # The most primes of garner32_mod / garner32_mod64 (GARNER32_MAX_PRIMES), and of
    # the digits alone (garner32_digits, GARNER32_MAX_DIGITS): the bases of moduli of
    # several words (crt.py's uint32 route for them), 18 primes for a 254-bit m, 27 for
    # a 381-bit one.  One definition with the vector bodies'.
    cdef enum:
        GARNER32_MAX_PRIMES
        GARNER32_MAX_DIGITS

cdef enum:
    # Coefficients a block of garner32_rows (one thread's unit; digits and results on
    # its stack), and of garner32_digits, whose blocks of GARNER32_MAX_DIGITS digit rows
    # keep the scalar tail's stack small (16 KiB).
    GARNER_BLOCK = 512
    WIDE_DIGITS_BLOCK = 64


cdef void garner32_block(const uint32_t* const* rows, Py_ssize_t start, Py_ssize_t k,
                         Py_ssize_t cnt, const uint64_t* primes, const uint64_t* inv,
                         const uint64_t* inv_q, const uint64_t* offsets, uint64_t m,
                         const uint64_t* weights, const uint64_t* weights_q, uint64_t offset_m,
                         lane_t* out) noexcept nogil:
    # cnt <= GARNER_BLOCK coefficients; rows[j] + start -> prime j's residues of this block;
    # inv / inv_q are the (k, k) row-major tables.  The vector body (AVX2 and AVX-512
    # builds) takes whole groups of 8 or 16, this scalar code the rest.  Digits and results live
    # on this call's stack, so concurrent blocks (one per thread) never share them.
    cdef uint64_t digits[GARNER32_MAX_PRIMES][GARNER_BLOCK]
    cdef uint64_t result[GARNER_BLOCK]
    cdef Py_ssize_t i, j
    cdef uint32_t* direct = NULL   # uint32 results: the vector body stores them into out
    if lane_t is uint32_t:
        direct = out
    cdef Py_ssize_t lo = garner32_vector_mod(rows, start, k, cnt, primes, inv, inv_q, offsets, m,
                                             weights, weights_q, offset_m, result, direct)
    cdef uint64_t c, cq, acc
    garner32_scalar_digits(rows, start, k, lo, cnt, primes, inv, inv_q, offsets, &digits[0][0],
                           GARNER_BLOCK)
    for i in range(lo, cnt):   # v_0 < 2^31 -> v_0 mod m
        result[i] = fold_once(shoup_mul32_wide(digits[0][i], 1, weights_q[0], m), m)
    for j in range(1, k):
        c = weights[j]
        cq = weights_q[j]
        for i in range(lo, cnt):
            acc = result[i] + fold_once(shoup_mul32_wide(digits[j][i], c, cq, m), m)
            result[i] = fold_once(acc, m)
    for i in range(lo, cnt):
        acc = result[i]
        result[i] = acc - offset_m + (m if acc < offset_m else 0)
    for i in range(lo if direct != NULL else 0, cnt):
        out[i] = <lane_t>result[i]


cdef void garner32_scalar_digits(const uint32_t* const* rows, Py_ssize_t start, Py_ssize_t k,
                                 Py_ssize_t lo, Py_ssize_t cnt, const uint64_t* primes,
                                 const uint64_t* inv, const uint64_t* inv_q,
                                 const uint64_t* offsets, uint64_t* digits,
                                 Py_ssize_t stride) noexcept nogil:
    # digits[j * stride + i] <- digit v_j in [0, p_j) of coefficient start + i, for
    # lo <= i < cnt (the ones the vector bodies left), coefficient index innermost.
    cdef Py_ssize_t i, j, l
    cdef uint64_t pj, c, cq, t, v
    cdef uint64_t* dj
    for j in range(k):
        pj = primes[j]
        dj = digits + j * stride
        for i in range(lo, cnt):   # r_j + offset_j < 2 p_j -> [0, p_j)
            dj[i] = fold_once(rows[j][start + i] + offsets[j], pj)
        for l in range(j):
            c = inv[l * k + j]
            cq = inv_q[l * k + j]
            for i in range(lo, cnt):
                v = fold_once(digits[l * stride + i], pj)   # v_l < p_l < 2 p_j -> mod p_j
                t = dj[i]
                t = t - v + (pj if t < v else 0)
                dj[i] = fold_once(shoup_mul32_wide(t, c, cq, pj), pj)


cdef struct Garner32:
    # garner32_mod's constants, or garner32_mod64's (mod64 set), checked by
    # garner32_setup: see their docstrings.
    bint mod64
    Py_ssize_t k
    uint64_t m
    uint64_t offset_m
    uint64_t primes[GARNER32_MAX_PRIMES]
    uint64_t offsets[GARNER32_MAX_PRIMES]
    uint64_t weights[GARNER32_MAX_PRIMES]
    uint64_t weights_q[GARNER32_MAX_PRIMES]
    uint64_t inv[GARNER32_MAX_PRIMES * GARNER32_MAX_PRIMES]     # (k, k) row-major
    uint64_t inv_q[GARNER32_MAX_PRIMES * GARNER32_MAX_PRIMES]
    # garner32_mod64 only: m's barrett_mul64 constants
    uint64_t barrett_d
    uint64_t barrett_v
    int barrett_shift


cdef int check_garner_primes(const uint64_t* primes, Py_ssize_t k, str name) except -1:
    # The digit loops' primes: below 2^31, the largest below twice the smallest (so one
    # conditional subtraction reduces a digit modulo another prime).
    cdef Py_ssize_t j, l
    for j in range(k):
        if primes[j] >= (<uint64_t>1 << 31):
            raise ValueError(f"{name} needs primes below 2^31")
        for l in range(k):
            if primes[l] >= 2 * primes[j]:
                raise ValueError(f"{name} needs every prime below twice the smallest")
    return 0


cdef int garner32_setup(Garner32* g, const uint64_t[::1] primes, const uint64_t[:, ::1] inv,
                        const uint64_t[:, ::1] inv_q, const uint64_t[::1] offsets, uint64_t m,
                        const uint64_t[::1] weights, const uint64_t[::1] weights_q,
                        uint64_t offset_m, Py_ssize_t k, bint mod64, uint64_t barrett_d=0,
                        uint64_t barrett_v=0, int barrett_shift=0) except -1:
    # g <- the constants of k primes and m, after the checks garner32_mod (m < 2^32,
    # weights_q) or, with mod64, garner32_mod64 (2 <= m < 2^64, m's barrett_mul64
    # constants; weights_q unused, may be None) documents.
    cdef Py_ssize_t j, l
    name = "garner32_mod64" if mod64 else "garner32_mod"
    if primes.shape[0] < k or offsets.shape[0] < k or inv.shape[0] != k \
            or inv.shape[1] != k or inv_q.shape[0] != k or inv_q.shape[1] != k \
            or weights.shape[0] < k or (not mod64 and weights_q.shape[0] < k):
        raise ValueError(f"internal: {name} shapes differ")
    if k < 1 or k > GARNER32_MAX_PRIMES:
        raise ValueError(f"{name} takes 1..{GARNER32_MAX_PRIMES} primes, got {k}")
    check_garner_primes(&primes[0], k, name)
    for j in range(k):
        if offsets[j] >= primes[j]:
            raise ValueError(f"{name} needs offsets[j] < primes[j]")
    if mod64 and m < 2:
        raise ValueError("garner32_mod64 needs m >= 2")
    if not mod64 and not 2 <= m < (<uint64_t>1 << 32):
        raise ValueError("garner32_mod needs 2 <= m < 2^32")
    if offset_m >= m:
        raise ValueError(f"{name} needs offset_m < m")
    g.mod64, g.k, g.m, g.offset_m = mod64, k, m, offset_m
    g.barrett_d, g.barrett_v, g.barrett_shift = barrett_d, barrett_v, barrett_shift
    for j in range(k):
        if weights[j] >= m:
            raise ValueError(f"{name} needs weights below m")
        g.primes[j] = primes[j]
        g.offsets[j] = offsets[j]
        g.weights[j] = weights[j]
        g.weights_q[j] = 0 if mod64 else weights_q[j]
        for l in range(k):
            g.inv[l * k + j] = inv[l, j]
            g.inv_q[l * k + j] = inv_q[l, j]
    return 0


cdef void garner32_rows(const Garner32* g, const uint32_t* const* rows, Py_ssize_t R,
                        Py_ssize_t N, Py_ssize_t L, lane_t* out, int threads,
                        bint digits) noexcept nogil:
    # garner32_mod or garner32_mod64 (g.mod64; uint64 out only) on pointers: rows[j] ->
    # prime j's (R, N) residues, out -> (R, L).  digits (uint32 out only): the Garner
    # digits themselves, out -> (k, R, L) (CRTProduct32.digits).
    cdef Py_ssize_t per_row = (L + GARNER_BLOCK - 1) // GARNER_BLOCK
    cdef Py_ssize_t blk
    if threads == 1:   # no OpenMP region for a small product's few blocks
        for blk in range(R * per_row):
            garner32_rows_block(g, rows, R, N, L, per_row, blk, out, digits)
        return
    for blk in prange(R * per_row, num_threads=threads, schedule="static"):
        garner32_rows_block(g, rows, R, N, L, per_row, blk, out, digits)


cdef inline void garner32_rows_block(const Garner32* g, const uint32_t* const* rows,
                                     Py_ssize_t R, Py_ssize_t N, Py_ssize_t L,
                                     Py_ssize_t per_row, Py_ssize_t blk, lane_t* out,
                                     bint digits) noexcept nogil:
    # block blk of garner32_rows: row blk // per_row, GARNER_BLOCK coefficients on
    cdef Py_ssize_t r = blk // per_row, i0 = (blk % per_row) * GARNER_BLOCK
    cdef Py_ssize_t cnt = min(L - i0, GARNER_BLOCK)
    if lane_t is uint32_t:
        if digits:
            garner32_block_digits(g, rows, r * N + i0, cnt, out + r * L + i0, R * L)
            return
    if lane_t is uint64_t:
        if g.mod64:
            garner32_mod64_block(g, rows, r * N + i0, cnt, out + r * L + i0)
            return
    garner32_block(rows, r * N + i0, g.k, cnt, g.primes, g.inv, g.inv_q, g.offsets, g.m,
                   g.weights, g.weights_q, g.offset_m, out + r * L + i0)


def garner32_mod(const uint32_t[:, :, ::1] products, const uint64_t[::1] primes,
                 const uint64_t[:, ::1] inv, const uint64_t[:, ::1] inv_q,
                 const uint64_t[::1] offsets, uint64_t m, const uint64_t[::1] weights,
                 const uint64_t[::1] weights_q, uint64_t offset_m, lane_t[:, ::1] out,
                 int threads):
    """out[r, i] = (x - offset_m) mod m, x the integer with x = products[j, r, i] +
    offsets[j] mod primes[j] for every j.   # IN products (k, R, N >= L); OUT out (R, L)

    primes: k <= 8 distinct primes < 2^31, the largest below twice the smallest
    (so one conditional subtraction reduces a digit modulo another prime); products[j] < primes[j]; offsets[j] <
    primes[j]; inv/inv_q (k, k) as CRTBasis (inv[l, j] = p_l^-1 mod p_j, inv[j, j] = 1,
    inv_q = floor(inv 2^32 / p_j)); 2 <= m < 2^32; weights[j] = p_0 ... p_{j-1}
    mod m, weights_q[j] = floor(weights[j] 2^32 / m), weights[0] = 1; offset_m < m.
    """
    cdef Py_ssize_t k = products.shape[0], R = products.shape[1], N = products.shape[2]
    cdef Py_ssize_t L = out.shape[1], j
    cdef const uint32_t* rows[GARNER32_MAX_PRIMES]
    cdef Garner32 g
    if out.shape[0] != R or L > N:
        raise ValueError("internal: garner32_mod shapes differ")
    check_threads(threads)
    garner32_setup(&g, primes, inv, inv_q, offsets, m, weights, weights_q, offset_m, k, False)
    if R == 0 or L == 0:
        return
    for j in range(k):
        rows[j] = &products[j, 0, 0]
    with nogil:
        garner32_rows(&g, rows, R, N, L, &out[0, 0], threads, False)


cdef class CRTProduct32:
    """A whole fused CRT product of uint32 rows mod m < 2^64 in one call: for every
    prime, padded_product (both zero-padded forward transforms and the product inside
    the inverse, n^-1 folded in, the rows reduced mod p_j as they are read where m >
    p_j), then garner32_mod straight from the k product rows.  Built once per primes,
    length and modulus (poly.py caches it), so that a call pays for none of it: a
    small product's time would be mostly the per-prime calls' argument handling.

    tables: one cyclic uint32-lane TransformTables of length n per prime; the other
    arguments as garner32_mod's for m < 2^32, as garner32_mod64's (barrett_d, _v,
    _shift: m's constants) for 2^32 <= m < 2^64, whose reconstruction run then takes
    (into uint64 out)."""
    cdef Garner32 g                                 # g.mod64: m >= 2^32
    cdef const Tables* t[GARNER32_MAX_PRIMES]
    cdef uint32_t c[GARNER32_MAX_PRIMES]           # pointwise constants, n^-1 folded in
    cdef bint reduce_src[GARNER32_MAX_PRIMES]      # m > p_j: rows read mod p_j
    cdef readonly tuple tables                      # keeps t's tables alive
    cdef readonly Py_ssize_t n

    def __init__(self, tuple tables, const uint64_t[::1] primes, const uint64_t[:, ::1] inv,
                 const uint64_t[:, ::1] inv_q, const uint64_t[::1] offsets, uint64_t m,
                 const uint64_t[::1] weights, const uint64_t[::1] weights_q, uint64_t offset_m,
                 uint64_t barrett_d=0, uint64_t barrett_v=0, int barrett_shift=0):
        cdef Py_ssize_t j, k = len(tables)
        cdef TransformTables tt
        garner32_setup(&self.g, primes, inv, inv_q, offsets, m, weights, weights_q, offset_m,
                       k, m >= (<uint64_t>1 << 32), barrett_d, barrett_v, barrett_shift)
        self.tables = tables
        self.n = (<TransformTables?>tables[0]).n
        for j in range(k):
            tt = <TransformTables?>tables[j]
            if tt.n != self.n or tt.c.mod.p != primes[j] or tt.c.twist.w != NULL \
                    or tt.arrays["fwd_tw"].dtype.itemsize != 4:
                raise ValueError("internal: CRTProduct32 needs cyclic uint32 tables of one "
                                 "length, one per prime")
            self.t[j] = &tt.c
            self.c[j] = <uint32_t>pointwise_constant(&tt.c.mod, pow(self.n, -1, primes[j]), 32)
            self.reduce_src[j] = m > primes[j]

    def run(self, const source_t[:, ::1] a, const source_t[:, ::1] b,
            uint32_t[:, :, ::1] products, uint32_t[:, ::1] work, lane_t[:, ::1] out,
            int threads):
        """out <- (a * b) mod m, the first L coefficients of each row's linear product;
        returns the largest value of a and b: at or above m, out is meaningless
        (computed without fault; every value is read mod each prime, so the one
        comparison with m is the range check).   # IN a, b (R, <= n/2);
        OUT out (R, L <= n); products (k, R, n), work (R, n) scratch"""
        cdef Py_ssize_t R = a.shape[0], L = out.shape[1]
        cdef const uint32_t* rows[GARNER32_MAX_PRIMES]
        if out.shape[0] != R or L > self.n:
            raise ValueError("internal: CRTProduct32.run shapes differ")
        if self.g.mod64 and lane_t is uint32_t:
            raise ValueError("internal: CRTProduct32.run needs uint64 out for m >= 2^32")
        cdef uint64_t largest = crt_checked_products(self, a, b, products, work, threads, rows)
        if largest < self.g.m and L > 0 and R > 0:
            with nogil:
                garner32_rows(&self.g, rows, R, self.n, L, &out[0, 0], threads, False)
        return largest

    def digits(self, const source_t[:, ::1] a, const source_t[:, ::1] b,
               uint32_t[:, :, ::1] products, uint32_t[:, ::1] work, uint32_t[:, :, ::1] out,
               int threads):
        """out[j] <- the Garner digits v_j in [0, p_j) of the first L coefficients
        c (+ offset) of each row's linear product, c = v_0 + p_0 (v_1 + p_1 (v_2 +
        ...)): the exact coefficients, nothing reduced mod m (bigmul's carry pass,
        ntt_cy/_kernels/crt/carry.pyx, takes them).  Returns the largest value of a and b, as
        run: at or above m (a bound on the inputs here), out is meaningless.
        # IN a, b (R, <= n/2); OUT out (k, R, L <= n); products, work as run's"""
        cdef Py_ssize_t k = self.g.k, R = a.shape[0], L = out.shape[2]
        cdef const uint32_t* rows[GARNER32_MAX_PRIMES]
        if out.shape[0] != k or out.shape[1] != R or L > self.n:
            raise ValueError("internal: CRTProduct32.digits shapes differ")
        cdef uint64_t largest = crt_checked_products(self, a, b, products, work, threads, rows)
        if largest < self.g.m and L > 0 and R > 0:
            with nogil:
                garner32_rows(&self.g, rows, R, self.n, L, &out[0, 0, 0], threads, True)
        return largest


cdef uint64_t crt_checked_products(CRTProduct32 self, const source_t[:, ::1] a,
                                   const source_t[:, ::1] b, uint32_t[:, :, ::1] products,
                                   uint32_t[:, ::1] work, int threads,
                                   const uint32_t** rows) except? 0:
    # CRTProduct32.run's and .digits' shape checks, then crt_prime_products (rows[j] ->
    # prime j's (R, n) product rows); 0 for no rows.
    cdef Py_ssize_t k = self.g.k, R = a.shape[0], n = self.n
    if b.shape[0] != R or products.shape[0] != k or products.shape[1] != R \
            or products.shape[2] != n or work.shape[0] != R or work.shape[1] != n \
            or n < 8 or 2 * a.shape[1] > n or 2 * b.shape[1] > n:
        raise ValueError("internal: CRTProduct32 shapes differ")
    if R == 0:
        return 0
    cdef bint square = (a.shape[1] == b.shape[1] and
                        (a.shape[1] == 0 or &a[0, 0] == &b[0, 0]))
    cdef const source_t* pa = &a[0, 0] if a.shape[1] else NULL
    cdef const source_t* pb = &b[0, 0] if b.shape[1] else NULL
    cdef uint64_t* seen = _seen_slots(threads)
    cdef uint64_t largest
    cdef Interrupt irq
    cdef bint polled = polls(R, n, threads)
    with nogil:
        if polled:
            interrupt_start(&irq)
        largest = crt_prime_products(self, pa, pb, square, R, a.shape[1], b.shape[1],
                                     &products[0, 0, 0], &work[0, 0], threads, seen, rows,
                                     &irq if polled else NULL)
    free(seen)
    if polled and irq.stop:
        interrupt_raised()
    return largest


cdef class SingleRowCRT:
    """A CRTProduct32's run for one row of lengths na, nb of each operand, straight
    from the caller's 1-D arrays into a fresh result of their na + nb - 1
    coefficients mod m: uint32 for m <= 2^32, else uint64 (poly._single_row: a small
    product's Python layers cost more than its transforms); wrap CYCLIC / NEGACYCLIC
    (na == nb): the product modulo x^na -/+ 1 folded from the linear one.  The caller
    chose the product's primes for these lengths (their product above min(na, nb)
    (m - 1)^2 plus its offset); 2 max(na, nb) <= its n, n >= 8 (padded_product's)."""
    cdef CRTProduct32 crt
    cdef int wrap
    cdef readonly Py_ssize_t n, na, nb   # n: the transforms' length

    def __init__(self, CRTProduct32 crt, Py_ssize_t na, Py_ssize_t nb, int wrap=LINEAR):
        if crt.n < 8 or not valid_shape(na, nb, wrap) or 2 * max(na, nb) > crt.n:
            raise ValueError("internal: SingleRowCRT needs n >= 8, 1 <= na, nb <= n/2, and "
                             "na == nb to wrap")
        self.crt, self.n, self.na, self.nb, self.wrap = crt, crt.n, na, nb, wrap

    def product(self, a, b, bint checked=True, int threads=1):
        """a * b mod m on `threads` threads (as the caller resolved them); None (nothing
        computed) when an operand is not an array row_width takes, has another length,
        or holds a value >= m.  checked=False (the caller guarantees a, b < m): the
        values are not compared with m."""
        cdef CRTProduct32 crt = self.crt
        cdef uint64_t m = crt.g.m
        cdef Py_ssize_t na = self.na, nb = self.nb, n = crt.n
        cdef int width = operand_width(a, b, m, na, nb)
        if width == 0:
            return None
        cdef const void* pa = cnp.PyArray_DATA(<cnp.ndarray>a)
        cdef const void* pb = cnp.PyArray_DATA(<cnp.ndarray>b)
        cdef bint square = pa == pb and na == nb
        cdef Py_ssize_t L = na + nb - 1
        cdef Py_ssize_t count = na if self.wrap != LINEAR else L    # result coefficients
        cdef int width_out = 8 if m > (<uint64_t>1 << 32) else 4  # (m = 2^32: uint32)
        # the reconstruction's lanes: uint64 for m >= 2^32 (the 128-bit form)
        cdef int width_rebuilt = 8 if crt.g.mod64 else 4
        # a linear product to fold, or values to narrow, go through a buffer of their own
        cdef bint direct = self.wrap == LINEAR and width_rebuilt == width_out
        # the k product rows, the second operand's row, that buffer
        cdef size_t row_bytes = n * sizeof(uint32_t)
        cdef char* buf = <char*>aligned_scratch((crt.g.k + 1) * row_bytes
                                                + (0 if direct else L * width_rebuilt))
        if buf == NULL:
            raise MemoryError()
        cdef const uint32_t* rows[GARNER32_MAX_PRIMES]
        cdef uint64_t one_slot[SLOT]
        cdef uint64_t* seen = one_slot
        cdef uint64_t largest
        cdef void* rebuilt = buf + (crt.g.k + 1) * row_bytes
        cdef void* dst
        cdef void* out_data
        try:
            seen = seen_slots_for(threads, one_slot)
            with nogil:
                if width == 4:
                    largest = crt_prime_products(crt, <const uint32_t*>pa, <const uint32_t*>pb,
                                                 square, 1, na, nb, <uint32_t*>buf,
                                                 <uint32_t*>(buf + crt.g.k * row_bytes),
                                                 threads, seen, rows, NULL)
                else:
                    largest = crt_prime_products(crt, <const uint64_t*>pa, <const uint64_t*>pb,
                                                 square, 1, na, nb, <uint32_t*>buf,
                                                 <uint32_t*>(buf + crt.g.k * row_bytes),
                                                 threads, seen, rows, NULL)
            if checked and largest >= m:
                return None
            out = new_row(count, width_out, n)
            out_data = cnp.PyArray_DATA(<cnp.ndarray>out)
            dst = out_data if direct else rebuilt
            with nogil:
                if width_rebuilt == 4:
                    garner32_rows(&crt.g, rows, 1, n, L, <uint32_t*>dst, threads, False)
                else:
                    garner32_rows(&crt.g, rows, 1, n, L, <uint64_t*>dst, threads, False)
                if not direct:
                    if self.wrap != LINEAR:
                        fold_lanes(rebuilt, width_rebuilt, na, L, m, self.wrap)
                    copy_lanes(rebuilt, width_rebuilt, out_data, width_out, count)
            return out
        finally:
            free(buf)
            free_seen_slots(seen, one_slot)


cdef uint64_t crt_prime_products(CRTProduct32 self, const source_t* pa, const source_t* pb,
                                 bint square, Py_ssize_t R, Py_ssize_t na, Py_ssize_t nb,
                                 uint32_t* products, uint32_t* work, int threads,
                                 uint64_t* seen, const uint32_t** rows,
                                 Interrupt* irq) noexcept nogil:
    # padded_product_rows for every prime of self, prime j's (R, n) rows at products +
    # j R n (rows[j] points there); seen: _seen_slots(threads).  Returns the largest
    # source value, and stops at the first prime that saw one >= m (the caller then
    # starts again on the checked route).  irq (started, or NULL): attached to every
    # prime's tables; the primes left once the call is to stop.
    cdef Py_ssize_t j, n = self.n
    cdef uint64_t top, largest = 0
    cdef size_t seen_bytes = (threads if threads > 1 else 1) * SLOT * sizeof(uint64_t)
    cdef const Tables* t
    cdef Tables local
    for j in range(self.g.k):
        t = interruptible(self.t[j], &local, irq) if irq != NULL else self.t[j]
        memset(seen, 0, seen_bytes)
        rows[j] = products + j * R * n
        top = padded_product_rows(pa, pb, square, R, na, nb, products + j * R * n, work, n,
                                  t, threads, self.c[j], self.reduce_src[j], seen, self.g.m)
        largest = top if top > largest else largest
        if largest >= self.g.m or stopping(irq, 0):
            break
    return largest


# x mod m for 2 <= m < 2^64 (the moduli above 2^32 that garner32_mod cannot take):
# the same digits, computed by the vector bodies (garner32_vector_digits) a block
# at a time, then per coefficient the weighted sum sum_j v_j W_j in two words (each
# term below 2^95, k <= 8 terms: below 2^98) and one reduction mod m.

cdef inline uint64_t garner32_sum_mod64(const Garner32* g, const uint64_t* v) noexcept nogil:
    # (sum_j v_j W_j - offset_m) mod m; v_j < 2^31, W_j < m < 2^64, k <= 8
    cdef uint64_t lo = 0, hi = 0, plo, phi, x
    cdef Py_ssize_t j
    for j in range(g.k):
        plo = ntt_mul_wide(v[j], g.weights[j], &phi)
        lo += plo
        hi += phi + (lo < plo)            # hi < 2^34: no carry out of it
    # (hi >= m only for m < 2^34)
    x = mod_any_wide64(hi, lo, g.m, g.barrett_d, g.barrett_v, g.barrett_shift)
    return x - g.offset_m + (g.m if x < g.offset_m else 0)


cdef void garner32_mod64_block(const Garner32* g, const uint32_t* const* rows,
                               Py_ssize_t start, Py_ssize_t cnt, uint64_t* out) noexcept nogil:
    # cnt <= GARNER_BLOCK coefficients from `start` of every row into out[0:cnt]
    cdef uint32_t digits[GARNER32_MAX_PRIMES][GARNER_BLOCK]
    cdef uint64_t v[GARNER32_MAX_PRIMES]
    cdef Py_ssize_t i, j
    garner32_block_digits(g, rows, start, cnt, &digits[0][0], GARNER_BLOCK)
    for i in range(cnt):
        for j in range(g.k):
            v[j] = digits[j][i]
        out[i] = garner32_sum_mod64(g, v)


cdef void garner32_block_digits(const Garner32* g, const uint32_t* const* rows,
                                Py_ssize_t start, Py_ssize_t cnt, uint32_t* out,
                                Py_ssize_t stride) noexcept nogil:
    # The Garner digits v_j < p_j < 2^31 of cnt <= GARNER_BLOCK coefficients from `start`
    # of every row: digit j into out[j stride : j stride + cnt].
    cdef uint64_t tail[GARNER32_MAX_PRIMES][GARNER_BLOCK]
    block_digits(rows, start, g.k, cnt, g.primes, g.inv, g.inv_q, g.offsets, out, stride,
                 &tail[0][0], GARNER_BLOCK)


cdef void block_digits(const uint32_t* const* rows, Py_ssize_t start, Py_ssize_t k,
                       Py_ssize_t cnt, const uint64_t* primes, const uint64_t* inv,
                       const uint64_t* inv_q, const uint64_t* offsets, uint32_t* out,
                       Py_ssize_t stride, uint64_t* tail, Py_ssize_t tail_stride) noexcept nogil:
    # garner32_block_digits on raw constants (k primes, inv / inv_q (k, k) row-major),
    # cnt <= tail_stride: the vector bodies' digits (garner32_vector_digits) are stored
    # in place, the scalar tail's (uint64, into tail) narrowed after them.
    cdef uint32_t* digit_rows[GARNER32_MAX_DIGITS]
    cdef Py_ssize_t i, j, done
    for j in range(GARNER32_MAX_DIGITS):   # (all set: gcc cannot see that k of them do)
        digit_rows[j] = out + j * stride if j < k else NULL
    done = garner32_vector_digits(rows, start, k, cnt, primes, inv, inv_q, offsets,
                                  digit_rows)
    garner32_scalar_digits(rows, start, k, done, cnt, primes, inv, inv_q, offsets, tail,
                           tail_stride)
    for j in range(k):
        for i in range(done, cnt):
            digit_rows[j][i] = <uint32_t>tail[j * tail_stride + i]


def garner32_digits(const uint32_t[:, :, ::1] products, const uint64_t[::1] primes,
                    const uint64_t[:, ::1] inv, const uint64_t[:, ::1] inv_q,
                    uint32_t[:, :, ::1] out, int threads):
    """out[j, r, i] = the Garner digit v_j in [0, p_j) of the integer x with x =
    products[j, r, i] mod primes[j] for every j: x = v_0 + p_0 (v_1 + p_1 (v_2 + ...)).
    # IN products (k, R, N >= L); OUT out (k, R, L)

    primes: 1 <= k <= 32 distinct primes < 2^31, the largest below twice the
    smallest; products[j] < primes[j]; inv / inv_q (k, k) as garner32_mod's."""
    cdef Py_ssize_t k = products.shape[0], R = products.shape[1], N = products.shape[2]
    cdef Py_ssize_t L = out.shape[2], j, per_row, blk
    cdef const uint32_t* rows[GARNER32_MAX_DIGITS]
    cdef uint64_t offsets[GARNER32_MAX_DIGITS]
    if out.shape[0] != k or out.shape[1] != R or L > N or primes.shape[0] != k \
            or inv.shape[0] != k or inv.shape[1] != k or inv_q.shape[0] != k \
            or inv_q.shape[1] != k:
        raise ValueError("internal: garner32_digits shapes differ")
    if k < 1 or k > GARNER32_MAX_DIGITS:
        raise ValueError(f"garner32_digits takes 1..{GARNER32_MAX_DIGITS} primes, got {k}")
    check_threads(threads)
    check_garner_primes(&primes[0], k, "garner32_digits")
    for j in range(k):
        rows[j] = &products[j, 0, 0] if R and N else NULL
        offsets[j] = 0
    if R == 0 or L == 0:
        return
    per_row = (L + WIDE_DIGITS_BLOCK - 1) // WIDE_DIGITS_BLOCK
    with nogil:
        if threads == 1:
            for blk in range(R * per_row):
                wide_digits_block(rows, k, R, N, L, per_row, blk, &primes[0], &inv[0, 0],
                                  &inv_q[0, 0], offsets, &out[0, 0, 0])
        else:
            for blk in prange(R * per_row, num_threads=threads, schedule="static"):
                wide_digits_block(rows, k, R, N, L, per_row, blk, &primes[0], &inv[0, 0],
                                  &inv_q[0, 0], offsets, &out[0, 0, 0])


cdef void wide_digits_block(const uint32_t* const* rows, Py_ssize_t k, Py_ssize_t R,
                            Py_ssize_t N, Py_ssize_t L, Py_ssize_t per_row, Py_ssize_t blk,
                            const uint64_t* primes, const uint64_t* inv,
                            const uint64_t* inv_q, const uint64_t* offsets,
                            uint32_t* out) noexcept nogil:
    # block blk of garner32_digits: row blk // per_row, WIDE_DIGITS_BLOCK coefficients on
    cdef uint64_t tail[GARNER32_MAX_DIGITS * WIDE_DIGITS_BLOCK]
    cdef Py_ssize_t r = blk // per_row, i0 = (blk % per_row) * WIDE_DIGITS_BLOCK
    cdef Py_ssize_t cnt = min(L - i0, WIDE_DIGITS_BLOCK)
    block_digits(rows, r * N + i0, k, cnt, primes, inv, inv_q, offsets, out + r * L + i0,
                 R * L, tail, WIDE_DIGITS_BLOCK)


def garner32_mod64(const uint32_t[:, :, ::1] products, const uint64_t[::1] primes,
                   const uint64_t[:, ::1] inv, const uint64_t[:, ::1] inv_q,
                   const uint64_t[::1] offsets, uint64_t m, const uint64_t[::1] weights,
                   uint64_t barrett_d, uint64_t barrett_v, int barrett_shift,
                   uint64_t offset_m, uint64_t[:, ::1] out, int threads):
    """garner32_mod for any 2 <= m < 2^64, into uint64.   # IN products (k, R, N >= L);
    OUT out (R, L)

    primes, inv, inv_q, offsets as garner32_mod; weights[j] = p_0 ... p_{j-1} mod m;
    (barrett_d, barrett_v, barrett_shift): m's constants (plan.modulus_constants);
    offset_m < m."""
    cdef Py_ssize_t k = products.shape[0], R = products.shape[1], N = products.shape[2]
    cdef Py_ssize_t L = out.shape[1], j
    cdef const uint32_t* rows[GARNER32_MAX_PRIMES]
    cdef Garner32 g
    if out.shape[0] != R or L > N:
        raise ValueError("internal: garner32_mod64 shapes differ")
    check_threads(threads)
    garner32_setup(&g, primes, inv, inv_q, offsets, m, weights, None, offset_m, k, True,
                   barrett_d, barrett_v, barrett_shift)
    if R == 0 or L == 0:
        return
    for j in range(k):
        rows[j] = &products[j, 0, 0]
    with nogil:
        garner32_rows(&g, rows, R, N, L, &out[0, 0], threads, False)
