"""Build ntt_cy's Cython extensions.

OpenMP is probed at build time (compile + link + run a tiny program); without it
the extensions still build and run serially, and `show_config()` says so.

Environment switches:
  NTT_CY_DEBUG=1        Cython boundscheck/wraparound on, -O0 -g (debugging only)
  NTT_CY_NO_OPENMP=1    skip the probe and build serial kernels
  NTT_CY_MARCH_NATIVE=1 add -march=native (opt-in: the build then only runs on CPUs like this one)
"""
import json
import platform
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
DEBUG = os.environ.get("NTT_CY_DEBUG") == "1"

OPENMP_PROBE = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
    int n = 0;
    #pragma omp parallel reduction(+:n)
    n += 1;
    printf("%d\n", n > 0);
    return 0;
}
"""


def _compiler():
    return os.environ.get("CC") or sysconfig.get_config_var("CC").split()[0] or "cc"


def openmp_flags():
    """(compile_args, link_args) that make OpenMP work, or None when it does not."""
    if os.environ.get("NTT_CY_NO_OPENMP") == "1":
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        exe = os.path.join(tmp, "probe")
        with open(src, "w") as f:
            f.write(OPENMP_PROBE)
        try:
            subprocess.run([_compiler(), "-fopenmp", src, "-o", exe], check=True,
                           capture_output=True, timeout=120)
            out = subprocess.run([exe], check=True, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
        if out.stdout.strip() != b"1":
            return None
    return ["-fopenmp"], ["-fopenmp"]


omp = openmp_flags()
if omp is None:
    print("ntt_cy: OpenMP not available, building serial kernels", file=sys.stderr)
compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
if os.environ.get("NTT_CY_MARCH_NATIVE") == "1":
    compile_args.append("-march=native")
compile_args += omp[0] if omp else []
link_args = omp[1] if omp else []



X86_64 = platform.machine().lower() in ("x86_64", "amd64")
# Extra flags of the ISA-specific kernel builds (ntt_cy/_support/isa.py picks one at import).
ISA_FLAGS = {
    "_kernels.build_avx2": ["-mavx2", "-mbmi2", "-mfma"],
    "_kernels.build_avx512": ["-mavx2", "-mbmi2", "-mfma", "-mavx512f", "-mavx512dq",
                              "-mavx512bw", "-mavx512vl", "-mavx512ifma"],
    # the AVX-512 bodies on a model of their intrinsics (simd/emulated_avx512.h), for
    # the tests on AVX2 CPUs
    "_kernels.build_avx512_emulated": ["-mavx2", "-mbmi2", "-mfma", "-DNTT_CY_EMULATE_AVX512"],
}


# Recorded for ntt_cy.show_config().
build_info = {
    "compiler": _compiler(),
    "compile_args": compile_args,
    "openmp": omp is not None,
    "debug": DEBUG,
    "cython": __import__("Cython").__version__,
    "numpy_build": np.__version__,
    "isa_flags": ISA_FLAGS,
}
with open(os.path.join(HERE, "ntt_cy", "_support", "build_info.json"), "w") as f:
    json.dump(build_info, f, indent=1)


# The kernel headers and Cython includes: each module is rebuilt when any of them
# changes (setuptools otherwise compares only a module's own source, so an in-place
# build kept a stale module after an edit to a header alone).
PACKAGE = os.path.join(HERE, "ntt_cy")
KERNELS = os.path.join(PACKAGE, "_kernels")


def _sources(suffixes):
    """Paths (relative to HERE, '/'-separated) of the files under ntt_cy/ ending in suffixes."""
    found = []
    for root, _, files in os.walk(PACKAGE):
        found += [os.path.relpath(os.path.join(root, f), HERE).replace(os.sep, "/")
                  for f in files if f.endswith(suffixes)]
    return sorted(found)


DEPENDS = _sources((".h", ".pxi", ".pxd"))


def extension(path):
    """The extension module compiled from ntt_cy/.../<name>.pyx (its dotted module name)."""
    name = path[:-4].replace("/", ".")
    return Extension(
        name,
        [path],
        depends=DEPENDS,
        include_dirs=[np.get_include(), KERNELS],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args + ISA_FLAGS.get(name[len("ntt_cy."):], []),
        extra_link_args=link_args,
    )


# Every .pyx under ntt_cy/ is an extension module of the same dotted name; the ISA
# builds only on x86-64 (elsewhere the portable build alone, without x86 intrinsics).
CYTHON_MODULES = [path for path in _sources((".pyx",))
                  if X86_64 or path[len("ntt_cy/"):-4].replace("/", ".") not in ISA_FLAGS]

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": not DEBUG,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}

# Extension modules compiled side by side.  The four kernel builds (build_portable,
# build_avx2, build_avx512, build_avx512_emulated) take most of an install; on the 2-core
# Zen 3 VM the C compilation took 257 s one module at a time and 170 s two at a time.
# At most 4 at once: each compiler takes several hundred MiB, and past the four kernel
# builds there is little left to overlap.
BUILD_JOBS = max(1, min(4, os.cpu_count() or 1))


class ParallelBuildExt(build_ext):
    """build_ext with --parallel defaulting to BUILD_JOBS (an explicit -j N still wins)."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = BUILD_JOBS


setup(
    ext_modules=cythonize(
        [extension(path) for path in CYTHON_MODULES],
        compiler_directives=directives,
        include_path=[HERE],
        nthreads=BUILD_JOBS,
    ),
    cmdclass={"build_ext": ParallelBuildExt},
)
