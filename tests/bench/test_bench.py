"""The comparison command (ntt_cy.bench.main) on tiny sizes: table and JSON output,
agreement checking, missing or failing competitors, options and usage errors, --plot.
Timings themselves are not tested."""
import json
import os
import subprocess
import sys

import pytest
from stand_in_libraries import Broken, ColdStart, Echo, Missing

import ntt_cy
from ntt_cy import bench
from ntt_cy.bench import libraries

FAST = ["--quick", "--repeat", "1", "--budget", "0.01", "-q"]


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
    monkeypatch.setattr(libraries.NttCy, "prepare", boom)
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


def test_quick_reports_a_cold_first_call_at_its_warm_time(libs, tmp_path, capsys):
    # --quick's budget (0.1 s) is shorter than this library's first call: the first call
    # is warm-up, the figures come from the calls after it
    libs(ColdStart(cold_s=0.3))
    path = tmp_path / "r.json"
    assert bench.main(["--quick", "--repeat", "2", "-q", "--only", "ntt", "--sizes", "16",
                       "--json", str(path)]) == 0
    rows = [r for r in json.loads(path.read_text())["results"] if r["library"] == "cold"]
    assert rows and all(r["status"] == "ok" for r in rows)
    assert all(r["median_s"] < 0.05 and max(r["samples_s"]) < 0.05 for r in rows)
    assert all(r["ntt_cy_speedup"] < 1000 for r in rows)


@pytest.mark.parametrize("op", ["polymul", "bigmul"])
def test_ntt_cy_op_is_timed(op, libs, tmp_path):
    assert hasattr(ntt_cy, op)
    libs()
    path = tmp_path / "r.json"
    assert bench.main(FAST + ["--only", op, "--json", str(path)]) == 0
    rows = json.loads(path.read_text())["results"]
    assert rows and all(r["status"] == "ok" and r["median_s"] > 0 for r in rows)


def test_parse_sizes():
    assert bench.parse_sizes("1024, 2^17,2**3,1e6,1<<4") == [1024, 131072, 8, 10**6, 16]
    for bad in ("abc", "0", "", "1e400", "2^-1"):
        with pytest.raises(Exception):
            bench.parse_sizes(bad)
    with pytest.raises(SystemExit):
        bench.main(["--sizes", "x"])


def test_sizes_past_the_limits_are_usage_errors(capsys):
    assert bench.parse_sizes("2^26") == [1 << 26]
    assert bench.parse_bits("2^32") == [1 << 32]
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


def test_runs_as_module():
    root = os.path.dirname(os.path.dirname(os.path.abspath(ntt_cy.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-m", "ntt_cy.bench", *FAST, "--only", "bigmul"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "bigmul (two N-bit ints)" in proc.stdout and "CPython int" in proc.stdout


@pytest.mark.parametrize("argv, named", [(["--only", "bigmul", "--sizes", "2^17"], "--bits"),
                                         (["--only", "ntt", "--bits", "1e6"], "--sizes"),
                                         (["--only", "polymul", "--bits", "1e6"], "--sizes")])
def test_a_size_option_the_workload_ignores_is_a_usage_error(argv, named, capsys):
    assert bench.main([*argv, "-q"]) == 2
    assert named in capsys.readouterr().err


def test_only_takes_several_workloads(libs, tmp_path, capsys):
    libs(Echo())
    path = tmp_path / "r.json"
    assert bench.main(FAST + ["--only", "ntt,polymul", "--sizes", "8", "--json",
                              str(path)]) == 0
    data = json.loads(path.read_text())
    assert {r["op"] for r in data["results"]} == {"ntt", "polymul"}
    assert data["options"]["only"] == "ntt,polymul"
    assert bench.parse_ops("polymul, ntt,polymul") == ("polymul", "ntt")
    with pytest.raises(SystemExit) as exc:
        bench.main(["--only", "ntt,fft", "-q"])
    assert exc.value.code == 2 and "invalid choice 'ntt,fft'" in capsys.readouterr().err
