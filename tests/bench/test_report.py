"""ntt_cy.bench.report: speed-ups at the same thread count, times in words."""
from stand_in_libraries import timed_row as timed

from ntt_cy.bench import report


def test_speedups_compare_at_the_same_thread_count():
    ours = timed("ntt_cy", {1: 1.0, 2: 0.5}, multithreaded=True)
    flint = timed("python-flint", {1: 4.0, 2: 3.0}, multithreaded=True)
    sympy = timed("sympy", {1: 10.0})                        # single-threaded
    partial = timed("half", {1: 2.0}, multithreaded=True)    # its 2-thread run failed
    liar = timed("liar", {1: 2.0}, mismatch="wrong")
    x = report.speedups([ours, flint, sympy, partial, liar], [1, 2])
    assert x[(id(flint), 1)] == 4.0 and x[(id(flint), 2)] == 6.0
    # a single-threaded library is compared with its one-thread time at every count
    assert x[(id(sympy), 1)] == 10.0 and x[(id(sympy), 2)] == 20.0
    assert (id(partial), 2) not in x and x[(id(partial), 1)] == 2.0
    assert not any(key[0] == id(liar) for key in x)


def test_format_time():
    assert report.format_time(None) == "-"
    assert report.format_time(1.5) == "1.5 s"
    assert report.format_time(0.0123) == "12.3 ms"
    assert report.format_time(2.5e-6) == "2.5 us"
    assert report.format_time(4e-10) == "0.4 ns"
