"""The figure of ntt_cy.bench.plot: one colour per library in every panel, one line style
per thread count, a speed-up panel under every time panel, the legend off the data."""
import io

import pytest
from stand_in_libraries import timed_row

from ntt_cy.bench import cases, plot

pytest.importorskip("matplotlib")   # a test dependency: pip install -e ".[test]"

THREADS = [1, 2]


def sample_rows():
    """Two workloads: ntt_cy and python-flint (both threaded), sympy and numpy (one
    thread); python-flint's one- and two-thread times coincide."""
    rows = []
    for m in (cases.P30, cases.M_BN254):
        for n in (64, 1024, 16384):
            case = cases.Case("polymul", n, m)
            rows += [timed_row("ntt_cy", {1: n * 1e-8, 2: n * 6e-9}, True, case=case),
                     timed_row("python-flint", {1: n * 5e-8, 2: n * 5e-8}, True, case=case),
                     timed_row("sympy", {1: n * 1e-5}, case=case)]
            if n < 16384:
                rows.append(timed_row("numpy", {1: n * n * 1e-9}, case=case))
    return rows


def test_library_colours_are_fixed_by_the_library_list():
    colours = plot.library_colours(["galois", "ntt_cy", "someone else"])
    assert colours["ntt_cy"] == plot.PALETTE[0]            # whatever the order given
    assert colours == plot.library_colours(["ntt_cy", "someone else", "galois"])
    assert colours["galois"] == plot.library_colours(["galois"])["galois"]
    assert len(set(colours.values())) == 3
    everyone = plot.library_colours(["ntt_cy", "python-flint", "galois", "sympy", "numpy",
                                     "CPython int", "gmpy2", "someone else"])
    assert len(set(everyone.values())) == 8


def test_thread_counts_have_their_own_line_style():
    one, all_ = plot.thread_style(1, THREADS), plot.thread_style(2, THREADS)
    assert one["linestyle"] != all_["linestyle"] and one["marker"] != all_["marker"]
    assert all_["fillstyle"] == "none"   # hollow: a line under it still shows


def lines_by_panel(fig):
    """[(axes, {gid: Line2D})] of every panel of the figure, time and speed-up panels."""
    return [(ax, {line.get_gid(): line for line in ax.get_lines() if line.get_gid()})
            for sub in fig.subfigs for ax in sub.axes]


def test_every_panel_draws_a_library_in_its_one_colour():
    fig = plot.figure(sample_rows(), THREADS)
    colours = plot.library_colours(["ntt_cy", "python-flint", "sympy", "numpy"])
    panels = lines_by_panel(fig)
    assert len(panels) == 4   # two workloads, a time and a speed-up panel each
    seen = set()
    for ax, lines in panels:
        for gid, line in lines.items():
            library, t = gid.split("|")
            seen.add(library)
            assert line.get_color() == colours[library], gid
            style = plot.thread_style(int(t), THREADS)
            assert line.get_linestyle() == style["linestyle"]
            assert line.get_marker() == style["marker"]
    assert seen == set(colours)
    time_panels, ratio_panels = panels[0::2], panels[1::2]
    for _, lines in time_panels:
        # a single-threaded library is drawn once; both of python-flint's times are drawn
        assert {"sympy|1", "python-flint|1", "python-flint|2", "ntt_cy|1", "ntt_cy|2"} <= set(lines)
        assert "sympy|2" not in lines
    for _, lines in ratio_panels:
        # the speed-up of each peer at each of ntt_cy's thread counts, none of ntt_cy itself
        assert {"sympy|1", "sympy|2", "python-flint|1", "python-flint|2"} <= set(lines)
        assert not any(gid.startswith("ntt_cy") for gid in lines)
        assert lines["sympy|2"].get_ydata()[0] == pytest.approx(64 * 1e-5 / (64 * 6e-9))


def overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def test_figure_renders_with_the_legend_and_titles_off_the_data():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig = plot.figure(sample_rows(), THREADS)
    canvas = FigureCanvasAgg(fig)
    buffer = io.BytesIO()
    canvas.print_png(buffer)   # draws: the constrained layout is done
    assert buffer.getvalue()[:8] == b"\x89PNG\r\n\x1a\n"
    renderer = canvas.get_renderer()
    axes = [ax.get_window_extent(renderer) for sub in fig.subfigs for ax in sub.axes]
    titles = [sub.axes[0].title.get_window_extent(renderer) for sub in fig.subfigs]
    (legend,) = fig.legends
    legend_box = legend.get_window_extent(renderer)
    assert not any(overlap(legend_box, box) for box in axes + titles)
    for i, title in enumerate(titles):
        assert not any(overlap(title, box) for box in axes)
        assert not any(overlap(title, other) for other in titles[i + 1:])
    labels = [t.get_text() for t in legend.get_texts()]
    assert labels == ["ntt_cy", "python-flint", "sympy", "numpy", "1 thread", "2 threads"]


def test_nothing_timed_is_an_error():
    untimed = timed_row("ntt_cy", {})
    with pytest.raises(ValueError, match="nothing was timed"):
        plot.figure([untimed], THREADS)
