# The kernels' C declarations: Cython and numpy cimports, the reductions of
# arith32.pxd / arith64.pxd, and the entry points of the SIMD headers
# (simd/*/dispatch.h: each reports how much its vector body did; the scalar
# loops of butterflies.pxi and the passes finish the rest).

cimport numpy as cnp
from cython.parallel cimport parallel, prange, threadid
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy, memset

from ntt_cy._kernels.ntt.arith32 cimport (add_mod32, sub_mod32, mont_mul32, mont_one32,
                                          barrett_mul32, shoup_mul32)
from ntt_cy._kernels.ntt.arith64 cimport (add_mod64, sub_mod64, mont_mul64, mont_mul52, barrett_mul64,
                              shoup_mul64, fold_once, shoup_mul32_wide, mod_wide64,
                              mod_any_wide64, max64, mask64)
from ntt_cy._kernels.ntt.arith_goldilocks cimport goldilocks_mul64

from ntt_cy._support.aligned cimport aligned_new
from ntt_cy._support.openmp cimport check_threads
from ntt_cy._kernels.ntt.single_row cimport (LINEAR, aligned_scratch, copy_lanes, fold_lanes, largest_lane,
                                copy_largest, load_lanes,
                                new_row, operand_width, row_width, valid_shape)

from ntt_cy._support.aligned import TABLE_TAIL_BYTES, readable_tail

cnp.import_array()

cdef extern from "simd/ntt32/dispatch.h" nogil:
    # uint32 lanes, every family, in AVX-512 and AVX2 builds (the twists AVX-512 only).
    # Each returns how much it did, 0 in the portable build; same ranges as the scalar
    # code of butterflies.pxi.
    # from_q: the Shoup families read the twiddles' quotients alone (w = hi(q p) + 1).
    size_t ntt32_run(int forward, uint32_t* x, uint32_t* y, const uint32_t* w,
                     const uint32_t* wq, size_t count, uint32_t p, uint32_t pinv, uint64_t mu,
                     int family, int from_q)
    size_t ntt32_run4(int forward, uint32_t* a, size_t h, size_t j0, size_t j1,
                      const uint32_t* tw, const uint32_t* twq, uint32_t p, uint32_t pinv,
                      uint64_t mu, int family, int from_q)
    size_t ntt32_pointwise(const uint32_t* a, const uint32_t* b, uint32_t* out, size_t count,
                           uint32_t p, uint32_t pinv, uint32_t c, int lazy_out)
    size_t ntt32_scale_lazy(uint32_t* a, size_t count, uint32_t c, uint32_t cq, uint32_t p)
    # A DIF's first sweep read straight from the source rows.
    size_t ntt32_run4_src(uint32_t* a, const uint32_t* src, size_t h, size_t j0, size_t j1,
                          const uint32_t* tw, const uint32_t* twq, uint32_t p, uint32_t pinv,
                          uint64_t mu, int family, int from_q, uint64_t* max_seen)
    # A column sweep of k stages (3 <= k <= NTT32_COLUMN_STAGES, 1 in the portable build)
    # in registers; src != NULL: a DIF's first sweep, read from src.
    int NTT32_COLUMN_STAGES
    size_t ntt32_run_stages(int forward, int k, uint32_t* a, const uint32_t* src, size_t h,
                            size_t j0, size_t j1, const uint32_t* tw, const uint32_t* twq,
                            uint32_t p, uint32_t pinv, uint64_t mu, int family,
                            uint64_t* max_seen)
    size_t ntt32_run_src(uint32_t* x, uint32_t* y, const uint32_t* sx, const uint32_t* sy,
                         const uint32_t* w, const uint32_t* wq, size_t count, uint32_t p,
                         uint32_t pinv, uint64_t mu, int family, uint64_t* max_seen)
    # The small stages in padded_product's tiled order, on blocks of NTT32_TILED_BLOCK
    # values (128 AVX2, 256 AVX-512; 0: no tiled order in this build).
    int NTT32_TILED_BLOCK
    int ntt32_small_stages_tiled(int forward, uint32_t* a, size_t size, const uint32_t* tw,
                                 const uint32_t* twq, uint32_t p, uint32_t pinv, uint64_t mu,
                                 int family)
    size_t ntt32_times(const uint32_t* src, uint32_t* dst, const uint32_t* w,
                       const uint32_t* wq, size_t count, uint32_t p, uint32_t pinv,
                       uint64_t mu, int family, int fold)
    size_t ntt32_run4_padded(uint32_t* a, size_t h, size_t j0, size_t j1,
                             const uint32_t* src32, const uint64_t* src64, size_t n_src,
                             const uint32_t* tw, const uint32_t* twq, uint32_t p,
                             uint32_t pinv, uint64_t mu, int family, int from_q,
                             int reduce_src, uint32_t scale, uint32_t scale_q,
                             uint64_t* max_seen)
    int ntt32_small_stages(int forward, uint32_t* a, size_t size, const uint32_t* tw,
                           const uint32_t* twq, uint32_t p, uint32_t pinv, uint64_t mu,
                           int family)

cdef extern from "simd/ntt64/dispatch.h" nogil:
    # uint64 lanes.  AVX-512 IFMA builds: every family (Montgomery with R = 2^52 or
    # 2^64, Barrett, LAZY).  AVX2 builds: LAZY for p below NTT64_FLOAT_P_MAX in double
    # precision, from the balanced twiddles `wf` and `wf / p` (`wfq`) which
    # ntt64_float_twiddles asks the plan to build, and integer kernels for every family
    # otherwise (Montgomery with R = 2^64).  The portable build: 0 (nothing done).
    # Parameters from simd64_params().
    ctypedef struct ntt64_params:
        uint64_t p, pinv, barrett_d, barrett_v
        int barrett_shift, family
    int ntt64_montgomery_bits(uint64_t p)
    int ntt64_float_twiddles(uint64_t p)
    size_t ntt64_run(int forward, uint64_t* x, uint64_t* y, const uint64_t* w,
                     const uint64_t* wq, const double* wf, const double* wfq, size_t count,
                     const ntt64_params* prm)
    size_t ntt64_run4(int forward, uint64_t* a, size_t h, size_t j0, size_t j1,
                      const uint64_t* tw, const uint64_t* twq, const double* twf,
                      const double* twfq, const ntt64_params* prm)
    # A column sweep of k stages (3 <= k <= ntt64_column_stages, 2 where there is none)
    # in registers.
    int ntt64_column_stages(const ntt64_params* prm, const double* twf)
    size_t ntt64_run_stages(int forward, int k, uint64_t* a, size_t h, size_t j0, size_t j1,
                            const uint64_t* tw, const uint64_t* twq, const double* twf,
                            const double* twfq, const ntt64_params* prm)
    size_t ntt64_pointwise(const uint64_t* a, const uint64_t* b, uint64_t* out, size_t count,
                           uint64_t c, const ntt64_params* prm)
    int ntt64_small_stages(int forward, uint64_t* a, size_t size, const uint64_t* tw,
                           const uint64_t* twq, const double* twf, const double* twfq,
                           const ntt64_params* prm)
    int NTT64_GOLDILOCKS_GROUPS
    int GL_GROUP_MIN
    size_t gl_group_row(size_t B)
    int ntt64_goldilocks_stages(int forward, uint64_t* a, size_t size, size_t half,
                                const uint64_t* tw, const uint64_t* groups,
                                const ntt64_params* prm)
    size_t ntt64_times(const uint64_t* src, uint64_t* dst, const double* wf, const double* wfq,
                       size_t count, int fold, const ntt64_params* prm)
    size_t ntt64_scale(uint64_t* a, size_t count, uint64_t c, const ntt64_params* prm)

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

cdef extern from "simd/bitrev/dispatch.h" nogil:
    # Bit-reversal copy by in-register tile transposes (AVX-512 and AVX2 builds; return
    # 0, did nothing, elsewhere).
    int bitrev32_copy(const uint32_t* src, uint32_t* dst, int bits, const uint32_t* rev,
                      size_t m0, size_t m1)
    int bitrev64_copy(const uint64_t* src, uint64_t* dst, int bits, const uint32_t* rev,
                      size_t m0, size_t m1)
    int bitrev32_inplace(uint32_t* a, int bits, const uint32_t* rev, size_t m0, size_t m1,
                         uint32_t fold_p)
    int bitrev64_inplace(uint64_t* a, int bits, const uint32_t* rev, size_t m0, size_t m1,
                         uint64_t fold_p)
    # The permutations with the four stages at a transform's bit-reversed end on the
    # way: the last four of a DIF, the first four of a DIT (vector builds;
    # BITREV32_FUSED_EDGE says whether this build has them).
    int BITREV32_FUSED_EDGE
    int bitrev32_inplace_dif_tail(uint32_t* a, int bits, const uint32_t* rev, size_t m0,
                                  size_t m1, uint32_t fold_p, const uint32_t* tw,
                                  const uint32_t* twq, uint32_t p, uint32_t pinv, uint64_t mu,
                                  int family)
    int bitrev32_copy_dit_head(const uint32_t* src, uint32_t* dst, int bits,
                               const uint32_t* rev, size_t m0, size_t m1, const uint32_t* tw,
                               const uint32_t* twq, uint32_t p, uint32_t pinv, uint64_t mu,
                               int family, uint64_t* max_seen)
    int bitrev32_inplace_dit_head(uint32_t* a, int bits, const uint32_t* rev, size_t m0,
                                  size_t m1, const uint32_t* tw, const uint32_t* twq,
                                  uint32_t p, uint32_t pinv, uint64_t mu, int family)

cdef extern from "u128.h" nogil:
    uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi)
    uint64_t ntt_mulhi64(uint64_t a, uint64_t b)
    uint64_t ntt_mod128(uint64_t hi, uint64_t lo, uint64_t p)
    uint64_t ntt_div128(uint64_t hi, uint64_t lo, uint64_t p)
