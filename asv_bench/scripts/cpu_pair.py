"""Each CPU's own speed, and what two threads can make of the pair (the CRT product).

    python asv_bench/scripts/cpu_pair.py [--rounds 3] [--repeat 25] [--log2n 17]

The two-thread targets assume two equal cores; the two vCPUs of a shared VM need not
be.  This times polymul(a, b, 10**9 + 7) at n = 2^log2n, workers=1, with this thread
pinned to each CPU in turn (os.sched_setaffinity), then unpinned with workers=1 and 2,
then one pinned process per CPU, both at once (a second copy of this script each),
rounds alternated (medians of `repeat` calls each, after a few untimed ones: an idle
vCPU wakes slowly).  The whole process keeps to the first two CPUs it may use.  With
one thread taking t_fast on the faster CPU and t_slow on the slower, the kernels' even
split of every pass between two threads needs at least t_slow / 2, at most 2 t_fast /
t_slow times faster than the faster CPU alone; a split by speed would need
1 / (1/t_fast + 1/t_slow), 1 + t_fast / t_slow times faster.  Both bounds assume that each CPU keeps its speed while the other
works; the "both at once" columns show whether it does (two vCPUs on one core's two
hardware threads, or a host that slows both when both run, do not).
"""
import argparse
import os
import subprocess
import sys
import time

import numpy as np

import ntt_cy

from thread_scaling import median_ms   # (this script's folder is on sys.path)

M = 10**9 + 7


def operands(log2n):
    rng = np.random.default_rng(1)
    return (rng.integers(0, M, 1 << log2n, dtype=np.uint32),
            rng.integers(0, M, 1 << log2n, dtype=np.uint32))


def pinned_copy(cpu, start_at, repeat, log2n):
    """--pinned: one thread on `cpu` from time `start_at` on; prints its median."""
    os.sched_setaffinity(0, {cpu})
    a, b = operands(log2n)
    ntt_cy.polymul(a, b, M, workers=1)
    late = time.time() - start_at
    time.sleep(max(0.0, -late))
    print(median_ms(lambda: ntt_cy.polymul(a, b, M, workers=1), repeat), max(0.0, late))


def both_at_once(cpus, repeat, log2n):
    start_at = time.time() + 2.0   # both copies imported and warmed up by then
    copies = [subprocess.Popen([sys.executable, __file__, "--pinned", str(cpu), "--start-at",
                                repr(start_at), "--repeat", str(repeat), "--log2n", str(log2n)],
                               stdout=subprocess.PIPE, text=True) for cpu in cpus]
    medians = []
    for c in copies:
        out = c.communicate()[0]
        if c.returncode != 0:
            sys.exit(f"cpu_pair.py: a pinned copy failed (exit code {c.returncode})")
        median, late = map(float, out.split())
        if late > 0.05:
            print(f"(the copy on CPU {cpus[len(medians)]} started {late:.2f} s late: "
                  f"the two may not have overlapped)")
        medians.append(median)
    return medians


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=25)
    ap.add_argument("--log2n", type=int, default=17)
    ap.add_argument("--pinned", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--start-at", type=float, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.pinned is not None:
        return pinned_copy(args.pinned, args.start_at, args.repeat, args.log2n)
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        sys.exit(f"cpu_pair.py: needs two CPUs, this process may run on {cpus}")
    cpus = cpus[:2]
    pair = set(cpus)
    os.sched_setaffinity(0, pair)   # the two-thread runs on the same pair
    a, b = operands(args.log2n)
    # the two-thread pool first, while this thread may run on both: OpenMP's threads
    # keep the affinity they were started with
    ntt_cy.polymul(a, b, M, workers=2)

    def timed(workers):   # a few untimed calls first: an idle vCPU wakes slowly
        return median_ms(lambda: ntt_cy.polymul(a, b, M, workers=workers), args.repeat, warmup=5)

    print(f"polymul n = 2^{args.log2n} mod 10^9 + 7, medians of {args.repeat} calls, ms")
    print("| round | 1 thread on CPU %d | 1 thread on CPU %d | both at once, CPU %d / %d "
          "| 1 thread, unpinned | 2 threads | 2 vs the faster CPU | even-split bound "
          "| by-speed bound |" % (*cpus, *cpus))
    print("|---|---|---|---|---|---|---|---|---|")
    for r in range(args.rounds):
        pinned = []
        for cpu in cpus:
            os.sched_setaffinity(0, {cpu})
            pinned.append(timed(1))
        os.sched_setaffinity(0, pair)
        together = both_at_once(cpus, args.repeat, args.log2n)
        one, two = timed(1), timed(2)
        fast, slow = min(pinned), max(pinned)
        print(f"| {r + 1} | {pinned[0]:.2f} | {pinned[1]:.2f} | {together[0]:.2f} / "
              f"{together[1]:.2f} | {one:.2f} | {two:.2f} "
              f"| {fast / two:.2f}x | {2 * fast / slow:.2f}x | {1 + fast / slow:.2f}x |")


if __name__ == "__main__":
    main()
