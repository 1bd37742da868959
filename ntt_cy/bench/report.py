"""What `ntt-cy bench` prints and writes: the speed-ups, the text table, the JSON document.

A speed-up ("x") is a competitor's median time over ntt_cy's at the same thread count
(> 1: ntt_cy is faster); a single-threaded library is compared at every thread count
with its one-thread time.  A row whose answer disagreed with ntt_cy's gets no speed-up.
"""
from __future__ import annotations

import platform

import numpy as np

__all__ = ["format_time", "speedups", "time_at", "format_table", "build_config",
           "results_json"]


def format_time(s) -> str:
    """Seconds as three significant digits in s, ms, us or ns ("-" for None)."""
    if s is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            v = s / scale
            return f"{v:.3g} {unit}" if v < 1000 else f"{v:.0f} {unit}"
    return "-"  # pragma: no cover


def _format_ratio(x) -> str:
    if not x:
        return ""
    return f"{x:.2f}x" if x >= 0.1 else f"{x:.2g}x"


def time_at(row, t):
    """Median at `t` threads; single-threaded libraries answer with their 1-thread time."""
    timing = row.times.get(t) or (row.times.get(1) if t != 1 else None)
    return timing.median_s if timing else None


def speedups(rows, threads):
    """{(id(row), t): competitor time / ntt_cy time} for every competitor row."""
    out = {}
    by_case = {}
    for r in rows:
        by_case.setdefault(r.case, []).append(r)
    for case_rows in by_case.values():
        ours = next((r for r in case_rows if r.library == "ntt_cy" and r.times), None)
        if ours is None:
            continue
        for r in case_rows:
            if r.mismatch:  # a wrong answer gets no speed ratio
                continue
            for t in threads:
                mine, theirs = time_at(ours, t), time_at(r, t)
                if mine and theirs and (t in r.times or not r.multithreaded):
                    out[(id(r), t)] = theirs / mine
    return out


def _note(row, threads):
    """ntt_cy's own row: ns per butterfly (transforms) and its thread scaling."""
    if row.library != "ntt_cy" or not row.times:
        return ""
    notes = []
    if row.case.op == "ntt" and 1 in row.times:
        n = row.case.size
        bf = row.case.rows * (n // 2) * (n.bit_length() - 1)
        if bf:   # (n = 1 has none)
            notes.append(f"{row.times[1].median_s * 1e9 / bf:.2f} ns/butterfly")
    if len(threads) > 1 and 1 in row.times and threads[-1] in row.times:
        scaling = row.times[1].median_s / row.times[threads[-1]].median_s
        notes.append(f"{threads[-1]} threads vs 1: {scaling:.2f}x")
    return ", ".join(notes)


def format_table(rows, threads) -> str:
    """Grouped text table: per case, one line per library."""
    ratio = speedups(rows, threads)
    head = ["size", "library", "version"]
    for t in threads:
        head += [f"{t} thread{'s' * (t > 1)}", "x"]
    head.append("note")
    lines = []
    group = None
    table = []

    def flush():
        if not table:
            return
        widths = [max(len(str(r[i])) for r in [head] + table) for i in range(len(head))]
        lines.append("  " + "  ".join(h.ljust(w) for h, w in zip(head, widths)).rstrip())
        for r in table:
            lines.append("  " + "  ".join(str(c).ljust(w) for c, w in zip(r, widths)).rstrip())
        table.clear()

    for r in rows:
        if r.case.group != group:
            flush()
            group = r.case.group
            lines.append("")
            lines.append(group)
        cells = [r.case.size_label, r.library, r.version]
        if r.status != "ok" and not r.times:
            cells += ["-", ""] * len(threads)
            cells.append(f"MISMATCH: {r.mismatch}" if r.mismatch else r.status)
            table.append(cells)
            continue
        for t in threads:
            own = r.times.get(t)
            cells.append(format_time(own.median_s) if own
                         else ("(1 thread)" if t != 1 and r.times else "-"))
            x = None if r.library == "ntt_cy" else ratio.get((id(r), t))
            cells.append(_format_ratio(x))
        if r.mismatch:
            cells.append(f"MISMATCH: {r.mismatch}")
        else:
            cells.append(r.status if r.status != "ok" else _note(r, threads))
        table.append(cells)
    flush()
    return "\n".join(lines)


def build_config() -> dict:
    """ntt_cy's show_config() fields; never fails the benchmark."""
    try:
        from ntt_cy._support.config import config

        return {k: str(v) for k, v in config().items()}
    except Exception as exc:  # e.g. a half-installed optional GPU package
        return {"error": f"{type(exc).__name__}: {exc}"}


def results_json(rows, threads, options) -> dict:
    """The whole run as one JSON-ready document: versions, options, every median and
    sample, the speed-ups and whether every answer agreed."""
    from ntt_cy import __version__

    ratio = speedups(rows, threads)
    competitors = {}
    out = []
    for r in rows:
        competitors.setdefault(r.library, r.version if r.status != "not installed" else None)
        base = {"op": r.case.op, "case": r.case.group, "size": r.case.size,
                "modulus": r.case.modulus, "rows": r.case.rows, "library": r.library,
                "version": r.version, "status": r.status, "mismatch": r.mismatch}
        if not r.times:
            out.append(dict(base, threads=None, median_s=None, samples_s=[],
                            calls_per_sample=0, ntt_cy_speedup=None))
        for t, tm in r.times.items():
            x = 1.0 if r.library == "ntt_cy" else ratio.get((id(r), t))
            out.append(dict(base, threads=t, median_s=tm.median_s, samples_s=tm.samples_s,
                            calls_per_sample=tm.calls_per_sample, ntt_cy_speedup=x))
    mismatches = [r.mismatch for r in rows if r.mismatch]
    return {
        "ntt_cy": __version__,
        "config": build_config(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "threads": threads,
        "options": options,
        "competitors": competitors,
        "agree": not mismatches,
        "mismatches": mismatches,
        "results": out,
    }
