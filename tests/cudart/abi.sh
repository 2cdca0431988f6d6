#!/bin/sh
# abi.sh BUILD -- lockstep's libcudart must agree with CUDA 13 on every enum
# value and struct layout a program compiles in: print both and compare.
# Needs nvcc (for the CUDA headers); skips without it.
build=${1:-build}
if ! command -v nvcc >/dev/null 2>&1; then
    echo "SKIP: nvcc not found; the ABI check needs the CUDA headers"
    exit 0
fi
out=$build/tests/cudart
mkdir -p "$out"
cc -std=c11 -Iinclude -Isrc -Itests/cudart -o "$out/abi_ours" tests/cudart/abi_ours.c || exit 1
nvcc -x c++ -Itests/cudart -Isrc -o "$out/abi_cuda" tests/cudart/abi_cuda.cpp || exit 1
"$out/abi_ours" > "$out/abi_ours.txt" || exit 1
"$out/abi_cuda" > "$out/abi_cuda.txt" || exit 1
if ! diff "$out/abi_cuda.txt" "$out/abi_ours.txt"; then
    echo "FAIL: lockstep's cuda_abi.h differs from CUDA's headers (< CUDA, > lockstep)"
    exit 1
fi
echo "ok: $(wc -l < "$out/abi_ours.txt") sizes, offsets and enum values match CUDA $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
