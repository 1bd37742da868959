"""Build ntt_cy's Cython extensions: every .pyx under ntt_cy/ is an extension module of
the same dotted name, the ISA kernel builds only on x86-64.

Release builds (the default) compile without debug information and link stripped shared
objects. OpenMP is probed at build time (compile + link + run a tiny program); without it
the extensions still build and run serially, and `show_config()` says so.

Environment switches (set for `pip install`, `python -m build` or `setup.py build_ext`):
  NTT_CY_DEBUG=1           Cython boundscheck/wraparound on, -O0 -g, symbols kept
  NTT_CY_NO_OPENMP=1       skip the probe and build serial kernels
  NTT_CY_MARCH_NATIVE=1    add -march=native (the build then only runs on CPUs like this one)
  NTT_CY_BUILD_EMULATED=1  also compile build_avx512_emulated (the AVX-512 kernel bodies on
                           a model of their intrinsics, for the tests on CPUs without
                           AVX-512); release wheels leave it out
  NTT_CY_SANITIZE=1        AddressSanitizer and UndefinedBehaviorSanitizer at -O1 with
                           symbols (tools/sanitize.sh builds and tests such a copy; Python
                           then needs the ASan runtime preloaded)
"""
import glob
import json
import os
import platform
import subprocess
import sys
import tempfile

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "ntt_cy")
KERNELS = os.path.join(PACKAGE, "_kernels")
BUILD_INFO = "ntt_cy/_support/build_info.json"


def switch(name: str, environ=os.environ) -> bool:
    """Whether the build switch `name` is on (set to "1")."""
    return environ.get(name) == "1"


# Extra flags of the ISA-specific kernel builds (ntt_cy/_support/isa.py picks one at import),
# by module name below ntt_cy.
AVX2_FLAGS = ["-mavx2", "-mbmi2", "-mfma"]
AVX512_FLAGS = AVX2_FLAGS + ["-mavx512f", "-mavx512dq", "-mavx512bw", "-mavx512vl"]
ISA_FLAGS = {
    "_kernels.build_avx2": AVX2_FLAGS,
    "_kernels.build_avx512": AVX512_FLAGS + ["-mavx512ifma"],
    # without IFMA, for AVX-512 CPUs that lack it (Skylake-SP, Cascade Lake)
    "_kernels.build_avx512_noifma": AVX512_FLAGS,
    # the AVX-512 bodies on a model of their intrinsics (simd/emulated_avx512.h), for
    # the tests on AVX2 CPUs
    "_kernels.build_avx512_emulated": AVX2_FLAGS + ["-DNTT_CY_EMULATE_AVX512"],
}
EMULATED = "_kernels.build_avx512_emulated"


def _sources(suffixes):
    """Paths (relative to HERE, '/'-separated) of the files under ntt_cy/ ending in suffixes."""
    found = []
    for root, _, files in os.walk(PACKAGE):
        found += [os.path.relpath(os.path.join(root, f), HERE).replace(os.sep, "/")
                  for f in files if f.endswith(suffixes)]
    return sorted(found)


def module_name(path: str) -> str:
    """'ntt_cy/_kernels/build_avx2.pyx' -> 'ntt_cy._kernels.build_avx2'."""
    return path[:-len(".pyx")].replace("/", ".")


def cython_modules(machine: str = platform.machine(), environ=os.environ) -> list:
    """The .pyx files to compile: every one under ntt_cy/, except the ISA builds outside
    x86-64 (the portable build alone, without x86 intrinsics) and the emulated AVX-512
    build unless NTT_CY_BUILD_EMULATED=1."""
    x86_64 = machine.lower() in ("x86_64", "amd64")
    wanted = []
    for path in _sources((".pyx",)):
        short = module_name(path)[len("ntt_cy."):]
        if short in ISA_FLAGS and not x86_64:
            continue
        if short == EMULATED and not switch("NTT_CY_BUILD_EMULATED", environ):
            continue
        wanted.append(path)
    return wanted


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


def openmp_flags(compiler: str):
    """(compile_args, link_args) that make OpenMP work with `compiler`, or None when it
    does not (or NTT_CY_NO_OPENMP=1)."""
    if switch("NTT_CY_NO_OPENMP"):
        return None
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, "probe.c")
        exe = os.path.join(tmp, "probe")
        with open(src, "w") as f:
            f.write(OPENMP_PROBE)
        try:
            subprocess.run([compiler, "-fopenmp", src, "-o", exe], check=True,
                           capture_output=True, timeout=120)
            out = subprocess.run([exe], check=True, capture_output=True, timeout=60)
        except (OSError, subprocess.SubprocessError):
            return None
        if out.stdout.strip() != b"1":
            return None
    return ["-fopenmp"], ["-fopenmp"]


# NTT_CY_SANITIZE=1: every out-of-bounds access and every undefined operation (a
# misaligned load, a division by zero, a shift past the width, a signed overflow) stops
# the process with a report; -O1 keeps the build a few minutes and the stack traces exact.
SANITIZERS = "-fsanitize=address,undefined"
SANITIZE_COMPILE_ARGS = ["-O1", "-g", SANITIZERS, "-fno-sanitize-recover=undefined",
                         "-fno-omit-frame-pointer"]


def release_flags(debug: bool, sanitize: bool = False):
    """(compile_args, link_args) before OpenMP and ISA flags. -g0 follows (and so
    overrides) the -g of Python's own CFLAGS; GNU ld's -s strips the symbol table, the
    dynamic symbols a module exports stay.  sanitize: NTT_CY_SANITIZE's flags (over
    debug's)."""
    if sanitize:
        return list(SANITIZE_COMPILE_ARGS), [SANITIZERS]
    if debug:
        return ["-O0", "-g"], []
    return ["-O3", "-g0"], (["-s"] if sys.platform.startswith("linux") else [])


# Extension modules compiled side by side: the four kernel builds take most of an install.
# At most 4 at once: each compiler takes several hundred MiB, and past the kernel builds
# there is little left to overlap.
BUILD_JOBS = max(1, min(4, os.cpu_count() or 1))


class BuildExt(build_ext):
    """build_ext that runs Cython when it builds rather than when setup.py is read (so an
    sdist and the package metadata need no Cython run), sets the flags for the compiler in
    use, records them in build_info.json for show_config(), and compiles BUILD_JOBS modules
    at once unless -j says otherwise."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = BUILD_JOBS

    def run(self):
        self.remove_stale_modules()
        self.cythonize()
        super().run()
        if self.inplace:
            self.write_build_info(HERE)

    def remove_stale_modules(self):
        """Delete compiled modules an earlier build left that this one does not make:
        in build_lib every module not built now (bdist_wheel packs all of build_lib, and
        an emulated build made for the tests must not reach a wheel), and for an in-place
        build the modules of the .pyx files it leaves out (an old emulated build would be
        imported and tested in place of the current source)."""
        built = {ext.name for ext in self.extensions}
        wanted = {os.path.normpath(os.path.join(self.build_lib, self.get_ext_filename(name)))
                  for name in built}
        stale = []
        for root, _, files in os.walk(os.path.join(self.build_lib, "ntt_cy")):
            stale += [os.path.join(root, name) for name in files
                      if name.endswith((".so", ".pyd"))
                      and os.path.normpath(os.path.join(root, name)) not in wanted]
        if self.inplace:
            for path in _sources((".pyx",)):
                if module_name(path) not in built:
                    stale += [p for p in glob.glob(os.path.join(HERE, path[:-len(".pyx")] + ".*"))
                              if p.endswith((".so", ".pyd"))]
        for path in stale:
            print(f"ntt_cy: removing {path}, which this build does not make", file=sys.stderr)
            os.remove(path)

    def cythonize(self):
        """Point each extension at the C file Cython makes of its .pyx (the Extension
        objects stay: setuptools has already annotated them)."""
        from Cython.Build import cythonize

        debug = switch("NTT_CY_DEBUG")
        directives = {
            "language_level": 3,
            "boundscheck": debug,
            "wraparound": debug,
            "cdivision": not debug,
            "initializedcheck": debug,
            "embedsignature": True,
        }
        translated = cythonize(self.extensions, compiler_directives=directives,
                               include_path=[HERE], nthreads=BUILD_JOBS)
        sources = {ext.name: ext.sources for ext in translated}
        for ext in self.extensions:
            ext.sources = sources[ext.name]

    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            sys.exit("ntt_cy needs gcc or clang: its kernels use unsigned __int128, which "
                     "MSVC does not have")
        compiler = self.compiler.compiler_so[0]
        debug = switch("NTT_CY_DEBUG")
        compile_args, link_args = release_flags(debug, switch("NTT_CY_SANITIZE"))
        if switch("NTT_CY_MARCH_NATIVE"):
            compile_args.append("-march=native")
        omp = openmp_flags(compiler)
        if omp is None:
            print("ntt_cy: OpenMP not available, building serial kernels", file=sys.stderr)
        else:
            compile_args += omp[0]
            link_args += omp[1]
        for ext in self.extensions:
            ext.extra_compile_args = compile_args + ISA_FLAGS.get(ext.name[len("ntt_cy."):], [])
            ext.extra_link_args = link_args
        self.build_info = {
            "compiler": os.path.basename(compiler),
            "compile_args": compile_args,
            "openmp": omp is not None,
            "debug": debug,
            "sanitize": switch("NTT_CY_SANITIZE"),
            "cython": __import__("Cython").__version__,
            "numpy_build": __import__("numpy").__version__,
            "isa_flags": {name: flags for name, flags in ISA_FLAGS.items()
                          if any(ext.name == "ntt_cy." + name for ext in self.extensions)},
        }
        self.write_build_info(self.build_lib)
        super().build_extensions()

    def write_build_info(self, root):
        path = os.path.join(root, *BUILD_INFO.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(self.build_info, f, indent=1)


def extensions() -> list:
    """The Extension of every module cython_modules() lists (flags come in BuildExt)."""
    import numpy as np

    # The kernel headers and Cython includes: each module is rebuilt when any of them
    # changes (setuptools otherwise compares only a module's own source, so an in-place
    # build kept a stale module after an edit to a header alone).
    depends = _sources((".h", ".pxi", ".pxd"))
    return [Extension(module_name(path), [path], depends=depends,
                      include_dirs=[np.get_include(), KERNELS],
                      define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")])
            for path in cython_modules()]


if __name__ == "__main__":   # also how pip and `python -m build` run it
    setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt})
