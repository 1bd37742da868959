"""asv_bench/scripts/small_calls.py runs end to end and refuses bad arguments with a one-line error."""
import json
import pathlib
import subprocess
import sys

TOOL = pathlib.Path(__file__).resolve().parents[2] / "asv_bench" / "scripts" / "small_calls.py"


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=300)


def test_times_every_case_and_writes_json(tmp_path):
    out = tmp_path / "small.json"
    proc = run("--repeat", "1", "--flint", "--json", str(out))
    assert proc.returncode == 0, proc.stderr
    figures = json.loads(out.read_text())
    assert "polymul negacyclic m=8380417 n=256" in figures
    assert all(ours > 0 for ours, _ in figures.values())
    assert figures["polymul linear m=998244353 n=64"][1] > 0   # python-flint's beside it
    assert figures["polymul lists m=998244353 n=256"][1] > 0
    assert "ntt cyclic p=998244353 n=256 of a list" in figures
    assert "flint/ntt_cy" in proc.stdout


def test_rejects_a_repeat_below_one():
    proc = run("--repeat", "0")
    assert proc.returncode == 2 and "--repeat must be >= 1" in proc.stderr
