/*
 * abi_fields.h -- every struct field and enum value of src/cudart/cuda_abi.h,
 * as X-macros.  abi_ours.c expands them against cuda_abi.h and abi_cuda.cpp
 * against the real CUDA headers; tests/cudart/abi.sh compares the two.
 */
#define FIELDS_cudaDeviceProp(F) \
    F(cudaDeviceProp, name) \
    F(cudaDeviceProp, uuid) \
    F(cudaDeviceProp, luid) \
    F(cudaDeviceProp, luidDeviceNodeMask) \
    F(cudaDeviceProp, totalGlobalMem) \
    F(cudaDeviceProp, sharedMemPerBlock) \
    F(cudaDeviceProp, regsPerBlock) \
    F(cudaDeviceProp, warpSize) \
    F(cudaDeviceProp, memPitch) \
    F(cudaDeviceProp, maxThreadsPerBlock) \
    F(cudaDeviceProp, maxThreadsDim) \
    F(cudaDeviceProp, maxGridSize) \
    F(cudaDeviceProp, totalConstMem) \
    F(cudaDeviceProp, major) \
    F(cudaDeviceProp, minor) \
    F(cudaDeviceProp, textureAlignment) \
    F(cudaDeviceProp, texturePitchAlignment) \
    F(cudaDeviceProp, multiProcessorCount) \
    F(cudaDeviceProp, integrated) \
    F(cudaDeviceProp, canMapHostMemory) \
    F(cudaDeviceProp, maxTexture1D) \
    F(cudaDeviceProp, maxTexture1DMipmap) \
    F(cudaDeviceProp, maxTexture2D) \
    F(cudaDeviceProp, maxTexture2DMipmap) \
    F(cudaDeviceProp, maxTexture2DLinear) \
    F(cudaDeviceProp, maxTexture2DGather) \
    F(cudaDeviceProp, maxTexture3D) \
    F(cudaDeviceProp, maxTexture3DAlt) \
    F(cudaDeviceProp, maxTextureCubemap) \
    F(cudaDeviceProp, maxTexture1DLayered) \
    F(cudaDeviceProp, maxTexture2DLayered) \
    F(cudaDeviceProp, maxTextureCubemapLayered) \
    F(cudaDeviceProp, maxSurface1D) \
    F(cudaDeviceProp, maxSurface2D) \
    F(cudaDeviceProp, maxSurface3D) \
    F(cudaDeviceProp, maxSurface1DLayered) \
    F(cudaDeviceProp, maxSurface2DLayered) \
    F(cudaDeviceProp, maxSurfaceCubemap) \
    F(cudaDeviceProp, maxSurfaceCubemapLayered) \
    F(cudaDeviceProp, surfaceAlignment) \
    F(cudaDeviceProp, concurrentKernels) \
    F(cudaDeviceProp, ECCEnabled) \
    F(cudaDeviceProp, pciBusID) \
    F(cudaDeviceProp, pciDeviceID) \
    F(cudaDeviceProp, pciDomainID) \
    F(cudaDeviceProp, tccDriver) \
    F(cudaDeviceProp, asyncEngineCount) \
    F(cudaDeviceProp, unifiedAddressing) \
    F(cudaDeviceProp, memoryBusWidth) \
    F(cudaDeviceProp, l2CacheSize) \
    F(cudaDeviceProp, persistingL2CacheMaxSize) \
    F(cudaDeviceProp, maxThreadsPerMultiProcessor) \
    F(cudaDeviceProp, streamPrioritiesSupported) \
    F(cudaDeviceProp, globalL1CacheSupported) \
    F(cudaDeviceProp, localL1CacheSupported) \
    F(cudaDeviceProp, sharedMemPerMultiprocessor) \
    F(cudaDeviceProp, regsPerMultiprocessor) \
    F(cudaDeviceProp, managedMemory) \
    F(cudaDeviceProp, isMultiGpuBoard) \
    F(cudaDeviceProp, multiGpuBoardGroupID) \
    F(cudaDeviceProp, hostNativeAtomicSupported) \
    F(cudaDeviceProp, pageableMemoryAccess) \
    F(cudaDeviceProp, concurrentManagedAccess) \
    F(cudaDeviceProp, computePreemptionSupported) \
    F(cudaDeviceProp, canUseHostPointerForRegisteredMem) \
    F(cudaDeviceProp, cooperativeLaunch) \
    F(cudaDeviceProp, sharedMemPerBlockOptin) \
    F(cudaDeviceProp, pageableMemoryAccessUsesHostPageTables) \
    F(cudaDeviceProp, directManagedMemAccessFromHost) \
    F(cudaDeviceProp, maxBlocksPerMultiProcessor) \
    F(cudaDeviceProp, accessPolicyMaxWindowSize) \
    F(cudaDeviceProp, reservedSharedMemPerBlock) \
    F(cudaDeviceProp, hostRegisterSupported) \
    F(cudaDeviceProp, sparseCudaArraySupported) \
    F(cudaDeviceProp, hostRegisterReadOnlySupported) \
    F(cudaDeviceProp, timelineSemaphoreInteropSupported) \
    F(cudaDeviceProp, memoryPoolsSupported) \
    F(cudaDeviceProp, gpuDirectRDMASupported) \
    F(cudaDeviceProp, gpuDirectRDMAFlushWritesOptions) \
    F(cudaDeviceProp, gpuDirectRDMAWritesOrdering) \
    F(cudaDeviceProp, memoryPoolSupportedHandleTypes) \
    F(cudaDeviceProp, deferredMappingCudaArraySupported) \
    F(cudaDeviceProp, ipcEventSupported) \
    F(cudaDeviceProp, clusterLaunch) \
    F(cudaDeviceProp, unifiedFunctionPointers) \
    F(cudaDeviceProp, deviceNumaConfig) \
    F(cudaDeviceProp, deviceNumaId) \
    F(cudaDeviceProp, mpsEnabled) \
    F(cudaDeviceProp, hostNumaId) \
    F(cudaDeviceProp, gpuPciDeviceID) \
    F(cudaDeviceProp, gpuPciSubsystemID) \
    F(cudaDeviceProp, hostNumaMultinodeIpcSupported) \
    F(cudaDeviceProp, reserved) \

#define FIELDS_cudaFuncAttributes(F) \
    F(cudaFuncAttributes, sharedSizeBytes) \
    F(cudaFuncAttributes, constSizeBytes) \
    F(cudaFuncAttributes, localSizeBytes) \
    F(cudaFuncAttributes, maxThreadsPerBlock) \
    F(cudaFuncAttributes, numRegs) \
    F(cudaFuncAttributes, ptxVersion) \
    F(cudaFuncAttributes, binaryVersion) \
    F(cudaFuncAttributes, cacheModeCA) \
    F(cudaFuncAttributes, maxDynamicSharedSizeBytes) \
    F(cudaFuncAttributes, preferredShmemCarveout) \
    F(cudaFuncAttributes, clusterDimMustBeSet) \
    F(cudaFuncAttributes, requiredClusterWidth) \
    F(cudaFuncAttributes, requiredClusterHeight) \
    F(cudaFuncAttributes, requiredClusterDepth) \
    F(cudaFuncAttributes, clusterSchedulingPolicyPreference) \
    F(cudaFuncAttributes, nonPortableClusterSizeAllowed) \
    F(cudaFuncAttributes, reserved) \

#define FIELDS_cudaChannelFormatDesc(F) \
    F(cudaChannelFormatDesc, x) \
    F(cudaChannelFormatDesc, y) \
    F(cudaChannelFormatDesc, z) \
    F(cudaChannelFormatDesc, w) \
    F(cudaChannelFormatDesc, f) \

#define FIELDS_cudaPitchedPtr(F) \
    F(cudaPitchedPtr, ptr) \
    F(cudaPitchedPtr, pitch) \
    F(cudaPitchedPtr, xsize) \
    F(cudaPitchedPtr, ysize) \

#define FIELDS_cudaExtent(F) \
    F(cudaExtent, width) \
    F(cudaExtent, height) \
    F(cudaExtent, depth) \

#define FIELDS_cudaPos(F) \
    F(cudaPos, x) \
    F(cudaPos, y) \
    F(cudaPos, z) \

#define FIELDS_cudaMemcpy3DParms(F) \
    F(cudaMemcpy3DParms, srcArray) \
    F(cudaMemcpy3DParms, srcPos) \
    F(cudaMemcpy3DParms, srcPtr) \
    F(cudaMemcpy3DParms, dstArray) \
    F(cudaMemcpy3DParms, dstPos) \
    F(cudaMemcpy3DParms, dstPtr) \
    F(cudaMemcpy3DParms, extent) \
    F(cudaMemcpy3DParms, kind) \

#define FIELDS_cudaMemLocation(F) \
    F(cudaMemLocation, type) \
    F(cudaMemLocation, id) \

#define FIELDS_cudaMemPoolProps(F) \
    F(cudaMemPoolProps, allocType) \
    F(cudaMemPoolProps, handleTypes) \
    F(cudaMemPoolProps, location) \
    F(cudaMemPoolProps, win32SecurityAttributes) \
    F(cudaMemPoolProps, maxSize) \
    F(cudaMemPoolProps, usage) \
    F(cudaMemPoolProps, reserved) \

#define FIELDS_cudaKernelNodeParams(F) \
    F(cudaKernelNodeParams, func) \
    F(cudaKernelNodeParams, gridDim) \
    F(cudaKernelNodeParams, blockDim) \
    F(cudaKernelNodeParams, sharedMemBytes) \
    F(cudaKernelNodeParams, kernelParams) \
    F(cudaKernelNodeParams, extra) \

#define FIELDS_cudaMemsetParams(F) \
    F(cudaMemsetParams, dst) \
    F(cudaMemsetParams, pitch) \
    F(cudaMemsetParams, value) \
    F(cudaMemsetParams, elementSize) \
    F(cudaMemsetParams, width) \
    F(cudaMemsetParams, height) \

#define FIELDS_cudaHostNodeParams(F) \
    F(cudaHostNodeParams, fn) \
    F(cudaHostNodeParams, userData) \

#define FIELDS_cudaGraphExecUpdateResultInfo_st(F) \
    F(cudaGraphExecUpdateResultInfo_st, result) \
    F(cudaGraphExecUpdateResultInfo_st, errorNode) \
    F(cudaGraphExecUpdateResultInfo_st, errorFromNode) \

#define FIELDS_cudaResourceDesc(F) \
    F(cudaResourceDesc, resType) \
    F(cudaResourceDesc, res) \
    F(cudaResourceDesc, flags) \

#define FIELDS_cudaTextureDesc(F) \
    F(cudaTextureDesc, addressMode) \
    F(cudaTextureDesc, filterMode) \
    F(cudaTextureDesc, readMode) \
    F(cudaTextureDesc, sRGB) \
    F(cudaTextureDesc, borderColor) \
    F(cudaTextureDesc, normalizedCoords) \
    F(cudaTextureDesc, maxAnisotropy) \
    F(cudaTextureDesc, mipmapFilterMode) \
    F(cudaTextureDesc, mipmapLevelBias) \
    F(cudaTextureDesc, minMipmapLevelClamp) \
    F(cudaTextureDesc, maxMipmapLevelClamp) \
    F(cudaTextureDesc, disableTrilinearOptimization) \
    F(cudaTextureDesc, seamlessCubemap) \

#define FIELDS_cudaResourceViewDesc(F) \
    F(cudaResourceViewDesc, format) \
    F(cudaResourceViewDesc, width) \
    F(cudaResourceViewDesc, height) \
    F(cudaResourceViewDesc, depth) \
    F(cudaResourceViewDesc, firstMipmapLevel) \
    F(cudaResourceViewDesc, lastMipmapLevel) \
    F(cudaResourceViewDesc, firstLayer) \
    F(cudaResourceViewDesc, lastLayer) \
    F(cudaResourceViewDesc, reserved) \

#define FIELDS_cudaPointerAttributes(F) \
    F(cudaPointerAttributes, type) \
    F(cudaPointerAttributes, device) \
    F(cudaPointerAttributes, devicePointer) \
    F(cudaPointerAttributes, hostPointer) \
    F(cudaPointerAttributes, reserved) \

#define FIELDS_cudaLaunchAttribute_st(F) \
    F(cudaLaunchAttribute_st, id) \
    F(cudaLaunchAttribute_st, pad) \
    F(cudaLaunchAttribute_st, val) \

#define FIELDS_cudaLaunchConfig_st(F) \
    F(cudaLaunchConfig_st, gridDim) \
    F(cudaLaunchConfig_st, blockDim) \
    F(cudaLaunchConfig_st, dynamicSmemBytes) \
    F(cudaLaunchConfig_st, stream) \
    F(cudaLaunchConfig_st, attrs) \
    F(cudaLaunchConfig_st, numAttrs) \

#define FIELDS_cudaMemAccessDesc(F) \
    F(cudaMemAccessDesc, location) \
    F(cudaMemAccessDesc, flags) \

#define FIELDS_cudaMemAllocNodeParams(F) \
    F(cudaMemAllocNodeParams, poolProps) \
    F(cudaMemAllocNodeParams, accessDescs) \
    F(cudaMemAllocNodeParams, accessDescCount) \
    F(cudaMemAllocNodeParams, bytesize) \
    F(cudaMemAllocNodeParams, dptr) \

#define FIELDS_cudaConditionalNodeParams(F) \
    F(cudaConditionalNodeParams, handle) \
    F(cudaConditionalNodeParams, type) \
    F(cudaConditionalNodeParams, size) \
    F(cudaConditionalNodeParams, phGraph_out) \

#define FIELDS_cudaKernelNodeParamsV2(F) \
    F(cudaKernelNodeParamsV2, func) \
    F(cudaKernelNodeParamsV2, gridDim) \
    F(cudaKernelNodeParamsV2, blockDim) \
    F(cudaKernelNodeParamsV2, sharedMemBytes) \
    F(cudaKernelNodeParamsV2, kernelParams) \
    F(cudaKernelNodeParamsV2, extra) \

#define FIELDS_cudaMemcpyNodeParams(F) \
    F(cudaMemcpyNodeParams, flags) \
    F(cudaMemcpyNodeParams, reserved) \
    F(cudaMemcpyNodeParams, copyParams) \

#define FIELDS_cudaMemsetParamsV2(F) \
    F(cudaMemsetParamsV2, dst) \
    F(cudaMemsetParamsV2, pitch) \
    F(cudaMemsetParamsV2, value) \
    F(cudaMemsetParamsV2, elementSize) \
    F(cudaMemsetParamsV2, width) \
    F(cudaMemsetParamsV2, height) \

#define FIELDS_cudaHostNodeParamsV2(F) \
    F(cudaHostNodeParamsV2, fn) \
    F(cudaHostNodeParamsV2, userData) \

#define FIELDS_cudaChildGraphNodeParams(F) \
    F(cudaChildGraphNodeParams, graph) \
    F(cudaChildGraphNodeParams, ownership) \

#define FIELDS_cudaEventRecordNodeParams(F) \
    F(cudaEventRecordNodeParams, event) \

#define FIELDS_cudaEventWaitNodeParams(F) \
    F(cudaEventWaitNodeParams, event) \

#define FIELDS_cudaMemAllocNodeParamsV2(F) \
    F(cudaMemAllocNodeParamsV2, poolProps) \
    F(cudaMemAllocNodeParamsV2, accessDescs) \
    F(cudaMemAllocNodeParamsV2, accessDescCount) \
    F(cudaMemAllocNodeParamsV2, bytesize) \
    F(cudaMemAllocNodeParamsV2, dptr) \

#define FIELDS_cudaMemFreeNodeParams(F) \
    F(cudaMemFreeNodeParams, dptr) \

#define FIELDS_cudaGraphNodeParams(F) \
    F(cudaGraphNodeParams, type) \
    F(cudaGraphNodeParams, reserved0) \
    F(cudaGraphNodeParams, reserved1) \
    F(cudaGraphNodeParams, kernel) \
    F(cudaGraphNodeParams, memcpy) \
    F(cudaGraphNodeParams, memset) \
    F(cudaGraphNodeParams, host) \
    F(cudaGraphNodeParams, graph) \
    F(cudaGraphNodeParams, eventWait) \
    F(cudaGraphNodeParams, eventRecord) \
    F(cudaGraphNodeParams, alloc) \
    F(cudaGraphNodeParams, free) \
    F(cudaGraphNodeParams, conditional) \
    F(cudaGraphNodeParams, conditional.handle) \
    F(cudaGraphNodeParams, conditional.type) \
    F(cudaGraphNodeParams, conditional.size) \
    F(cudaGraphNodeParams, conditional.phGraph_out) \
    F(cudaGraphNodeParams, reserved2) \

#define FIELDS_cudaGraphEdgeData_st(F) \
    F(cudaGraphEdgeData_st, from_port) \
    F(cudaGraphEdgeData_st, to_port) \
    F(cudaGraphEdgeData_st, type) \
    F(cudaGraphEdgeData_st, reserved) \

#define STRUCTS_MORE(F) \
    FIELDS_cudaMemAccessDesc(F) \
    FIELDS_cudaMemAllocNodeParams(F) \
    FIELDS_cudaPointerAttributes(F) \
    FIELDS_cudaLaunchAttribute_st(F) \
    FIELDS_cudaLaunchConfig_st(F) \
    FIELDS_cudaResourceDesc(F) \
    FIELDS_cudaTextureDesc(F) \
    FIELDS_cudaResourceViewDesc(F) \
    FIELDS_cudaPitchedPtr(F) \
    FIELDS_cudaExtent(F) \
    FIELDS_cudaPos(F) \
    FIELDS_cudaMemcpy3DParms(F) \
    FIELDS_cudaMemLocation(F) \
    FIELDS_cudaMemPoolProps(F) \
    FIELDS_cudaKernelNodeParams(F) \
    FIELDS_cudaMemsetParams(F) \
    FIELDS_cudaHostNodeParams(F) \
    FIELDS_cudaGraphExecUpdateResultInfo_st(F) \
    FIELDS_cudaConditionalNodeParams(F) \
    FIELDS_cudaKernelNodeParamsV2(F) \
    FIELDS_cudaMemcpyNodeParams(F) \
    FIELDS_cudaMemsetParamsV2(F) \
    FIELDS_cudaHostNodeParamsV2(F) \
    FIELDS_cudaChildGraphNodeParams(F) \
    FIELDS_cudaEventRecordNodeParams(F) \
    FIELDS_cudaEventWaitNodeParams(F) \
    FIELDS_cudaMemAllocNodeParamsV2(F) \
    FIELDS_cudaMemFreeNodeParams(F) \
    FIELDS_cudaGraphNodeParams(F) \
    FIELDS_cudaGraphEdgeData_st(F) \

#define SIZES(Z) \
    Z(cudaMemAccessDesc) \
    Z(cudaMemAllocNodeParams) \
    Z(cudaPointerAttributes) \
    Z(cudaLaunchAttribute_st) \
    Z(cudaLaunchConfig_st) \
    Z(cudaResourceDesc) \
    Z(cudaTextureDesc) \
    Z(cudaResourceViewDesc) \
    Z(cudaPitchedPtr) \
    Z(cudaExtent) \
    Z(cudaPos) \
    Z(cudaMemcpy3DParms) \
    Z(cudaMemLocation) \
    Z(cudaMemPoolProps) \
    Z(cudaKernelNodeParams) \
    Z(cudaMemsetParams) \
    Z(cudaHostNodeParams) \
    Z(cudaGraphExecUpdateResultInfo_st) \
    Z(cudaConditionalNodeParams) \
    Z(cudaKernelNodeParamsV2) \
    Z(cudaMemcpyNodeParams) \
    Z(cudaMemsetParamsV2) \
    Z(cudaHostNodeParamsV2) \
    Z(cudaChildGraphNodeParams) \
    Z(cudaEventRecordNodeParams) \
    Z(cudaEventWaitNodeParams) \
    Z(cudaMemAllocNodeParamsV2) \
    Z(cudaMemFreeNodeParams) \
    Z(cudaGraphNodeParams) \
    Z(cudaGraphEdgeData_st) \

#define ENUMS(E) \
    E(cudaSuccess) \
    E(cudaErrorInvalidValue) \
    E(cudaErrorMemoryAllocation) \
    E(cudaErrorInitializationError) \
    E(cudaErrorCudartUnloading) \
    E(cudaErrorInvalidConfiguration) \
    E(cudaErrorInvalidPitchValue) \
    E(cudaErrorInvalidSymbol) \
    E(cudaErrorInvalidHostPointer) \
    E(cudaErrorInvalidDevicePointer) \
    E(cudaErrorInvalidMemcpyDirection) \
    E(cudaErrorMissingConfiguration) \
    E(cudaErrorLaunchMaxDepthExceeded) \
    E(cudaErrorLaunchFileScopedTex) \
    E(cudaErrorLaunchFileScopedSurf) \
    E(cudaErrorSyncDepthExceeded) \
    E(cudaErrorLaunchPendingCountExceeded) \
    E(cudaErrorInvalidDeviceFunction) \
    E(cudaErrorNoDevice) \
    E(cudaErrorInvalidDevice) \
    E(cudaErrorInvalidKernelImage) \
    E(cudaErrorNoKernelImageForDevice) \
    E(cudaErrorUnsupportedLimit) \
    E(cudaErrorInvalidPtx) \
    E(cudaErrorInvalidResourceHandle) \
    E(cudaErrorSymbolNotFound) \
    E(cudaErrorNotReady) \
    E(cudaErrorIllegalAddress) \
    E(cudaErrorLaunchOutOfResources) \
    E(cudaErrorLaunchTimeout) \
    E(cudaErrorAssert) \
    E(cudaErrorHardwareStackError) \
    E(cudaErrorIllegalInstruction) \
    E(cudaErrorMisalignedAddress) \
    E(cudaErrorLaunchFailure) \
    E(cudaErrorNotPermitted) \
    E(cudaErrorNotSupported) \
    E(cudaErrorUnknown) \
    E(cudaDevAttrMaxThreadsPerBlock) \
    E(cudaDevAttrMaxBlockDimX) \
    E(cudaDevAttrMaxBlockDimY) \
    E(cudaDevAttrMaxBlockDimZ) \
    E(cudaDevAttrMaxGridDimX) \
    E(cudaDevAttrMaxGridDimY) \
    E(cudaDevAttrMaxGridDimZ) \
    E(cudaDevAttrMaxSharedMemoryPerBlock) \
    E(cudaDevAttrTotalConstantMemory) \
    E(cudaDevAttrWarpSize) \
    E(cudaDevAttrMaxPitch) \
    E(cudaDevAttrMaxRegistersPerBlock) \
    E(cudaDevAttrClockRate) \
    E(cudaDevAttrTextureAlignment) \
    E(cudaDevAttrGpuOverlap) \
    E(cudaDevAttrMultiProcessorCount) \
    E(cudaDevAttrKernelExecTimeout) \
    E(cudaDevAttrIntegrated) \
    E(cudaDevAttrCanMapHostMemory) \
    E(cudaDevAttrComputeMode) \
    E(cudaDevAttrConcurrentKernels) \
    E(cudaDevAttrEccEnabled) \
    E(cudaDevAttrPciBusId) \
    E(cudaDevAttrPciDeviceId) \
    E(cudaDevAttrTccDriver) \
    E(cudaDevAttrMemoryClockRate) \
    E(cudaDevAttrGlobalMemoryBusWidth) \
    E(cudaDevAttrL2CacheSize) \
    E(cudaDevAttrMaxThreadsPerMultiProcessor) \
    E(cudaDevAttrAsyncEngineCount) \
    E(cudaDevAttrUnifiedAddressing) \
    E(cudaDevAttrPciDomainId) \
    E(cudaDevAttrComputeCapabilityMajor) \
    E(cudaDevAttrComputeCapabilityMinor) \
    E(cudaDevAttrStreamPrioritiesSupported) \
    E(cudaDevAttrGlobalL1CacheSupported) \
    E(cudaDevAttrLocalL1CacheSupported) \
    E(cudaDevAttrMaxSharedMemoryPerMultiprocessor) \
    E(cudaDevAttrMaxRegistersPerMultiprocessor) \
    E(cudaDevAttrManagedMemory) \
    E(cudaDevAttrIsMultiGpuBoard) \
    E(cudaDevAttrMultiGpuBoardGroupID) \
    E(cudaDevAttrConcurrentManagedAccess) \
    E(cudaDevAttrCooperativeLaunch) \
    E(cudaDevAttrMaxSharedMemoryPerBlockOptin) \
    E(cudaDevAttrMaxBlocksPerMultiprocessor) \
    E(cudaMemcpyHostToHost) \
    E(cudaMemcpyHostToDevice) \
    E(cudaMemcpyDeviceToHost) \
    E(cudaMemcpyDeviceToDevice) \
    E(cudaMemcpyDefault) \
    E(cudaStreamNonBlocking) \
    E(cudaEventBlockingSync) \
    E(cudaEventDisableTiming) \
    E(cudaLimitStackSize) \
    E(cudaLimitPrintfFifoSize) \
    E(cudaLimitMallocHeapSize) \
    E(cudaLimitDevRuntimeSyncDepth) \
    E(cudaLimitDevRuntimePendingLaunchCount) \
    E(CUDART_VERSION) \
    E(cudaErrorIllegalState) \
    E(cudaErrorCooperativeLaunchTooLarge) \
    E(cudaErrorStreamCaptureUnsupported) \
    E(cudaErrorStreamCaptureInvalidated) \
    E(cudaErrorStreamCaptureUnmatched) \
    E(cudaErrorStreamCaptureUnjoined) \
    E(cudaErrorStreamCaptureImplicit) \
    E(cudaErrorGraphExecUpdateFailure) \
    E(cudaDevAttrMemoryPoolsSupported) \
    E(cudaHostRegisterDefault) \
    E(cudaHostRegisterPortable) \
    E(cudaHostRegisterMapped) \
    E(cudaHostRegisterIoMemory) \
    E(cudaHostRegisterReadOnly) \
    E(cudaOccupancyDefault) \
    E(cudaOccupancyDisableCachingOverride) \
    E(cudaMemPoolReuseFollowEventDependencies) \
    E(cudaMemPoolReuseAllowOpportunistic) \
    E(cudaMemPoolReuseAllowInternalDependencies) \
    E(cudaMemPoolAttrReleaseThreshold) \
    E(cudaMemPoolAttrReservedMemCurrent) \
    E(cudaMemPoolAttrReservedMemHigh) \
    E(cudaMemPoolAttrUsedMemCurrent) \
    E(cudaMemPoolAttrUsedMemHigh) \
    E(cudaMemAllocationTypePinned) \
    E(cudaMemAllocationTypeManaged) \
    E(cudaMemHandleTypeNone) \
    E(cudaMemLocationTypeDevice) \
    E(cudaMemLocationTypeHost) \
    E(cudaGraphNodeTypeKernel) \
    E(cudaGraphNodeTypeMemcpy) \
    E(cudaGraphNodeTypeMemset) \
    E(cudaGraphNodeTypeHost) \
    E(cudaGraphNodeTypeGraph) \
    E(cudaGraphNodeTypeEmpty) \
    E(cudaGraphNodeTypeWaitEvent) \
    E(cudaGraphNodeTypeEventRecord) \
    E(cudaGraphNodeTypeMemAlloc) \
    E(cudaGraphNodeTypeMemFree) \
    E(cudaGraphNodeTypeExtSemaphoreSignal) \
    E(cudaGraphNodeTypeExtSemaphoreWait) \
    E(cudaGraphNodeTypeConditional) \
    E(cudaGraphCondAssignDefault) \
    E(cudaGraphCondTypeIf) \
    E(cudaGraphCondTypeWhile) \
    E(cudaGraphCondTypeSwitch) \
    E(cudaGraphChildGraphOwnershipClone) \
    E(cudaGraphChildGraphOwnershipMove) \
    E(cudaGraphDependencyTypeDefault) \
    E(cudaGraphDependencyTypeProgrammatic) \
    E(cudaStreamAddCaptureDependencies) \
    E(cudaStreamSetCaptureDependencies) \
    E(cudaGraphInstantiateFlagAutoFreeOnLaunch) \
    E(cudaGraphInstantiateFlagUpload) \
    E(cudaGraphInstantiateFlagDeviceLaunch) \
    E(cudaGraphInstantiateFlagUseNodePriority) \
    E(cudaGraphMemAttrUsedMemCurrent) \
    E(cudaGraphMemAttrUsedMemHigh) \
    E(cudaGraphMemAttrReservedMemCurrent) \
    E(cudaGraphMemAttrReservedMemHigh) \
    E(cudaStreamCaptureStatusNone) \
    E(cudaStreamCaptureStatusActive) \
    E(cudaStreamCaptureStatusInvalidated) \
    E(cudaStreamCaptureModeGlobal) \
    E(cudaStreamCaptureModeThreadLocal) \
    E(cudaStreamCaptureModeRelaxed) \
    E(cudaGraphExecUpdateSuccess) \
    E(cudaGraphExecUpdateError) \
    E(cudaGraphExecUpdateErrorTopologyChanged) \
    E(cudaGraphExecUpdateErrorNodeTypeChanged) \
    E(cudaGraphExecUpdateErrorFunctionChanged) \
    E(cudaGraphExecUpdateErrorParametersChanged) \
    E(cudaGraphExecUpdateErrorNotSupported) \
    E(cudaErrorHostMemoryAlreadyRegistered) \
    E(cudaErrorHostMemoryNotRegistered) \
    E(cudaErrorStreamCaptureIsolation) \
    E(cudaChannelFormatKindSigned) \
    E(cudaChannelFormatKindUnsigned) \
    E(cudaChannelFormatKindFloat) \
    E(cudaChannelFormatKindNone) \
    E(cudaArrayDefault) \
    E(cudaArrayLayered) \
    E(cudaArraySurfaceLoadStore) \
    E(cudaArrayCubemap) \
    E(cudaArrayTextureGather) \
    E(cudaResourceTypeArray) \
    E(cudaResourceTypeMipmappedArray) \
    E(cudaResourceTypeLinear) \
    E(cudaResourceTypePitch2D) \
    E(cudaAddressModeWrap) \
    E(cudaAddressModeClamp) \
    E(cudaAddressModeMirror) \
    E(cudaAddressModeBorder) \
    E(cudaFilterModePoint) \
    E(cudaFilterModeLinear) \
    E(cudaReadModeElementType) \
    E(cudaReadModeNormalizedFloat) \
    E(cudaErrorInvalidChannelDescriptor) \
    E(cudaMemoryTypeUnregistered) \
    E(cudaMemoryTypeHost) \
    E(cudaMemoryTypeDevice) \
    E(cudaMemoryTypeManaged) \
    E(cudaLaunchAttributeIgnore) \
    E(cudaLaunchAttributeCooperative) \
    E(cudaLaunchAttributeClusterDimension) \
    E(cudaLaunchAttributePriority) \
    E(cudaSharedMemBankSizeDefault) \
    E(cudaSharedMemBankSizeFourByte) \
    E(cudaSharedMemBankSizeEightByte) \
    E(cudaMemAccessFlagsProtNone) \
    E(cudaMemAccessFlagsProtRead) \
    E(cudaMemAccessFlagsProtReadWrite) \


/* The driver API's (src/cudart/cuda_drv.h against cuda.h): struct layouts,
 * sizes, enum values; and every CUresult (cu_results.h's list). */
#define DRV_FIELDS(F) \
    F(CUlaunchConfig_st, gridDimX) \
    F(CUlaunchConfig_st, gridDimZ) \
    F(CUlaunchConfig_st, blockDimX) \
    F(CUlaunchConfig_st, blockDimZ) \
    F(CUlaunchConfig_st, sharedMemBytes) \
    F(CUlaunchConfig_st, hStream) \
    F(CUlaunchConfig_st, attrs) \
    F(CUlaunchConfig_st, numAttrs) \
    F(CUlaunchAttribute_st, id) \
    F(CUlaunchAttribute_st, value) \
    F(CUctxCreateParams_st, execAffinityParams) \
    F(CUctxCreateParams_st, numExecAffinityParams) \
    F(CUctxCreateParams_st, cigParams) \
    F(CUdevprop_st, maxThreadsPerBlock) \
    F(CUdevprop_st, textureAlign) \
    F(CUuuid_st, bytes)

#define DRV_SIZES(Z) \
    Z(CUlaunchConfig_st) \
    Z(CUlaunchAttribute_st) \
    Z(CUctxCreateParams_st) \
    Z(CUdevprop_st) \
    Z(CUuuid_st)

#define DRV_ENUMS(E) \
    E(CU_CTX_SCHED_AUTO) E(CU_CTX_SCHED_SPIN) E(CU_CTX_SCHED_YIELD) \
    E(CU_CTX_SCHED_BLOCKING_SYNC) E(CU_CTX_SCHED_MASK) E(CU_CTX_MAP_HOST) \
    E(CU_CTX_LMEM_RESIZE_TO_MAX) E(CU_CTX_FLAGS_MASK) \
    E(CU_STREAM_DEFAULT) E(CU_STREAM_NON_BLOCKING) \
    E(CU_EVENT_DEFAULT) E(CU_EVENT_BLOCKING_SYNC) E(CU_EVENT_DISABLE_TIMING) \
    E(CU_EVENT_INTERPROCESS) \
    E(CU_MEMHOSTALLOC_PORTABLE) E(CU_MEMHOSTALLOC_DEVICEMAP) E(CU_MEMHOSTALLOC_WRITECOMBINED) \
    E(CU_MEM_ATTACH_GLOBAL) E(CU_MEM_ATTACH_HOST) E(CU_MEM_ATTACH_SINGLE) \
    E(CU_MEMORYTYPE_HOST) E(CU_MEMORYTYPE_DEVICE) E(CU_MEMORYTYPE_ARRAY) \
    E(CU_MEMORYTYPE_UNIFIED) \
    E(CU_LAUNCH_ATTRIBUTE_IGNORE) E(CU_LAUNCH_ATTRIBUTE_COOPERATIVE) \
    E(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) E(CU_LAUNCH_ATTRIBUTE_PRIORITY) \
    E(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) E(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES) \
    E(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES) E(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) \
    E(CU_FUNC_ATTRIBUTE_NUM_REGS) E(CU_FUNC_ATTRIBUTE_PTX_VERSION) \
    E(CU_FUNC_ATTRIBUTE_BINARY_VERSION) E(CU_FUNC_ATTRIBUTE_CACHE_MODE_CA) \
    E(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) \
    E(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) \
    E(CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET) \
    E(CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE) E(CU_FUNC_ATTRIBUTE_MAX) \
    E(CU_LIMIT_STACK_SIZE) E(CU_LIMIT_PRINTF_FIFO_SIZE) E(CU_LIMIT_MALLOC_HEAP_SIZE) \
    E(CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH) E(CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT) \
    E(CU_LIMIT_MAX) \
    E(CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER) \
    E(CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED) \
    E(CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED) E(CU_DEVICE_ATTRIBUTE_MAX) \
    E(CU_POINTER_ATTRIBUTE_CONTEXT) E(CU_POINTER_ATTRIBUTE_MEMORY_TYPE) \
    E(CU_POINTER_ATTRIBUTE_DEVICE_POINTER) E(CU_POINTER_ATTRIBUTE_HOST_POINTER) \
    E(CU_POINTER_ATTRIBUTE_IS_MANAGED) E(CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) \
    E(CU_POINTER_ATTRIBUTE_RANGE_START_ADDR) E(CU_POINTER_ATTRIBUTE_RANGE_SIZE) \
    E(CU_POINTER_ATTRIBUTE_MAPPED) \
    E(CU_JIT_WALL_TIME) E(CU_JIT_INFO_LOG_BUFFER) E(CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES) \
    E(CU_JIT_ERROR_LOG_BUFFER) E(CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) E(CU_JIT_NUM_OPTIONS) \
    E(CU_MODULE_EAGER_LOADING) E(CU_MODULE_LAZY_LOADING) \
    E(CU_FUNCTION_LOADING_STATE_UNLOADED) E(CU_FUNCTION_LOADING_STATE_LOADED) \
    E(CU_GET_PROC_ADDRESS_SUCCESS) E(CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND) \
    E(CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT) E(CU_GET_PROC_ADDRESS_DEFAULT) \
    E(CU_GET_PROC_ADDRESS_LEGACY_STREAM) E(CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) \
    E((intptr_t)CU_LAUNCH_PARAM_END) E((intptr_t)CU_LAUNCH_PARAM_BUFFER_POINTER) \
    E((intptr_t)CU_LAUNCH_PARAM_BUFFER_SIZE)


