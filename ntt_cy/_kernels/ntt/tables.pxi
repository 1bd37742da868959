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


def goldilocks_groups_length(Py_ssize_t n):
    """Entries of the GOLDILOCKS group table of an n-point plan in this build (0: none;
    simd/ntt64/goldilocks.h): 2 B for the largest block B = min(n, CHUNK) a schedule
    hands its chunk stages, from n = 16 on."""
    cdef Py_ssize_t top = n if n < CHUNK else CHUNK
    return 2 * top if NTT64_GOLDILOCKS_GROUPS and top >= 16 else 0


def goldilocks_groups(uint64_t[::1] out, uint64_t w, Py_ssize_t n):
    """The radix-64 group twiddles of simd/ntt64/goldilocks.h for the n-point root w
    (stage twiddles r_{2h} = w^(n / 2h)): for every block B = 16, 32, .., with
    2 B <= len(out), its top group's row length L = 8 64^g (L < B <= 64 L) and rows
    k < 2^s = B / L, out[B + k L + i0] = r_B^(i0 bitrev_s(k)); out[0] = the largest B,
    out[1 .. 16) = 0."""
    cdef Py_ssize_t B = 16, L, rows, k, i0, s, rev, bits
    cdef uint64_t r_b, step, x
    with nogil:
        for k in range(16):
            out[k] = 0
        while 2 * B <= out.shape[0]:
            L = 8
            while 64 * L < B:
                L *= 64
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
