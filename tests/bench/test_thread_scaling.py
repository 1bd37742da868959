"""asv_bench/scripts/thread_scaling.py prints one row per shape, 1 and 2 workers."""
import pathlib
import subprocess
import sys

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "asv_bench" / "scripts"


def test_one_row_per_shape():
    proc = subprocess.run([sys.executable, str(SCRIPTS / "thread_scaling.py"), "--repeat", "1"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.startswith("| 2^")]
    assert [row.split("|")[1].strip() for row in rows] == [
        "2^10", "2^12", "2^17", "2^20", "2^22", "2^6 x 2^14", "2^8 x 2^10"]
    assert all(row.count("ms") == 2 and row.count("x |") == 2 for row in rows)

