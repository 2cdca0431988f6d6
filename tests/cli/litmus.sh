#!/bin/sh
# litmus.sh -- `lockstep litmus`: usage errors, the parser's diagnostics on
# every tests/litmus/bad file, a missing file, the SC explorer's outcome
# counts, the JSON output, run-to-run determinism, one outcome per placement
# under --det gpudet, and the CUDA generator (--emit-cuda): the program it
# writes, built with nvcc and run under `lockstep run`, must print the
# histogram `lockstep litmus` prints for the same test, seed and iterations
# (same kernel instructions, same placement code, same simulator).  The
# CUDA part skips itself without nvcc.
# Run by tests/run.sh with LOCKSTEP set to the binary.
set -u
L=${LOCKSTEP:-build/lockstep}
case $L in /*) ;; */*) L=$(pwd)/$L ;; esac
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
cd "$root" || exit 1
fails=0
checks=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
check() { # description, expected status, command...
    desc=$1; want=$2; shift 2
    checks=$((checks + 1))
    out=$("$@" 2>&1); got=$?
    if [ "$got" -ne "$want" ]; then
        fail "$desc: exit $got, expected $want"; echo "$out" | head -5
    fi
    LAST=$out
}
contains() { # description, text
    case "$LAST" in *"$2"*) ;; *) fail "$1: output lacks '$2'"; echo "$LAST" | head -5 ;; esac
}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# usage errors: exit 2 with a message
check "no arguments" 2 "$L" litmus;                        contains "no arguments" "usage: lockstep litmus"
check "unknown option" 2 "$L" litmus --frobnicate litmus/MP.litmus
contains "unknown option" "unknown option '--frobnicate'"
check "-n 0" 2 "$L" litmus -n 0 litmus/MP.litmus;          contains "-n 0" "-n wants a number"
check "-n abc" 2 "$L" litmus -n abc litmus/MP.litmus;      contains "-n abc" "not 'abc'"
check "-n without a value" 2 "$L" litmus litmus/MP.litmus -n
contains "-n without a value" "-n needs a value"
check "bad --incantations" 2 "$L" litmus --incantations bank,frob litmus/MP.litmus
contains "bad --incantations" "unknown incantation 'frob'"
check "--help" 0 "$L" litmus --help;                       contains "--help" "--emit-cuda DIR"
check "--det twice" 2 "$L" litmus --det gpudet --det none litmus/MP.litmus
contains "--det twice" "--det gpudet and --det none disagree"
check "--sc --ptx" 2 "$L" litmus --sc --ptx litmus/MP.litmus;    contains "--sc --ptx" "--sc and --ptx: choose one"
check "--json --sc" 2 "$L" litmus --json --sc litmus/MP.litmus;  contains "--json --sc" "--json and --sc: choose one"
check "functional mode" 2 "$L" litmus -O "-lockstep_mode functional" litmus/MP.litmus
contains "functional mode" "litmus tests run on the timing model"
check "-- before the files" 0 "$L" litmus -n 1 -- litmus/MP.litmus; contains "-- before the files" "Observation MP "

# every bad file: exit 1, FILE:LINE:COL: error: with the expected text,
# taken from its first line "(* expect: LINE:COL: TEXT *)"
nbad=0
for f in tests/litmus/bad/*.litmus; do
    [ -f "$f" ] || continue
    nbad=$((nbad + 1))
    exp=$(head -n 1 "$f" | sed -n 's/^(\* expect: \([0-9]*:[0-9]*\): \(.*\) \*)$/\1|\2/p')
    if [ -z "$exp" ]; then
        fail "$f: no '(* expect: LINE:COL: TEXT *)' first line"
        continue
    fi
    lc=${exp%%|*}
    text=${exp#*|}
    check "$f" 1 "$L" litmus -n 1 "$f"
    if ! printf '%s\n' "$LAST" | grep -F -- "$f:$lc: error: " | grep -q -F -- "$text"; then
        fail "$f: no '$f:$lc: error: ...$text...' line"
        echo "$LAST" | head -3
    fi
    case "$LAST" in *Sanitizer* | *"runtime error"* | *"internal"*)
        fail "$f: sanitizer or internal error"; echo "$LAST" | head -5 ;;
    esac
done
[ "$nbad" -ge 50 ] || fail "only $nbad files in tests/litmus/bad"

# a missing file
check "missing file" 1 "$L" litmus -n 1 "$tmp/no-such.litmus"
contains "missing file" "$tmp/no-such.litmus"
# a good file after a bad one still runs, and the status is 1
check "bad then good" 1 "$L" litmus -n 1 tests/litmus/bad/05-unknown-instruction.litmus litmus/MP.litmus
contains "bad then good" "Observation MP "

# a test whose thread waits for a store nobody makes: stopped by the litmus
# runs' own cycle limit within seconds (not the general 2e9 cycles), with
# the waiting instruction's line in the test's file
cat >"$tmp/spin.litmus" <<'EOF'
PTX SPIN
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
st.relaxed.gpu.s32 [x], 1 | LOOP: ;
 | ld.relaxed.gpu.s32 r0, [y] ;
 | setp.eq.s32 p0, r0, 0 ;
 | @p0 bra LOOP ;
exists (1:r0=1)
EOF
check "a test that never ends" 1 "$L" litmus -n 1 "$tmp/spin.litmus"
contains "a test that never ends" "-lockstep_max_cycles"
contains "a test that never ends" "wait for a value that never comes? (no interleaving of its threads ends"
case "$LAST" in *"$tmp/spin.litmus:"[5-7]")"*) ;; *) fail "a test that never ends: no line of $tmp/spin.litmus"; echo "$LAST" | head -3 ;; esac

# 64-bit unsigned values past 2^63 print as unsigned (histogram, condition, JSON)
cat >"$tmp/big.litmus" <<'EOF'
GPU_PTX BIG
{
0:.reg .b64 rx = x;
1:.reg .b64 rx = x;
1:.reg .u64 r0;
}
T0                                 | T1 ;
st.cg.u64 [rx], 0xFFFFFFFFFFFFFFFE | ld.cg.u64 r0, [rx] ;
ScopeTree
(device (cta (warp T0)) (cta (warp T1)))
x: global
exists
(1:r0=0xFFFFFFFFFFFFFFFE)
EOF
check "u64 values" 0 "$L" litmus -n 1 "$tmp/big.litmus"
contains "u64 values" ">1:r0=18446744073709551614; "
contains "u64 values" "Condition exists (1:r0=18446744073709551614)"
check "u64 values, JSON" 0 "$L" litmus -n 1 --json "$tmp/big.litmus"
contains "u64 values, JSON" '{"1:r0": 18446744073709551614}'

# the SC explorer
check "--sc MP" 0 "$L" litmus --sc litmus/MP.litmus;       contains "--sc MP" "Test MP: 3 SC outcomes"
[ "$(printf '%s\n' "$LAST" | grep -c '^1:r0=')" -eq 3 ] || fail "--sc MP: not 3 outcome lines"
check "--sc IRIW" 0 "$L" litmus --sc litmus/IRIW.litmus;   contains "--sc IRIW" "Test IRIW: 15 SC outcomes"
[ "$(printf '%s\n' "$LAST" | grep -c '^2:r0=')" -eq 15 ] || fail "--sc IRIW: not 15 outcome lines"

# JSON: one object per test; instances = the states' counts = positive + negative
check "--json" 0 "$L" litmus -n 2 --json litmus/MP.litmus litmus/SB.litmus
[ "$(printf '%s\n' "$LAST" | grep -c '^{"test": ')" -eq 2 ] || fail "--json: not one object per test"
if command -v python3 >/dev/null 2>&1; then
    printf '%s\n' "$LAST" >"$tmp/json"
    checks=$((checks + 1))
    if ! python3 - "$tmp/json" <<'EOF'
import json, sys
objs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
assert [o["test"] for o in objs] == ["MP", "SB"], [o["test"] for o in objs]
for o in objs:
    n = o["instances"]
    assert n > 0 and n == 2 * o["instances_per_launch"], o
    assert n == sum(s["count"] for s in o["states"]), o
    assert n == o["positive"] + o["negative"], o
    assert o["sc_outcomes"] == 3 and o["iterations"] == 2, o
EOF
    then
        fail "--json: not valid JSON, or the counts do not add up"
    fi
else
    echo "skip: the JSON check needs python3"
fi

# determinism: the same command twice, the same output but the time
for fmt in "" --json; do
    "$L" litmus -n 2 $fmt --incantations all litmus/MP.litmus litmus/SB+cta+shared.litmus 2>&1 |
        sed -e '/^Time /d' -e 's/"seconds": [0-9.]*//' >"$tmp/d1"
    "$L" litmus -n 2 $fmt --incantations all litmus/MP.litmus litmus/SB+cta+shared.litmus 2>&1 |
        sed -e '/^Time /d' -e 's/"seconds": [0-9.]*//' >"$tmp/d2"
    checks=$((checks + 1))
    if ! cmp -s "$tmp/d1" "$tmp/d2" || ! grep -q '[Hh]ash' "$tmp/d1"; then
        fail "two runs differ (${fmt:-text})"; diff "$tmp/d1" "$tmp/d2" | head -5
    fi
done

# one outcome per placement under determinism: with the placement fixed
# (--place-seed 7) the hardware's seed must not change the hash under
# --det gpudet.  (Without --det it does change.  --det dab makes only
# programs whose races are atomics deterministic, and MP and SB race on
# plain loads and stores, so dab is only run here, not compared.)
hash_of() { # test, options...
    t=$1; shift
    "$L" litmus -n 2 --place-seed 7 "$@" "litmus/$t.litmus" 2>&1 | sed -n 's/^Hash=//p'
}
for t in MP SB; do
    h1=$(hash_of $t --det gpudet --seed 1)
    h2=$(hash_of $t --det gpudet --seed 2)
    h3=$(hash_of $t --det gpudet --seed 3)
    checks=$((checks + 1))
    if [ -z "$h1" ] || [ "$h1" != "$h2" ] || [ "$h1" != "$h3" ]; then
        fail "$t --det gpudet: hashes '$h1' '$h2' '$h3' differ over seeds"
    fi
    check "$t --det dab" 0 "$L" litmus -n 2 --place-seed 7 --seed 1 --det dab "litmus/$t.litmus"
    contains "$t --det dab" "Hash="
done
n1=$(hash_of SB --seed 1)
n2=$(hash_of SB --seed 2)
checks=$((checks + 1))
if [ -z "$n1" ] || [ "$n1" = "$n2" ]; then
    fail "SB without --det: seeds 1 and 2 give one hash ($n1): no nondeterminism"
fi
check "bad --det" 2 "$L" litmus --det frob litmus/MP.litmus

# the CUDA generator
check "--emit-cuda" 0 "$L" litmus --emit-cuda "$tmp" litmus/MP.litmus
contains "--emit-cuda" "wrote $tmp/MP.cu"
checks=$((checks + 1))
grep -q 'asm volatile' "$tmp/MP.cu" || fail "--emit-cuda: $tmp/MP.cu has no asm volatile"
check "--emit-cuda to a missing folder" 1 "$L" litmus --emit-cuda "$tmp/no/such/dir" litmus/MP.litmus
contains "--emit-cuda to a missing folder" "cannot make the directory $tmp/no/such/dir"
check "--emit-cuda makes its folder" 0 "$L" litmus --emit-cuda "$tmp/made" litmus/MP.litmus
contains "--emit-cuda makes its folder" "wrote $tmp/made/MP.cu"
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
    PATH=$PATH:/usr/local/cuda/bin
fi
if command -v nvcc >/dev/null 2>&1; then
    # the default placement, then every incantation on a shared-memory test
    "$L" litmus --emit-cuda "$tmp" --incantations all litmus/SB+cta+shared.litmus >/dev/null 2>&1
    for spec in "MP|litmus/MP.litmus|" "SB+cta+shared|litmus/SB+cta+shared.litmus|--incantations all"; do
        name=${spec%%|*}; rest=${spec#*|}; file=${rest%%|*}; inc=${rest#*|}
        checks=$((checks + 1))
        if ! out=$(nvcc -O2 -cudart shared -o "$tmp/$name" "$tmp/$name.cu" 2>&1); then
            fail "nvcc $name.cu"; echo "$out" | head -10; continue
        fi
        # a warning about the code (not about an old toolkit's default target) fails
        warn=$(printf '%s\n' "$out" | grep -v -e '^$' -e 'deprecated-gpu-targets')
        [ -z "$warn" ] || { fail "nvcc $name.cu warns"; echo "$warn" | head -10; }
        # LOCKSTEP_RUN_ENV: the sanitizer build's ASan preload (Makefile)
        # shellcheck disable=SC2086
        check "$name.cu under lockstep run" 0 env ${LOCKSTEP_RUN_ENV:-} "$L" run --no-stats -- "$tmp/$name" -n 2
        printf '%s\n' "$LAST" >"$tmp/$name.cuda"
        # shellcheck disable=SC2086
        "$L" litmus -n 2 $inc "$file" >"$tmp/$name.ls" 2>&1
        for k in "^Histogram\|^[0-9]" "^Observation" "^Witnesses\|^Positive\|^Condition\|^SC outcomes\|^Weak\|^Test\|^Ok\|^No"; do
            grep "$k" "$tmp/$name.cuda" >"$tmp/a"
            grep "$k" "$tmp/$name.ls" >"$tmp/b"
            if [ ! -s "$tmp/a" ] || ! cmp -s "$tmp/a" "$tmp/b"; then
                fail "$name: the CUDA program's '$k' lines differ from lockstep litmus's"
                diff "$tmp/a" "$tmp/b" | head -8
            fi
        done
        inst=$(sed -n "s/^Instances $name \([0-9]*\) .*/\1/p" "$tmp/$name.cuda")
        pos=$(sed -n 's/^Positive: \([0-9]*\), Negative: [0-9]*$/\1/p' "$tmp/$name.ls")
        neg=$(sed -n 's/^Positive: [0-9]*, Negative: \([0-9]*\)$/\1/p' "$tmp/$name.ls")
        if [ -z "$inst" ] || [ -z "$pos" ] || [ -z "$neg" ] || [ "$inst" -ne $((pos + neg)) ]; then
            fail "$name: the CUDA program's instances ($inst) are not lockstep's ($pos + $neg)"
        fi
    done
else
    echo "skip: nvcc not found (also not in /usr/local/cuda/bin): the CUDA program is not built or run"
fi

if [ "$fails" -ne 0 ]; then echo "$fails of $checks litmus checks failed"; exit 1; fi
echo "ok: $checks litmus checks ($nbad bad files)"
