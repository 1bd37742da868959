# Twiddle-table construction (powers, stage layout, Montgomery and Shoup forms).

def powers(lane_t[::1] out, uint64_t base, uint64_t start, uint64_t p):
    """out[i] = start * base^i mod p.  For p < 2^63 each step is a Shoup product by
    the constant base (shoup_mul64: a high and two low products), not a 128-bit
    division: the chain of steps is the whole cost of a large table."""
    cdef Py_ssize_t i
    cdef uint64_t x = start % p, b = base % p, bq, hi, lo
    with nogil:
        if p < (<uint64_t>1 << 63):
            bq = ntt_div128(b, 0, p)
            for i in range(out.shape[0]):
                out[i] = <lane_t>x
                x = fold_once(shoup_mul64(x, b, bq, p), p)
        else:
            for i in range(out.shape[0]):
                out[i] = <lane_t>x
                lo = ntt_mul_wide(x, b, &hi)
                x = ntt_mod128(hi, lo, p)


def stage_twiddles(lane_t[::1] out, const lane_t[::1] root_powers):
    """out[h + j] = r_{2h}^j for every stage half-length h, from root_powers[i] = r_n^i."""
    cdef Py_ssize_t n = out.shape[0], h = 1, j, step
    with nogil:
        if n > 0:
            out[0] = 0
        while h < n:
            step = n // (2 * h)
            for j in range(h):
                out[h + j] = root_powers[j * step]
            h <<= 1


def montgomery_bits(uint64_t p, int itemsize):
    """Montgomery radix bits this build uses for p on lanes of `itemsize` bytes."""
    if itemsize == 8:
        return ntt64_montgomery_bits(p)
    return 32


def float_twiddles(uint64_t p, int itemsize):
    """Whether this build's uint64 LAZY kernels want the double-precision twiddle
    tables (balanced w as doubles and w / p) for p: AVX2 builds, p < 2^51 - 2^29."""
    return itemsize == 8 and ntt64_float_twiddles(p) != 0


def to_montgomery(lane_t[::1] a, uint64_t p, int bits):
    """a[i] <- a[i] * 2^bits mod p in place (bits = the lane width, or 52)."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(a.shape[0]):
            if lane_t is uint32_t:
                a[i] = <lane_t>(((<uint64_t>a[i]) << 32) % p)
            elif bits == 52:
                a[i] = ntt_mod128(a[i] >> 12, a[i] << 52, p)
            else:
                a[i] = ntt_mod128(a[i], 0, p)


def shoup_quotients(const lane_t[::1] w, lane_t[::1] out, uint64_t p):
    """out[i] = floor(w[i] * 2^L / p), for w[i] < p (L the lane bits), without a
    division per entry.  uint32 lanes: x = w 2^32 < 2^64 and v = floor((2^64 - 1) / p)
    give q0 = floor(x v / 2^64) in [q - 2, q], raised while x - q0 p >= p.  uint64
    lanes, odd p: r = w 2^64 mod p by mod_wide64, then the exact quotient
    (w 2^64 - r) / p < 2^64 is -r p^-1 mod 2^64."""
    cdef Py_ssize_t i
    cdef uint64_t x, q, r, v, d, pinv = p
    cdef int shift, k
    with nogil:
        if lane_t is uint32_t:
            v = <uint64_t>0xFFFFFFFFFFFFFFFF // p
            for i in range(w.shape[0]):
                x = (<uint64_t>w[i]) << 32
                q = ntt_mulhi64(x, v)
                r = x - q * p
                q += r >= p
                r -= p & mask64(r >= p)
                out[i] = <lane_t>(q + (r >= p))
        elif p % 2 == 0:
            for i in range(w.shape[0]):
                out[i] = ntt_div128(w[i], 0, p)
        else:
            shift = 0
            while (p << shift) >> 63 == 0:
                shift += 1
            d = p << shift
            v = ntt_div128(~d, <uint64_t>0xFFFFFFFFFFFFFFFF, d)   # floor((2^128-1)/d) - 2^64
            for k in range(5):   # Newton: p p = 1 mod 2^3, each step doubles the bits
                pinv *= 2 - p * pinv
            for i in range(w.shape[0]):
                r = mod_wide64(w[i], 0, d, v, shift)
                out[i] = (0 - r) * pinv


def goldilocks_groups_length(Py_ssize_t n):
    """Entries of the GOLDILOCKS group table of an n-point plan in this build (0: none;
    simd/ntt64/goldilocks.h): 2 B for the largest block B = min(n, CHUNK) a schedule
    hands its chunk stages, from n = GL_GROUP_MIN on (simd/ntt64/goldilocks_layout.h)."""
    cdef Py_ssize_t top = n if n < CHUNK else CHUNK
    return 2 * top if NTT64_GOLDILOCKS_GROUPS and top >= GL_GROUP_MIN else 0


def goldilocks_groups(uint64_t[::1] out, uint64_t w, Py_ssize_t n):
    """The radix-64 group twiddles of simd/ntt64/goldilocks.h for the n-point root w
    (stage twiddles r_{2h} = w^(n / 2h)): for every block B = GL_GROUP_MIN,
    2 GL_GROUP_MIN, .., with 2 B <= len(out), its top group's row length
    L = gl_group_row(B) (8 64^g, L < B <= 64 L) and rows k < 2^s = B / L,
    out[B + k L + i0] = r_B^(i0 bitrev_s(k)); out[0] = the largest B,
    out[1 .. GL_GROUP_MIN) = 0 (simd/ntt64/goldilocks_layout.h)."""
    cdef Py_ssize_t B = GL_GROUP_MIN, L, rows, k, i0, s, rev, bits
    cdef uint64_t r_b, step, x
    with nogil:
        for k in range(GL_GROUP_MIN):
            out[k] = 0
        while 2 * B <= out.shape[0]:
            L = gl_group_row(B)
            rows = B // L
            bits = 0
            while (<Py_ssize_t>1 << bits) < rows:
                bits += 1
            out[0] = <uint64_t>B
            step = w   # r_B = w^(n / B), by repeated squaring of w from n down to B
            s = n
            while s > B:
                step = goldilocks_mul64(step, step)
                s >>= 1
            r_b = step
            for k in range(rows):
                rev = 0
                for s in range(bits):
                    rev |= ((k >> s) & 1) << (bits - 1 - s)
                step = 1   # r_B^rev
                for s in range(rev):
                    step = goldilocks_mul64(step, r_b)
                x = 1
                for i0 in range(L):
                    out[B + k * L + i0] = x
                    x = goldilocks_mul64(x, step)
            B <<= 1
