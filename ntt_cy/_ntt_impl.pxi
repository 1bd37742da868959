# Butterfly kernels for both lane widths and all three reduction families.
#
# Layout (shared by every family): the stage with half-length `h` uses the
# twiddles tw[h + j] = r_{2h}^j, j < h, where r_{2h} is a primitive 2h-th root of
# unity.  One table of n entries serves every stage, each stage's twiddles are
# contiguous, and the inner loop over j is a plain unit-stride loop.
#
# Forward: Gentleman-Sande DIF, natural order in, bit-reversed order out.
# Inverse: Cooley-Tukey DIT, bit-reversed order in, natural order out.
# Convolution therefore needs no bit reversal at all; natural order costs one
# permutation pass: in place after the forward, a permuting copy before the inverse.
#
# Families and the ranges they keep between stages (L = lane bits):
#   MONTGOMERY  values in [0, p); twiddles stored as w*2^L mod p; p odd.
#   BARRETT     values in [0, p); twiddles stored plainly.
#   LAZY        Harvey's butterflies with Shoup twiddles: forward keeps [0, 2p),
#               inverse keeps [0, 4p), one correction at the end; needs 4p <= 2^L.
#
# Work split: stages whose blocks are larger than a cache-sized chunk run one
# stage at a time over the whole array (threads split each block's j range);
# the remaining stages run chunk by chunk, each chunk finished while it is in
# cache (threads take whole chunks).  So there is one parallel region per large
# stage plus one for all small stages, never a thread per stage or group.

cimport numpy as cnp
from cython.parallel cimport parallel, prange, threadid
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from ntt_cy._arith32 cimport add_mod32, sub_mod32, mont_mul32, barrett_mul32, shoup_mul32
from ntt_cy._arith64 cimport (add_mod64, sub_mod64, mont_mul64, mont_mul52, barrett_mul64,
                              shoup_mul64, fold_once, shoup_mul32_wide, mod_wide64,
                              mod_any_wide64)

from ntt_cy._aligned cimport aligned_new
from ntt_cy._openmp cimport check_threads
from ntt_cy._single_row cimport (LINEAR, aligned_scratch, copy_lanes, fold_lanes, load_lanes,
                                new_row, operand_width, row_width, valid_shape)

from ntt_cy._aligned import TABLE_TAIL_BYTES, readable_tail

cnp.import_array()

cdef extern from "_simd32_avx512.h" nogil:
    # Vector butterflies where the build targets AVX-512; they return 0 (did
    # nothing) in other builds.  Same ranges as the scalar code below.
    size_t ntt_simd32_run(int forward, uint32_t* x, uint32_t* y, const uint32_t* w,
                          const uint32_t* wq, size_t count, uint32_t p, uint32_t pinv,
                          uint64_t mu, int family)
    size_t ntt_simd32_run4(int forward, uint32_t* a, size_t h, size_t j0, size_t j1,
                           const uint32_t* tw, const uint32_t* twq, uint32_t p, uint32_t pinv,
                           uint64_t mu, int family)
    size_t ntt_simd32_pointwise(const uint32_t* a, const uint32_t* b, uint32_t* out,
                                size_t count, uint32_t p, uint32_t pinv, uint32_t c,
                                int lazy_out)
    size_t ntt_simd32_scale_lazy(uint32_t* a, size_t count, uint32_t c, uint32_t cq, uint32_t p)
    # A DIF's first sweep read straight from the source rows (vector builds; 0 elsewhere).
    size_t ntt_simd32_run4_src(uint32_t* a, const uint32_t* src, size_t h, size_t j0, size_t j1,
                               const uint32_t* tw, const uint32_t* twq, uint32_t p,
                               uint32_t pinv, uint64_t mu, int family, uint64_t* max_seen)
    size_t ntt_simd32_run_src(uint32_t* x, uint32_t* y, const uint32_t* sx, const uint32_t* sy,
                              const uint32_t* w, const uint32_t* wq, size_t count, uint32_t p,
                              uint32_t pinv, uint64_t mu, int family, uint64_t* max_seen)
    # The small stages in padded_product's tiled order, on blocks of NTT_CY_TILED_SMALL32
    # values (128 AVX2, 256 AVX-512; 0: no tiled order in this build).
    int NTT_CY_TILED_SMALL32
    int ntt_simd32_small_stages_tiled(int forward, uint32_t* a, size_t size, const uint32_t* tw,
                                      const uint32_t* twq, uint32_t p, uint32_t pinv,
                                      uint64_t mu, int family)
    size_t ntt_simd32_times(const uint32_t* src, uint32_t* dst, const uint32_t* w,
                            const uint32_t* wq, size_t count, uint32_t p, uint32_t pinv,
                            uint64_t mu, int family, int fold)
    size_t ntt_simd32_run4_padded(uint32_t* a, size_t h, size_t j0, size_t j1,
                                  const uint32_t* src32, const uint64_t* src64, size_t n_src,
                                  const uint32_t* tw, const uint32_t* twq, uint32_t p,
                                  uint32_t pinv, uint64_t mu, int family, int reduce_src,
                                  uint64_t* max_seen)
    int ntt_simd32_small_stages(int forward, uint32_t* a, size_t size, const uint32_t* tw,
                                const uint32_t* twq, uint32_t p, uint32_t pinv, uint64_t mu,
                                int family)

cdef extern from "_simd64_avx512.h" nogil:
    # uint64 lanes.  AVX-512 IFMA builds: every family (Montgomery with R = 2^52 or
    # 2^64, Barrett, LAZY).  AVX2 builds (_simd64_avx2.h): LAZY for p below
    # NTT_SIMD64_FLOAT_P_MAX, each product computed in double precision from the
    # balanced twiddles `wf` and `wf / p` (`wfq`), which ntt_simd64_float_twiddles
    # asks the plan to build.  Elsewhere the functions do nothing (return 0).
    # Parameters from simd64_params().
    int NTT_SIMD64_MONT52, NTT_SIMD64_BARRETT, NTT_SIMD64_MONT64
    ctypedef struct ntt_simd64_params:
        uint64_t p, pinv, barrett_d, barrett_v
        int barrett_shift, family
    int ntt_simd64_montgomery_bits(uint64_t p)
    int ntt_simd64_float_twiddles(uint64_t p)
    size_t ntt_simd64_run(int forward, uint64_t* x, uint64_t* y, const uint64_t* w,
                          const uint64_t* wq, const double* wf, const double* wfq,
                          size_t count, const ntt_simd64_params* prm)
    size_t ntt_simd64_run4(int forward, uint64_t* a, size_t h, size_t j0, size_t j1,
                           const uint64_t* tw, const uint64_t* twq, const double* twf,
                           const double* twfq, const ntt_simd64_params* prm)
    size_t ntt_simd64_pointwise(const uint64_t* a, const uint64_t* b, uint64_t* out,
                                size_t count, uint64_t c, const ntt_simd64_params* prm)
    int ntt_simd64_small_stages(int forward, uint64_t* a, size_t size, const uint64_t* tw,
                                const uint64_t* twq, const double* twf, const double* twfq,
                                const ntt_simd64_params* prm)
    size_t ntt_simd64_times(const uint64_t* src, uint64_t* dst, const double* wf,
                            const double* wfq, size_t count, int fold,
                            const ntt_simd64_params* prm)
    size_t ntt_simd64_scale(uint64_t* a, size_t count, uint64_t c, const ntt_simd64_params* prm)

cdef extern from *:
    """
    /* An orphaned barrier: binds to the enclosing Cython `parallel()` region. */
    static inline void ntt_cy_barrier(void) {
    #ifdef _OPENMP
        _Pragma("omp barrier")
    #endif
    }
    """
    void ntt_cy_barrier() nogil

cdef extern from "_simd_bitrev_avx512.h" nogil:
    # Bit-reversal copy by in-register tile transposes (AVX-512 and AVX2 builds; return
    # 0, did nothing, elsewhere).
    int ntt_simd_bitrev32(const uint32_t* src, uint32_t* dst, int bits, const uint32_t* rev,
                          size_t m0, size_t m1)
    int ntt_simd_bitrev64(const uint64_t* src, uint64_t* dst, int bits, const uint32_t* rev,
                          size_t m0, size_t m1)
    int ntt_simd_bitrev32_inplace(uint32_t* a, int bits, const uint32_t* rev, size_t m0,
                                  size_t m1, uint32_t fold_p)
    int ntt_simd_bitrev64_inplace(uint64_t* a, int bits, const uint32_t* rev, size_t m0,
                                  size_t m1, uint64_t fold_p)
    # The permutations with the four stages at a transform's bit-reversed end on the
    # way: the last four of a DIF, the first four of a DIT (vector builds;
    # NTT_CY_FUSED_BITREV32 says whether this build has them).
    int NTT_CY_FUSED_BITREV32
    int ntt_simd_dif4_bitrev32_inplace(uint32_t* a, int bits, const uint32_t* rev, size_t m0,
                                       size_t m1, uint32_t fold_p, const uint32_t* tw,
                                       const uint32_t* twq, uint32_t p, uint32_t pinv,
                                       uint64_t mu, int family)
    int ntt_simd_dit4_bitrev32(const uint32_t* src, uint32_t* dst, int bits, const uint32_t* rev,
                               size_t m0, size_t m1, const uint32_t* tw, const uint32_t* twq,
                               uint32_t p, uint32_t pinv, uint64_t mu, int family,
                               uint64_t* max_seen)
    int ntt_simd_dit4_bitrev32_inplace(uint32_t* a, int bits, const uint32_t* rev, size_t m0,
                                       size_t m1, const uint32_t* tw, const uint32_t* twq,
                                       uint32_t p, uint32_t pinv, uint64_t mu, int family)

cdef extern from "_u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)
    uint64_t ntt_mod128(uint64_t hi, uint64_t lo, uint64_t p)
    uint64_t ntt_div128(uint64_t hi, uint64_t lo, uint64_t p)

ctypedef fused lane_t:
    uint32_t
    uint64_t

ctypedef fused source_t:
    uint32_t
    uint64_t

cdef enum:
    MONTGOMERY = 0
    BARRETT = 1
    LAZY = 2

FAMILY_CODES = {"montgomery": MONTGOMERY, "barrett": BARRETT, "lazy": LAZY}

# Elements per cache chunk: 256 KiB of uint32 / 512 KiB of uint64, within a core's L2
# (512 KiB on the Zen 3 EPYC, more on the AVX-512 Xeons).  Measured against 8192 and
# 32768 (1 and 2 threads, n = 2^17..2^22): as fast or faster (Zen 3, 32768: 2-6% slower
# at 2^18 and 2^20; the uint32 chunk sweeps run at 99% of the register rate there).
DEF CHUNK = 65536
# Bytes of a sub-block whose remaining stages run depth-first inside a chunk, so
# they stay near L1 (48 KiB on the Xeons, 32 KiB on Zen 3) instead of streaming the
# chunk through L2 once per stage pair.  A block's data and stage twiddles (~48 KiB for
# uint32 LAZY) exceed Zen 3's L1, yet 8 KiB blocks, which fit, ran 4-14% slower there
# (docs/speed-journal.md).
DEF L1_BLOCK_BYTES = 16384

# Groups per piece when the first sweep of an out-of-place forward copies its input:
# the piece's segments (at most 4 x 512 values) are still in L1 for the butterflies.
DEF COPY_PIECE = 512
# uint64 entries per largest-value slot (_seen_slots): one cache line.
DEF SLOT = 8


cdef struct Modulus:
    uint64_t p
    uint64_t two_p
    uint64_t mont_pinv      # p^-1 mod 2^L
    int mont_bits           # Montgomery radix bits: L, or 52 for IFMA builds (uint64, p < 2^52)
    uint64_t mont52_pinv    # -p^-1 mod 2^52 (mont_bits == 52 only)
    uint64_t barrett_mu     # 32-bit lanes: floor(2^64 / p)
    uint64_t barrett_d      # 64-bit lanes: p << shift
    uint64_t barrett_v      # 64-bit lanes: floor((2^128-1)/d) - 2^64
    int barrett_shift       # 64-bit lanes: clz(p)


cdef struct Twiddles:
    # One direction's stage twiddles (layout at the top of this file).
    const void* w           # family form
    const void* q           # Shoup quotients of w (LAZY only), else NULL
    const double* f         # w balanced into (-p/2, p/2], as doubles, where the build's
    const double* fq        # uint64 LAZY kernels compute in double precision; f / p
                            # (both NULL elsewhere: see ntt_simd64_float_twiddles)


cdef struct Tables:
    int family
    Modulus mod
    Twiddles fwd            # forward (DIF) stage twiddles
    Twiddles inv            # inverse (DIT) stage twiddles
    Twiddles twist          # negacyclic: psi^i (family form), else w = NULL
    Twiddles untwist        # inverse scaling per element: n^-1 psi^-i, else w = NULL
    uint64_t scale          # cyclic inverse scaling n^-1 (family form)
    uint64_t scale_q
    const uint32_t* bitrev  # bit-reversal permutation of range(n)


# ---------------------------------------------------------------- arithmetic

cdef inline lane_t add_mod(lane_t a, lane_t b, lane_t p) noexcept nogil:
    if lane_t is uint32_t:
        return add_mod32(a, b, p)
    else:
        return add_mod64(a, b, p)


cdef inline lane_t sub_mod(lane_t a, lane_t b, lane_t p) noexcept nogil:
    if lane_t is uint32_t:
        return sub_mod32(a, b, p)
    else:
        return sub_mod64(a, b, p)


cdef inline lane_t mul_family(lane_t a, lane_t w, lane_t wq, const Modulus* m, int family) noexcept nogil:
    # a*w mod p for a in [0, 2^L), w in family form; [0, p) except LAZY: [0, 2p).
    if family == MONTGOMERY:
        if lane_t is uint32_t:
            return mont_mul32(a, w, <uint32_t>m.p, <uint32_t>m.mont_pinv)
        elif m.mont_bits == 52:
            return mont_mul52(a, w, m.p, m.mont52_pinv)
        else:
            return mont_mul64(a, w, m.p, m.mont_pinv)
    elif family == BARRETT:
        if lane_t is uint32_t:
            return barrett_mul32(a, w, <uint32_t>m.p, m.barrett_mu)
        else:
            return barrett_mul64(a, w, m.barrett_d, m.barrett_v, m.barrett_shift)
    else:
        if lane_t is uint32_t:
            return shoup_mul32(a, w, wq, <uint32_t>m.p)
        else:
            return shoup_mul64(a, w, wq, m.p)


# ------------------------------------------------------- butterfly runs
# Each run does the butterflies (x[j], y[j]) with twiddle w[j] for j < count.

cdef inline void dif_run_exact(lane_t* x, lane_t* y, const lane_t* w, Py_ssize_t count,
                               const Modulus* m, int family) noexcept nogil:
    # GS butterfly, in/out [0, p): (u, v) -> (u + v, (u - v) * w).
    cdef Py_ssize_t j
    cdef lane_t u, v, p = <lane_t>m.p
    if family == MONTGOMERY:
        for j in range(count):
            u = x[j]
            v = y[j]
            x[j] = add_mod(u, v, p)
            y[j] = mul_family(sub_mod(u, v, p), w[j], 0, m, MONTGOMERY)
    else:
        for j in range(count):
            u = x[j]
            v = y[j]
            x[j] = add_mod(u, v, p)
            y[j] = mul_family(sub_mod(u, v, p), w[j], 0, m, BARRETT)


cdef inline void dif_run_lazy(lane_t* x, lane_t* y, const lane_t* w, const lane_t* wq,
                              Py_ssize_t count, const Modulus* m) noexcept nogil:
    # Harvey GS butterfly, in/out [0, 2p), needs 4p <= 2^L:
    # u + v < 4p is folded back below 2p; u - v + 2p in (0, 4p) goes through Shoup -> [0, 2p).
    cdef Py_ssize_t j
    cdef lane_t u, v, s, p = <lane_t>m.p, two_p = <lane_t>m.two_p
    for j in range(count):
        u = x[j]
        v = y[j]
        s = u + v
        x[j] = s - two_p if s >= two_p else s
        y[j] = mul_family(u - v + two_p, w[j], wq[j], m, LAZY)


cdef inline void dit_run_exact(lane_t* x, lane_t* y, const lane_t* w, Py_ssize_t count,
                               const Modulus* m, int family) noexcept nogil:
    # CT butterfly, in/out [0, p): (u, v) -> (u + v*w, u - v*w).
    cdef Py_ssize_t j
    cdef lane_t u, t, p = <lane_t>m.p
    if family == MONTGOMERY:
        for j in range(count):
            u = x[j]
            t = mul_family(y[j], w[j], 0, m, MONTGOMERY)
            x[j] = add_mod(u, t, p)
            y[j] = sub_mod(u, t, p)
    else:
        for j in range(count):
            u = x[j]
            t = mul_family(y[j], w[j], 0, m, BARRETT)
            x[j] = add_mod(u, t, p)
            y[j] = sub_mod(u, t, p)


cdef inline void dit_run_lazy(lane_t* x, lane_t* y, const lane_t* w, const lane_t* wq,
                              Py_ssize_t count, const Modulus* m) noexcept nogil:
    # Harvey CT butterfly, in/out [0, 4p), needs 4p <= 2^L: u is folded below 2p,
    # t = Shoup(v) in [0, 2p) (v < 4p <= 2^L is a valid Shoup input), then
    # u + t in [0, 4p) and u - t + 2p in (0, 4p).
    cdef Py_ssize_t j
    cdef lane_t u, t, two_p = <lane_t>m.two_p
    for j in range(count):
        u = x[j]
        if u >= two_p:
            u = u - two_p
        t = mul_family(y[j], w[j], wq[j], m, LAZY)
        x[j] = u + t
        y[j] = u - t + two_p


cdef inline Py_ssize_t simd_run(int forward, uint32_t* a, Py_ssize_t half, Py_ssize_t j0,
                                Py_ssize_t j1, const Twiddles* tw, const Tables* t) noexcept nogil:
    # Vector part of a run (a multiple of the vector width); the caller finishes the rest.
    cdef const uint32_t* twq = <const uint32_t*>tw.q
    return ntt_simd32_run(forward, a + j0, a + half + j0, <const uint32_t*>tw.w + half + j0,
                          twq + half + j0 if twq != NULL else NULL, j1 - j0,
                          <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                          t.family)


cdef inline ntt_simd64_params simd64_params(const Modulus* m, int family) noexcept nogil:
    # The modulus for _simd64_avx512.h in `family` (a Tables family code).
    cdef ntt_simd64_params prm
    prm.p = m.p
    prm.pinv = m.mont52_pinv if m.mont_bits == 52 else m.mont_pinv
    prm.barrett_d = m.barrett_d
    prm.barrett_v = m.barrett_v
    prm.barrett_shift = m.barrett_shift
    if family == MONTGOMERY:
        prm.family = NTT_SIMD64_MONT52 if m.mont_bits == 52 else NTT_SIMD64_MONT64
    elif family == BARRETT:
        prm.family = NTT_SIMD64_BARRETT
    else:
        prm.family = LAZY
    return prm


cdef inline const double* offset(const double* table, Py_ssize_t k) noexcept nogil:
    return table + k if table != NULL else NULL


cdef inline Py_ssize_t simd64_run(int forward, uint64_t* a, Py_ssize_t half, Py_ssize_t j0,
                                  Py_ssize_t j1, const Twiddles* tw,
                                  const Tables* t) noexcept nogil:
    cdef ntt_simd64_params prm = simd64_params(&t.mod, t.family)
    cdef const uint64_t* twq = <const uint64_t*>tw.q
    return ntt_simd64_run(forward, a + j0, a + half + j0, <const uint64_t*>tw.w + half + j0,
                          twq + half + j0 if twq != NULL else NULL,
                          offset(tw.f, half + j0), offset(tw.fq, half + j0), j1 - j0, &prm)


cdef inline bint simd_small_stages(int forward, lane_t* a, Py_ssize_t size, const Tables* t,
                                   const Twiddles* tw, bint tiled) noexcept nogil:
    cdef ntt_simd64_params prm
    # The last (DIF) or first (DIT) stages of half-length <= small_half in registers:
    # uint32 lanes (every family) in AVX2 and AVX-512 builds, uint64 in IFMA builds
    # (every family) and AVX2 builds (LAZY in double precision, tw.f != NULL).  tiled
    # (uint32, see tiled_order): in padded_product's tiled order.
    if lane_t is uint32_t:
        if tiled:
            return ntt_simd32_small_stages_tiled(forward, a, size, <const uint32_t*>tw.w,
                                                 <const uint32_t*>tw.q, <uint32_t>t.mod.p,
                                                 <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                                                 t.family)
        return ntt_simd32_small_stages(forward, a, size, <const uint32_t*>tw.w,
                                       <const uint32_t*>tw.q, <uint32_t>t.mod.p,
                                       <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family)
    else:
        prm = simd64_params(&t.mod, t.family)
        return ntt_simd64_small_stages(forward, a, size, <const uint64_t*>tw.w,
                                       <const uint64_t*>tw.q, tw.f, tw.fq, &prm)


cdef inline Py_ssize_t small_half(lane_t* a) noexcept nogil:
    # Largest half-length simd_small_stages covers: 16 uint32 / 8 uint64 per vector.
    if lane_t is uint32_t:
        return 8
    else:
        return 4


cdef inline void dif_run(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                         const Tables* t) noexcept nogil:
    # Butterflies j0 <= j < j1 of the block starting at a, half-length `half`.
    cdef const lane_t* w = <const lane_t*>t.fwd.w + half
    if lane_t is uint32_t:
        j0 += simd_run(1, a, half, j0, j1, &t.fwd, t)
    else:
        j0 += simd64_run(1, a, half, j0, j1, &t.fwd, t)
    if t.family == LAZY:
        dif_run_lazy(a + j0, a + half + j0, w + j0,
                     <const lane_t*>t.fwd.q + half + j0, j1 - j0, &t.mod)
    else:
        dif_run_exact(a + j0, a + half + j0, w + j0, j1 - j0, &t.mod, t.family)


cdef inline void dit_run(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                         const Tables* t, const Twiddles* tw) noexcept nogil:
    # As dif_run, for the DIT butterfly with stage twiddles tw: the inverse twiddles
    # give the inverse transform, the forward ones the forward transform from
    # bit-reversed input.
    cdef const lane_t* w = <const lane_t*>tw.w + half
    if lane_t is uint32_t:
        j0 += simd_run(0, a, half, j0, j1, tw, t)
    else:
        j0 += simd64_run(0, a, half, j0, j1, tw, t)
    if t.family == LAZY:
        dit_run_lazy(a + j0, a + half + j0, w + j0,
                     <const lane_t*>tw.q + half + j0, j1 - j0, &t.mod)
    else:
        dit_run_exact(a + j0, a + half + j0, w + j0, j1 - j0, &t.mod, t.family)


cdef inline Py_ssize_t simd_run4(int forward, lane_t* a, Py_ssize_t half, Py_ssize_t j0,
                                 Py_ssize_t j1, const Tables* t,
                                 const Twiddles* tw) noexcept nogil:
    # Vector radix-4 groups j0 <= j < (returned count) of ntt_simd32_run4 / run4.
    cdef ntt_simd64_params prm
    if lane_t is uint32_t:
        return ntt_simd32_run4(forward, a, half, j0, j1, <const uint32_t*>tw.w,
                               <const uint32_t*>tw.q, <uint32_t>t.mod.p,
                               <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family)
    else:
        prm = simd64_params(&t.mod, t.family)
        return ntt_simd64_run4(forward, a, half, j0, j1, <const uint64_t*>tw.w,
                               <const uint64_t*>tw.q, tw.f, tw.fq, &prm)


cdef inline void dif_run4(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                          const Tables* t) noexcept nogil:
    # DIF stages `half` and `half/2` on the block a[0:2*half], groups j0 <= j < j1
    # of [0, half/2) (see ntt_simd32_run4): vector radix-4 where available, the
    # same butterflies as two radix-2 runs otherwise.
    cdef Py_ssize_t q = half >> 1
    j0 += simd_run4(1, a, half, j0, j1, t, &t.fwd)
    if j0 < j1:
        dif_run(a, half, j0, j1, t)
        dif_run(a, half, q + j0, q + j1, t)
        dif_run(a, q, j0, j1, t)
        dif_run(a + half, q, j0, j1, t)


cdef inline void dit_run4(lane_t* a, Py_ssize_t half, Py_ssize_t j0, Py_ssize_t j1,
                          const Tables* t, const Twiddles* tw) noexcept nogil:
    # DIT stages `half/2` then `half` on a[0:2*half], groups j0 <= j < j1 of [0, half/2).
    cdef Py_ssize_t q = half >> 1
    j0 += simd_run4(0, a, half, j0, j1, t, tw)
    if j0 < j1:
        dit_run(a, q, j0, j1, t, tw)
        dit_run(a + half, q, j0, j1, t, tw)
        dit_run(a, half, j0, j1, t, tw)
        dit_run(a, half, q + j0, q + j1, t, tw)


cdef inline Py_ssize_t split(Py_ssize_t count, int part, int parts) noexcept nogil:
    # Start of part `part` of range(count) cut in `parts`, on a multiple of 16 so
    # every part but the last keeps whole vectors.
    if part >= parts:
        return count
    return (count * part // parts) & ~(<Py_ssize_t>15)


# ------------------------------------------------------- stage schedules

cdef enum:
    # How a schedule runs the four stages at the bit-reversed end of a transform (the
    # forward's last, h = 8..1; the inverse's first): in registers with the segments'
    # halves shuffled (bit-reversed order), in padded_product's tiled order
    # (tiled_order), or not at all: the natural-order permutation runs them (fused_edge).
    SMALL_SHUFFLED = 0
    SMALL_TILED = 1
    SMALL_IN_PERMUTATION = 2


cdef inline Py_ssize_t lowest_half(int small) noexcept nogil:
    # The smallest half-length a schedule's own stages take: 16 when the permutation
    # runs the four below it, else 1.
    return 16 if small == SMALL_IN_PERMUTATION else 1


cdef void dif_stages(lane_t* a, Py_ssize_t size, Py_ssize_t half_hi,
                     const Tables* t, int small) noexcept nogil:
    # All stages with half-length half_hi, half_hi/2, ..., 1 on a[0:size], the last four
    # as `small` says (down to 16 only for SMALL_IN_PERMUTATION).  Stages whose blocks
    # exceed an L1 sub-block sweep a[0:size]; then each sub-block takes all of its
    # remaining stages before the next one is touched.
    cdef Py_ssize_t half = half_hi, s, blk = L1_BLOCK_BYTES // sizeof(lane_t)
    cdef Py_ssize_t lowest = lowest_half(small)
    if size > blk and half_hi >= blk:
        while half >= blk:
            if half >= 2 * blk:
                for s in range(size // (2 * half)):
                    dif_run4(a + 2 * half * s, half, 0, half >> 1, t)
                half >>= 2
            else:
                for s in range(size // (2 * half)):
                    dif_run(a + 2 * half * s, half, 0, half, t)
                half >>= 1
        for s in range(size // blk):
            dif_stages(a + blk * s, blk, half, t, small)
        return
    while half >= lowest:
        if half == small_half(a) and simd_small_stages(1, a, size, t, &t.fwd,
                                                       small == SMALL_TILED):
            return
        if half >= 4 * small_half(a):  # two stages at once; at most one radix-2 before the tail
            for s in range(size // (2 * half)):
                dif_run4(a + 2 * half * s, half, 0, half >> 1, t)
            half >>= 2
            continue
        for s in range(size // (2 * half)):
            dif_run(a + 2 * half * s, half, 0, half, t)
        half >>= 1


cdef void dit_stages(lane_t* a, Py_ssize_t size, Py_ssize_t half_hi, const Tables* t,
                     const Twiddles* tw, const lane_t* mb,
                     lane_t mc, int small) noexcept nogil:
    # All stages with half-length 1, 2, ..., half_hi on a[0:size], the first four as
    # `small` says (from 16 on only for SMALL_IN_PERMUTATION); sub-blocks of L1 size
    # first, each through all of its stages (see dif_stages).  mb != NULL: first
    # a[i] <- a[i] mb[i] mc (pointwise_span), one L1 block at a time, so the product
    # never makes a pass of its own over memory.
    cdef Py_ssize_t half = lowest_half(small)
    cdef Py_ssize_t s, blk = L1_BLOCK_BYTES // sizeof(lane_t)
    if size > blk and half_hi >= blk:
        for s in range(size // blk):
            dit_stages(a + blk * s, blk, blk >> 1, t, tw,
                       mb + blk * s if mb != NULL else NULL, mc, small)
        half = blk
        while half <= half_hi:
            if 2 * half <= half_hi:
                for s in range(size // (4 * half)):
                    dit_run4(a + 4 * half * s, 2 * half, 0, half, t, tw)
                half <<= 2
            else:
                for s in range(size // (2 * half)):
                    dit_run(a + 2 * half * s, half, 0, half, t, tw)
                half <<= 1
        return
    if mb != NULL:
        product_for_dit(a, mb, size, t, mc)
    if (half == 1 and half_hi >= small_half(a)
            and simd_small_stages(0, a, size, t, tw, small == SMALL_TILED)):
        half = 2 * small_half(a)
    while half <= half_hi:
        if 2 * half <= half_hi and half >= 2 * small_half(a):  # stages half and 2*half at once
            for s in range(size // (4 * half)):
                dit_run4(a + 4 * half * s, 2 * half, 0, half, t, tw)
            half <<= 2
            continue
        for s in range(size // (2 * half)):
            dit_run(a + 2 * half * s, half, 0, half, t, tw)
        half <<= 1


cdef inline Py_ssize_t chunk_size(Py_ssize_t n, int threads) noexcept nogil:
    # A power of two <= CHUNK with at least `threads` chunks when n allows.
    cdef Py_ssize_t c = n if n < CHUNK else CHUNK
    while c > 1 and n // c < threads:
        c >>= 1
    return c


cdef inline void copy_max(const lane_t* src, lane_t* dst, Py_ssize_t count,
                         uint64_t* seen) noexcept nogil:
    # dst[i] = src[i] for i < count, *seen raised to the largest value (a copy and a
    # range check in one read of src; gcc vectorises both).
    cdef Py_ssize_t i
    cdef lane_t v, top = <lane_t>seen[0]
    for i in range(count):
        v = src[i]
        dst[i] = v
        top = v if v > top else top
    seen[0] = top


cdef void max_range(const lane_t* src, Py_ssize_t lo, Py_ssize_t hi,
                    uint64_t* seen) noexcept nogil:
    cdef Py_ssize_t i
    cdef lane_t top = <lane_t>seen[0]
    for i in range(lo, hi):
        top = src[i] if src[i] > top else top
    seen[0] = top


cdef inline Py_ssize_t simd_first_sweep(lane_t* a, const lane_t* src, Py_ssize_t half,
                                        bint radix4, Py_ssize_t j0, Py_ssize_t j1,
                                        const Tables* t, uint64_t* seen) noexcept nogil:
    # Vector part of a first sweep's butterflies j0 <= j < j1 of the block at a, read
    # straight from src (see dif_large_pass), *seen raised to the largest value read:
    # returns how many were done (vector builds, uint32; 0 elsewhere).
    cdef const uint32_t* w
    cdef const uint32_t* wq
    if lane_t is uint32_t:
        if radix4:
            return <Py_ssize_t>ntt_simd32_run4_src(
                a, src, half, j0, j1, <const uint32_t*>t.fwd.w, <const uint32_t*>t.fwd.q,
                <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family, seen)
        w = <const uint32_t*>t.fwd.w + half + j0
        wq = <const uint32_t*>t.fwd.q + half + j0 if t.fwd.q != NULL else NULL
        return <Py_ssize_t>ntt_simd32_run_src(
            a + j0, a + half + j0, src + j0, src + half + j0, w, wq, j1 - j0,
            <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family, seen)
    else:   # (an `else`, so that Cython sees no unreachable code in the uint32 copy)
        return 0


cdef void dif_large_pass(lane_t* a, Py_ssize_t n, Py_ssize_t half, int part, int parts,
                         const Tables* t, const lane_t* src, uint64_t* seen) noexcept nogil:
    # One sweep over a[0:n] for the stage(s) starting at half-length `half` (two stages
    # when half/2 is also a large stage, see dif_schedule); this caller's share is
    # part `part` of `parts` of every block's butterfly range.  src != a: the input
    # is src (a's values are ignored): the vector butterflies read it directly
    # (simd_first_sweep), and what they leave is copied into a piece of COPY_PIECE
    # groups at a time right before its butterflies, so the copy costs no pass of its
    # own; *seen is raised to the largest value read.
    cdef Py_ssize_t s, k, j, j1, base, q = half >> 1
    cdef bint radix4 = q >= chunk_size(n, parts)
    cdef Py_ssize_t width = q if radix4 else half   # groups per block, one segment each
    cdef Py_ssize_t segments = 4 if radix4 else 2
    cdef Py_ssize_t lo = split(width, part, parts), hi = split(width, part + 1, parts)
    for s in range(n // (2 * half)):
        base = 2 * half * s
        j = lo
        if src != a:
            j += simd_first_sweep(a + base, src + base, half, radix4, lo, hi, t, seen)
        while j < hi:
            j1 = hi if src == a or j + COPY_PIECE >= hi else j + COPY_PIECE
            if src != a:
                for k in range(segments):
                    copy_max(src + base + k * width + j, a + base + k * width + j, j1 - j,
                             seen)
            if radix4:
                dif_run4(a + base, half, j, j1, t)
            else:
                dif_run(a + base, half, j, j1, t)
            j = j1


cdef enum:
    # What the last pass of a DIT schedule also does to the values it wrote (see
    # dit_schedule): nothing, fold LAZY's [0, 4p) to [0, p), or scale (finish_inverse).
    FINISH_NONE = 0
    FINISH_FOLD = 1
    FINISH_SCALE = 2

# Groups per piece when the last pass also finishes its values: the piece's four
# segments (4 * 512 values) are still in L1 when they are finished.
DEF FINISH_PIECE = 512


cdef inline void finish_range(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t,
                              int finish) noexcept nogil:
    if finish == FINISH_FOLD:
        fold_lazy_dit(a, lo, hi, t)
    elif finish == FINISH_SCALE:
        finish_inverse(a, lo, hi, t)


cdef void dit_large_pass(lane_t* a, Py_ssize_t n, Py_ssize_t half, int part, int parts,
                         const Tables* t, const Twiddles* tw,
                         int finish) noexcept nogil:
    # DIT counterpart: stages `half` and 2*half when 2*half < n, else `half` alone.
    # finish != FINISH_NONE (last pass only): each piece of FINISH_PIECE groups is
    # finished right after its butterflies, instead of in a separate sweep.
    cdef Py_ssize_t s, j, j1, lo, hi, base, k, width = 2 * half if 2 * half < n else half
    cdef int segments = 4 if 2 * half < n else 2
    for s in range(n // (segments * half)):
        base = segments * half * s
        lo = split(half, part, parts)
        hi = split(half, part + 1, parts)
        j = lo
        while j < hi:
            j1 = hi if finish == FINISH_NONE or j + FINISH_PIECE >= hi else j + FINISH_PIECE
            if segments == 4:
                dit_run4(a + base, width, j, j1, t, tw)
            else:
                dit_run(a + base, width, j, j1, t, tw)
            for k in range(segments if finish != FINISH_NONE else 0):
                finish_range(a, base + k * half + j, base + k * half + j1, t, finish)
            j = j1


cdef void dif_schedule(lane_t* a, Py_ssize_t n, Py_ssize_t c, int part, int parts,
                       const Tables* t, Py_ssize_t half, const lane_t* src,
                       uint64_t* seen, int small) noexcept nogil:
    # Forward DIF stages half, half/2, ..., 1 of a[0:n] (half = n/2 for a whole
    # transform): the large stages (blocks bigger than the chunk c) sweep the whole
    # array, two at a time, then the rest run chunk by chunk.  With parts > 1 this is
    # one thread's share inside an OpenMP region (every sweep split between the
    # threads, a barrier after each sweep).  src != a: the input is src, copied into a
    # by the first sweep (or chunk by chunk when there is no large stage), *seen
    # raised to its largest value.  small: see dif_stages (SMALL_IN_PERMUTATION needs
    # c >= 16, SMALL_TILED c >= NTT_CY_TILED_SMALL32: the last four stages then run in
    # the chunks).
    cdef Py_ssize_t nchunks = n // c, k
    while half >= c:
        dif_large_pass(a, n, half, part, parts, t, src, seen)
        src = a
        if parts > 1:
            ntt_cy_barrier()
        half >>= 2 if half >> 1 >= c else 1
    for k in range(nchunks * part // parts, nchunks * (part + 1) // parts):
        if src != a:
            copy_max(src + k * c, a + k * c, c, seen)
        if half >= lowest_half(small):
            dif_stages(a + k * c, c, half, t, small)


cdef bint dit_schedule(lane_t* a, Py_ssize_t n, Py_ssize_t c, int part, int parts,
                       const Tables* t, const Twiddles* tw, int finish,
                       const lane_t* mb, lane_t mc, int small) noexcept nogil:
    # DIT stages with twiddles tw: chunks first, then the large sweeps (a barrier
    # before each sweep when shared between threads).  Returns whether the last
    # sweep also applied `finish` (there is one when n > c); if not, the caller
    # finishes the values in a pass of its own.  mb: see dit_stages (needs c > 1).
    cdef Py_ssize_t half = c, nchunks = n // c, k, step
    if c > 1:
        for k in range(nchunks * part // parts, nchunks * (part + 1) // parts):
            dit_stages(a + k * c, c, c >> 1, t, tw, mb + k * c if mb != NULL else NULL, mc,
                       small)
    if half >= n:
        return False
    while half < n:
        if parts > 1:
            ntt_cy_barrier()
        step = 4 if 2 * half < n else 2
        dit_large_pass(a, n, half, part, parts, t, tw,
                       finish if half * step >= n else FINISH_NONE)
        half *= step
    return True


# ------------------------------------------------------- element-wise passes
# Each pass covers the index range [lo, hi) of one row, so threads can share a row.

cdef inline Py_ssize_t simd_times(const lane_t* src, lane_t* dst, const Twiddles* w,
                                  Py_ssize_t lo, Py_ssize_t hi, const Tables* t,
                                  bint fold) noexcept nogil:
    # Vector part of dst[i] = src[i] * w[i] for lo <= i < hi (uint32 lanes in AVX-512
    # builds, uint64 LAZY in AVX2 builds): returns where the caller's scalar loop
    # continues.
    cdef Py_ssize_t done = 0
    cdef const uint32_t* wq = <const uint32_t*>w.q
    cdef ntt_simd64_params prm
    if lane_t is uint32_t:
        done = <Py_ssize_t>ntt_simd32_times(
            src + lo, dst + lo, <const uint32_t*>w.w + lo, wq + lo if wq != NULL else NULL,
            hi - lo, <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family,
            fold)
    else:
        prm = simd64_params(&t.mod, t.family)
        done = <Py_ssize_t>ntt_simd64_times(src + lo, dst + lo, offset(w.f, lo),
                                            offset(w.fq, lo), hi - lo, fold, &prm)
    return lo + done


cdef void load_forward(const lane_t* src, lane_t* dst, Py_ssize_t lo, Py_ssize_t hi,
                       const Tables* t) noexcept nogil:
    # dst = src (cyclic) or src * psi^i (negacyclic); src may equal dst.  Out: [0, p)
    # for exact families, [0, 2p) for LAZY (a valid DIF input).
    cdef Py_ssize_t i
    cdef const lane_t* tw = <const lane_t*>t.twist.w
    cdef const lane_t* twq = <const lane_t*>t.twist.q
    if tw == NULL:
        if src != dst:
            for i in range(lo, hi):
                dst[i] = src[i]
    elif t.family == LAZY:
        for i in range(simd_times(src, dst, &t.twist, lo, hi, t, False), hi):
            dst[i] = mul_family(src[i], tw[i], twq[i], &t.mod, LAZY)
    else:
        for i in range(simd_times(src, dst, &t.twist, lo, hi, t, False), hi):
            dst[i] = mul_family(src[i], tw[i], 0, &t.mod, t.family)


cdef void finish_forward(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t) noexcept nogil:
    # LAZY DIF leaves [0, 2p): fold to [0, p).  A select, not a conditional store: gcc
    # vectorises it (as a branch, half the values mispredicted, it cost 25% of an
    # in-place bit-reversed transform).
    cdef Py_ssize_t i
    cdef lane_t p = <lane_t>t.mod.p, v
    if t.family == LAZY:
        for i in range(lo, hi):
            v = a[i]
            a[i] = v - p if v >= p else v


cdef void finish_inverse(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t) noexcept nogil:
    # Multiply by n^-1 (cyclic) or n^-1 psi^-i (negacyclic).  In: [0, p), or [0, 4p)
    # for LAZY (a valid Shoup input, result [0, 2p), then folded).  Out: [0, p).
    cdef Py_ssize_t i
    cdef lane_t p = <lane_t>t.mod.p, v
    cdef const lane_t* s = <const lane_t*>t.untwist.w
    cdef const lane_t* sq = <const lane_t*>t.untwist.q
    cdef lane_t c = <lane_t>t.scale, cq = <lane_t>t.scale_q
    cdef ntt_simd64_params prm
    if t.family == LAZY:
        if s == NULL:
            i = lo
            if lane_t is uint64_t:
                prm = simd64_params(&t.mod, t.family)
                i += <Py_ssize_t>ntt_simd64_scale(a + lo, hi - lo, c, &prm)
            else:
                i += <Py_ssize_t>ntt_simd32_scale_lazy(a + lo, hi - lo, c, cq, p)
            while i < hi:
                v = mul_family(a[i], c, cq, &t.mod, LAZY)
                a[i] = v - p if v >= p else v
                i += 1
        else:
            for i in range(simd_times(a, a, &t.untwist, lo, hi, t, True), hi):
                v = mul_family(a[i], s[i], sq[i], &t.mod, LAZY)
                a[i] = v - p if v >= p else v
    elif s == NULL:
        for i in range(lo, hi):
            a[i] = mul_family(a[i], c, 0, &t.mod, t.family)
    else:
        for i in range(simd_times(a, a, &t.untwist, lo, hi, t, False), hi):
            a[i] = mul_family(a[i], s[i], 0, &t.mod, t.family)


cdef void fold_lazy_dit(lane_t* a, Py_ssize_t lo, Py_ssize_t hi, const Tables* t) noexcept nogil:
    # LAZY DIT leaves [0, 4p): fold to [0, p).
    cdef Py_ssize_t i
    cdef lane_t p = <lane_t>t.mod.p, two_p = <lane_t>t.mod.two_p, v
    if t.family == LAZY:
        for i in range(lo, hi):
            v = a[i]
            v = v - two_p if v >= two_p else v
            a[i] = v - p if v >= p else v


cdef void copy_range(const lane_t* src, lane_t* dst, Py_ssize_t lo, Py_ssize_t hi) noexcept nogil:
    cdef Py_ssize_t i
    if src != dst:
        for i in range(lo, hi):
            dst[i] = src[i]


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


cdef void bit_reverse_inplace(lane_t* a, Py_ssize_t n, const Tables* t, bint fold, int part,
                              int parts, int edge) noexcept nogil:
    # a[i] <-> a[rev(i)] in place, and with fold LAZY's [0, 2p) mapped to [0, p) on
    # the way; edge (uint32, the caller checked fused_edge): those stages too.  Index
    # i = hi | m | lo with outer fields of `field` bits: tile m (2^field x 2^field
    # values) takes its values from tile rev(m) and gives its own to it, so the owner
    # of each pair (its smaller m) moves both tiles at once: rows of the one become
    # columns of the other (transposes in registers in AVX-512 and AVX2 builds,
    # _simd_bitrev_avx512.h / _simd_bitrev_avx2.h; through stack buffers elsewhere).
    # Every access to `a` is a whole row, one cache line.
    cdef const uint32_t* rev = t.bitrev
    cdef int field = 4 if lane_t is uint32_t else 3   # log2 of the lanes per vector
    cdef int width = 1 << field
    cdef Py_ssize_t bits = index_bits(n), tiles, m0, m1, m, mine, other, i, k, shift
    cdef lane_t p = <lane_t>t.mod.p if fold and t.family == LAZY else 0
    cdef lane_t v
    cdef lane_t tile_x[256]
    cdef lane_t tile_y[256]
    cdef Py_ssize_t row[16]
    if bits < 2 * field:   # n < 2^(2 field) <= 256: through a stack copy, branch-free
        if part == 0:
            memcpy(tile_x, a, n * sizeof(lane_t))
            for i in range(n):
                v = tile_x[rev[i]]
                a[i] = v - p if v >= p else v
        return
    tiles = <Py_ssize_t>1 << (bits - 2 * field)
    owned_tiles(rev, tiles, field, part, parts, &m0, &m1)
    if lane_t is uint32_t:
        if edge == EDGE_DIF_TAIL:
            ntt_simd_dif4_bitrev32_inplace(a, bits, rev, m0, m1, p, <const uint32_t*>t.fwd.w,
                                           <const uint32_t*>t.fwd.q, <uint32_t>t.mod.p,
                                           <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                                           t.family)
            return
        if edge == EDGE_DIT_HEAD:
            ntt_simd_dit4_bitrev32_inplace(a, bits, rev, m0, m1, <const uint32_t*>t.inv.w,
                                           <const uint32_t*>t.inv.q, <uint32_t>t.mod.p,
                                           <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu,
                                           t.family)
            return
        if ntt_simd_bitrev32_inplace(a, bits, rev, m0, m1, p):
            return
    else:
        if ntt_simd_bitrev64_inplace(a, bits, rev, m0, m1, p):
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
    # registers at a time (_simd_bitrev_avx512.h); otherwise i is
    # visited in 16 x 16 tiles (high and low 4 index bits) so both the reads and the
    # writes touch only 16 cache lines per tile.  This caller does tiles part of
    # parts.  Values are copied unchanged, except that edge == EDGE_DIT_HEAD (uint32,
    # the caller checked fused_edge) runs the inverse's first four stages on dst.
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
                ntt_simd_dit4_bitrev32(src, dst, bits, rev, tiles * part // parts,
                                       tiles * (part + 1) // parts, <const uint32_t*>t.inv.w,
                                       <const uint32_t*>t.inv.q, <uint32_t>t.mod.p,
                                       <uint32_t>t.mod.mont_pinv, t.mod.barrett_mu, t.family,
                                       seen)
                return
            if ntt_simd_bitrev32(src, dst, bits, rev, tiles * part // parts,
                                 tiles * (part + 1) // parts):
                return
        else:
            if ntt_simd_bitrev64(src, dst, bits, rev, tiles * part // parts,
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


# ------------------------------------------------------- whole transforms
# A row's passes run in this thread (threads == 1) or in one OpenMP region whose
# threads split every pass, with a barrier wherever a pass reads another's output.

cdef inline bint fused_edge(lane_t* a, Py_ssize_t n, Py_ssize_t c) noexcept nogil:
    # Whether a natural-order transform leaves the four stages at its bit-reversed end
    # (the forward's last, h = 8..1; the inverse's first, h = 1..8) to its permutation
    # (_simd_bitrev_avx512.h, _simd_bitrev_avx2.h): uint32 lanes in builds that have it,
    # whole 16 x 16 tiles (n >= 256) and chunks that keep those stages out of the large
    # sweeps (c >= 16).
    # Measured on Zen 3 (AVX2), n = 2^17: those four stages cost 0.26-0.30 ns per
    # butterfly with the in-register shuffles of ntt_simd32_small_stages; in the
    # permutation they pair whole vectors.
    if lane_t is uint32_t:
        return NTT_CY_FUSED_BITREV32 != 0 and n >= 256 and c >= 16
    else:
        return False


cdef inline bint tiled_order(lane_t* a, Py_ssize_t n, int threads) noexcept nogil:
    # Whether padded_product keeps its transforms in the tiled order
    # (ntt_simd32_small_stages_tiled: bit-reversed order with each block's segments
    # transposed, 8 x 16 quadrant by quadrant in AVX2 builds, 16 x 16 in AVX-512 ones,
    # whose small stages pair whole vectors).  uint32 lanes in builds that have it, and
    # every schedule of the call (rows on one thread each: chunk_size(n, 1); one row on
    # all threads: chunk_size(n, threads)) running its small stages on whole chunks of
    # at least a block.  Zen 3 (AVX2): those four stages 0.267 -> 0.170 (forward) and
    # 0.232 -> 0.166 (inverse) ns per butterfly.
    if lane_t is uint32_t:
        return (NTT_CY_TILED_SMALL32 != 0 and n >= 256
                and chunk_size(n, threads) >= NTT_CY_TILED_SMALL32)
    else:
        return False


cdef void forward_part(const lane_t* src, lane_t* dst, Py_ssize_t n, Py_ssize_t c,
                       const Tables* t, bint natural, bint reduced, uint64_t* seen, int part,
                       int parts) noexcept nogil:
    # DIF from src into dst (the first sweep makes the copy, see dif_schedule): bit-
    # reversed order; natural order by one in-place tile permutation that also folds
    # LAZY's [0, 2p).  DIF rather than a permuted copy then DIT: DIF runs 7-10% faster
    # here, and the fold rides on the permutation.  *seen (src != dst only): raised to
    # the largest value of this part's share of src, by the first sweep's copy or, for
    # negacyclic plans, a read pass of its own.
    cdef Py_ssize_t lo = n * part // parts, hi = n * (part + 1) // parts
    cdef bint tail = natural and fused_edge(dst, n, c)
    if t.twist.w != NULL and src != dst:
        max_range(src, lo, hi, seen)
    if t.twist.w != NULL:   # negacyclic: the twist pass makes the copy
        load_forward(src, dst, lo, hi, t)
        src = dst
        if parts > 1:
            ntt_cy_barrier()
    dif_schedule(dst, n, c, part, parts, t, n >> 1, src, seen,
                 SMALL_IN_PERMUTATION if tail else SMALL_SHUFFLED)
    if natural or reduced:   # else LAZY leaves [0, 2p), see forward()
        if parts > 1:
            ntt_cy_barrier()
        if natural:
            bit_reverse_inplace(dst, n, t, True, part, parts,
                                EDGE_DIF_TAIL if tail else EDGE_NONE)
        else:
            finish_forward(dst, lo, hi, t)


# The natural-order inverse of a row of at least this many bytes from a separate
# source copies it straight into dst, then permutes dst in place (as the forward
# does), instead of gathering tiles from the source (permute_copy): past the L2 the
# gather's reads and writes, 16 rows of a tile in 16 pages on each side, are slower
# than a sequential copy plus the in-place swap.  Measured on Zen 3 (AVX2; intt,
# fresh results, blocks of one variant alternated): uint32 2^19 1.13x, 2^20 1.38x,
# 2^21 1.38x one thread, 1.0-1.3x two; 2^16-2^18 0.96-1.0x; uint64 (51-bit p) 2^18
# 1.07x, 2^19 1.14x, 2^20 1.04x one thread, 0.97-1.15x two.
DEF GATHER_MAX_BYTES = 1 << 21


cdef void inverse_part(const lane_t* src, lane_t* dst, Py_ssize_t n, Py_ssize_t c,
                       const Tables* t, bint natural, bint scaled, const lane_t* mb, lane_t mc,
                       int part, int parts, bint tiled, uint64_t* seen) noexcept nogil:
    # mb != NULL (bit-reversed order, src == dst): the transform of dst * mb * mc.
    # tiled (not natural): src in padded_product's tiled order (tiled_order).  seen !=
    # NULL (src != dst): *seen raised to the largest value of src as it is copied.
    cdef Py_ssize_t lo = n * part // parts, hi = n * (part + 1) // parts
    cdef int edge = EDGE_DIT_HEAD if natural and mb == NULL and fused_edge(dst, n, c) else EDGE_NONE
    if natural and src != dst and n * <Py_ssize_t>sizeof(lane_t) < GATHER_MAX_BYTES:
        permute_copy(src, dst, n, t, part, parts, edge, seen)
    else:
        # this caller's share copied as it is (nothing in place), then, in natural
        # order, the in-place permutation (rows of GATHER_MAX_BYTES or more: a straight
        # copy first)
        if seen != NULL and src != dst:
            copy_max(src + lo, dst + lo, hi - lo, seen)
        else:
            copy_range(src, dst, lo, hi)
        if natural:
            if parts > 1 and src != dst:
                ntt_cy_barrier()
            bit_reverse_inplace(dst, n, t, False, part, parts, edge)
    if mb != NULL and c < 2:   # no chunk stages to carry the product (n = 1)
        product_for_dit(dst + lo, mb + lo, hi - lo, t, mc)
        mb = NULL
    if parts > 1:
        ntt_cy_barrier()
    if dit_schedule(dst, n, c, part, parts, t, &t.inv,
                    FINISH_SCALE if scaled else FINISH_FOLD, mb, mc,
                    SMALL_IN_PERMUTATION if edge == EDGE_DIT_HEAD
                    else SMALL_TILED if tiled else SMALL_SHUFFLED):
        return
    if parts > 1:
        ntt_cy_barrier()
    if scaled:
        finish_inverse(dst, lo, hi, t)
    else:
        fold_lazy_dit(dst, lo, hi, t)


cdef void forward_row(const lane_t* src, lane_t* dst, Py_ssize_t n, const Tables* t,
                      int threads, bint natural, bint reduced, uint64_t* seen) noexcept nogil:
    # seen: _seen_slots(threads), one largest-value slot per thread.
    cdef Py_ssize_t c = chunk_size(n, threads)
    if threads == 1:
        forward_part(src, dst, n, c, t, natural, reduced, seen, 0, 1)
    else:
        with parallel(num_threads=threads):
            forward_part(src, dst, n, c, t, natural, reduced, seen + SLOT * threadid(), threadid(),
                         threads)


cdef void padded_first_pass(const source_t* src, Py_ssize_t n_src, lane_t* a, Py_ssize_t n,
                            Py_ssize_t j0, Py_ssize_t j1, const Tables* t, bint reduce_src,
                            uint64_t* max_seen) noexcept nogil:
    # DIF stages n/2 and n/4 of a = src[0:n_src] zero-padded to n (n_src <= n/2),
    # groups j0 <= j < j1 of [0, n/4): straight from src in the vector code (the
    # padded copy is never written or read back), else by writing the padded values
    # and running the usual butterflies.  reduce_src: src values (any, uint32 or
    # uint64) are reduced mod p as they are read.  *max_seen: raised to the largest
    # value read (before any reduction).
    cdef Py_ssize_t h = n >> 1, q = n >> 2, j
    cdef uint64_t v0, v1
    if lane_t is uint32_t:
        if source_t is uint32_t:
            j0 += ntt_simd32_run4_padded(a, h, j0, j1, src, NULL, n_src,
                                         <const uint32_t*>t.fwd.w, <const uint32_t*>t.fwd.q,
                                         <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv,
                                         t.mod.barrett_mu, t.family, reduce_src, max_seen)
        else:
            j0 += ntt_simd32_run4_padded(a, h, j0, j1, NULL, src, n_src,
                                         <const uint32_t*>t.fwd.w, <const uint32_t*>t.fwd.q,
                                         <uint32_t>t.mod.p, <uint32_t>t.mod.mont_pinv,
                                         t.mod.barrett_mu, t.family, reduce_src, max_seen)
    if j0 >= j1:
        return
    for j in range(j0, j1):
        v0 = src[j] if j < n_src else 0
        v1 = src[j + q] if j + q < n_src else 0
        if v0 > max_seen[0]:
            max_seen[0] = v0
        if v1 > max_seen[0]:
            max_seen[0] = v1
        if reduce_src:
            v0 %= t.mod.p
            v1 %= t.mod.p
        a[j] = <lane_t>v0
        a[j + q] = <lane_t>v1
        a[j + h] = 0
        a[j + h + q] = 0
    dif_run4(a, h, j0, j1, t)


cdef void forward_padded_part(const source_t* src, Py_ssize_t n_src, lane_t* a, Py_ssize_t n,
                              Py_ssize_t c, const Tables* t, bint reduced, bint reduce_src,
                              uint64_t* max_seen, int part, int parts,
                              bint tiled) noexcept nogil:
    cdef Py_ssize_t q = n >> 2, lo = n * part // parts, hi = n * (part + 1) // parts
    padded_first_pass(src, n_src, a, n, split(q, part, parts), split(q, part + 1, parts), t,
                      reduce_src, max_seen)
    if parts > 1:
        ntt_cy_barrier()
    dif_schedule(a, n, c, part, parts, t, n >> 3, a, NULL,
                 SMALL_TILED if tiled else SMALL_SHUFFLED)
    if reduced:
        if parts > 1:
            ntt_cy_barrier()
        finish_forward(a, lo, hi, t)


cdef void inverse_row(const lane_t* src, lane_t* dst, Py_ssize_t n, const Tables* t,
                      int threads, bint natural, bint scaled, const lane_t* mb,
                      lane_t mc, bint tiled, uint64_t* seen) noexcept nogil:
    # scaled=False (cyclic only) leaves out the factor n^-1, for callers that fold it
    # into a pointwise product; the result is still reduced to [0, p).  seen: NULL, or
    # _seen_slots(threads) (see inverse_part).
    cdef Py_ssize_t c = chunk_size(n, threads)
    if threads == 1:
        inverse_part(src, dst, n, c, t, natural, scaled, mb, mc, 0, 1, tiled, seen)
    else:
        with parallel(num_threads=threads):
            inverse_part(src, dst, n, c, t, natural, scaled, mb, mc, threadid(), threads, tiled,
                         seen + SLOT * threadid() if seen != NULL else NULL)


cdef class TransformTables:
    """Twiddle tables of one plan in one reduction family (owns the arrays)."""
    cdef Tables c
    cdef readonly object arrays   # keeps the numpy buffers alive
    cdef readonly str family
    cdef readonly Py_ssize_t n
    cdef readonly int lane_bytes   # 4 (uint32 lanes) or 8 (uint64)

    def __init__(self, str family, dict modulus, dict arrays, Py_ssize_t n,
                 uint64_t scale, uint64_t scale_q):
        self.family = family
        self.n = n
        self.arrays = arrays
        self.lane_bytes = arrays["fwd_tw"].dtype.itemsize
        self.c.family = FAMILY_CODES[family]
        self.c.mod = modulus
        self.c.fwd = _twiddles(arrays, "fwd_tw")
        self.c.inv = _twiddles(arrays, "inv_tw")
        self.c.twist = _twiddles(arrays, "twist")
        self.c.untwist = _twiddles(arrays, "untwist")
        self.c.bitrev = <const uint32_t*>_pointer(arrays, "bitrev")
        self.c.scale = scale
        self.c.scale_q = scale_q


cdef Twiddles _twiddles(dict arrays, str key) except *:
    # The tables key (family form), key_q (Shoup quotients), key_f and key_fq (the
    # double-precision pair, see ntt_simd64_float_twiddles) of one twiddle set.  The
    # vector kernels read one vector past the stage tables (ntt_w32_twiddle_at).
    cdef Twiddles tw
    for name in (key, key + "_q"):
        if name in arrays and readable_tail(arrays[name]) < TABLE_TAIL_BYTES:
            raise ValueError(f"internal: table {name} needs {TABLE_TAIL_BYTES} readable bytes "
                             "past its end (ntt_cy._aligned.aligned_copy's tail)")
    tw.w = _pointer(arrays, key)
    tw.q = _pointer(arrays, key + "_q")
    tw.f = <const double*>_pointer(arrays, key + "_f")
    tw.fq = <const double*>_pointer(arrays, key + "_fq")
    if (tw.f == NULL) != (tw.fq == NULL):
        raise ValueError(f"internal: {key}_f and {key}_fq come together")
    return tw


cdef void* _pointer(dict arrays, str key) except? NULL:
    arr = arrays.get(key)
    if arr is None:
        return NULL
    if not arr.flags.c_contiguous:
        raise ValueError(f"table {key} must be C-contiguous")
    return <void*><size_t>arr.ctypes.data


def forward(const lane_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
            int threads, bint natural, bint reduced=True):
    """Forward NTT of every row of src into dst (dst may be src); returns the largest
    value of src when dst is not src (0 in place).  # IN/OUT

    Callers may skip their own range check when dst is not the caller's memory: a
    returned maximum >= p means dst is meaningless (computed without fault).  On cyclic
    plans the copy made by the first sweep finds the maximum, on negacyclic ones a read
    pass of its own.

    reduced=False (bit-reversed output only) skips the LAZY family's final fold:
    values stay in [0, 2p), which pointwise_mul accepts on uint32 lanes (a*b < 4p^2
    < p*2^32 keeps its Montgomery products exact); other families give [0, p) anyway."""
    if not reduced and natural:
        raise ValueError("reduced=False needs bit-reversed output")
    return _run(src, dst, tables, threads, natural, True, reduced)


def transform_row(x, TransformTables tables, bint is_forward):
    """The forward transform (natural order, values in [0, p)) or the normalised
    inverse of one row, on one thread, straight from the caller's 1-D array into a
    fresh 64-byte aligned result (NTTPlan._single_row: a small transform's Python
    layers cost more than its butterflies).  None (nothing returned) when x is not an
    array row_width takes at the tables' lane width, has another length than n, or
    holds a value >= p (the general route then raises).  An array of the other
    width (numpy's default int64 where p < 2^32) is first copied into the result,
    checked, and transformed there in place."""
    cdef const Tables* t = &tables.c
    cdef int width = row_width(x, t.mod.p), lanes = tables.lane_bytes
    cdef Py_ssize_t n = tables.n
    if width == 0 or cnp.PyArray_DIM(<cnp.ndarray>x, 0) != n:
        return None
    cdef const void* src = cnp.PyArray_DATA(<cnp.ndarray>x)
    cdef cnp.npy_intp length = n
    cdef cnp.ndarray out = aligned_new(1, &length, cnp.NPY_UINT32 if lanes == 4 else cnp.NPY_UINT64,
                                       lanes, 0, 0)
    cdef void* dst = cnp.PyArray_DATA(out)
    cdef uint64_t seen[SLOT]
    cdef uint64_t top = 0
    memset(seen, 0, sizeof(seen))
    if width != lanes:
        # in place, the kernels' own report of the largest value is not one of x's
        load_lanes(src, width, n, dst, lanes, 1, &top)
        if top >= t.mod.p:
            return None
        src = dst
    with nogil:
        if lanes == 4 and is_forward:
            forward_row(<const uint32_t*>src, <uint32_t*>dst, n, t, 1, True, True, seen)
        elif lanes == 4:
            inverse_row(<const uint32_t*>src, <uint32_t*>dst, n, t, 1, True, True, NULL, 0,
                        False, seen)
        elif is_forward:
            forward_row(<const uint64_t*>src, <uint64_t*>dst, n, t, 1, True, True, seen)
        else:
            inverse_row(<const uint64_t*>src, <uint64_t*>dst, n, t, 1, True, True, NULL, 0,
                        False, seen)
    return out if src == dst or seen[0] < t.mod.p else None


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
    with nogil:
        top = forward_padded_rows(&src[0, 0] if src.shape[1] else NULL, src.shape[0],
                                  src.shape[1], &dst[0, 0], dst.shape[1], &tables.c, threads,
                                  reduced, reduce_src, seen, False)
    free(seen)
    return top


def padded_product(const source_t[:, ::1] a, const source_t[:, ::1] b, lane_t[:, ::1] dst,
                   lane_t[:, ::1] work, TransformTables tables, int threads, uint64_t factor,
                   bint reduce_src=False):
    """dst <- factor times the cyclic convolution of the rows of a and b zero-padded to
    the plan's length n (factor = n^-1: the plain convolution), in natural order; returns
    the largest value of a and b.   # IN a, b (R, <= n/2), values < p; OUT dst; work
    (R, n) scratch

    forward_padded of both (b may be a: squaring, one transform), the product taken
    inside the unscaled inverse (pointwise_inverse): one call instead of three.  As in
    forward_padded, a returned maximum >= p means dst is meaningless (computed without
    fault); reduce_src as in forward_padded.  Cyclic plans; pointwise ranges as
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
    with nogil:
        top = padded_product_rows(&a[0, 0] if a.shape[1] else NULL,
                                  &b[0, 0] if b.shape[1] else NULL, square,
                                  rows, a.shape[1], b.shape[1], &dst[0, 0], &work[0, 0], n,
                                  &tables.c, threads, c, reduce_src, seen)
    free(seen)
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

    def product(self, a, b):
        """a * b mod p, uint32 for p < 2^32, else uint64; None (nothing computed) when
        an operand is not an array row_width takes, has another length, or holds a
        value >= p (padded_product reports the largest it read)."""
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
        cdef uint64_t seen[SLOT]
        cdef uint64_t top
        cdef const Tables* t = &self.tables.c
        memset(seen, 0, sizeof(seen))
        try:
            with nogil:
                if self.lane == 4 and width == 4:
                    top = padded_product_rows(<const uint32_t*>pa, <const uint32_t*>pb, square,
                                              1, na, nb, <uint32_t*>rows, <uint32_t*>rows + n,
                                              n, t, 1, <uint32_t>self.c, False, seen)
                elif self.lane == 4:
                    top = padded_product_rows(<const uint64_t*>pa, <const uint64_t*>pb, square,
                                              1, na, nb, <uint32_t*>rows, <uint32_t*>rows + n,
                                              n, t, 1, <uint32_t>self.c, False, seen)
                elif width == 4:
                    top = padded_product_rows(<const uint32_t*>pa, <const uint32_t*>pb, square,
                                              1, na, nb, <uint64_t*>rows, <uint64_t*>rows + n,
                                              n, t, 1, self.c, False, seen)
                else:
                    top = padded_product_rows(<const uint64_t*>pa, <const uint64_t*>pb, square,
                                              1, na, nb, <uint64_t*>rows, <uint64_t*>rows + n,
                                              n, t, 1, self.c, False, seen)
            if top >= p:
                return None
            if self.wrap != LINEAR:
                fold_lanes(rows, self.lane, na, na + nb - 1, p, self.wrap)
            count = na if self.wrap != LINEAR else na + nb - 1
            out = new_row(count, 4 if p < (<uint64_t>1 << 32) else 8)
            copy_lanes(rows, self.lane, cnp.PyArray_DATA(<cnp.ndarray>out),
                       cnp.PyArray_ITEMSIZE(<cnp.ndarray>out), count)
            return out
        finally:
            free(rows)


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

    def product(self, a, b):
        """a * b mod (x^n -/+ 1, p): uint32 for p < 2^32, else uint64; None (nothing
        computed) when an operand is not an array row_width takes, has another length
        than n, or holds a value >= p."""
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
        cdef uint64_t top = 0
        try:
            with nogil:
                load_lanes(pa, width, n, rows, lane, 1, &top)
                if not square:
                    load_lanes(pb, width, n, rows + n * lane, lane, 1, &top)
                if top < t.mod.p:
                    if lane == 4:
                        wrapped_product(<uint32_t*>rows, square, n, t, <uint32_t>self.c,
                                        self.scaled)
                    else:
                        wrapped_product(<uint64_t*>rows, square, n, t, self.c, self.scaled)
            if top >= t.mod.p:
                return None
            out = new_row(n, 4 if t.mod.p < (<uint64_t>1 << 32) else 8)
            copy_lanes(rows, lane, cnp.PyArray_DATA(<cnp.ndarray>out),
                       cnp.PyArray_ITEMSIZE(<cnp.ndarray>out), n)
            return out
        finally:
            free(rows)


cdef void wrapped_product(lane_t* rows, bint square, Py_ssize_t n, const Tables* t, lane_t c,
                          bint scaled) noexcept nogil:
    # rows[0:n] <- the product of rows[0:n] and rows[n:2n] (values in [0, p); squaring:
    # rows[0:n] by itself), mod x^n -/+ 1 as t's plan is cyclic or negacyclic.  As
    # _prime_product does it: uint32 lanes leave the LAZY forward's [0, 2p) for the
    # product, which takes it (see forward).
    cdef bint reduced = sizeof(lane_t) != 4
    cdef uint64_t seen[SLOT]   # (in place, the forward reports nothing here)
    memset(seen, 0, sizeof(seen))
    forward_row(rows, rows, n, t, 1, False, reduced, seen)
    if not square:
        forward_row(rows + n, rows + n, n, t, 1, False, reduced, seen)
    pointwise_inverse_rows(rows, rows if square else rows + n, 1, n, t, 1, c, scaled, False)


cdef uint64_t padded_product_rows(const source_t* pa, const source_t* pb, bint square,
                                  Py_ssize_t rows, Py_ssize_t ma, Py_ssize_t mb, lane_t* d,
                                  lane_t* w, Py_ssize_t n, const Tables* t, int threads,
                                  lane_t c, bint reduce_src, uint64_t* seen) noexcept nogil:
    # padded_product on pointers (shapes checked by the caller; square: pb is pa);
    # c = pointwise_constant(factor); seen: _seen_slots(threads), left dirty.  Returns
    # the largest source value.
    cdef uint64_t top, top_b = 0
    # uint32 lanes: the LAZY forward's [0, 2p) goes to the product unreduced
    cdef bint reduced = sizeof(lane_t) != 4
    # the transforms never leave this call: their order only has to agree
    cdef bint tiled = tiled_order(d, n, threads)
    top = forward_padded_rows(pa, rows, ma, d, n, t, threads, reduced, reduce_src, seen, tiled)
    if not square:
        memset(seen, 0, (threads if threads > 1 else 1) * SLOT * sizeof(uint64_t))
        top_b = forward_padded_rows(pb, rows, mb, w, n, t, threads, reduced, reduce_src, seen,
                                    tiled)
    pointwise_inverse_rows(d, d if square else w, rows, n, t, threads, c, False, tiled)
    return top if top >= top_b else top_b


cdef class PaddedProducts:
    """padded_product for every prime of a CRT basis in one call, each prime's operands
    its own rows (residues): a product modulo a multi-word m (crt.CRTBasis.padded_products,
    cached per primes and length) pays for no per-prime Python call, which was most of a
    small product's time (18 primes, n = 256).

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
        try:
            with nogil:
                for j in range(k):
                    memset(seen, 0, seen_bytes)
                    if padded_product_rows(&a[j, 0, 0] if ma else NULL,
                                           &b[j, 0, 0] if mb else NULL, square, R, ma, mb,
                                           &products[j, 0, 0], &work[0, 0], n, self.t[j],
                                           threads, <lane_t>self.c[j], False,
                                           seen) >= self.t[j].mod.p:
                        bad = j
                        break
        finally:
            free(seen)
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
    # seen + k * SLOT, a cache line each: threads updating neighbours' lines row after
    # row made a batch of short rows 1.5x slower on two threads), each kept across the
    # rows that thread transforms.  The one check of the thread count for the entry
    # points that take slots.
    check_threads(threads)
    cdef uint64_t* seen = <uint64_t*>calloc((threads if threads > 1 else 1) * SLOT,
                                            sizeof(uint64_t))
    if seen == NULL:
        raise MemoryError()
    return seen


cdef uint64_t forward_padded_rows(const source_t* s, Py_ssize_t rows, Py_ssize_t m, lane_t* d,
                                  Py_ssize_t n, const Tables* t, int threads, bint reduced,
                                  bint reduce_src, uint64_t* seen, bint tiled) noexcept nogil:
    # forward_padded on pointers (shapes checked by the caller); seen: _seen_slots(
    # threads).  Returns the largest source value.
    cdef Py_ssize_t r, c, k
    cdef int slots = threads if threads > 1 else 1
    cdef uint64_t top = 0
    if threads > 1 and rows >= threads:
        c = chunk_size(n, 1)
        for r in prange(rows, num_threads=threads, schedule="static"):
            forward_padded_part(s + r * m, m, d + r * n, n, c, t, reduced, reduce_src,
                                seen + SLOT * threadid(), 0, 1, tiled)
    else:
        c = chunk_size(n, threads)
        for r in range(rows):
            if threads == 1:
                forward_padded_part(s + r * m, m, d + r * n, n, c, t, reduced, reduce_src,
                                    seen, 0, 1, tiled)
            else:
                with parallel(num_threads=threads):
                    forward_padded_part(s + r * m, m, d + r * n, n, c, t, reduced, reduce_src,
                                        seen + SLOT * threadid(), threadid(), threads, tiled)
    for k in range(slots):
        if seen[k * SLOT] > top:
            top = seen[k * SLOT]
    return top


def inverse(const lane_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
            int threads, bint natural, bint scaled=True):
    """Inverse NTT of every row of src into dst (dst may be src); normalised unless
    scaled=False (cyclic plans only: the caller applies n^-1 itself).  Returns the
    largest value of src when dst is not src (0 in place), found as src is copied: a
    value >= p means dst is meaningless (computed without fault), as for forward."""
    if not scaled and tables.c.twist.w != NULL:
        raise ValueError("scaled=False needs a cyclic plan")
    return _run(src, dst, tables, threads, natural, False, scaled)


cdef uint64_t _run(const lane_t[:, ::1] src, lane_t[:, ::1] dst, TransformTables tables,
                   int threads, bint natural, bint is_forward, bint finish) except? 0:
    # finish: forward -> fold to [0, p) (`reduced`); inverse -> scale by n^-1 (`scaled`).
    # Returns the largest value of src when dst is not src (0 in place).
    cdef Py_ssize_t rows = src.shape[0], n = src.shape[1], r, k
    cdef const Tables* t = &tables.c
    if n != tables.n or dst.shape[0] != rows or dst.shape[1] != n:
        raise ValueError("internal: array shape does not match the plan")
    if rows == 0:
        return 0
    cdef const lane_t* s = &src[0, 0]
    cdef lane_t* d = &dst[0, 0]
    # one largest-value slot per thread, kept across the rows that thread does
    cdef int slots = threads if threads > 1 else 1
    cdef uint64_t* seen = _seen_slots(threads)
    cdef uint64_t top = 0
    with nogil:
        if threads > 1 and rows >= threads:
            for r in prange(rows, num_threads=threads, schedule="static"):
                if is_forward:
                    forward_row(s + r * n, d + r * n, n, t, 1, natural, finish, seen + SLOT * threadid())
                else:
                    inverse_row(s + r * n, d + r * n, n, t, 1, natural, finish, NULL, 0, False,
                                seen + SLOT * threadid())
        else:
            for r in range(rows):
                if is_forward:
                    forward_row(s + r * n, d + r * n, n, t, threads, natural, finish, seen)
                else:
                    inverse_row(s + r * n, d + r * n, n, t, threads, natural, finish, NULL, 0,
                                False, seen)
        for k in range(slots):
            top = seen[k * SLOT] if seen[k * SLOT] > top else top
    free(seen)
    return top


# ------------------------------------------------------- table construction
# Exact Python-int-free helpers; they use 128-bit division, so they are slow per
# element but run once per plan.

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
        return ntt_simd64_montgomery_bits(p)
    return 32


def float_twiddles(uint64_t p, int itemsize):
    """Whether this build's uint64 LAZY kernels want the double-precision twiddle
    tables (balanced w as doubles and w / p) for p: AVX2 builds, p < 2^51 - 2^29."""
    return itemsize == 8 and ntt_simd64_float_twiddles(p) != 0


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



# ------------------------------------------------------- transform-domain product

def pointwise_mul(const lane_t[:, ::1] a, const lane_t[:, ::1] b, lane_t[:, ::1] out,
                  dict modulus, uint64_t factor, int threads):
    """out = a * b * factor mod p element-wise (out may alias a or b).

    a, b in [0, p) (on uint32 lanes with 4p < 2^32 also [0, 2p): the LAZY forward
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
    with nogil:
        pointwise_inverse_rows(&a[0, 0], &b[0, 0], rows, n, t, threads, c, scaled, False)


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
            inverse_row(pa + r * n, pa + r * n, n, t, threads, False, scaled, pb + r * n, c,
                        tiled, NULL)


cdef inline void product_for_dit(lane_t* a, const lane_t* b, Py_ssize_t count,
                                 const Tables* t, lane_t c) noexcept nogil:
    # a <- a b c' in place, as the next stage of the inverse (a DIT with t's family)
    # takes it: Montgomery for odd p, and [0, 2p) left unfolded for LAZY.
    pointwise_span(a, b, a, count, &t.mod, c, t.mod.p % 2 == 1, t.family == LAZY)


cdef void pointwise_span(const lane_t* a, const lane_t* b, lane_t* out, Py_ssize_t count,
                         const Modulus* m, lane_t c, bint montgomery,
                         bint lazy_out) noexcept nogil:
    # out = a b c' (the factor c carries, see pointwise_constant) in [0, p); lazy_out
    # (the product goes to a LAZY DIT, whose inputs may lie in [0, 4p)): the uint32
    # vector part may leave [0, 2p) unfolded.
    cdef ntt_simd64_params prm
    cdef Py_ssize_t i = 0
    if not montgomery:
        for i in range(count):
            out[i] = mul_family(mul_family(a[i], b[i], 0, m, BARRETT), c, 0, m, BARRETT)
        return
    if lane_t is uint32_t:
        i = ntt_simd32_pointwise(a, b, out, count, <uint32_t>m.p, <uint32_t>m.mont_pinv, c,
                                 lazy_out)
    else:
        prm = simd64_params(m, MONTGOMERY)
        i = ntt_simd64_pointwise(a, b, out, count, c, &prm)
    while i < count:
        out[i] = mul_family(mul_family(a[i], b[i], 0, m, MONTGOMERY), c, 0, m, MONTGOMERY)
        i += 1
