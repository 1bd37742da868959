"""asv_bench/scripts/ns_per_butterfly.py refuses what it cannot time with a one-line error."""
import pathlib
import subprocess
import sys

TOOL = pathlib.Path(__file__).resolve().parents[2] / "asv_bench" / "scripts" / "ns_per_butterfly.py"


def run(*args):
    return subprocess.run([sys.executable, str(TOOL), *args], capture_output=True, text=True,
                          timeout=120)


def test_rejects_a_modulus_that_is_not_prime():
    proc = run("--p", "15")
    assert proc.returncode == 2 and "not a prime" in proc.stderr


def test_rejects_a_length_out_of_range():
    proc = run("--log2n", "-1")
    assert proc.returncode == 2 and "--log2n must lie in 1..40" in proc.stderr


def test_rejects_a_length_the_prime_has_no_root_for():
    proc = run("--p", "1045430273", "--log2n", "22")   # 2^20 || p - 1
    assert proc.returncode == 2 and "2^22 does not divide p - 1" in proc.stderr


def test_sizes_without_any_supported_length_fail_cleanly():
    proc = run("--sizes", "--p", "7")
    assert proc.returncode == 1 and "supports none of the lengths" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_fields_table_names_each_field_and_family():
    proc = run("--fields", "--log2n", "6")
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| ") and "x |" in line]
    assert any("| Goldilocks | uint64 |" in r for r in rows)
    assert any("| BabyBear | uint32 | lazy |" in r for r in rows)
    assert all(r.endswith("x |") for r in rows)


def test_fields_rejects_a_length_out_of_range():
    proc = run("--fields", "--log2n", "30")
    assert proc.returncode == 2 and "--fields needs --log2n in 4..24" in proc.stderr


def test_sizes_prints_ratios_to_2_17():
    proc = run("--sizes", "--p", "998244353", "--range", "16:17")
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| 998244353 |")]
    assert [r.split(" | ")[2] for r in rows] == ["montgomery", "barrett", "lazy"]
    assert all(r.endswith(" | 1.00 |") for r in rows)   # the 2^17 column, its own ratio


def test_sizes_rejects_a_range_without_2_17():
    proc = run("--sizes", "--range", "18:20")
    assert proc.returncode == 2 and "--range needs 1 <= LO <= 17 <= HI <= 30" in proc.stderr
