"""Calls from many Python threads at once: the module-level caches (prepared single-row
products, plans, routes) stay consistent while other threads fill and evict them."""
import random
import sys
import threading
import time

import numpy as np

import ntt_cy

# How long the threads run: on an unsafe eviction this many seconds gave several
# RuntimeErrors ("dictionary changed size during iteration") on a 2-core machine.
BUDGET_S = 4.0
THREADS = 8


def run_threads(run):
    """run(seed) in THREADS threads at once, switching every microsecond (so that
    threads interleave between any two bytecodes)."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=run, args=(seed,)) for seed in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(previous)


def test_concurrent_single_row_products_fill_and_evict_the_cache():
    # Random lengths up to 200 make ~40,000 keys for 128 prepared products: nearly every
    # call prepares one and evicts another, while the 1 us switch interval lets threads
    # interleave between any two bytecodes.
    errors, wrong, calls = [], [], [0]
    stop = time.perf_counter() + BUDGET_S

    def run(seed):
        rng = random.Random(seed)
        while time.perf_counter() < stop and not errors:
            na, nb = rng.randint(1, 200), rng.randint(1, 200)
            try:
                c = ntt_cy.polymul(np.ones(na, np.uint64), np.ones(nb, np.uint64), 998244353)
            except Exception as exc:   # noqa: BLE001 - any exception is the failure
                errors.append(repr(exc))
                return
            # (1 + x + ... )(1 + x + ...): the coefficients rise by one, plateau, fall
            expected = np.minimum(np.minimum(np.arange(1, na + nb), min(na, nb)),
                                  np.arange(na + nb - 1, 0, -1))
            if not np.array_equal(c, expected):
                wrong.append((na, nb))
            calls[0] += 1

    run_threads(run)
    assert not errors, f"{len(errors)} error(s) in {calls[0]} calls, first: {errors[0]}"
    assert not wrong, f"wrong products for lengths {wrong[:5]}"
    assert calls[0] > 1000   # the threads did run


def test_concurrent_one_row_transforms_fill_and_evict_the_tables_cache():
    # 5 primes x 10 lengths x 2 kinds = 100 keys for 64 kept one-row tables
    # (ntt_cy.plan.row_tables_by_key): calls find, add and evict entries at once.
    primes = (998244353, 469762049, 167772161, 754974721, 7340033)
    errors, wrong, calls = [], [], [0]
    stop = time.perf_counter() + BUDGET_S

    def run(seed):
        rng = random.Random(seed)
        while time.perf_counter() < stop and not errors:
            p, n = rng.choice(primes), 1 << rng.randint(0, 9)
            kind = rng.choice(("cyclic", "negacyclic"))
            a = np.arange(n, dtype=np.uint32)
            try:
                spectrum = ntt_cy.ntt(a, p, kind=kind)
                back = ntt_cy.intt(spectrum, p, kind=kind)
            except Exception as exc:   # noqa: BLE001 - any exception is the failure
                errors.append(repr(exc))
                return
            # sum_i a[i] is the cyclic transform's first value
            if not np.array_equal(back, a) or kind == "cyclic" and spectrum[0] != n * (n - 1) // 2 % p:
                wrong.append((p, n, kind))
            calls[0] += 1

    run_threads(run)
    assert not errors, f"{len(errors)} error(s) in {calls[0]} calls, first: {errors[0]}"
    assert not wrong, f"wrong transforms for {wrong[:5]}"
    assert calls[0] > 1000   # the threads did run
