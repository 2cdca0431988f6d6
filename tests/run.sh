#!/bin/sh
# tests/run.sh BUILD -- run every test program in BUILD/tests and the CLI
# checks; print one line per test and a summary; exit non-zero on failure.
build=${1:-build}
fail=0
n=0
for t in "$build"/tests/unit/test_* "$build"/tests/e2e/test_* "$build"/tests/cudart/test_*; do
    case "$t" in *.d) continue ;; esac
    [ -x "$t" ] || continue
    n=$((n + 1))
    name=${t#"$build"/tests/}
    if out=$("$t" 2>&1); then
        printf 'PASS %s: %s\n' "$name" "$(printf '%s\n' "$out" | tail -n 1)"
    else
        printf 'FAIL %s\n' "$name"
        printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    n=$((n + 1))
    if out=$(LOCKSTEP="$build/lockstep" sh "$s" 2>&1); then
        printf 'PASS %s: %s\n' "$s" "$(printf '%s\n' "$out" | tail -n 1)"
    else
        printf 'FAIL %s\n' "$s"
        printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
done
# the CUDA runtime replacement's ABI against CUDA's headers (skips without nvcc)
n=$((n + 1))
if out=$(sh tests/cudart/abi.sh "$build" 2>&1); then
    printf 'PASS tests/cudart/abi.sh: %s\n' "$(printf '%s\n' "$out" | tail -n 1)"
else
    printf 'FAIL tests/cudart/abi.sh\n'
    printf '%s\n' "$out" | tail -n 40 | sed 's/^/    /'
    fail=$((fail + 1))
fi
# CUDA programs under `lockstep run` (they skip themselves without nvcc)
if [ -f tests/cuda/run.sh ]; then
    n=$((n + 1))
    if out=$(sh tests/cuda/run.sh "$build" "$build/lockstep" 2>&1); then
        printf 'PASS tests/cuda/run.sh: %s\n' "$(printf '%s\n' "$out" | tail -n 1)"
    else
        printf 'FAIL tests/cuda/run.sh\n'
        printf '%s\n' "$out" | tail -n 60 | sed 's/^/    /'
        fail=$((fail + 1))
    fi
fi
if [ "$fail" -ne 0 ]; then
    echo "$fail of $n test programs failed"
    exit 1
fi
echo "all $n test programs passed"
