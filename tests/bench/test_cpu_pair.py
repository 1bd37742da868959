"""asv_bench/scripts/cpu_pair.py runs: one table row per round on two CPUs, a one-line refusal on one."""
import os
import pathlib
import subprocess
import sys

TOOL = pathlib.Path(__file__).resolve().parents[2] / "asv_bench" / "scripts" / "cpu_pair.py"


def test_times_each_cpu_alone_together_and_both_threads():
    proc = subprocess.run([sys.executable, str(TOOL), "--rounds", "2", "--repeat", "3",
                           "--log2n", "12"], capture_output=True, text=True, timeout=300)
    if len(os.sched_getaffinity(0)) < 2:
        assert proc.returncode == 1 and "needs two CPUs" in proc.stderr
        return
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line[:4] in ("| 1 ", "| 2 ")]
    assert len(rows) == 2
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 9
        times = [float(cells[1]), float(cells[2]), *map(float, cells[3].split(" / ")),
                 float(cells[4]), float(cells[5])]
        assert all(t > 0 for t in times)
        assert all(c.endswith("x") for c in cells[6:])
