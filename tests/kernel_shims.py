"""Small C programs compiled against the kernel headers as the kernel builds are: setup.py
read as a module (its compiler flags per build), and a shim compiled into a shared
library for ctypes, so that a test can call a vector primitive on chosen operands."""
import functools
import importlib.util
import pathlib
import shutil
import subprocess
import sysconfig

import ntt_cy

ROOT = pathlib.Path(__file__).resolve().parent.parent
HEADERS = pathlib.Path(ntt_cy.__path__[0]) / "_kernels"


@functools.cache
def load_setup():
    """setup.py as a module (its setup() call runs only as __main__)."""
    spec = importlib.util.spec_from_file_location("ntt_cy_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiler():
    """The C compiler Python's own build used, or None where it is not on PATH (a source
    build always has it; an installed wheel may not)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return cc if shutil.which(cc) else None


def compile_shim(source, flags, directory):
    """`source` compiled with `flags` against the kernel headers into a shared library in
    `directory` (warnings are errors); its path."""
    directory = pathlib.Path(directory)
    src, lib = directory / "shim.c", directory / "shim.so"
    src.write_text(source)
    cmd = [compiler(), "-O2", "-shared", "-fPIC", *flags, "-Wall", "-Werror", "-I",
           str(HEADERS), str(src), "-o", str(lib)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return lib
