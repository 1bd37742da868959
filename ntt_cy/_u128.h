/* The one thing Cython cannot spell: 64 x 64 -> 128-bit products (gcc/clang
 * unsigned __int128, compiled to a single mul/mulx on x86-64). */
#ifndef NTT_CY_U128_H
#define NTT_CY_U128_H
#include <stdint.h>

typedef unsigned __int128 ntt_u128;

/* Low word of a*b returned, high word stored in *hi. */
static inline uint64_t ntt_mul_wide(uint64_t a, uint64_t b, uint64_t *hi) {
    ntt_u128 t = (ntt_u128)a * b;
    *hi = (uint64_t)(t >> 64);
    return (uint64_t)t;
}

static inline uint64_t ntt_mulhi64(uint64_t a, uint64_t b) {
    return (uint64_t)(((ntt_u128)a * b) >> 64);
}

/* (hi*2^64 + lo) mod p, and floor((hi*2^64 + lo) / p) for hi < p.
 * Slow (a library division): table construction only, never in a butterfly. */
static inline uint64_t ntt_mod128(uint64_t hi, uint64_t lo, uint64_t p) {
    return (uint64_t)((((ntt_u128)hi << 64) | lo) % p);
}

static inline uint64_t ntt_div128(uint64_t hi, uint64_t lo, uint64_t p) {
    return (uint64_t)((((ntt_u128)hi << 64) | lo) / p);
}

#endif
