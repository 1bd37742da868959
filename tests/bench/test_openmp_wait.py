"""asv_bench/scripts/openmp_wait.py names the OpenMP waiting in force and prints its six
medians."""
import pathlib
import subprocess
import sys

SCRIPTS = pathlib.Path(__file__).resolve().parents[2] / "asv_bench" / "scripts"


def test_prints_the_setting_and_six_medians():
    proc = subprocess.run([sys.executable, str(SCRIPTS / "openmp_wait.py")],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    setting, medians = proc.stdout.strip().splitlines()
    assert "GOMP_SPINCOUNT" in setting or "OMP_WAIT_POLICY" in setting
    figures = [float(tok) for tok in medians.replace("|", " ").split()
               if tok.replace(".", "").isdigit()]
    assert len(figures) == 6 and all(f > 0 for f in figures)
