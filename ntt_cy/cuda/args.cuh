// Kernel argument records, passed by value as each kernel's single parameter.
//
// Every field is a u64 so the layout has no padding and is mirrored exactly by the numpy
// structured dtypes in ntt_cy/cuda/abi.py (field order must match; tests check it).
// Pointers are device addresses (host addresses in the host harness).
#pragma once

#include "modarith.cuh"

namespace nttcy {

enum : u64 {
    FLAG_NEGACYCLIC = 1,   // twiddle tables: negacyclic (powers of psi, psi^2 = w)
    FLAG_INVERSE = 2,      // twiddle tables: the inverse table (with n^-1 folded in)
};

// Transforms, twiddle tables, bit reversal.
struct NttArgs {
    u64 src;        // const W*: input
    u64 src2;       // const W*: optional second input, multiplied into src on load (0: none)
    u64 dst;        // W*: output (may equal src)
    u64 tw;         // W*: twiddle table (heap order, family form)
    u64 twq;        // W*: Shoup companions of tw (lazy family only)
    u64 flag;       // u32*: set to 1 when an input value is >= p (0: no check)
    u64 p;          // modulus, 2 <= p < 2^w
    u64 pinv;       // Montgomery: p^-1 mod 2^w
    u64 mu;         // 32-bit lanes: floor(2^64 / p); 64-bit lanes: floor((2^128-1)/d) - 2^64
    u64 norm;       // 64-bit lanes: leading zeros of p (d = p << norm)
    u64 r_mod_p;    // 2^w mod p
    u64 n;          // transform length 2^log_n
    u64 log_n;
    u64 stage0;     // passes: first stage of this pass (stage s has 2^s butterfly groups)
    u64 log_rows;   // passes: number of stages in this pass (tile rows = 2^log_rows)
    u64 log_cols;   // passes: tile columns = 2^log_cols
    u64 ntiles;     // passes: tiles in the launch; elementwise kernels: element count
    u64 per_block;  // passes: tiles per block; elementwise kernels: elements per block
    u64 flags;      // FLAG_* bits
    u64 root;       // twiddle tables: primitive n-th (cyclic) or 2n-th (negacyclic) root,
                    // or its inverse for the inverse table
    u64 ninv;       // twiddle tables: n^-1 mod p (plain residue)
};

enum { CRT_MAX_PRIMES = 8 };

// Reduction of inputs modulo the CRT primes and Garner reconstruction modulo m.
struct CrtArgs {
    u64 src;          // load: const Win* input rows; garner: const Wres* residues
    u64 dst;          // load: Wres* residues; garner: Wout* output rows
    u64 count;        // elements to produce
    u64 per_block;    // elements per block
    u64 len_in;       // load: length of an input row (any values; reduced modulo m)
    u64 log_row_len;  // residue rows have length 2^log_row_len
    u64 region;       // elements between the residues of consecutive primes
    u64 lin_len;      // garner: valid length of a linear-convolution row
    u64 out_len;      // garner: length of an output row
    u64 fold;         // garner: 0 none, 1 cyclic (c[i] + c[i+out_len]), 2 negacyclic (-)
    u64 k;            // number of primes, 1 <= k <= CRT_MAX_PRIMES
    u64 m;            // output modulus, 1 <= m < 2^64, with its Mod64 constants:
    u64 m_norm;
    u64 m_dinv;
    u64 prime[CRT_MAX_PRIMES];       // p_j
    u64 prime_norm[CRT_MAX_PRIMES];  // Mod64 constants of p_j
    u64 prime_dinv[CRT_MAX_PRIMES];
    u64 prefix[CRT_MAX_PRIMES];      // (p_0 ... p_{j-1}) mod m
    u64 inv[CRT_MAX_PRIMES * CRT_MAX_PRIMES];  // inv[i * 8 + j] = p_i^-1 mod p_j, i < j
};

}  // namespace nttcy
