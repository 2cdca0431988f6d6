#!/bin/sh
# tests/bench/run_driver.sh LOCKSTEP_BIN -- the suite driver bench/run on
# bad command lines and on workloads that misbehave: a failing check, a
# crash, a missing RESULT line, a nondeterministic hash under --repeat, a
# result that needs weak memory under --sc.
# Each must give the documented exit status (2: usage or build error; 1: a
# workload failed) and a message naming the workload.  The misbehaving
# workloads are tiny CUDA programs made here, so this skips without nvcc.
set -u
L=${1:-build/lockstep}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
fails=0
check() { # description, expected status, command...
    desc=$1; want=$2; shift 2
    out=$("$@" 2>&1); got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $desc: exit $got, expected $want"; echo "$out" | tail -8
        fails=$((fails + 1))
    fi
    LAST=$out
}
contains() { # description, text
    case "$LAST" in *"$2"*) ;; *) echo "FAIL: $1: output lacks '$2'"; echo "$LAST" | tail -8; fails=$((fails + 1)) ;; esac
}
R="python3 bench/run --lockstep $L"
check "--help" 0 $R --help;                     contains "--help" "--size"
check "--list" 0 $R --list;                     contains "--list" "bfs_racy"
check "unknown workload" 2 $R no_such_thing;    contains "unknown workload" "unknown workload 'no_such_thing'"
check "bad size" 2 $R --size huge;              contains "bad size" "invalid choice"
check "bad repeat" 2 $R --repeat 0 bfs;         contains "bad repeat" "--repeat must be at least 1"
check "missing suite dir" 2 $R --suite /nonexistent; contains "missing suite" "not a directory"
check "missing lockstep" 2 python3 bench/run --lockstep /nonexistent/lockstep bfs
contains "missing lockstep" "build lockstep first"

if ! command -v nvcc >/dev/null 2>&1; then
    [ "$fails" -eq 0 ] || exit 1
    echo "ok: usage checks (SKIP: nvcc not found, misbehaving workloads not built)"
    exit 0
fi
check "nvcc missing from PATH" 2 env PATH=/usr/bin:/bin /usr/bin/python3 bench/run --lockstep "$L" bfs
contains "nvcc missing" "nvcc not found"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mk() { # name, body of main after the kernel ran
    mkdir -p "$tmp/suite/$1"
    cat >"$tmp/suite/$1/$1.cu" <<CU
#include "bench.h"
__global__ void k(unsigned *p) { p[threadIdx.x] = threadIdx.x; }
int main(int argc, char **argv)
{
    bench_args a = bench_parse(argc, argv);
    (void)a;
    unsigned *d;
    CUDA_CHECK(cudaMalloc(&d, 32 * sizeof(unsigned)));
    k<<<1, 32>>>(d);
    CUDA_CHECK(cudaDeviceSynchronize());
    $2
}
CU
}
mk good 'return bench_result(1, 0x1234, NULL);'
mk badcheck 'return bench_result(0, 0x1234, NULL);'
mk crash 'unsigned *bad = 0; return (int)*(volatile unsigned *)bad;'
mk noresult 'printf("done\n"); return 0;'
mk flaky 'FILE *f = fopen("/dev/urandom", "rb"); unsigned long long h = 0; if (!f || fread(&h, sizeof h, 1, f) != 1) return 3; fclose(f); return bench_result(1, h, NULL);'
mk weak 'return bench_result(1, 0x1234, "a:seq-exact,b:levels-weak");'
mk broken 'this does not compile;'
S="$R --suite $tmp/suite --bin-dir $tmp/bin"
check "good workload" 0 $S good;                contains "good workload" "all 1 workloads passed"
contains "good hash" "0000000000001234"
check "json" 0 $S --json good
contains "json keys" '"host_seconds"'
contains "json check" '"check": "pass"'
check "failing check" 1 $S good badcheck;       contains "failing check" "1 of 2 workloads failed"
contains "failing check named" "badcheck"
check "crash" 1 $S crash;                       contains "crash" "crash: exit status"
check "no RESULT line" 1 $S noresult;           contains "no RESULT" "no RESULT line last"
check "nondeterministic hash" 1 $S --repeat 2 flaky; contains "nondeterministic" "runs differ"
check "weak note without --sc" 0 $S weak
check "weak note with --sc" 1 $S --sc weak;    contains "weak note with --sc" "only weak memory can give"
# --native runs the binary itself: without a GPU its CUDA calls fail
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
    check "native" 0 $S --native good
else
    check "native without a GPU" 1 $S --native good; contains "native" "cuda-error"
fi
check "build error" 2 $S broken;                contains "build error" "nvcc failed"
if [ "$fails" -ne 0 ]; then
    echo "$fails bench/run checks failed"
    exit 1
fi
echo "ok: bench/run usage errors, failing, crashing, silent and nondeterministic workloads"
