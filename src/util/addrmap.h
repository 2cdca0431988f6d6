/*
 * addrmap.h -- lockstep's map of the 64-bit generic address space.
 *
 *   0                        never valid (NULL)
 *   PARAM_WINDOW  + off      the launch's kernel parameter buffer (cvta.param)
 *   FUNC_WINDOW   + 16*i     "address" of function i of a module (indirect calls)
 *   LOCAL_WINDOW  + off      the accessing thread's local memory, offset off
 *   SHARED_WINDOW + off      the accessing thread's CTA's shared memory, offset off
 *   GLOBAL_BASE ...          device memory: cudaMalloc'd buffers and module
 *                            .global/.const variables (const space == global
 *                            addresses in lockstep: __constant__ data lives in
 *                            device memory, as it does on NVIDIA GPUs)
 *   anywhere else            host buffers mapped into the device's view
 *                            (devmem_map_host: pinned and managed memory)
 *
 * The simulated ranges sit between 1 TiB and 66 TiB, where Linux puts
 * nothing for an ordinary process (executables and the heap start around
 * 85 TiB, mmap regions below 128 TiB) and where AddressSanitizer keeps its
 * shadow memory, so a mapped host buffer can never be mistaken for them.
 * The shared and local windows are 4 GiB each; state-space addresses of
 * shared and local memory are the offsets (0-based, at most 32 bits), so
 * cvta.shared / cvta.to.shared add / subtract SHARED_WINDOW.
 */
#ifndef LOCKSTEP_ADDRMAP_H
#define LOCKSTEP_ADDRMAP_H

#include <stdint.h>

#define ADDR_PARAM_WINDOW  0x0000010000000000ull
#define ADDR_FUNC_WINDOW   0x0000010100000000ull
#define ADDR_LOCAL_WINDOW  0x0000010200000000ull
#define ADDR_SHARED_WINDOW 0x0000010300000000ull
#define ADDR_WINDOW_SIZE   0x0000000100000000ull
#define ADDR_WINDOWS_END   0x0000010400000000ull
#define ADDR_GLOBAL_BASE   0x0000020000000000ull

/* A CUDA graph conditional handle (cudaGraphConditionalHandle, which device
 * code passes to cudaGraphSetConditional) is the device address of the
 * 4-byte word holding the condition's value with this tag in bits 48-63,
 * where no address lockstep uses has bits: so a made-up or uninitialized
 * handle is told from a real one (cudart/graphcond.c, exec/devrt.c). */
#define ADDR_COND_HANDLE_TAG 0xc0deull
#define ADDR_COND_HANDLE(addr) ((ADDR_COND_HANDLE_TAG << 48) | (uint64_t)(addr))
#define ADDR_COND_HANDLE_ADDR(h) ((uint64_t)(h) & 0x0000ffffffffffffull)
#define ADDR_IS_COND_HANDLE(h) ((uint64_t)(h) >> 48 == ADDR_COND_HANDLE_TAG)

static inline int addr_in_window(uint64_t a, uint64_t base)
{
    return a - base < ADDR_WINDOW_SIZE;
}

#endif
