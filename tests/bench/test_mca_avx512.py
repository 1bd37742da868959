"""asv_bench/scripts/mca_avx512.py compiles its wrappers against the kernel headers as they
are (for an AVX-512 CPU; any x86-64 gcc does) and finds each case's main loop, the input
of llvm-mca (which the script needs, this test does not)."""
import importlib.util
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load_tool():
    spec = importlib.util.spec_from_file_location("mca_avx512",
                                                  ROOT / "asv_bench" / "scripts" / "mca_avx512.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


# (a source build always has gcc; an installed wheel may not)
@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc not on PATH: the wrappers are compiled from source")
def test_every_case_compiles_to_one_vector_loop(tmp_path):
    tool = load_tool()
    found = tool.loops(tool.compile_asm("icelake-server", tmp_path))
    for i, name in enumerate(tool.CASES):
        body = max(found[f"case_{i}"], key=len)
        zmm = sum("zmm" in line for line in body)
        # a whole vector loop, all inlined (the permutations' row addresses are scalar)
        assert len(body) >= 60 and zmm >= 0.4 * len(body), (name, len(body), zmm)
        assert not any("call" in line for line in body), name


def test_loops_finds_backward_jumps_only():
    tool = load_tool()
    asm = "\n".join(["f:", ".L2:", "\tvpaddd %zmm0, %zmm1, %zmm1", "\tjne .L2",
                     "\tjmp .L9", ".L9:", "\tret", "g:", ".L3:", "\tnop", "\tjb .L3"])
    assert tool.loops(asm) == {"f": [["\tvpaddd %zmm0, %zmm1, %zmm1", "\tjne .L2"]],
                               "g": [["\tnop", "\tjb .L3"]]}
