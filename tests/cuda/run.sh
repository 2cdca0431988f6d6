#!/bin/sh
# tests/cuda/run.sh BUILD_DIR LOCKSTEP_BIN [NAME...] -- build the CUDA programs
# in tests/cuda with nvcc and run each on the simulator.
#
# Each tests/cuda/NAME.cu is built, when BUILD_DIR/cuda/NAME is missing or
# older than its source (or a header tests/cuda/*.cuh), with exactly
#     nvcc -cudart shared -O2 -o BUILD_DIR/cuda/NAME tests/cuda/NAME.cu
# (fault.cu adds -lineinfo, mma.cu and memcpy_async.cu -arch=sm_80: their instructions need it,
# driver_api.cu -lcuda: it calls the driver API,
# cdp_*.cu -rdc=true -lcudadevrt: they launch kernels from device code,
# ptds_managed.cu --default-stream per-thread, dependent_launch.cu -arch=sm_90)
# and each directory tests/cuda/NAME/ holding a main.cu (a program in
# several translation units; rebuilt when any file there is newer) with
#     nvcc -cudart shared -O2 -rdc=true -o BUILD_DIR/cuda/NAME \
#         tests/cuda/NAME/main.cu tests/cuda/NAME/OTHER.cu...
# and run as
#     timeout 120 LOCKSTEP_BIN run -- BUILD_DIR/cuda/NAME
# with stdout and stderr kept in BUILD_DIR/cuda/NAME.stdout and NAME.stderr.
# A program passes when its exit status is 0 (3 for fault and
# cdp_unsupported, whose stderr must name the device-runtime function
# lockstep does not provide), its stdout equals
# tests/cuda/expected/NAME.stdout where that file exists, a second run with
# --functional gives the same exit status and stdout, for fault its
# stderr reports the illegal address, names the faulting kernel and the CUDA
# source line (fault.cu is built with -lineinfo), and its --stats-json file
# lists every launch with name, grid, block, warp_insts and thread_insts.  Prints
# PASS NAME / FAIL NAME (with the reason) per program and exits non-zero if
# any failed.  Without nvcc on the PATH it prints SKIP and exits 0.  Names
# given after the two arguments restrict the run to those programs.
if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR LOCKSTEP_BIN [NAME...]" >&2
    exit 2
fi
if ! command -v nvcc >/dev/null 2>&1; then
    echo "SKIP: nvcc not found; the CUDA program tests need the CUDA toolkit"
    exit 0
fi
build=$1
lockstep=$2
shift 2

# Work from the repository root; paths given relative to the caller's
# directory are made absolute first.
here=$(pwd)
root=$(cd "$(dirname "$0")/../.." && pwd) || exit 2
if [ "$here" != "$root" ]; then
    case $build in /*) ;; *) build=$here/$build ;; esac
    case $lockstep in /*) ;; */*) lockstep=$here/$lockstep ;; esac
fi
cd "$root" || exit 2
mkdir -p "$build/cuda" || exit 2

if command -v timeout >/dev/null 2>&1; then
    limit="timeout 120"
else
    limit=
fi

# Lines of a file, indented, at most 30 of them.
show() {
    head -n 30 "$1" | sed 's/^/    /'
}

n=0
fail=0
if [ $# -gt 0 ]; then
    names=$*
else
    names=
    for src in tests/cuda/*.cu; do
        [ -f "$src" ] || continue
        name=${src#tests/cuda/}
        names="$names ${name%.cu}"
    done
    for dir in tests/cuda/*/; do
        [ -f "${dir}main.cu" ] || continue
        name=${dir#tests/cuda/}
        names="$names ${name%/}"
    done
fi

for name in $names; do
    src=tests/cuda/$name.cu
    bin=$build/cuda/$name
    out=$build/cuda/$name.stdout
    err=$build/cuda/$name.stderr
    n=$((n + 1))

    # fault.cu is built with -lineinfo: its report must name the CUDA line;
    # mma.cu for sm_80, whose tensor instructions (bf16, tf32, f64,
    # mma.m16n8k16 ...) sm_75 does not have
    flags=
    [ "$name" = fault ] && flags=-lineinfo
    [ "$name" = mma ] && flags=-arch=sm_80
    # driver_api.cu calls the driver API: it links libcuda (the toolkit's
    # stub library; lockstep's libcuda.so.1 is found at run time)
    [ "$name" = driver_api ] && flags="-lcuda -L$(dirname "$(command -v nvcc)")/../lib64/stubs"
    # memcpy_async.cu: cp.async and mbarrier are sm_80 instructions
    [ "$name" = memcpy_async ] && flags=-arch=sm_80
    # ptds_managed.cu: the per-thread default stream
    [ "$name" = ptds_managed ] && flags="--default-stream per-thread"
    # dependent_launch.cu: programmatic dependent launch is sm_90's
    [ "$name" = dependent_launch ] && flags=-arch=sm_90
    # cdp_*.cu launch kernels from device code (dynamic parallelism): they
    # need relocatable device code and CUDA's device runtime
    case $name in cdp_*) flags="-rdc=true -lcudadevrt" ;; esac
    # tests/cuda/NAME/main.cu: a program in several translation units, built
    # with separate compilation (relocatable device code) from main.cu and
    # the directory's other .cu files
    deps=$src
    if [ -f "tests/cuda/$name/main.cu" ]; then
        deps=tests/cuda/$name
        src="tests/cuda/$name/main.cu $(ls "tests/cuda/$name"/*.cu | grep -v '/main\.cu$')"
        flags=-rdc=true
    elif [ ! -f "$src" ]; then
        echo "FAIL $name: no $src"
        fail=$((fail + 1))
        continue
    fi

    # Build when the binary is missing or older than a source.
    if [ ! -x "$bin" ] || [ -n "$(find "$deps" tests/cuda/*.cuh -newer "$bin" 2>/dev/null)" ]; then
        if ! nvcc -cudart shared -O2 $flags -o "$bin" $src >"$build/cuda/$name.build" 2>&1; then
            echo "FAIL $name: nvcc failed"
            show "$build/cuda/$name.build"
            rm -f "$bin"
            fail=$((fail + 1))
            continue
        fi
    fi

    want_rc=0
    kernel=
    unsupported=
    case $name in
    fault)
        want_rc=3
        kernel=write_past_end
        ;;
    cdp_unsupported)
        want_rc=3
        unsupported=__cudaCDP2Memcpy3DAsync
        ;;
    esac

    # LOCKSTEP_RUN_ENV: extra environment for the program (the sanitizer build
    # preloads the ASan runtime its libcudart.so.13 needs)
    json=$build/cuda/$name.stats.json
    rm -f "$json"
    env $LOCKSTEP_RUN_ENV $limit "$lockstep" run --stats-json "$json" -- "$bin" >"$out" 2>"$err"
    rc=$?
    why=
    if [ "$rc" -eq 124 ] && [ -n "$limit" ]; then
        why="timed out after 120 s"
    elif [ "$rc" -ne "$want_rc" ]; then
        why="exit status $rc, expected $want_rc"
    elif [ -f "tests/cuda/expected/$name.stdout" ] &&
        ! cmp -s "tests/cuda/expected/$name.stdout" "$out"; then
        why="stdout differs from tests/cuda/expected/$name.stdout"
    elif [ -n "$kernel" ]; then
        if ! grep -qi -e 'illegal memory access' -e 'illegal_address' "$err"; then
            why="stderr does not report an illegal memory access"
        elif ! grep -q "$kernel" "$err"; then
            why="stderr does not name the kernel $kernel"
        elif ! grep -q "fault.cu:[0-9]" "$err"; then
            why="stderr does not name the CUDA source line (fault.cu:LINE)"
        fi
    elif [ -n "$unsupported" ] &&
        ! grep -q "'$unsupported' is a function of CUDA's device runtime (cudadevrt) that lockstep does not provide" "$err"; then
        why="stderr does not name $unsupported as a device-runtime function lockstep does not provide"
    fi
    # the same program in functional mode: the same exit status and stdout
    if [ -z "$why" ]; then
        env $LOCKSTEP_RUN_ENV $limit "$lockstep" run --functional --no-stats -- "$bin" \
            >"$out.functional" 2>"$err.functional"
        frc=$?
        if [ "$frc" -ne "$rc" ]; then
            why="--functional: exit status $frc, timing mode's was $rc"
            err=$err.functional
        elif ! cmp -s "$out" "$out.functional"; then
            why="--functional: stdout differs from timing mode's"
            err=$err.functional
        fi
    fi
    # launches from device code: the same output and statistics on 1 and 2
    # host threads (everything but the host's time)
    case $name in
    cdp_*)
        if [ -z "$why" ]; then
            for t in 1 2; do
                env $LOCKSTEP_RUN_ENV $limit "$lockstep" run --threads $t --stats-json "$json.t$t" \
                    -- "$bin" >"$out.t$t" 2>"$err.t$t"
            done
            if ! cmp -s "$out" "$out.t1" || ! cmp -s "$out" "$out.t2"; then
                why="--threads 1 and 2: stdout differs"
            elif command -v python3 >/dev/null 2>&1 &&
                ! python3 - "$json.t1" "$json.t2" <<'PY' >"$build/cuda/$name.threads.check" 2>&1; then
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
for d in (a, b):
    del d["host_seconds"]
    d["config"].pop("-lockstep_threads", None)
assert a == b, "the statistics differ between --threads 1 and --threads 2"
PY
                why="$(tail -n 1 "$build/cuda/$name.threads.check")"
            fi
        fi
        ;;
    esac
    # every launch is in the JSON statistics with its name, shape and counts
    if [ -z "$why" ] && command -v python3 >/dev/null 2>&1; then
        if ! python3 - "$json" <<'PY' >"$build/cuda/$name.json.check" 2>&1; then
import json, sys
d = json.load(open(sys.argv[1]))
assert isinstance(d.get("kernels"), list) and d["kernels"], "no kernels array"
for k in d["kernels"]:
    for key in ("name", "grid", "block", "warp_insts", "thread_insts"):
        assert key in k, "launch without %s: %r" % (key, k)
    assert len(k["grid"]) == 3 and len(k["block"]) == 3
assert "config" in d
PY
            why="--stats-json output: $(tail -n 1 "$build/cuda/$name.json.check")"
        fi
    fi

    if [ -z "$why" ]; then
        echo "PASS $name"
    else
        echo "FAIL $name: $why"
        if [ -f "tests/cuda/expected/$name.stdout" ]; then
            diff -u "tests/cuda/expected/$name.stdout" "$out" >"$build/cuda/$name.diff" 2>&1
            show "$build/cuda/$name.diff"
        else
            grep -v '^PASS' "$out" >"$build/cuda/$name.notpass" 2>/dev/null
            show "$build/cuda/$name.notpass"
        fi
        echo "    stderr:"
        show "$err"
        fail=$((fail + 1))
    fi
done

# A program linked with nvcc's default static runtime cannot be redirected:
# lockstep run must say so and how to rebuild (no nvcc -cudart shared).
if [ $# -eq 0 ] || [ "$names" = "$*" ]; then
    n=$((n + 1))
    static=$build/cuda/static_runtime
    if [ ! -x "$static" ] || [ tests/cuda/memory.cu -nt "$static" ]; then
        nvcc -O2 -o "$static" tests/cuda/memory.cu >"$build/cuda/static_runtime.build" 2>&1
    fi
    "$lockstep" run -- "$static" >"$build/cuda/static_runtime.stdout" 2>"$build/cuda/static_runtime.stderr"
    rc=$?
    if [ "$rc" -eq 2 ] && grep -q "static CUDA runtime" "$build/cuda/static_runtime.stderr" &&
        grep -q -e "-cudart shared" "$build/cuda/static_runtime.stderr"; then
        echo "PASS static_runtime (diagnosed)"
    else
        echo "FAIL static_runtime: exit $rc, expected 2 and a message naming -cudart shared"
        show "$build/cuda/static_runtime.stderr"
        fail=$((fail + 1))
    fi
fi

# Program NAME again on the TITAN V config, in both modes: it must exit 0
# and, when WANT is given, print a line matching it.  WHAT names the case.
on_titanv() {
    name=$1 what=$2 want=$3
    [ -x "$build/cuda/$name" ] || return 0
    n=$((n + 1))
    why=
    out=$build/cuda/$name.titanv.stdout
    err=$build/cuda/$name.titanv.stderr
    for m in "" --functional; do
        env $LOCKSTEP_RUN_ENV $limit "$lockstep" run $m --config configs/titanv.config --no-stats \
            -- "$build/cuda/$name" >"$out" 2>"$err" || why="exit status $? ($m)"
        [ -z "$why" ] && [ -n "$want" ] && ! grep -q "$want" "$out" && why="no '$want' ($m)"
    done
    if [ -z "$why" ]; then
        echo "PASS $name (TITAN V config: $what)"
    else
        echo "FAIL $name on the TITAN V config: $why"
        show "$out"
        show "$err"
        fail=$((fail + 1))
    fi
}

if [ $# -eq 0 ] || [ "$names" = "$*" ]; then
    # Independent thread scheduling: cooperative groups' grid.sync() spins
    # in one lane while its warp waits at a barrier.
    on_titanv cooperative "independent thread scheduling" ""
    # A kernel may opt in to 96 KB of shared memory: shared_optin uses it all.
    on_titanv shared_optin "96 KB opt-in" "opted-in limit"
    # The scoped model's acquire operations on Volta's incoherent L1 too.
    on_titanv acquire_release "acquire invalidates the L1" ""
fi

# Redundant execution runs every CTA twice: printf, malloc and free still
# happen once per CTA, so the output is the plain run's.
if [ $# -eq 0 ] || [ "$names" = "$*" ]; then
    for name in printf device_heap; do
        [ -x "$build/cuda/$name" ] || continue
        n=$((n + 1))
        out=$build/cuda/$name.dmr.stdout
        env $LOCKSTEP_RUN_ENV $limit "$lockstep" run --redundancy dmr --no-stats \
            -- "$build/cuda/$name" >"$out" 2>"$build/cuda/$name.dmr.stderr"
        rc=$?
        if [ "$rc" -eq 0 ] && cmp -s "$out" "$build/cuda/$name.stdout"; then
            echo "PASS $name (--redundancy dmr: the same output)"
        else
            echo "FAIL $name under --redundancy dmr: exit $rc, or its output differs"
            show "$out"
            show "$build/cuda/$name.dmr.stderr"
            fail=$((fail + 1))
        fi
    done
fi

# nvcc compresses the PTX it embeds (zstd) unless told not to: the same
# program built both ways gives the same output (the loop above ran the
# compressed build; this is the plain one).
if [ $# -eq 0 ] || [ "$names" = "$*" ]; then
    n=$((n + 1))
    plain=$build/cuda/memory_plain
    if [ ! -x "$plain" ] || [ tests/cuda/memory.cu -nt "$plain" ]; then
        nvcc -cudart shared -O2 -Xfatbin=-compress=false -o "$plain" tests/cuda/memory.cu \
            >"$build/cuda/memory_plain.build" 2>&1
    fi
    env $LOCKSTEP_RUN_ENV $limit "$lockstep" run --no-stats -- "$plain" \
        >"$build/cuda/memory_plain.stdout" 2>"$build/cuda/memory_plain.stderr"
    rc=$?
    if [ "$rc" -eq 0 ] && cmp -s "$build/cuda/memory_plain.stdout" "$build/cuda/memory.stdout"; then
        echo "PASS memory (built with -Xfatbin=-compress=false)"
    else
        echo "FAIL memory_plain: exit $rc, or its output differs from the compressed build's"
        show "$build/cuda/memory_plain.stderr"
        fail=$((fail + 1))
    fi
fi

# --trace: a Chrome trace whose kernel slices match the statistics, with CTA
# slices and per-SM counters, while the statistics stay those of a run
# without a trace; --trace cannot be combined with --functional, and a trace
# file that cannot be written is reported before the program starts.
if { [ $# -eq 0 ] || [ "$names" = "$*" ]; } && command -v python3 >/dev/null 2>&1; then
    n=$((n + 1))
    bin=$build/cuda/grids
    tr=$build/cuda/grids.trace.json
    rm -f "$tr"
    why=
    env $LOCKSTEP_RUN_ENV "$lockstep" run --no-stats --stats-json "$build/cuda/grids.plain.json" \
        -- "$bin" >/dev/null 2>&1 || why="run without a trace failed"
    [ -z "$why" ] && { env $LOCKSTEP_RUN_ENV "$lockstep" run --no-stats --trace "$tr" \
        --stats-json "$build/cuda/grids.traced.json" -- "$bin" >/dev/null 2>&1 ||
        why="run with --trace failed"; }
    if [ -z "$why" ] && ! python3 - "$tr" "$build/cuda/grids.plain.json" \
        "$build/cuda/grids.traced.json" >"$build/cuda/trace.check" 2>&1 <<'PY'; then
import json, sys
t = json.load(open(sys.argv[1]))["traceEvents"]
plain, traced = (json.load(open(f)) for f in sys.argv[2:4])
assert plain["kernels"] == traced["kernels"], "tracing changed the statistics"
ks = [e for e in t if e.get("cat") == "kernel"]
assert [e["args"]["gpu_sim_cycle"] for e in ks] == \
    [k["gpu_sim_cycle"] for k in plain["kernels"]], "kernel slices do not match the statistics"
ctas = [e for e in t if e.get("cat") == "cta"]
assert len(ctas) == sum(k["ctas"] for k in plain["kernels"]), "one slice per CTA"
for e in ctas:
    k = max((k for k in ks if k["ts"] <= e["ts"] + 1e-9), key=lambda k: k["ts"])
    assert e["ts"] + e["dur"] <= k["ts"] + k["dur"] + 1e-6, "a CTA outlives its kernel"
names = {e["args"]["name"] for e in t if e["ph"] == "M" and e["name"] == "process_name"}
assert "GPU" in names and "SM 0" in names
assert any(e["ph"] == "C" and e["name"] == "issue" for e in t)
assert any(e["ph"] == "C" and e["name"] == "stalls" for e in t)
PY
        why="trace: $(tail -n 1 "$build/cuda/trace.check")"
    fi
    if [ -z "$why" ]; then
        "$lockstep" run --functional --trace "$tr" -- "$bin" >/dev/null 2>"$build/cuda/trace.err"
        rc=$?
        if [ "$rc" -ne 2 ] || ! grep -q "timing model" "$build/cuda/trace.err"; then
            why="--functional --trace: exit $rc, expected 2 and a message"
        fi
    fi
    if [ -z "$why" ]; then
        "$lockstep" run --trace /nonexistent/dir/t.json -- "$bin" >/dev/null 2>"$build/cuda/trace.err"
        rc=$?
        if [ "$rc" -ne 2 ] || ! grep -q "cannot write the trace /nonexistent/dir/t.json" \
            "$build/cuda/trace.err"; then
            why="--trace into a missing directory: exit $rc, expected 2 and a message"
        fi
    fi
    if [ -z "$why" ]; then
        # the trace named by an option instead: relative to where lockstep
        # runs, and given to the runtime once, as an absolute name
        rm -f "$build/cuda/grids.O.trace.json"
        abs_ls=$(cd "$(dirname "$lockstep")" && pwd)/$(basename "$lockstep")
        abs_bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
        (cd "$build/cuda" && env $LOCKSTEP_RUN_ENV "$abs_ls" run --no-stats \
            -O "-lockstep_trace grids.O.trace.json" -- "$abs_bin" >/dev/null 2>trace.err) ||
            why="-O '-lockstep_trace FILE' failed: $(tail -n 1 "$build/cuda/trace.err")"
        [ -z "$why" ] && [ ! -s "$build/cuda/grids.O.trace.json" ] && why="-O '-lockstep_trace FILE' wrote no trace"
    fi
    if [ -z "$why" ]; then
        echo "PASS trace (--trace)"
    else
        echo "FAIL trace: $why"
        fail=$((fail + 1))
    fi
fi

if [ "$fail" -ne 0 ]; then
    echo "$fail of $n CUDA programs failed"
    exit 1
fi
echo "all $n CUDA programs passed"
