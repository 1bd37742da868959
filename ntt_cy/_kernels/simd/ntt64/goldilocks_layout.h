/* The layout of the GOLDILOCKS radix-64 group tables, in every build: the kernel
 * (simd/ntt64/goldilocks.h, vector builds) reads them and NTTPlan builds them
 * (goldilocks_groups in ntt/tables.pxi), both from these definitions.  Blocks of B
 * values from GL_GROUP_MIN on; the group at the top of a block has rows of
 * gl_group_row(B) values; the lowest group's rows are GL_LOW_ROW values long. */
#ifndef NTT_CY_SIMD_NTT64_GOLDILOCKS_LAYOUT_H
#define NTT_CY_SIMD_NTT64_GOLDILOCKS_LAYOUT_H
#include <stddef.h>

/* The smallest block with a column group, and the row length of the lowest group. */
#define GL_GROUP_MIN 16
#define GL_LOW_ROW 8

/* The row length of the group at the top of a block of B values: L = 8 64^g with
 * L < B <= 64 L. */
static inline size_t gl_group_row(size_t B) {
    size_t L = GL_LOW_ROW;
    while (64 * L < B)
        L *= 64;
    return L;
}
#endif
