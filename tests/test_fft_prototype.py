"""tools/fft_prototype.c (a double-precision FFT product, measured against one prime of
the CRT product) builds warning-free, and where the CPU runs AVX2 its values agree with
exact coefficients, alone and through tools/fft_vs_prime.py (figures in the journal)."""
import pathlib
import re
import shutil
import subprocess
import sys

from ntt_cy._isa import supported_isas

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_prototype_builds_and_its_product_is_accurate(tmp_path):
    cc = shutil.which("gcc") or shutil.which("cc")
    assert cc, "no C compiler on PATH"
    exe = tmp_path / "fft_prototype"
    subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-Werror", "-mavx2", "-mfma",
                    str(ROOT / "tools" / "fft_prototype.c"), "-o", str(exe), "-lm"],
                   check=True, capture_output=True, text=True)
    if "avx2" not in supported_isas():
        return   # built for AVX2: it runs where the AVX2 kernel build does
    out = subprocess.run([str(exe)], check=True, capture_output=True, text=True,
                         timeout=300).stdout
    assert out.count(" us\n") == 6 and "ns/bf" in out
    error_log2 = float(re.search(r"max \|error\|.*\(2\^(-?[\d.]+)\)", out).group(1))
    assert error_log2 < 40
    # the side-by-side script: both timed, the prototype's values checked (exit 0)
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "fft_vs_prime.py"),
                           "--repeat", "3"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "one prime (padded_product 2^18)" in proc.stdout
    assert "prototype / one prime (medians):" in proc.stdout
    assert "largest |error| at 17 sampled coefficients" in proc.stdout
