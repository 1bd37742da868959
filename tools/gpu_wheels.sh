#!/usr/bin/env bash
# Prepare an offline install of PyCUDA (the `cuda` extra of ntt_cy) for a GPU machine that
# has no internet: run it here, where PyPI is reachable, carry the folder, install there.
#
#   tools/gpu_wheels.sh [DEST]            # DEST defaults to .whl (keep it out of git)
#
# PyPI ships PyCUDA only as an sdist, so DEST receives
#   - pycuda-$PYCUDA_VERSION.tar.gz (built on the GPU machine: needs the CUDA toolkit, whose
#     root PyCUDA derives from the nvcc on PATH, a C++ compiler and the Python headers; it
#     links libcuda (the toolkit's stub is enough) and libcurand),
#   - wheels of its runtime dependencies (pytools, platformdirs, mako and what they pull
#     in: markupsafe, typing_extensions, siphash24 ...) and of its build requirements
#     (setuptools, wheel, numpy), for CPython $TARGET_PY on manylinux x86_64.
# Environment: PYTHON (pip to run, default python3), PYCUDA_VERSION (default 2026.1),
# TARGET_PY (default 3.12).
set -euo pipefail

DEST="${1:-.whl}"
PYTHON="${PYTHON:-python3}"
PYCUDA_VERSION="${PYCUDA_VERSION:-2026.1}"
TARGET_PY="${TARGET_PY:-3.12}"
ABI="cp${TARGET_PY/./}"

mkdir -p "$DEST"

# 1. The sdist alone (its dependencies come as target wheels below).
"$PYTHON" -m pip download --no-deps --no-binary pycuda --dest "$DEST" "pycuda==$PYCUDA_VERSION"

# 2. Runtime and build dependencies, resolved (with their own dependencies) for the target.
platforms=()
for tag in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 \
           manylinux2014_x86_64 manylinux1_x86_64; do
    platforms+=(--platform "$tag")
done
"$PYTHON" -m pip download --only-binary=:all: --python-version "$TARGET_PY" \
    --implementation cp --abi "$ABI" --abi abi3 --abi none "${platforms[@]}" \
    --dest "$DEST" \
    "pytools>=2011.2" "platformdirs>=2.2.0" mako \
    setuptools wheel "numpy>=1.24"

echo
echo "Downloaded into $DEST:"
ls -1 "$DEST"
cat <<MSG

On the GPU machine (CPython $TARGET_PY, the CUDA toolkit, g++), install with
    export PATH=/usr/local/cuda/bin:\$PATH   # PyCUDA takes the toolkit root from nvcc's
                                           # path: put the real nvcc first, not a wrapper
    python3 -m pip install --no-index --find-links $DEST pycuda
(It links libcuda and libcurand from <root>/lib64 or lib64/stubs.)  Then check with
    python3 -c "import ntt_cy.cuda as nc; print(nc.is_available())"
    python3 -m pytest tests/test_cuda_gpu.py -q
MSG
