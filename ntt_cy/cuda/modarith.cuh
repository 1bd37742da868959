// Modular arithmetic shared by every ntt_cy CUDA kernel.
//
// Everything here is `__host__ __device__` and also compiles as plain C++ (g++/clang++),
// so the same code is checked on a machine without a GPU (tests/cuda/test_cuda_host.py
// builds tests/cuda/host_harness.cpp against it).  Each helper states its exact input and
// output ranges and the modulus bound under which they hold.  "w" is the lane width in bits
// (32 for uint32 lanes, 64 for uint64 lanes).
//
// Families (all give identical, fully reduced results; see families.cuh):
//   Montgomery  mont_mul          any odd p < 2^w
//   Barrett     mul_mod (exact)   any p < 2^w: Barrett with mu = floor(2^64/p) for 32-bit
//                                 lanes, Moller-Granlund division by a normalised divisor
//                                 with a precomputed inverse (FLINT's n_mulmod_preinv) for
//                                 64-bit lanes
//   Shoup/lazy  shoup_mul_lazy    any p with 4p < 2^w (Harvey's lazy butterflies)
#pragma once

#ifndef __CUDACC__
#  include <cstdint>
#  ifndef __host__
#    define __host__
#  endif
#  ifndef __device__
#    define __device__
#  endif
#  ifndef __forceinline__
#    define __forceinline__ inline __attribute__((always_inline))
#  endif
#else
#  include <stdint.h>
#endif

#define NTT_HD __host__ __device__ __forceinline__

namespace nttcy {

typedef uint32_t u32;
typedef uint64_t u64;

// ---------------------------------------------------------------------------------------
// Word-level primitives.
// ---------------------------------------------------------------------------------------

// High half of the full product a * b (any a, b).
NTT_HD u32 mulhi(u32 a, u32 b)
{
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return (u32)(((u64)a * b) >> 32);
#endif
}

NTT_HD u64 mulhi(u64 a, u64 b)
{
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (u64)(((unsigned __int128)a * b) >> 64);
#endif
}

// Full product a * b = hi * 2^w + lo (any a, b).
NTT_HD void mul_wide(u32 a, u32 b, u32& hi, u32& lo)
{
    const u64 t = (u64)a * b;
    hi = (u32)(t >> 32);
    lo = (u32)t;
}

NTT_HD void mul_wide(u64 a, u64 b, u64& hi, u64& lo)
{
    hi = mulhi(a, b);
    lo = a * b;
}

// Number of leading zero bits of x; x != 0.
NTT_HD u32 clz64(u64 x)
{
#ifdef __CUDA_ARCH__
    return (u32)__clzll((long long)x);
#else
    return (u32)__builtin_clzll(x);
#endif
}

// The low `bits` bits of x in reverse order; 0 <= bits <= 32 (bits == 0 gives 0).
NTT_HD u32 bit_reverse(u32 x, u32 bits)
{
    if (bits == 0) return 0;
#ifdef __CUDA_ARCH__
    return __brev(x) >> (32 - bits);
#else
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    x = (x >> 16) | (x << 16);
    return x >> (32 - bits);
#endif
}

// ---------------------------------------------------------------------------------------
// Additive arithmetic on canonical residues (any 1 <= p < 2^w; no overflow even when
// 2p > 2^w, e.g. p = 2281701377 in 32-bit lanes or Goldilocks in 64-bit lanes).
// ---------------------------------------------------------------------------------------

// a, b in [0, p) -> (a + b) mod p in [0, p).
template <class W>
NTT_HD W add_mod(W a, W b, W p)
{
    const W t = a - (p - b);            // wraps when a + b < p
    return (a >= p - b) ? t : (W)(t + p);
}

// a, b in [0, p) -> (a - b) mod p in [0, p).
template <class W>
NTT_HD W sub_mod(W a, W b, W p)
{
    const W t = a - b;
    return (a >= b) ? t : (W)(t + p);
}

// x in [0, 2p) -> x mod p; requires 2p <= 2^w (lazy family only).
template <class W>
NTT_HD W reduce_2p(W x, W p)
{
    return x >= p ? (W)(x - p) : x;
}

// x in [0, 4p) -> x mod p; requires 4p <= 2^w (lazy family only).
template <class W>
NTT_HD W reduce_4p(W x, W p)
{
    const W p2 = p << 1;
    x = x >= p2 ? (W)(x - p2) : x;
    return x >= p ? (W)(x - p) : x;
}

// ---------------------------------------------------------------------------------------
// Exact reduction and multiplication for any modulus (the "Barrett" family and every
// place where an exact product is needed: pointwise products, CRT, twiddle generation).
// ---------------------------------------------------------------------------------------

// 32-bit moduli: 2 <= p < 2^32, mu = floor(2^64 / p) (so 2^32 < mu <= 2^63).
struct Mod32 {
    u32 p;
    u64 mu;
};

// Any T in [0, 2^64) -> T mod p in [0, p).
// q = floor(T * mu / 2^64) satisfies T/p - 2 < q <= T/p, so r = T - q p lies in [0, 2p)
// (2p < 2^33 fits the 64-bit word) and one conditional subtraction finishes.
NTT_HD u32 reduce_u64(u64 T, const Mod32& m)
{
    const u64 q = mulhi(T, m.mu);
    const u64 r = T - q * (u64)m.p;
    return (u32)(r >= m.p ? r - m.p : r);
}

// Any a, b in [0, 2^32) -> a * b mod p in [0, p).
NTT_HD u32 mul_mod(u32 a, u32 b, const Mod32& m)
{
    return reduce_u64((u64)a * b, m);
}

// 64-bit moduli: 1 <= p < 2^64, norm = number of leading zeros of p, d = p << norm
// (2^63 <= d < 2^64), dinv = floor((2^128 - 1) / d) - 2^64.
struct Mod64 {
    u64 p;
    u64 d;
    u64 dinv;
    u32 norm;
};

NTT_HD Mod64 make_mod64(u64 p, u64 dinv, u32 norm)
{
    Mod64 m;
    m.p = p;
    m.d = p << norm;
    m.dinv = dinv;
    m.norm = norm;
    return m;
}

// Division of the two-word number (hi:lo) by the normalised d, requires hi < d.
// Returns the remainder in [0, d) and stores the quotient (< 2^64) in *quot.
// Moller & Granlund, "Improved division by invariant integers", IEEE TC 2011, Alg. 4
// (FLINT's udiv_qrnnd_preinv).
NTT_HD u64 divrem_preinv(u64 hi, u64 lo, u64 d, u64 dinv, u64* quot)
{
    u64 qh, ql;
    mul_wide(hi, dinv, qh, ql);
    // (qh:ql) += (hi + 1 : lo); hi + 1 cannot overflow because hi < d < 2^64.
    const u64 sum = ql + lo;
    qh += hi + 1 + (sum < ql ? 1 : 0);
    ql = sum;
    u64 r = lo - qh * d;
    if (r > ql) {               // the candidate quotient was one too large
        qh -= 1;
        r += d;
    }
    if (r >= d) {               // rare: one too small
        qh += 1;
        r -= d;
    }
    *quot = qh;
    return r;
}

// a in [0, p), any b in [0, 2^64) -> a * b mod p in [0, p).  Valid for every 1 <= p < 2^64:
// (a << norm) * b < d * 2^64, so the high word is < d as divrem_preinv requires, and
// ((a b) << norm) mod d = (a b mod p) << norm.
NTT_HD u64 mul_mod(u64 a, u64 b, const Mod64& m)
{
    u64 hi, lo, q;
    mul_wide(a << m.norm, b, hi, lo);
    return divrem_preinv(hi, lo, m.d, m.dinv, &q) >> m.norm;
}

// Any x in [0, 2^64) -> x mod p in [0, p).  (x << norm) has high word < 2^norm <= d.
NTT_HD u64 reduce_u64(u64 x, const Mod64& m)
{
    u64 q;
    const u64 hi = m.norm ? x >> (64 - m.norm) : 0;
    return divrem_preinv(hi, x << m.norm, m.d, m.dinv, &q) >> m.norm;
}

// a, b in [0, p) -> a^e mod p (square and multiply); 0^0 = 1.
template <class W, class M>
NTT_HD W pow_mod(W a, u64 e, const M& m)
{
    W r = (W)(1 % m.p);
    while (e) {
        if (e & 1) r = mul_mod(r, a, m);
        a = mul_mod(a, a, m);
        e >>= 1;
    }
    return r;
}

// ---------------------------------------------------------------------------------------
// Montgomery multiplication (R = 2^w), for any odd p < 2^w; pinv = p^-1 mod 2^w.
// ---------------------------------------------------------------------------------------

// a * b < p * 2^w (e.g. a in [0, p) and any b) -> a * b * 2^-w mod p in [0, p).
// Subtractive REDC: m = lo(ab) * pinv makes lo(m p) == lo(ab), so
// (ab - m p) / 2^w = hi(ab) - hi(m p) exactly, with hi(ab) < p and hi(m p) < p, hence a
// value in (-p, p) corrected by one conditional addition.  No 2^(w+1) intermediate, so it
// holds even when 2p > 2^w.
template <class W>
NTT_HD W mont_mul(W a, W b, W p, W pinv)
{
    W hi, lo;
    mul_wide(a, b, hi, lo);
    const W mh = mulhi((W)(lo * pinv), p);
    return hi >= mh ? (W)(hi - mh) : (W)(hi - mh + p);
}

// ---------------------------------------------------------------------------------------
// Shoup multiplication by a fixed w with precomputed wq = floor(w * 2^w / p) (Shoup, NTL;
// Harvey, "Faster arithmetic for number-theoretic transforms", JSC 2014).
// ---------------------------------------------------------------------------------------

// w in [0, p), p < 2^32 -> floor(w * 2^32 / p) in [0, 2^32).
NTT_HD u32 shoup_precompute(u32 w, const Mod32& m)
{
    return (u32)(((u64)w << 32) / m.p);
}

// w in [0, p), p < 2^64 -> floor(w * 2^64 / p) in [0, 2^64), via divrem_preinv on
// (w << norm : 0) / d, which has the same quotient.
NTT_HD u64 shoup_precompute(u64 w, const Mod64& m)
{
    u64 q;
    divrem_preinv(w << m.norm, 0, m.d, m.dinv, &q);
    return q;
}

// Any x in [0, 2^w), w in [0, p), wq = floor(w 2^w / p), 2p <= 2^w
//   -> r = x w mod p  up to one multiple of p:  r in [0, 2p).
// With q = floor(x wq / 2^w): 0 <= x w - q p < p + x (w 2^w - wq p) / 2^w < 2p.
template <class W>
NTT_HD W shoup_mul_lazy(W x, W w, W wq, W p)
{
    const W q = mulhi(wq, x);
    return (W)(w * x - q * p);
}

}  // namespace nttcy
