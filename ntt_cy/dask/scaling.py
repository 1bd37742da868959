"""How ntt_cy.dask scales: throughput, efficiency and per-step costs on 1..N workers.

    ntt-cy bench --dask [ADDRESS]      # or: python -m ntt_cy.dask.scaling [ADDRESS]
        [--workers 1,2] [--batch 4096x4096] [--large 2^22] [--threads 1] [--repeat 3]
        [--json FILE]

Without ADDRESS it starts a LocalCluster (processes, one thread each) for every worker
count; with one it uses that scheduler (a real cluster: the worker counts are then the
cluster's own, one measurement).  For each worker count P it times

* batch:   FHE-style negacyclic NTTs of many rows (``ntt_cy.dask.ntt``), split in
           row blocks: no communication;
* large:   one ``ntt_large`` + ``intt_large`` pair in transposed order (a convolution's
           transforms: four all-to-alls);

and reports the best wall time of ``--repeat`` runs, throughput, the strong-scaling
efficiency T1 / (P TP), weak scaling (the batch grown with P), the share of the task
time spent in rechunk tasks and transfers (from the scheduler's task stream), and each
worker's peak resident memory.  Per-step costs (ns per element of the transforms, the
twiddle multiplication and the rechunks) let a reader predict a larger cluster.
"""
from __future__ import annotations

import argparse
import json
import sys
import threading
import time

import numpy as np

P_BATCH = 998244353            # a 30-bit NTT prime (2^23 | p - 1)
P_LARGE = 469762049            # a 29-bit NTT prime (2^26 | p - 1): ntt_large up to 2^26


def _parse_shape(text: str) -> tuple:
    rows, _, n = text.lower().partition("x")
    return _parse_int(rows), _parse_int(n)


def _parse_int(text: str) -> int:
    text = text.strip()
    if "^" in text:
        base, _, exp = text.partition("^")
        return int(base) ** int(exp)
    return int(float(text)) if "e" in text.lower() else int(text)


def _resident_bytes() -> int:
    """This process's resident set size (run on each worker)."""
    import psutil

    return psutil.Process().memory_info().rss


class MemoryWatch:
    """Each worker's peak resident set size while a block of code runs (sampled)."""

    def __init__(self, client, interval=0.05):
        self.client, self.interval = client, interval
        self.peak = {}
        self._stop = threading.Event()

    def _loop(self):
        while not self._stop.is_set():
            try:
                for addr, rss in self.client.run(_resident_bytes).items():
                    self.peak[addr] = max(self.peak.get(addr, 0), rss)
            except Exception:   # a worker between restarts: sample again
                pass
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def _task_time_by_kind(stream) -> dict:
    """Seconds of compute per kind of task (transform, twiddle pass, rechunk, other)
    and of transfers, from distributed's task stream records."""
    out = {"transform": 0.0, "four-step pass": 0.0, "rechunk": 0.0, "other": 0.0,
           "transfer": 0.0}
    for record in stream:
        key = record["key"]
        name = (key[0] if isinstance(key, tuple) else str(key)).split("-")
        prefix = "-".join(name[:3])
        for ss in record.get("startstops", ()):
            span = ss["stop"] - ss["start"]
            if ss["action"] == "transfer":
                out["transfer"] += span
            elif ss["action"] != "compute":
                continue
            elif prefix.startswith(("ntt_cy-ntt", "ntt_cy-intt")):
                out["transform"] += span
            elif prefix.startswith("ntt_cy-four"):
                out["four-step pass"] += span
            elif "rechunk" in prefix or "shuffle" in prefix or "p2p" in prefix:
                out["rechunk"] += span
            else:
                out["other"] += span
    return out


def _measure(client, build, repeat):
    """Best wall time of `repeat` computations of build(), with that run's task-time
    split and peak memory per worker."""
    from distributed import get_task_stream

    best = None
    for _ in range(repeat):
        arr = build()
        with MemoryWatch(client) as watch, get_task_stream(client) as stream:
            start = time.perf_counter()
            arr.persist().compute()
            wall = time.perf_counter() - start
        if best is None or wall < best[0]:
            best = (wall, _task_time_by_kind(stream.data), dict(watch.peak))
    return best


def per_step_costs(n_large: int, threads: int) -> dict:
    """Single-process ns per element of the steps a four-step pass runs on a block
    (one thread each): the short transforms, the twiddle multiplication."""
    from ntt_cy.dask import blocks

    n1 = 1 << ((n_large.bit_length() - 1) // 2)
    n2 = n_large // n1
    cols = max(1, n2 // 8)
    block = (np.arange(n1 * cols, dtype=np.uint64) % P_LARGE).astype(np.uint32).reshape(n1, cols)
    w = pow(3, (P_LARGE - 1) // n_large, P_LARGE)

    def best(fn, reps=5):
        fn()
        times = []
        for _ in range(reps):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times) / block.size * 1e9

    return {
        "transform_ns_per_element": best(lambda: blocks.transform(
            block, P_LARGE, 0, "cyclic", pow(w, n2, P_LARGE), "auto", False, threads)),
        "twiddle_ns_per_element": best(lambda: blocks.twiddle(block, P_LARGE, w, 0, 0,
                                                              threads)),
    }


def run(address=None, workers=(1, 2), batch=(4096, 4096), large=1 << 22, threads=1,
        repeat=3, log=print) -> dict:
    """The scaling figures as a dict (see the module docstring); `log` gets the table."""
    import dask.array as da
    from distributed import Client, LocalCluster

    import ntt_cy.dask as nd

    rows, n = batch
    results = []

    def batch_array(rows_total, parts):
        x = da.random.default_rng(1).integers(0, P_BATCH, (rows_total, n), dtype=np.uint32,
                                               chunks=(max(1, rows_total // parts), n))
        return x.persist()

    def one_count(client, P):
        parts = max(2 * P, 2)
        xb = batch_array(rows, parts)
        xw = batch_array(rows * P, 2 * P)
        xl = da.random.default_rng(2).integers(0, P_LARGE, large, dtype=np.uint32,
                                               chunks=max(1, large // parts)).persist()
        entry = {"workers": P}
        for label, build, elements in (
                ("batch", lambda: nd.ntt(xb, P_BATCH, kind="negacyclic", threads=threads),
                 rows * n),
                ("batch_weak", lambda: nd.ntt(xw, P_BATCH, kind="negacyclic", threads=threads),
                 rows * n * P),
                ("large", lambda: nd.intt_large(
                    nd.ntt_large(xl, P_LARGE, order="transposed", threads=threads), P_LARGE,
                    order="transposed", threads=threads), 2 * large)):
            wall, split, peak = _measure(client, build, repeat)
            task_total = sum(v for k, v in split.items() if k != "transfer") or 1.0
            entry[label] = {
                "seconds": wall, "elements": elements,
                "melements_per_s": elements / wall / 1e6,
                "task_seconds": split,
                "rechunk_share": (split["rechunk"] + split["transfer"]) /
                                 (task_total + split["transfer"]),
                "peak_rss_mib": {a: v / 2**20 for a, v in peak.items()},
            }
        return entry

    if address:
        with Client(address) as client:
            P = len(client.scheduler_info()["workers"])
            results.append(one_count(client, P))
    else:
        for P in workers:
            with LocalCluster(n_workers=P, threads_per_worker=1, processes=True,
                              dashboard_address=None) as cluster, Client(cluster) as client:
                results.append(one_count(client, P))
    base = results[0]
    for entry in results:
        P = entry["workers"] / base["workers"]
        for label in ("batch", "large"):
            entry[label]["efficiency"] = base[label]["seconds"] / (P * entry[label]["seconds"])
        entry["batch_weak"]["efficiency"] = (base["batch_weak"]["seconds"]
                                             / entry["batch_weak"]["seconds"])
    report = {"batch": f"{rows}x{n} negacyclic, p = {P_BATCH}", "large": large,
              "threads": threads, "results": results,
              "per_step": per_step_costs(large, threads)}
    _print(report, log)
    return report


def _print(report, log):
    log(f"batch: {report['batch']}; large: ntt_large + intt_large, n = {report['large']}, "
        f"transposed order; {report['threads']} kernel thread(s) per task")
    log(f"{'workers':>7}  {'case':<10} {'seconds':>8} {'Melem/s':>9} {'eff.':>6} "
        f"{'rechunk':>8}  peak RSS per worker (MiB)")
    for entry in report["results"]:
        for label in ("batch", "batch_weak", "large"):
            e = entry[label]
            peaks = " ".join(f"{v:.0f}" for v in e["peak_rss_mib"].values())
            log(f"{entry['workers']:>7}  {label:<10} {e['seconds']:>8.3f} "
                f"{e['melements_per_s']:>9.1f} {e['efficiency']:>6.2f} "
                f"{100 * e['rechunk_share']:>7.0f}%  {peaks}")
    steps = report["per_step"]
    log(f"per step, one thread: transforms {steps['transform_ns_per_element']:.2f} ns/element "
        f"(one length-n1 pass), twiddle {steps['twiddle_ns_per_element']:.2f} ns/element")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="ntt-cy bench --dask",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("address", nargs="?", default=None,
                        help="a dask scheduler address (default: LocalClusters of --workers)")
    parser.add_argument("--workers", default="1,2",
                        help="worker counts of the LocalClusters, e.g. 1,2,4 (default 1,2)")
    parser.add_argument("--batch", default="4096x4096", help="rows x length (default 4096x4096)")
    parser.add_argument("--large", default="2^22", help="ntt_large length (default 2^22)")
    parser.add_argument("--threads", type=int, default=1, help="kernel threads per task")
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (best is kept)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    try:
        workers = tuple(int(w) for w in args.workers.split(","))
        batch, large = _parse_shape(args.batch), _parse_int(args.large)
    except ValueError:
        parser.error("--workers takes counts like 1,2; --batch ROWSxN; --large a length like 2^22")
    if any(w < 1 for w in workers) or args.threads < 1 or args.repeat < 1:
        parser.error("--workers, --threads and --repeat take positive integers")
    report = run(args.address, workers, batch, large, args.threads, args.repeat)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
