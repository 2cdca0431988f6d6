#!/bin/sh
# regen.sh -- regenerate every tests/e2e/kernels/*.ptx from its .cu.
#
# Each .ptx is committed next to its .cu (the tests never need nvcc); run this
# after editing a kernel, from anywhere:
#
#   sh tests/e2e/kernels/regen.sh            # all kernels
#   sh tests/e2e/kernels/regen.sh faults     # only faults.cu
#
# It runs, from the repository root, exactly
#   nvcc -arch=sm_75 --ptx -lineinfo -o tests/e2e/kernels/X.ptx tests/e2e/kernels/X.cu
# (nvcc 13.0 made the committed files), with another -arch where the .cu
# has a line "// nvcc-arch: sm_NN" (its instructions need that target).  The PTX's .file directives record
# the absolute path of the .cu, so line numbers in fault reports point at it.
set -e
cd "$(dirname "$0")/../../.."
if [ $# -eq 0 ]; then
    set -- tests/e2e/kernels/*.cu
fi
for arg in "$@"; do
    name=$(basename "$arg" .cu)
    cu=tests/e2e/kernels/$name.cu
    ptx=tests/e2e/kernels/$name.ptx
    arch=$(sed -n 's|^// nvcc-arch: *\(sm_[0-9a-z]*\).*|\1|p' "$cu" | head -n 1)
    arch=${arch:-sm_75}
    echo "nvcc -arch=$arch --ptx -lineinfo -o $ptx $cu"
    nvcc -arch="$arch" --ptx -lineinfo -o "$ptx" "$cu"
done
