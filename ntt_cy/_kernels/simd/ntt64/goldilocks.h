/* The GOLDILOCKS transform stages by radix-64 groups (p = 2^64 - 2^32 + 1, uint64
 * lanes, vector builds): most twiddles become shifts.
 *
 * 2 has order 192 mod p (2^96 = -1), so every root of unity of order dividing 64 is
 * +-2^k, 0 <= k < 96, whatever root the plan picked, and a product by one is two
 * shifts and the reduction of vec_u64_goldilocks_reduce (gl_times below).  A DIF
 * block of B = 2^s L values, index i = i1 L + i0 (i1 < 2^s, i0 < L), split at L:
 *   1. s radix-2 stages along i1 (the "columns", stride L): their twiddles are the
 *      2^s-th roots r_{2h'}^{j1} (h' = 2^(s-1) .. 1 rows), shifts, each row one
 *      shift for all its L values;
 *   2. each value times D_B[k L + i0] = r_B^(i0 bitrev_s(k)) (k the row it ends in,
 *      row 0 all ones: skipped), one generic product;
 *   3. the 2^s blocks of L values, each through its remaining stages.
 * This is the radix-2 DIF of the same root regrouped (the twiddle of stage h, r_{2h}^j
 * with j = j1 L + i0, factored into its 2^s-th-root part and the rest, which every
 * later stage of the group would otherwise carry), so the values are those of the
 * radix-2 stages.  The DIT (inverse) is its transpose: 3, then 2 before the column
 * stages, then 1 with the stages in reverse order.
 * The split points are fixed, L = 8 64^g (simd/ntt64/goldilocks_layout.h), so that
 * the tables do not depend on the chunk a schedule hands over: the stages h = 4, 2, 1
 * run on eight 8-value blocks transposed into eight vectors, their twiddles 8th roots
 * of unity, shifts (gl_low_stages); then groups of up to six stages, L = 8 (h = 8 ..
 * 256), L = 512 (h = 512 .. 16384), L = 32768, the topmost group of a block as many
 * stages as it has.  At B = 2^16 that is 63/64 + 63/64 + 1/2 generic products per
 * value instead of 8.  A column stage runs row pair by row pair, with a loop of its own
 * for each of the eight ways a shift twiddle multiplies (gl_kind, and the sign), so
 * that no butterfly branches; the stages in registers take the 8th roots as constants,
 * one copy for each of the four primitive 8th roots 2^24, 2^72, 2^120, 2^168.
 *
 * Tables (NTTPlan builds them into fwd_tw_q / inv_tw_q for this family): D_B at
 * groups[B .. 2B) for every B = 16, 32, .., groups[0] = the largest B (min(n, the
 * schedules' CHUNK)).  The shift amounts come from the stage twiddles (tw[h + j] =
 * r_{2h}^j): r_M = 2^e_M for M = min(B, 64) found once per call.
 *
 * Ranges: every value in memory and between butterflies is in [0, p) (the exact
 * add / sub of simd/ntt64/vector.h, products canonical), as the radix-2 GOLDILOCKS
 * stages keep them, so the two mix freely.
 */
#ifndef NTT_CY_SIMD_NTT64_GOLDILOCKS_H
#define NTT_CY_SIMD_NTT64_GOLDILOCKS_H
#include <stdint.h>
#include <stddef.h>
#include "simd/ntt64/vector.h"
#include "simd/ntt64/goldilocks_layout.h"

/* A shift twiddle 2^e (e < 192) as the butterflies take it: 2^k with k = e mod 96, and
 * the sign (2^96 = -1). */
typedef struct {
    unsigned k;
    int negative;
} gl_shift;

NTT_INLINE gl_shift gl_shift_of(unsigned e) {
    gl_shift s;
    e %= 192;
    s.negative = e >= 96;
    s.k = e - 96 * (unsigned)s.negative;
    return s;
}

/* The four ways gl_times multiplies by 2^k: not at all (k = 0), 0 < k <= 32, 32 < k <
 * 64, 64 <= k < 96. */
enum { GL_ONE, GL_LOW, GL_MID, GL_HIGH };

NTT_INLINE int gl_kind(gl_shift w) {
    return w.k == 0 ? GL_ONE : w.k <= 32 ? GL_LOW : w.k < 64 ? GL_MID : GL_HIGH;
}

/* x 2^k mod p in [0, p), x in [0, p), k < 96 of the given kind (a constant where the
 * caller is specialised), sl = k mod 64 and sr = 64 - sl in every lane.
 * k < 64: x 2^k = hi 2^64 + lo with hi = x >> (64 - k), lo = x << k, reduced (hi <
 * 2^32 for k <= 32: the cheaper vec_u64_goldilocks_reduce96).
 * k >= 64, j = k - 64: x 2^j = h 2^64 + l (h < 2^31), and x 2^k = h 2^128 + l 2^64
 * = l 2^64 - h 2^32 (2^128 = 2^96 2^32 = -2^32) = l 2^64 + (p - h 2^32), where
 * p - h 2^32 lies in (0, p]: the reduction of hi = l, lo = p - (h << 32). */
NTT_INLINE vec_t gl_times(vec_t x, int kind, vec_t sl, vec_t sr, const vec_u64_mod *m) {
    if (kind == GL_ONE)
        return x;
    vec_t hi = vec_srlv_u64(x, sr), lo = vec_sllv_u64(x, sl);
    if (kind == GL_LOW)
        return vec_u64_goldilocks_reduce96(hi, lo, m);
    if (kind == GL_MID)
        return vec_u64_goldilocks_reduce(hi, lo, m);
    return vec_u64_goldilocks_reduce(lo, vec_sub_u64(m->p, vec_shl32_u64(hi)), m);
}

/* (a + b) mod p and (a - b) mod p for a, b in [0, p): the forms for p >= 2^63 (small =
 * 0, a literal: the group code takes m by pointer, so vec_u64_add would read m->small
 * in every iteration). */
NTT_INLINE vec_t gl_add(vec_t a, vec_t b, const vec_u64_mod *m) {
    return vec_add_mod_u64(a, b, m->p, 0);
}

NTT_INLINE vec_t gl_sub(vec_t a, vec_t b, const vec_u64_mod *m) {
    return vec_sub_mod_u64(a, b, m->p, 0);
}

/* DIF (u, v) -> (u + v, (u - v) w) and DIT (u, v) -> (u + v w, u - v w) with w = +-2^k
 * of the given kind and sign: the sign swaps the difference's operands (DIF) or the
 * outputs (DIT). */
NTT_INLINE void gl_butterfly_kind(int forward, int kind, int negative, vec_t *u, vec_t *v,
                                  vec_t sl, vec_t sr, const vec_u64_mod *m) {
    if (forward) {
        vec_t d = negative ? gl_sub(*v, *u, m) : gl_sub(*u, *v, m);
        *u = gl_add(*u, *v, m);
        *v = gl_times(d, kind, sl, sr, m);
    } else {
        vec_t t = gl_times(*v, kind, sl, sr, m);
        vec_t s = gl_add(*u, t, m), d = gl_sub(*u, t, m);
        *u = negative ? d : s;
        *v = negative ? s : d;
    }
}

/* The shift counts of w for gl_times. */
NTT_INLINE void gl_counts(gl_shift w, vec_t *sl, vec_t *sr) {
    *sl = vec_set1_u64(w.k % 64);
    *sr = vec_set1_u64(64 - w.k % 64);
}

/* CALL(kind, negative) with the constants of w: one specialised copy per case, so that
 * the code inside branches on nothing. */
#define GL_BY_KIND(w, CALL)                                  \
    switch (2 * gl_kind(w) + (w).negative) {                 \
    case 2 * GL_ONE: CALL(GL_ONE, 0); break;                 \
    case 2 * GL_ONE + 1: CALL(GL_ONE, 1); break;             \
    case 2 * GL_LOW: CALL(GL_LOW, 0); break;                 \
    case 2 * GL_LOW + 1: CALL(GL_LOW, 1); break;             \
    case 2 * GL_MID: CALL(GL_MID, 0); break;                 \
    case 2 * GL_MID + 1: CALL(GL_MID, 1); break;             \
    case 2 * GL_HIGH: CALL(GL_HIGH, 0); break;               \
    default: CALL(GL_HIGH, 1); break;                        \
    }

/* The shifts of the column twiddles: codes[h + j] for r_{2h}^j, h = 1, 2, .., M / 2
 * (j < h), from r_M = 2^e_M: r_{2h} = r_M^(M / 2h). */
#define GL_CODES 64
NTT_INLINE void gl_column_codes(gl_shift *codes, unsigned e_m, size_t m_roots) {
    for (size_t h = 1; 2 * h <= m_roots; h *= 2)
        for (size_t j = 0; j < h; j++)
            codes[h + j] = gl_shift_of((unsigned)((e_m * (m_roots / (2 * h)) * j) % 192));
}

/* The D factors of a row pair at offset i: v times d1, and u times d0 where scaled = 2
 * (row 0 of a block has none). */
NTT_INLINE void gl_scale_pair(int scaled, vec_t *u, vec_t *v, const uint64_t *d0,
                              const uint64_t *d1, size_t i, const vec_u64_mod *m) {
    if (scaled == 2)
        *u = vec_u64_goldilocks(*u, vec_load(d0 + i), m);
    *v = vec_u64_goldilocks(*v, vec_load(d1 + i), m);
}

/* The butterflies of one pair of rows, x0[c stride + i] and x1[c stride + i] (c <
 * count, i < L), the twiddle's case, sign and shifts constant.  scaled: the D factors
 * of the rows, d1 (scaled >= 1) and d0 (scaled = 2; row 0 of a block has none), after
 * the butterfly (DIF) or before it (DIT). */
NTT_INLINE void gl_row_pair(int forward, int kind, int negative, int scaled, uint64_t *x0,
                            uint64_t *x1, const uint64_t *d0, const uint64_t *d1,
                            size_t count, size_t stride, size_t L, vec_t sl, vec_t sr,
                            const vec_u64_mod *m) {
    for (size_t c = 0; c < count; c++) {
        uint64_t *y0 = x0 + c * stride, *y1 = x1 + c * stride;
        for (size_t i = 0; i < L; i += VEC_U64_LANES) {
            vec_t u = vec_load(y0 + i), v = vec_load(y1 + i);
            if (!forward && scaled)
                gl_scale_pair(scaled, &u, &v, d0, d1, i, m);
            gl_butterfly_kind(forward, kind, negative, &u, &v, sl, sr, m);
            if (forward && scaled)
                gl_scale_pair(scaled, &u, &v, d0, d1, i, m);
            vec_store(y0 + i, u);
            vec_store(y1 + i, v);
        }
    }
}

/* The column stage hp of `count` blocks of `rows` rows of L values (block c at a + c
 * stride): rows r and r + hp for every r with r & hp = 0, the twiddle codes[hp + j]
 * (j = r mod hp), a loop of its own for each case and sign so that the butterflies
 * branch on nothing.  d != NULL (hp = 1, its twiddle 1): the rows times D as well
 * (row r times d[r L ..], row 0 of a block all ones). */
NTT_INLINE void gl_column_stage(int forward, uint64_t *a, size_t count, size_t stride,
                                size_t rows, size_t L, size_t hp, const uint64_t *d,
                                const gl_shift *codes, const vec_u64_mod *m) {
    for (size_t b = 0; b < rows; b += 2 * hp) {
        for (size_t j = 0; j < hp; j++) {
            size_t r = b + j;
            uint64_t *x0 = a + r * L, *x1 = a + (r + hp) * L;
            if (d != NULL) {
                if (r == 0)
                    gl_row_pair(forward, GL_ONE, 0, 1, x0, x1, NULL, d + L, count, stride, L,
                                m->p, m->p, m);
                else
                    gl_row_pair(forward, GL_ONE, 0, 2, x0, x1, d + r * L, d + (r + 1) * L,
                                count, stride, L, m->p, m->p, m);
                continue;
            }
            gl_shift w = codes[hp + j];
            vec_t sl, sr;
            gl_counts(w, &sl, &sr);
#define GL_ROWS(kind, negative) \
    gl_row_pair(forward, kind, negative, 0, x0, x1, NULL, NULL, count, stride, L, sl, sr, m)
            GL_BY_KIND(w, GL_ROWS)
#undef GL_ROWS
        }
    }
}

/* The column stages of the group at the top of `count` blocks of B values at a
 * (B >= GL_GROUP_MIN) and D_B, DIF or DIT (see the top of this file). */
NTT_INLINE void gl_group(int forward, uint64_t *a, size_t count, size_t B,
                         const uint64_t *groups, const gl_shift *codes, const vec_u64_mod *m) {
    size_t L = gl_group_row(B), rows = B / L, hp;
    const uint64_t *d = groups + B;
    if (forward)
        for (hp = rows / 2; hp >= 1; hp /= 2)
            gl_column_stage(1, a, count, B, rows, L, hp, hp == 1 ? d : NULL, codes, m);
    else
        for (hp = 1; hp < rows; hp *= 2)
            gl_column_stage(0, a, count, B, rows, L, hp, hp == 1 ? d : NULL, codes, m);
}

/* One butterfly of gl_eight_stages, its twiddle 2^e (e < 192) a constant. */
NTT_INLINE void gl_butterfly_by(int forward, vec_t *u, vec_t *v, unsigned e,
                                const vec_u64_mod *m) {
    gl_shift w = gl_shift_of(e);
    vec_t sl, sr;
    gl_counts(w, &sl, &sr);
    gl_butterfly_kind(forward, gl_kind(w), w.negative, u, v, sl, sr, m);
}

/* The three stages h = 4, 2, 1 of 8-value blocks with the blocks transposed into
 * the vectors (x[j] = value j of VEC_U64_LANES blocks): every butterfly pairs two
 * vectors with one twiddle, an 8th root of unity r_8^j, r_8 = 2^e8 (e8 = 24, 72, 120
 * or 168, a constant: r_4 = r_8^2, r_2 = -1), a shift. */
NTT_INLINE void gl_eight_stages(int forward, vec_t x[8], unsigned e8, const vec_u64_mod *m) {
    if (forward) {
        for (unsigned j = 0; j < 4; j++)
            gl_butterfly_by(1, &x[j], &x[j + 4], e8 * j % 192, m);
        for (int j = 0; j < 8; j += 4)
            for (unsigned i = 0; i < 2; i++)
                gl_butterfly_by(1, &x[j + i], &x[j + i + 2], 2 * e8 * i % 192, m);
        for (int j = 0; j < 8; j += 2)
            gl_butterfly_by(1, &x[j], &x[j + 1], 0, m);
    } else {
        for (int j = 0; j < 8; j += 2)
            gl_butterfly_by(0, &x[j], &x[j + 1], 0, m);
        for (int j = 0; j < 8; j += 4)
            for (unsigned i = 0; i < 2; i++)
                gl_butterfly_by(0, &x[j + i], &x[j + i + 2], 2 * e8 * i % 192, m);
        for (unsigned j = 0; j < 4; j++)
            gl_butterfly_by(0, &x[j], &x[j + 4], e8 * j % 192, m);
    }
}

#if defined(NTT_CY_AVX512)
/* The middle round's gathers: 2 x 2 blocks of two rows interleaved. */
static const int64_t gl_pairs[2][8] __attribute__((aligned(64))) = {
    {0, 1, 8, 9, 4, 5, 12, 13}, {2, 3, 10, 11, 6, 7, 14, 15}};

/* The 8 x 8 transpose of x (row i = x[i]) in place, its own inverse: the off-diagonal
 * 4 x 4, 2 x 2 and 1 x 1 blocks swapped in turn. */
NTT_INLINE void gl_transpose(vec_t x[8]) {
    const __m512i lo2 = _mm512_load_si512(gl_pairs[0]);
    const __m512i hi2 = _mm512_load_si512(gl_pairs[1]);
    for (int i = 0; i < 4; i++) {
        vec_t a = x[i], b = x[i + 4];
        x[i] = _mm512_shuffle_i64x2(a, b, 0x44);
        x[i + 4] = _mm512_shuffle_i64x2(a, b, 0xEE);
    }
    for (int i = 0; i < 8; i += 4)
        for (int k = 0; k < 2; k++) {
            vec_t a = x[i + k], b = x[i + k + 2];
            x[i + k] = _mm512_permutex2var_epi64(a, lo2, b);
            x[i + k + 2] = _mm512_permutex2var_epi64(a, hi2, b);
        }
    for (int i = 0; i < 8; i += 2) {
        vec_t a = x[i], b = x[i + 1];
        x[i] = _mm512_unpacklo_epi64(a, b);
        x[i + 1] = _mm512_unpackhi_epi64(a, b);
    }
}

/* Eight 8-value blocks at a into x, transposed, and back. */
NTT_INLINE void gl_load_blocks(const uint64_t *a, vec_t x[8]) {
    for (int i = 0; i < 8; i++)
        x[i] = vec_load(a + 8 * i);
    gl_transpose(x);
}

NTT_INLINE void gl_store_blocks(uint64_t *a, vec_t x[8]) {
    gl_transpose(x);
    for (int i = 0; i < 8; i++)
        vec_store(a + 8 * i, x[i]);
}
#else
/* The 4 x 4 transpose of (r0, r1, r2, r3) (row i = r_i), its own inverse. */
NTT_INLINE void gl_transpose4(vec_t *r0, vec_t *r1, vec_t *r2, vec_t *r3) {
    __m256i t0 = _mm256_unpacklo_epi64(*r0, *r1), t1 = _mm256_unpackhi_epi64(*r0, *r1);
    __m256i t2 = _mm256_unpacklo_epi64(*r2, *r3), t3 = _mm256_unpackhi_epi64(*r2, *r3);
    *r0 = _mm256_permute2x128_si256(t0, t2, 0x20);
    *r1 = _mm256_permute2x128_si256(t1, t3, 0x20);
    *r2 = _mm256_permute2x128_si256(t0, t2, 0x31);
    *r3 = _mm256_permute2x128_si256(t1, t3, 0x31);
}

/* Four 8-value blocks at a into x (x[j] = value j of each), and back. */
NTT_INLINE void gl_load_blocks(const uint64_t *a, vec_t x[8]) {
    for (int i = 0; i < 4; i++) {
        x[i] = vec_load(a + 8 * i);
        x[i + 4] = vec_load(a + 8 * i + 4);
    }
    gl_transpose4(&x[0], &x[1], &x[2], &x[3]);
    gl_transpose4(&x[4], &x[5], &x[6], &x[7]);
}

NTT_INLINE void gl_store_blocks(uint64_t *a, vec_t x[8]) {
    gl_transpose4(&x[0], &x[1], &x[2], &x[3]);
    gl_transpose4(&x[4], &x[5], &x[6], &x[7]);
    for (int i = 0; i < 4; i++) {
        vec_store(a + 8 * i, x[i]);
        vec_store(a + 8 * i + 4, x[i + 4]);
    }
}
#endif

/* The bit-reversed end of a block (stages h = 4, 2, 1 of a[0:B]): 8 VEC_U64_LANES
 * values at a time through gl_eight_stages, one copy for each 8th root r_8 = codes[5];
 * a B below that (16 or 32 on AVX-512) by the ISA's small stages with the generic
 * twiddles tw[1 .. 7]. */
NTT_INLINE void gl_low_run(int forward, uint64_t *a, size_t B, unsigned e8,
                           const vec_u64_mod *m) {
    for (size_t i = 0; i < B; i += 8 * VEC_U64_LANES) {
        vec_t x[8];
        gl_load_blocks(a + i, x);
        gl_eight_stages(forward, x, e8, m);
        gl_store_blocks(a + i, x);
    }
}

NTT_INLINE void gl_low_stages(int forward, uint64_t *a, size_t B, const uint64_t *tw,
                              const gl_shift *codes, const ntt64_params *prm,
                              const vec_u64_mod *m) {
    if (B % (8 * VEC_U64_LANES)) {
        VEC_ISA(u64_small_stages)(forward, a, B, tw, tw, prm, NTT_GOLDILOCKS);
        return;
    }
    switch (codes[5].k + 96 * (unsigned)codes[5].negative) {
    case 24: gl_low_run(forward, a, B, 24, m); break;
    case 72: gl_low_run(forward, a, B, 72, m); break;
    case 120: gl_low_run(forward, a, B, 120, m); break;
    default: gl_low_run(forward, a, B, 168, m); break;
    }
}

/* Values per batch of row blocks that go through a group's passes together (the
 * twiddle branches of a pass then repeat over the batch): 32 KiB, an L1. */
#define GL_BATCH 4096

/* Row blocks of L values per batch, out of `blocks` (powers of two). */
NTT_INLINE size_t gl_batch(size_t blocks, size_t L) {
    size_t batch = L < GL_BATCH ? GL_BATCH / L : 1;
    return batch < blocks ? batch : blocks;
}

/* Every DIF stage of `count` blocks of B values at a (B >= GL_GROUP_MIN): their top
 * group, then the row blocks through their own stages, a batch of them at a time
 * (depth first, so that a batch stays in cache). */
static void gl_dif_blocks(uint64_t *a, size_t count, size_t B, const uint64_t *tw,
                          const uint64_t *groups, const gl_shift *codes,
                          const ntt64_params *prm, const vec_u64_mod *m) {
    size_t L = gl_group_row(B), batch = gl_batch(count * B / L, L);
    gl_group(1, a, count, B, groups, codes, m);
    if (L == GL_LOW_ROW) {
        gl_low_stages(1, a, count * B, tw, codes, prm, m);
        return;
    }
    for (size_t s = 0; s < count * B; s += batch * L)
        gl_dif_blocks(a + s, batch, L, tw, groups, codes, prm, m);
}

/* The DIT counterpart: the row blocks first, then the top group. */
static void gl_dit_blocks(uint64_t *a, size_t count, size_t B, const uint64_t *tw,
                          const uint64_t *groups, const gl_shift *codes,
                          const ntt64_params *prm, const vec_u64_mod *m) {
    size_t L = gl_group_row(B), batch = gl_batch(count * B / L, L);
    if (L == GL_LOW_ROW) {
        gl_low_stages(0, a, count * B, tw, codes, prm, m);
    } else {
        for (size_t s = 0; s < count * B; s += batch * L)
            gl_dit_blocks(a + s, batch, L, tw, groups, codes, prm, m);
    }
    gl_group(0, a, count, B, groups, codes, m);
}

/* e with 2^e = x mod p (e < 192), or -1 where x is no power of 2. */
NTT_INLINE int gl_log2(uint64_t x) {
    uint64_t y = 1;
    for (int e = 0; e < 192; e++) {
        if (y == x)
            return e;
        /* y 2 mod p for y < p: 2y - p when 2y >= p (or carries past 2^64) */
        uint64_t d = y << 1;
        y = (y >> 63) || d >= NTT_GOLDILOCKS_P ? d - NTT_GOLDILOCKS_P : d;
    }
    return -1;
}

/* All stages h = half .. 1 of a[0:size] in blocks of 2 half (DIF forward, DIT
 * inverse) with the stage twiddles tw and the group tables `groups` of the same
 * direction; 1 when done, 0 where not taken (another family, no tables, a block
 * outside [GL_GROUP_MIN, groups[0]]). */
NTT_INLINE int gl_stages(int forward, uint64_t *a, size_t size, size_t half,
                         const uint64_t *tw, const uint64_t *groups,
                         const ntt64_params *prm) {
    size_t B = 2 * half, m_roots = B < 64 ? B : 64;
    if (prm->family != NTT_GOLDILOCKS || groups == NULL || B < GL_GROUP_MIN || B > groups[0])
        return 0;
    int e_m = gl_log2(tw[m_roots / 2 + 1]);   /* r_M, M = m_roots */
    if (e_m < 0)
        return 0;
    vec_u64_mod m = vec_u64_modulus(prm, NTT_GOLDILOCKS);
    gl_shift codes[GL_CODES];
    gl_column_codes(codes, (unsigned)e_m, m_roots);
    if (forward)
        gl_dif_blocks(a, size / B, B, tw, groups, codes, prm, &m);
    else
        gl_dit_blocks(a, size / B, B, tw, groups, codes, prm, &m);
    return 1;
}
#endif
