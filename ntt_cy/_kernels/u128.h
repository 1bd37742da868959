/* The one thing Cython cannot spell: 64 x 64 -> 128-bit products and sums of them
 * (gcc/clang unsigned __int128, a product compiled to a single mul/mulx on x86-64). */
#ifndef NTT_CY_U128_H
#define NTT_CY_U128_H
#include <stddef.h>
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

/* Products per 128-bit partial sum in ntt_dot_wide for factors below m (m >= 2):
 * the largest c with c * (m - 1)^2 < 2^128, at most 2^62. */
static inline ptrdiff_t ntt_wide_chunk(uint64_t m) {
    ntt_u128 square = (ntt_u128)(m - 1) * (m - 1);
    ntt_u128 c = ~(ntt_u128)0 / square;
    return c > ((ntt_u128)1 << 62) ? (ptrdiff_t)1 << 62 : (ptrdiff_t)c;
}

/* sum_{i < count} a[i] * b[i] exactly, as top * 2^128 + *hi * 2^64 + (returned) low
 * word, for a[i], b[i] < m with chunk = ntt_wide_chunk(m): the products are summed
 * chunk at a time in 128 bits (no overflow by chunk's definition), and each partial
 * sum is added into the 192-bit total, a carry into *top at most once per chunk.
 * chunk == 1 (m > ~2^63.5) adds each product's words with their carries instead,
 * cheaper than a 128-bit sum per product. */
static inline uint64_t ntt_dot_wide(const uint64_t *a, const uint64_t *b, ptrdiff_t count,
                                    ptrdiff_t chunk, uint64_t *hi, uint64_t *top) {
    ntt_u128 total = 0, part;
    uint64_t carries = 0, lo = 0, high = 0, plo, phi;
    ptrdiff_t i = 0, end;
    if (chunk == 1) {
        for (; i < count; i++) {
            plo = ntt_mul_wide(a[i], b[i], &phi);
            lo += plo;
            phi += lo < plo;          /* phi <= 2^64 - 2: the carry cannot overflow it */
            high += phi;
            carries += high < phi;
        }
        *hi = high;
        *top = carries;
        return lo;
    }
    while (i < count) {
        end = count - i > chunk ? i + chunk : count;
        part = 0;
        for (; i < end; i++)
            part += (ntt_u128)a[i] * b[i];
        total += part;
        carries += total < part;
    }
    *hi = (uint64_t)(total >> 64);
    *top = carries;
    return (uint64_t)total;
}

#endif
