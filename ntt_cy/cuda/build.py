"""Sources of the CUDA kernels and their ahead-of-time build.

    python -m ntt_cy.cuda.build [--arch 80 --arch 90] [--nvcc PATH] [--output-dir DIR]

writes ntt.fatbin (SASS for each arch plus PTX of the newest, for newer GPUs) and
ntt.fatbin.sha256, the digest of the sources it was built from.  The loader uses the fatbin
only while that digest matches the sources next to it; otherwise it compiles
`amalgamated_source()` at run time with PyCUDA's SourceModule.
"""
from __future__ import annotations

import argparse
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = [
    "SOURCE_DIR",
    "NVCC_FLAGS",
    "DEFAULT_ARCHS",
    "source_files",
    "source_digest",
    "amalgamated_source",
    "nvcc_command",
    "prebuilt_fatbin",
    "build_fatbin",
]

SOURCE_DIR = Path(__file__).resolve().parent
MAIN_SOURCE = SOURCE_DIR / "ntt.cu"
FATBIN = SOURCE_DIR / "ntt.fatbin"
NVCC_FLAGS = ("-O3", "-std=c++17")
DEFAULT_ARCHS = ("80", "90")

_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"\s*$')
_PRAGMA_ONCE = re.compile(r"^\s*#\s*pragma\s+once\s*$")


def source_files() -> list:
    """ntt.cu and the headers it includes, in a fixed order."""
    return sorted(SOURCE_DIR.glob("*.cuh")) + [MAIN_SOURCE]


def source_digest() -> str:
    h = hashlib.sha256()
    for path in source_files():
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def amalgamated_source() -> str:
    """ntt.cu with its local headers inlined (each once), so the source alone determines
    the compiled module (and PyCUDA's cache key)."""
    seen: set = set()

    def expand(path: Path) -> list:
        out = [f"// ---- {path.name}"]
        for line in path.read_text().splitlines():
            m = _INCLUDE.match(line)
            if m:
                inc = SOURCE_DIR / m.group(1)
                if inc not in seen:
                    seen.add(inc)
                    out += expand(inc)
            elif not _PRAGMA_ONCE.match(line):
                out.append(line)
        return out

    return "\n".join(expand(MAIN_SOURCE)) + "\n"


def nvcc_command(output: Path, archs=DEFAULT_ARCHS, nvcc: str = "nvcc", kind: str = "fatbin") -> list:
    """nvcc command line building `kind` ("fatbin" or "cubin"; a cubin takes one arch)."""
    archs = [str(a) for a in archs]
    if kind == "cubin":
        if len(archs) != 1:
            raise ValueError("a cubin is built for exactly one arch")
        targets = [f"-arch=sm_{archs[0]}"]
    else:
        targets = [f"-gencode=arch=compute_{a},code=sm_{a}" for a in archs]
        newest = max(archs, key=int)
        targets.append(f"-gencode=arch=compute_{newest},code=compute_{newest}")
    return [nvcc, *NVCC_FLAGS, f"-{kind}", *targets, "-I", str(SOURCE_DIR), "-o", str(output),
            str(MAIN_SOURCE)]


def prebuilt_fatbin():
    """Path of ntt.fatbin if it exists and was built from the current sources, else None."""
    stamp = FATBIN.with_name(FATBIN.name + ".sha256")
    try:
        if FATBIN.is_file() and stamp.read_text().strip() == source_digest():
            return FATBIN
    except OSError:
        pass
    return None


def build_fatbin(output_dir=SOURCE_DIR, archs=DEFAULT_ARCHS, nvcc: str = "nvcc") -> Path:
    """Compile ntt.fatbin (and its stamp) into output_dir; raises RuntimeError on failure."""
    exe = shutil.which(nvcc)
    if exe is None:
        raise RuntimeError(f"{nvcc} not found; install the CUDA toolkit or pass --nvcc")
    output = Path(output_dir) / FATBIN.name
    proc = subprocess.run(nvcc_command(output, archs, exe), capture_output=True, text=True)
    if proc.returncode:
        raise RuntimeError(f"nvcc failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    output.with_name(output.name + ".sha256").write_text(source_digest() + "\n")
    return output


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arch", action="append", help="SM version, e.g. 90 (repeatable)")
    parser.add_argument("--nvcc", default="nvcc")
    parser.add_argument("--output-dir", default=str(SOURCE_DIR))
    args = parser.parse_args(argv)
    try:
        path = build_fatbin(args.output_dir, tuple(args.arch or DEFAULT_ARCHS), args.nvcc)
    except RuntimeError as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"wrote {path} ({path.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
