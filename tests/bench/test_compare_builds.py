"""asv_bench/scripts/compare_builds.py loads every kernel build this CPU runs and times
each family on each of them."""
import pathlib
import subprocess
import sys

from ntt_cy._support.isa import supported_isas

TOOL = pathlib.Path(__file__).resolve().parents[2] / "asv_bench" / "scripts" / "compare_builds.py"


def test_one_row_per_lane_width_and_family_one_column_per_build():
    proc = subprocess.run([sys.executable, str(TOOL), "--log2n", "8", "--repeat", "1",
                           "--p", "998244353"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    isas = supported_isas()
    lines = proc.stdout.splitlines()
    assert "| p | lanes | reduction | " + " | ".join(isas) + " |" in lines
    rows = [line for line in lines if line.startswith("| 998244353 |")]
    assert len(rows) == 6   # uint32 and uint64 lanes, three families each
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 3 + len(isas) and cells[-1].endswith("(1.0x)")   # portable last
