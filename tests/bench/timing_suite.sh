#!/bin/sh
# tests/bench/timing_suite.sh BUILD [PART...] -- the workload suite on the
# timing model.  PART names the sections to run (default: all of them):
# suite (1, 2), seeds (3), gpudet, dab and dabv (4), dmr (5), threads (6),
# skip (7, 8); tests/run.sh runs them as separate tests, side by side.
#
#  1. every workload passes its own check in timing mode (default config);
#     race-free workloads give exactly functional mode's output hash
#     (BUILD/bench-functional.json, written by the functional suite run
#     just before; DESIGN principle 3: values travel with timing, and a
#     race-free program cannot tell);
#  2. race-free workloads on the shipped configs (configs/*.config) give the
#     same hashes too (subsets of 1. and 2. in the sanitizer build, to bound
#     CI time);
#  3. modelled nondeterminism: the order-sensitive float reduction and the
#     racy BFS give more than one output over nondeterminism seeds, race-free
#     workloads one (the sanitizer build checks only the latter, on a
#     subset); the same seed twice gives byte-identical statistics;
#  4. determinism modes: the racy workloads give one output over seeds under
#     GPUDet; every workload passes under DAB, and those whose only races are
#     atomics give one output over 8 seeds and on 2 host threads;
#  5. DMR (-lockstep_redundancy dmr, core and SM pairs): race-free workloads
#     and the stressmark (bench/rel/stressmark.cu) give the unprotected
#     output; core pairs raise the texture-cache hit rate, a perfect texture
#     cache misses nothing;
#  6. host threads: byte-identical statistics on 1, 2, 3 and 4 threads;
#  7. jumping over idle cycles is exact (-lockstep_skip 0 gives the same);
#  8. the same seed twice gives the same statistics.
# Needs nvcc (the workloads are CUDA programs) and python3.
build=${1:-build}
[ $# -gt 0 ] && shift
parts=${*:-all}
# want PART: whether this run includes section PART
want() {
    case " $parts " in *" all "* | *" $1 "*) return 0 ;; esac
    return 1
}
lockstep=$build/lockstep
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
say() { printf '%s\n' "$*"; }
bad() { say "FAIL: $*"; fail=1; }

# order-sensitive or racy: their outputs may differ from functional mode's
racy="atm atomic_reduce bc bfs_racy conv_wgrad ht pagerank"
functional=$build/bench-functional.json
if [ ! -f "$functional" ]; then
    python3 bench/run --lockstep "$lockstep" --mode functional --json-file "$functional" \
        >/dev/null 2>&1 || { bad "functional suite run failed"; exit 1; }
fi

# compare FILE: race-free hashes in FILE equal the functional ones
compare() {
    python3 - "$functional" "$1" "$racy" <<'PY' || fail=1
import json, sys
f = {r["name"]: r for r in json.load(open(sys.argv[1]))}
t = json.load(open(sys.argv[2]))
racy = set(sys.argv[3].split())
bad = 0
for r in t:
    if not r["ok"]:
        print("FAIL: %s: %s" % (r["name"], r.get("error")))
        bad = 1
    elif r["name"] not in racy and r["hash"] != f[r["name"]]["hash"]:
        print("FAIL: %s: timing hash %s, functional %s" % (r["name"], r["hash"], f[r["name"]]["hash"]))
        bad = 1
print("%d workloads: race-free outputs equal functional mode's" % len(t))
sys.exit(bad)
PY
}

# the sanitizer build (LOCKSTEP_RUN_ENV preloads ASan) runs ~5x slower: a subset
if [ -n "$LOCKSTEP_RUN_ENV" ]; then
    all="aes atomic_reduce bfs bfs_racy hotspot lud nw pathfinder"
else
    all=""
fi
if want suite; then
say "== the suite in timing mode (default config)"
python3 bench/run --lockstep "$lockstep" --json-file "$tmp/timing.json" $all >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "timing suite"; }
compare "$tmp/timing.json"

subset="aes bfs hotspot lps lud nw pathfinder srad"
for cfg in configs/gtx480.config configs/titanv.config configs/m2070.config; do
    say "== $cfg"
    if [ -n "$LOCKSTEP_RUN_ENV" ]; then names="aes hotspot"; else names=""; fi
    python3 bench/run --lockstep "$lockstep" --config "$cfg" --json-file "$tmp/cfg.json" \
        $names >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "suite on $cfg"; }
    compare "$tmp/cfg.json"
done

fi
if want seeds; then
say "== nondeterminism seeds: every race-free workload gives functional mode's output"
if [ -n "$LOCKSTEP_RUN_ENV" ]; then snames="atomic_reduce bfs_racy aes hotspot"; else snames=""; fi
for s in 1 2 3; do
    python3 bench/run --lockstep "$lockstep" --nondet-seed "$s" --json-file "$tmp/seed$s.json" \
        $snames >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "seed $s"; }
done
# the two racy workloads under more seeds (a race shows in some runs, not
# all); a statistical check that the sanitizer build, which looks for
# memory errors, leaves to the plain one
if [ -n "$LOCKSTEP_RUN_ENV" ]; then rseeds=""; else rseeds="4 5 6 7 8"; fi
for s in $rseeds; do
    python3 bench/run --lockstep "$lockstep" --nondet-seed "$s" --json-file "$tmp/seed$s.json" \
        atomic_reduce bfs_racy >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "seed $s"; }
done
python3 - "$tmp" "$functional" "$racy" <<'PY' || fail=1
import json, sys
import os
runs = [{r["name"]: r["hash"] for r in json.load(open("%s/seed%d.json" % (sys.argv[1], s)))}
        for s in range(1, 9) if os.path.exists("%s/seed%d.json" % (sys.argv[1], s))]
func = {r["name"]: r["hash"] for r in json.load(open(sys.argv[2]))}
racy = set(sys.argv[3].split())
bad = 0
for name in ("atomic_reduce", "bfs_racy") if len(runs) == 8 else ():
    hashes = {r[name] for r in runs}
    print("%s: %d distinct outputs over 8 seeds" % (name, len(hashes)))
    if len(hashes) < 2:
        print("FAIL: %s gives one output for every seed" % name)
        bad = 1
free = [n for n in sorted(runs[0]) if n not in racy]
for name in free:
    hashes = {r[name] for r in runs[:3]}
    if hashes != {func[name]}:
        print("FAIL: race-free %s gives %d outputs over seeds (functional: %s, seeds: %s)"
              % (name, len(hashes), func[name], " ".join(sorted(hashes))))
        bad = 1
print("%d race-free workloads: one output over 3 seeds, functional mode's" % len(free))
sys.exit(bad)
PY

fi
if want gpudet; then
say "== GPUDet: the racy workloads pass and give one output over seeds"
if [ -n "$LOCKSTEP_RUN_ENV" ]; then dnames="atomic_reduce"; else dnames="atomic_reduce bfs_racy ht"; fi
for s in 1 2; do
    python3 bench/run --lockstep "$lockstep" -O "-lockstep_det gpudet" --nondet-seed "$s" \
        --json-file "$tmp/det$s.json" $dnames >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "gpudet seed $s"; }
done
python3 - "$tmp" <<'PY' || fail=1
import json, sys
runs = [{r["name"]: r["hash"] for r in json.load(open("%s/det%d.json" % (sys.argv[1], s)))}
        for s in (1, 2)]
bad = 0
for name in sorted(runs[0]):
    if runs[0][name] != runs[1][name]:
        print("FAIL: %s under GPUDet: seeds 1 and 2 give different outputs" % name)
        bad = 1
print("GPUDet: %s one output over 2 seeds" % " ".join(sorted(runs[0])))
sys.exit(bad)
PY

fi
if want dab; then
say "== DAB: every workload passes; those whose only races are atomics give one output over seeds"
# atm reads account balances with plain loads while other threads update them
# atomically, and bfs_racy's races are plain loads and stores (the GPUDet
# paper's BFSr): plain races, outside DAB's guarantee (docs/DETERMINISM.md);
# bfs_racy gives another output under DAB at seed 5 (and at 1 vs 2 since
# CTA dispatch stopped depending on window placement)
if [ -n "$LOCKSTEP_RUN_ENV" ]; then
    dabnames="atomic_reduce ht"; dabsame="atomic_reduce ht"; dabseeds="2 3"
else
    dabnames=""; dabsame="atomic_reduce bc pagerank conv_wgrad ht"; dabseeds="2 3 4 5 6 7 8"
fi
python3 bench/run --lockstep "$lockstep" -O "-lockstep_det dab" --nondet-seed 1 \
    --json-file "$tmp/dab1.json" $dabnames >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "dab seed 1"; }
python3 bench/run --lockstep "$lockstep" -O "-lockstep_det dab" --nondet-seed 2 \
    --json-file "$tmp/dab2.json" $dabnames >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "dab seed 2"; }
for s in $dabseeds t2; do
    if [ "$s" = t2 ]; then
        set -- -O "-lockstep_threads 2" --nondet-seed 1
    else
        set -- --nondet-seed "$s"
    fi
    python3 bench/run --lockstep "$lockstep" -O "-lockstep_det dab" "$@" \
        --json-file "$tmp/dabs$s.json" $dabsame >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "dab $s"; }
done
python3 - "$tmp" "$dabseeds t2" <<'PY' || fail=1
import json, sys
load = lambda f: {r["name"]: r["hash"] for r in json.load(open("%s/%s.json" % (sys.argv[1], f)))}
one, two = load("dab1"), load("dab2")
bad = 0
for name in sorted(one):
    if name not in ("atm", "bfs_racy") and one[name] != two[name]:
        print("FAIL: %s under DAB: seeds 1 and 2 give different outputs" % name)
        bad = 1
for s in sys.argv[2].split():
    for name, h in load("dabs" + s).items():
        if h != one[name]:
            print("FAIL: %s under DAB: %s gives another output than seed 1"
                  % (name, "2 threads" if s == "t2" else "seed " + s))
            bad = 1
print("DAB: %d workloads, one output over 2 seeds each (atm, bfs_racy aside); %s over %d more runs"
      % (len(one), " ".join(sorted(load("dabst2"))), len(sys.argv[2].split())))
sys.exit(bad)
PY

fi
if want dabv; then
say "== DAB on the TITAN V config (independent thread scheduling): the paper's workloads pass, one output over seeds and threads"
# pagerank's divergent push loop let a warp into its CTA barrier while others
# still took atomic turns: the turn passed to it and never came back (a
# reported barrier deadlock) until warps inside a barrier stopped taking turns
if [ -n "$LOCKSTEP_RUN_ENV" ]; then
    vnames="pagerank"
else
    vnames="bc pagerank conv_wgrad atomic_reduce"
fi
for s in 1 2 t2; do
    if [ "$s" = t2 ]; then
        set -- -O "-lockstep_threads 2" --nondet-seed 1
    else
        set -- --nondet-seed "$s"
    fi
    python3 bench/run --lockstep "$lockstep" --config configs/titanv.config -O "-lockstep_det dab" \
        -O "-num_buffer_entries 64" "$@" --json-file "$tmp/dabv$s.json" $vnames >"$tmp/out" 2>&1 ||
        { cat "$tmp/out"; bad "dab titanv $s"; }
done
python3 - "$tmp" <<'PY' || fail=1
import json, sys
load = lambda f: {r["name"]: r["hash"] for r in json.load(open("%s/%s.json" % (sys.argv[1], f)))}
one = load("dabv1")
bad = 0
for s in ("dabv2", "dabvt2"):
    for name, h in load(s).items():
        if h != one[name]:
            print("FAIL: %s under DAB on TITAN V: %s gives another output than seed 1" % (name, s))
            bad = 1
print("DAB on TITAN V: %s, one output over seeds 1, 2 and 2 threads" % " ".join(sorted(one)))
sys.exit(bad)
PY

fi
if want dmr; then
say "== DMR: race-free workloads and the stressmark give the unprotected output under both pairings"
if [ -n "$LOCKSTEP_RUN_ENV" ]; then
    dnames="hotspot"
else
    dnames="hotspot bfs cl lud"
fi
for p in core sm; do
    python3 bench/run --lockstep "$lockstep" --config configs/gtx480.config \
        -O "-lockstep_redundancy dmr" -O "-dmr_pair $p" --json-file "$tmp/dmr$p.json" $dnames \
        >"$tmp/out" 2>&1 || { cat "$tmp/out"; bad "dmr $p"; }
    compare "$tmp/dmr$p.json"
done
nvcc -cudart shared -O2 -Ibench/common -o "$tmp/stressmark" bench/rel/stressmark.cu >"$tmp/out" 2>&1 ||
    { cat "$tmp/out"; bad "stressmark build"; }
for o in none core sm perfect; do
    case $o in
    none) set -- ;;
    perfect) set -- -O "-lockstep_perfect_tex 1" ;;
    *) set -- -O "-lockstep_redundancy dmr" -O "-dmr_pair $o" ;;
    esac
    env $LOCKSTEP_RUN_ENV "$lockstep" run --config configs/gtx480.config --stats-json \
        "$tmp/sm$o.json" "$@" -- "$tmp/stressmark" --domain 64 --reads 4 >"$tmp/sm$o.out" 2>&1 ||
        { cat "$tmp/sm$o.out"; bad "stressmark ($o)"; }
done
python3 - "$tmp" <<'PY' || fail=1
import json, sys
t = sys.argv[1]
res = {o: open("%s/sm%s.out" % (t, o)).read().split("RESULT ")[-1].split()[1]
       for o in ("none", "core", "sm", "perfect")}
st = {o: json.load(open("%s/sm%s.json" % (t, o))) for o in res}
bad = 0
if len(set(res.values())) != 1:
    print("FAIL: stressmark outputs differ: %s" % res)
    bad = 1
hit = {o: 1 - st[o]["tex_cache_misses"] / st[o]["tex_cache_accesses"] for o in st}
# the copies of a core pair share the SM's texture cache: the second finds
# the first one's lines; on two SMs each copy has its own
if not hit["core"] > hit["none"] + 0.05 or abs(hit["sm"] - hit["none"]) > 0.05:
    print("FAIL: texture-cache hit rates %s" % hit)
    bad = 1
if st["perfect"]["tex_cache_misses"] or not st["perfect"]["gpu_tot_sim_cycle"] < st["none"]["gpu_tot_sim_cycle"]:
    print("FAIL: perfect texture cache: %d misses, %d cycles (real: %d)" % (
        st["perfect"]["tex_cache_misses"], st["perfect"]["gpu_tot_sim_cycle"], st["none"]["gpu_tot_sim_cycle"]))
    bad = 1
# one comparison per store request: a warp writes two rows of 16 floats, a
# line request each
for o in ("core", "sm"):
    if st[o]["dmr_comparisons"] != 64 * 64 // 16 or st[o]["dmr_mismatches"]:
        print("FAIL: stressmark under DMR %s: %d comparisons, %d mismatches" % (
            o, st[o]["dmr_comparisons"], st[o]["dmr_mismatches"]))
        bad = 1
print("stressmark 64x64, 4 reads: one output; hit rate %.2f unprotected, %.2f core pairs, %.2f SM pairs"
      % (hit["none"], hit["core"], hit["sm"]))
sys.exit(bad)
PY

fi
if want threads; then
say "== host threads: the same statistics, byte for byte, on 1, 2 and 4 threads"
# (window order 1 with 3 threads too); host_seconds is the host's own time,
# and the configuration listed names the thread count and window order asked for
# (the sanitizer build: four workloads, and 3 threads stand for more
# threads than cores; the plain build runs all of them on 4 too)
if [ -n "$LOCKSTEP_RUN_ENV" ]; then
    tnames="aes atomic_reduce bfs_racy hotspot"; tcounts="1 2 3r"
else
    tnames=$(python3 bench/run --list | awk '{print $1}'); tcounts="1 2 4 3r"
fi
for w in $tnames; do
    for t in $tcounts; do
        order=0
        [ "$t" = 3r ] && order=1
        env $LOCKSTEP_RUN_ENV "$lockstep" run --nondet-seed 5 --no-stats --stats-json \
            "$tmp/th$t.json" --threads "${t%r}" -O "-lockstep_window_order $order" \
            -- "build/bench/$w" --size small >"$tmp/th$t.out" 2>&1 || bad "$w with $t threads"
        grep -v -e '"host_seconds"' -e '"-lockstep_threads"' -e '"-lockstep_window_order"' \
            "$tmp/th$t.json" >"$tmp/th$t.cmp"
    done
    for t in ${tcounts#1 }; do
        cmp -s "$tmp/th1.cmp" "$tmp/th$t.cmp" || bad "$w: statistics on $t threads differ from 1"
        cmp -s "$tmp/th1.out" "$tmp/th$t.out" || bad "$w: output on $t threads differs from 1"
    done
done
say "threads: $(echo $tnames | wc -w) workloads, identical on $(echo "$tcounts" | sed 's/r//; s/ /, /g') threads"

fi
if want skip; then
say "== jumping over idle cycles is exact: the same statistics without it (-lockstep_skip 0)"
# (not under the determinism modes: their controllers act at window ends)
# (the GTX 480 config's runs, gtx480:NAME, have the store path, whose line
# rule reads the crossbar's inputs as of the cycle asked)
if [ -n "$LOCKSTEP_RUN_ENV" ]; then
    knames="bfs_racy gtx480:bfs_racy"
else
    knames="bfs cfd ht heartwall nw pagerank gtx480:ht gtx480:bfs_racy"
fi
for w in $knames; do
    set --
    case $w in gtx480:*) set -- --config configs/gtx480.config ;; esac
    for k in 1 0; do
        env $LOCKSTEP_RUN_ENV "$lockstep" run --nondet-seed 3 --no-stats --stats-json \
            "$tmp/sk$k.json" "$@" -O "-lockstep_skip $k" -- "build/bench/${w#gtx480:}" --size small \
            >"$tmp/sk$k.out" 2>&1 || bad "$w with -lockstep_skip $k"
        grep -v -e '"host_seconds"' -e '"-lockstep_skip"' "$tmp/sk$k.json" >"$tmp/sk$k.cmp"
    done
    cmp -s "$tmp/sk1.cmp" "$tmp/sk0.cmp" || bad "$w: statistics without skipping differ"
    cmp -s "$tmp/sk1.out" "$tmp/sk0.out" || bad "$w: output without skipping differs"
done
say "skip: $(echo $knames | wc -w) runs, identical with and without jumping over idle cycles"

say "== same seed, same statistics"
# (bench/run builds the workloads into build/bench whichever build tests them)
for k in 1 2; do
    env $LOCKSTEP_RUN_ENV "$lockstep" run --nondet-seed 7 --stats-json "$tmp/st$k.json" --no-stats \
        -- build/bench/atomic_reduce --size small >/dev/null 2>&1 || bad "atomic_reduce run $k"
done
# host_seconds is the host's own time; everything else must match byte for byte
for k in 1 2; do grep -v '"host_seconds"' "$tmp/st$k.json" >"$tmp/st$k.cmp"; done
if cmp -s "$tmp/st1.cmp" "$tmp/st2.cmp"; then
    say "identical statistics ($(wc -c <"$tmp/st1.cmp") bytes)"
else
    bad "statistics differ between two runs with seed 7"
fi
fi
[ "$fail" -eq 0 ] && say "timing suite ($parts): ok"
exit "$fail"
