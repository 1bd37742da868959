// Twiddle tables, generated on the device once per plan (one thread per entry).
//
// Heap order: entry 2^s + i (0 <= i < 2^s) is the twiddle of group i of stage s, i.e. the
// W with x^(2t) - W^2 = (x^t - W)(x^t + W) for that group's sub-polynomial.  With
// u = n / 2^(s+1) and b = bitreverse_s(i):
//   cyclic      W = w^(b u)              (w = root: a primitive n-th root of unity)
//   negacyclic  W = psi^((2 b + 1) u)    (psi = root: a primitive 2n-th root, psi^2 = w)
// so a Cooley-Tukey pass over these entries evaluates at w^k (cyclic) or psi^(2k+1)
// (negacyclic, which is the twist psi^i folded in) and leaves A[k] at bitreverse(k).
// The inverse table (FLAG_INVERSE) holds the inverses (root = w^-1 or psi^-1) and folds n^-1
// in: entry 0 is n^-1 and entry 1 is W_1^-1 n^-1 (both used only by stage 0's butterfly).
// The forward table's unused entry 0 is 1.  Entries are stored in family form
// (F::store_twiddle); exponents are < 2n, so n <= 2^32 keeps them in range.
#pragma once

#include "families.cuh"

namespace nttcy {

template <class F>
struct TwiddleTable {
    typedef typename F::Word W;

    F fam;
    W* tw;
    W* twq;
    W root;
    W ninv;
    u64 n;
    u64 first;
    u64 last;
    bool inverse;
    bool negacyclic;

    NTT_HD TwiddleTable(const NttArgs& a, u64 block)
        : fam(a),
          tw((W*)a.tw),
          twq((W*)a.twq),
          root((W)a.root),
          ninv((W)a.ninv),
          n(a.n),
          first(block * a.per_block),
          last(a.n - block * a.per_block < a.per_block ? a.n : block * a.per_block + a.per_block),
          inverse((a.flags & FLAG_INVERSE) != 0),
          negacyclic((a.flags & FLAG_NEGACYCLIC) != 0)
    {
    }

    NTT_HD u32 phases() const { return 1; }

    // Plain residue of entry j in [0, p).
    NTT_HD W entry(u64 j) const
    {
        if (j == 0) return inverse ? ninv : (W)(1 % fam.exact.p);
        const u32 s = 63 - clz64(j);
        const u64 b = bit_reverse((u32)(j - (1ull << s)), s);
        const u64 u = n >> (s + 1);
        const u64 e = negacyclic ? (2 * b + 1) * u : b * u;
        W v = pow_mod(root, e, fam.exact);
        if (inverse && j == 1) v = mul_mod(v, ninv, fam.exact);
        return v;
    }

    NTT_HD void run(u32, u32 tid, u32 nthreads, void*) const
    {
        for (u64 j = first + tid; j < last; j += nthreads) fam.store_twiddle(entry(j), tw, twq, j);
    }
};

}  // namespace nttcy
