/*
 * lockstep.h -- the public C API of liblockstep.
 *
 * lockstep is a deterministic GPU architecture simulator that runs the PTX
 * nvcc emits.  This header is the whole public interface: everything under
 * src/ is internal.  The API follows the CUDA driver API's shape:
 *
 *   lockstep_config   options (GPGPU-Sim style names), defaults built in
 *   lockstep_device   one simulated GPU: device memory, modules, launches
 *   lockstep_module   PTX loaded onto a device (kernels, module variables)
 *   lockstep_kernel   an .entry of a module
 *
 * Rules that hold for every function here:
 *   - No function exits, aborts or prints on bad input; each returns a
 *     lockstep_status, and lockstep_device_last_error() holds the message of
 *     the last failing call on that device.
 *   - There is no mutable global state: separate devices can be used from
 *     separate host threads at the same time.  One device (and the modules
 *     loaded onto it) must be used by one host thread at a time.
 *   - Results are deterministic: the same inputs give bit-identical outputs.
 */
#ifndef LOCKSTEP_H
#define LOCKSTEP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define LOCKSTEP_API __attribute__((visibility("default")))
#else
#define LOCKSTEP_API
#endif

#define LOCKSTEP_VERSION_MAJOR 0
#define LOCKSTEP_VERSION_MINOR 1
#define LOCKSTEP_VERSION_PATCH 0

/* "0.1.0" */
LOCKSTEP_API const char *lockstep_version(void);

/* ------------------------------------------------------------------------ */
/* Status codes                                                             */
/* ------------------------------------------------------------------------ */

typedef enum lockstep_status {
    LOCKSTEP_SUCCESS = 0,
    LOCKSTEP_ERROR_INVALID_VALUE,      /* a bad argument to an API call */
    LOCKSTEP_ERROR_OUT_OF_MEMORY,      /* host or simulated device memory exhausted */
    LOCKSTEP_ERROR_IO,                 /* a file could not be read */
    LOCKSTEP_ERROR_INVALID_PTX,        /* PTX that does not parse or check */
    LOCKSTEP_ERROR_UNSUPPORTED_PTX,    /* valid PTX using what lockstep does not implement */
    LOCKSTEP_ERROR_NOT_FOUND,          /* no kernel or symbol by that name */
    LOCKSTEP_ERROR_INVALID_CONFIG,     /* unknown option or bad option value */
    LOCKSTEP_ERROR_INVALID_LAUNCH,     /* bad grid/block dimensions or parameters */
    LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES, /* block too large, too much shared memory */
    /* Kernel faults: the kernel stopped; lockstep_device_last_fault() says where. */
    LOCKSTEP_ERROR_ILLEGAL_ADDRESS,    /* access outside every live allocation */
    LOCKSTEP_ERROR_MISALIGNED_ADDRESS, /* access not aligned to its size */
    LOCKSTEP_ERROR_BARRIER_DEADLOCK,   /* a barrier that can never complete */
    LOCKSTEP_ERROR_INSN_LIMIT,         /* the launch ran past its instruction limit */
    LOCKSTEP_ERROR_STACK_OVERFLOW,     /* call depth or local memory exhausted */
    LOCKSTEP_ERROR_TRAP,               /* the kernel executed trap */
    LOCKSTEP_ERROR_ASSERT,             /* a device-side assert() failed */
    LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION,/* e.g. a warp intrinsic's member mask excludes the caller */
    LOCKSTEP_ERROR_LAUNCH_TIMEOUT,     /* past -lockstep_max_cycles or -lockstep_timeout host seconds */
    LOCKSTEP_ERROR_INTERRUPTED,        /* stopped by lockstep_device_interrupt (e.g. the program exits) */
    LOCKSTEP_ERROR_REDUNDANCY,         /* redundant execution (DMR) found an error it cannot correct */
    LOCKSTEP_STATUS_COUNT
} lockstep_status;

/* "LOCKSTEP_ERROR_ILLEGAL_ADDRESS" */
LOCKSTEP_API const char *lockstep_status_name(lockstep_status s);
/* "illegal memory address" */
LOCKSTEP_API const char *lockstep_status_string(lockstep_status s);

/* ------------------------------------------------------------------------ */
/* Configuration                                                            */
/* ------------------------------------------------------------------------ */

/* Options use GPGPU-Sim's names where GPGPU-Sim has the option
 * ("-gpgpu_n_clusters 15"); lockstep's own options start with "-lockstep_".
 * The leading '-' is optional in lockstep_config_set(). */
typedef struct lockstep_config lockstep_config;

LOCKSTEP_API lockstep_status lockstep_config_create(lockstep_config **out);
LOCKSTEP_API void lockstep_config_destroy(lockstep_config *cfg);
LOCKSTEP_API lockstep_status lockstep_config_copy(const lockstep_config *src, lockstep_config **out);
/* Set one option from its text form. Unknown names and bad values fail. */
LOCKSTEP_API lockstep_status lockstep_config_set(lockstep_config *cfg, const char *name,
                                                 const char *value);
/* Read options from GPGPU-Sim style text: "-name value" per line, '#' comments.
 * `filename` is used in error messages ("file:line: ..."). */
LOCKSTEP_API lockstep_status lockstep_config_parse(lockstep_config *cfg, const char *text,
                                                   size_t len, const char *filename);
LOCKSTEP_API lockstep_status lockstep_config_load_file(lockstep_config *cfg, const char *path);
/* The message of the last failing call on this config; "" if none. */
LOCKSTEP_API const char *lockstep_config_last_error(const lockstep_config *cfg);
/* Check what single options cannot: options that must agree with each
 * other and the timing model's limits.  lockstep_device_create runs it;
 * call it to report a bad configuration before anything else happens.
 * LOCKSTEP_ERROR_INVALID_CONFIG with the reason in last_error. */
LOCKSTEP_API lockstep_status lockstep_config_validate(lockstep_config *cfg);
/* Write an option's current value as text into buf (NUL-terminated). */
LOCKSTEP_API lockstep_status lockstep_config_get(const lockstep_config *cfg, const char *name,
                                                 char *buf, size_t buflen);

/* The option table, for help listings and for printing effective configs. */
typedef struct lockstep_option_info {
    const char *name;     /* "-gpgpu_n_clusters" */
    const char *type;     /* "int", "uint64", "bool", "string" */
    const char *def;      /* default value as text */
    const char *help;     /* one line */
} lockstep_option_info;
LOCKSTEP_API size_t lockstep_config_option_count(void);
LOCKSTEP_API const lockstep_option_info *lockstep_config_option(size_t i);

/* ------------------------------------------------------------------------ */
/* Devices and device memory                                                */
/* ------------------------------------------------------------------------ */

typedef struct lockstep_device lockstep_device;
typedef uint64_t lockstep_dptr; /* a simulated device address; 0 is never valid */

/* cfg may be NULL for the built-in defaults; the device keeps its own copy. */
LOCKSTEP_API lockstep_status lockstep_device_create(const lockstep_config *cfg,
                                                    lockstep_device **out);
/* Frees everything the device owns (modules included); delivers pending printf output. */
LOCKSTEP_API void lockstep_device_destroy(lockstep_device *dev);
/* The message of the last failing call on this device; "" if none. */
LOCKSTEP_API const char *lockstep_device_last_error(const lockstep_device *dev);
/* The device's effective configuration (read-only). */
LOCKSTEP_API const lockstep_config *lockstep_device_config(const lockstep_device *dev);

/* Stop the launch running on dev, if any, at its next check (within
 * microseconds of simulated work): it ends with LOCKSTEP_ERROR_INTERRUPTED.
 * Safe to call from another thread or a signal handler.  The next launch
 * clears the request. */
LOCKSTEP_API void lockstep_device_interrupt(lockstep_device *dev);

/* Where device printf output goes at synchronization (default: stdout).
 * fn(ud, text, len) is called with whole lines. fn NULL restores the default. */
typedef void (*lockstep_output_fn)(void *ud, const char *text, size_t len);
LOCKSTEP_API void lockstep_device_set_printf_output(lockstep_device *dev, lockstep_output_fn fn,
                                                    void *ud);

/* Allocations are 256-byte aligned, like cudaMalloc; bytes == 0 fails. */
LOCKSTEP_API lockstep_status lockstep_malloc(lockstep_device *dev, size_t bytes,
                                             lockstep_dptr *out);
LOCKSTEP_API lockstep_status lockstep_free(lockstep_device *dev, lockstep_dptr ptr);
LOCKSTEP_API lockstep_status lockstep_memcpy_htod(lockstep_device *dev, lockstep_dptr dst,
                                                  const void *src, size_t bytes);
LOCKSTEP_API lockstep_status lockstep_memcpy_dtoh(lockstep_device *dev, void *dst,
                                                  lockstep_dptr src, size_t bytes);
LOCKSTEP_API lockstep_status lockstep_memcpy_dtod(lockstep_device *dev, lockstep_dptr dst,
                                                  lockstep_dptr src, size_t bytes);
LOCKSTEP_API lockstep_status lockstep_memset(lockstep_device *dev, lockstep_dptr dst, int value,
                                             size_t bytes);
/* Map `bytes` of host memory into the device's address space at the host
 * pointer's own address, as unified virtual addressing does for pinned and
 * managed memory: kernels (and lockstep_memcpy_*) then reach those host
 * bytes through that address.  The mapping must not overlap device memory
 * or another mapping.  The host memory must stay valid until unmapped. */
LOCKSTEP_API lockstep_status lockstep_map_host(lockstep_device *dev, void *host, size_t bytes);
LOCKSTEP_API lockstep_status lockstep_unmap_host(lockstep_device *dev, void *host);
/* The mapped host buffers (lockstep_map_host) that kernels read or wrote
 * since the last call: at most max of them, their host addresses and sizes
 * in address order, into host[] and bytes[] (NULL when max is 0).  Returns
 * how many there were, and clears the record.  A CUDA runtime uses it to
 * tell when the host changes memory a kernel saw before the program
 * synchronized with that kernel (docs/CUDART.md). */
LOCKSTEP_API size_t lockstep_mapped_accesses(lockstep_device *dev, void **host, size_t *bytes,
                                             size_t max);
/* ---- Textures and surfaces ----
 * A texture object describes device memory as an image of texels that the
 * PTX texture instructions (tex, tld4, txq) sample and the surface
 * instructions (suld, sust, suq) read and write.  The 64-bit handle
 * lockstep_texture_create returns is the value a kernel receives (CUDA's
 * cudaTextureObject_t / cudaSurfaceObject_t).  Texels are laid out row by
 * row: texel (x, y, z) of layer k is at
 *     base + k * layer_stride + z * slice_stride + y * pitch + x * texel bytes. */
typedef enum lockstep_tex_kind {
    LOCKSTEP_TEX_UNSIGNED, /* unsigned integer channels */
    LOCKSTEP_TEX_SIGNED,   /* signed integer channels */
    LOCKSTEP_TEX_FLOAT     /* IEEE floats: 16-bit (half) or 32-bit channels */
} lockstep_tex_kind;
/* Address modes (CUDA's cudaTextureAddressMode values). */
enum { LOCKSTEP_TEX_WRAP, LOCKSTEP_TEX_CLAMP, LOCKSTEP_TEX_MIRROR, LOCKSTEP_TEX_BORDER };
typedef struct lockstep_texture_desc {
    lockstep_dptr base;        /* texel (0, 0, 0) of layer 0 */
    uint64_t pitch;            /* bytes from one row to the next */
    uint64_t slice_stride;     /* bytes from one 3-D slice to the next */
    uint64_t layer_stride;     /* bytes from one layer to the next */
    uint32_t width, height, depth; /* in texels; 1 for a dimension not used */
    uint32_t layers;           /* 0: not layered (else 1-D or 2-D layers) */
    uint8_t dims;              /* 1, 2 or 3 */
    uint8_t buffer;            /* linear memory (CUDA's cudaResourceTypeLinear): integer
                                  coordinates only, a fetch outside reads zeros */
    uint8_t channels;          /* 1, 2 or 4 */
    uint8_t bits;              /* bits of every channel: 8, 16 or 32 */
    uint8_t kind;              /* lockstep_tex_kind */
    uint8_t address[3];        /* LOCKSTEP_TEX_WRAP ... per coordinate */
    uint8_t linear_filter;     /* 1: linear (bi-, trilinear) filtering; 0: nearest texel */
    uint8_t read_normalized;   /* 1: 8- and 16-bit integers read as floats in [0,1] / [-1,1] */
    uint8_t normalized_coords; /* 1: coordinates in [0, 1) */
    uint8_t surface;           /* created for surface access (suld, sust) */
    uint8_t cubemap;           /* a cube map: square 2-D layers, six per cube, in the order
                                  +x, -x, +y, -y, +z, -z (tex.cube, tex.acube) */
    float border[4];           /* the border color (LOCKSTEP_TEX_BORDER) */
} lockstep_texture_desc;

/* Check a description and make a texture object of it; *handle is never 0.
 * A description the texture unit cannot sample (linear filtering of integer
 * texels read as integers, normalized reads of 32-bit integers, ...) is
 * refused with LOCKSTEP_ERROR_INVALID_VALUE and the reason. */
LOCKSTEP_API lockstep_status lockstep_texture_create(lockstep_device *dev,
                                                     const lockstep_texture_desc *desc,
                                                     uint64_t *handle);
LOCKSTEP_API lockstep_status lockstep_texture_destroy(lockstep_device *dev, uint64_t handle);
/* The description of a live texture object. */
LOCKSTEP_API lockstep_status lockstep_texture_get(const lockstep_device *dev, uint64_t handle,
                                                  lockstep_texture_desc *out);

/* Does ptr lie in the address ranges lockstep simulates (device memory and
 * the generic windows), allocated or not?  The host must never dereference
 * such an address. */
LOCKSTEP_API int lockstep_is_simulated_address(const lockstep_device *dev, lockstep_dptr ptr);
/* Is [ptr, ptr+bytes) inside one live device allocation or mapping? */
LOCKSTEP_API int lockstep_is_device_range(const lockstep_device *dev, lockstep_dptr ptr,
                                          size_t bytes);

/* Bytes still allocatable and the configured total (-lockstep_device_memory). */
LOCKSTEP_API lockstep_status lockstep_mem_info(lockstep_device *dev, size_t *free_bytes,
                                               size_t *total_bytes);

/* ------------------------------------------------------------------------ */
/* Modules and kernels                                                      */
/* ------------------------------------------------------------------------ */

typedef struct lockstep_module lockstep_module;
typedef struct lockstep_kernel lockstep_kernel;

/* Parse, check and decode PTX text. `filename` names the text in messages
 * ("vecadd.ptx:12:5: unknown instruction 'foo'").  On failure every
 * diagnostic is in lockstep_device_last_error(), one per line. Module-scope
 * .global and .const variables are allocated in device memory and initialized. */
LOCKSTEP_API lockstep_status lockstep_module_load_ptx(lockstep_device *dev, const char *text,
                                                      size_t len, const char *filename,
                                                      lockstep_module **out);
LOCKSTEP_API lockstep_status lockstep_module_load_file(lockstep_device *dev, const char *path,
                                                       lockstep_module **out);
/* Link n PTX texts into one module, as nvlink links the translation units
 * of a program built with relocatable device code (nvcc -rdc=true): each
 * .extern declaration binds to the .visible (else first .weak) definition
 * in any text; a text's symbols without linkage stay its own.  names[i]
 * names text i in messages and fault reports (NULL: "<ptxI>"); lens NULL:
 * the texts are NUL-terminated.  An undefined extern and two definitions
 * of one symbol are errors naming file:line.  The module's file name is
 * the texts' names joined by '+'. */
LOCKSTEP_API lockstep_status lockstep_module_load_ptx_linked(lockstep_device *dev, size_t n,
                                                             const char *const texts[],
                                                             const size_t lens[],
                                                             const char *const names[],
                                                             lockstep_module **out);
/* Frees the module and its variables. Kernels of it must not be launched afterwards. */
LOCKSTEP_API void lockstep_module_unload(lockstep_module *mod);

LOCKSTEP_API lockstep_status lockstep_module_get_kernel(lockstep_module *mod, const char *name,
                                                        lockstep_kernel **out);
LOCKSTEP_API size_t lockstep_module_kernel_count(const lockstep_module *mod);
LOCKSTEP_API lockstep_kernel *lockstep_module_kernel_at(lockstep_module *mod, size_t i);
/* Device address and size of a module-scope .global or .const variable. */
LOCKSTEP_API lockstep_status lockstep_module_get_symbol(lockstep_module *mod, const char *name,
                                                        lockstep_dptr *addr, size_t *bytes);

typedef struct lockstep_param_info {
    uint32_t offset; /* in the packed parameter buffer */
    uint32_t size;
    uint32_t align;
} lockstep_param_info;

typedef struct lockstep_kernel_info {
    const char *name;
    const char *ptx_file;           /* file name given at load */
    uint32_t ptx_line;              /* line of the .entry */
    uint32_t num_params;
    const lockstep_param_info *params; /* num_params entries, owned by the module */
    uint32_t param_bytes;           /* size of the packed parameter buffer */
    uint32_t num_regs;              /* registers, counted in 32-bit units, of the kernel and its callees */
    uint32_t num_pred_regs;
    uint32_t static_shared_bytes;   /* .shared variables the kernel can reach */
    uint32_t local_bytes;           /* per-thread local memory of the kernel's own frame */
    uint32_t num_insts;             /* decoded instructions of the kernel and its callees */
    uint32_t maxntid[3];            /* .maxntid, 0 if absent */
    uint32_t reqntid[3];            /* .reqntid, 0 if absent */
    uint32_t minnctapersm;          /* .minnctapersm, 0 if absent */
    int uses_dynamic_shared;        /* reaches an .extern .shared array */
    uint32_t max_dynamic_shared_bytes; /* the most dynamic shared memory a launch may ask for
                                          (lockstep_kernel_set_max_dynamic_shared) */
    uint32_t ptx_target;            /* the module's .target as a number (sm_90 -> 90), 0 if none */
} lockstep_kernel_info;

LOCKSTEP_API lockstep_status lockstep_kernel_get_info(const lockstep_kernel *k,
                                                      lockstep_kernel_info *out);

/* The most dynamic shared memory a launch of k may ask for (CUDA's
 * cudaFuncAttributeMaxDynamicSharedMemorySize).  By default it is the
 * per-CTA limit (-lockstep_max_shared_per_cta) less k's static shared
 * memory; a kernel may opt in to more, up to the opt-in limit
 * (-lockstep_max_shared_per_cta_optin, at most the SM's shared memory) less
 * its static shared memory.  LOCKSTEP_ERROR_INVALID_VALUE beyond that, with
 * the limits in lockstep_device_last_error. */
LOCKSTEP_API lockstep_status lockstep_kernel_set_max_dynamic_shared(lockstep_kernel *k,
                                                                    uint32_t bytes);

/* ------------------------------------------------------------------------ */
/* Launches                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct lockstep_dim3 {
    uint32_t x, y, z;
} lockstep_dim3;

/* Instruction-mix classes of warp instructions.  Arithmetic is classed by
 * its type (f64 -> FP64; f16, bf16 -> FP16; other floats -> FP32; integers,
 * bit operations, mov and integer cvt -> INT); memory operations by state
 * space (a generic access by the space its first active lane's address
 * falls in). */
typedef enum lockstep_mix {
    LOCKSTEP_MIX_INT,
    LOCKSTEP_MIX_FP32,
    LOCKSTEP_MIX_FP64,
    LOCKSTEP_MIX_FP16,
    LOCKSTEP_MIX_SFU,         /* f32 rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh */
    LOCKSTEP_MIX_LD_GLOBAL,   /* ld.global, ld of a generic global address, cp.async's copies */
    LOCKSTEP_MIX_ST_GLOBAL,
    LOCKSTEP_MIX_LD_SHARED,
    LOCKSTEP_MIX_ST_SHARED,
    LOCKSTEP_MIX_LD_LOCAL,
    LOCKSTEP_MIX_ST_LOCAL,
    LOCKSTEP_MIX_LD_CONST,
    LOCKSTEP_MIX_LD_PARAM,    /* kernel and function parameters */
    LOCKSTEP_MIX_ST_PARAM,    /* call arguments */
    LOCKSTEP_MIX_ATOM_GLOBAL, /* atom and red */
    LOCKSTEP_MIX_ATOM_SHARED,
    LOCKSTEP_MIX_BRANCH,
    LOCKSTEP_MIX_CALL,        /* call, and ret from a function */
    LOCKSTEP_MIX_BARRIER,     /* bar, barrier, mbarrier, cp.async's groups */
    LOCKSTEP_MIX_WARP,        /* shfl, vote, match, redux, activemask */
    LOCKSTEP_MIX_FENCE,       /* membar, fence */
    LOCKSTEP_MIX_OTHER,       /* exit and a kernel's ret, trap, nanosleep, prefetch, pmevent */
    LOCKSTEP_MIX_COUNT
} lockstep_mix;

/* The short name of a class ("int", "ld_global", ...); NULL if out of range. */
LOCKSTEP_API const char *lockstep_mix_name(lockstep_mix m);

/* Why a warp scheduler did not issue in a cycle (timing mode); each
 * scheduler-cycle of a kernel is counted under exactly one reason. */
typedef enum lockstep_stall {
    LOCKSTEP_STALL_ISSUED,     /* it issued an instruction */
    LOCKSTEP_STALL_IDLE,       /* no warp assigned to it (no CTA resident, or all warps done) */
    LOCKSTEP_STALL_SCOREBOARD, /* its warps wait for operands (ALU latency or memory data) */
    LOCKSTEP_STALL_FU_BUSY,    /* a ready instruction's functional unit was busy */
    LOCKSTEP_STALL_MEMORY,     /* a ready memory instruction found the memory pipeline busy */
    LOCKSTEP_STALL_BARRIER,    /* its warps wait at a barrier */
    LOCKSTEP_STALL_FENCE,      /* a fence waits for earlier memory operations */
    LOCKSTEP_STALL_NO_INST,    /* its warps' instruction buffers are empty: fetch in progress */
    LOCKSTEP_STALL_DET,        /* its warps wait for a GPUDet quantum's end, commit or turn, or a DAB flush or turn */
    LOCKSTEP_STALL_SLEEP,      /* its warps sleep (nanosleep) */
    LOCKSTEP_STALL_COUNT
} lockstep_stall;
LOCKSTEP_API const char *lockstep_stall_name(lockstep_stall s);

/* Every timing-mode counter of a launch, in output order, as
 * X(member, name, what): the member of lockstep_timing_stats, its name in
 * the statistics text and JSON (GPGPU-Sim's where it has one), and what it
 * counts.  The struct, the statistics writers and the sums over SMs,
 * partitions and launches all come from this one table.  The cycle count,
 * the occupancy and the scheduler breakdown sit outside it: they are not
 * plain sums. */
#define LOCKSTEP_TIMING_COUNTERS(X)                                                        \
    X(l1d_accesses, "L1D_total_cache_accesses", "global loads looked up in an L1D")      \
    X(l1d_misses, "L1D_total_cache_misses", "of those, misses")                          \
    X(l1d_pending_hits, "L1D_pending_hits", "misses merged into an outstanding miss (MSHR)") \
    X(l1d_reservation_fails, "L1D_reservation_fails",                                    \
      "L1D accesses retried: no MSHR, merge slot or line free")                          \
    X(l2_accesses, "L2_total_cache_accesses", "requests looked up in an L2 slice")       \
    X(l2_misses, "L2_total_cache_misses", "of those, misses")                            \
    X(l2_writebacks, "L2_writebacks", "dirty L2 lines written back to DRAM")             \
    X(dram_reads, "total_dram_reads", "DRAM read requests completed")                    \
    X(dram_writes, "total_dram_writes", "DRAM write requests completed")                 \
    X(dram_row_hits, "dram_row_hits", "DRAM requests served from an open row")           \
    X(dram_activates, "dram_activates", "DRAM row activations")                          \
    X(dram_refreshes, "dram_refreshes", "DRAM refresh commands")                         \
    X(icnt_req_packets, "icnt_req_packets", "request packets, SM to partition")          \
    X(icnt_req_flits, "icnt_req_flits", "their flits")                                   \
    X(icnt_rep_packets, "icnt_rep_packets", "reply packets, partition to SM")            \
    X(icnt_rep_flits, "icnt_rep_flits", "their flits")                                   \
    X(icnt_stalls, "icnt_stall_cycles",                                                  \
      "flit-cycles blocked by arbitration or full buffers")                              \
    X(icnt_bypasses, "icnt_bypasses",                                                    \
      "packets sent ahead of an input's blocked head (-lockstep_icnt_bypass)")             \
    X(icnt_store_waits, "icnt_store_wait_cycles",                                        \
      "cycles a store waited at the head of its SM's store input for the SM's older loads and " \
      "atomics (-lockstep_store_after_loads)")                                             \
    X(shmem_accesses, "shmem_accesses", "shared-memory warp accesses")                   \
    X(shmem_conflict_cycles, "shmem_bank_conflict_cycles",                               \
      "extra cycles from shared-memory bank conflicts")                                  \
    X(ldst_replays, "ldst_replays",                                                      \
      "load passes replayed by the LD/ST unit (-lockstep_ldst_replay)")                   \
    X(const_accesses, "const_cache_accesses", "constant-cache warp accesses")            \
    X(const_misses, "const_cache_misses", "of those, misses")                            \
    X(tex_accesses, "tex_cache_accesses",                                                \
      "texture-cache lines probed by texture fetches (tex, tld4)")                        \
    X(tex_misses, "tex_cache_misses",                                                    \
      "of those, misses that sent a read (not those merged with a read in flight)")       \
    X(mem_requests, "mem_requests", "coalesced global/local requests sent to the partitions") \
    X(sm_lost_cycles, "sm_lost_cycles",                                                  \
      "SM cycles lost to modelled clock drift (-lockstep_clock_drift)")                    \
    X(det_quanta, "gpudet_quanta", "GPUDet: quanta")                                      \
    X(det_parallel_cycles, "gpudet_parallel_cycles", "GPUDet: cycles in parallel mode")  \
    X(det_commit_cycles, "gpudet_commit_cycles", "GPUDet: cycles in commit mode")        \
    X(det_serial_cycles, "gpudet_serial_cycles", "GPUDet: cycles in serial mode")        \
    X(det_end_count, "gpudet_end_count", "GPUDet: quanta a warp ended on its instruction count") \
    X(det_end_atomic, "gpudet_end_atomic", "GPUDet: ... before a global atomic")         \
    X(det_end_fence, "gpudet_end_fence", "GPUDet: ... before a fence")                   \
    X(det_end_barrier, "gpudet_end_barrier", "GPUDet: ... before a CTA barrier")         \
    X(det_end_call, "gpudet_end_call", "GPUDet: ... before a built-in call (printf, malloc)") \
    X(det_end_exit, "gpudet_end_exit", "GPUDet: ... at exit")                            \
    X(det_sb_entries, "gpudet_sb_entries", "GPUDet: store-buffer entries (128-byte chunks) made") \
    X(det_sb_searches, "gpudet_sb_searches", "GPUDet: loads that searched a store buffer") \
    X(det_sb_load_hits, "gpudet_sb_load_hits", "GPUDet: loads answered from a store buffer") \
    X(det_bloom_false_positives, "gpudet_bloom_false_positives",                         \
      "GPUDet: chunks the Bloom filter passed that the log did not hold")                 \
    X(det_commit_entries, "gpudet_commit_entries", "GPUDet: entries committed")          \
    X(det_zcache_hits, "gpudet_zcache_hits", "GPUDet: Z-cache hits of committed entries") \
    X(det_zcache_misses, "gpudet_zcache_misses", "GPUDet: Z-cache misses (depths fetched)") \
    X(det_serial_ops, "gpudet_serial_ops", "GPUDet: atomics and built-in calls run in serial mode") \
    X(det_ztest_drops, "gpudet_ztest_drops",                                             \
      "GPUDet: 4-byte words of committed entries that failed the Z-test (a lower warp id wrote them)") \
    X(det_zbuffer_resets, "gpudet_zbuffer_resets", "GPUDet: Z-buffer resets (quantum id overflow)") \
    X(det_sb_l1_accesses, "gpudet_sb_l1_accesses", "GPUDet: store-buffer line accesses through the L1") \
    X(det_sb_l1_misses, "gpudet_sb_l1_misses", "GPUDet: of those, L1 misses")           \
    X(det_sb_l1_writebacks, "gpudet_sb_l1_writebacks",                                   \
      "GPUDet: dirty store-buffer lines the L1 evicted (written back to the L2)")          \
    X(dab_buffered, "dab_buffered", "DAB: atomic lanes put in atomic buffers")            \
    X(dab_fusion_hits, "dab_fusion_hits", "DAB: of those, fused into an entry (atomic fusion)") \
    X(dab_full_stalls, "dab_full_stalls", "DAB: atomics that found their buffer full")   \
    X(dab_tier_stalls, "dab_tier_stalls",                                               \
      "DAB: atomics that found their buffer holding an earlier CTA generation")             \
    X(dab_token_waits, "dab_token_waits", "DAB: instructions that waited for their turn (token, round)") \
    X(dab_fence_flushes, "dab_fence_flushes", "DAB: fences and barriers that waited for a flush") \
    X(dab_flushes, "dab_flushes", "DAB: buffer flushes")                                \
    X(dab_flush_cycles, "dab_flush_cycles", "DAB: cycles from a flush's start to its last acknowledgement") \
    X(dab_sync_cycles, "dab_sync_cycles",                                               \
      "DAB: cycles from the first warp's wait to the flush's start (the implicit barrier)") \
    X(dab_ack_wait_cycles, "dab_ack_wait_cycles",                                       \
      "DAB: cycles from the last push to the last acknowledgement")                         \
    X(dab_preflush_wait_cycles, "dab_preflush_wait_cycles",                             \
      "DAB: transaction-cycles waiting at a partition for the pre-flush counts")            \
    X(dab_flush_entries, "dab_flush_entries", "DAB: buffer entries flushed")             \
    X(dab_flush_transactions, "dab_flush_transactions",                                 \
      "DAB: transactions they travelled in (flush coalescing)")                             \
    X(dab_flushbuf_max, "dab_flushbuf_max",                                             \
      "DAB: the most transactions waiting in a partition's flush buffer")                   \
    X(dab_serial_atomics, "dab_serial_atomics", "DAB: atomics whose result is used, run in the serial phase") \
    X(dab_serial_cycles, "dab_serial_cycles", "DAB: cycles in serial phases") \
    X(dmr_comparisons, "dmr_comparisons",                                               \
      "DMR: global write requests of a second copy compared with the first copy's")         \
    X(dmr_mismatches, "dmr_mismatches", "DMR: CTA pairs found to disagree")             \
    X(dmr_reissues, "dmr_reissues", "DMR: CTA pairs reissued after a mismatch")         \
    X(dmr_comparator_stall_cycles, "dmr_comparator_stall_cycles",                       \
      "DMR: cycles atomics waited in the comparator for their partner copy")                \
    X(dmr_log_entries_max, "dmr_log_entries_max",                                       \
      "DMR: the most entries a partition's comparator held at once")                        \
    X(dmr_commit_writes, "dmr_commit_writes", "DMR: agreed line writes committed to memory") \
    X(dmr_copy_timeouts, "dmr_copy_timeouts",                                           \
      "DMR: copies stopped as hung, running long after their partner finished")              \
    X(dmr_lvq_loads, "dmr_lvq_loads",                                                   \
      "DMR load-value replication: second-copy global loads given the first copy's values")  \
    X(dmr_lvq_waits, "dmr_lvq_waits",                                                   \
      "DMR load-value replication: second-copy loads that waited for the first copy's")      \
    X(dmr_lvq_wait_cycles, "dmr_lvq_wait_cycles",                                       \
      "DMR load-value replication: cycles those waited beyond their own values")             \
    X(dmr_lvq_entries_max, "dmr_lvq_entries_max",                                       \
      "DMR load-value replication: the most entries the load value queue held at once")

/* Timing-mode counters of a launch. */
typedef struct lockstep_timing_stats {
    uint64_t cycles; /* gpu_sim_cycle (core clock) */
#define LOCKSTEP_COUNTER_MEMBER_(member, name, what) uint64_t member;
    LOCKSTEP_TIMING_COUNTERS(LOCKSTEP_COUNTER_MEMBER_)
#undef LOCKSTEP_COUNTER_MEMBER_
    uint64_t max_ctas_per_sm;    /* occupancy: CTAs an SM can hold for this kernel */
    uint64_t stall[LOCKSTEP_STALL_COUNT]; /* scheduler-cycles, summed over SMs and schedulers */
} lockstep_timing_stats;

/* Per-launch counters. */
typedef struct lockstep_launch_stats {
    uint64_t warp_insts;   /* warp instructions issued (predicated-off ones included) */
    uint64_t thread_insts; /* sum over warp instructions of active, guard-true lanes */
    uint64_t ctas;
    uint64_t threads;
    uint64_t mix[LOCKSTEP_MIX_COUNT]; /* warp instructions per class; they sum to warp_insts */
    uint64_t printf_dropped; /* device printf records lost: the FIFO (-lockstep_printf_fifo) was full */
    /* Grids the launch's threads launched from device code (dynamic
     * parallelism), at every depth, that ran.  They run within the launch,
     * and every count here (ctas, threads, instructions, mix, cycles and
     * the timing counters) covers them too. */
    uint64_t device_launches;
    int timing;            /* 1: ran on the timing model, and t is filled in */
    lockstep_timing_stats t;
} lockstep_launch_stats;

/* Per-SM scheduler-cycle breakdown of the last launch on dev (timing mode):
 * stall[LOCKSTEP_STALL_COUNT] for SM `sm`; 0, or -1 if there is no such SM
 * or the last launch was functional. */
LOCKSTEP_API int lockstep_last_launch_sm_stalls(const lockstep_device *dev, uint32_t sm,
                                                uint64_t stall[LOCKSTEP_STALL_COUNT]);

/* End the timing model's Chrome trace (-lockstep_trace FILE): write its
 * closing and close the file, so Perfetto can open it while the device
 * lives on; later launches are not traced.  lockstep_device_destroy does
 * this too.  LOCKSTEP_SUCCESS (also when there is no trace), or
 * LOCKSTEP_ERROR_IO if writing the file failed. */
LOCKSTEP_API lockstep_status lockstep_trace_finish(lockstep_device *dev);

/* Launch `k` and run it to completion (functional mode).
 * `params` is the packed parameter buffer laid out as lockstep_kernel_info
 * describes (params_bytes must equal param_bytes).  Returns the launch's
 * status; a kernel fault is also kept as the device's pending error, which
 * the next lockstep_synchronize() returns.  `stats` may be NULL. */
LOCKSTEP_API lockstep_status lockstep_launch(lockstep_device *dev, const lockstep_kernel *k,
                                             lockstep_dim3 grid, lockstep_dim3 block,
                                             uint32_t dynamic_shared_bytes, const void *params,
                                             size_t params_bytes, lockstep_launch_stats *stats);
/* Same, with the arguments given the CUDA way: args[i] points at parameter i. */
LOCKSTEP_API lockstep_status lockstep_launch_args(lockstep_device *dev, const lockstep_kernel *k,
                                                  lockstep_dim3 grid, lockstep_dim3 block,
                                                  uint32_t dynamic_shared_bytes,
                                                  void *const *args,
                                                  lockstep_launch_stats *stats);
/* A cooperative launch (cudaLaunchCooperativeKernel): every CTA of the grid
 * is resident at once, and the kernel's %envreg1:%envreg2 hold the address of
 * an 8-byte grid workspace, zeroed, that cooperative groups' grid.sync()
 * uses.  A grid larger than the device holds at once (SMs x
 * lockstep_kernel_occupancy) is refused with LOCKSTEP_ERROR_INVALID_LAUNCH
 * before anything runs, as a GPU refuses it. */
LOCKSTEP_API lockstep_status lockstep_launch_cooperative(lockstep_device *dev,
                                                         const lockstep_kernel *k,
                                                         lockstep_dim3 grid, lockstep_dim3 block,
                                                         uint32_t dynamic_shared_bytes,
                                                         void *const *args,
                                                         lockstep_launch_stats *stats);

/* How many CTAs of `k` with `block_threads` threads and
 * `dynamic_shared_bytes` of dynamic shared memory one SM holds at once on
 * this device's configuration (the timing model's CTA dispatch uses the same
 * rule: -gpgpu_shader_cta, threads, registers, shared memory); 0 when one
 * CTA does not fit.  *num_sms, when not NULL, gets the SM count. */
LOCKSTEP_API lockstep_status lockstep_kernel_occupancy(const lockstep_device *dev,
                                                       const lockstep_kernel *k,
                                                       uint32_t block_threads,
                                                       uint32_t dynamic_shared_bytes,
                                                       uint32_t *ctas_per_sm, uint32_t *num_sms);

/* Deliver buffered device printf output, then return (and clear) the pending
 * error of the last faulting launch, LOCKSTEP_SUCCESS if none. */
LOCKSTEP_API lockstep_status lockstep_synchronize(lockstep_device *dev);

/* Where the last kernel fault on this device happened. */
typedef struct lockstep_fault_info {
    lockstep_status status;       /* LOCKSTEP_SUCCESS if there was none */
    const char *kernel;           /* kernel name */
    uint32_t cta[3];              /* %ctaid */
    uint32_t thread[3];           /* %tid of the first faulting lane */
    uint32_t warp;                /* warp in the CTA */
    uint32_t lane;
    uint32_t pc;                  /* instruction index in the module */
    const char *function;         /* function holding the instruction */
    const char *ptx_file;
    uint32_t ptx_line;
    const char *src_file;         /* CUDA source from .loc/.file, NULL if none */
    uint32_t src_line;
    uint64_t address;             /* faulting address, for memory faults */
    const char *message;          /* the whole message, as lockstep_device_last_error() */
} lockstep_fault_info;
/* The returned strings stay valid until the next launch on the device. */
LOCKSTEP_API void lockstep_device_last_fault(const lockstep_device *dev, lockstep_fault_info *out);

/* Fault injection's report (-lockstep_fault_site and friends;
 * docs/RELIABILITY.md, "The report"): one line of JSON, without a newline,
 * saying where the run's one fault landed (or "landed":0) and the program's
 * totals so far (cycles, warp instructions, launches), also for site none.
 * Writes at most size bytes with a terminating NUL, like snprintf, and
 * returns the report's length (0 for no device). */
LOCKSTEP_API size_t lockstep_fault_report(const lockstep_device *dev, char *buf, size_t size);

/* ACE lifetime analysis's result (-lockstep_ace 1; docs/RELIABILITY.md,
 * "ACE lifetime analysis"): ACE bit-time, allocated bit-time and AVF per
 * structure (reg, pred, shared) over the launches so far, as one JSON
 * object without a newline (text 0) or as text lines (text 1).  Writes at
 * most size bytes with a terminating NUL, like snprintf, and returns the
 * report's length: 0 for no device or with -lockstep_ace 0. */
LOCKSTEP_API size_t lockstep_ace_report(const lockstep_device *dev, int text, char *buf,
                                        size_t size);

#ifdef __cplusplus
}
#endif
#endif /* LOCKSTEP_H */
