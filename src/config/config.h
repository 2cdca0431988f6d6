/*
 * config.h -- the option table behind lockstep_config.  Every option is
 * one row of LOCKSTEP_OPTIONS: its field, type, GPGPU-Sim-style name,
 * default, bounds and one line of help.  Options GPGPU-Sim also has keep
 * GPGPU-Sim's names; lockstep's own start with -lockstep_.  Later issues
 * add rows (timing model, determinism modes); nothing else changes.
 *
 * Its own layer (tests/layers.sh): the timing model reads the table's
 * struct below, and the API (src/core) and the command line read and set
 * options through lockstep_config_*, which are defined here.
 */
#ifndef LOCKSTEP_CONFIG_CONFIG_H
#define LOCKSTEP_CONFIG_CONFIG_H

#include <stddef.h>
#include <stdint.h>

/* The most SMs a configuration may have (clusters x cores per cluster):
 * far above any GPU's, low enough that building the SMs stays quick. */
#define CONFIG_MAX_SMS 4096u

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
    X(U64, max_cycles, "-lockstep_max_cycles", "2000000000", 0, UINT64_MAX,                    \
      "timing mode: stop a launch with a timeout error after this many simulated cycles "      \
      "(0: no limit)")                                                                          \
    X(U64, timeout_s, "-lockstep_timeout", "600", 0, UINT64_MAX,                                \
      "stop a launch with a timeout error after this many host seconds (0: no limit)")          \
    X(U64, printf_fifo, "-lockstep_printf_fifo", "1048576", 4096, 1099511627776ull,             \
      "bytes of device printf output held until the next synchronization "                     \
      "(cudaLimitPrintfFifoSize); what does not fit is dropped and counted")                    \
    X(U64, cdp_pending, "-lockstep_cdp_pending_launches", "2048", 1, 16777216,                 \
      "launches (and copies) from device code that may wait to run at once "                    \
      "(cudaLimitDevRuntimePendingLaunchCount); one more fails with "                           \
      "cudaErrorLaunchPendingCountExceeded")                                                    \
    X(U32, cdp_max_depth, "-lockstep_cdp_max_depth", "24", 1, 24,                               \
      "deepest nesting of grids launched from device code (the host's grid is depth 0; "       \
      "CUDA's limit is 24); a launch deeper fails with cudaErrorLaunchMaxDepthExceeded")        \
    X(U32, cdp_sync_depth, "-lockstep_cdp_sync_depth", "2", 0, 24,                              \
      "cudaLimitDevRuntimeSyncDepth: kept and reported, limits nothing (CUDA 12 and later "    \
      "have no device-side synchronization)")                                                   \
    X(U32, launch_records, "-lockstep_launch_records", "10000", 0, 100000000,                   \
      "launches the CUDA runtime's statistics list one by one; later ones are summed per "     \
      "kernel (bounded memory for programs with millions of launches)")                         \
    X(U32, stack_size, "-lockstep_stack_size", "1024", 0, 1048576,                               \
      "per-thread stack bytes for recursive calls (cudaLimitStackSize)")                        \
    X(U32, max_local, "-lockstep_max_local_per_thread", "524288", 0, 16777216,                   \
      "largest per-thread local memory a launch may need")                                      \
    X(U32, resident_ctas, "-lockstep_resident_ctas", "32", 1, 65536,                             \
      "CTAs executing concurrently in functional mode")                                         \
    X(U32, its, "-lockstep_its", "1", 0, 1,                                                      \
      "1: independent thread scheduling (Volta and later; the built-in GPU reports compute "    \
      "capability 7.5): lanes that spin while others of the warp wait to reconverge let those " \
      "run ahead; 0: the pre-Volta SIMT stack only")                                            \
    X(U32, its_yield, "-lockstep_its_yield", "64", 1, 1048576,                                   \
      "with -lockstep_its 1: uniform backward branches a path takes before the lanes waiting for it run ahead") \
    X(U32, warp_slice, "-lockstep_warp_slice", "256", 1, 1048576,                                \
      "warp instructions a warp runs per scheduling turn in functional mode")                   \
    X(U32, max_cta_threads, "-lockstep_max_threads_per_cta", "1024", 32, 1024,                   \
      "largest CTA (threads) a launch may use")                                                 \
    X(U32, max_cta_shared, "-lockstep_max_shared_per_cta", "49152", 0, 1073741824,               \
      "shared memory bytes (static + dynamic) a CTA may use")                                   \
    X(U32, max_cta_shared_optin, "-lockstep_max_shared_per_cta_optin", "0", 0, 1073741824,       \
      "shared memory bytes a CTA may use once its kernel opts in (CUDA's "                      \
      "cudaFuncAttributeMaxDynamicSharedMemorySize; 0: no opt-in beyond "                       \
      "-lockstep_max_shared_per_cta)")                                                          \
    X(U32, n_clusters, "-gpgpu_n_clusters", "15", 1, 65536, "number of SIMT core clusters")     \
    X(U32, cores_per_cluster, "-gpgpu_n_cores_per_cluster", "1", 1, 256,                         \
      "SIMT cores (SMs) per cluster")                                                           \
    X(STR, core_pipeline, "-gpgpu_shader_core_pipeline", "1536:32", 0, 0,                        \
      "threads per SM : warp size (warp size must be 32)")                                      \
    X(U32, shmem_size, "-gpgpu_shmem_size", "49152", 0, 1073741824,                              \
      "shared memory bytes per SM")                                                             \
    /* ---- timing model (src/timing, src/mem) ---- */                                          \
    X(STR, mode, "-lockstep_mode", "timing", 0, 0,                                                 \
      "timing (the cycle-level model) or functional (the fast emulator)")                      \
    X(U64, nondet_seed, "-lockstep_nondet_seed", "0", 0, UINT64_MAX,                             \
      "seed of the modelled hardware nondeterminism (--nondet-seed)")                           \
    X(U32, nondet, "-lockstep_nondet", "1", 0, 1,                                                \
      "1: the seed drives the modelled nondeterminism (the sources below, DRAM refresh phase and "\
      "jitter, partition start, scheduler start); 0: every source off")                       \
    X(U32, sm_skew, "-lockstep_sm_skew", "32", 0, 100000,                                        \
      "seeded: each SM starts each launch 0..N cycles late (0: off)")                          \
    X(U32, clock_drift, "-lockstep_clock_drift", "1000", 0, 100000000,                           \
      "seeded: an SM loses one cycle at intervals drawn from 1..2N cycles (0: off)")           \
    X(U32, cta_delay, "-lockstep_cta_delay", "8", 0, 100000,                                     \
      "seeded: a CTA's warps start 0..N cycles after its dispatch (0: off)")                   \
    X(U32, icnt_random, "-lockstep_icnt_random", "1", 0, 1,                                      \
      "seeded: a crossbar output grants one of its contending inputs at random each cycle "     \
      "(0: round-robin from a seeded start)")                                                   \
    X(U32, l2_jitter, "-lockstep_l2_jitter", "4", 0, 100000,                                     \
      "seeded: an L2 access takes 0..N extra cycles (replies stay in order; 0: off)")          \
    X(U32, reply_shuffle, "-lockstep_reply_shuffle", "4", 1, 64,                                 \
      "seeded: a partition sends first one of the first N replies ready in a cycle (1: in "     \
      "order; DAB's reply-order injection)")                                                    \
    X(U32, icnt_bypass, "-lockstep_icnt_bypass", "0", 0, 64,                                     \
      "crossbar input bypass: a request whose partition is busy lets the oldest of the next N "  \
      "requests to free partitions go first (per-partition order kept; 0: one FIFO per SM)")    \
    X(U32, store_path, "-lockstep_store_path", "0", 0, 1,                                      \
      "stores enter the crossbar through a second input of their SM, which its loads and "      \
      "atomics pass; a request to a line the other input still holds follows it (0: one input)") \
    X(U32, store_after_loads, "-lockstep_store_after_loads", "0", 0, 1,                        \
      "with -lockstep_store_path: a store leaves its SM only after the loads and atomics the SM "\
      "sent before it (loads pass stores, stores never pass loads; 0: stores go when they can)") \
    X(U32, icnt_start, "-lockstep_icnt_start", "1", 0, 1,                                        \
      "seeded: each crossbar output's round-robin pointer starts at a random input (0: at 0)") \
    X(U32, sched_start, "-lockstep_sched_start", "1", 0, 1,                                      \
      "seeded: each warp scheduler starts a launch at a random warp (0: at the first)")        \
    X(U32, part_start, "-lockstep_part_start", "1", 0, 1,                                        \
      "seeded: the partition address 0 maps to (0: partition 0)")                              \
    X(U32, dram_phase, "-lockstep_dram_phase", "1", 0, 1,                                        \
      "seeded: each DRAM channel's refresh phase (0: the same for every seed)")                \
    X(STR, clock_domains, "-gpgpu_clock_domains", "700.0:700.0:700.0:924.0", 0, 0,              \
      "clock MHz: core:interconnect:L2:DRAM")                                                   \
    X(U32, shader_registers, "-gpgpu_shader_registers", "32768", 1, 1048576,                     \
      "32-bit registers per SM")                                                                \
    X(U32, shader_cta, "-gpgpu_shader_cta", "8", 1, 1024, "CTAs resident per SM at most")         \
    X(U32, num_sched, "-gpgpu_num_sched_per_core", "2", 1, 4, "warp schedulers per SM")          \
    X(STR, scheduler, "-gpgpu_scheduler", "gto", 0, 0,                                           \
      "warp scheduling policy: lrr, gto or two_level_active:N (N active warps per scheduler)")  \
    X(U32, ibuffer, "-lockstep_ibuffer", "2", 0, 64,                                              \
      "instruction buffer entries per warp, filled by one fetch (0: no fetch model)")           \
    X(U32, fetch_latency, "-lockstep_fetch_latency", "2", 1, 1000,                              \
      "cycles from a warp's fetch to its decoded instructions (i-cache hit and decode)")        \
    X(U32, num_sp_units, "-gpgpu_num_sp_units", "1", 1, 64, "SP (fp32/int) pipelines per SM")    \
    X(U32, num_sfu_units, "-gpgpu_num_sfu_units", "1", 1, 64, "SFU pipelines per SM")            \
    X(U32, num_tensor_units, "-gpgpu_num_tensor_core_units", "1", 1, 64,                         \
      "tensor core pipelines per SM (wmma.mma, mma)")                                           \
    X(U32, num_dp_units, "-gpgpu_num_dp_units", "0", 0, 64,                                      \
      "DP pipelines per SM (0: double precision runs on the SP pipelines)")                     \
    X(U32, num_int_units, "-gpgpu_num_int_units", "0", 0, 64,                                    \
      "INT pipelines per SM (0: integer runs on the SP pipelines)")                             \
    X(STR, lat_int, "-ptx_opcode_latency_int", "4,13,4,5,145", 0, 0,                             \
      "integer latency cycles: add,max,mul,mad,div")                                            \
    X(STR, ii_int, "-ptx_opcode_initiation_int", "1,2,2,2,8", 0, 0,                              \
      "integer initiation interval cycles: add,max,mul,mad,div")                                \
    X(STR, lat_fp, "-ptx_opcode_latency_fp", "4,13,4,5,39", 0, 0,                                \
      "fp32 latency cycles: add,max,mul,mad,div")                                               \
    X(STR, ii_fp, "-ptx_opcode_initiation_fp", "1,2,1,1,4", 0, 0,                                \
      "fp32 initiation interval cycles: add,max,mul,mad,div")                                   \
    X(STR, lat_dp, "-ptx_opcode_latency_dp", "8,19,8,8,330", 0, 0,                               \
      "fp64 latency cycles: add,max,mul,mad,div")                                               \
    X(STR, ii_dp, "-ptx_opcode_initiation_dp", "8,16,8,8,130", 0, 0,                             \
      "fp64 initiation interval cycles: add,max,mul,mad,div")                                   \
    X(U32, lat_sfu, "-ptx_opcode_latency_sfu", "20", 1, 100000, "SFU latency cycles")            \
    X(U32, lat_tensor, "-ptx_opcode_latency_tensor", "64", 1, 100000,                            \
      "tensor core latency cycles (one wmma.mma or mma)")                                       \
    X(U32, ii_tensor, "-ptx_opcode_initiation_tensor", "64", 1, 100000,                          \
      "tensor core initiation interval cycles, per 16x16x16 product (scaled by multiply-adds)") \
    X(U32, ii_sfu, "-ptx_opcode_initiation_sfu", "8", 1, 100000,                                 \
      "SFU initiation interval cycles")                                                         \
    X(U32, smem_banks, "-gpgpu_shmem_num_banks", "32", 1, 64, "shared memory banks")            \
    X(U32, smem_latency, "-gpgpu_smem_latency", "24", 1, 100000,                                 \
      "shared memory access latency cycles (conflict-free)")                                    \
    X(STR, cache_dl1, "-gpgpu_cache:dl1", "N:32:128:4,L:L:m:N:H,A:32:8,8", 0, 0,                 \
      "L1 data cache per SM (GPGPU-Sim cache string); none: no L1")                             \
    X(U32, l1_latency, "-gpgpu_l1_latency", "18", 1, 100000, "L1 data cache hit latency cycles") \
    X(U32, gmem_skip_l1, "-gpgpu_gmem_skip_L1D", "0", 0, 1,                                      \
      "1: global loads bypass the L1 (as ld.cg)")                                               \
    X(U32, l1_inval_on_fence, "-lockstep_l1_invalidate_on_fence", "0", 0, 1,                     \
      "1: membar.gl/.sys invalidate the SM's L1 too (fence.sc/.acq_rel at gpu or sys scope and " \
      "acquire loads and atomics always do)")                                                  \
    X(U32, cta_fence_local, "-lockstep_cta_fence_local", "0", 0, 1,                            \
      "1: a CTA-scope fence (membar.cta, fence.cta) waits for the warp's loads and for its "     \
      "stores and atomics to pass the SM's LD/ST unit, not for the L2's acknowledgements")      \
    X(STR, cache_const, "-gpgpu_const_cache:l1", "N:64:64:2,L:R:f:N:L,A:2:32,4", 0, 0,           \
      "constant cache per SM (GPGPU-Sim cache string)")                                         \
    X(U32, const_latency, "-lockstep_const_latency", "8", 1, 100000,                             \
      "constant cache hit latency cycles")                                                      \
    X(STR, cache_tex, "-gpgpu_tex_cache:l1", "N:4:128:24,L:R:m:N:L,F:128:4,128:2", 0, 0,           \
      "texture cache per SM (GPGPU-Sim cache string)")                                          \
    X(U32, tex_latency, "-lockstep_tex_latency", "100", 1, 100000,                               \
      "texture pipeline latency cycles (a fetch that hits the texture cache)")                  \
    X(U32, perfect_tex, "-lockstep_perfect_tex", "0", 0, 1,                                      \
      "1: a perfect, zero-latency texture cache (every fetch hits, ready the next cycle)")     \
    X(U32, n_mem, "-gpgpu_n_mem", "6", 1, 1024, "memory partitions (channels)")                 \
    X(U32, partition_chunk, "-lockstep_partition_chunk", "256", 32, 1048576,                     \
      "bytes of consecutive addresses per partition before the next (power of two)")            \
    X(STR, cache_dl2, "-gpgpu_cache:dl2", "N:128:128:8,L:B:m:W:L,A:32:4,4", 0, 0,                \
      "L2 slice per memory partition (GPGPU-Sim cache string)")                                 \
    X(U32, rop_latency, "-rop_latency", "120", 1, 100000,                                        \
      "cycles (L2 clock) from a request entering a partition to its L2 access")                 \
    X(U32, l2_queue, "-lockstep_l2_queue", "0", 0, 1000000,                                      \
      "requests a partition holds past the ROP delay waiting for its L2 (GPGPU-Sim's icnt-to-L2 " \
      "queue); when full it takes no more from the crossbar (0: unbounded)")                   \
    X(U32, l2_write_merge, "-lockstep_l2_write_merge", "0", 0, 1,                                \
      "1: a store to a line whose L2 fill is outstanding is performed at once (its bytes valid "  \
      "and dirty when the fill lands, the waiting loads then read them), unless a request of "    \
      "the same SM waits for that fill; 0: it waits behind the fill")                          \
    X(U32, l2_latency, "-lockstep_l2_latency", "10", 1, 100000, "L2 access cycles (L2 clock)")   \
    X(U32, dram_latency, "-dram_latency", "100", 0, 100000,                                      \
      "cycles (L2 clock) from an L2 miss to the DRAM queue")                                    \
    X(STR, dram_timing, "-gpgpu_dram_timing_opt",                                                \
      "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0",\
      0, 0, "DRAM timing in DRAM cycles (GPGPU-Sim syntax)")                                    \
    X(U32, dram_burst, "-gpgpu_dram_burst_length", "8", 1, 64, "DRAM burst length (beats)")     \
    X(U32, dram_buswidth, "-gpgpu_dram_buswidth", "4", 1, 64, "DRAM bytes per beat per chip")   \
    X(U32, dram_chips, "-gpgpu_n_mem_per_ctrlr", "2", 1, 16, "DRAM chips per channel")          \
    X(U32, dram_queue, "-gpgpu_frfcfs_dram_sched_queue_size", "16", 0, 4096,                     \
      "DRAM scheduler queue entries per channel (0: unlimited)")                                \
    X(U32, dram_sched, "-gpgpu_dram_scheduler", "1", 0, 1, "DRAM scheduler: 0 FIFO, 1 FR-FCFS")  \
    X(U32, dram_refi, "-lockstep_dram_tREFI", "7800", 0, 100000000,                              \
      "DRAM refresh interval, DRAM cycles (0: no refresh)")                                     \
    X(U32, dram_rfc, "-lockstep_dram_tRFC", "100", 0, 100000, "DRAM refresh duration, DRAM cycles")\
    X(U32, dram_jitter, "-lockstep_dram_jitter", "4", 0, 100000,                                 \
      "seeded extra DRAM read latency, 0..N DRAM cycles (modelled variation)")                  \
    X(U32, flit_size, "-icnt_flit_size", "32", 4, 4096, "interconnect flit bytes")              \
    X(U32, icnt_latency, "-lockstep_icnt_latency", "8", 1, 100000,                               \
      "interconnect latency cycles (icnt clock); the lookahead window of a parallel engine")    \
    X(U32, icnt_in_buf, "-inct_in_buffer_limit", "64", 1, 1000000,                               \
      "interconnect input queue flits per port")                                                \
    X(U32, icnt_out_buf, "-inct_out_buffer_limit", "64", 1, 1000000,                             \
      "interconnect ejection buffer packets per port")                                          \
    X(U32, ldst_queue, "-lockstep_ldst_queue", "16", 1, 4096,                                    \
      "memory requests an SM can have waiting to enter the interconnect")                       \
    X(U32, ldst_replay, "-lockstep_ldst_replay", "0", 0, 100000,                                 \
      "a load needing more than one LD/ST pass (bank conflicts, lanes in more than one line) "   \
      "replays pass k at issue + N + k - 1, and the warp's later loads may pass it (0: off)")  \
    X(U32, regs_per_thread, "-lockstep_regs_per_thread", "0", 0, 255,                           \
      "registers per thread for occupancy (0: the PTX-declared count, at most 32)")             \
    X(U64, deadlock_cycles, "-lockstep_deadlock_cycles", "1000000", 0, UINT64_MAX,               \
      "stop a kernel when nothing has issued or moved for this many cycles (0: never)")       \
    X(U32, threads, "-lockstep_threads", "0", 0, 1024,                                           \
      "host threads that run the timing model's windows (0: one per online CPU); the "         \
      "results do not depend on it")                                                            \
    X(U32, window, "-lockstep_window", "0", 0, 1000000,                                          \
      "cycles per window (0: the crossbar latency, exact); more is GpuTejas-style relaxed "     \
      "synchronisation: faster, and inexact")                                                   \
    X(U32, window_order, "-lockstep_window_order", "0", 0, 1,                                    \
      "order components run in within a window: 0 index, 1 reverse (a check: same results)")   \
    X(U32, skip, "-lockstep_skip", "1", 0, 1,                                                    \
      "jump over cycles in which nothing can act (0: run every window; a check: same results)") \
    /* ---- determinism modes (src/timing/gpudet.c) ---- */                                  \
    X(STR, det, "-lockstep_det", "none", 0, 0,                                                   \
      "deterministic execution: none, gpudet (GPUDet: quanta, store buffers, commit, serial "   \
      "atomics) or dab (deterministic atomic buffering); timing mode")                          \
    X(U32, gpudet_quantum, "-gpudet_quantum_size", "200", 1, 100000000,                          \
      "GPUDet: warp instructions a warp runs in a quantum's parallel mode")                     \
    X(U32, gpudet_bloom, "-gpudet_bloom_bits", "1024", 0, 1024,                                   \
      "GPUDet: bits of each warp's store-buffer Bloom filter (a multiple of 128 from 128, or "  \
      "0: ideal, no false positives)")                                                          \
    X(U32, gpudet_sb_l1, "-gpudet_sb_l1", "1", 0, 1,                                              \
      "GPUDet: 1: the store buffers live in each warp's private memory and their reads and "    \
      "writes go through the L1 (misses cost an L2 round trip); 0: a log access is free and a " \
      "search costs a cycle per entry")                                                         \
    X(U32, gpudet_zunit, "-gpudet_zunit_cycles", "4", 1, 100000,                                  \
      "GPUDet: cycles a partition's Z-buffer unit takes per store-buffer entry it commits")     \
    X(U32, gpudet_zcache_kb, "-gpudet_zcache_kb", "16", 1, 65536,                                 \
      "GPUDet: KiB of each Z-buffer unit's Z-cache (depths of 128-byte chunks, LRU)")           \
    X(U32, gpudet_zunit_entries, "-gpudet_zunit_entries", "16", 1, 4096,                          \
      "GPUDet: request-buffer entries of a Z-buffer unit (Z-cache misses it overlaps)")         \
    X(STR, gpudet_commit, "-gpudet_commit", "zbuffer", 0, 0,                                      \
      "GPUDet commit: zbuffer (Z-buffer units in the partitions) or lock (CoreDet's commit "    \
      "with a lock per chunk)")                                                                 \
    X(STR, gpudet_serial, "-gpudet_serial", "cu", 0, 0,                                           \
      "GPUDet serial mode: cu (one SM at a time, its warps' atomics in order: CU-Ser) or warp "  \
      "(one warp at a time: W-Ser)")                                                            \
    X(U32, gpudet_bta, "-gpudet_bta", "1", 0, 1,                                                   \
      "GPUDet: 1: warps at a CTA barrier wait there and go on in the same quantum when their "  \
      "CTA arrives (barrier termination avoidance); 0: a barrier ends the quantum (GPUdet-base)")\
    X(U32, gpudet_dwp, "-gpudet_dwp", "1", 0, 1,                                                   \
      "GPUDet: 1: each CTA slot runs a fixed partition of the grid and takes its next CTA as "  \
      "soon as it frees (deterministic workgroup partitioning); 0: CTAs start between quanta")  \
    X(U32, gpudet_sync, "-gpudet_sync_cycles", "0", 0, 100000000,                                 \
      "GPUDet: cycles of each global synchronisation between modes")                            \
    X(U32, gpudet_zdepth_bits, "-gpudet_zdepth_bits", "32", 8, 64,                                \
      "GPUDet: bits of a Z-buffer depth, -(quantum id << m) + warp id; when the quantum id "    \
      "overflows, the Z-buffers are reset")                                                     \
    X(U32, gpudet_livelock, "-gpudet_livelock", "1", 0, 1,                                        \
      "GPUDet: 1: report a kernel whose state (registers, PCs, shared and local memory, with "  \
      "global memory unchanged) repeats at a quantum boundary: it can never finish")           \
    X(STR, dab_level, "-dab_level", "sched", 0, 0,                                                \
      "DAB: atomic buffers per warp scheduler (sched) or per warp (warp)")                       \
    X(U32, dab_entries, "-num_buffer_entries", "32", 32, 65536,                                   \
      "DAB: entries of each atomic buffer (at least 32: a warp's atomic fits an empty one)")    \
    X(STR, dab_scheduler, "-dab_scheduler", "gwat", 0, 0,                                         \
      "DAB's determinism-aware warp scheduler with scheduler-level buffers: srr (strict round "  \
      "robin), gtrr (greedy then round robin), gtar (greedy then atomic round robin) or gwat "  \
      "(greedy with atomic token)")                                                             \
    X(U32, dab_fusion, "-buffer_coalesce", "1", 0, 1,                                             \
      "DAB: fuse atomics to the same address with the same operation in a buffer entry "        \
      "(atomic fusion)")                                                                        \
    X(U32, dab_coalesce, "-atomic_coalesce", "1", 0, 1,                                           \
      "DAB: a flush sends a buffer's entries to one 32-byte sector as one transaction")         \
    X(U32, dab_chunk, "-flush_chunk_size", "32", 1, 65536,                                        \
      "DAB: buffer entries a cluster reads out per cycle while it flushes")                     \
    X(U32, dab_offset, "-dab_offset_flush", "0", 0, 1,                                            \
      "DAB: SMs with an even id start flushing a buffer in its middle (offset flushing)")       \
    X(U32, dab_overlap, "-overlap_flushes", "0", 0, 1,                                            \
      "DAB: warps go on, and the next flush may start, once the buffers are pushed, not when "  \
      "the partitions have acknowledged them (overlapping flushes)")                            \
    X(U32, dab_no_sync, "-no_sync_flush", "0", 0, 1,                                              \
      "DAB limit study (not deterministic): each cluster flushes when its own warps wait")      \
    X(U32, dab_no_reorder, "-no_reordering", "0", 0, 1,                                           \
      "DAB limit study (not deterministic): partitions apply flushed atomics in arrival order") \
    /* ---- redundant execution (src/timing/dmr.c, docs/RELIABILITY.md) ---- */               \
    X(STR, redundancy, "-lockstep_redundancy", "none", 0, 0,                                      \
      "redundant execution: none or dmr (every CTA runs twice, stores and atomics compared at "  \
      "the memory partitions, a failing CTA pair reissued); timing mode")                       \
    X(STR, dmr_pair, "-dmr_pair", "sm", 0, 0,                                                     \
      "DMR: where a CTA's two copies run: sm (two different SMs), slot (any two CTA slots, "   \
      "the same SM allowed) or core (two slots of one SM, sharing its caches)")                 \
    X(U32, dmr_max_reissues, "-dmr_max_reissues", "3", 0, 1000,                                   \
      "DMR: times a failing CTA pair is reissued before the launch fails")                      \
    X(U32, dmr_copy_timeout, "-dmr_copy_timeout", "8", 0, 1000000,                              \
      "DMR: stop a copy still running K times as long as its finished partner (and at least "  \
      "10000 cycles after it) as hung, a difference between the copies: the pair is "         \
      "reissued (0: never)")                                                                   \
    X(U32, dmr_load_values, "-dmr_load_values", "0", 0, 1,                                       \
      "DMR: load-value replication: a pair's second copy takes the first copy's global load "  \
      "values (addresses compared), so copies of a kernel whose CTAs read what others write "  \
      "during the launch agree; the load value queue is then outside the sphere")              \
    X(U64, dmr_lvq_timeout, "-dmr_lvq_timeout", "1000000", 1, UINT64_MAX,                        \
      "DMR load-value replication: cycles a second copy's load waits for the first copy's "   \
      "before the pair counts as failed (copies a fault sent different ways)")               \
    X(U32, dmr_flip_store, "-dmr_flip_store", "0", 0, 1000000000,                                 \
      "test knob: flip bit 0 of the first byte of the N-th global store request (1-based) of "  \
      "CTA 0 (with DMR: of its copy 1, first run only); 0: off")                                \
    X(U32, dmr_flip_line, "-dmr_flip_line", "0", 0, 1000000000,                                   \
      "DMR test knob: send the N-th global write request (store or atomic, 1-based) of CTA "   \
      "0's copy 1 (first run) to the next 128-byte line, as an address fault would; 0: off")   \
    X(U32, dmr_flip_load, "-dmr_flip_load", "0", 0, 1000000000,                                   \
      "DMR test knob: move the first lane of the N-th global load (1-based) of CTA 0's copy 1 " \
      "(first run) to the neighbouring element, as an address fault would; 0: off")           \
    /* ---- fault injection (src/rel/inject.c, docs/RELIABILITY.md) ---- */                    \
    X(STR, fault_site, "-lockstep_fault_site", "none", 0, 0,                                      \
      "fault injection: where one fault lands (none, reg_live, reg_any, pred, insn_out, alu, "   \
      "shared, local, dram, simt, ibuf; timing mode only: l1d, l2d, l1tag, l2tag; with "      \
      "-lockstep_redundancy dmr: dmr_log)")                                                    \
    X(STR, fault_model, "-lockstep_fault_model", "bit1", 0, 0,                                    \
      "fault injection: bit1 (one bit flipped), bit2 (two adjacent bits), random (a random "     \
      "value) or zero")                                                                         \
    X(U64, fault_at, "-lockstep_fault_at", "0", 0, UINT64_MAX,                                    \
      "fault injection: when the fault lands, counted over the whole program: the simulated "   \
      "cycle (timing mode) or the warp instruction (functional mode)")                         \
    X(U64, fault_seed, "-lockstep_fault_seed", "0", 0, UINT64_MAX,                                \
      "fault injection: seed of the target's choice (SM, CTA, warp, lane, register, bit, address)") \
    X(U32, ace, "-lockstep_ace", "0", 0, 1,                                                    \
      "ACE lifetime analysis of the run (src/rel/ace.c): ACE bit-time and AVF per structure "   \
      "(registers, predicates, shared memory) in the statistics; not with -lockstep_fault_site") \
    X(U64, max_program_cycles, "-lockstep_max_program_cycles", "0", 0, UINT64_MAX,                \
      "timing mode: stop the launch that takes the program past this many simulated cycles "    \
      "(all launches together) with a timeout error (0: no limit)")                             \
    X(U64, max_program_insts, "-lockstep_max_program_warp_insts", "0", 0, UINT64_MAX,             \
      "stop the launch that takes the program past this many warp instructions (all launches "  \
      "together) with an instruction-limit error (0: no limit)")                                \
    X(STR, trace_file, "-lockstep_trace", "none", 0, 0,                                           \
      "write a Chrome trace (Perfetto) of the timing model to this file (none: no trace)")      \
    X(U64, trace_interval, "-lockstep_trace_interval", "1000", 1, UINT64_MAX,                    \
      "cycles between the trace's per-SM activity samples")                                     \
    X(U32, progress, "-lockstep_progress", "0", 0, 1,                                            \
      "print a progress line (kernel, cycle, IPC) to stderr during long launches")

enum cfg_type { CFG_U64, CFG_U32, CFG_STR };

/* The fault-injection sites and models of -lockstep_fault_site and
 * -lockstep_fault_model (src/rel/inject.c implements them; the option
 * check here lists them). */
#define LOCKSTEP_FAULT_SITES(X)                                                                 \
    X(NONE, "none") X(REG_LIVE, "reg_live") X(REG_ANY, "reg_any") X(PRED, "pred")             \
    X(INSN_OUT, "insn_out") X(ALU, "alu") X(SHARED, "shared") X(LOCAL, "local")               \
    X(DRAM, "dram") X(SIMT, "simt") X(IBUF, "ibuf") X(L1D, "l1d") X(L2D, "l2d")               \
    X(L1TAG, "l1tag") X(L2TAG, "l2tag") X(DMR_LOG, "dmr_log")
#define LOCKSTEP_FAULT_MODELS(X) X(BIT1, "bit1") X(BIT2, "bit2") X(RANDOM, "random") X(ZERO, "zero")

enum config_fault_site {
#define X(e, s) FSITE_##e,
    LOCKSTEP_FAULT_SITES(X)
#undef X
    FSITE_COUNT
};
enum config_fault_model {
#define X(e, s) FMODEL_##e,
    LOCKSTEP_FAULT_MODELS(X)
#undef X
    FMODEL_COUNT
};
extern const char *const config_fault_site_names[FSITE_COUNT];
extern const char *const config_fault_model_names[FMODEL_COUNT];
/* The index of a site or model name, or -1. */
int config_fault_site(const char *name);
/* Whether site (an index) corrupts a structure of the timing model, so
 * needs -lockstep_mode timing: l1d, l2d, l1tag, l2tag, dmr_log. */
int config_fault_site_timing_only(int site);
int config_fault_model(const char *name);

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
/* The registers per thread a kernel holds for occupancy: the kernel's own
 * count capped at 32 (lockstep counts PTX virtual registers, which ptxas
 * would fold), or -lockstep_regs_per_thread when set. */
uint32_t config_occupancy_regs(const lockstep_config *cfg, uint32_t kernel_regs);
/* CTAs of `threads` threads, `regs` registers per thread (from
 * config_occupancy_regs) and `shared` bytes of shared memory one SM holds at
 * once: the smallest of -gpgpu_shader_cta and what the SM's threads,
 * registers and shared memory allow; 0 when one CTA does not fit.  The
 * timing model's CTA dispatch and the CUDA occupancy API both use it. */
uint32_t config_cta_occupancy(const lockstep_config *cfg, uint32_t threads, uint32_t regs,
                              uint32_t shared);

/* Check a string option's value (cache strings, DRAM timing, clocks,
 * latency lists, scheduler); 0, or -1 with a message in err. */
int config_check_string(const char *name, const char *value, char *err, size_t errlen);
/* The clocks of -gpgpu_clock_domains in MHz: core, icnt, l2, dram. */
void config_clocks(const lockstep_config *cfg, double mhz[4]);
/* The five numbers of a latency list option (add,max,mul,mad,div). */
void config_list5(const char *value, uint32_t out[5]);

struct dram_config;
/* The DRAM channel's configuration from the options (timing string, bus,
 * refresh, jitter); 0, or -1 with the reason in err. */
int config_dram(const lockstep_config *cfg, struct dram_config *d, char *err, size_t errlen);

#endif
