# Residues for the transforms: values mod m (uint64) -> values mod one NTT prime on
# that prime's lanes, zero-padded to the transform length.  One pass, nogil; it
# replaces numpy's `x % p` (a hardware division per element, ~3 ns) by a
# reciprocal multiplication.
from cython.parallel cimport prange
from libc.stdint cimport uint32_t, uint64_t
from libc.string cimport memset

from ntt_cy._kernels.ntt.arith64 cimport barrett_mul64

ctypedef fused lane_t:
    uint32_t
    uint64_t

ctypedef fused src_t:
    uint32_t
    uint64_t


def reduce_pad(const src_t[:, ::1] src, lane_t[:, ::1] dst, uint64_t p, uint64_t d,
               uint64_t v, int shift, bint reduce, int threads):
    """dst[r, :n] = src[r] mod p, dst[r, n:] = 0.   # IN src (R, n); OUT dst (R, N >= n)

    2 <= p < 2^64 (p < 2^32 on uint32 lanes); (d, v, shift) = barrett_d/v/shift of
    ntt_cy.plan.modulus_constants(p).  With reduce=False the caller promises
    src < p and values are only converted.
    """
    cdef Py_ssize_t R = src.shape[0], n = src.shape[1], N = dst.shape[1], r, i
    if dst.shape[0] != R or N < n:
        raise ValueError("internal: reduce_pad shapes differ")
    if R == 0 or N == 0:
        return
    cdef const src_t* s = &src[0, 0] if n else NULL
    cdef lane_t* o = &dst[0, 0]
    with nogil:
        for r in prange(R, num_threads=threads if R >= threads else 1, schedule="static"):
            if reduce:
                for i in range(n):
                    o[r * N + i] = <lane_t>barrett_mul64(s[r * n + i], 1, d, v, shift)
            else:
                for i in range(n):
                    o[r * N + i] = <lane_t>s[r * n + i]
            if N > n:
                memset(o + r * N + n, 0, (N - n) * sizeof(lane_t))
