#!/bin/sh
# tests/run.sh BUILD -- run every test program in BUILD/tests, the CLI and
# CUDA program checks and the workload suite; print one line per test and,
# last, the summary "N passed, N failed, N skipped" (a test whose last line
# starts with SKIP is skipped); exit non-zero on failure.
build=${1:-build}
fail=0
skip=0
n=0

# check NAME LINES COMMAND...: run one test; PASS with the last line of its
# output, or FAIL with the last LINES lines.
check() {
    name=$1
    lines=$2
    shift 2
    n=$((n + 1))
    t0=$(date +%s)
    if out=$("$@" 2>&1); then
        secs=$(($(date +%s) - t0))
        last=$(printf '%s\n' "$out" | tail -n 1)
        case $last in
        SKIP*)
            skip=$((skip + 1))
            printf 'SKIP %s: %s\n' "$name" "$last"
            ;;
        *) printf 'PASS %s (%d s): %s\n' "$name" "$secs" "$last" ;;
        esac
    else
        printf 'FAIL %s (%d s)\n' "$name" "$(($(date +%s) - t0))"
        printf '%s\n' "$out" | tail -n "$lines" | sed 's/^/    /'
        fail=$((fail + 1))
    fi
}

for t in "$build"/tests/unit/test_* "$build"/tests/e2e/test_* "$build"/tests/cudart/test_*; do
    case "$t" in *.d) continue ;; esac
    [ -x "$t" ] || continue
    check "${t#"$build"/tests/}" 40 "$t"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    check "$s" 40 env LOCKSTEP="$build/lockstep" sh "$s"
done
# the source folders' layering (each uses only the layers below it)
check tests/layers.sh 40 sh tests/layers.sh
# the CUDA runtime replacement's ABI against CUDA's headers (skips without nvcc)
check tests/cudart/abi.sh 40 sh tests/cudart/abi.sh "$build"
# CUDA programs under `lockstep run` (they skip themselves without nvcc)
check tests/cuda/run.sh 60 sh tests/cuda/run.sh "$build" "$build/lockstep"
# lockstep detcheck on racy and race-free programs (skips without nvcc)
check tests/cuda/detcheck.sh 40 sh tests/cuda/detcheck.sh "$build" "$build/lockstep"
# limits, exit paths, signals, output files, bounded output (skips without nvcc)
check tests/cuda/robust.sh 60 sh tests/cuda/robust.sh "$build" "$build/lockstep"
# fault injection's report under lockstep run (skips without nvcc)
check tests/cuda/inject.sh 40 sh tests/cuda/inject.sh "$build" "$build/lockstep"
# the suite driver on bad command lines and misbehaving workloads
check tests/bench/run_driver.sh 40 sh tests/bench/run_driver.sh "$build/lockstep"
# the workload suite (bench/run) at its small size in functional mode: every
# workload must pass its own check, two runs must give the same output hash
# and the same instruction counts, and no result may need weak memory
# (functional mode is sequentially consistent: --sc).  Then the timing
# model: the suite on each shipped config, race-free outputs equal to
# functional mode's, nondeterminism seeds (tests/bench/timing_suite.sh).
# Both skip without nvcc.
if command -v nvcc >/dev/null 2>&1; then
    check bench/run 60 python3 bench/run --lockstep "$build/lockstep" --mode functional \
        --repeat 2 --sc --json-file "$build/bench-functional.json"
    check tests/bench/timing_suite.sh 60 sh tests/bench/timing_suite.sh "$build"
else
    n=$((n + 2))
    skip=$((skip + 2))
    printf 'SKIP bench/run: nvcc not found; the workloads are CUDA programs\n'
    printf 'SKIP tests/bench/timing_suite.sh: nvcc not found\n'
fi
echo "$((n - fail - skip)) passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
