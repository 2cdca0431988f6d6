/*
 * device_int.h -- the one internal interface beside the public API
 * (lockstep.h), for code linked into the same library that needs a little
 * more: the CUDA runtime replacement (src/cudart) and tests of the seams.
 * It exposes no internal structure: what it names are functions of a
 * lockstep_device and opaque mechanism descriptions (exec.h defines those
 * for the code that builds them).  Not part of lockstep.h.
 */
#ifndef LOCKSTEP_DEVICE_INT_H
#define LOCKSTEP_DEVICE_INT_H

#include <stddef.h>
#include <stdint.h>

#include "lockstep.h"

/* What cudaGetDeviceProperties reports, from the device's configuration. */
typedef struct device_shape {
    uint32_t sms;             /* clusters x cores per cluster */
    uint32_t threads_per_sm;  /* -gpgpu_shader_core_pipeline */
    uint32_t max_cta_threads; /* -lockstep_max_threads_per_cta */
    uint32_t max_cta_shared;  /* -lockstep_max_shared_per_cta */
    uint32_t max_cta_shared_optin; /* what a kernel may opt in to (lockstep_kernel_set_max_dynamic_shared) */
    uint32_t shmem_per_sm;    /* -gpgpu_shmem_size */
    uint32_t ctas_per_sm;     /* -gpgpu_shader_cta */
    uint32_t regs_per_sm;     /* -gpgpu_shader_registers */
    uint64_t device_memory;   /* -lockstep_device_memory */
    uint32_t core_khz;        /* -gpgpu_clock_domains' core clock */
    uint32_t dram_khz;        /* and its DRAM clock */
    uint32_t bus_bits;        /* partitions x chips x bytes per chip x 8 */
    uint64_t l2_bytes;        /* -gpgpu_cache:dl2's size x partitions */
} device_shape;
void device_get_shape(const lockstep_device *dev, device_shape *out);

/* Change one option of a live device's configuration (cudaDeviceSetLimit);
 * takes effect at the next launch or allocation that reads it.  The heap's
 * and the printf FIFO's sizes are refused (INVALID_VALUE) once a kernel
 * whose module calls malloc/free, printf, has been launched, as on a GPU,
 * until device_free_user_allocations. */
lockstep_status device_set_option(lockstep_device *dev, const char *name, const char *value);
/* Free every lockstep_malloc'd buffer and device-heap block (a context
 * reset: the heap's and FIFO's sizes may change again); module variables
 * stay. */
void device_free_user_allocations(lockstep_device *dev);
/* Give every loaded module's .global and .const variables their values as
 * loaded again: their initializers, or zeros (a context reset reloads the
 * modules). */
lockstep_status device_reset_module_vars(lockstep_device *dev);
/* A host pointer to size bytes of device memory at addr that is also a
 * device address of the same bytes (a __managed__ variable has one address
 * on both sides), valid while the device lives; NULL when they are not in
 * one page of one allocation (device pages never move once allocated) or
 * the host address is taken.  mem/devmem.h, devmem_alias. */
void *device_host_view(lockstep_device *dev, lockstep_dptr addr, size_t size);
/* Device memory whose address is fixed before the memory exists (CUDA
 * graph allocations; mem/devmem.h, "Reserved ranges"): device_va_reserve
 * takes `bytes` of device addresses, placed like lockstep_malloc's blocks;
 * device_va_map makes [addr, addr+bytes) inside them an allocation that
 * kernels and copies may use, device_va_unmap ends it (its bytes read as
 * zero, and an access is reported as a use after free), and
 * device_va_release gives the addresses back once nothing is mapped there.
 * The memory itself is counted against -lockstep_device_memory by
 * device_mem_charge / device_mem_uncharge (what lockstep_mem_info and the
 * allocators see), apart from mapping: a caller may keep memory while
 * nothing is mapped. */
lockstep_status device_va_reserve(lockstep_device *dev, size_t bytes, lockstep_dptr *addr);
lockstep_status device_va_release(lockstep_device *dev, lockstep_dptr addr, size_t bytes);
lockstep_status device_va_map(lockstep_device *dev, lockstep_dptr addr, size_t bytes);
lockstep_status device_va_unmap(lockstep_device *dev, lockstep_dptr addr);
lockstep_status device_mem_charge(lockstep_device *dev, size_t bytes);
void device_mem_uncharge(lockstep_device *dev, size_t bytes);
/* The cudaMalloc'd (lockstep_malloc'd) allocation or mapped graph
 * allocation (device_va_map) with the smallest base
 * above `after` (0: the first): 0 and its base and size, or -1 if none.
 * Walks them in address order, which is allocation-deterministic. */
int device_next_user_allocation(const lockstep_device *dev, lockstep_dptr after,
                                lockstep_dptr *base, size_t *size);
/* Total simulated core cycles of the timing model and its clock (0 and 0
 * before the first timing-mode launch). */
uint64_t device_total_cycles(const lockstep_device *dev, double *core_mhz);

/* What only the CUDA runtime can answer for CUDA's device runtime (device
 * code's cudaDeviceGetAttribute, cudaFuncGetAttributes: dynamic
 * parallelism, exec/devrt.c).  attribute: 0 and *value, or -1 when attr is
 * no attribute; func_attributes: the bytes of struct cudaFuncAttributes
 * for kernel k written to out (at most cap), or -1.  Without them (a
 * program of the C API), those device calls return cudaErrorNotSupported.
 * NULL detaches. */
typedef struct device_devrt_hooks {
    void *ud;
    int (*attribute)(void *ud, int attr, int *value);
    int (*func_attributes)(void *ud, lockstep_kernel *k, uint8_t *out, uint32_t cap);
} device_devrt_hooks;
void device_set_devrt_hooks(lockstep_device *dev, const device_devrt_hooks *hooks);

/* Attach mechanisms at the seams (exec.h) for the launches that follow:
 * interposers on the memory seam, in this order before the memory system
 * (n 0: none), and observers at the write point and the per-instruction
 * hook (trap: EXEC_TRAP_* bits, 0: none).  The arrays and structs must
 * outlive the launches. */
struct exec_interposer;
struct exec_hooks;
void device_set_interposers(lockstep_device *dev, const struct exec_interposer *chain, uint32_t n);
void device_set_hooks(lockstep_device *dev, const struct exec_hooks *hooks, uint32_t trap);

#endif
