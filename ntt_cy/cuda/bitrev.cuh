// Batched bit-reversal permutation of rows of length n = 2^log_n: dst[r][j] = src[r][rev(j)]
// (an involution; src and dst must not overlap).
//
// BitrevTiled (log_n >= 10): an index is (hi, mid, lo) with 5-bit hi and lo, and
// rev(hi, mid, lo) = (rev5(lo), rev(mid), rev5(hi)).  One block moves the 32 x 32 elements
// of one (row, mid) through a padded shared tile: reads are 32 consecutive elements (lo),
// writes are 32 consecutive elements (rev5(hi)).
// BitrevNaive (any log_n): one thread per output element, per_block elements per block.
#pragma once

#include "args.cuh"

namespace nttcy {

template <class W>
struct BitrevTiled {
    enum { TILE = 32, PITCH = 33 };     // PITCH: conflict-free column reads
    const W* src;
    W* dst;
    u64 in_base;      // row * n + mid * 32
    u64 out_base;     // row * n + rev(mid) * 32
    u32 log_n;

    NTT_HD BitrevTiled(const NttArgs& a, u64 block)
        : src((const W*)a.src), dst((W*)a.dst), log_n((u32)a.log_n)
    {
        const u32 mid_bits = log_n - 10;
        const u64 row = block >> mid_bits;
        const u64 mid = block & ((1ull << mid_bits) - 1);
        in_base = (row << log_n) + (mid << 5);
        out_base = (row << log_n) + ((u64)bit_reverse((u32)mid, mid_bits) << 5);
    }

    NTT_HD u32 phases() const { return 2; }

    NTT_HD void run(u32 phase, u32 tid, u32 nthreads, void* smem) const
    {
        W* tile = (W*)smem;
        for (u32 e = tid; e < TILE * TILE; e += nthreads) {
            const u32 a = e >> 5, b = e & 31;
            if (phase == 0) {           // a = hi, b = lo
                tile[a * PITCH + b] = src[in_base + ((u64)a << (log_n - 5)) + b];
            } else {                    // a = rev5(lo), b = rev5(hi)
                dst[out_base + ((u64)a << (log_n - 5)) + b] =
                    tile[bit_reverse(b, 5) * PITCH + bit_reverse(a, 5)];
            }
        }
    }
};

template <class W>
struct BitrevNaive {
    const W* src;
    W* dst;
    u64 first, last;
    u32 log_n;

    NTT_HD BitrevNaive(const NttArgs& a, u64 block)
        : src((const W*)a.src),
          dst((W*)a.dst),
          first(block * a.per_block),
          last(a.ntiles - block * a.per_block < a.per_block ? a.ntiles : block * a.per_block + a.per_block),
          log_n((u32)a.log_n)
    {
    }

    NTT_HD u32 phases() const { return 1; }

    NTT_HD void run(u32, u32 tid, u32 nthreads, void*) const
    {
        const u64 mask = (1ull << log_n) - 1;
        for (u64 e = first + tid; e < last; e += nthreads)
            dst[e] = src[(e & ~mask) | bit_reverse((u32)(e & mask), log_n)];
    }
};

}  // namespace nttcy
