# Twiddle-table construction (powers, stage layout, Montgomery and Shoup forms).

def powers(lane_t[::1] out, uint64_t base, uint64_t start, uint64_t p):
    """out[i] = start * base^i mod p."""
    cdef Py_ssize_t i
    cdef uint64_t x = start % p, hi, lo
    with nogil:
        for i in range(out.shape[0]):
            out[i] = <lane_t>x
            lo = ntt_mul_wide(x, base, &hi)
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
    """out[i] = floor(w[i] * 2^L / p), for w[i] < p."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(w.shape[0]):
            if lane_t is uint32_t:
                out[i] = <lane_t>(((<uint64_t>w[i]) << 32) // p)
            else:
                out[i] = ntt_div128(w[i], 0, p)
