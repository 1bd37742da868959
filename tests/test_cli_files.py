"""ntt-cy polymul's files (ntt_cy/_cli_files.py): text, CSV and JSON in and out, any two
lengths, a modulus from the header, the input or --modulus, bounded input, and one-line
errors for everything malformed, too large or out of memory."""
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from ntt_cy import _cli_files as files
from ntt_cy.cli import main

import flint  # test dependency (pip install -e ".[test]"): the independent oracle


def reference(a, b, m, kind="linear"):
    c = flint.fmpz_poly(a) * flint.fmpz_poly(b)
    coeffs = [int(v) for v in c.coeffs()] + [0] * (len(a) + len(b) - 1 - len(c.coeffs()))
    if kind != "linear":
        n = len(a)
        sign = -1 if kind == "negacyclic" else 1
        coeffs = [coeffs[i] + (sign * coeffs[i + n] if i + n < len(coeffs) else 0)
                  for i in range(n)]
    return [v % m for v in coeffs]


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err):
    lines = err.strip().splitlines()
    return len(lines) == 1 and "Traceback" not in err and lines[0].startswith("ntt-cy: error:")


A, B = [3, -1, 4, 1, 5], [9, 2, 6]   # any two lengths, negative values reduced
M = 998244353

INPUTS = {
    "text header na nb m": ("5 3 998244353\n3 -1 4\n1 5 9 2 6\n", [], "text"),
    "text without header": ("3 -1 4 1 5\n\n9 2 6\n", ["-m", "998244353"], "text"),
    "csv header": ("5,3,998244353\n3,-1,4,1,5\n9,2,6\n", [], "csv"),
    "csv without header": ("3, -1, 4, 1, 5\r\n9, 2, 6\r\n", ["--modulus", "998244353"], "csv"),
    "json object": ('{"modulus": 998244353, "a": [3, -1, 4, 1, 5], "b": [9, 2, 6]}', [], "json"),
    "json list": ("[[3, -1, 4, 1, 5], [9, 2, 6]]", ["-m", "998244353"], "json"),
    "json object, modulus given twice alike":
        ('{"modulus": 998244353, "a": [3, -1, 4, 1, 5], "b": [9, 2, 6]}',
         ["-m", "998244353"], "json"),
}


@pytest.mark.parametrize("name", sorted(INPUTS))
def test_every_input_format(tmp_path, capsys, name):
    text, options, fmt = INPUTS[name]
    src = tmp_path / "in.dat"   # (no extension: the format is detected)
    src.write_text(text)
    code, out, err = run(["polymul", str(src), *options], capsys)
    assert code == 0, err
    want = reference(A, B, M)
    if fmt == "json":
        assert json.loads(out) == {"modulus": M, "kind": "linear", "product": want}
    else:
        assert out.endswith("\n") and out.count("\n") == 1
        assert [int(t) for t in out.replace(",", " ").split()] == want
        assert ("," in out) == (fmt == "csv")
    code, again, _ = run(["polymul", str(src), *options, "--format", fmt], capsys)
    assert code == 0 and again == out


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_output_format_by_option_or_extension(tmp_path, capsys, fmt):
    src = tmp_path / "in.txt"
    src.write_text("5 3 998244353\n3 -1 4 1 5 9 2 6\n")
    want = reference(A, B, M)
    ext = {"text": ".txt", "csv": ".csv", "json": ".json"}[fmt]
    for argv, target in ((["-o", str(tmp_path / ("out" + ext))], tmp_path / ("out" + ext)),
                         (["--output-format", fmt], None)):
        code, out, err = run(["polymul", str(src), *argv], capsys)
        assert code == 0, err
        written = target.read_text() if target else out
        if fmt == "json":
            assert json.loads(written)["product"] == want
        else:
            assert [int(t) for t in written.replace(",", " ").split()] == want


def test_round_trips_and_kinds(tmp_path, capsys):
    rng = np.random.default_rng(3)
    for m in (7, 2**64, 2**64 + 13, 10**30 + 57):
        a = [int(v) for v in rng.integers(-2**62, 2**62, 40)] + [-(10**40), 10**40 + 3]
        b = [int(v) for v in rng.integers(-2**62, 2**62, 42)]
        src = tmp_path / "in.json"
        src.write_text(json.dumps({"modulus": m, "a": a, "b": b}))
        for kind in ("linear", "cyclic", "negacyclic"):
            code, out, err = run(["polymul", str(src), "--kind", kind], capsys)
            assert code == 0, err
            got = json.loads(out)
            assert got == {"modulus": m, "kind": kind, "product": reference(a, b, m, kind)}


def test_stdin_as_bytes_and_as_text(capsys, monkeypatch):
    want = reference(A, B, M)
    monkeypatch.setattr(sys, "stdin", io.StringIO("3 -1 4 1 5\n9 2 6\n"))
    code, out, _ = run(["polymul", "-", "-m", str(M)], capsys)
    assert code == 0 and [int(t) for t in out.split()] == want
    proc = subprocess.run([sys.executable, "-m", "ntt_cy", "polymul", "-", "--output-format",
                           "csv"], input=b"[[3, -1, 4, 1, 5], [9, 2, 6]]", capture_output=True,
                          timeout=120)
    assert proc.returncode == 2 and b"no modulus" in proc.stderr   # JSON list: -m needed
    proc = subprocess.run([sys.executable, "-m", "ntt_cy", "polymul", "-", "-m", str(M),
                           "--output-format", "csv"], input=b"[[3, -1, 4, 1, 5], [9, 2, 6]]",
                          capture_output=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.decode().strip() == ",".join(map(str, want))


MALFORMED = {
    # (input, options, what the one line names)
    "csv empty field": ("3,,4\n1,2\n", ["-m", "7"], "line 1: an empty CSV field"),
    "csv leading comma": ("1,2\n,3\n", ["-m", "7"], "line 2: an empty CSV field"),
    "text with a comma later": ("2 7\n1 2\n3,4\n", [], "line 3: '3,4' is not an integer"),
    "csv with a float": ("2,7\n1,2.5\n3,4\n", [], "line 2: '2.5' is not an integer"),
    "third line": ("1 2\n3 4\n5 6\n", ["-m", "7"], "line 3: a third line"),
    "a alone": ("1 2 3\n\n", ["-m", "7"], "input holds a alone"),
    "nothing with modulus": ("\n \n", ["-m", "7"], "input holds nothing"),
    "json float": ('{"modulus": 7, "a": [1, 2.0], "b": [1]}', [], "'2.0' is not an integer"),
    "json bool": ('{"modulus": 7, "a": [1, true], "b": [1]}', [], "a[1] = true is not an"),
    "json string": ('{"modulus": 7, "a": [1, "2"], "b": [1]}', [], 'a[1] = "2" is not an'),
    "json empty a": ('{"modulus": 7, "a": [], "b": [1]}', [], "a must be a non-empty list"),
    "json missing b": ('{"modulus": 7, "a": [1]}', [], "needs keys 'a' and 'b'"),
    "json unknown key": ('{"modulus": 7, "a": [1], "b": [1], "c": 1}', [], "unknown key 'c'"),
    "json bad modulus": ('{"modulus": 0, "a": [1], "b": [1]}', [], "'modulus' must be an"),
    "json modulus twice": ('{"modulus": 7, "a": [1], "b": [1]}', ["-m", "11"], "differs"),
    "json three lists": ("[[1], [2], [3]]", ["-m", "7"], "two lists"),
    "json scalar": ("[1, 2]", ["-m", "7"], "a must be a non-empty list"),
    "not json": ('{"modulus": 7, "a": [1,', [], "line 1 column"),
    "json nan": ('{"modulus": 7, "a": [NaN], "b": [1]}', [], "'NaN' is not an integer"),
    "json huge int": ('{"modulus": 7, "a": [' + "9" * 5000 + '], "b": [1]}', [], "JSON"),
    "json named as text": ('{"modulus": 7}', ["--format", "text"], "line 1: '{"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_input_exit_2_one_line(tmp_path, capsys, name):
    text, options, message = MALFORMED[name]
    src = tmp_path / "bad"
    src.write_text(text)
    code, out, err = run(["polymul", str(src), *options], capsys)
    assert code == 2 and out == "" and one_line_error(err), err
    assert message in err, err


def test_endless_or_oversized_input_stops_with_one_line(tmp_path):
    # /dev/zero: NUL bytes, refused in the first chunk
    proc = subprocess.run([sys.executable, "-m", "ntt_cy", "polymul", "/dev/zero"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and one_line_error(proc.stderr), proc.stderr
    assert "byte 0x00: not a text file" in proc.stderr
    # one endless line of digits and spaces, through a pipe that never ends
    writer = subprocess.Popen([sys.executable, "-c",
                               "import sys\nwhile True: sys.stdout.write('1 ' * 4096)"],
                              stdout=subprocess.PIPE)
    try:
        proc = subprocess.run([sys.executable, "-m", "ntt_cy", "polymul", "-", "-m", "7",
                               "--max-bytes", "4M"], stdin=writer.stdout, capture_output=True,
                              text=True, timeout=120)
    finally:
        writer.kill()
        writer.wait()
    assert proc.returncode == 2 and one_line_error(proc.stderr), proc.stderr
    assert "larger than --max-bytes = 4194304 bytes" in proc.stderr
    # and a file just over the limit, from the in-process entry point
    big = tmp_path / "big.txt"
    big.write_bytes(b"2 7\n1 2\n3 4\n" + b" " * 2000)
    assert main(["polymul", str(big), "--max-bytes", "2000"]) == 2
    assert main(["polymul", str(big), "--max-bytes", "2K"]) == 0   # 2012 bytes > 2000, < 2048


def test_a_digit_run_without_end_is_refused():
    writer = subprocess.Popen([sys.executable, "-c",
                               "import sys\nwhile True: sys.stdout.write('9' * 65536)"],
                              stdout=subprocess.PIPE)
    try:
        proc = subprocess.run([sys.executable, "-m", "ntt_cy", "polymul", "-", "-m", "7"],
                              stdin=writer.stdout, capture_output=True, text=True, timeout=120)
    finally:
        writer.kill()
        writer.wait()
    assert proc.returncode == 2 and one_line_error(proc.stderr), proc.stderr
    assert "a value of more than" in proc.stderr


def test_out_of_memory_is_one_line_exit_1(tmp_path, capsys, monkeypatch):
    import ntt_cy.poly

    src = tmp_path / "in.txt"
    src.write_text("2 7\n1 2\n3 4\n")

    def exhausted(*args, **kwargs):
        raise MemoryError("a polymul needs about 9.0 GiB (9663676416 bytes), more than the "
                          "memory available (1.0 GiB)")

    monkeypatch.setattr(ntt_cy.poly, "polymul", exhausted)
    code, out, err = run(["polymul", str(src)], capsys)
    assert code == 1 and out == "" and one_line_error(err)
    assert "out of memory: a polymul needs about 9.0 GiB" in err
    monkeypatch.setattr(files, "read_problem", lambda *a, **k: exhausted())
    monkeypatch.setattr("ntt_cy.cli.read_problem", files.read_problem)
    code, _, err = run(["polymul", str(src)], capsys)
    assert code == 1 and one_line_error(err)


def test_out_of_memory_under_an_address_space_limit(tmp_path):
    # ulimit -v: the product's estimate exceeds what the limit leaves, so polymul refuses
    # it before allocating, and the command says so in one line
    n, m = 1 << 20, 998244353
    src = tmp_path / "big.txt"
    rng = np.random.default_rng(1)
    src.write_text(f"{n} {m}\n" + " ".join(map(str, rng.integers(0, m, 2 * n).tolist())) + "\n")
    script = (
        "import resource, sys\n"
        "from ntt_cy.cli import main\n"
        "size = int(next(l for l in open('/proc/self/status') if l.startswith('VmSize'))"
        ".split()[1]) * 1024\n"
        "resource.setrlimit(resource.RLIMIT_AS, (size + (160 << 20), resource.RLIM_INFINITY))\n"
        f"sys.exit(main(['polymul', {str(src)!r}, '--workers', '1']))\n")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=300)
    assert proc.returncode == 1 and one_line_error(proc.stderr), proc.stderr
    assert "out of memory" in proc.stderr and proc.stdout == ""


@pytest.mark.parametrize("value", ["0", "-1000", "abc", "1.5"])
def test_workers_option_names_what_the_cli_accepts(capsys, value, tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("2 7\n1 2\n3 4\n")
    code, _, err = run(["polymul", str(src), "--workers", value], capsys)
    assert code == 2 and "Traceback" not in err
    assert f"invalid worker count '{value}'" in err
    assert "give a positive count" in err and "negative one to count back" in err
    assert "None" not in err   # (no Python value the command line cannot take)


def test_workers_counting_back(capsys, tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("2 7\n1 2\n3 4\n")
    code, out, _ = run(["polymul", str(src), "--workers", "-1"], capsys)
    assert code == 0 and out.split() == ["3", "3", "1"]


@pytest.mark.parametrize("argv", [["-m", "0"], ["-m", "x"], ["-m", "-7"], ["--max-bytes", "1T"],
                                  ["--format", "xml"], ["--output-format", "yaml"]])
def test_bad_options_are_usage_errors(capsys, argv, tmp_path):
    src = tmp_path / "in.txt"
    src.write_text("2 7\n1 2\n3 4\n")
    code, out, err = run(["polymul", str(src), *argv], capsys)
    assert code == 2 and out == "" and "Traceback" not in err


def test_chunk_boundaries_do_not_change_the_reading(monkeypatch):
    # a token, a header and a line cut by the end of every chunk
    rng = np.random.default_rng(9)
    a = [int(v) for v in rng.integers(-10**12, 10**12, 300)]
    b = [int(v) for v in rng.integers(-10**12, 10**12, 200)] + [10**30]
    text = f"300 201 {M}\n" + " ".join(map(str, a)) + "\n\n" + "\n".join(map(str, b)) + "\n"
    csv = ",".join(map(str, a)) + "\n" + ",".join(map(str, b)) + "\n"
    for size in (1, 2, 3, 7, 64, 1 << 20):
        monkeypatch.setattr(files, "CHUNK_BYTES", size)
        got = files.read_problem(io.BytesIO(text.encode()))
        assert got.a.tolist() == a and got.b.tolist() == b and got.modulus == M, size
        got = files.read_problem(io.BytesIO(csv.encode()), modulus=M)
        assert got.format == "csv" and got.a.tolist() == a and got.b.tolist() == b, size


def test_parse_size():
    assert files.parse_size("4096") == 4096 and files.parse_size("2K") == 2048
    assert files.parse_size("256M") == 256 << 20 and files.parse_size("1g") == 1 << 30
    for bad in ("", "1.5M", "-1", "1T"):
        with pytest.raises(ValueError, match="invalid size"):
            files.parse_size(bad)


def test_read_problem_keeps_int64_where_values_fit():
    got = files.read_problem(io.BytesIO(b"2 7\n1 -2\n3 4\n"))
    assert got.a.dtype == np.int64 and got.b.dtype == np.int64
    got = files.read_problem(io.BytesIO(b"2 7\n1 -2\n3 " + str(2**70).encode() + b"\n"))
    assert got.a.dtype == np.int64 and got.b.dtype == object and got.b.tolist() == [3, 2**70]


def test_large_input_reads_in_reasonable_time(tmp_path):
    import time

    n = 1 << 18
    values = np.random.default_rng(2).integers(-2**40, 2**40, 2 * n)
    data = (f"{n} {M}\n" + " ".join(map(str, values.tolist())) + "\n").encode()
    start = time.perf_counter()
    got = files.read_problem(io.BytesIO(data))
    assert time.perf_counter() - start < 10
    assert np.array_equal(np.concatenate([got.a, got.b]), values)
    assert os.path.basename(files.__file__) == "_cli_files.py"
