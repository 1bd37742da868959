/* Lane index tables of the in-register small stages (the AVX-512 bodies' vpermt2d /
 * vpermt2q gathers), written as formulas rather than spelled out.
 *
 * A segment of 2L values sits in two registers of L lanes (lo: values 0..L-1, hi:
 * L..2L-1).  For the stage of half-length h, register x gathers the butterflies' first
 * inputs and y their second: lane l is block l / h, offset l % h, i.e. value
 * (l / h) 2h + l % h, and h further on for y.  Scattering back, value e = b 2h + o
 * (block b, offset o) sits in lane b h + o % h of x (o < h) or of y (o >= h: index + L,
 * vpermt2*'s second source).  The twiddle of lane l is the stage's entry l % h.
 */
#ifndef NTT_CY_SIMD_LANE_TABLES_H
#define NTT_CY_SIMD_LANE_TABLES_H

#define LANE_GATHER_X(L, h, l) (((l) / (h)) * 2 * (h) + (l) % (h))
#define LANE_GATHER_Y(L, h, l) (LANE_GATHER_X(L, h, l) + (h))
#define LANE_SCATTER(L, h, e) \
    (((e) % (2 * (h)) < (h) ? 0 : (L)) + ((e) / (2 * (h))) * (h) + (e) % (h))
#define LANE_TWIDDLE(L, h, l) ((l) % (h))

/* F(L, h, base + 0), ..., F(L, h, base + L - 1) for L = 8 or 16 */
#define LANES8(F, L, h, base)                                                           \
    F(L, h, (base) + 0), F(L, h, (base) + 1), F(L, h, (base) + 2), F(L, h, (base) + 3),     \
    F(L, h, (base) + 4), F(L, h, (base) + 5), F(L, h, (base) + 6), F(L, h, (base) + 7)
#define LANES16(F, L, h, base) LANES8(F, L, h, base), LANES8(F, L, h, (base) + 8)

/* One table row per stage: h = 8, 4, 2, 1 for 16 lanes, h = 4, 2, 1 for 8 lanes. */
#define LANE_ROWS16(F, base)                                                            \
    {LANES16(F, 16, 8, base)}, {LANES16(F, 16, 4, base)}, {LANES16(F, 16, 2, base)},      \
    {LANES16(F, 16, 1, base)}
#define LANE_ROWS8(F, base) \
    {LANES8(F, 8, 4, base)}, {LANES8(F, 8, 2, base)}, {LANES8(F, 8, 1, base)}

/* The initializer of a lane width's tables, in this order: gather_x, gather_y,
 * scatter_lo (values 0..L-1), scatter_hi (values L..2L-1), twiddle (one row per stage,
 * ROWS = LANE_ROWS16 or LANE_ROWS8). */
#define LANE_TABLES(ROWS, L)                                                            \
    {{ROWS(LANE_GATHER_X, 0)}, {ROWS(LANE_GATHER_Y, 0)}, {ROWS(LANE_SCATTER, 0)},         \
     {ROWS(LANE_SCATTER, L)}, {ROWS(LANE_TWIDDLE, 0)}}

#endif
