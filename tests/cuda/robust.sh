#!/bin/sh
# tests/cuda/robust.sh BUILD_DIR LOCKSTEP_BIN -- lockstep run and the CUDA
# runtime under conditions that once crashed, hung, or lost or mixed up
# results (tests/cuda/robust/*.cu, built with nvcc -cudart shared):
#   - a kernel that never ends stops at -lockstep_max_cycles and at
#     --timeout, naming the kernel and the warps still running;
#   - exit() during a launch (from another thread, from a signal handler)
#     ends the program promptly, with its statistics written;
#   - signals for lockstep reach the program, which is killed if it ignores
#     them; nothing half-written and no earlier run's files are left;
#   - statistics paths: unwritable ones fail before the program starts,
#     relative ones survive the program's chdir;
#   - device malloc/free in one kernel, pinned and managed memory (the same
#     cycles run after run), CTAs spread over the SMs, fork with printf
#     output pending, the printf FIFO limit, bounded launch records, the
#     shared-memory, statistics-mode and use-after-free messages.
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
dir=$build/cuda/robust
mkdir -p "$dir" || exit 2
fail=0
n=0

ok() { n=$((n + 1)); echo "PASS $1"; }
bad() {
    n=$((n + 1))
    fail=$((fail + 1))
    echo "FAIL $1"
    [ -f "$dir/last.err" ] && head -n 15 "$dir/last.err" | sed 's/^/    /'
}
# run NAME ARGS...: lockstep run with LOCKSTEP_RUN_ENV; stdout and stderr
# in $dir/last.out and last.err; the status in $rc
run() {
    env $LOCKSTEP_RUN_ENV timeout 300 "$lockstep" run "$@" >"$dir/last.out" 2>"$dir/last.err"
    rc=$?
}
has() { grep -q -e "$2" "$dir/$1"; }

for src in tests/cuda/robust/*.cu; do
    name=$(basename "$src" .cu)
    if [ ! -x "$dir/$name" ] || [ "$src" -nt "$dir/$name" ]; then
        if ! nvcc -cudart shared -O2 -lineinfo -o "$dir/$name" "$src" >"$dir/$name.build" 2>&1; then
            echo "FAIL build $name"
            head -n 20 "$dir/$name.build"
            exit 1
        fi
    fi
done
P=$dir

# -- limits ------------------------------------------------------------------
run --no-stats -O "-lockstep_max_cycles 200000" -- "$P/spin"
if [ "$rc" -eq 1 ] && has last.out cudaErrorLaunchTimeout && has last.err "lockstep_max_cycles" &&
    has last.err "spin" && has last.err "CTA (3,0,0) warp 1: running" && has last.err "spin.cu:"; then
    ok "a spinning kernel stops at -lockstep_max_cycles, naming the warps"
else bad "max cycles (rc $rc)"; fi
t0=$(date +%s)
run --no-stats --timeout 2 -- "$P/spin"
t1=$(date +%s)
if [ "$rc" -eq 1 ] && has last.out cudaErrorLaunchTimeout && has last.err "host seconds" &&
    [ $((t1 - t0)) -lt 60 ]; then
    ok "--timeout 2 stops a spinning kernel ($((t1 - t0)) s)"
else bad "--timeout (rc $rc, $((t1 - t0)) s)"; fi
run --no-stats --functional --timeout 1 -- "$P/spin"
if [ "$rc" -eq 1 ] && has last.out cudaErrorLaunchTimeout; then
    ok "--timeout in functional mode"
else bad "--timeout functional (rc $rc)"; fi

# -- exit during a launch ----------------------------------------------------
for how in exit-thread exit-signal; do
    rm -f "$dir/exit.json"
    t0=$(date +%s)
    run --no-stats --stats-json "$dir/exit.json" -O "-lockstep_max_cycles 0" -- "$P/spin" "$how"
    t1=$(date +%s)
    if [ "$rc" -eq 0 ] && [ $((t1 - t0)) -lt 60 ] && [ -f "$dir/exit.json" ] &&
        python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$dir/exit.json" 2>/dev/null &&
        ! [ -e "$dir/exit.json.partial" ]; then
        ok "exit() during a launch ($how): prompt, status 0, statistics written"
    else bad "exit during a launch ($how): rc $rc, $((t1 - t0)) s"; fi
done

# -- signals -------------------------------------------------------------------
echo '{"old": true}' >"$dir/sig.json"
echo stale >"$dir/sig.trace"
env $LOCKSTEP_RUN_ENV "$lockstep" run --no-stats --stats-json "$dir/sig.json" \
    --trace "$dir/sig.trace" -O "-lockstep_max_cycles 0" -- "$P/spin" sleep \
    >"$dir/sig.out" 2>"$dir/sig.err" &
lpid=$!
i=0
while [ $i -lt 100 ] && ! grep -q started "$dir/sig.out" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
sleep 0.5
kill -TERM "$lpid"
wait "$lpid"
rc=$?
sleep 0.2
if [ "$rc" -eq 143 ] && ! pgrep -f "$P/spin sleep" >/dev/null && ! [ -e "$dir/sig.json" ] &&
    ! [ -e "$dir/sig.trace" ] && ! [ -e "$dir/sig.json.partial" ] &&
    ! [ -e "$dir/sig.trace.partial" ]; then
    ok "SIGTERM reaches the program; no statistics or trace, old or partial, are left"
else
    bad "SIGTERM (rc $rc)"
    pkill -KILL -f "$P/spin sleep"
fi
# a program that ignores the signal is killed after the grace period
"$lockstep" run --no-stats -- /bin/sh -c 'trap "" TERM; echo started; while :; do sleep 1; done' \
    >"$dir/ign.out" 2>"$dir/ign.err" &
lpid=$!
i=0
while [ $i -lt 100 ] && ! grep -q started "$dir/ign.out" 2>/dev/null; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s)
kill -TERM "$lpid"
wait "$lpid"
rc=$?
t1=$(date +%s)
if [ "$rc" -eq 137 ] && grep -q "did not stop" "$dir/ign.err" && [ $((t1 - t0)) -lt 30 ]; then
    ok "a program that ignores SIGTERM is killed ($((t1 - t0)) s)"
else bad "ignored SIGTERM (rc $rc, $((t1 - t0)) s)"; fi

# -- statistics paths ----------------------------------------------------------
run --stats /nonexistent-dir/stats.txt -- "$P/chdir"
if [ "$rc" -eq 2 ] && has last.err "cannot write the statistics file" && ! has last.out done; then
    ok "an unwritable --stats fails before the program starts"
else bad "unwritable --stats (rc $rc)"; fi
run --stats-json /nonexistent-dir/s.json -- "$P/chdir"
if [ "$rc" -eq 2 ]; then ok "an unwritable --stats-json fails before the program starts"
else bad "unwritable --stats-json (rc $rc)"; fi
(cd "$dir" && rm -f rel.json rel.txt &&
    env $LOCKSTEP_RUN_ENV "$lockstep" run --stats rel.txt --stats-json rel.json -- ./chdir \
        >/dev/null 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && [ -f "$dir/rel.json" ] && [ -f "$dir/rel.txt" ] && ! [ -e /rel.json ]; then
    ok "relative statistics paths survive the program's chdir"
else bad "relative paths (rc $rc)"; rm -f /rel.json /rel.txt; fi

# -- device heap, pinned/managed, CTA placement, fork ----------------------------
for mode in --timing --functional; do
    run --no-stats $mode -- "$P/dmalloc"
    if [ "$rc" -eq 0 ] && has last.out "cudaSuccess: 0 of 512 sums wrong"; then
        ok "device malloc and free in one kernel ($mode)"
    else bad "device malloc/free ($mode): rc $rc"; fi
done
cycles=
for k in 1 2 3; do
    run --no-stats --stats-json "$dir/pinned$k.json" -- "$P/pinned"
    c=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['gpu_tot_sim_cycle'])" \
        "$dir/pinned$k.json" 2>/dev/null)
    [ "$rc" -eq 0 ] || c="rc$rc"
    cycles="$cycles $c"
done
set -- $cycles
if [ $# -eq 3 ] && [ "$1" = "$2" ] && [ "$2" = "$3" ] && [ "$1" -gt 0 ] 2>/dev/null; then
    ok "pinned and managed memory: the same cycles in every run ($1)"
else bad "pinned/managed determinism: cycles$cycles"; fi
run --no-stats -- "$P/smid" 15
if [ "$rc" -eq 0 ] && [ "$(tr ' ' '\n' <"$dir/last.out" | sort -u | wc -l)" -eq 15 ]; then
    ok "15 CTAs on 15 SMs: one each"
else bad "CTA placement: $(cat "$dir/last.out")"; fi
run --no-stats -- "$P/smid" 4
if [ "$rc" -eq 0 ] && [ "$(tr ' ' '\n' <"$dir/last.out" | sort -u | wc -l)" -eq 4 ]; then
    ok "4 CTAs on 4 SMs"
else bad "CTA placement of 4: $(cat "$dir/last.out")"; fi
run --stats-json "$dir/fork.json" -- "$P/forkprintf"
if [ "$rc" -eq 0 ] && [ "$(grep -c 'hello from thread' "$dir/last.out")" -eq 2 ] &&
    has last.out "child exited with 0" && [ -f "$dir/fork.json" ]; then
    ok "fork with device printf output pending: printed once"
else bad "fork/printf: rc $rc, $(grep -c hello "$dir/last.out") hello lines"; fi

# -- bounded output ----------------------------------------------------------------
run --no-stats -- "$P/printf_fifo"
lines=$(grep -c "says a line" "$dir/last.out")
if [ "$rc" -eq 0 ] && has last.err "fifo 4096" && has last.err "printf records were dropped" &&
    [ "$lines" -gt 10 ] && [ "$lines" -lt 512 ] &&
    has last.err "printf failed $((512 - lines)) times"; then
    ok "printf FIFO of 4096 bytes: $lines of 512 lines kept, the rest counted"
else bad "printf FIFO: rc $rc, $lines lines"; fi
run --no-stats --stats-json "$dir/launches.json" -O "-lockstep_launch_records 100" -- \
    "$P/launches" 3000
if [ "$rc" -eq 0 ] && python3 - "$dir/launches.json" <<'PY'; then
import json, sys
d = json.load(open(sys.argv[1]))
assert d["kernel_launches"] == 4000, d["kernel_launches"]
assert d["kernels_listed"] == 100 and len(d["kernels"]) == 100
s = {k["name"]: k["launches"] for k in d["kernel_summary"]}
assert sorted(s.values()) == [1000, 3000], s
assert sum(k["warp_insts"] for k in d["kernel_summary"]) == d["warp_insts"]
PY
    ok "4000 launches: 100 listed, every one counted in the per-kernel sums"
else bad "launch records (rc $rc)"; fi
run --stats "$dir/bigshared.txt" -O "-gpgpu_shmem_size 16384" -- "$P/bigshared"
if has last.err "shared memory" && has last.err "gpgpu_shmem_size" && ! has last.err "threads does not fit"; then
    ok "a CTA too big for an SM's shared memory is blamed on shared memory"
else bad "shared-memory message"; fi
if grep -q "statistics (timing mode)" "$dir/bigshared.txt"; then
    ok "statistics of a timing-mode run whose only launch failed say timing mode"
else bad "statistics mode line: $(head -n 1 "$dir/bigshared.txt")"; fi
run --no-stats -- "$P/uaf"
if has last.out cudaErrorIllegalAddress && has last.err "that was freed (use after free)"; then
    ok "a store to freed memory is reported as a use after free"
else bad "use-after-free message"; fi

if [ "$fail" -ne 0 ]; then
    echo "$fail of $n robustness checks failed"
    exit 1
fi
echo "all $n robustness checks passed"
