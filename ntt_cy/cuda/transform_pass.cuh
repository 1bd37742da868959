// One pass of a batched radix-2 transform: several consecutive stages done in shared memory.
//
// Stage s (0 <= s < log_n) has 2^s groups of 2t = n >> s consecutive elements; butterflies
// pair j and j + t inside a group and group i uses twiddle table entry 2^s + i.  A pass does
// the stages [s0, s0 + k).  Their butterflies only mix elements of one "column"
//     { base + r * t_b + c : r in [0, 2^k) },   t_b = n >> (s0 + k),
// base being the start of a group of stage s0 (a "chunk" of n >> s0 elements), so a block
// loads tiles of 2^k rows x C consecutive columns (C = 2^log_cols <= t_b; coalesced), does
// the k stages in shared memory and stores the tile back.  The last pass has t_b = 1, C = 1:
// its tiles are contiguous runs of 2^k elements.  Small transforms put several tiles in a
// block (per_block tiles, the last block may hold fewer).
//
// Forward passes run s0 = 0 first with stages in increasing order; inverse passes the
// reverse.  The forward pass containing the last stage reduces its output to [0, p); the
// inverse pass containing stage 0 does that stage with the n^-1 scaling (table entries 0
// and 1, see twiddles.cuh) and reduces to [0, p).
//
// Block program (see kernels.cuh): phase 0 loads, phases 1..k do one stage each, phase k+1
// stores; threads synchronise between phases and touch disjoint elements within a phase.
#pragma once

#include "families.cuh"

namespace nttcy {

template <class F, bool INVERSE>
struct TransformPass {
    typedef typename F::Word W;

    F fam;
    const W* src;
    const W* src2;
    W* dst;
    const W* tw;
    const W* twq;
    u32* flag;
    W p;
    u32 k;            // stages in this pass
    u32 lc;           // log2 of tile columns
    u32 s0;           // first stage
    u32 log_ctiles;   // log2 of column tiles per chunk
    bool final_pass;
    u64 stride;       // t_b: distance between tile rows
    u64 chunk;        // n >> s0
    u64 tile0;        // first tile of this block
    u64 ntile;        // tiles in this block

    NTT_HD TransformPass(const NttArgs& a, u64 block)
        : fam(a),
          src((const W*)a.src),
          src2((const W*)a.src2),
          dst((W*)a.dst),
          tw((const W*)a.tw),
          twq((const W*)a.twq),
          flag((u32*)a.flag),
          p((W)a.p),
          k((u32)a.log_rows),
          lc((u32)a.log_cols),
          s0((u32)a.stage0),
          log_ctiles((u32)(a.log_n - a.stage0 - a.log_rows - a.log_cols)),
          final_pass(INVERSE ? a.stage0 == 0 : a.stage0 + a.log_rows == a.log_n),
          stride(a.n >> (a.stage0 + a.log_rows)),
          chunk(a.n >> a.stage0),
          tile0(block * a.per_block),
          ntile(a.ntiles - block * a.per_block < a.per_block ? a.ntiles - block * a.per_block
                                                             : a.per_block)
    {
    }

    NTT_HD u32 phases() const { return k + 2; }

    // Global index of element (row r, column c) of tile `tile`.
    NTT_HD u64 global_index(u64 tile, u64 r, u64 c) const
    {
        const u64 ct = tile & ((1ull << log_ctiles) - 1);
        const u64 rest = tile >> log_ctiles;    // batch row * 2^s0 + chunk
        return rest * chunk + (ct << lc) + r * stride + c;
    }

    NTT_HD void run(u32 phase, u32 tid, u32 nthreads, void* smem) const
    {
        W* s = (W*)smem;
        const u32 tile_log = k + lc;
        const u64 row_mask = (1ull << k) - 1;
        const u64 col_mask = (1ull << lc) - 1;
        if (phase == 0 || phase == k + 1) {
            const u64 count = ntile << tile_log;
            for (u64 e = tid; e < count; e += nthreads) {
                const u64 g = global_index(tile0 + (e >> tile_log), (e >> lc) & row_mask, e & col_mask);
                if (phase == 0) {
                    W v = src[g];
                    if (flag && v >= p) *flag = 1u;     // benign race: every writer stores 1
                    if (src2) v = mul_mod(v, src2[g], fam.exact);   // [0, p) x [0, p) -> [0, p)
                    s[e] = v;
                } else {
                    const W v = s[e];
                    dst[g] = final_pass ? (INVERSE ? fam.finish_inv(v) : fam.finish_fwd(v)) : v;
                }
            }
            return;
        }
        // One stage: local stage l within the pass (global stage s0 + l).
        const u32 l = INVERSE ? k - phase : phase - 1;
        const u32 half_log = k - 1 - l;                  // butterfly distance 2^half_log rows
        const u64 half_mask = (1ull << half_log) - 1;
        const u64 bf_count = ntile << (tile_log - 1);
        const u64 chunk_mask = (1ull << s0) - 1;
        for (u64 b = tid; b < bf_count; b += nthreads) {
            const u64 tau = b >> (tile_log - 1);
            const u64 rb = (b >> lc) & (row_mask >> 1);
            const u64 c = b & col_mask;
            const u64 r = ((rb >> half_log) << (half_log + 1)) | (rb & half_mask);
            const u64 i0 = (tau << tile_log) | (r << lc) | c;
            const u64 i1 = i0 + (1ull << (half_log + lc));
            W x = s[i0], y = s[i1];
            if (INVERSE && final_pass && l == 0) {
                fam.inv_scaled(x, y, fam.twiddle(tw, twq, 0), fam.twiddle(tw, twq, 1));
            } else {
                const u64 group = ((tile0 + tau) >> log_ctiles) & chunk_mask;
                const u64 t = (((1ull << s0) | group) << l) | (r >> (k - l));
                if (INVERSE) fam.inv(x, y, fam.twiddle(tw, twq, t));
                else fam.fwd(x, y, fam.twiddle(tw, twq, t));
            }
            s[i0] = x;
            s[i1] = y;
        }
    }
};

}  // namespace nttcy
