"""How OpenMP threads wait at barriers, set before libgomp loads (it reads its
environment once, when the first ntt_cy kernel module pulls it in).

libgomp's default lets a thread that reaches a barrier first spin 300,000 times
(~5 ms here) before it sleeps.  When another process keeps a core busy, the partner
thread is often not running, and the spinning thread holds the other core through a
whole scheduler slice, at every barrier: on a 2-core machine with one busy process
beside it, two-thread transforms and products then take tens of times longer than one
thread (asv_bench/scripts/openmp_wait.py measures it).  SPIN_COUNT spins (~20 us)
cover the waits of balanced work on an idle machine and then yield the core.  An
explicit GOMP_SPINCOUNT or OMP_WAIT_POLICY is left alone, and the environment is
restored once the modules are loaded (child processes and libraries loaded later see
the caller's own).
"""
from __future__ import annotations

import contextlib
import os

SPIN_COUNT = "1000"
CALLER_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")

# The waiting libgomp was loaded with, in words (show_config's omp_wait_policy line).
described = "(not loaded yet)"


@contextlib.contextmanager
def short_spin_while_loading():
    global described
    own = [f"{key}={os.environ[key]}" for key in CALLER_SETTINGS if key in os.environ]
    if own:
        described = ", ".join(own) + " (from the environment)"
        yield
        return
    os.environ["GOMP_SPINCOUNT"] = SPIN_COUNT
    try:
        yield
    finally:
        del os.environ["GOMP_SPINCOUNT"]
    described = (f"GOMP_SPINCOUNT={SPIN_COUNT} (ntt_cy's default, libgomp's is 300000; "
                 f"effective unless libgomp was loaded before ntt_cy)")
