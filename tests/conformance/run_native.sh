#!/bin/sh
# run_native.sh OUTDIR -- produce the conformance golden file on a machine
# with an NVIDIA GPU and the CUDA toolkit.  Run from the repository root:
#
#     sh tests/conformance/run_native.sh /tmp/conf-out
#     cp /tmp/conf-out/golden.bin tests/conformance/golden.bin
#
# Builds native_runner with nvcc (falling back to gcc and the toolkit's
# headers), runs every case of tests/conformance/cases.txt on GPU 0, and
# writes OUTDIR/golden.bin and OUTDIR/log.txt.  Needs no network.  Exit
# status: the runner's (0 all ok, 1 some cases missing, 2 failure).
set -u

OUT=${1:?usage: run_native.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/log.txt
BIN=$OUT/native_runner
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}

: >"$LOG"
log() { echo "$*" | tee -a "$LOG"; }

log "run_native.sh: $(date -u '+%Y-%m-%dT%H:%M:%SZ') in $(pwd)"
command -v nvidia-smi >/dev/null 2>&1 &&
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$LOG"

built=0
if command -v nvcc >/dev/null 2>&1; then
    nvcc --version 2>&1 | tail -n 1 | tee -a "$LOG"
    if nvcc -O2 -o "$BIN" "$HERE/native_runner.c" -lcuda >>"$LOG" 2>&1; then
        built=1
    elif nvcc -O2 -o "$BIN" "$HERE/native_runner.c" -L"$CUDA_HOME/lib64/stubs" -lcuda \
        >>"$LOG" 2>&1; then
        built=1 # the stub's soname is libcuda.so.1: the driver's library loads at run time
    fi
fi
if [ $built = 0 ]; then
    log "run_native.sh: nvcc build failed; trying cc"
    if cc -std=c11 -O2 -I"$CUDA_HOME/include" -o "$BIN" "$HERE/native_runner.c" \
        -L"$CUDA_HOME/lib64" -L"$CUDA_HOME/lib64/stubs" -lcuda >>"$LOG" 2>&1; then
        built=1
    fi
fi
if [ $built = 0 ]; then
    log "run_native.sh: cannot build native_runner (see $LOG)"
    exit 2
fi

"$BIN" "$HERE" "$OUT/golden.bin" 2>&1 | tee -a "$LOG"
# POSIX sh has no PIPESTATUS: the status comes from what the runner logged
if grep -q '^native_runner: wrote ' "$LOG"; then
    if grep -q '^MISSING ' "$LOG"; then rc=1; else rc=0; fi
    log "run_native.sh: golden file $OUT/golden.bin ($(wc -c <"$OUT/golden.bin") bytes)"
    log "run_native.sh: install it with: cp $OUT/golden.bin $HERE/golden.bin"
else
    rc=2
    log "run_native.sh: no golden file was written"
fi
exit $rc
