/*
 * cuda_errors.h -- CUDA's error codes (enum cudaError) with their names and
 * the texts cudaGetErrorString gives: one table, CUDA_ERRORS(X) with
 * X(name, value, text), for the two places that answer in CUDA's terms:
 * the runtime replacement (src/cudart, host code) and the device runtime's
 * built-ins (src/exec/devrt.c, device code: dynamic parallelism).  The
 * values are CUDA 13's; tests/cudart/abi.sh compares them with CUDA's
 * headers when nvcc is present.  Data only: no code, no other include.
 */
#ifndef LOCKSTEP_UTIL_CUDA_ERRORS_H
#define LOCKSTEP_UTIL_CUDA_ERRORS_H

#define CUDA_ERRORS(X)                                                                     \
    X(cudaSuccess, 0, "no error")                                                          \
    X(cudaErrorInvalidValue, 1, "invalid argument")                                        \
    X(cudaErrorMemoryAllocation, 2, "out of memory")                                       \
    X(cudaErrorInitializationError, 3, "initialization error")                             \
    X(cudaErrorCudartUnloading, 4, "driver shutting down")                                 \
    X(cudaErrorInvalidConfiguration, 9, "invalid configuration argument")                  \
    X(cudaErrorInvalidPitchValue, 12, "invalid pitch argument")                            \
    X(cudaErrorInvalidSymbol, 13, "invalid device symbol")                                 \
    X(cudaErrorInvalidHostPointer, 16, "invalid host pointer")                             \
    X(cudaErrorInvalidDevicePointer, 17, "invalid device pointer")                         \
    X(cudaErrorInvalidChannelDescriptor, 20, "invalid channel descriptor")                 \
    X(cudaErrorInvalidMemcpyDirection, 21, "invalid copy direction for memcpy")            \
    X(cudaErrorMissingConfiguration, 52, "__global__ function call is not configured")     \
    X(cudaErrorLaunchMaxDepthExceeded, 65, "launch would exceed maximum depth of nested launches") \
    X(cudaErrorLaunchFileScopedTex, 66, "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)") \
    X(cudaErrorLaunchFileScopedSurf, 67, "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)") \
    X(cudaErrorSyncDepthExceeded, 68, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth") \
    X(cudaErrorLaunchPendingCountExceeded, 69, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount") \
    X(cudaErrorInvalidDeviceFunction, 98, "invalid device function")                       \
    X(cudaErrorNoDevice, 100, "no CUDA-capable device is detected")                        \
    X(cudaErrorInvalidDevice, 101, "invalid device ordinal")                               \
    X(cudaErrorInvalidKernelImage, 200, "device kernel image is invalid")                  \
    X(cudaErrorNoKernelImageForDevice, 209, "no kernel image is available for execution on the device") \
    X(cudaErrorUnsupportedLimit, 215, "limit is not supported on this architecture")       \
    X(cudaErrorInvalidPtx, 218, "a PTX JIT compilation failed")                            \
    X(cudaErrorInvalidResourceHandle, 400, "invalid resource handle")                      \
    X(cudaErrorIllegalState, 401, "the operation cannot be performed in the present state") \
    X(cudaErrorSymbolNotFound, 500, "named symbol not found")                              \
    X(cudaErrorNotReady, 600, "device not ready")                                          \
    X(cudaErrorIllegalAddress, 700, "an illegal memory access was encountered")            \
    X(cudaErrorLaunchOutOfResources, 701, "too many resources requested for launch")       \
    X(cudaErrorLaunchTimeout, 702, "the launch timed out and was terminated")              \
    X(cudaErrorPeerAccessNotEnabled, 705, "peer access has not been enabled")              \
    X(cudaErrorAssert, 710, "device-side assert triggered")                                \
    X(cudaErrorHostMemoryAlreadyRegistered, 712, "part or all of the requested memory range is already mapped") \
    X(cudaErrorHostMemoryNotRegistered, 713, "pointer does not correspond to a registered memory region") \
    X(cudaErrorHardwareStackError, 714, "hardware stack error")        \
    X(cudaErrorIllegalInstruction, 715, "an illegal instruction was encountered")          \
    X(cudaErrorMisalignedAddress, 716, "misaligned address")                               \
    X(cudaErrorLaunchFailure, 719, "unspecified launch failure")                           \
    X(cudaErrorCooperativeLaunchTooLarge, 720, "too many blocks in cooperative launch")    \
    X(cudaErrorNotPermitted, 800, "operation not permitted")                               \
    X(cudaErrorNotSupported, 801, "operation not supported")                               \
    X(cudaErrorStreamCaptureUnsupported, 900, "operation not permitted when stream is capturing") \
    X(cudaErrorStreamCaptureInvalidated, 901, "operation failed due to a previous error during capture") \
    X(cudaErrorStreamCaptureUnmatched, 903, "capture was not initiated in this stream")    \
    X(cudaErrorStreamCaptureUnjoined, 904, "capturing stream has unjoined work")           \
    X(cudaErrorStreamCaptureIsolation, 905, "dependency created on uncaptured work in another stream") \
    X(cudaErrorStreamCaptureImplicit, 906, "operation would make the legacy stream depend on a capturing blocking stream") \
    X(cudaErrorGraphExecUpdateFailure, 910, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") \
    X(cudaErrorUnknown, 999, "unknown error")

#endif
