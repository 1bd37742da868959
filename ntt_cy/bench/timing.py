"""How `ntt-cy bench` times one library's call: warm-up, loop size, samples, median.

A Sampler makes the untimed first call (its result is the one checked against ntt_cy's),
then a second call whenever the first may have carried one-time work, and sizes a loop so
one sample lasts about `target` seconds.  The first call is never a sample: plans, caches,
imports and a JIT compile happen there, and a library whose first call takes seconds
where the next take milliseconds would otherwise be reported at its cold time (with a
small budget, as --quick sets, that first call would be the only sample).  Samples are
taken one at a time (sample()), so the runner can interleave the libraries of a case.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import dataclass

__all__ = ["Timing", "Sampler", "measure", "WARM_UP_BELOW_S", "WARM_UP_S"]


@dataclass
class Timing:
    """Seconds per call: the median of the samples, each the mean of a loop of calls."""
    median_s: float
    samples_s: list
    calls_per_sample: int


# Calls faster than WARM_UP_BELOW_S get untimed calls before each sample, for at least
# WARM_UP_S (one call at least).  Samples of different libraries alternate (see
# runner.run), and a competitor's call evicts the caches and lets this library's
# threads go idle; the untimed calls put its data back in cache and its threads back to
# speed, so each library is timed as a loop of its own calls would run it.  Slower calls
# hardly notice a cold start.
WARM_UP_BELOW_S = 0.01
WARM_UP_S = 0.005


class Sampler:
    """The samples of one call `fn` (see the module docstring).

    The first call is untimed work; a second call is timed when the first was fast
    (below max(WARM_UP_BELOW_S, budget / 4)), when the library compiles on first use
    (`jit`), or when the first took longer than the whole `budget` (it may have been
    cold).  The loop size comes from the last of these calls.  Fast calls (below
    WARM_UP_BELOW_S) are looped `target` seconds per sample, after untimed calls for
    WARM_UP_S.  Sampling stops once the samples have taken `budget` seconds (at least
    one sample); a second call still slower than the budget is the only sample."""

    def __init__(self, fn, budget=5.0, target=1e-3, jit=False):
        t0 = time.perf_counter()
        self.result = fn()
        once = time.perf_counter() - t0
        self.fn, self.budget, self.spent, self.samples = fn, budget, 0.0, []
        if jit or once < max(WARM_UP_BELOW_S, budget / 4) or once > budget:
            t0 = time.perf_counter()
            fn()
            once = time.perf_counter() - t0
        self.done = once > budget
        if self.done:   # too slow to repeat: one warm sample is all the budget allows
            self.number, self.samples, self.warm_up = 1, [once], False
            return
        self.number = max(1, min(100_000, int(target / max(once, 1e-9))))
        self.warm_up = once < WARM_UP_BELOW_S

    def sample(self):
        """Take one more sample, unless the budget is spent."""
        if self.done:
            return
        if self.warm_up:
            start = time.perf_counter()
            self.fn()
            while time.perf_counter() - start < WARM_UP_S:
                self.fn()
        t0 = time.perf_counter()
        for _ in range(self.number):
            self.fn()
        elapsed = time.perf_counter() - t0
        self.samples.append(elapsed / self.number)
        self.spent += elapsed
        self.done = self.spent > self.budget

    def timing(self) -> Timing:
        return Timing(statistics.median(self.samples), self.samples, self.number)


def measure(fn, repeat=7, budget=5.0, target=1e-3, jit=False):
    """(first result, Timing) of `fn` alone: a Sampler and `repeat` samples."""
    sampler = Sampler(fn, budget, target, jit)
    for _ in range(max(1, repeat)):
        sampler.sample()
    return sampler.result, sampler.timing()
