/*
 * runtime.h -- pieces of the CUDA runtime replacement shared between its
 * files: the device's properties and attributes (props.c), and the stub
 * every unimplemented entry point returns through (stubs.c).
 */
#ifndef LOCKSTEP_CUDART_RUNTIME_H
#define LOCKSTEP_CUDART_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "cudart/cuda_abi.h"
#include "lockstep.h"

/* A _ptsz entry point (a program built with --default-stream per-thread)
 * means the calling thread's default stream by the null stream. */
static inline cudaStream_t cudart_ptsz(cudaStream_t s) { return s ? s : CUDA_STREAM_PER_THREAD; }

/* Print "NAME is not supported..." and return cudaErrorNotSupported. */
cudaError_t cudart_not_supported(const char *name);

unsigned cudart_num_sms(lockstep_device *dev);
void cudart_fill_properties(lockstep_device *dev, struct cudaDeviceProp *p);
/* 0 and *value, or -1 for an attribute lockstep does not know. */
int cudart_attribute(lockstep_device *dev, int attr, int *value);
/* Change one option of the live device (cudaDeviceSetLimit); 0 or -1. */
int cudart_set_option(lockstep_device *dev, const char *name, const char *value);
/* cudaDeviceReset's device part: free every allocation and the device heap,
 * and give the modules' variables their initial values again. */
void cudart_free_user_allocations(lockstep_device *dev);
/* A host pointer through which [addr, addr+size) of device memory can be
 * read and written directly (for __managed__ variables), or NULL. */
void *cudart_device_host_view(lockstep_device *dev, lockstep_dptr addr, size_t size);

/* ---- runtime.c's internals for the files beside it ----------------------------------
 * The runtime is one process-wide state behind one lock.  A public entry
 * point in another file opens with `cudaError_t e = cudart_enter(); if (e)
 * return e;` (the lock is then held) and returns through cudart_leave(e),
 * which unlocks and records the thread's last error.  Functions below marked
 * "lock held" may only be called between the two. */
cudaError_t cudart_enter(void);
cudaError_t cudart_leave(cudaError_t e);
/* Record e as the thread's last error (not sticky) and return it. */
cudaError_t cudart_error(cudaError_t e);
void cudart_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
lockstep_device *cudart_device(void);                   /* lock held */
cudaError_t cudart_sticky(void);                        /* lock held: a kernel fault, or 0 */
void cudart_sync_point(void);                           /* lock held: deliver printf */
int cudart_stream_valid(cudaStream_t s);                /* lock held */
/* One linear copy or fill of any kind, and a launch (all lock held); each
 * advances the simulated clock. */
cudaError_t cudart_copy(void *dst, const void *src, size_t n, int kind);
cudaError_t cudart_fill(void *dst, int value, size_t n);
cudaError_t cudart_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                          cudaStream_t stream);
/* The kernel behind a host stub, its module loaded (lock held). */
cudaError_t cudart_kernel(const void *func, lockstep_kernel **k);
/* Record an event now, at the simulated clock (lock held). */
void cudart_event_record(cudaEvent_t e);
/* Call a host function (a callback, a graph's host node) with the lock
 * released, as CUDA calls them outside any API call (lock held). */
void cudart_call_host(cudaHostFn_t fn, void *data);

/* Checked handles (lock held): a handle is (generation, slot, kind), never a
 * pointer; a destroyed or made-up one is refused.  Kinds beyond streams and
 * events carry an object pointer. */
enum { H_STREAM = 0x8, H_GRAPH = 0x9, H_GRAPH_EXEC = 0xa, H_POOL = 0xb, H_EVENT = 0xc,
       H_GRAPH_NODE = 0xd, H_ARRAY = 0xe };
void *cudart_handle_new(int kind, void *obj);           /* NULL: out of memory */
void *cudart_handle_obj(const void *h, int kind);       /* NULL: not a live handle */
int cudart_handle_free(const void *h, int kind);        /* 0, or -1: not a live handle */
int cudart_handle_live(const void *h, int kind);
/* A stream's or event's capture state (graph.c's), NULL when none. */
void *cudart_capture_of(const void *h, int kind);
void cudart_set_capture(const void *h, int kind, void *capture);

/* ---- for the driver API (driver.c, drvmodule.c) ---------------------------------------
 * libcuda.so.1 is this library: the driver's objects live in the runtime's
 * state.  Its streams and events are the runtime's handles; a CUfunction is
 * an entry of the runtime's function table (a cudaKernel_t), whose host
 * stub is the entry itself; a module the driver loads sits beside the
 * program's registered ones.  Launches of either kind therefore run, fault,
 * and are counted in the statistics alike.  Contexts, modules and libraries
 * are checked handles of the kinds below. */
enum { H_CONTEXT = 0x5, H_MODULE = 0x6, H_LIBRARY = 0x7 };
/* cudart_enter for a driver call, which has no last error: 0 with the lock
 * held, or the error with the lock released (the device cannot be
 * created; or, when `sticky`, a kernel fault made earlier). */
cudaError_t cudart_drv_enter(int sticky);
void cudart_drv_leave(void);
/* The thread's last error, read and restored (a driver call that goes
 * through a runtime entry point leaves it as it was). */
cudaError_t cudart_last_error(void);
void cudart_set_last_error(cudaError_t e);
/* A module the driver loaded, registered beside the program's (lock held);
 * NULL when out of memory. */
struct rt_module *cudart_module_adopt(lockstep_module *mod);
/* Unload it (lock held): its functions are found no more, and the
 * lockstep module is unloaded. */
void cudart_module_retire(struct rt_module *m);
/* The function `name` of a driver module, a new entry of the function
 * table (lock held); NULL when out of memory. */
struct rt_function *cudart_function_new(struct rt_module *m, const char *name,
                                        lockstep_kernel *k);
/* Whether f is a live function entry, the program's or a driver module's
 * (lock held). */
int cudart_function_live(const void *f);
/* The kernel's name (f a function entry). */
const char *cudart_function_name(const struct rt_function *f);
/* driver.c's: called by every runtime entry point (lock held), so a thread
 * without a current context gets the primary one, as CUDA's runtime binds
 * it; nothing during a driver call that goes through the runtime. */
void drv_bind_thread(void);

/* ---- hostwatch.c: host writes into mapped memory a kernel saw (lock held) -------------
 * After a launch, hostwatch_kernel copies the mapped buffers the kernel
 * accessed; every runtime call compares them on entry (hostwatch_check:
 * a difference is said once, naming the kernel) and copies them again on
 * return (hostwatch_refresh); a synchronization ends the watch
 * (hostwatch_clear); unmapping a buffer ends its (hostwatch_forget). */
void hostwatch_kernel(lockstep_device *dev, const char *kernel);
void hostwatch_check(void);
void hostwatch_refresh(void);
void hostwatch_clear(void);
void hostwatch_forget(const void *host, size_t size);

/* ---- graph.c: graphs, and stream capture (lock held) ---------------------------------- */
/* Whether stream s records into a graph rather than executing. */
int graph_capturing(cudaStream_t s);
/* An operation a capture cannot hold was issued to capturing stream s: the
 * capture is invalidated (cudaStreamEndCapture will say so); returns
 * cudaErrorStreamCaptureUnsupported for the operation. */
cudaError_t graph_capture_refuse(cudaStream_t s);
/* Record one operation into s's capture, after what s recorded last. */
cudaError_t graph_capture_kernel(cudaStream_t s, const void *func, dim3 grid, dim3 block,
                                 void **args, size_t shared);
cudaError_t graph_capture_copy(cudaStream_t s, const struct cudaMemcpy3DParms *p);
cudaError_t graph_capture_memset(cudaStream_t s, const struct cudaMemsetParams *p);
cudaError_t graph_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data);
/* An external event record (wait 0) or wait (1) node: the event is recorded
 * or waited for each time the graph runs (cudaEventRecordExternal,
 * cudaEventWaitExternal). */
cudaError_t graph_capture_event_node(cudaStream_t s, cudaEvent_t e, int wait);
/* An event recorded in a capturing stream (0), or recorded for real (1). */
int graph_capture_event_record(cudaEvent_t e, cudaStream_t s);
/* A stream waits on an event: joins the event's capture when it has one. */
cudaError_t graph_capture_event_wait(cudaStream_t s, cudaEvent_t e);
/* Drop an event's or stream's capture state at its destruction. */
void graph_forget(const void *h, int kind);
/* cudaMallocAsync / cudaFreeAsync in capturing stream s: an allocation node
 * (its address in *ptr) or a free node. */
cudaError_t graph_capture_alloc(cudaStream_t s, size_t size, void **ptr);
cudaError_t graph_capture_free(cudaStream_t s, void *ptr);

/* ---- graphmem.c: the graph allocator, behind graph memory nodes (lock held) ----------
 * Each allocation node names a block: device addresses reserved when the
 * node is made, fixed for as long as a node (in a graph or an executable
 * graph) names the block or an allocation is live in it.  Running an
 * allocation node maps memory there; a free node, cudaFreeAsync or cudaFree
 * unmaps it.  The allocator keeps the memory after a free (reserved), for
 * the next allocation, until cudaDeviceGraphMemTrim. */
enum { GMEM_NONE = UINT32_MAX };
typedef struct gmem_block {
    lockstep_dptr addr;
    size_t size;            /* bytes of addresses reserved (a multiple of 256) */
    size_t live_bytes;      /* the live allocation's bytes; 0 when none is live */
    uint32_t refs;          /* nodes naming it, in graphs and executable graphs */
    /* graph.c's, for the rules of graph.c's memory nodes: the graph whose
     * allocation nodes use the block; in that graph, the last allocation
     * node placed in it and the node freeing that allocation (GMEM_NONE:
     * none yet); whether another graph has a free node for it. */
    uint64_t owner;
    uint32_t tail_alloc, tail_free;
    uint8_t freed_elsewhere;
} gmem_block;
/* A new block of at least `bytes` with one reference: 0, or an error. */
cudaError_t gmem_new(size_t bytes, uint64_t owner, gmem_block **out);
void gmem_ref(gmem_block *b);
/* Drop a reference; a block neither named nor live goes. */
void gmem_unref(gmem_block *b);
/* The block whose addresses start at ptr, or NULL. */
gmem_block *gmem_find(const void *ptr);
/* An allocation node runs: `bytes` of memory live at b's address. */
cudaError_t gmem_map(gmem_block *b, size_t bytes);
/* The allocation in b ends (a free node, cudaFree, auto-free on launch). */
cudaError_t gmem_unmap(gmem_block *b);
/* cudaFree / cudaFreeAsync of ptr: 0 if it was a live graph allocation
 * (now freed), -1 if ptr is none. */
int gmem_free(const void *ptr);
/* cudaDeviceReset: every graph allocation is freed and its memory released. */
void gmem_reset(void);

/* ---- graphcond.c: conditional handles, the values conditional nodes test (lock held) ----
 * A handle's value is a word of device memory that device code sets with
 * cudaGraphSetConditional; the handle a program sees is the word's address,
 * tagged (util/addrmap.h).  A handle lives while its graph or a node naming
 * it does (its references). */
typedef struct gcond {
    lockstep_dptr addr;   /* the value's word */
    uint64_t graph;       /* the id of the graph it was made for */
    unsigned dflt, flags; /* its default value; cudaGraphCondAssignDefault or 0 */
    uint32_t refs;        /* the nodes that name it (several may: they share the value) */
} gcond;
/* A new handle with one reference, its word zero: 0, or an error. */
cudaError_t gcond_new(uint64_t graph, unsigned dflt, unsigned flags, gcond **out);
void gcond_ref(gcond *c);
void gcond_unref(gcond *c);
/* The live handle a program's value names, or NULL. */
gcond *gcond_find(cudaGraphConditionalHandle h);
cudaGraphConditionalHandle gcond_handle(const gcond *c);
uint32_t gcond_get(const gcond *c);
void gcond_set(const gcond *c, uint32_t v);

/* ---- mempool.c (lock held) ---- */
/* ptr was freed (cudaFree): out of its pool's count; -1 if not a pool's. */
int mempool_forget(const void *ptr);
/* Every allocation was freed (cudaDeviceReset). */
void mempool_reset(void);

/* ---- texture.c (lock held) ---- */
/* A CUDA array as a pitched pointer (rows of its texels; ysize: rows per
 * slice or layer) and its texel bytes: 0, or -1 if not a live array. */
int cudart_array_pitched(cudaArray_t a, struct cudaPitchedPtr *p, size_t *elem, size_t *slices);
/* Every array and texture/surface object ends (cudaDeviceReset). */
void cudart_texture_reset(void);

/* ---- memcpy2d.c: pitched and 3-D copies and fills (lock held) ------------------------- */
cudaError_t cudart_copy3d(const struct cudaMemcpy3DParms *p);
/* A copy between pitched pointers where a side with slices != 0 is an
 * array of that many slices (its rows and slices are bounds-checked). */
cudaError_t cudart_copy2d_arrays(const struct cudaMemcpy3DParms *p, size_t sslices,
                                 size_t dslices);
cudaError_t cudart_fill2d(void *dst, size_t pitch, int value, size_t width, size_t height);
/* A 2-D copy or fill as the 3-D parameters graphs keep. */
struct cudaMemcpy3DParms cudart_params2d(void *dst, size_t dpitch, const void *src,
                                         size_t spitch, size_t width, size_t height, int kind);

#endif
