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
