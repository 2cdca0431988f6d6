/*
 * config.h -- the option table behind lockstep_config.  Every option is
 * one row of LOCKSTEP_OPTIONS: its field, type, GPGPU-Sim-style name,
 * default, bounds and one line of help.  Options GPGPU-Sim also has keep
 * GPGPU-Sim's names; lockstep's own start with -lockstep_.  Later issues
 * add rows (timing model, determinism modes); nothing else changes.
 */
#ifndef LOCKSTEP_CORE_CONFIG_H
#define LOCKSTEP_CORE_CONFIG_H

#include <stdint.h>

#include "lockstep.h"
#include "util/strbuf.h"

/*  type    field               name                             default        min   max            help */
#define LOCKSTEP_OPTIONS(X)                                                                     \
    X(U64, device_memory, "-lockstep_device_memory", "17179869184", 1048576, 70368744177664ull,  \
      "bytes of simulated device memory (cudaMalloc'able)")                                     \
    X(U64, heap_size, "-lockstep_heap_size", "8388608", 0, 70368744177664ull,                    \
      "bytes of the device-side malloc heap (cudaLimitMallocHeapSize)")                         \
    X(U64, max_warp_insts, "-lockstep_max_warp_insts", "10000000000", 0, UINT64_MAX,             \
      "stop a launch with an error after this many warp instructions (0: no limit)")             \
    X(U32, stack_size, "-lockstep_stack_size", "1024", 0, 1048576,                               \
      "per-thread stack bytes for recursive calls (cudaLimitStackSize)")                        \
    X(U32, max_local, "-lockstep_max_local_per_thread", "524288", 0, 16777216,                   \
      "largest per-thread local memory a launch may need")                                      \
    X(U32, resident_ctas, "-lockstep_resident_ctas", "32", 1, 65536,                             \
      "CTAs executing concurrently in functional mode")                                         \
    X(U32, warp_slice, "-lockstep_warp_slice", "256", 1, 1048576,                                \
      "warp instructions a warp runs per scheduling turn in functional mode")                   \
    X(U32, max_cta_threads, "-lockstep_max_threads_per_cta", "1024", 32, 1024,                   \
      "largest CTA (threads) a launch may use")                                                 \
    X(U32, max_cta_shared, "-lockstep_max_shared_per_cta", "49152", 0, 1073741824,               \
      "shared memory bytes (static + dynamic) a CTA may use")                                   \
    X(U32, n_clusters, "-gpgpu_n_clusters", "15", 1, 65536, "number of SIMT core clusters")     \
    X(U32, cores_per_cluster, "-gpgpu_n_cores_per_cluster", "1", 1, 256,                         \
      "SIMT cores (SMs) per cluster")                                                           \
    X(STR, core_pipeline, "-gpgpu_shader_core_pipeline", "1536:32", 0, 0,                        \
      "threads per SM : warp size (warp size must be 32)")                                      \
    X(U32, shmem_size, "-gpgpu_shmem_size", "49152", 0, 1073741824,                              \
      "shared memory bytes per SM")

enum cfg_type { CFG_U64, CFG_U32, CFG_STR };

struct lockstep_config {
#define X(type, field, name, def, lo, hi, help) CFG_FIELD_##type(field)
#define CFG_FIELD_U64(f) uint64_t f;
#define CFG_FIELD_U32(f) uint32_t f;
#define CFG_FIELD_STR(f) char *f;
    LOCKSTEP_OPTIONS(X)
#undef X
    strbuf err;
};

/* Threads per SM from -gpgpu_shader_core_pipeline. */
uint32_t config_threads_per_sm(const lockstep_config *cfg);

#endif
