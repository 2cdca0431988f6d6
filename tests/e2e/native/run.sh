#!/bin/sh
# run.sh -- build the end-to-end drivers against lockstep_cuda.c (the API
# over the CUDA driver API) and run them on a real GPU, to check the drivers'
# CPU references against hardware.  Needs nvcc's CUDA toolkit and a GPU.
#
#   sh tests/e2e/native/run.sh [test_name ...]    # default: every driver but faults
set -u
cd "$(dirname "$0")/../../.."
CUDA=${CUDA:-/usr/local/cuda}
OUT=${E2E_NATIVE_OUT:-/tmp/e2e-native}
mkdir -p "$OUT"
if [ $# -eq 0 ]; then
    set -- $(cd tests/e2e && ls test_*.c | sed 's/\.c$//' | grep -v -e '^test_faults$' -e '^test_conformance$')
fi
fail=0
for t in "$@"; do
    if ! gcc -std=c11 -O1 -g -Wall -Wextra ${E2E_CFLAGS:-} -D_POSIX_C_SOURCE=200809L -DLOCKSTEP_E2E_NATIVE \
        -DLOCKSTEP_SRC_DIR="\"$(pwd)\"" -Iinclude -Itests -I"$CUDA/include" \
        -o "$OUT/$t" "tests/e2e/$t.c" tests/e2e/native/lockstep_cuda.c \
        -L"$CUDA/lib64/stubs" -lcuda -lm; then
        echo "== $t: BUILD FAILED"; fail=1; continue
    fi
    if "$OUT/$t" >"$OUT/$t.log" 2>&1; then
        echo "== $t: $(tail -n 1 "$OUT/$t.log")"
    else
        echo "== $t: FAILED"; cat "$OUT/$t.log" | head -n 80; fail=1
    fi
done
exit $fail
