#!/bin/sh
# run.sh -- build the end-to-end drivers against lockstep_cuda.c (the API
# over the CUDA driver API) and run them on a real GPU, to check the drivers'
# CPU references against hardware.  Needs nvcc's CUDA toolkit and a GPU.
#
#   sh tests/e2e/native/run.sh [test_name ...]
#
# The default list is the CUDA-program drivers described in tests/e2e/README.md
# except test_faults (a CUDA context does not survive a fault).  Programs and
# logs go to $E2E_NATIVE_OUT (default /tmp/e2e-native); E2E_CFLAGS adds compiler
# flags, e.g. E2E_CFLAGS=-DE2E_MAX_REPORT=100 to print more mismatches.
set -u
cd "$(dirname "$0")/../../.."
CUDA=${CUDA:-/usr/local/cuda}
OUT=${E2E_NATIVE_OUT:-/tmp/e2e-native}
mkdir -p "$OUT"
if [ $# -eq 0 ]; then
    set -- test_int_arith test_float_arith test_double_arith test_control_flow \
        test_shared_mem test_atomics test_warp_intrinsics test_local_arrays \
        test_device_functions test_struct_params test_printf test_module_vars
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
