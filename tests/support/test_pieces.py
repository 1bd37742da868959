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


def test_pieces_keep_their_rows_temporaries_within_the_scratch_buffers():
    limit = pieces.SCRATCH_LIMIT_BYTES
    per_row = limit // 40   # 40 rows fit
    # little work but temporaries beyond the limit: pieces of 40 rows (a multiple of
    # the 64-byte granule of 4-byte rows: 32), then of 2 threads
    assert piece_rows(1000, 1.0, 1, row_bytes=64, row_scratch=per_row) == 40
    assert piece_rows(1000, 1.0, 1, row_bytes=4, row_scratch=per_row) == 32
    assert piece_rows(1000, 1.0, 2, row_bytes=64, row_scratch=per_row) == 40
    # within the limit: one piece; beyond it even for one row: one row a piece
    assert piece_rows(40, 1.0, 1, row_bytes=64, row_scratch=per_row) == 40
    assert piece_rows(10, 1.0, 1, row_bytes=64, row_scratch=2 * limit) == 1
    # the work still bounds a piece where it is the smaller
    assert piece_rows(10_000, PIECE_NS / 10, 1, row_bytes=64, row_scratch=per_row) == 10


@pytest.mark.parametrize("m, dtype, n, rows", [(998244353, np.uint32, 8192, 128),
                                               (10**9 + 7, np.uint32, 4096, 64)])
def test_long_product_batches_run_in_pieces_their_scratch_buffers_hold(m, dtype, n, rows):
    # rows x transform rows beyond the scratch limit would be fresh temporaries each
    # call (page faults: about half the speed of a row)
    from ntt_cy._products import _piece_rows, scratch_row_bytes
    from ntt_cy._routing import product_route
    a = np.zeros((rows, n), dtype)
    route = product_route(rows, n, n, m, "linear")
    per_row = scratch_row_bytes(route, m)
    assert rows * per_row > pieces.SCRATCH_LIMIT_BYTES
    step = _piece_rows(route, rows, a, a, m, 1)
    assert step < rows and step * per_row <= pieces.SCRATCH_LIMIT_BYTES


@pytest.fixture
def small_scratch(monkeypatch):
    """Scratch-sized pieces of 64 KiB of temporaries: the batches below run as several
    pieces for that reason alone."""
    monkeypatch.setattr(pieces, "SCRATCH_LIMIT_BYTES", 1 << 16)
    monkeypatch.setattr("ntt_cy._products.PIECES_FROM", 0)


@pytest.mark.parametrize("m, kind, na, nb", [
    (998244353, "linear", 300, 200),        # direct: the first L columns copied out
    (998244353, "cyclic", 512, 512),        # direct: the transform rows are the result
    (998244353, "negacyclic", 512, 512),
    (10**9 + 7, "linear", 300, 257),        # CRT, reconstructed straight into the result
    (10**9 + 7, "negacyclic", 256, 256),
    (2**61 - 1, "linear", 100, 70),         # CRT on uint64 residues: pieces copied
    (12289, "linear", 1000, 3),             # (a route without scratch rows)
])
def test_products_in_scratch_sized_pieces_equal_each_rows_product(m, kind, na, nb,
                                                                  small_scratch,
                                                                  monkeypatch):
    from ntt_cy import _products
    from ntt_cy._routing import product_route
    rng = np.random.default_rng(7)
    rows = 37
    dtype = np.uint32 if m < 2**32 else np.uint64
    a = rng.integers(0, m, (rows, na), dtype=np.uint64).astype(dtype)
    b = rng.integers(0, m, (rows, nb), dtype=np.uint64).astype(dtype)
    a[-1, :] = m - 1   # the largest values, in the last piece
    b[-1, :] = m - 1
    originals = a.copy(), b.copy()
    calls = []
    run_rows = _products._run_rows

    def counted(*args):
        calls.append(args[1].shape[0])
        return run_rows(*args)

    monkeypatch.setattr(_products, "_run_rows", counted)
    got = ntt_cy.polymul(a, b, m, kind=kind, workers=1)
    # (the route is the build's choice: a transform route keeps scratch rows, in pieces)
    route = product_route(rows, na, nb, m, kind)
    if rows * _products.scratch_row_bytes(route, m) > pieces.SCRATCH_LIMIT_BYTES:
        assert len(calls) > 1 and sum(calls) == rows
    if m == 998244353:
        assert route.path == "direct" and len(calls) > 1
    for row in range(rows):
        assert np.array_equal(got[row], ntt_cy.polymul(a[row], b[row], m, kind=kind))
    # the pieces written into a caller's out (numpy's alignment, then 64 bytes)
    from ntt_cy._support.aligned import aligned_empty
    for out in (np.empty_like(got), aligned_empty(got.shape, got.dtype)):
        assert ntt_cy.polymul(a, b, m, kind=kind, workers=1, out=out) is out
        assert np.array_equal(out, got)
    assert np.array_equal(a, originals[0]) and np.array_equal(b, originals[1])


def test_a_value_outside_the_modulus_in_a_later_piece_is_reduced(small_scratch):
    # int64 rows go to the kernels unchecked; the last piece finds the values >= m and
    # negative ones, and the whole call runs again on residues
    rng = np.random.default_rng(8)
    m = 998244353
    a = rng.integers(0, m, (40, 300), dtype=np.int64)
    b = rng.integers(0, m, (40, 200), dtype=np.int64)
    a[-1, 5], b[-1, 7] = 3 * m + 2, -5
    original = a.copy(), b.copy()
    got = ntt_cy.polymul(a, b, m, workers=1)
    want = ntt_cy.polymul(a % m, b % m, m, workers=1)
    assert np.array_equal(got, want)
    assert np.array_equal(a, original[0]) and np.array_equal(b, original[1])
