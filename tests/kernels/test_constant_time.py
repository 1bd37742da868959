"""Secret-taint check of the calls the guide names constant-time ("Security and
constant time" in docs/guide.md): valgrind's memcheck runs tests/kernels/
constant_time_calls.py with each call's input marked undefined, and reports every
branch and every memory address that depends on it.

Runs the portable and AVX2 kernel builds and the emulated AVX-512 build (the AVX-512
kernels over a model of their intrinsics in AVX2 code); valgrind cannot run AVX-512
instructions, so the real AVX-512 build is checked by timing only
(asv_bench/scripts/dudect.py).  A small C shim
compiled here exposes memcheck's client requests to Python through ctypes.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import ntt_cy
from ntt_cy._support.cpu import cpu_features

VALGRIND = shutil.which("valgrind")
GCC = shutil.which("gcc")
MEMCHECK_H = Path("/usr/include/valgrind/memcheck.h")
CALLS = Path(__file__).with_name("constant_time_calls.py")
SHIM = r"""
#include <stddef.h>
#include <valgrind/memcheck.h>
void mark_secret(void *p, size_t n) { VALGRIND_MAKE_MEM_UNDEFINED(p, n); }
void mark_public(void *p, size_t n) { VALGRIND_MAKE_MEM_DEFINED(p, n); }
unsigned long error_count(void) { return VALGRIND_COUNT_ERRORS; }
"""

pytestmark = pytest.mark.skipif(
    VALGRIND is None or GCC is None or not MEMCHECK_H.exists(),
    reason="needs valgrind, gcc and valgrind/memcheck.h (Debian: valgrind)")


@pytest.fixture(scope="module")
def shim(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ct")
    (folder / "shim.c").write_text(SHIM)
    subprocess.run([GCC, "-O2", "-shared", "-fPIC", "-o", str(folder / "shim.so"),
                    str(folder / "shim.c")], check=True)
    return folder / "shim.so"


@pytest.mark.parametrize("isa", ["portable", "avx2", "avx512_emulated"])
def test_no_branch_or_index_depends_on_the_input(isa, shim):
    if "avx2" not in cpu_features() and isa != "portable":
        pytest.skip(f"the {isa} build needs an AVX2 CPU")
    if importlib.util.find_spec(f"ntt_cy._kernels.build_{isa}") is None:
        pytest.skip(f"the {isa} build is not compiled (NTT_CY_BUILD_EMULATED=1 builds it)")
    log = shim.with_name(f"valgrind-{isa}.log")
    root = str(Path(ntt_cy.__file__).resolve().parents[1])
    env = dict(os.environ, NTT_CY_ISA=isa, PYTHONMALLOC="malloc", OMP_NUM_THREADS="1",
               PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    done = subprocess.run([VALGRIND, "--tool=memcheck", "--error-limit=no",
                           f"--log-file={log}", sys.executable, str(CALLS), str(shim)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    errors = json.loads(done.stdout.splitlines()[-1])
    control = errors.pop("control ntt without assume_reduced")
    assert control > 0, "the secret marking does not reach the kernels"
    assert len(errors) == 280
    tainted = {label: count for label, count in errors.items() if count}
    assert not tainted, (f"secret-dependent branches or addresses in {tainted}; valgrind "
                         f"log:\n{log.read_text()[-6000:]}")
