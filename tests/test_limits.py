"""Limits: calls whose estimated peak memory exceeds what the process may use raise
MemoryError at once, naming the bytes, before they allocate; plans refuse lengths the
kernels cannot index."""
import time

import numpy as np
import pytest

import ntt_cy
from ntt_cy._support import memory
from ntt_cy.primes import ntt_primes

GOLDILOCKS = 2**64 - 2**32 + 1


@pytest.fixture
def limit():
    """set_memory_limit for one test, restored after it."""
    yield ntt_cy.set_memory_limit
    ntt_cy.set_memory_limit(None)


def test_the_limit_defaults_to_the_available_memory(limit):
    available = memory.available_memory()
    with open("/proc/meminfo") as f:
        total = int(next(line for line in f if line.startswith("MemTotal:")).split()[1]) * 1024
    assert 0 < available <= total
    assert ntt_cy.get_memory_limit() > 0
    limit(12345)
    assert ntt_cy.get_memory_limit() == 12345
    limit(None)
    assert ntt_cy.get_memory_limit() != 12345
    for bad, exc in ((-1, ValueError), (1.5, TypeError), ("1G", TypeError)):
        with pytest.raises(exc):
            limit(bad)


def test_a_transform_beyond_the_limit_raises_before_allocating(limit):
    a = np.zeros((64, 1 << 12), np.uint32)   # 1 MiB: its result alone exceeds the limit
    limit(1 << 19)
    with pytest.raises(MemoryError, match=r"a transform of shape \(64, 4096\) on uint32 lanes "
                                          r"needs about [\d.]+ MiB \(\d+ bytes\), more than the "
                                          r"limit set by ntt_cy.set_memory_limit"):
        ntt_cy.ntt(a, 998244353)
    with pytest.raises(MemoryError, match="set_memory_limit"):
        ntt_cy.intt(a, 998244353, axis=0)
    assert ntt_cy.ntt(a[:2, :16], 998244353).shape == (2, 16)   # small calls still run
    limit(None)
    assert ntt_cy.ntt(a, 998244353).shape == a.shape


def test_one_row_of_the_compiled_route_beyond_the_limit_raises_as_well(limit):
    # a row of 2^15 values (a transform, or a product's) would be one compiled call; under
    # a set limit it takes the general route, which estimates its memory first
    p, n = 998244353, 1 << 15
    plan = ntt_cy.NTTPlan(n, p)
    a = np.arange(n, dtype=np.uint32)
    expect = plan.forward(a)   # (the tables built)
    limit(1 << 10)
    for call in (lambda: plan.forward(a), lambda: plan.inverse(a, bit_reversed=True),
                 lambda: ntt_cy.ntt(a, p), lambda: ntt_cy.intt(a, p, workers=1),
                 lambda: ntt_cy.polymul(a, a, p, kind="cyclic"),
                 lambda: ntt_cy.polymul(a[:n // 2], a[:n // 2], 10**9 + 7)):
        with pytest.raises(MemoryError, match="set_memory_limit"):
            call()
    limit(None)
    assert np.array_equal(plan.forward(a), expect)


def test_the_broadcast_transform_of_the_issue_raises_at_once(limit):
    # 2^31 ones as a stride-0 view: each temporary fits in 16 GiB, all of them do not
    x = np.broadcast_to(np.uint32(1), (1 << 31,))
    limit(8 << 30)
    start = time.perf_counter()
    with pytest.raises(MemoryError, match=r"\d+ bytes"):
        ntt_cy.ntt(x, GOLDILOCKS)
    assert time.perf_counter() - start < 5


def test_impossible_sizes_raise_with_the_machines_own_limit():
    # 2^40 values of uint64 (8 TiB and more): beyond any machine's available memory
    x = np.broadcast_to(np.uint64(1), (1 << 20, 1 << 20))
    start = time.perf_counter()
    with pytest.raises(MemoryError, match="more than the memory available"):
        ntt_cy.ntt(x, GOLDILOCKS)
    with pytest.raises(MemoryError, match="more than the memory available"):
        ntt_cy.polymul(x, x, 10**9 + 7)
    assert time.perf_counter() - start < 5


def test_plans_refuse_impossible_lengths_when_made(limit):
    p = ntt_primes(64, 34, 1)[0]
    with pytest.raises(ValueError, match=r"n = 17179869184 is beyond the longest .* \(2\*\*32"):
        ntt_cy.NTTPlan(2**34, p)
    limit(64 << 30)
    with pytest.raises(MemoryError, match=r"NTTPlan\(n=4294967296\) on uint64 lanes"):
        ntt_cy.NTTPlan(2**32, GOLDILOCKS)
    limit(1 << 20)
    with pytest.raises(MemoryError, match="twiddle tables"):
        ntt_cy.NTTPlan(1 << 16, 998244353)
    assert ntt_cy.NTTPlan(1 << 10, 998244353).n == 1 << 10


def test_table_estimates_cover_what_the_tables_take():
    for p, dtype, kind, reduction in ((998244353, None, "cyclic", "lazy"),
                                      (998244353, np.uint64, "negacyclic", "montgomery"),
                                      (1337006139375617, None, "negacyclic", "lazy"),
                                      (GOLDILOCKS, None, "cyclic", "barrett")):
        plan = ntt_cy.NTTPlan(1 << 16, p, dtype=dtype, kind=kind, reduction=reduction)
        built = _table_arrays_bytes(plan)
        estimate = plan.table_bytes(plan.reduction)
        # an upper bound, and not a wild one
        assert built <= estimate <= 4 * built, (p, kind, reduction, built, estimate)


def _table_arrays_bytes(plan):
    """What _build_tables allocates for the plan's family, measured by building it."""
    import tracemalloc

    tracemalloc.start()
    plan._build_tables(plan.reduction)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def test_polymul_beyond_the_limit(limit):
    a = np.ones((64, 1000), np.int64)
    limit(1 << 20)
    for m in (998244353, 10**9 + 7, 2**127 - 1):
        with pytest.raises(MemoryError, match=r"polymul of 64 row\(s\) of lengths 1000 and 1000"):
            ntt_cy.polymul(a, a, m)
    assert ntt_cy.polymul([1, 2], [3, 4], 7).tolist() == [3, 3, 1]
    limit(None)
    assert ntt_cy.polymul(a, a, 998244353).shape == (64, 1999)


def test_small_estimates_skip_the_system_reads(monkeypatch):
    def fail():
        raise AssertionError("available_memory read for a small call")

    monkeypatch.setattr(memory, "available_memory", fail)
    memory.check_memory(memory.CHECK_FROM_BYTES - 1, "a small call")
    ntt_cy.ntt(np.ones((4, 1 << 14), np.uint32), 998244353)
    with pytest.raises(AssertionError, match="small call"):
        memory.check_memory(memory.CHECK_FROM_BYTES, "a large call")
