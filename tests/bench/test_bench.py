"""Plumbing of the comparison command (ntt_cy.bench) on tiny sizes: agreement
checking, table and JSON output, missing or failing competitors, options.
Timings themselves are not tested."""
import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import ntt_cy
from ntt_cy import bench

FAST = ["--quick", "--repeat", "1", "--budget", "0.01", "-q"]


class Echo(bench.Library):
    """A competitor that answers with ntt_cy's own result, optionally corrupted."""
    name, module, ops = "echo", "numpy", ("ntt",)

    def __init__(self, corrupt=False, name="echo"):
        self.corrupt = corrupt
        self.name = name

    def version(self):
        return "9.9"

    def prepare(self, case, inputs, threads):
        (a,) = inputs
        good = np.asarray(ntt_cy.ntt(a, case.modulus, workers=1))

        def fn():
            out = good.copy()
            if self.corrupt:
                out.flat[3] = (int(out.flat[3]) + 1) % case.modulus
            return out
        return fn


class Missing(bench.Library):
    name, module, ops = "not-a-lib", "ntt_cy_no_such_module_for_tests", ("ntt", "polymul", "bigmul")


class Broken(Echo):
    def prepare(self, case, inputs, threads):
        def fn():
            raise RuntimeError("competitor exploded")
        return fn


@pytest.fixture
def libs(monkeypatch):
    """Replace the competitor list (ntt_cy first) for one test."""
    def use(*extra):
        monkeypatch.setattr(bench, "LIBRARIES", [bench.NttCy(), *extra])
    return use


def test_quick_ntt_prints_table_with_ratios(libs, capsys):
    libs(Echo())
    assert bench.main(FAST + ["--only", "ntt"]) == 0
    out = capsys.readouterr().out
    assert "forward NTT mod 998244353" in out
    assert "forward NTT batch 4 rows mod 998244353" in out
    assert "ns/butterfly" in out
    line = next(l for l in out.splitlines() if "echo" in l and "n = 16" in l)
    assert "9.9" in line and line.count("x") >= 1  # a ratio against ntt_cy


def test_wrong_competitor_answer_fails_the_run(libs, capsys, tmp_path):
    libs(Echo(), Echo(corrupt=True, name="liar"))
    path = tmp_path / "r.json"
    assert bench.main(FAST + ["--only", "ntt", "--json", str(path)]) == 1
    captured = capsys.readouterr()
    assert "answers disagree" in captured.err and "liar" in captured.err
    assert "MISMATCH" in captured.out
    data = json.loads(path.read_text())
    assert data["agree"] is False
    assert any("liar" in m and "index 3" in m for m in data["mismatches"])
    assert all(r["status"] == "ok" for r in data["results"] if r["library"] == "echo")


def test_run_reports_mismatch_without_raising(libs):
    libs(Echo(corrupt=True))
    rows = bench.run([bench.Case("ntt", 8, bench.P30)], repeat=1, budget=0.01, threads=[1])
    (ours, theirs) = rows
    assert ours.status == "ok" and ours.mismatch is None
    assert theirs.status == "MISMATCH" and "disagrees with ntt_cy" in theirs.mismatch


def test_missing_competitor_is_reported_not_an_error(libs, capsys, tmp_path):
    libs(Missing())
    path = tmp_path / "r.json"
    assert bench.main(FAST + ["--only", "ntt", "--json", str(path)]) == 0
    out = capsys.readouterr().out
    assert "not-a-lib" in out and "not installed" in out
    data = json.loads(path.read_text())
    assert data["competitors"]["not-a-lib"] is None
    assert data["agree"] is True


def test_failing_competitor_is_reported_not_fatal(libs, capsys):
    libs(Broken(name="broken"))
    assert bench.main(FAST + ["--only", "ntt"]) == 0
    assert "failed: RuntimeError: competitor exploded" in capsys.readouterr().out


def test_ntt_cy_failure_is_fatal(libs, monkeypatch, capsys):
    libs()

    def boom(self, case, inputs, threads):
        raise RuntimeError("kernel bug")
    monkeypatch.setattr(bench.NttCy, "prepare", boom)
    assert bench.main(FAST + ["--only", "ntt"]) == 1
    assert "kernel bug" in capsys.readouterr().err


def test_json_format(libs, tmp_path, capsys):
    libs(Echo())
    path = tmp_path / "r.json"
    assert bench.main(FAST + ["--only", "ntt", "--sizes", "8,32", "--json", str(path)]) == 0
    data = json.loads(path.read_text())
    for key in ("ntt_cy", "config", "python", "numpy", "threads", "options", "competitors",
                "agree", "mismatches", "results"):
        assert key in data
    assert data["options"]["sizes"] == [8, 32]
    assert data["threads"][0] == 1
    rows = data["results"]
    assert {r["size"] for r in rows} == {8, 32}
    for r in rows:
        assert r["status"] == "ok"
        assert r["median_s"] > 0 and len(r["samples_s"]) >= 1 and r["calls_per_sample"] >= 1
        assert r["threads"] in data["threads"]
    echo = [r for r in rows if r["library"] == "echo"]
    assert echo and all(r["ntt_cy_speedup"] > 0 for r in echo)
    assert all(r["ntt_cy_speedup"] == 1.0 for r in rows if r["library"] == "ntt_cy")


def test_all_ops_quick_with_installed_competitors(capsys):
    """The real competitor list on tiny inputs: whatever is installed must agree."""
    assert bench.main(FAST) == 0
    out = capsys.readouterr().out
    for heading in ("forward NTT mod", "polymul (linear) mod 998244353",
                    "polymul (linear) mod 1337006139375617", "polymul (linear) mod 1000000007",
                    f"polymul (linear) mod {bench.M_BN254}", "bigmul"):
        assert heading in out
    assert "MISMATCH" not in out


@pytest.mark.parametrize("op", ["polymul", "bigmul"])
def test_ntt_cy_op_is_timed(op, libs, tmp_path):
    assert hasattr(ntt_cy, op)
    libs()
    path = tmp_path / "r.json"
    assert bench.main(FAST + ["--only", op, "--json", str(path)]) == 0
    rows = json.loads(path.read_text())["results"]
    assert rows and all(r["status"] == "ok" and r["median_s"] > 0 for r in rows)


def test_default_cases_cover_the_issue_targets():
    cases = set(bench.default_cases())
    for m in (998244353, 1337006139375617, 10**9 + 7, 2**61 - 1):
        assert bench.Case("polymul", 131072, m) in cases
    assert bench.Case("ntt", 2**17, 998244353) in cases
    assert bench.Case("ntt", 2**20, 998244353) in cases
    assert bench.Case("ntt", 2**14, 998244353, rows=64) in cases
    assert {c.size for c in cases if c.op == "bigmul"} == {10**5, 10**6, 10**7}
    assert {c.op for c in bench.default_cases(only="bigmul")} == {"bigmul"}


@pytest.mark.parametrize("sizes", [[2**17], [2**10, 2**17], [2**20], [16]])
def test_sizes_keep_the_batch_within_a_million_elements(sizes):
    batches = [c for c in bench.default_cases(sizes=sizes, only="ntt") if c.rows > 1]
    assert all(c.rows * c.size <= 1 << 20 for c in batches)
    # a batch of one row would repeat the single transform of that size
    assert len(batches) == (0 if min(sizes) >= 1 << 20 else 1)


def test_parse_sizes():
    assert bench._parse_sizes("1024, 2^17,2**3,1e6,1<<4") == [1024, 131072, 8, 10**6, 16]
    for bad in ("abc", "0", "", "1e400", "2^-1"):
        with pytest.raises(Exception):
            bench._parse_sizes(bad)
    with pytest.raises(SystemExit):
        bench.main(["--sizes", "x"])


def test_sizes_past_the_limits_are_usage_errors(capsys):
    assert bench._parse_sizes("2^26") == [1 << 26]
    assert bench._parse_bits("2^32") == [1 << 32]
    for option, value in (("--sizes", "2^27"), ("--sizes", "2^40"), ("--bits", "2^33"),
                          ("--sizes", "10^99999999"), ("--sizes", "1<<99999999")):
        with pytest.raises(SystemExit) as exc:
            bench.main([option, value, "-q"])
        assert exc.value.code == 2
        assert "at most" in capsys.readouterr().err


def test_plot_without_matplotlib(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import raises ImportError
    assert bench.main(FAST + ["--only", "ntt", "--plot", str(tmp_path / "p.png")]) == 2
    assert "needs matplotlib" in capsys.readouterr().err
    assert not (tmp_path / "p.png").exists()


def test_plot_written(libs, tmp_path, capsys):
    import matplotlib  # noqa: F401  (a test dependency: pip install -e ".[test]")
    libs(Echo())
    path = tmp_path / "p.png"
    assert bench.main(FAST + ["--only", "ntt", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("option, name, why", [
    ("--json", "missing/r.json", "no such directory"),
    ("--json", ".", "is a directory"),
    ("--plot", "missing/p.png", "no such directory"),
    ("--plot", "p.txt", "matplotlib cannot write .txt"),
])
def test_bad_output_paths_are_refused_before_the_run(libs, tmp_path, capsys, option, name, why):
    import matplotlib  # noqa: F401  (a test dependency)
    libs(Echo())
    path = str(tmp_path / name)
    assert bench.main(FAST + ["--only", "ntt", option, path]) == 2
    out, err = capsys.readouterr()
    assert why in err and option in err
    assert out == ""   # refused before the run: no table


@pytest.mark.parametrize("budget", ["-1", "nan"])
def test_negative_budget_is_a_usage_error(capsys, budget):
    assert bench.main(["--budget", budget, "-q", "--only", "ntt"]) == 2
    assert "--budget must be >= 0" in capsys.readouterr().err


def test_length_one_transforms_have_no_butterflies_to_quote(libs, capsys):
    libs(Echo())
    assert bench.main(FAST + ["--only", "ntt", "--sizes", "1,2"]) == 0
    out = capsys.readouterr().out
    assert "ns/butterfly" in out   # (n = 2)


def test_measure_loops_fast_calls_and_keeps_first_result():
    calls = []
    result, timing = bench.measure(lambda: calls.append(1) or len(calls), repeat=3, budget=0.05)
    assert result == 1
    assert timing.calls_per_sample > 1 and timing.median_s > 0 and 1 <= len(timing.samples_s) <= 3


def test_fast_calls_get_untimed_calls_before_each_sample(monkeypatch):
    # samples of different libraries alternate; the untimed calls put this library's
    # data back in cache and its threads back to speed after a competitor's call
    # (bench.WARM_UP_BELOW_S, bench.WARM_UP_S)
    calls = []
    monkeypatch.setattr(bench, "WARM_UP_S", 0.0)   # one untimed call
    sampler = bench._Sampler(lambda: calls.append(time.perf_counter()), budget=10.0)
    before = len(calls)
    sampler.sample()
    assert len(calls) - before == sampler.number + 1 and len(sampler.samples) == 1
    monkeypatch.setattr(bench, "WARM_UP_S", 0.02)   # untimed calls for 20 ms
    before = len(calls)
    t_before = time.perf_counter()
    sampler.sample()
    untimed = calls[before:len(calls) - sampler.number]
    first_timed = calls[len(calls) - sampler.number]
    # the timed calls start once 20 ms have passed since the warm-up began (measured
    # from before the call: a pause of this process before the first untimed call,
    # as on a loaded CI host, shortens the untimed calls' own span, not this)
    assert len(untimed) > 1 and first_timed - t_before >= 0.02
    monkeypatch.setattr(bench, "WARM_UP_BELOW_S", 0.0)   # as for calls slower than it
    sampler = bench._Sampler(lambda: calls.append(time.perf_counter()), budget=10.0)
    before = len(calls)
    sampler.sample()
    assert len(calls) - before == sampler.number


def test_a_slow_first_call_does_not_set_the_loop(monkeypatch):
    # the first call prepares (plans, routes, the cost model's measurements) and may
    # take milliseconds where the calls after it take microseconds: the loop size and
    # the untimed calls come from a call after it, or every sample would be one call
    # (ntt-cy bench printed the first size of each modulus 2x slow on one thread)
    state = {"calls": 0}

    def prepares_once():
        state["calls"] += 1
        if state["calls"] == 1:
            time.sleep(0.05)   # past WARM_UP_BELOW_S, within a quarter of the budget

    sampler = bench._Sampler(prepares_once, budget=1.0)
    assert sampler.number > 10 and sampler.warm_up
    # a first call past a quarter of the budget is not repeated (nor a slow call)
    state["calls"] = 0
    sampler = bench._Sampler(prepares_once, budget=0.1)
    assert state["calls"] == 1 and sampler.number == 1


def test_runs_as_module():
    root = os.path.dirname(os.path.dirname(os.path.abspath(ntt_cy.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "ntt_cy.bench", *FAST, "--only", "bigmul"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "bigmul (two N-bit ints)" in proc.stdout and "CPython int" in proc.stdout


class Recorder(Echo):
    """Echo that logs which library made each timed call."""
    log: list = []

    def prepare(self, case, inputs, threads):
        inner = super().prepare(case, inputs, threads)

        def fn():
            Recorder.log.append(self.name)
            return inner()
        return fn


def test_samples_interleave_across_libraries(monkeypatch):
    # Side-by-side ratios: each round samples every library once (order alternating),
    # so no library's samples all come from one stretch of the machine's load.
    Recorder.log = []
    a, b = Recorder(name="a"), Recorder(name="b")
    cases = [c for c in bench.default_cases(quick=True) if c.op == "ntt"][:1]
    rows = bench.run(cases, libraries=[a, b], repeat=4, budget=10.0, threads=[1])
    assert all(r.status == "ok" and len(r.times[1].samples_s) == 4 for r in rows)
    timed = Recorder.log[4:]   # after warm-up + calibration (two calls each)
    runs = [name for i, name in enumerate(timed) if i == 0 or timed[i - 1] != name]
    assert len(runs) >= 4, runs   # a b | b a | a b | b a: the libraries take turns


@pytest.mark.parametrize("argv, named", [(["--only", "bigmul", "--sizes", "2^17"], "--bits"),
                                         (["--only", "ntt", "--bits", "1e6"], "--sizes"),
                                         (["--only", "polymul", "--bits", "1e6"], "--sizes")])
def test_a_size_option_the_workload_ignores_is_a_usage_error(argv, named, capsys):
    assert bench.main([*argv, "-q"]) == 2
    assert named in capsys.readouterr().err
