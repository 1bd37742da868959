// Polynomial products over any modulus 1 <= m < 2^64 via k NTT primes (k = 1 when m itself is a
// suitable NTT prime): reduction of the inputs modulo each prime, and Garner's mixed-radix
// reconstruction of the exact integer coefficient, taken modulo m, with the optional
// cyclic/negacyclic fold of a linear convolution.  All products use the exact Mod64 helper
// (valid for any modulus < 2^64).  Elementwise programs: per_block elements per block.
//
// Residue layout: prime j, row r, column c at  j * region + r * 2^log_row_len + c.
#pragma once

#include "args.cuh"

namespace nttcy {

NTT_HD Mod64 crt_prime(const CrtArgs& a, u32 j)
{
    return make_mod64(a.prime[j], a.prime_dinv[j], (u32)a.prime_norm[j]);
}

// One past the last element of this block's share [block * per_block, ...) of count.
NTT_HD u64 block_end(const CrtArgs& args, u64 block)
{
    const u64 first = block * args.per_block;
    return args.count - first < args.per_block ? args.count : first + args.per_block;
}

// Input rows (length len_in, any values) -> zero-padded rows of the values reduced modulo m
// and then modulo every prime.
template <class Win, class Wres>
struct CrtLoad {
    const CrtArgs& a;
    u64 first, last;

    NTT_HD CrtLoad(const CrtArgs& args, u64 block)
        : a(args), first(block * args.per_block), last(block_end(args, block))
    {
    }

    NTT_HD u32 phases() const { return 1; }

    NTT_HD void run(u32, u32 tid, u32 nthreads, void*) const
    {
        const Win* src = (const Win*)a.src;
        Wres* dst = (Wres*)a.dst;
        const u64 col_mask = (1ull << a.log_row_len) - 1;
        const Mod64 mm = make_mod64(a.m, a.m_dinv, (u32)a.m_norm);
        for (u64 e = first + tid; e < last; e += nthreads) {
            const u64 c = e & col_mask;
            const u64 x = c < a.len_in ? reduce_u64((u64)src[(e >> a.log_row_len) * a.len_in + c], mm) : 0;
            for (u32 j = 0; j < (u32)a.k; ++j) dst[j * a.region + e] = (Wres)reduce_u64(x, crt_prime(a, j));
        }
    }
};

// Residues -> output rows modulo m.
template <class Wres, class Wout>
struct CrtGarner {
    const CrtArgs& a;
    u64 first, last;

    NTT_HD CrtGarner(const CrtArgs& args, u64 block)
        : a(args), first(block * args.per_block), last(block_end(args, block))
    {
    }

    NTT_HD u32 phases() const { return 1; }

    // The exact coefficient at residue index idx, modulo m:
    // x = y_0 + p_0 (y_1 + p_1 (y_2 + ...)), y_j = (...((v_j - y_0) p_0^-1 - y_1) p_1^-1 ...)
    // mod p_j, each y_j in [0, p_j); x mod m = sum_j y_j (p_0 ... p_{j-1} mod m).
    NTT_HD u64 coefficient(const Wres* res, u64 idx, const Mod64& mm) const
    {
        u64 y[CRT_MAX_PRIMES];
        y[0] = res[idx];
        u64 acc = reduce_u64(y[0], mm);
        for (u32 j = 1; j < (u32)a.k; ++j) {
            const Mod64 pj = crt_prime(a, j);
            u64 t = res[j * a.region + idx];
            for (u32 i = 0; i < j; ++i)
                t = mul_mod(a.inv[i * CRT_MAX_PRIMES + j], sub_mod(t, reduce_u64(y[i], pj), pj.p), pj);
            y[j] = t;
            acc = add_mod(acc, mul_mod(a.prefix[j], t, mm), a.m);
        }
        return acc;
    }

    NTT_HD void run(u32, u32 tid, u32 nthreads, void*) const
    {
        const Wres* res = (const Wres*)a.src;
        Wout* dst = (Wout*)a.dst;
        const Mod64 mm = make_mod64(a.m, a.m_dinv, (u32)a.m_norm);
        for (u64 e = first + tid; e < last; e += nthreads) {
            const u64 row = e / a.out_len;
            const u64 i = e - row * a.out_len;
            const u64 base = row << a.log_row_len;
            u64 v = coefficient(res, base + i, mm);
            if (a.fold && i + a.out_len < a.lin_len) {
                const u64 v2 = coefficient(res, base + i + a.out_len, mm);
                v = a.fold == 1 ? add_mod(v, v2, a.m) : sub_mod(v, v2, a.m);
            }
            dst[e] = (Wout)v;
        }
    }
};

}  // namespace nttcy
