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
#   GOLDILOCKS  uint64 lanes, p = 2^64 - 2^32 + 1 only: values in [0, p); twiddles
#               stored plainly; products reduced by goldilocks_reduce128
#               (arith_goldilocks.pxd).
#   LAZY        Harvey's butterflies with Shoup twiddles: forward keeps [0, 2p),
#               inverse keeps [0, 4p), one correction at the end; needs 4p <= 2^L.
#               uint32 lanes with 2^30 <= p < 2^31 (SHOUP31 in the C kernels,
#               runs_shoup31): the same tables, values kept in [0, p) both ways
#               (Shoup's [0, 2p) folded once, sums and differences mod p); p < 2^31.
#
# Work split: stages whose blocks are larger than a cache-sized chunk run one
# stage at a time over the whole array (threads split each block's j range);
# the remaining stages run chunk by chunk, each chunk finished while it is in
# cache (threads take whole chunks).  So there is one parallel region per large
# stage plus one for all small stages, never a thread per stage or group.

ctypedef fused lane_t:
    uint32_t
    uint64_t

ctypedef fused source_t:
    uint32_t
    uint64_t

cdef extern from "simd/families.h":
    # The family codes, one definition for C and Cython (the uint64 kernels split
    # MONTGOMERY by its radix: MONTGOMERY52 / MONTGOMERY64).
    cdef enum:
        MONTGOMERY "NTT_MONTGOMERY"
        BARRETT "NTT_BARRETT"
        LAZY "NTT_LAZY"
        MONTGOMERY52 "NTT_MONTGOMERY52"
        MONTGOMERY64 "NTT_MONTGOMERY64"
        GOLDILOCKS "NTT_GOLDILOCKS"

FAMILY_CODES = {"montgomery": MONTGOMERY, "barrett": BARRETT, "lazy": LAZY,
                "goldilocks": GOLDILOCKS}

cdef enum:
    # Elements per cache chunk: 256 KiB of uint32 / 512 KiB of uint64, within a core's L2
    # (512 KiB or more), where a chunk takes all of its stages after the large sweeps.
    # Chunks of 8192 and 32768 elements were no faster on one or two threads for
    # n = 2^17 .. 2^22 (`python asv_bench/scripts/ns_per_butterfly.py --sizes` shows the
    # cost per butterfly across sizes).
    CHUNK = 65536
    # Bytes of a sub-block whose remaining stages run depth-first inside a chunk, so they
    # stay near L1 (32-48 KiB) instead of streaming the chunk through L2 once per stage
    # pair.  A block's data and stage twiddles (~48 KiB for uint32 LAZY) can exceed a
    # 32 KiB L1, yet 8 KiB blocks, which fit, were slower.
    L1_BLOCK_BYTES = 16384
    # Groups per piece when the first sweep of an out-of-place forward copies its input:
    # the piece's segments (at most 4 x 512 values) are still in L1 for the butterflies.
    COPY_PIECE = 512
    # uint64 entries per largest-value slot (_seen_slots): one cache line.
    SLOT = 8


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
    const void* q           # Shoup quotients of w (LAZY), the radix-64 group
                            # tables (GOLDILOCKS, simd/ntt64/goldilocks.h), else NULL
    const double* f         # w balanced into (-p/2, p/2], as doubles, where the build's
    const double* fq        # uint64 LAZY kernels compute in double precision; f / p
                            # (both NULL elsewhere: see ntt64_float_twiddles)


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
    Interrupt* irq          # NULL in a plan's own tables; a call's copy may have one
                            # (interrupts.pxi)
