"""ntt_cy.bench.runner: answers checked against ntt_cy's, samples interleaved."""
from stand_in_libraries import Echo, Recorder

from ntt_cy.bench import cases, runner


def test_run_reports_mismatch_without_raising(libs):
    libs(Echo(corrupt=True))
    rows = runner.run([cases.Case("ntt", 8, cases.P30)], repeat=1, budget=0.01, threads=[1])
    (ours, theirs) = rows
    assert ours.status == "ok" and ours.mismatch is None
    assert theirs.status == "MISMATCH" and "disagrees with ntt_cy" in theirs.mismatch


def test_samples_interleave_across_libraries():
    # Side-by-side ratios: each round samples every library once (order alternating),
    # so no library's samples all come from one stretch of the machine's load.
    Recorder.log = []
    a, b = Recorder(name="a"), Recorder(name="b")
    quick = [c for c in cases.default_cases(quick=True) if c.op == "ntt"][:1]
    rows = runner.run(quick, libraries=[a, b], repeat=4, budget=10.0, threads=[1])
    assert all(r.status == "ok" and len(r.times[1].samples_s) == 4 for r in rows)
    timed = Recorder.log[4:]   # after warm-up + calibration (two calls each)
    runs = [name for i, name in enumerate(timed) if i == 0 or timed[i - 1] != name]
    assert len(runs) >= 4, runs   # a b | b a | a b | b a: the libraries take turns


def test_rows_say_which_libraries_honour_threads(libs):
    libs(Echo())
    rows = runner.run([cases.Case("ntt", 16, cases.P30)], repeat=1, budget=0.01,
                      threads=[1, 2])
    ours, echo = rows
    assert ours.multithreaded and set(ours.times) == {1, 2}
    assert not echo.multithreaded and set(echo.times) == {1}


def test_answers_equal_and_first_difference():
    import numpy as np

    x = np.arange(4, dtype=np.uint64)
    y = x.copy()
    y[2] = 7
    assert runner.answers_equal(x, x.copy()) and not runner.answers_equal(x, y)
    assert not runner.answers_equal(x, x[:3]) and not runner.answers_equal(x, list(x))
    assert runner.first_difference(x, y) == "index 2: 7 != 2"
    assert runner.first_difference(x, x[:3]) == "shape (3,) != (4,)"
    assert runner.first_difference(5, 6).startswith("integers differ")
