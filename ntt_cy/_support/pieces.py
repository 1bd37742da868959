"""Long batched calls in pieces, so that Ctrl-C (any signal handler) is answered soon.

A kernel call runs without the GIL and does not return before its work is done; Python
runs signal handlers (SIGINT's raises KeyboardInterrupt) only between bytecodes.  So a
call whose estimated work exceeds two pieces of PIECE_NS runs its rows as several kernel
calls of about PIECE_NS each: between two of them the handler runs, and an interrupt
arrives within about one piece.  A single row (one transform, one product) is one
kernel call whatever its length: pieces split batches only.

Pieces also bound a batch's temporaries: a caller whose rows need `row_scratch` bytes of
scratch buffers each (ntt_cy/_support/scratch.py) takes pieces whose temporaries fit
them, so that a long batch reuses one set of warm buffers instead of faulting in fresh
ones on every call (a 128-row batch of linear products of 8192 coefficients ran about
half as fast a row as a 32-row one before).
"""
from __future__ import annotations

import math
from collections.abc import Iterator

from ntt_cy._support.scratch import LIMIT_BYTES as SCRATCH_LIMIT_BYTES

__all__ = ["PIECE_NS", "ELEMENTS_PER_PIECE", "piece_rows", "piece_starts"]

# Estimated work (ns, on the call's threads) of one piece: with the estimate's error
# (a factor of ~2 either way) an interrupt is answered within ~100 ms.
PIECE_NS = 25_000_000
# Element-wise work (mul_mod) per piece: 2^22 products, 4-20 ms on one thread.
ELEMENTS_PER_PIECE = 1 << 22


def piece_rows(rows: int, row_ns: float, threads: int, row_bytes: int = 64,
               row_scratch: int = 0) -> int:
    """How many rows each piece of a call over `rows` rows takes, each row `row_ns` of
    estimated work, on `threads` threads: `rows` (one piece) when the whole call is
    within two pieces, else rows worth about PIECE_NS, at least `threads` of them (every
    thread busy), and a whole number of 64-byte lines (row_bytes: the bytes of a row;
    pieces of rows stay as aligned as the first).  row_scratch: the bytes of scratch
    buffer one row's temporaries take in the largest of them; pieces then also keep
    to SCRATCH_LIMIT_BYTES of it (the same lower bound of rows)."""
    step = rows
    granule = math.lcm(threads, 64 // math.gcd(64, row_bytes))
    if rows * row_ns > 2 * PIECE_NS * threads:
        step = int(PIECE_NS * threads / row_ns) // granule * granule
    if row_scratch and rows * row_scratch > SCRATCH_LIMIT_BYTES:
        step = min(step, SCRATCH_LIMIT_BYTES // row_scratch // granule * granule)
    return min(rows, max(step, granule))


def piece_starts(rows: int, step: int) -> Iterator[tuple[int, int]]:
    """(start, stop) of each piece of `step` rows."""
    return ((start, min(start + step, rows)) for start in range(0, rows, step))
