"""asv_bench/scripts/avx2_harness.c builds against the kernel headers as they are, and runs
where the CPU runs the AVX2 build, printing every phase it times."""
import pathlib
import shutil
import subprocess

import pytest

from ntt_cy._support.isa import supported_isas

ROOT = pathlib.Path(__file__).resolve().parents[2]


CC = shutil.which("gcc") or shutil.which("cc")


# (a source build always has the compiler; an installed wheel may not)
@pytest.mark.skipif(CC is None, reason="no C compiler on PATH: the harness is compiled from source")
def test_harness_builds_and_runs(tmp_path):
    cc = CC
    exe = tmp_path / "avx2_harness"
    subprocess.run([cc, "-O2", "-Wall", "-Wextra", "-Werror", "-mavx2", "-mbmi2", "-mfma",
                    f"-I{ROOT / 'ntt_cy' / '_kernels'}", str(ROOT / "asv_bench" / "scripts" / "avx2_harness.c"), "-o",
                    str(exe)], check=True, capture_output=True, text=True)
    if "avx2" in supported_isas():
        out = subprocess.run([str(exe)], check=True, capture_output=True, text=True,
                             timeout=120).stdout
        # the in-register rate, five butterfly kinds through L1, then six phases
        # measured against the first
        assert out.count("ns/butterfly") == 12 and out.count("of that rate") == 6
        assert "butterflies in registers" in out and out.count("through L1:") == 5
        assert out.count("ns/value") == 2
