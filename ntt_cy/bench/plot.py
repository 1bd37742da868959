"""The figure of `ntt-cy bench --plot FILE`: time and speed-up against size, per workload.

One block per workload group (a transform size series, a polymul modulus, bigmul): on top
the median time per call against the size, log-log; below it each competitor's time over
ntt_cy's at the same thread count (> 1: ntt_cy is faster), with a line at 1.  A library
has one colour in every block (library_colours); a thread count has one line style and
marker (thread_style: solid with filled circles for one thread, dashed with hollow squares
for all threads), so a library whose one- and all-thread times coincide still shows both.
A single-threaded library has one time line (its one-thread time), compared in the lower
panel with ntt_cy at every thread count.  One legend for the whole figure, below the
blocks, never over data; the layout is matplotlib's constrained layout.
"""
from __future__ import annotations

import math

from ntt_cy.bench import libraries as known_libraries
from ntt_cy.bench.report import speedups

__all__ = ["PALETTE", "library_colours", "thread_style", "figure", "plot"]

# matplotlib's "tab10" colours, in the order LIBRARIES takes them (ntt_cy blue,
# python-flint orange, galois green, sympy red, numpy purple, CPython brown, gmpy2 pink).
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf")

# Per position in the run's thread counts: 1 thread, all threads (and a third in reserve).
# The later ones are hollow and larger, so a point drawn over an earlier one frames it.
_THREAD_STYLES = ({"linestyle": "-", "marker": "o", "fillstyle": "full", "markersize": 4.5},
                  {"linestyle": "--", "marker": "s", "fillstyle": "none", "markersize": 7.5},
                  {"linestyle": ":", "marker": "^", "fillstyle": "none", "markersize": 9})


def library_colours(names) -> dict:
    """{library name: colour} for every name in `names`, in palette order: the libraries
    of LIBRARIES take the palette in that list's order (ntt_cy first), so a library keeps
    its colour in every panel and every figure; other names follow in the order given."""
    order = [lib.name for lib in known_libraries.LIBRARIES]
    order += [name for name in dict.fromkeys(names) if name not in order]
    wanted = set(names)
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(order) if name in wanted}


def thread_style(t, threads) -> dict:
    """Line style, marker, its fill and size for thread count `t` among the run's `threads`."""
    return dict(_THREAD_STYLES[min(threads.index(t), len(_THREAD_STYLES) - 1)])


def _thread_label(t) -> str:
    return f"{t} thread{'s' * (t > 1)}"


def _grid(count):
    """(rows, columns) of blocks: at most four columns, the rows as full as they can be."""
    rows = math.ceil(count / 4)
    return rows, math.ceil(count / rows)


def _series(points):
    points = sorted(points)
    return [p[0] for p in points], [p[1] for p in points]


def _ratio_ticks(ax, values):
    """Speed-up ticks written as "0.5x", "1x", "20x": at 1, 2 and 5 times the powers of
    ten where the values span less than two decades, at the powers of ten otherwise."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    span = max(values + [1.0]) / min(values + [1.0])
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0) if span < 100
                                          else (1.0,)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.yaxis.set_minor_formatter(NullFormatter())


def _draw_block(subfig, case_rows, threads, colours, ratio):
    """The time panel and the speed-up panel of one workload group."""
    ax_time, ax_ratio = subfig.subplots(2, 1, sharex=True, height_ratios=[3, 2])
    first = case_rows[0].case
    ax_time.set_title(first.title, fontsize=10)
    base = 10 if first.op == "bigmul" else 2
    for ax in (ax_time, ax_ratio):
        ax.set_xscale("log", base=base)
        ax.set_yscale("log")
        ax.grid(True, which="major", alpha=0.35)
        ax.grid(True, which="minor", alpha=0.12)
    times, ratios = {}, {}   # (library, t) -> [(size, value)]
    for r in case_rows:
        for t, timing in r.times.items():
            times.setdefault((r.library, t), []).append((r.case.size, timing.median_s))
        if r.library == "ntt_cy":
            continue
        for t in threads:
            x = ratio.get((id(r), t))
            if x is not None:
                ratios.setdefault((r.library, t), []).append((r.case.size, x))
    for ax, series in ((ax_time, times), (ax_ratio, ratios)):
        for (library, t), points in series.items():
            xs, ys = _series(points)
            (line,) = ax.plot(xs, ys, color=colours[library], linewidth=1.4,
                              **thread_style(t, threads))
            line.set_gid(f"{library}|{t}")
    ax_time.set_ylabel("median time per call (s)", fontsize=8)
    ax_ratio.set_ylabel("their time / ntt_cy's\n(> 1: ntt_cy faster)", fontsize=8)
    ax_ratio.axhline(1.0, color="black", linewidth=0.8, alpha=0.6)
    if ratios:
        _ratio_ticks(ax_ratio, [x for points in ratios.values() for _, x in points])
    else:
        ax_ratio.text(0.5, 0.5, "no competitor timed", transform=ax_ratio.transAxes,
                      ha="center", va="center", fontsize=8, color="0.4")
    ax_ratio.set_xlabel("bits" if first.op == "bigmul" else "n", fontsize=8)
    for ax in (ax_time, ax_ratio):
        ax.tick_params(labelsize=7)


def _legend(fig, libraries, threads, colours):
    """One legend below the blocks: a colour per library, a line style per thread count."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=colours[name], linewidth=3) for name in libraries]
    labels = list(libraries)
    for t in threads:
        handles.append(Line2D([], [], color="0.3", **thread_style(t, threads)))
        labels.append(_thread_label(t))
    fig.legend(handles, labels, loc="outside lower center", ncols=min(len(labels), 10),
               fontsize=8, frameon=False,
               title="single-threaded libraries: their one-thread time, compared with "
                     "ntt_cy at every thread count", title_fontsize=8)


def figure(rows, threads):
    """The matplotlib Figure of a run (see the module docstring); ValueError when nothing
    was timed."""
    from matplotlib.figure import Figure

    groups = {}
    for r in rows:
        if r.times:
            groups.setdefault(r.case.group, []).append(r)
    if not groups:
        raise ValueError("nothing was timed: no plot to draw")
    colours = library_colours([r.library for r in rows if r.times])
    libraries = list(colours)
    ratio = speedups(rows, threads)
    nrows, ncols = _grid(len(groups))
    fig = Figure(figsize=(4.3 * ncols, 4.6 * nrows + 0.9), layout="constrained")
    fig.suptitle("ntt_cy and its peers: median time per call (upper panels) and each "
                 "peer's time over ntt_cy's at the same thread count (lower panels)",
                 fontsize=11)
    subfigs = fig.subfigures(nrows, ncols, squeeze=False, wspace=0.03, hspace=0.03)
    for subfig, case_rows in zip(subfigs.flat, groups.values()):
        _draw_block(subfig, case_rows, threads, colours, ratio)
    _legend(fig, libraries, threads, colours)
    return fig


def plot(rows, threads, path):
    """Write the figure of a run to `path` (the format from its extension; needs
    matplotlib)."""
    figure(rows, threads).savefig(path, dpi=110)
