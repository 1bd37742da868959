"""show_config(): what this build of ntt_cy is made of."""
from __future__ import annotations

import json
import os
import platform
import sys
from typing import IO, Any

from ntt_cy._support import openmp_env as _openmp_env
from ntt_cy._support.threads import (PARALLEL_MIN_ELEMENTS, cpu_count, forked_single_thread,
                                     get_workers)


def build_info() -> dict[str, Any]:
    path = os.path.join(os.path.dirname(__file__), "build_info.json")
    try:
        with open(path) as f:
            info: dict[str, Any] = json.load(f)
            return info
    except OSError:
        return {}


def kernel_isa(info: dict[str, Any]) -> str:
    from ntt_cy._support.isa import ACTIVE_ISA, EMULATED, checkable_isas, supported_isas

    forced = os.environ.get("NTT_CY_ISA")
    how = f"forced by NTT_CY_ISA={forced}" if forced else "widest this CPU supports"
    native = ", -march=native build" if "-march=native" in info.get("compile_args", []) else ""
    emulated = (f"; the tests also run {EMULATED}, the AVX-512 code on emulated intrinsics"
                if EMULATED in checkable_isas() else "")
    return f"{ACTIVE_ISA} ({how}; runnable here: {', '.join(supported_isas())}{native}{emulated})"


def threads(info: dict[str, Any]) -> str:
    """How many threads workers=None gives a kernel here, and why when it is one."""
    if not info.get("openmp"):
        return "1 (built without OpenMP)"
    if forked_single_thread():
        return ("1 in this process: forked after its parent started OpenMP threads, "
                "which do not survive fork (docs/guide.md, \"Forked processes\")")
    return (f"{get_workers()} (workers=None: get_workers(); jobs under {PARALLEL_MIN_ELEMENTS} "
            f"elements use 1)")


def _kernel_module() -> str:
    from ntt_cy._support.isa import ACTIVE_ISA

    return f"_kernels.build_{ACTIVE_ISA}"


def config() -> dict[str, object]:
    from ntt_cy import __version__

    info = build_info()
    try:
        from ntt_cy import cuda

        gpu = "available" if cuda.is_available() else "not available"
    except ImportError:
        gpu = "not available"
    return {
        "version": __version__,
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "compiler": info.get("compiler", "unknown"),
        "compile_args": " ".join(info.get("compile_args", [])),
        "kernel_flags": " ".join(info.get("isa_flags", {}).get(_kernel_module(), [])) or "(none)",
        "openmp": "on" if info.get("openmp") else "off (serial kernels)",
        "omp_wait_policy": _openmp_env.described,
        "cores": cpu_count(),
        "threads": threads(info),
        "kernel_isa": kernel_isa(info),
        "debug_build": bool(info.get("debug", False)),
        "cython": info.get("cython", "unknown"),
        "gpu (cuda)": gpu,
    }


def show_config(file: IO[str] | None = None) -> None:
    """Print what this build of ntt_cy is made of: version, compiler and flags, OpenMP,
    threads, kernel ISA, GPU.

    One ``key : value`` line each, as ``ntt-cy info`` prints them: the version, the
    Python version and platform, the compiler and its flags (those of the kernel build
    in use too), OpenMP and its wait policy, the usable cores, the threads
    ``workers=None`` gives, the kernel ISA in use and why, whether it is a debug build,
    the Cython version and whether a CUDA GPU is available.

    Parameters
    ----------
    file : file-like, optional
        Where to print (a text stream); None: ``sys.stdout``.

    See Also
    --------
    get_workers : The thread count of ``workers=None``.

    Examples
    --------
    >>> import io, ntt_cy
    >>> text = io.StringIO()
    >>> ntt_cy.show_config(text)
    >>> [line.split(":")[0].strip() for line in text.getvalue().splitlines()][:3]
    ['version', 'python', 'platform']
    >>> "kernel_isa" in text.getvalue()
    True
    """
    cfg = config()
    width = max(map(len, cfg))
    for key, value in cfg.items():
        print(f"{key:<{width}} : {value}", file=file or sys.stdout)
