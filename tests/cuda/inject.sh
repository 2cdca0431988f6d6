#!/bin/sh
# tests/cuda/inject.sh BUILD_DIR LOCKSTEP_BIN -- fault injection's report
# under `lockstep run` (tests/cuda/inject/twice.cu, built with nvcc -cudart
# shared): LOCKSTEP_FAULT_REPORT gets one line of JSON at exit
#   - for the golden run (site none): landed 0 and the program's totals;
#     with -lockstep_ace 1 also the ACE analysis's "ace" object (and the
#     statistics' ACE table and JSON object);
#   - for a run with a fault: where it landed, the same line twice for the
#     same options and seed, whatever the host threads;
#   - for a program that exits early, and for bad fault options none (the
#     run fails before the program starts);
#   - under -lockstep_redundancy dmr, the program's dmr_mismatches and
#     dmr_reissues;
# and lockstep inject campaigns on in-sphere sites with and without
# --redundancy dmr: SDCs without it, corrected (or, with no reissue
# allowed, detected) runs and no SDC with it; and the instruction-buffer
# site (ibuf): its report, an out-of-range register as an illegal
# instruction with an error exit, and a campaign whose runs are classified.
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
dir=$build/cuda/inject
mkdir -p "$dir" || exit 2
fail=0
n=0
ok() { n=$((n + 1)); echo "PASS $1"; }
bad() {
    n=$((n + 1))
    fail=$((fail + 1))
    echo "FAIL $1"
    head -n 10 "$dir/last.out" "$dir/report.json" 2>/dev/null | sed 's/^/    /'
}
prog=$dir/twice
if [ ! -x "$prog" ] || [ tests/cuda/inject/twice.cu -nt "$prog" ]; then
    if ! nvcc -cudart shared -O2 -o "$prog" tests/cuda/inject/twice.cu >"$dir/build.out" 2>&1; then
        echo "FAIL build twice"
        head -n 20 "$dir/build.out"
        exit 1
    fi
fi
# inj OPTION...: lockstep run with the options ("-name value") in a config
# file, the program's argument in $arg, the report in report.json; status
# in $rc
inj() {
    rm -f "$dir/report.json"
    printf '%s\n' "$@" >"$dir/fault.config"
    # LOCKSTEP_RUN_ENV: the sanitizer build's ASan preload (Makefile)
    env ${LOCKSTEP_RUN_ENV:-} LOCKSTEP_FAULT_REPORT=$dir/report.json timeout 300 "$lockstep" run --no-stats \
        --config "$dir/fault.config" -- "$prog" $arg >"$dir/last.out" 2>&1
    rc=$?
}
arg=
has() { grep -q -e "$1" "$dir/report.json" 2>/dev/null; }
lines() { wc -l <"$dir/report.json" 2>/dev/null | tr -d ' '; }

inj "-lockstep_mode timing"
if [ $rc = 0 ] && [ "$(lines)" = 1 ] &&
    has '^{"site":"none","model":"bit1","at":0,"seed":0,"landed":0,"total_cycles":[1-9][0-9]*,"total_warp_insts":1024,"launches":2}$' &&
    grep -q "sum 2098176 (cudaSuccess)" "$dir/last.out"; then
    ok "golden run: landed 0 with the program's totals"
else
    bad "golden run: landed 0 with the program's totals"
fi

# the golden run of lockstep inject: with the ACE analysis its result is the
# line's "ace" object, with the same program totals
inj "-lockstep_mode timing" "-lockstep_ace 1"
if [ $rc = 0 ] && [ "$(lines)" = 1 ] &&
    has '"landed":0,"total_cycles":[1-9][0-9]*,"total_warp_insts":1024,"launches":2,"ace":{"time_base":"cycles","run_time":[1-9][0-9]*,"launches":2,"complete":1,"reg":{"ace_bit_time":[1-9]' &&
    has '"shared":{"ace_bit_time":[0-9]*,"allocated_bit_time":[0-9]*,"avf_allocated":[0-9.]*,"configured_bits":[1-9][0-9]*,"avf_configured":[0-9.]*}}}$'; then
    ok "the golden run with -lockstep_ace 1 carries the ACE estimate"
else
    bad "the golden run with -lockstep_ace 1 carries the ACE estimate"
fi

# the statistics: a text table and a JSON object, the same on 1 and 2 host threads
stats_ok=1
for t in 1 2; do
    env ${LOCKSTEP_RUN_ENV:-} timeout 300 "$lockstep" run --threads $t -O "-lockstep_ace 1" \
        --stats "$dir/ace$t.txt" --stats-json "$dir/ace$t.json" -- "$prog" >"$dir/last.out" 2>&1 ||
        stats_ok=0
done
if [ $stats_ok = 1 ] &&
    grep -q '^ACE lifetime analysis (time: simulated cycles, run time [1-9][0-9]*, 2 launches)$' "$dir/ace1.txt" &&
    grep -q '^  reg  *[1-9][0-9]* ' "$dir/ace1.txt" &&
    grep -q '^  "ace": {"time_base":"cycles",' "$dir/ace1.json" &&
    [ "$(grep -A4 '^ACE lifetime' "$dir/ace1.txt")" = "$(grep -A4 '^ACE lifetime' "$dir/ace2.txt")" ] &&
    [ "$(grep '"ace"' "$dir/ace1.json")" = "$(grep '"ace"' "$dir/ace2.json")" ]; then
    ok "-lockstep_ace 1: the statistics' ACE table and object, the same on 1 and 2 threads"
else
    bad "-lockstep_ace 1: the statistics' ACE table and object, the same on 1 and 2 threads"
fi

set -- "-lockstep_mode timing" "-lockstep_fault_site reg_live" "-lockstep_fault_at 300" \
    "-lockstep_fault_seed 4"
inj "$@" "-lockstep_threads 1"
first=$(cat "$dir/report.json" 2>/dev/null)
if [ "$(lines)" = 1 ] && has '"site":"reg_live","model":"bit1","at":300,"seed":4,"landed":1,"cycle":' &&
    has '"kernel":"_Z5twicePji"' && has '"launches":2}$'; then
    ok "a fault's report says where it landed"
else
    bad "a fault's report says where it landed"
fi
inj "-lockstep_mode timing" "-lockstep_fault_site reg_live" "-lockstep_fault_at 300" \
    "-lockstep_fault_seed 4" "-lockstep_threads 2" "-lockstep_window_order 1"
if [ -n "$first" ] && [ "$(cat "$dir/report.json")" = "$first" ]; then
    ok "the same report on 2 host threads in reverse window order"
else
    bad "the same report on 2 host threads in reverse window order"
fi

arg=early
inj "-lockstep_mode functional" "-lockstep_fault_site dram" "-lockstep_fault_model zero" \
    "-lockstep_fault_at 100"
arg=
if [ $rc = 3 ] && [ "$(lines)" = 1 ] && has '"site":"dram","model":"zero","at":100,"seed":0,"landed":1,' &&
    has '"launches":1}$'; then
    ok "a program that exits early still writes its report"
else
    bad "a program that exits early still writes its report"
fi

# redundant execution on: the report line adds the program's DMR totals (its
# warp instructions are both copies')
inj "-lockstep_mode timing" "-lockstep_redundancy dmr"
if [ $rc = 0 ] && [ "$(lines)" = 1 ] &&
    has '"landed":0,"total_cycles":[1-9][0-9]*,"total_warp_insts":2048,"launches":2,"redundancy":"dmr","dmr_mismatches":0,"dmr_reissues":0}$'; then
    ok "under DMR the report carries redundancy's mismatches and reissues"
else
    bad "under DMR the report carries redundancy's mismatches and reissues"
fi
inj "-lockstep_mode timing" "-lockstep_redundancy dmr" "-lockstep_fault_site insn_out" \
    "-lockstep_fault_at 300" "-lockstep_fault_seed 1"
if [ $rc = 0 ] && has '"landed":1,' && has '"dmr_mismatches":[1-9][0-9]*,"dmr_reissues":[1-9][0-9]*}$'; then
    ok "a fault DMR corrects: the report counts its mismatch and reissue"
else
    bad "a fault DMR corrects: the report counts its mismatch and reissue"
fi

# lockstep inject campaigns on reg_live and insn_out (in DMR's sphere: one
# copy's registers) with a fixed seed: without redundancy some runs are
# SDCs or DUEs (a copy's bad address); with --redundancy dmr none is (one
# copy's kernel fault is a difference between the copies, like a differing
# write), and the runs whose output DMR repaired are counted as corrected;
# with no reissue allowed
# (-dmr_max_reissues 0) they are detected instead.  The counts come from
# the report's "all" row: runs masked sdc due hang perf [corrected detected].
campaign() { # DB, extra options...: the "all" row of the counts table in $row
    db=$dir/$1.db
    shift
    rm -f "$db" "$db-wal" "$db-shm"
    env ${LOCKSTEP_RUN_ENV:-} timeout 300 "$lockstep" inject --runs 40 --site reg_live,insn_out \
        --seed 1 --jobs 2 --db "$db" "$@" -- "$prog" >"$dir/last.out" 2>&1
    rc=$?
    row=$(awk '$1 == "all" && $2 == "all" { print; exit }' "$dir/last.out")
}
field() { echo "$row" | awk -v k="$1" '{ print $k }'; }
campaign plain
if [ $rc = 0 ] && [ "$(field 3)" = 40 ] && [ "$(field 5)" -gt 0 ] && [ "$(field 6)" -gt 0 ] &&
    ! grep -q corrected "$dir/last.out"; then
    ok "a campaign without redundancy: $(field 5) of 40 runs are SDCs, $(field 6) DUEs"
else
    bad "a campaign without redundancy: some runs are SDCs and some DUEs (row: $row)"
fi
campaign dmr --redundancy dmr
if [ $rc = 0 ] && [ "$(field 3)" = 40 ] && [ "$(field 5)" = 0 ] && [ "$(field 6)" = 0 ] &&
    [ "$(field 9)" -gt 0 ] &&
    [ "$(field 10)" = 0 ] && grep -q "^redundant execution: dmr$" "$dir/last.out" &&
    grep -q "perf corrected detected unlanded$" "$dir/last.out"; then
    ok "--redundancy dmr: no SDC, no DUE, $(field 9) of 40 runs corrected"
else
    bad "--redundancy dmr: no SDC, no DUE, some runs corrected (row: $row)"
fi
campaign dmr0 --redundancy dmr -O "-dmr_max_reissues 0"
if [ $rc = 0 ] && [ "$(field 5)" = 0 ] && [ "$(field 9)" = 0 ] && [ "$(field 10)" -gt 0 ]; then
    ok "--redundancy dmr without reissues: no SDC, $(field 10) of 40 runs detected"
else
    bad "--redundancy dmr without reissues: no SDC, some runs detected (row: $row)"
fi

# ibuf: one instruction of a warp runs corrupted once; the report names the
# field and the pc, the same on 1 and 2 host threads
set -- "-lockstep_mode timing" "-lockstep_fault_site ibuf" "-lockstep_fault_at 300" \
    "-lockstep_fault_seed 1"
inj "$@" "-lockstep_threads 1"
first=$(cat "$dir/report.json" 2>/dev/null)
if [ "$(lines)" = 1 ] && has '"site":"ibuf","model":"bit1","at":300,"seed":1,"landed":1,"cycle":' &&
    has '"warp":[0-9]*,"target":"ibuf","field":"[a-z_0-9]*","pc":[0-9]*,"ptx_line":[0-9]*,' &&
    ! has '"lane":'; then
    ok "an ibuf fault's report names the instruction's field and pc"
else
    bad "an ibuf fault's report names the instruction's field and pc"
fi
inj "$@" "-lockstep_threads 2" "-lockstep_window_order 1"
if [ -n "$first" ] && [ "$(cat "$dir/report.json")" = "$first" ]; then
    ok "ibuf: the same report on 2 host threads in reverse window order"
else
    bad "ibuf: the same report on 2 host threads in reverse window order"
fi
# a register index past the function's rows: an illegal instruction, the
# program's own error exit (its cudaMemcpy fails); the first seed whose
# random field value is out of range
due=
for seed in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
    inj "-lockstep_mode timing" "-lockstep_fault_site ibuf" "-lockstep_fault_model random" \
        "-lockstep_fault_at 300" "-lockstep_fault_seed $seed"
    if grep -q "illegal instruction in kernel '_Z5twicePji': the instruction names" "$dir/last.out"; then
        due=$seed
        break
    fi
done
if [ -n "$due" ] && [ $rc != 0 ] && has '"landed":1,' &&
    grep -q "past the [0-9]* register rows\|past the [0-9]* predicates" "$dir/last.out"; then
    ok "ibuf: an index past the registers is an illegal instruction (seed $due, exit $rc)"
else
    bad "ibuf: an index past the registers is an illegal instruction (seed ${due:-none}, exit $rc)"
fi
# a campaign on ibuf: every run classified, some of them SDCs or DUEs
db=$dir/ibuf.db
rm -f "$db" "$db-wal" "$db-shm"
env ${LOCKSTEP_RUN_ENV:-} timeout 300 "$lockstep" inject --runs 24 --site ibuf --model random \
    --seed 1 --jobs 2 --db "$db" -- "$prog" >"$dir/last.out" 2>&1
rc=$?
row=$(awk '$1 == "ibuf" && $2 == "random" { print; exit }' "$dir/last.out")
sum=$(echo "$row" | awk '{ print $4 + $5 + $6 + $7 + $8 }')
if [ $rc = 0 ] && [ "$(field 3)" = 24 ] && [ "$sum" = 24 ] &&
    [ $(($(field 5) + $(field 6))) -gt 0 ]; then
    ok "an ibuf campaign: 24 runs classified, $(field 5) SDCs, $(field 6) DUEs"
else
    bad "an ibuf campaign: 24 runs classified, some SDCs or DUEs (row: $row)"
fi

inj "-lockstep_fault_site l3"
if [ $rc = 2 ] && [ ! -e "$dir/report.json" ] && grep -q "expected none, reg_live" "$dir/last.out"; then
    ok "a bad site is refused before the program runs"
else
    bad "a bad site is refused before the program runs"
fi
echo "$((n - fail)) of $n inject checks passed"
[ "$fail" -eq 0 ]
