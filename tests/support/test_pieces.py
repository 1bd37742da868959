"""Long batched calls in pieces (ntt_cy/_support/pieces.py): the piece sizes, results
identical to one kernel call, and Ctrl-C answered during a long batch."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import ntt_cy
from ntt_cy._support import pieces
from ntt_cy._support.pieces import PIECE_NS, piece_rows, piece_starts


def test_a_call_within_two_pieces_is_one_piece():
    assert piece_rows(10, PIECE_NS / 5, 1) == 10
    assert piece_rows(1000, 1.0, 2) == 1000
    assert piece_rows(1, 100 * PIECE_NS, 1) == 1   # one row: one call, whatever its length


def test_pieces_hold_about_a_piece_of_work_in_whole_cache_lines_and_threads():
    step = piece_rows(10_000, PIECE_NS / 100, 1, row_bytes=64)
    assert step == 100
    # rows of 4 bytes: pieces of a multiple of 16 rows keep each piece 64-byte aligned
    step = piece_rows(10_000, PIECE_NS / 100, 1, row_bytes=4)
    assert step % 16 == 0 and 80 <= step <= 100
    # three threads: a multiple of 3 rows, three times the work of one thread's piece
    step = piece_rows(100_000, PIECE_NS / 100, 3, row_bytes=64)
    assert step % 3 == 0 and step == 300
    # rows dearer than a piece: still at least one row per thread
    assert piece_rows(100, 10 * PIECE_NS, 2, row_bytes=64) == 2


def test_piece_starts_cover_every_row_once():
    for rows, step in ((10, 3), (9, 3), (1, 5), (64, 64)):
        spans = list(piece_starts(rows, step))
        assert spans[0][0] == 0 and spans[-1][1] == rows
        assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
        assert all(0 < stop - start <= step for start, stop in spans)


@pytest.fixture
def tiny_pieces(monkeypatch):
    """Pieces of ~1 us of work: every batch below runs as many kernel calls."""
    monkeypatch.setattr(pieces, "PIECE_NS", 1000)
    monkeypatch.setattr(pieces, "ELEMENTS_PER_PIECE", 1 << 10)
    monkeypatch.setattr("ntt_cy.plan.PIECES_FROM", 0)
    monkeypatch.setattr("ntt_cy._products.PIECES_FROM", 0)


@pytest.mark.parametrize("p, dtype", [(998244353, np.uint32), (2**64 - 2**32 + 1, np.uint64)])
def test_batches_in_pieces_equal_one_call(p, dtype, tiny_pieces):
    rng = np.random.default_rng(5)
    a = rng.integers(0, min(p, 2**63), (37, 256), dtype=np.uint64).astype(dtype)
    original = a.copy()
    with pytest.MonkeyPatch.context() as whole:
        whole.setattr(pieces, "PIECE_NS", 10**15)
        expect = ntt_cy.ntt(a, p, workers=2)
        expect_inverse = ntt_cy.intt(expect, p, workers=2)
        expect_product = ntt_cy.polymul(a, a[::-1], p, workers=2)
        expect_mul = ntt_cy.mul_mod(a, a, p)
    assert np.array_equal(ntt_cy.ntt(a, p, workers=2), expect)
    assert np.array_equal(ntt_cy.intt(expect, p, workers=2), expect_inverse)
    assert np.array_equal(expect_inverse, a)
    assert np.array_equal(ntt_cy.polymul(a, a[::-1], p, workers=2), expect_product)
    assert np.array_equal(ntt_cy.mul_mod(a, a, p), expect_mul)
    out = np.empty_like(expect)
    ntt_cy.ntt(a, p, workers=1, out=out)
    assert np.array_equal(out, expect)
    assert np.array_equal(a, original)


def test_products_in_pieces_equal_one_call_for_a_crt_modulus(tiny_pieces):
    rng = np.random.default_rng(6)
    m = 2**61 - 1
    a = rng.integers(0, m, (19, 100), dtype=np.uint64)
    b = rng.integers(0, m, (19, 70), dtype=np.uint64)
    got = ntt_cy.polymul(a, b, m)
    for row in range(a.shape[0]):
        want = ntt_cy.polymul(a[row], b[row], m)
        assert np.array_equal(got[row], want)


def test_ctrl_c_interrupts_a_long_batch_soon():
    # A product batch of about 1-10 s on one thread, depending on the build and the CPU;
    # SIGINT after 0.5 s must end it within a second: without pieces the kernel call
    # would run to its end first.
    child = textwrap.dedent("""
        import signal, sys, time
        import numpy as np
        import ntt_cy
        # Python's own SIGINT handler even where SIGINT was ignored when Python started
        # (a shell's background job)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        m = 2**61 - 1
        a = np.arange(4096 * 4096, dtype=np.uint64).reshape(4096, 4096) % m
        ntt_cy.polymul(a[:2], a[:2], m, workers=1)   # plans and tables built
        print("ready", flush=True)
        start = time.perf_counter()
        try:
            ntt_cy.polymul(a, a, m, workers=1)
            print("finished", time.perf_counter() - start, flush=True)
        except KeyboardInterrupt:
            print("interrupted", time.perf_counter() - start, flush=True)
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True,
                            env=env)
    try:
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(0.5)
        proc.send_signal(signal.SIGINT)
        sent = time.perf_counter()
        line = proc.stdout.readline().split()
        answered = time.perf_counter() - sent
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert line[0] == "interrupted", f"the batch ran to its end ({line[1]} s)"
    assert answered < 1.0, f"Ctrl-C answered after {answered:.2f} s"
