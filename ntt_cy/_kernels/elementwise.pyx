# Element-wise access to the reduction primitives of ntt/arith32.pxd / ntt/arith64.pxd,
# so tests can hit their exact range limits and benchmarks can time them alone.
from libc.stdint cimport uint32_t, uint64_t

from ntt_cy._kernels.ntt.arith32 cimport add_mod32, sub_mod32, mont_mul32, barrett_mul32, shoup_mul32
from ntt_cy._kernels.ntt.arith64 cimport (add_mod64, sub_mod64, mont_mul64, mont_mul52, barrett_mul64,
                              shoup_mul64)

ctypedef fused lane_t:
    uint32_t
    uint64_t


def mul_mod(str family, const lane_t[::1] a, const lane_t[::1] b, lane_t[::1] out, dict m):
    """out[i] = a[i] * b[i] reduced by `family`, exactly as the butterflies do it.

    montgomery: a*b*2^-L mod p in [0, p)     (a < 2^L, b < p, p odd)
    montgomery52: a*b*2^-52 mod p in [0, p)  (uint64 only; a < 2^52, b < p < 2^52, p odd)
    barrett:    a*b mod p in [0, p)           (a < 2^L, b < p)
    shoup:      a*b mod p in [0, 2p)          (a < 2^L, b < p, p < 2^(L-1)); uses the
                quotient floor(b * 2^L / p) computed here from b.
    m is NTTPlan's modulus_constants(p, dtype) dict.
    """
    cdef Py_ssize_t i, n = a.shape[0]
    cdef uint64_t p = m["p"], pinv = m["mont_pinv"], mu = m["barrett_mu"]
    cdef uint64_t d = m["barrett_d"], v = m["barrett_v"]
    cdef int shift = m["barrett_shift"]
    cdef lane_t q
    if b.shape[0] != n or out.shape[0] != n:
        raise ValueError("a, b and out must have the same length")
    cdef uint64_t pinv52 = m["mont52_pinv"]
    if family not in ("montgomery", "montgomery52", "barrett", "shoup"):
        raise ValueError(f"unknown family {family!r}")
    for i in range(n):
        if family == "montgomery":
            if lane_t is uint32_t:
                out[i] = mont_mul32(a[i], b[i], <uint32_t>p, <uint32_t>pinv)
            else:
                out[i] = mont_mul64(a[i], b[i], p, pinv)
        elif family == "montgomery52":
            if lane_t is uint32_t:
                raise ValueError("montgomery52 is a uint64-lane reduction")
            else:
                out[i] = mont_mul52(a[i], b[i], p, pinv52)
        elif family == "barrett":
            if lane_t is uint32_t:
                out[i] = barrett_mul32(a[i], b[i], <uint32_t>p, mu)
            else:
                out[i] = barrett_mul64(a[i], b[i], d, v, shift)
        else:
            q = <lane_t>((int(b[i]) << (8 * sizeof(lane_t))) // p)
            if lane_t is uint32_t:
                out[i] = shoup_mul32(a[i], b[i], q, <uint32_t>p)
            else:
                out[i] = shoup_mul64(a[i], b[i], q, p)


def add_sub_mod(const lane_t[::1] a, const lane_t[::1] b, lane_t[::1] sum_out,
                lane_t[::1] diff_out, uint64_t p):
    """sum_out = (a + b) mod p, diff_out = (a - b) mod p, for a, b in [0, p)."""
    cdef Py_ssize_t i
    for i in range(a.shape[0]):
        if lane_t is uint32_t:
            sum_out[i] = add_mod32(a[i], b[i], <uint32_t>p)
            diff_out[i] = sub_mod32(a[i], b[i], <uint32_t>p)
        else:
            sum_out[i] = add_mod64(a[i], b[i], p)
            diff_out[i] = sub_mod64(a[i], b[i], p)
