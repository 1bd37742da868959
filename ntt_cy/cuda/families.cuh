// Butterflies of the three reduction families, for 32-bit and 64-bit lanes.
//
// Transform structure (the same for all families, see transform_pass.cuh):
//   forward  Cooley-Tukey butterflies  (x, y) -> (x + W y, x - W y),
//            natural order in, bit-reversed order out;
//   inverse  Gentleman-Sande butterflies (x, y) -> (x + y, (x - y) W^-1),
//            bit-reversed order in, natural order out; its stage 0 also multiplies by n^-1.
// Twiddles are read from one table per direction in "heap" order: stage s (2^s groups)
// uses entries [2^s, 2^(s+1)).  Every table entry is in family form (see each family).
//
// A family F provides
//   Word                       lane type (u32 or u64)
//   F(args)                    constants from the kernel arguments (NttArgs)
//   Twiddle twiddle(tw, twq, k)  table entry k
//   fwd(x, y, t), inv(x, y, t), inv_scaled(x, y, s0, s1)   butterflies (ranges below)
//   finish_fwd(x), finish_inv(x)   last-pass reduction to [0, p)
//   store_twiddle(v, tw, twq, k)   write plain residue v in [0, p) to the tables in family form
//   exact                      the exact modulus helper (Mod32 or Mod64) for products
#pragma once

#include "modarith.cuh"
#include "args.cuh"

namespace nttcy {

// The exact-modulus helper for a lane type.
template <class W> struct ExactMod;
template <> struct ExactMod<u32> {
    typedef Mod32 type;
    static NTT_HD Mod32 make(const NttArgs& a)
    {
        Mod32 m;
        m.p = (u32)a.p;
        m.mu = a.mu;
        return m;
    }
};
template <> struct ExactMod<u64> {
    typedef Mod64 type;
    static NTT_HD Mod64 make(const NttArgs& a)
    {
        return make_mod64(a.p, a.mu, (u32)a.norm);
    }
};

// ---------------------------------------------------------------------------------------
// Montgomery: any odd p < 2^w.  Data are plain residues in [0, p) at every point; table
// entries are W * 2^w mod p, so mont_mul(y, entry) = y W mod p.
// ---------------------------------------------------------------------------------------
template <class W>
struct Montgomery {
    typedef W Word;
    struct Twiddle { W w; };
    W p, pinv, r_mod_p;
    typename ExactMod<W>::type exact;

    NTT_HD explicit Montgomery(const NttArgs& a)
        : p((W)a.p), pinv((W)a.pinv), r_mod_p((W)a.r_mod_p), exact(ExactMod<W>::make(a)) {}

    NTT_HD Twiddle twiddle(const W* tw, const W*, u64 k) const { Twiddle t = {tw[k]}; return t; }

    // x, y in [0, p) -> x + W y, x - W y in [0, p).
    NTT_HD void fwd(W& x, W& y, Twiddle t) const
    {
        const W v = mont_mul(y, t.w, p, pinv);
        const W x0 = x;
        x = add_mod(x0, v, p);
        y = sub_mod(x0, v, p);
    }
    // x, y in [0, p) -> x + y, (x - y) W in [0, p).
    NTT_HD void inv(W& x, W& y, Twiddle t) const
    {
        const W x0 = x;
        x = add_mod(x0, y, p);
        y = mont_mul(sub_mod(x0, y, p), t.w, p, pinv);
    }
    // x, y in [0, p) -> (x + y) S0, (x - y) S1 in [0, p).
    NTT_HD void inv_scaled(W& x, W& y, Twiddle s0, Twiddle s1) const
    {
        const W x0 = x;
        x = mont_mul(add_mod(x0, y, p), s0.w, p, pinv);
        y = mont_mul(sub_mod(x0, y, p), s1.w, p, pinv);
    }
    NTT_HD W finish_fwd(W x) const { return x; }
    NTT_HD W finish_inv(W x) const { return x; }
    // v in [0, p) -> tw[k] = v 2^w mod p.
    NTT_HD void store_twiddle(W v, W* tw, W*, u64 k) const { tw[k] = mul_mod(v, r_mod_p, exact); }
};

// ---------------------------------------------------------------------------------------
// Barrett (exact products): any p < 2^w.  Data and table entries are plain residues in
// [0, p); products use mul_mod (Barrett for 32-bit, Moller-Granlund for 64-bit lanes).
// ---------------------------------------------------------------------------------------
template <class W>
struct Barrett {
    typedef W Word;
    struct Twiddle { W w; };
    W p;
    typename ExactMod<W>::type exact;

    NTT_HD explicit Barrett(const NttArgs& a) : p((W)a.p), exact(ExactMod<W>::make(a)) {}

    NTT_HD Twiddle twiddle(const W* tw, const W*, u64 k) const { Twiddle t = {tw[k]}; return t; }

    // x, y in [0, p) -> x + W y, x - W y in [0, p).
    NTT_HD void fwd(W& x, W& y, Twiddle t) const
    {
        const W v = mul_mod(t.w, y, exact);
        const W x0 = x;
        x = add_mod(x0, v, p);
        y = sub_mod(x0, v, p);
    }
    // x, y in [0, p) -> x + y, (x - y) W in [0, p).
    NTT_HD void inv(W& x, W& y, Twiddle t) const
    {
        const W x0 = x;
        x = add_mod(x0, y, p);
        y = mul_mod(t.w, sub_mod(x0, y, p), exact);
    }
    // x, y in [0, p) -> (x + y) S0, (x - y) S1 in [0, p).
    NTT_HD void inv_scaled(W& x, W& y, Twiddle s0, Twiddle s1) const
    {
        const W x0 = x;
        x = mul_mod(s0.w, add_mod(x0, y, p), exact);
        y = mul_mod(s1.w, sub_mod(x0, y, p), exact);
    }
    NTT_HD W finish_fwd(W x) const { return x; }
    NTT_HD W finish_inv(W x) const { return x; }
    NTT_HD void store_twiddle(W v, W* tw, W*, u64 k) const { tw[k] = v; }
};

// ---------------------------------------------------------------------------------------
// Lazy (Harvey 2014, Algorithms 4 and 3 with Shoup products): requires 4p < 2^w.
// Forward data live in [0, 4p), inverse data in [0, 2p); the last pass reduces to [0, p).
// Tables: tw[k] = W in [0, p), twq[k] = floor(W 2^w / p).
// ---------------------------------------------------------------------------------------
template <class W>
struct Lazy {
    typedef W Word;
    struct Twiddle { W w, wq; };
    W p, p2;
    typename ExactMod<W>::type exact;

    NTT_HD explicit Lazy(const NttArgs& a) : p((W)a.p), p2((W)(a.p << 1)), exact(ExactMod<W>::make(a)) {}

    NTT_HD Twiddle twiddle(const W* tw, const W* twq, u64 k) const
    {
        Twiddle t = {tw[k], twq[k]};
        return t;
    }

    // x, y in [0, 4p) -> x + W y, x - W y (mod p) in [0, 4p).
    NTT_HD void fwd(W& x, W& y, Twiddle t) const
    {
        const W x0 = x >= p2 ? (W)(x - p2) : x;          // [0, 2p)
        const W v = shoup_mul_lazy(y, t.w, t.wq, p);     // [0, 2p), any y < 2^w
        x = x0 + v;                                      // [0, 4p)
        y = x0 - v + p2;                                 // (0, 4p)
    }
    // x, y in [0, 2p) -> x + y, (x - y) W (mod p) in [0, 2p).
    NTT_HD void inv(W& x, W& y, Twiddle t) const
    {
        const W x0 = x;
        W s = x0 + y;                                    // [0, 4p)
        x = s >= p2 ? (W)(s - p2) : s;                   // [0, 2p)
        y = shoup_mul_lazy((W)(x0 - y + p2), t.w, t.wq, p);  // (0, 4p) -> [0, 2p)
    }
    // x, y in [0, 2p) -> (x + y) S0, (x - y) S1 (mod p) in [0, 2p).
    NTT_HD void inv_scaled(W& x, W& y, Twiddle s0, Twiddle s1) const
    {
        const W x0 = x;
        x = shoup_mul_lazy((W)(x0 + y), s0.w, s0.wq, p);       // [0, 4p) -> [0, 2p)
        y = shoup_mul_lazy((W)(x0 - y + p2), s1.w, s1.wq, p);  // (0, 4p) -> [0, 2p)
    }
    NTT_HD W finish_fwd(W x) const { return reduce_4p(x, p); }   // [0, 4p) -> [0, p)
    NTT_HD W finish_inv(W x) const { return reduce_2p(x, p); }   // [0, 2p) -> [0, p)
    NTT_HD void store_twiddle(W v, W* tw, W* twq, u64 k) const
    {
        tw[k] = v;
        twq[k] = shoup_precompute(v, exact);
    }
};

}  // namespace nttcy
