#!/bin/sh
# inject.sh -- `lockstep inject` end to end with a fake runner in place of
# the simulator (tests/cli/fake-inject-runner, named by
# LOCKSTEP_INJECT_RUNNER): every outcome's classification (corrected and
# detected under --redundancy dmr included), the exact
# command lines of the golden and faulty runs, the hang bound in both
# modes, the report and its plot files, resume after kill -9 (the result
# equals an uninterrupted campaign's), extending a campaign, and bad
# input (exit status 2 and a message, never a crash).
# Run by tests/run.sh with LOCKSTEP set to the binary.
set -u
L=${LOCKSTEP:-build/lockstep}
case $L in /*) ;; *) L=$(pwd)/$L ;; esac
FAKE=$(pwd)/tests/cli/fake-inject-runner
T=$(mktemp -d "${TMPDIR:-/tmp}/lockstep-inject-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
export TMPDIR="$T"
export LOCKSTEP_INJECT_RUNNER="$FAKE"
cd "$T" || exit 1
fails=0
check() { # description, expected status, command...
    desc=$1; want=$2; shift 2
    out=$("$@" 2>&1); got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $desc: exit $got, expected $want"; echo "$out" | head -8
        fails=$((fails + 1))
    fi
    LAST=$out
}
contains() { # description, text
    case "$LAST" in *"$2"*) ;; *) echo "FAIL: $1: output lacks '$2'"; echo "$LAST" | head -8; fails=$((fails + 1)) ;; esac
}
SITES=reg_live,reg_any,pred,insn_out,alu,shared,local,dram,l1d,simt

# ---- sizing
check "--margin 5%" 0 "$L" inject --margin 5%;      contains "--margin 5%" "needs 385 runs"
check "--margin 3" 0 "$L" inject --margin 3;        contains "--margin 3" "needs 1068 runs"
check "--margin 0.05" 0 "$L" inject --margin 0.05;  contains "--margin 0.05" "needs 385 runs"
check "--help" 0 "$L" inject --help;                contains "--help" "--timeout-factor K"
check "in the command list" 0 "$L" --help;          contains "command list" "inject"

# ---- every outcome: the fake runner's behaviour follows the site
check "campaign" 0 env FAKE_ARGV_LOG="$T/argv.log" "$L" inject --runs 40 --site $SITES --jobs 3 \
    --db c.db -- ./app x
contains "golden" "golden run: 1000 cycles"
contains "masked" "reg_live  bit1          4       4       0       0       0       0       0       0"
contains "sdc"    "reg_any   bit1          4       0       4       0       0       0       0       0"
contains "due"    "pred      bit1          4       0       0       4       0       0       0       0"
contains "hang"   "insn_out  bit1          4       0       0       0       4       0       0       0"
contains "perf"   "alu       bit1          4       0       0       0       0       4       0       0"
contains "kernel fault" "shared    bit1          4       0       0       4       0       0       0       0"
contains "crash"  "local     bit1          4       0       0       4       0       0       0       0"
contains "no simulator" "dram      bit1          4       0       0       0       0       0       4       0"
contains "unlanded" "l1d       bit1          4       4       0       0       0       0       0       4"
contains "stdout SDC" "simt      bit1          4       0       4       0       0       0       0       0"
contains "total"  "all       all          40       8       8      12       4       4       4       4"
contains "interval" "all       all      20.0 [10.5, 34.8]"
contains "margin" "+-5% needs 385, +-3% needs 1068"
# the instruction-buffer site: passed to the runs, its DUEs classified
check "ibuf campaign" 0 env FAKE_ARGV_LOG="$T/ibuf.log" "$L" inject --runs 6 --site ibuf \
    --model bit1,random --db ib.db -- ./app
contains "ibuf bit1" "ibuf      bit1          3       0       0       3       0       0       0"
contains "ibuf random" "ibuf      random        3       0       0       3       0       0       0"
check "ibuf argv" 0 grep -q -- '-O -lockstep_fault_site ibuf -O -lockstep_fault_model random' ibuf.log
# the command lines: the golden run, then every faulty run with all five options
head -n 1 argv.log >line
check "golden argv" 0 grep -qx -- '--threads 1 --no-stats --no-progress -O -lockstep_fault_site none -O -lockstep_ace 1 -- ./app x' line
check "faulty argv" 0 grep -Eq -- '^--threads 1 --no-stats --no-progress -O -lockstep_fault_site reg_live -O -lockstep_fault_model bit1 -O -lockstep_fault_at [0-9]+ -O -lockstep_fault_seed [0-9]+ -O -lockstep_max_program_cycles 10000 -- \./app x$' argv.log
check "41 runs" 0 test "$(wc -l <argv.log)" -eq 41

# ---- functional mode: the bound is in warp instructions; run options pass through
rm -f argv.log
check "functional" 0 env FAKE_ARGV_LOG="$T/argv.log" "$L" inject --functional --runs 2 --site alu \
    --model all --timeout-factor 3 --threads 2 --db f.db -- ./app
contains "functional golden" "golden run: 1000 cycles, 500 warp instructions"
contains "functional perf" "alu       bit2          1       0       0       0       0       1"
check "functional bound" 0 grep -q -- '^--functional --threads 2 --no-stats --no-progress .*-lockstep_fault_model bit2 .*-lockstep_max_program_warp_insts 1500 -- \./app$' argv.log

# ---- redundant execution (--redundancy dmr, passed to every run): corrected
# and detected, their columns in the tables and the plot data
check "dmr campaign" 0 "$L" inject --runs 12 --site reg_live,l2d,l1tag,pred --redundancy dmr \
    --db r.db -- ./app
contains "dmr golden" "redundant execution: dmr"
contains "dmr header" "site      model      runs  masked     sdc     due    hang    perf corrected detected unlanded"
contains "dmr masked" "reg_live  bit1          3       3       0       0       0       0         0        0       0"
contains "corrected"  "l2d       bit1          3       0       0       0       0       0         3        0       0"
contains "detected"   "l1tag     bit1          3       0       0       0       0       0         0        3       0"
contains "dmr due"    "pred      bit1          3       0       0       3       0       0         0        0       0"
contains "dmr total"  "all       all          12       3       0       3       0       0         3        3       0"
contains "dmr % header" "perf               corrected          detected"
contains "dmr interval" "all       all      25.0 [ 8.9, 53.2]   0.0 [ 0.0, 24.2]  25.0 [ 8.9, 53.2]   0.0 [ 0.0, 24.2]   0.0 [ 0.0, 24.2]  25.0 [ 8.9, 53.2]  25.0 [ 8.9, 53.2]"
contains "dmr legend" "corrected: the golden run's output after redundant execution"
check "dmr plots" 0 "$L" inject report --db r.db --plots rplots
check "dmr outcomes.dat" 0 grep -qx "# site masked sdc due hang perf error corrected detected runs" rplots/outcomes.dat
check "dmr outcomes.dat l2d" 0 grep -qx "l2d 0.000 0.000 0.000 0.000 0.000 0.000 100.000 0.000 3" rplots/outcomes.dat
check "dmr outcomes.gp" 0 grep -q "using 9 title 'detected'" rplots/outcomes.gp
if command -v sqlite3 >/dev/null 2>&1; then
    check "dmr view" 0 test "$(sqlite3 r.db "SELECT outcome, dmr_mismatches, dmr_reissues FROM inject_run WHERE site = 'l2d' LIMIT 1")" = "corrected|1|1"
    # the stored codes: appended after error (5), the old ones unchanged
    check "dmr codes" 0 test "$(sqlite3 r.db "SELECT group_concat(DISTINCT outcome || '=' || outcome_code) FROM (SELECT outcome, outcome_code FROM run ORDER BY outcome_code)")" = "masked=0,due=2,corrected=6,detected=7"
fi
# the comparator's log: in `all` only with redundancy (16 sites, one run each)
check "all with dmr" 0 env FAKE_ARGV_LOG="$T/all.log" "$L" inject --runs 16 --redundancy dmr --db ad.db -- ./app
check "all with dmr: dmr_log" 0 grep -q -- '-O -lockstep_fault_site dmr_log' all.log
check "all without dmr" 0 env FAKE_ARGV_LOG="$T/alln.log" "$L" inject --runs 16 --db an.db -- ./app
check "all without dmr: no dmr_log" 1 grep -q -- '-O -lockstep_fault_site dmr_log' alln.log
# the same sites without redundancy: no such columns, the faults are SDCs
check "no dmr" 0 "$L" inject --runs 12 --site reg_live,l2d,l1tag,pred --db nr.db -- ./app
contains "no dmr header" "site      model      runs  masked     sdc     due    hang    perf unlanded"
contains "no dmr total" "all       all          12       3       6       3       0       0       0"
case "$LAST" in *"corrected"* | *"redundant execution"*)
    echo "FAIL: no dmr: the report speaks of redundancy"; fails=$((fails + 1)) ;; esac
# a golden run in which redundancy found a mismatch (it has no fault) fails the campaign
check "golden mismatch" 2 env FAKE_GOLDEN_MISMATCH=1 "$L" inject --redundancy dmr --db gm.db -- ./app
contains "golden mismatch" "redundant execution found a mismatch in it, though it has no fault"
check "no results file left by a golden mismatch" 0 test ! -e gm.db

# ---- the report and its plots (gnuplot is not needed)
check "report" 0 "$L" inject report --db c.db --plots plots
contains "report runs" "runs: 40 of 40 done"
contains "report sdc" "reg_any   bit1          4       0       4"
# the golden run's ACE estimate (the fake's) next to the matching sites
contains "report ace" "ACE estimate of the golden run against injection"
contains "report ace reg" "reg_any   reg                50.0%           12.5%  100.0 [51.0,100.0] of 4 runs"
contains "report ace pred" "pred      pred               25.0%               -  100.0 [51.0,100.0] of 4 runs"
contains "report ace shared" "shared    shared              0.0%            0.0%  100.0 [51.0,100.0] of 4 runs"
case "$LAST" in *"gnuplot is not on the PATH"* | *"plots: plots/outcomes.svg"*) ;;
*) echo "FAIL: report --plots: says nothing about gnuplot"; fails=$((fails + 1)) ;; esac
check "outcomes.dat" 0 test "$(grep -vc '^#' plots/outcomes.dat)" -eq 10
check "outcomes.gp" 0 grep -q "rowstacked" plots/outcomes.gp
check "sdc_by_cycle.dat" 0 test "$(grep -vc '^#' plots/sdc_by_cycle.dat)" -eq 20
check "sdc_by_cycle.gp" 0 grep -q "yerrorbars" plots/sdc_by_cycle.gp

# ---- resume after kill -9: nothing lost, nothing twice, the same result
check "no stray files so far" 0 test "$(ls -d "$T"/lockstep-inject.* 2>/dev/null | wc -l)" -eq 0
check "uninterrupted" 0 "$L" inject --runs 24 --site reg_live,reg_any,alu,pred --seed 5 --db u.db -- ./app
"$L" inject report --db u.db | sed 1d >u.txt
FAKE_SLEEP=0.2 "$L" inject --runs 24 --site reg_live,reg_any,alu,pred --seed 5 --jobs 2 --db k.db \
    -- ./app >/dev/null 2>&1 &
pid=$!
k=0
for _ in $(seq 1 300); do
    k=$("$L" inject report --db k.db 2>/dev/null | sed -n 's/^runs: \([0-9]*\) of.*/\1/p')
    [ "${k:-0}" -ge 6 ] && break
    sleep 0.1
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
# the killed campaign's temporary folder stays (its runs were still writing there)
stray=$(ls -d "$T"/lockstep-inject.* 2>/dev/null | wc -l)
check "killed part way" 0 test "${k:-0}" -ge 6 -a "${k:-0}" -lt 24
check "resume" 0 "$L" inject --resume --runs 24 --site reg_live,reg_any,alu,pred --seed 5 --db k.db -- ./app
contains "resume skips" "(the others are done)"
contains "resume done" "runs: 24 of 24 done"
"$L" inject report --db k.db | sed 1d >k.txt
check "resumed = uninterrupted" 0 cmp u.txt k.txt
check "resume again: nothing to do" 0 "$L" inject --resume --site reg_live,reg_any,alu,pred --seed 5 \
    --db k.db -- ./app
contains "nothing to do" "0 runs to do"
check "extend" 0 "$L" inject --resume --runs 30 --site reg_live,reg_any,alu,pred --seed 5 --db k.db -- ./app
contains "extend" "runs: 30 of 30 done"

# ---- SIGTERM: the campaign stops cleanly, stores nothing after the signal
FAKE_SLEEP=0.2 "$L" inject --runs 24 --site reg_live --seed 5 --jobs 2 --db t.db -- ./app \
    >t.out 2>&1 &
pid=$!
for _ in $(seq 1 300); do
    k=$("$L" inject report --db t.db 2>/dev/null | sed -n 's/^runs: \([0-9]*\) of.*/\1/p')
    [ "${k:-0}" -ge 4 ] && break
    sleep 0.1
done
kill -TERM $pid
wait $pid
check "SIGTERM: exit status 1" 0 test $? -eq 1
LAST=$(cat t.out)
contains "SIGTERM: says so" "interrupted (signal 15)"
check "SIGTERM: resume" 0 "$L" inject --resume --runs 24 --site reg_live --seed 5 --db t.db -- ./app
contains "SIGTERM: all masked" "reg_live  bit1         24      24       0       0"

# ---- bad input: exit status 2, a message
check "unknown site" 2 "$L" inject --site regs --db b.db -- ./app;      contains "unknown site" "unknown or repeated site 'regs'"
check "dmr_log without dmr" 2 "$L" inject --site reg_live,dmr_log --db b.db -- ./app
contains "dmr_log without dmr" "--site dmr_log corrupts DMR's comparator log: it needs --redundancy dmr"
check "unknown model" 2 "$L" inject --model bit3 --db b.db -- ./app;    contains "unknown model" "model 'bit3'"
check "runs 0" 2 "$L" inject --runs 0 --db b.db -- ./app;              contains "runs 0" "give a whole number"
check "runs x" 2 "$L" inject --runs x --db b.db -- ./app
check "runs huge" 2 "$L" inject --runs 99999999999999999999 --db b.db -- ./app
check "seed -1" 2 "$L" inject --seed -1 --db b.db -- ./app
check "jobs 0" 2 "$L" inject --jobs 0 --db b.db -- ./app
check "factor 1" 2 "$L" inject --timeout-factor 1 --db b.db -- ./app;  contains "factor 1" "above 1"
check "factor x" 2 "$L" inject --timeout-factor x --db b.db -- ./app
check "margin 1e-300" 2 "$L" inject --margin 1e-300
check "margin 0.0000001" 2 "$L" inject --margin 0.0000001
contains "margin 0.0000001" "at least 0.0001%"
check "margin in hex" 2 "$L" inject --margin 0x0.1p0
check "--db empty" 2 "$L" inject --db "" --runs 1 -- /bin/true
contains "--db empty" "--db needs a file name"
check "--db a directory" 2 "$L" inject --db "$T" --runs 1 -- /bin/true
contains "--db a directory" "is a directory; give a file"
check "report --db a directory" 2 "$L" inject report --db "$T"
check "margin 0" 2 "$L" inject --margin 0
check "margin 150%" 2 "$L" inject --margin 150%
check "margin x" 2 "$L" inject --margin x
check "missing --" 2 "$L" inject --db b.db ./app;                     contains "missing --" "unknown option"
check "no program" 2 "$L" inject --db b.db;                           contains "no program" "no program given"
check "nothing after --" 2 "$L" inject --db b.db --;                  contains "nothing after --" "no program given"
check "unknown option" 2 "$L" inject --frob -- ./app
check "value missing" 2 "$L" inject --runs
check "fault options" 2 "$L" inject -O "-lockstep_fault_at 3" --db b.db -- ./app
contains "fault options" "sets the fault options and the bound itself"
check "ace option" 2 "$L" inject -O "-lockstep_ace 1" --db b.db -- ./app
contains "ace option" "runs the ACE analysis in the golden run only"
check "bound option" 2 "$L" inject -O "-lockstep_max_program_cycles 3" --db b.db -- ./app
check "db exists" 2 "$L" inject --db c.db -- ./app;                   contains "db exists" "--resume"
check "resume other config" 2 "$L" inject --resume --seed 6 --site reg_live,reg_any,alu,pred --db k.db -- ./app
contains "resume other config" "another configuration"
check "resume missing db" 2 "$L" inject --resume --db nonexistent.db -- ./app
contains "resume missing db" "cannot open the results file"
echo "not a database, just some text that is long enough for a header" >junk.db
check "resume junk db" 2 "$L" inject --resume --db junk.db -- ./app
contains "resume junk db" "not a database"
check "report junk db" 2 "$L" inject report --db junk.db;             contains "report junk db" "not a database"
check "report missing db" 2 "$L" inject report --db nonexistent.db
check "report bad arg" 2 "$L" inject report --frob
check "report plots unwritable" 2 "$L" inject report --db c.db --plots /proc/nonexistent/x
check "golden fails" 2 env LOCKSTEP_INJECT_RUNNER=/bin/false "$L" inject --db g.db -- ./app
contains "golden fails" "the golden run failed"
check "no results file left by a failed golden run" 0 test ! -e g.db
check "runner missing" 2 env LOCKSTEP_INJECT_RUNNER=/nonexistent "$L" inject --db g2.db -- ./app
contains "runner missing" "the golden run failed"
# every other campaign, failed ones included, removes its temporary folder
check "no stray files" 0 test "$(ls -d "$T"/lockstep-inject.* 2>/dev/null | wc -l)" -eq "$stray"

if [ "$fails" -ne 0 ]; then
    echo "$fails inject check(s) failed"
    exit 1
fi
echo "lockstep inject: outcomes, command lines, report, resume after kill -9, bad input"
