"""The GPU figures of ntt_cy.cuda: device-resident transforms, polymul, CPU/GPU crossover.

    python -m ntt_cy.bench.gpu             # prints every figure below (needs a GPU)

bench_forward       batched forward NTT on device-resident data vs a device-to-device copy
                    of the same bytes, both timed with CUDA events in the same run;
                    effective bandwidth counts the bytes an ideal 2-pass transform reads
                    and writes (4 x the data), the copy its read + write (2 x the data)
bench_polymul       polymul latency, numpy in/out or device-resident, wall clock
bench_crossover     numpy in/out ntt on the CPU (ntt_cy.ntt) vs the GPU, per size
Every function raises CudaUnavailableError without a GPU.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from ntt_cy.cuda import NTTPlan, activated, polymul
from ntt_cy.cuda.engine import TransformEngine
from ntt_cy.cuda.schedule import stage_passes

__all__ = ["bench_forward", "bench_polymul", "bench_crossover", "main"]

# 7 * 2^26 + 1: lengths up to 2^26, where 998244353 (2^23 | p - 1) stops at 2^23.
P_LONG = 469762049
# main()'s device-resident shapes (rows, log2 n) and the crossover's sizes, all mod P_LONG
FORWARD_SHAPES = ((1, 24), (64, 18), (4096, 12))
CROSSOVER_LOG_SIZES = range(8, 25, 2)


def _event_seconds(drv, fn, repeat: int, warmup: int) -> float:
    """Mean seconds per call of fn (which only queues GPU work), by CUDA events."""
    for _ in range(warmup):
        fn()
    start, end = drv.Event(), drv.Event()
    start.record()
    for _ in range(repeat):
        fn()
    end.record()
    end.synchronize()
    return start.time_till(end) * 1e-3 / repeat


def _random_residues(shape, p: int, dtype, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.integers(0, 1 << 62, shape, dtype=np.uint64) % np.uint64(p)).astype(dtype)


def bench_forward(n: int, batch: int, p: int = 998244353, *, reduction: str = "auto",
                  bit_reversed: bool = True, repeat: int = 20, warmup: int = 3) -> dict:
    """Device-resident batched forward NTT (batch x n) against a device-to-device copy."""
    plan = NTTPlan(n, p, reduction=reduction)
    with activated() as backend:
        drv = backend.drv
        eng = TransformEngine(plan.spec, backend)   # the plan's tables, on this context
        host = _random_residues((batch, n), p, plan.dtype)
        nbytes = host.nbytes
        x = backend.upload(host)
        y = backend.alloc(nbytes)
        t_ntt = _event_seconds(drv, lambda: eng.forward(x.ptr, y.ptr, batch, bit_reversed=bit_reversed),
                               repeat, warmup)
        t_copy = _event_seconds(drv, lambda: backend.copy(y.ptr, x.ptr, nbytes), repeat, warmup)
    ntt_bw = 4 * nbytes / t_ntt
    copy_bw = 2 * nbytes / t_copy
    return {
        "n": n, "batch": batch, "p": p, "reduction": plan.reduction, "bit_reversed": bit_reversed,
        "bytes": nbytes, "passes": len(stage_passes(plan.spec.log_n, plan.spec.word_bytes)),
        "ntt_seconds": t_ntt, "copy_seconds": t_copy,
        "ntt_bandwidth": ntt_bw, "copy_bandwidth": copy_bw, "ratio": ntt_bw / copy_bw,
    }


def bench_polymul(n: int, p: int = 998244353, *, on_device: bool = False, repeat: int = 20,
                  warmup: int = 3) -> float:
    """Mean wall-clock seconds of polymul(a, b, p) for two length-n inputs (results
    complete: numpy results are copied back, device results synchronised)."""
    a = _random_residues(n, p, np.uint32 if p <= 1 << 32 else np.uint64, 1)
    b = _random_residues(n, p, a.dtype, 2)
    if not on_device:
        for _ in range(warmup):
            polymul(a, b, p)
        t0 = time.perf_counter()
        for _ in range(repeat):
            polymul(a, b, p)
        return (time.perf_counter() - t0) / repeat
    from pycuda import gpuarray

    with activated() as backend:
        drv = backend.drv
        da = gpuarray.to_gpu(a, allocator=backend.allocator)
        db = gpuarray.to_gpu(b, allocator=backend.allocator)
        for _ in range(warmup):
            polymul(da, db, p)
        drv.Context.synchronize()
        t0 = time.perf_counter()
        for _ in range(repeat):
            polymul(da, db, p)
        drv.Context.synchronize()
        return (time.perf_counter() - t0) / repeat


def bench_crossover(p: int = P_LONG, log_sizes=CROSSOVER_LOG_SIZES, batch_elems: int = 1 << 20,
                    repeat: int = 5) -> list:
    """[(n, rows, cpu_seconds, gpu_seconds)] for numpy in/out forward NTTs of rows x n with
    rows * n = max(n, batch_elems): where the GPU starts to win."""
    from ntt_cy import ntt as cpu_ntt
    from ntt_cy.cuda import ntt as gpu_ntt

    rows_out = []
    for log_n in log_sizes:
        n = 1 << log_n
        rows = max(1, batch_elems // n)
        x = _random_residues((rows, n), p, np.uint32 if p < 1 << 32 else np.uint64, 3)
        times = []
        for fn in (cpu_ntt, gpu_ntt):
            fn(x, p)
            t0 = time.perf_counter()
            for _ in range(repeat):
                fn(x, p)
            times.append((time.perf_counter() - t0) / repeat)
        rows_out.append((n, rows, times[0], times[1]))
    return rows_out


def main(argv=None) -> int:
    """Entry point of ``python -m ntt_cy.bench.gpu``: prints every figure; returns 0."""
    argparse.ArgumentParser(
        prog="python -m ntt_cy.bench.gpu",
        description="GPU figures: device-resident batched forward NTTs against a device copy, "
                    "polymul n = 131072 (numpy and device in/out), and the CPU/GPU crossover "
                    "of numpy in/out transforms.  Needs a GPU (CudaUnavailableError "
                    "without one).").parse_args(argv)
    print(f"device-resident batched forward NTT, uint32, p = {P_LONG} (bit-reversed output)")
    print(f"{'shape':>14} {'passes':>6} {'ntt us':>9} {'copy us':>9} {'ntt GB/s':>9} "
          f"{'copy GB/s':>9} {'ratio':>6}")
    for batch, log_n in FORWARD_SHAPES:
        r = bench_forward(1 << log_n, batch, P_LONG)
        print(f"{batch:>5} x 2^{log_n:<5} {r['passes']:>6} {r['ntt_seconds'] * 1e6:9.1f} "
              f"{r['copy_seconds'] * 1e6:9.1f} {r['ntt_bandwidth'] / 1e9:9.0f} "
              f"{r['copy_bandwidth'] / 1e9:9.0f} {r['ratio']:6.2f}")
    r = bench_forward(1 << 24, 1, P_LONG, bit_reversed=False)
    print(f"1 x 2^24 natural order: {r['ntt_seconds'] * 1e6:.1f} us")
    for on_device in (False, True):
        t = bench_polymul(131072, on_device=on_device)
        print(f"polymul n = 131072, p = 998244353, {'device' if on_device else 'numpy'} in/out: "
              f"{t * 1e6:.1f} us")
    print(f"numpy in/out forward NTT mod {P_LONG}, CPU vs GPU (rows x n = 2^20):")
    for n, rows, cpu, gpu in bench_crossover():
        print(f"  n = {n:>8} x {rows:>5}: cpu {cpu * 1e3:8.3f} ms  gpu {gpu * 1e3:8.3f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
