#!/bin/sh
# cli.sh -- the `lockstep` command: help, version, usage errors, and
# `ptx check` on good and bad files, `run` usage errors, and `config`: the
# option listing, the shipped configs (values, print/reload round trip) and
# bad configs (exit status and output).
# Run by tests/run.sh with LOCKSTEP set to the binary.
set -u
L=${LOCKSTEP:-build/lockstep}
fails=0
check() { # description, expected status, command...
    desc=$1; want=$2; shift 2
    out=$("$@" 2>&1); got=$?
    if [ "$got" -ne "$want" ]; then
        echo "FAIL: $desc: exit $got, expected $want"; echo "$out" | head -5
        fails=$((fails + 1))
    fi
    LAST=$out
}
contains() { # description, text
    case "$LAST" in *"$2"*) ;; *) echo "FAIL: $1: output lacks '$2'"; echo "$LAST" | head -5; fails=$((fails + 1)) ;; esac
}
check "--help" 0 "$L" --help;               contains "--help" "ptx"
check "no arguments" 2 "$L"
check "unknown command" 2 "$L" frobnicate;   contains "unknown command" "not a command"
check "version" 0 "$L" version;              contains "version" "lockstep 0."
check "--version" 0 "$L" --version
check "version extra arg" 2 "$L" version x
check "ptx --help" 0 "$L" ptx --help;        contains "ptx --help" "ptx check"
check "ptx without files" 2 "$L" ptx check
check "ptx bad subcommand" 2 "$L" ptx frob
check "ptx check good" 0 "$L" ptx check examples/saxpy.ptx
contains "kernel list" "kernel saxpy"
contains "params" "params    4 (24 bytes): 0:4 4:4 8:8 16:8"
contains "shared" "shared    2048 bytes static"
check "ptx check bad" 1 "$L" ptx check tests/ptx/bad/08-unknown-instruction.ptx
contains "bad file location" "08-unknown-instruction.ptx:8:2: error: unknown instruction 'frob'"
check "ptx check mixed" 1 "$L" ptx check examples/saxpy.ptx tests/ptx/bad/10-unknown-register.ptx
contains "mixed good" "examples/saxpy.ptx: ok"
check "ptx check missing file" 1 "$L" ptx check /nonexistent.ptx
contains "missing file" "cannot open"
check "ptx check every committed PTX file" 0 "$L" ptx check --quiet examples/*.ptx \
    tests/e2e/kernels/*.ptx tests/ptx/good/*.ptx bench/speed/*.ptx tests/conformance/conf.ptx
contains "conformance module" "conf.ptx: ok, 924 kernels"
# lockstep run: usage errors, exit status passthrough, option checking
check "run without a program" 2 "$L" run
contains "run without a program" "no program given"
check "run --help" 0 "$L" run --help
contains "run --help" "--stats-json FILE"
check "run unknown option" 2 "$L" run --frobnicate -- /bin/true
contains "run unknown option" "unknown option '--frobnicate'"
check "run missing program" 127 "$L" run -- /nonexistent/program
contains "run missing program" "not found or not executable"
check "run a non-CUDA program" 0 "$L" run --no-stats -- /bin/true
contains "run a non-CUDA program" "does not use the CUDA runtime"
check "run passes the exit status" 1 "$L" run --no-stats -- /bin/false
check "run passes arguments" 7 "$L" run --no-stats -- /bin/sh -c 'exit 7'
check "run bad config file" 2 "$L" run --config /nonexistent.config -- /bin/true
contains "run bad config file" "/nonexistent.config: cannot open"
check "run bad option" 2 "$L" run -O "-gpgpu_n_clusters zero" -- /bin/true
contains "run bad option" "bad value 'zero'"
check "run unknown config option" 2 "$L" run -O "-no_such_option 1" -- /bin/true
contains "run unknown config option" "unknown option '-no_such_option'"
check "run --redundancy bad value" 2 "$L" run --redundancy tmr -- /bin/true
contains "run --redundancy bad value" "bad value 'tmr' (expected none or dmr)"
check "run --redundancy dmr --functional" 2 "$L" run --functional --redundancy dmr -- /bin/true
contains "run --redundancy dmr --functional" "runs on the timing model"
check "run --redundancy dmr --det dab" 2 "$L" run --det dab --redundancy dmr -- /bin/true
contains "run --redundancy dmr --det dab" "cannot be combined with -lockstep_det dab"

# lockstep config: the option listing, the shipped configs, bad configs
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
check "config --help" 0 "$L" config --help
contains "config --help clusters" "-gpgpu_n_clusters"
contains "config --help clusters help" "number of SIMT core clusters"
contains "config --help dram" "-gpgpu_dram_timing_opt"
contains "config --help dram help" "DRAM timing in DRAM cycles"
contains "config --help group" "Memory partitions and L2"
check "config defaults" 0 "$L" config
contains "config defaults" "defaults: ok (0 of"
check "config --json" 0 "$L" config --json
contains "config --json" '"gpgpu_n_clusters": 15,'
check "config --print and --json" 2 "$L" config --print --json
check "config unknown argument" 2 "$L" config --frobnicate
contains "config unknown argument" "unknown option '--frobnicate'"
check "config --config without a file" 2 "$L" config --config
check "config missing file" 2 "$L" config --config /nonexistent.config
contains "config missing file" "/nonexistent.config: cannot open"
# each shipped config loads, and its --print output loads back to the same configuration
for c in gtx480 titanv m2070; do
    check "config $c" 0 "$L" config --config configs/$c.config
    contains "config $c" "configs/$c.config: ok"
    "$L" config --config configs/$c.config --print >"$tmp/$c.1" 2>&1
    "$L" config --config "$tmp/$c.1" --print >"$tmp/$c.2" 2>&1
    if ! cmp -s "$tmp/$c.1" "$tmp/$c.2"; then
        echo "FAIL: config $c: --print output does not reload to the same configuration"
        diff "$tmp/$c.1" "$tmp/$c.2" | head -5
        fails=$((fails + 1))
    fi
done
# the papers' numbers, as the loader sees them
line() { # description, a whole line expected in $LAST
    case "
$LAST
" in *"
$2
"*) ;; *) echo "FAIL: $1: lacks the line '$2'"; fails=$((fails + 1)) ;; esac
}
check "gtx480 values" 0 "$L" config --config configs/gtx480.config --print
line "gtx480 SMs" "-gpgpu_n_clusters 15"
line "gtx480 SMs per cluster" "-gpgpu_n_cores_per_cluster 1"
line "gtx480 threads" "-gpgpu_shader_core_pipeline 1536:32"
line "gtx480 schedulers" "-gpgpu_num_sched_per_core 2"
line "gtx480 registers" "-gpgpu_shader_registers 32768"
line "gtx480 CTAs" "-gpgpu_shader_cta 8"
line "gtx480 clocks" "-gpgpu_clock_domains 700.0:700.0:700.0:924.0"
line "gtx480 L1 16 KB" "-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:32:8,8"
line "gtx480 shared 48 KB" "-gpgpu_shmem_size 49152"
line "gtx480 partitions" "-gpgpu_n_mem 6"
line "gtx480 L2 128 KB/slice" "-gpgpu_cache:dl2 N:128:128:8,L:B:m:W:L,A:32:4,4"
check "titanv values" 0 "$L" config --config configs/titanv.config --print
line "titanv clusters (DAB Table I: 40)" "-gpgpu_n_clusters 40"
line "titanv SMs per cluster (2: 80 SMs)" "-gpgpu_n_cores_per_cluster 2"
line "titanv 64 warps" "-gpgpu_shader_core_pipeline 2048:32"
line "titanv schedulers" "-gpgpu_num_sched_per_core 4"
line "titanv scheduler" "-gpgpu_scheduler gto"
line "titanv registers" "-gpgpu_shader_registers 65536"
line "titanv clocks" "-gpgpu_clock_domains 1200.0:1200.0:1200.0:850.0"
line "titanv partitions" "-gpgpu_n_mem 24"
line "titanv L2 192 KB/slice" "-gpgpu_cache:dl2 S:64:128:24,L:B:m:L:L,A:384:4,32"
line "titanv L1 64-way" "-gpgpu_cache:dl1 S:4:128:64,L:L:s:N:L,A:256:8,16"
line "titanv shared 96 KB" "-gpgpu_shmem_size 98304"
line "titanv fence invalidates L1" "-lockstep_l1_invalidate_on_fence 1"
line "titanv DRAM queue" "-gpgpu_frfcfs_dram_sched_queue_size 32"
line "titanv flit" "-icnt_flit_size 40"
line "titanv input buffer" "-inct_in_buffer_limit 256"
line "titanv ejection buffer" "-inct_out_buffer_limit 32"
check "m2070 values" 0 "$L" config --config configs/m2070.config --print
line "m2070 TPCs (GpuTejas Table I: 8)" "-gpgpu_n_clusters 8"
line "m2070 SMs per TPC (2: 16 SMs)" "-gpgpu_n_cores_per_cluster 2"
line "m2070 CTAs" "-gpgpu_shader_cta 4"
line "m2070 schedulers" "-gpgpu_num_sched_per_core 2"
line "m2070 round robin" "-gpgpu_scheduler lrr"
line "m2070 shared 16 KB" "-gpgpu_shmem_size 16384"
line "m2070 const cache 8 KB 2-way 64 B" "-gpgpu_const_cache:l1 N:64:64:2,L:R:f:N:L,A:2:32,4"
line "m2070 int latencies" "-ptx_opcode_latency_int 1,1,2,2,4"
line "m2070 fp latencies" "-ptx_opcode_latency_fp 1,1,4,4,8"
line "m2070 memory latency" "-dram_latency 100"
line "m2070 partitions" "-gpgpu_n_mem 6"
line "m2070 clocks" "-gpgpu_clock_domains 575.0:1150.0:575.0:783.0"
check "-O after --config" 0 "$L" config --config configs/titanv.config \
    -O "-gpgpu_n_clusters 7" --print
line "-O after --config" "-gpgpu_n_clusters 7"
# bad configs: exit 2 and the loader's FILE:LINE: message
printf '# a comment\n-gpgpu_n_clusters 15\n-no_such_option 3\n' >"$tmp/unknown.config"
check "config unknown option" 2 "$L" config --config "$tmp/unknown.config"
contains "config unknown option" "$tmp/unknown.config:3: unknown option '-no_such_option'"
printf '\n-gpgpu_n_clusters 0\n' >"$tmp/badvalue.config"
check "config bad value" 2 "$L" config --config "$tmp/badvalue.config"
contains "config bad value" "$tmp/badvalue.config:2: -gpgpu_n_clusters: bad value '0'"
printf '%s\n' '-gpgpu_scheduler fifo' >"$tmp/badstring.config"
check "config bad string value" 2 "$L" config --config "$tmp/badstring.config"
contains "config bad string value" "$tmp/badstring.config:1: -gpgpu_scheduler: bad value 'fifo'"
printf '%s\n' '-gpgpu_n_clusters 15' '-gpgpu_n_mem' >"$tmp/novalue.config"
check "config missing value" 2 "$L" config --config "$tmp/novalue.config"
contains "config missing value" "$tmp/novalue.config:2: -gpgpu_n_mem: missing value"
check "config bad -O" 2 "$L" config -O "-gpgpu_num_sched_per_core 9"
contains "config bad -O" "--option:1: -gpgpu_num_sched_per_core: bad value '9'"
# values that each option accepts but the model cannot run: caught at load
check "config L1 without MSHRs" 2 "$L" config -O "-gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,A:0:8,8"
contains "config L1 without MSHRs" "at least 1 (with 0 MSHRs, no miss could be sent)"
check "config 32-byte L2 lines" 2 "$L" config -O "-gpgpu_cache:dl2 N:128:32:8,L:B:m:W:L,A:32:4,4"
contains "config 32-byte L2 lines" "lockstep models 128-byte data-cache lines, not 32"
check "config tRFC >= tREFI" 2 "$L" config -O "-lockstep_dram_tREFI 100" -O "-lockstep_dram_tRFC 100"
contains "config tRFC >= tREFI" "-lockstep_dram_tRFC 100 must be less than -lockstep_dram_tREFI 100"
check "config partition chunk" 2 "$L" config -O "-lockstep_partition_chunk 96"
contains "config partition chunk" "must be a power of two of at least 128"
# a UTF-8 byte-order mark is not text; bytes that would not show are escaped
printf '\357\273\277-gpgpu_n_clusters 4\n' >"$tmp/bom.config"
check "config with a byte-order mark" 0 "$L" config --config "$tmp/bom.config"
printf 'x\001\377y 3\n' >"$tmp/binary.config"
check "config with control bytes" 2 "$L" config --config "$tmp/binary.config"
contains "config with control bytes" "found 'x\\x01\\xffy'"
printf '.version 7.0\n.target sm_70\n.address_size 64\n\000\n' >"$tmp/nul.ptx"
check "ptx with a NUL byte" 1 "$L" ptx check "$tmp/nul.ptx"
contains "ptx with a NUL byte" "'\\x00'"
check "ptx check a missing file, once" 1 "$L" ptx check "$tmp/none.ptx"
[ "$(printf '%s\n' "$LAST" | grep -c none.ptx)" -eq 1 ] || fail "ptx check a missing file: not one line"
check "config bad texture cache" 2 "$L" config -O "-gpgpu_tex_cache:l1 abc"
contains "config bad texture cache" "-gpgpu_tex_cache:l1: bad value 'abc'"
check "config 65536 SMs" 2 "$L" config -O "-gpgpu_n_clusters 65536"
contains "config 65536 SMs" "= 65536 SMs: lockstep models at most 4096"
# an option given twice in one file: the same value is no change, another one an error
printf '%s\n' '-gpgpu_n_clusters 4' '# again' '-gpgpu_n_clusters 04' >"$tmp/twice-same.config"
check "config option twice, same value" 0 "$L" config --config "$tmp/twice-same.config"
printf '%s\n' '-gpgpu_n_clusters 4' '-gpgpu_n_clusters 5' >"$tmp/twice.config"
check "config option twice" 2 "$L" config --config "$tmp/twice.config"
contains "config option twice" "$tmp/twice.config:2: -gpgpu_n_clusters given again, as '5', after '4' on line 1"
check "config file then -O" 0 "$L" config --config "$tmp/twice-same.config" -O "-gpgpu_n_clusters 6"
# lockstep run: two spellings of one option must agree
check "run --det twice" 2 "$L" run --det dab --det gpudet -- /bin/true
contains "run --det twice" "--det dab and --det gpudet disagree (-lockstep_det)"
check "run --functional --timing" 2 "$L" run --functional --timing -- /bin/true
contains "run --functional --timing" "--functional and --timing disagree"
check "run --threads and -O" 2 "$L" run --threads 4 -O "-lockstep_threads 2" -- /bin/true
contains "run --threads and -O" "--threads 4 and -O '-lockstep_threads 2' disagree"
check "run --threads and the same -O" 0 "$L" run --no-stats --threads 2 -O "-lockstep_threads 2" -- /bin/true
check "run -O turns the progress line off" 0 "$L" run --no-stats -O "-lockstep_progress 0" -- /bin/true
# integers are decimal whatever their leading zeros, as GPGPU-Sim reads them
check "config leading zero" 0 "$L" config -O "-rop_latency 0120" --print
line "config leading zero" "-rop_latency 120"
check "config hexadecimal" 0 "$L" config -O "-rop_latency 0x20" --print
line "config hexadecimal" "-rop_latency 32"
# a never-ending input stops at the size cap with a message
check "config /dev/zero" 2 timeout 20 "$L" config --config /dev/zero
contains "config /dev/zero" "/dev/zero: more than 16 MiB: not a configuration file"
# lockstep run passes values, not text: a value cannot carry another option
check "run seed with an option in it" 2 "$L" run --nondet-seed "3 -lockstep_mode functional" -- /bin/true
contains "run seed with an option in it" "--nondet-seed: -lockstep_nondet_seed: bad value '3 -lockstep_mode functional'"
check "run -O with two options" 2 "$L" run -O "-gpgpu_n_clusters 4 -lockstep_mode functional" -- /bin/true
contains "run -O with two options" "bad value '4 -lockstep_mode functional'"
check "run -O without a value" 2 "$L" run -O "-gpgpu_n_clusters" -- /bin/true
contains "run -O without a value" "has no value"
check "run bad --timeout" 2 "$L" run --timeout soon -- /bin/true
contains "run bad --timeout" "-lockstep_timeout: bad value 'soon'"
check "run validates the configuration" 2 "$L" run -O "-lockstep_dram_tREFI 50" -O "-lockstep_dram_tRFC 60" -- /bin/true
contains "run validates the configuration" "must be less than -lockstep_dram_tREFI"
check "run --config /dev/zero" 2 timeout 20 "$L" run --config /dev/zero -- /bin/true
contains "run --config /dev/zero" "more than 16 MiB"

# lockstep run and the libraries a program needs, without nvcc: programs
# (run with $LOCKSTEP_RUN_ENV, which preloads ASan in the sanitizer build:
# the program loads lockstep's libcuda.so.1, built with it)
# linked with stand-ins of libcuda.so.1 (the driver API, which lockstep
# provides: the program gets lockstep's at run time) and libcublas.so.13
# (which lockstep does not provide: refused, naming it)
CC=${CC:-cc}
if command -v "$CC" >/dev/null 2>&1; then
    printf 'int cuInit(unsigned f) { return 34; }\nint cuDeviceGetCount(int *n) { return 34; }\n' \
        >"$tmp/fakecuda.c"
    printf 'int cublasCreate_v2(void *h) { return 1; }\n' >"$tmp/fakecublas.c"
    cat >"$tmp/drv.c" <<'EOT'
#include <stdio.h>
int cuInit(unsigned f);
int cuDeviceGetCount(int *n);
int main(void)
{
    int n = -1, r = cuInit(0);
    if (!r)
        r = cuDeviceGetCount(&n);
    printf("cuInit and cuDeviceGetCount: %d, %d devices\n", r, n);
    return r;
}
EOT
    printf 'int cublasCreate_v2(void *h);\nint main(void) { return cublasCreate_v2(0); }\n' \
        >"$tmp/blas.c"
    if "$CC" -shared -fPIC -Wl,-soname,libcuda.so.1 -o "$tmp/libcuda.so.1" "$tmp/fakecuda.c" &&
        "$CC" -shared -fPIC -Wl,-soname,libcublas.so.13 -o "$tmp/libcublas.so.13" \
            "$tmp/fakecublas.c" &&
        "$CC" -o "$tmp/drv" "$tmp/drv.c" "$tmp/libcuda.so.1" &&
        "$CC" -o "$tmp/blas" "$tmp/blas.c" "$tmp/libcublas.so.13"; then
        check "run a driver-API program" 0 env ${LOCKSTEP_RUN_ENV:-} "$L" run --no-stats -- "$tmp/drv"
        contains "run a driver-API program" "cuInit and cuDeviceGetCount: 0, 1 devices"
        case "$LAST" in *"static CUDA runtime"*|*"does not use"*)
            echo "FAIL: run a driver-API program: misdiagnosed"; fails=$((fails + 1)) ;; esac
        check "run a cuBLAS program" 2 "$L" run --no-stats -- "$tmp/blas"
        contains "run a cuBLAS program" "needs libcublas.so.13 (cuBLAS), which lockstep does not provide"
        # crafted section tables, which the program's loader never reads:
        # a symbol name offset near 4 GiB, a section table whose end wraps past 2^64
        if python3 - "$tmp/drv" "$tmp/drv-badsym" "$tmp/drv-badshoff" <<'PY'; then
import struct, sys
d = bytearray(open(sys.argv[1], "rb").read())
shoff, = struct.unpack_from("<Q", d, 0x28)
shentsize, shnum = struct.unpack_from("<HH", d, 0x3a)
for i in range(shnum):
    name, typ, _, _, off, size = struct.unpack_from("<IIQQQQ", d, shoff + i * shentsize)
    if typ == 2:  # SHT_SYMTAB: the first defined symbol's name
        for s in range(off, off + size, 24):
            st_name, _, _, shndx = struct.unpack_from("<IBBH", d, s)
            if shndx and st_name:
                struct.pack_into("<I", d, s, 0xfffffff0)
                break
open(sys.argv[2], "wb").write(d)
d = bytearray(open(sys.argv[1], "rb").read())
struct.pack_into("<HH", d, 0x3c, 65535, 0)  # e_shnum, e_shstrndx
struct.pack_into("<Q", d, 0x28, (1 << 64) - 65535 * 64 + 64)  # the end wraps to 64
open(sys.argv[3], "wb").write(d)
PY
            chmod +x "$tmp/drv-badsym" "$tmp/drv-badshoff"
            check "run a program with a bad symbol name" 0 env ${LOCKSTEP_RUN_ENV:-} "$L" run --no-stats -- "$tmp/drv-badsym"
            check "run a program with a bad section table" 0 env ${LOCKSTEP_RUN_ENV:-} "$L" run --no-stats -- "$tmp/drv-badshoff"
        else
            echo "FAIL: cannot patch $tmp/drv"; fails=$((fails + 1))
        fi
    else
        echo "FAIL: cannot build the stand-in libraries with $CC"; fails=$((fails + 1))
    fi
fi

if [ "$fails" -ne 0 ]; then echo "$fails CLI checks failed"; exit 1; fi
echo "ok: all CLI checks"
