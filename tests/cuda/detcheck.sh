#!/bin/sh
# tests/cuda/detcheck.sh BUILD_DIR LOCKSTEP_BIN -- `lockstep detcheck` on
# CUDA programs (tests/cuda/detcheck/*.cu, built with nvcc -cudart shared):
#   - a racy program (tickets.cu) is reported nondeterministic under the
#     timing model (exit 1), with the first launch and copy that differ, and
#     deterministic in functional mode (exit 0), where nothing is seeded,
#     and under GPUDet (--det gpudet) and DAB (--det dab);
#   - a plain data race (plainrace.cu) is nondeterministic under DAB, which
#     orders atomics only, and deterministic under GPUDet;
#   - a program whose only difference is device memory left at exit
#     (leftover.cu) is caught, naming the allocation and the byte;
#   - --json is valid JSON that says the same;
#   - bad command lines and a missing program exit 2 with a message.
# Prints PASS/FAIL per check; exits non-zero if any failed; SKIP without nvcc.
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR LOCKSTEP_BIN" >&2
    exit 2
fi
if ! command -v nvcc >/dev/null 2>&1; then
    echo "SKIP: nvcc not found; these checks run CUDA programs"
    exit 0
fi
here=$(pwd)
build=$1
lockstep=$2
case $build in /*) ;; *) build=$here/$build ;; esac
case $lockstep in /*) ;; */*) lockstep=$here/$lockstep ;; esac
cd "$(dirname "$0")/../.." || exit 2
dir=$build/cuda/detcheck
mkdir -p "$dir" || exit 2
fail=0
n=0
ok() { n=$((n + 1)); echo "PASS $1"; }
bad() {
    n=$((n + 1))
    fail=$((fail + 1))
    echo "FAIL $1"
    head -n 20 "$dir/last.out" "$dir/last.err" 2>/dev/null | sed 's/^/    /'
}
# dc ARGS...: lockstep detcheck; output in last.out/last.err, status in $rc
dc() {
    env $LOCKSTEP_RUN_ENV timeout 600 "$lockstep" detcheck "$@" >"$dir/last.out" 2>"$dir/last.err"
    rc=$?
}
has() { grep -q -e "$1" "$dir/last.out"; }

for src in tests/cuda/detcheck/*.cu; do
    name=$(basename "$src" .cu)
    if [ ! -x "$dir/$name" ] || [ "$src" -nt "$dir/$name" ]; then
        if ! nvcc -cudart shared -O2 -o "$dir/$name" "$src" >"$dir/$name.build" 2>&1; then
            echo "FAIL build $name"
            head -n 20 "$dir/$name.build"
            exit 1
        fi
    fi
done

dc -n 6 -- "$dir/tickets"
if [ $rc = 1 ] && has "NOT deterministic" && has "first difference is after launch 1 'ticket\|_Z6ticket" &&
    has "launch 0 '.*scale.*': 1 distinct memory hash" && has "first: copy 0, 1536 bytes" &&
    has "standard output: [2-6] distinct"; then
    ok "racy program: nondeterministic, first at the ticket launch"
else
    bad "racy program (exit $rc)"
fi

dc -n 3 --functional -- "$dir/tickets"
if [ $rc = 0 ] && has "deterministic: one result over 3 seeds"; then
    ok "functional mode: deterministic"
else
    bad "functional mode (exit $rc)"
fi

dc -n 4 --det gpudet -- "$dir/tickets"
if [ $rc = 0 ] && has "deterministic: one result over 4 seeds"; then
    ok "GPUDet: the racy program is deterministic"
else
    bad "GPUDet (exit $rc)"
fi

dc -n 4 --det dab -- "$dir/tickets"
if [ $rc = 0 ] && has "deterministic: one result over 4 seeds"; then
    ok "DAB: the program whose only race is atomics is deterministic"
else
    bad "DAB (exit $rc)"
fi

dc -n 6 --det dab -- "$dir/plainrace"
if [ $rc = 1 ] && has "NOT deterministic"; then
    ok "DAB: a plain data race is outside its guarantee, and detcheck says so"
else
    bad "DAB, plain race (exit $rc)"
fi

dc -n 4 --det gpudet -- "$dir/plainrace"
if [ $rc = 0 ] && has "deterministic: one result over 4 seeds"; then
    ok "GPUDet: the plain data race is deterministic"
else
    bad "GPUDet, plain race (exit $rc)"
fi

dc -n 6 -- "$dir/leftover"
if [ $rc = 1 ] && has "allocations at exit: 2; 1 differ" && has "first: allocation 1" &&
    has "first differ at byte" && has "as float32 the largest difference is"; then
    ok "memory left at exit: the allocation and the byte"
else
    bad "memory left at exit (exit $rc)"
fi

dc -n 4 --json -- "$dir/tickets"
if [ $rc = 1 ] && python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["deterministic"] is False and r["runs"] == 4
assert r["first_differing_launch"]["index"] == 1
assert r["launches"][0]["distinct_hashes"] == 1
assert r["first_differing_copy"]["index"] == 0
' "$dir/last.out" 2>"$dir/last.err"; then
    ok "--json"
else
    bad "--json (exit $rc)"
fi

for args in "-n 0 -- $dir/tickets" "-n x -- $dir/tickets" "--jobs 0 -- $dir/tickets" \
    "--frobnicate -- $dir/tickets" "-n" "" "-- $dir/no-such-program" \
    "-O -lockstep_nosuch_option_1 -- $dir/tickets" "--det gpudet2 -- $dir/tickets" \
    "--keep $dir/tickets -- $dir/tickets"; do
    # shellcheck disable=SC2086
    dc $args
    if [ $rc = 2 ] && [ -s "$dir/last.err" ]; then
        ok "bad usage: '$args'"
    else
        bad "bad usage: '$args' (exit $rc)"
    fi
done

if [ $fail -eq 0 ]; then
    echo "all $n detcheck checks passed"
else
    echo "$fail of $n detcheck checks failed"
    exit 1
fi
