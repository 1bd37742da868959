"""The ntt-cy command line: demo, polymul files, info, bench forwarding, errors."""
import io
import os
import subprocess
import sys
import types

import numpy as np
import pytest

from ntt_cy import cli
from ntt_cy.cli import main

import flint  # test dependency (pip install -e ".[test]"): the independent oracle


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def reference(a, b, p):
    c = flint.fmpz_poly(a) * flint.fmpz_poly(b)
    coeffs = [int(v) % p for v in c.coeffs()]
    return coeffs + [0] * (len(a) + len(b) - 1 - len(coeffs))


# ---------------------------------------------------------------- demo / info / help

def test_demo_runs_and_passes(capsys):
    code, out, err = run(["demo", "--repeat", "1", "--workers", "1", "--seed", "7"], capsys)
    assert code == 0, out + err
    rows = [line for line in out.splitlines() if line.startswith("n=")]
    assert len(rows) == len(cli.DEMO_CASES)
    assert all(" OK " in row for row in rows) and "FAIL" not in out
    assert "all checks passed" in out and "seed 7" in out


def test_demo_reports_a_wrong_product(capsys, monkeypatch):
    import ntt_cy.poly

    real = ntt_cy.poly.polymul

    def broken(a, b, m, **kw):
        c = real(a, b, m, **kw)
        c[len(c) // 2] = (int(c[len(c) // 2]) + 1) % m
        return c

    monkeypatch.setattr(ntt_cy.poly, "polymul", broken)
    monkeypatch.setattr(cli, "DEMO_CASES", cli.DEMO_CASES[:2])
    code, out, _ = run(["demo", "--repeat", "1", "--workers", "1"], capsys)
    assert code == 1
    assert out.count("FAIL (") == 2 and "SOME CHECKS FAILED" in out


def test_info(capsys):
    code, out, _ = run(["info"], capsys)
    assert code == 0 and "version" in out


@pytest.mark.parametrize("argv", [["--help"], ["demo", "--help"], ["polymul", "--help"],
                                  ["info", "--help"]])
def test_help(argv, capsys):
    code, out, _ = run(argv, capsys)
    assert code == 0 and "usage: ntt-cy" in out


def test_help_lists_every_command(capsys):
    _, out, _ = run(["--help"], capsys)
    for command in ("demo", "polymul", "info", "bench"):
        assert command in out


@pytest.mark.parametrize("argv", [[], ["frobnicate"], ["demo", "--repeat", "0"],
                                  ["demo", "--workers", "0"], ["polymul"]])
def test_usage_errors(argv, capsys):
    code, _, err = run(argv, capsys)
    assert code == 2 and "error" in err and "Traceback" not in err


def test_python_dash_m():
    proc = subprocess.run([sys.executable, "-m", "ntt_cy", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0 and "demo" in proc.stdout


# ---------------------------------------------------------------- bench forwarding

def test_bench_forwards_arguments(capsys, monkeypatch):
    seen = []
    fake = types.ModuleType("ntt_cy.bench")
    fake.main = lambda argv: seen.append(argv) or 0
    monkeypatch.setitem(sys.modules, "ntt_cy.bench", fake)
    assert main(["bench", "--sizes", "1024", "--help"]) == 0
    assert seen == [["--sizes", "1024", "--help"]]


def test_bench_missing_module(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ntt_cy.bench", None)  # import raises ModuleNotFoundError
    code, _, err = run(["bench"], capsys)
    assert code == 1 and "ntt_cy.bench" in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- polymul round trip

def write_problem(path, n, p, a, b):
    with open(path, "w") as f:
        f.write(f"{n} {p}\n")
        f.write(" ".join(map(str, a)) + "\n")
        # b spread over several lines: the format is whitespace separated
        for i in range(0, n, 7):
            f.write("\t".join(map(str, b[i:i + 7])) + "\n")


@pytest.mark.parametrize("n,p", [(4, 7340033), (1000, 998244353), (3000, 10**9 + 7),
                                 (300, 2**64 + 13), (5, 1)])
def test_polymul_round_trip(tmp_path, capsys, n, p):
    rng = np.random.default_rng(n)
    a = [int(v) for v in rng.integers(0, min(p, 2**63), size=n)]
    b = [int(v) for v in rng.integers(0, min(p, 2**63), size=n)]
    src, dst = tmp_path / "in.txt", tmp_path / "out.txt"
    write_problem(src, n, p, a, b)
    code, out, err = run(["polymul", str(src), "-o", str(dst), "--workers", "1"], capsys)
    assert code == 0, err
    assert out == "" and err == ""
    got = [int(t) for t in dst.read_text().split()]
    assert got == reference(a, b, p)


def test_polymul_stdin_to_stdout(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("4 7340033\n1 2 3 4\n5 6 7 8\n"))
    code, out, _ = run(["polymul", "-"], capsys)
    assert code == 0
    assert [int(t) for t in out.split()] == reference([1, 2, 3, 4], [5, 6, 7, 8], 7340033)


def test_polymul_kinds(tmp_path, capsys):
    src = tmp_path / "in.txt"
    write_problem(src, 4, 17, [1, 2, 3, 4], [5, 6, 7, 8])
    lin = reference([1, 2, 3, 4], [5, 6, 7, 8], 17)
    for kind, sign in (("cyclic", 1), ("negacyclic", -1)):
        code, out, _ = run(["polymul", str(src), "--kind", kind], capsys)
        assert code == 0
        expected = [(lin[i] + sign * (lin[i + 4] if i + 4 < 7 else 0)) % 17 for i in range(4)]
        assert [int(t) for t in out.split()] == expected


# ---------------------------------------------------------------- malformed input

MALFORMED = {
    "empty": ("", "empty"),
    "blank": ("\n  \n", "empty"),
    "header one field": ("4\n1 2 3 4\n5 6 7 8\n", "line 1"),
    "header four fields": ("4 4 7 9\n1 2 3 4\n5 6 7 8\n", "line 1"),
    "header three fields, values short": ("4 7 9\n1 2 3 4\n5 6 7 8\n", "line 3"),
    "header not integer": ("four 7\n1 2 3 4\n5 6 7 8\n", "line 1"),
    "header float": ("4 7.0\n1 2 3 4\n5 6 7 8\n", "line 1"),
    "header negative p": ("4 -7\n1 2 3 4\n5 6 7 8\n", "line 1"),
    "header zero n": ("0 7\n\n", "line 1"),
    "header zero p": ("2 0\n0 0\n0 0\n", "line 1"),
    "missing numbers": ("4 7\n1 2 3 4\n5 6 0\n", "line 3"),
    "missing b": ("4 7\n1 2 3 4\n", "line 2"),
    "non-integer": ("4 7\n1 2 3 4\n5 x 0 1\n", "line 3"),
    "float coefficient": ("4 7\n1 2.5 3 4\n5 6 0 1\n", "line 2"),
    "hex coefficient": ("4 17\n1 2 3 4\n5 0x6 0 1\n", "line 3"),
    "sign alone": ("4 7\n1 2 3 4\n\n5 - 0 1\n", "line 4"),
    "sign inside": ("4 7\n1 2 3 4\n\n5 6-1 0 1\n", "line 4"),
    "n mismatch (too many)": ("4 7\n1 2 3 4\n5 6 0 1\n2\n", "line 4"),
    "n mismatch (one line)": ("2 7\n1 2 3 4 5 6\n", "line 2"),
    # more digits than Python's int() converts (4300 by default)
    "huge coefficient": ("2 7\n1 2\n3 " + "9" * 5000 + "\n", "line 3"),
    "huge signed coefficient": ("2 7\n1 -" + "9" * 5000 + "\n3 4\n", "line 2"),
    "huge header n": ("9" * 5000 + " 7\n1 2\n3 4\n", "line 1"),
    "huge header p": ("2 " + "9" * 5000 + "\n1 2\n3 4\n", "line 1"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_input_exit_2_one_line(tmp_path, capsys, name):
    text, where = MALFORMED[name]
    src = tmp_path / "bad.txt"
    src.write_text(text)
    code, out, err = run(["polymul", str(src)], capsys)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert where in lines[0], lines[0]


def test_values_are_reduced_as_polymul_reduces_them(tmp_path, capsys):
    # negative values and values >= m (-3 and 9 mod 7), as the API takes them
    src = tmp_path / "in.txt"
    src.write_text("4 7\n1 -3 3 9\n\n5 -6 0 1\n")
    code, out, err = run(["polymul", str(src)], capsys)
    assert code == 0, err
    assert [int(t) for t in out.split()] == reference([1, 4, 3, 2], [5, 1, 0, 1], 7)


def test_leading_zeros_do_not_count_as_digits(tmp_path, capsys):
    src = tmp_path / "in.txt"
    src.write_text("2 7\n" + "0" * 5000 + "3 1\n2 +0" + "0" * 5000 + "5\n")
    code, out, err = run(["polymul", str(src)], capsys)
    assert code == 0, err
    assert [int(t) for t in out.split()] == reference([3, 1], [2, 5], 7)


@pytest.mark.parametrize("header,message", [
    ("100 " + str(2**1200), "modulus"),      # past the CRT's ~990-bit limit at this length
])
def test_polymul_refusals_exit_2_one_line(tmp_path, capsys, header, message):
    n = int(header.split()[0])
    src = tmp_path / "in.txt"
    src.write_text(header + "\n" + " ".join(["1"] * (2 * n)) + "\n")
    code, out, err = run(["polymul", str(src)], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err and message in lines[0], err


@pytest.mark.parametrize("command", ["polymul", "demo"])
def test_too_many_workers_is_a_usage_error(tmp_path, capsys, command):
    src = tmp_path / "in.txt"
    write_problem(src, 2, 7, [1, 2], [3, 4])
    argv = ["polymul", str(src)] if command == "polymul" else ["demo", "--repeat", "1"]
    code, out, err = run(argv + ["--workers", "5000"], capsys)
    assert code == 2 and out == "" and "Traceback" not in err and "at most 1024" in err


def test_unreadable_inputs(tmp_path, capsys):
    code, _, err = run(["polymul", str(tmp_path / "missing.txt")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    binary = tmp_path / "binary.dat"
    binary.write_bytes(b"4 7\n\xff\xfe\x00\x01")
    code, _, err = run(["polymul", str(binary)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    code, _, err = run(["polymul", str(tmp_path)], capsys)  # a directory
    assert code == 2 and len(err.strip().splitlines()) == 1


def test_unwritable_output(tmp_path, capsys):
    src = tmp_path / "in.txt"
    write_problem(src, 2, 7, [1, 2], [3, 4])
    code, _, err = run(["polymul", str(src), "-o", str(tmp_path / "no" / "such" / "dir")], capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- progress

class FakeTTY(io.StringIO):
    def isatty(self):
        return True


def test_progress_only_on_a_tty():
    tty = FakeTTY()
    p = cli.Progress(3, tty)
    p.update(1, "step one")
    p.update(2, "two")
    p.done()
    assert "[1/3] step one" in tty.getvalue() and "[2/3] two" in tty.getvalue()
    plain = io.StringIO()
    q = cli.Progress(3, plain)
    q.update(1, "step")
    q.done()
    assert plain.getvalue() == ""


@pytest.mark.parametrize("unbuffered", [True, False])
@pytest.mark.parametrize("command", [["info"], ["demo", "--repeat", "1"]])
def test_reader_leaving_early_is_no_traceback(command, unbuffered):
    # `ntt-cy info | head -1`: the pipe closes before the command has written all
    # (buffered: the write fails at the last flush; unbuffered: at the first print)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    proc = subprocess.Popen([sys.executable, "-m", "ntt_cy", *command], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err and "ignored" not in err, err


def test_reader_leaving_a_long_product_early_is_exit_1(tmp_path):
    # `ntt-cy polymul big.txt | head -c 10`: one write of the whole line (MBs) into the
    # pipe returned as if done after the 64 KiB it took, and the exit code read 0
    n, p = 200_000, 998244353
    rng = np.random.default_rng(5)
    values = rng.integers(0, p, 2 * n)
    path = tmp_path / "big.txt"
    path.write_text(f"{n} {p}\n" + " ".join(map(str, values.tolist())) + "\n")
    proc = subprocess.Popen([sys.executable, "-m", "ntt_cy", "polymul", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert len(proc.stdout.read(10)) == 10
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 1
    assert "Traceback" not in err and "BrokenPipe" not in err, err
