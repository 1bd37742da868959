#!/usr/bin/env bash
# The kernel tests under AddressSanitizer and UndefinedBehaviorSanitizer.
#
#   tools/sanitize.sh [DEST]     # DEST: the sanitizer copy, default build/sanitize/
#
# 1. copies the working tree's sources (git's tracked and unignored files) to DEST,
#    never touching the in-place build: DEST keeps its own modules and Cython's C
#    files between runs, so a second run recompiles only what changed;
# 2. builds there with NTT_CY_SANITIZE=1 (setup.py: -O1 -g -fsanitize=address,undefined
#    -fno-sanitize-recover=undefined) only what the tests need: the standalone modules,
#    the portable kernel build and the widest SIMD build this CPU runs (as
#    ntt_cy._support.isa.supported_isas() of the tree's own build says, else portable
#    alone); a few minutes on two cores;
# 3. runs TESTS (the tests that reach every kernel: the kernel tests parametrized over
#    the builds on both, the rest through the widest build, NTT_CY_ISA) with
#    the ASan runtime preloaded into Python, halting at the first report, and pytest's
#    -s so that the sanitizers' reports reach the terminal; the tests spread over
#    WORKERS processes (pytest-xdist).
#
# Environment: PYTHON (default python3; needs numpy, Cython, setuptools, pytest,
# pytest-xdist, hypothesis and python-flint), JOBS (compile jobs, default 2), WORKERS
# (pytest-xdist's test processes, default auto: one per core), TESTS (pytest
# arguments, default below).  Linux with gcc or clang (the ASan runtime is found with
# `$CC -print-file-name=libasan.so`, CC default gcc).  Exit status: pytest's.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$(realpath -m "${1:-$root/build/sanitize}")"
PYTHON="${PYTHON:-python3}"
JOBS="${JOBS:-2}"
WORKERS="${WORKERS:-auto}"
CC="${CC:-gcc}"
# The kernel tests (each build's own by parametrisation) and the API tests whose
# routes reach the rest: transforms of every family and lane, the products and CRT
# reconstructions, bigmul's carries, misaligned and strided arrays.
TESTS="${TESTS:-tests/kernels tests/support/test_aligned.py tests/support/test_alignment.py
    tests/test_ntt.py tests/test_plan.py tests/test_poly.py tests/test_bigint.py
    tests/test_routing.py}"

widest="$(cd "$root" && PYTHONPATH="$root" "$PYTHON" -c \
    'from ntt_cy._support.isa import supported_isas; print(supported_isas()[0])' \
    2>/dev/null || echo portable)"
builds="portable"
[ "$widest" != portable ] && builds="portable $widest"
echo "== sanitizer copy in $dest: standalone modules and the kernel builds: $builds"

# 1. the sources (the earlier copy's sources go; its modules and C files stay)
mkdir -p "$dest"
find "$dest" -path "$dest/build" -prune -o -type f ! -name '*.so' ! -name '*.c' -print0 |
    xargs -0 rm -f
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -xf - -C "$dest"
for pyx in "$dest"/ntt_cy/_kernels/build_*.pyx; do
    isa="$(basename "$pyx" .pyx)"; isa="${isa#build_}"
    case " $builds " in *" $isa "*) ;; *) rm -f "$pyx" "${pyx%.pyx}".*.so ;; esac
done

# 2. the build
(cd "$dest" && NTT_CY_SANITIZE=1 "$PYTHON" setup.py -q build_ext --inplace -j "$JOBS")

# 3. the tests, once, with the widest build active: the kernel tests parametrized over
#    the builds check the portable one too; the rest go through the widest
asan="$("$CC" -print-file-name=libasan.so)"
if [ ! -e "$asan" ]; then
    echo "sanitize.sh: no ASan runtime from $CC -print-file-name=libasan.so" >&2
    exit 2
fi
echo "== the kernel tests under ASan + UBSan, NTT_CY_ISA=$widest"
# Never the column pass's transforms of 2^21 and past the last-level cache (its every-
# build cases at 2^21, test_column_pass_2_22 and _2_24: minutes under the sanitizers,
# the same code as its 2^19 and 2^20 cases; the all-(p - 1) row of 2^23, a single
# transform each way, stays: the only one through AVX-512's four-stage sweep), the
# constant-time test (its valgrind
# cannot run a process with the ASan runtime) nor the interrupt tests (calls long on
# purpose, through the kernels the others check).
cd "$dest"
# shellcheck disable=SC2086
exec env NTT_CY_ISA="$widest" PYTHONPATH="$dest" LD_PRELOAD="$asan" \
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    "$PYTHON" -m pytest -q -s -p no:cacheprovider -x -n "$WORKERS" $TESTS \
    -k "not test_column_pass_2_2 and not 2_21" \
    --ignore=tests/kernels/test_constant_time.py --ignore=tests/kernels/test_interrupts.py
