#!/bin/sh
# tests/run.sh BUILD -- run every test program in BUILD/tests and the CLI
# checks; print one line per test and a summary; exit non-zero on failure.
build=${1:-build}
fail=0
n=0
for t in "$build"/tests/unit/test_* "$build"/tests/e2e/test_*; do
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
if [ "$fail" -ne 0 ]; then
    echo "$fail of $n test programs failed"
    exit 1
fi
echo "all $n test programs passed"
