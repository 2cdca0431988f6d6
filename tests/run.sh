#!/bin/sh
# tests/run.sh BUILD -- run every test program in BUILD/tests, the CLI and
# CUDA program checks and the workload suite; print one line per test as it
# ends and, last, the summary "N passed, N failed, N skipped" (a test whose
# last line starts with SKIP is skipped); exit non-zero on failure.
#
# The tests run side by side on LOCKSTEP_TEST_JOBS processes (default: the
# number of online CPUs; 1 runs them one after another).  Each test's output
# goes to its own file and is shown when it ends, so lines never mix; no test
# shares files with another (each writes its own folder or a mktemp one).
# The longest tests are queued first.
build=${1:-build}
jobs=${LOCKSTEP_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in
'' | *[!0-9]* | 0*)
    echo "tests/run.sh: LOCKSTEP_TEST_JOBS must be a positive number, not '$jobs'" >&2
    exit 2
    ;;
esac
q=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-tests.XXXXXX") || exit 2
trap 'rm -rf "$q"' EXIT
trap 'exit 130' INT TERM
n=0
last_id=

# quote ARG: ARG as one word for sh
quote() {
    printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}

# add NAME LINES COMMAND...: queue one test; when it fails, show the last
# LINES lines of its output.  With AFTER set to an earlier test's id, the
# test starts once that one has ended.
AFTER=
add() {
    n=$((n + 1))
    id=$(printf '%03d' "$n")
    printf '%s\n' "$1" >"$q/$id.name"
    printf '%s\n' "$2" >"$q/$id.lines"
    [ -n "${AFTER:-}" ] && printf '%s\n' "$AFTER" >"$q/$id.after"
    shift 2
    cmd=
    for a in "$@"; do cmd="$cmd $(quote "$a")"; done
    printf '%s\n' "$cmd" >"$q/$id.cmd"
    last_id=$id
}

# skipped NAME WHY: a test that cannot run here
skipped() {
    add "$1" 1 echo "SKIP $2"
}

# the longest first: the functional suite, which builds the workloads the
# timing-suite parts then run, and the CUDA programs beside it
have_nvcc=
command -v nvcc >/dev/null 2>&1 && have_nvcc=1
# the workload suite (bench/run) at its small size in functional mode: every
# workload must pass its own check, two runs must give the same output hash
# and the same instruction counts, and no result may need weak memory
# (functional mode is sequentially consistent: --sc).  Then the timing
# model (tests/bench/timing_suite.sh), in parts: the suite on each shipped
# config with race-free outputs equal to functional mode's, nondeterminism
# seeds, the determinism modes, DMR, host threads, exact skipping.
# Both skip without nvcc.
if [ -n "$have_nvcc" ]; then
    add bench/run 60 python3 bench/run --lockstep "$build/lockstep" --mode functional \
        --repeat 2 --sc --json-file "$build/bench-functional.json"
    suite=$last_id
else
    skipped bench/run "nvcc not found; the workloads are CUDA programs"
fi
# CUDA programs under `lockstep run` (they skip themselves without nvcc)
add tests/cuda/run.sh 60 sh tests/cuda/run.sh "$build" "$build/lockstep"
for part in dab suite seeds threads dabv gpudet dmr skip; do
    if [ -n "$have_nvcc" ]; then
        AFTER=$suite
        add "tests/bench/timing_suite.sh $part" 60 sh tests/bench/timing_suite.sh "$build" "$part"
        AFTER=
    else
        skipped "tests/bench/timing_suite.sh $part" "nvcc not found"
    fi
done

for t in "$build"/tests/unit/test_* "$build"/tests/e2e/test_* "$build"/tests/cudart/test_*; do
    case "$t" in *.d) continue ;; esac
    [ -x "$t" ] || continue
    add "${t#"$build"/tests/}" 40 "$t"
done
for s in tests/cli/*.sh; do
    [ -f "$s" ] || continue
    add "$s" 40 env LOCKSTEP="$build/lockstep" sh "$s"
done
# the source folders' layering (each uses only the layers below it)
add tests/layers.sh 40 sh tests/layers.sh
# the CUDA runtime replacement's ABI against CUDA's headers (skips without nvcc)
add tests/cudart/abi.sh 40 sh tests/cudart/abi.sh "$build"
# lockstep detcheck on racy and race-free programs (skips without nvcc)
add tests/cuda/detcheck.sh 40 sh tests/cuda/detcheck.sh "$build" "$build/lockstep"
# limits, exit paths, signals, output files, bounded output (skips without nvcc)
add tests/cuda/robust.sh 60 sh tests/cuda/robust.sh "$build" "$build/lockstep"
# fault injection's report under lockstep run (skips without nvcc)
add tests/cuda/inject.sh 40 sh tests/cuda/inject.sh "$build" "$build/lockstep"
# the suite driver on bad command lines and misbehaving workloads
add tests/bench/run_driver.sh 40 sh tests/bench/run_driver.sh "$build/lockstep"

# one test: wait for the one it comes after, run it, keep its result line
# (ID.res) and its status (ID.rc: pass, fail or skip), and show the line
cat >"$q/one" <<'EOF'
q=$1
id=$2
if [ -f "$q/$id.after" ]; then
    dep=$(cat "$q/$id.after")
    while [ ! -f "$q/$dep.rc" ]; do sleep 1; done
fi
name=$(cat "$q/$id.name")
t0=$(date +%s)
if sh "$q/$id.cmd" >"$q/$id.out" 2>&1 </dev/null; then
    secs=$(($(date +%s) - t0))
    last=$(tail -n 1 "$q/$id.out")
    case $last in
    SKIP*)
        printf 'SKIP %s: %s\n' "$name" "$last" >"$q/$id.res"
        rc=skip
        ;;
    *)
        printf 'PASS %s (%d s): %s\n' "$name" "$secs" "$last" >"$q/$id.res"
        rc=pass
        ;;
    esac
else
    { printf 'FAIL %s (%d s)\n' "$name" "$(($(date +%s) - t0))"
      tail -n "$(cat "$q/$id.lines")" "$q/$id.out" | sed 's/^/    /'; } >"$q/$id.res"
    rc=fail
fi
cat "$q/$id.res"
echo "$rc" >"$q/$id.rc.tmp" && mv "$q/$id.rc.tmp" "$q/$id.rc"
EOF

i=1
while [ "$i" -le "$n" ]; do
    printf '%03d\n' "$i"
    i=$((i + 1))
done | xargs -P "$jobs" -n 1 sh "$q/one" "$q"

pass=0
fail=0
skip=0
i=1
while [ "$i" -le "$n" ]; do
    id=$(printf '%03d' "$i")
    case $(cat "$q/$id.rc" 2>/dev/null) in
    pass) pass=$((pass + 1)) ;;
    skip) skip=$((skip + 1)) ;;
    *)
        fail=$((fail + 1))
        [ -f "$q/$id.rc" ] || printf 'FAIL %s: did not run to its end\n' "$(cat "$q/$id.name")"
        ;;
    esac
    i=$((i + 1))
done
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
