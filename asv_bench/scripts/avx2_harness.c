/* The AVX2 uint32 kernels of the headers, timed phase by phase outside Python: where a
 * transform's time goes, and how close each phase comes to the butterflies' own rate.
 *
 *     gcc -O3 -mavx2 -mbmi2 -mfma -Intt_cy/_kernels asv_bench/scripts/avx2_harness.c -o /tmp/avx2_harness
 *     /tmp/avx2_harness
 *
 * n = 2^17, p = 998244353, LAZY family passed as a run-time value (as the Cython
 * kernels pass it), tables at the page offsets ntt_cy._support.aligned gives them (data 0,
 * twiddles 1 KiB, quotients 3 KiB).  The twiddles are random residues with their Shoup
 * quotients: the timings do not depend on the values, and nothing is checked here
 * (tests/ check the kernels against exact transforms).  Best of 300 runs per phase.
 * Before the phases, the butterflies alone: in registers (the rate the phases are
 * measured against) and streamed through L1 (butterflies_through_l1, including one
 * variants the kernels do not use).
 * Then the element-wise steps of a product (pointwise, CRT reconstruction): see
 * elementwise().
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "simd/ntt32/dispatch.h"
#include "simd/bitrev/dispatch.h"
#include "simd/garner/dispatch.h"

#define P 998244353u
#define LOG2N 17
#define N ((size_t)1 << LOG2N)
#define CHUNK ((size_t)65536)     /* ntt_cy/_kernels/ntt/types.pxi CHUNK */
#define L1_BLOCK ((size_t)4096)   /* ntt_cy/_kernels/ntt/types.pxi L1_BLOCK_BYTES / 4 */

static volatile int family = NTT_LAZY;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint32_t *page_array(size_t count, size_t offset) {
    char *raw = aligned_alloc(4096, count * 4 + 4096);
    return (uint32_t *)(raw + offset);
}

/* The DIF stages h = L1_BLOCK / 2 .. 16 of one L1 block, in radix-4 pairs. */
static void l1_block(uint32_t *a, const uint32_t *tw, const uint32_t *twq) {
    for (size_t h = L1_BLOCK / 2; h >= 32; h /= 4)
        for (size_t s = 0; s < L1_BLOCK; s += 2 * h)
            ntt32_run4(1, a + s, h, 0, h / 2, tw, twq, P, 0, 0, family, 0);
}

static uint64_t pow_mod(uint64_t b, uint64_t e, uint64_t m) {
    uint64_t r = 1;
    for (b %= m; e; e >>= 1, b = b * b % m)   /* m < 2^32: products fit */
        if (e & 1)
            r = r * b % m;
    return r;
}

/* The element-wise steps of a product mod 10^9 + 7 at n = 2^17: the pointwise product
 * (one prime, 2^18 values in [0, 2p), left in [0, 2p) for the LAZY inverse; the
 * constant 2^32 mod p of a product whose second operand carries n^-1, one Montgomery
 * product per value, see padded_product_rows) and the
 * CRT reconstruction of 2^18 coefficients from three primes' residues into uint32 (as
 * ntt_cy/_kernels/crt/garner_rows.pxi calls it, blocks of 512), constants as
 * ntt_cy._crt.CRTBasis derives them. */
static void elementwise(void) {
    enum { LEN = 1 << 18, BLOCK = 512 };
    const uint64_t m = 1000000007u, primes[3] = {1053818881u, 1051721729u, 1045430273u};
    uint64_t inv[9], inv_q[9], offsets[3] = {0, 0, 0}, w[3], wq[3], scratch64[BLOCK];
    uint32_t *rows[3], *out = page_array(LEN, 0), pinv = 1;
    for (int l = 0; l < 3; l++)
        for (int j = 0; j < 3; j++) {
            inv[3 * l + j] = l == j ? 1 : pow_mod(primes[l], primes[j] - 2, primes[j]);
            inv_q[3 * l + j] = (inv[3 * l + j] << 32) / primes[j];
        }
    w[0] = 1;
    w[1] = primes[0] % m;
    w[2] = primes[0] % m * (primes[1] % m) % m;
    for (int j = 0; j < 3; j++)
        wq[j] = (w[j] << 32) / m;
    for (int j = 0; j < 3; j++) {
        rows[j] = page_array(LEN, 0);
        for (size_t i = 0; i < LEN; i++)
            rows[j][i] = (uint32_t)(rand() % primes[j]);
    }
    for (int k = 0; k < 5; k++)   /* p^-1 mod 2^32 by Newton's iteration */
        pinv *= 2 - P * pinv;
    double best_pointwise = 1e9, best_crt = 1e9;
    for (int run = 0; run < 300; run++) {
        double t0 = now();
        ntt32_pointwise(rows[0], rows[1], out, LEN, P, pinv, (uint32_t)((1ull << 32) % P), 1);
        double t1 = now();
        for (size_t s = 0; s < LEN; s += BLOCK)
            garner32_vector_mod((const uint32_t *const *)rows, s, 3, BLOCK, primes, inv, inv_q,
                                offsets, m, w, wq, 0, scratch64, out + s);
        double t2 = now();
        best_pointwise = t1 - t0 < best_pointwise ? t1 - t0 : best_pointwise;
        best_crt = t2 - t1 < best_crt ? t2 - t1 : best_crt;
    }
    printf("%-38s %7.1f us  %.3f ns/value\n", "pointwise product, 2^18 values",
           best_pointwise * 1e6, best_pointwise * 1e9 / LEN);
    printf("%-38s %7.1f us  %.3f ns/value\n", "CRT reconstruction, 3 primes, 2^18",
           best_crt * 1e6, best_crt * 1e9 / LEN);
}

/* The rate the phases are measured against: vec_u32_butterfly (LAZY DIF with a Shoup
 * product, 13 vector ops per 8 butterflies) on four independent register pairs with
 * one twiddle, no loads or stores.  A phase at 100% runs as fast as the butterflies
 * alone; the edge stages can pass it, since their twiddle-1 butterflies take a fold
 * instead of a product (avx2_u32_edge_quadrant). */
static double butterflies_in_registers(void) {
    enum { STEPS = 20000000 };
    vec_u32_mod m = vec_u32_modulus(P, 0, 0, NTT_LAZY);
    uint32_t w = 3, wq = (uint32_t)(((uint64_t)w << 32) / P);
    vec_u32_twiddle t = vec_u32_twiddle_of(_mm256_set1_epi32((int)w), _mm256_set1_epi32((int)wq));
    __m256i x0 = _mm256_set1_epi32(1), x1 = _mm256_set1_epi32(2), x2 = _mm256_set1_epi32(3);
    __m256i x3 = _mm256_set1_epi32(4), x4 = _mm256_set1_epi32(5), x5 = _mm256_set1_epi32(6);
    __m256i x6 = _mm256_set1_epi32(7), x7 = _mm256_set1_epi32(8);
    double best = 1e9;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (long i = 0; i < STEPS; i++) {
            vec_u32_butterfly(1, &x0, &x1, &t, &m, 0);
            vec_u32_butterfly(1, &x2, &x3, &t, &m, 0);
            vec_u32_butterfly(1, &x4, &x5, &t, &m, 0);
            vec_u32_butterfly(1, &x6, &x7, &t, &m, 0);
            /* the values stay in registers, but the compiler may not drop the work */
            __asm__ volatile("" : "+x"(x0), "+x"(x1), "+x"(x2), "+x"(x3), "+x"(x4), "+x"(x5),
                             "+x"(x6), "+x"(x7));
        }
        double t1 = now() - t0;
        best = t1 < best ? t1 : best;
    }
    return best * 1e9 / ((double)STEPS * 4 * 8);
}

/* A Cooley-Tukey butterfly without the fold of its unmultiplied operand, 11 vector ops
 * against vec_u32_butterfly's 13: not a kernel of the package.  u grows by 2p per stage
 * (u + t and u + 2p - t with t = Shoup(v) in [0, 2p), v any 32-bit value), so it
 * needs p < 2^27 (32p <= 2^32: a fold every 15 stages) and a forward transform in
 * Cooley-Tukey form (one twiddle per block); the kernels' forward is Gentleman-Sande,
 * whose sums double per stage. */
NTT_INLINE void ct_butterfly_unfolded(__m256i *u, __m256i *v, const vec_u32_twiddle *tw,
                                      const vec_u32_mod *m) {
    __m256i t = vec_u32_shoup_odd(*v, tw->w, tw->q, tw->q_odd, m->p);
    __m256i x = *u;
    *u = _mm256_add_epi32(x, t);
    *v = _mm256_add_epi32(x, _mm256_sub_epi32(m->two_p, t));
}

/* The same Cooley-Tukey butterfly on signed residues, 10 vector ops: not a kernel of
 * the package either.  A Shoup product of a signed a in (-2^31, 2^31), its high half
 * from vpmuldq (signed) instead of vpmuludq, is a w - q p in [0, 2p) for a >= 0 and in
 * [-p, p) for a < 0, so |t| < 2p and u +- t needs no offset and no fold: |u| < (2s + 1)
 * p after s stages from |u| < p.  For 18 stages (n = 2^18) that is 37p < 2^31, p <
 * 2^25.79, and the three largest such primes with 2^18 | p - 1 multiply to 2^76.3, short
 * of a product of 2^17 residues mod 10^9 + 7 (up to 2^76.8): at that length a reduction
 * midway is needed (19p after 9 stages: p < 2^26.75, three primes 2^80.05). */
NTT_INLINE void ct_butterfly_signed(__m256i *u, __m256i *v, const vec_u32_twiddle *tw,
                                    const vec_u32_mod *m) {
    __m256i even = _mm256_srli_epi64(_mm256_mul_epi32(*v, tw->q), 32);
    __m256i odd = _mm256_mul_epi32(_mm256_srli_epi64(*v, 32), tw->q_odd);
    __m256i q = _mm256_blend_epi32(even, odd, 0xAA);
    __m256i t = _mm256_sub_epi32(_mm256_mullo_epi32(*v, tw->w), _mm256_mullo_epi32(q, m->p));
    __m256i x = *u;
    *u = _mm256_add_epi32(x, t);
    *v = _mm256_sub_epi32(x, t);
}

enum { STREAM_DIF, STREAM_DIT, STREAM_DIT_UNFOLDED, STREAM_DIT_SIGNED, STREAM_SHOUP,
       STREAM_KINDS };

/* One butterfly kind over 2 x 256 vectors (16 KiB, L1-resident), one broadcast twiddle:
 * independent butterflies, so this is the throughput the passes could reach, where
 * butterflies_in_registers chains four of them.  Inlined at each call with its kind a
 * constant, so the timed loop holds that kind's butterfly and no test of `kind`. */
NTT_INLINE double butterflies_through_l1(int kind) {
    enum { VECTORS = 256, REPEATS = 20000 };
    /* u and v in one page-aligned buffer, v five vectors past u's end: as two static
     * arrays, wherever the linker put them, one kind's rate moved by up to 20% from
     * one build of this file to the next. */
    static __m256i buffer[2 * VECTORS + 5] __attribute__((aligned(4096)));
    __m256i *u = buffer, *v = buffer + VECTORS + 5;
    vec_u32_mod m = vec_u32_modulus(P, 0, 0, NTT_LAZY);
    uint32_t w = 3, wq = (uint32_t)(((uint64_t)w << 32) / P);
    vec_u32_twiddle t = vec_u32_twiddle_of(_mm256_set1_epi32((int)w), _mm256_set1_epi32((int)wq));
    for (int i = 0; i < VECTORS; i++) {
        u[i] = _mm256_set1_epi32(i);
        v[i] = _mm256_set1_epi32(3 * i);
    }
    double best = 1e9;
    for (int run = 0; run < 9; run++) {
        double t0 = now();
        for (int r = 0; r < REPEATS; r++) {
            for (int i = 0; i < VECTORS; i++) {
                __m256i x = _mm256_load_si256(u + i), y = _mm256_load_si256(v + i);
                if (kind == STREAM_DIF)
                    vec_u32_butterfly(1, &x, &y, &t, &m, 0);
                else if (kind == STREAM_DIT)
                    vec_u32_butterfly(0, &x, &y, &t, &m, 0);
                else if (kind == STREAM_DIT_UNFOLDED)
                    ct_butterfly_unfolded(&x, &y, &t, &m);
                else if (kind == STREAM_DIT_SIGNED)
                    ct_butterfly_signed(&x, &y, &t, &m);
                else
                    y = vec_u32_shoup_odd(y, t.w, t.q, t.q_odd, m.p);
                _mm256_store_si256(u + i, x);
                _mm256_store_si256(v + i, y);
            }
            __asm__ volatile("" ::: "memory");
        }
        double t1 = now() - t0;
        best = t1 < best ? t1 : best;
    }
    return best * 1e9 / ((double)REPEATS * VECTORS * 8);
}

int main(void) {
    uint32_t *a = page_array(N, 0), *tw = page_array(N, 1024), *twq = page_array(N, 3072);
    uint32_t *rev = malloc(N * sizeof *rev);
    for (size_t i = 0; i < N; i++) {
        size_t r = 0;
        for (int b = 0; b < LOG2N; b++)
            r |= ((i >> b) & 1) << (LOG2N - 1 - b);
        rev[i] = (uint32_t)r;
        a[i] = (uint32_t)(rand() % P);
        tw[i] = (uint32_t)(rand() % P);
        twq[i] = (uint32_t)(((uint64_t)tw[i] << 32) / P);
    }
    enum { TOP, CHUNKS, BLOCKS, TAIL, TILED_FWD, TILED_INV, PHASES };
    const char *name[PHASES] = {"top stage (radix-2 sweep)", "chunk radix-4 sweeps (4 stages)",
                                "L1 blocks down to h = 16 (8 stages)",
                                "permutation with the last 4 stages", "tiled small stages, forward",
                                "tiled small stages, inverse"};
    const double butterflies[PHASES] = {1, 4, 8, 4, 4, 4};
    double best[PHASES];
    for (int k = 0; k < PHASES; k++)
        best[k] = 1e9;
    for (int run = 0; run < 300; run++) {
        double t[PHASES + 1];
        t[0] = now();
        ntt32_run(1, a, a + N / 2, tw + N / 2, twq + N / 2, N / 2, P, 0, 0, family, 0);
        t[1] = now();
        for (size_t c = 0; c < N; c += CHUNK) {
            ntt32_run4(1, a + c, CHUNK / 2, 0, CHUNK / 4, tw, twq, P, 0, 0, family, 0);
            for (size_t s = 0; s < CHUNK; s += CHUNK / 4)
                ntt32_run4(1, a + c + s, CHUNK / 8, 0, CHUNK / 16, tw, twq, P, 0, 0, family, 0);
        }
        t[2] = now();
        for (size_t b = 0; b < N; b += L1_BLOCK)
            l1_block(a + b, tw, twq);
        t[3] = now();
        bitrev32_inplace_dif_tail(a, LOG2N, rev, 0, N >> 8, P, tw, twq, P, 0, 0, family);
        t[4] = now();
        ntt32_small_stages_tiled(1, a, N, tw, twq, P, 0, 0, family);
        t[5] = now();
        ntt32_small_stages_tiled(0, a, N, tw, twq, P, 0, 0, family);
        t[6] = now();
        for (int k = 0; k < PHASES; k++)
            if (t[k + 1] - t[k] < best[k])
                best[k] = t[k + 1] - t[k];
    }
    double rate = butterflies_in_registers();
    printf("n = 2^%d, p = %u, LAZY, one thread; best of 300\n", LOG2N, P);
    printf("%-38s            %.3f ns/butterfly\n", "butterflies in registers", rate);
    const char *kind[STREAM_KINDS] = {"through L1: DIF, 13 ops", "through L1: DIT, 13 ops",
                                      "through L1: DIT unfolded, 11 ops",
                                      "through L1: DIT signed, 10 ops",
                                      "through L1: Shoup alone, 8 ops"};
    const double stream[STREAM_KINDS] = {
        butterflies_through_l1(STREAM_DIF), butterflies_through_l1(STREAM_DIT),
        butterflies_through_l1(STREAM_DIT_UNFOLDED), butterflies_through_l1(STREAM_DIT_SIGNED),
        butterflies_through_l1(STREAM_SHOUP)};
    for (int k = 0; k < STREAM_KINDS; k++)
        printf("%-38s            %.3f ns/butterfly\n", kind[k], stream[k]);
    for (int k = 0; k < PHASES; k++) {
        double ns = best[k] * 1e9 / (butterflies[k] * (N / 2));
        printf("%-38s %7.1f us  %.3f ns/butterfly  %3.0f%% of that rate\n", name[k],
               best[k] * 1e6, ns, 100 * rate / ns);
    }
    elementwise();
    return a[1] == 0;   /* keeps the work observable */
}
