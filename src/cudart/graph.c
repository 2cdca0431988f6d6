/*
 * graph.c -- CUDA graphs and stream capture.
 *
 * A graph is a list of nodes (kernel, memcpy, memset, host function, child
 * graph, empty, event record, event wait, memory allocation and free) with
 * dependency edges.  Built explicitly (cudaGraphAdd*Node) or by capturing a
 * stream (cudaStreamBeginCapture ... cudaStreamEndCapture: every operation
 * issued to a capturing stream becomes a node after what that stream
 * recorded last; an event recorded in a capturing stream and waited on by
 * another stream brings that stream into the capture, the fork/join
 * pattern).
 *
 * cudaGraphInstantiate copies the graph (kernel arguments included) and
 * fixes one topological order: the lowest-numbered ready node first, so a
 * launch is deterministic.  cudaGraphLaunch runs the nodes in that order
 * through runtime.c's own launch, copy and fill, on the stream given.  The
 * simulated device runs every operation when it is issued, so running the
 * nodes one after another in a topological order is exactly what the edges
 * allow; independent branches are not overlapped.
 *
 * Graphs, executable graphs and nodes are checked handles (runtime.h), so a
 * destroyed or made-up one is an error, never a dangling pointer.  All state
 * is guarded by the runtime's lock.
 *
 * Memory nodes (cudaGraphAddMemAllocNode / cudaGraphAddMemFreeNode, and
 * cudaMallocAsync / cudaFreeAsync in a capture) name blocks of the graph
 * allocator (graphmem.c): an allocation's address is fixed when its node is
 * made, and its memory is mapped there while it is live.  This file keeps
 * CUDA's rules for them ("graph memory nodes" below): which allocations a
 * free node may free, one executable graph at a time, no cloning, no child
 * graphs, and the launch that finds its last allocation still live.
 *
 * Not supported, each with a message: conditional nodes, kernel nodes given
 * arguments in the `extra` form, graphs with memory nodes moved into a
 * child node (cudaGraphAddNode is a stub).  Removing nodes
 * (cudaGraphDestroyNode) is not implemented (a stub).  A host node runs
 * with the runtime's lock released; an executable graph destroyed meanwhile
 * is freed when its launch ends, and cudaGraphExecUpdate on it fails
 * (cudaGraphExecUpdateError).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

typedef struct rt_graph graph;
typedef struct rt_graph_node node;

struct rt_graph_node {
    void *handle;         /* its cudaGraphNode_t */
    graph *g;
    int type;             /* cudaGraphNodeType */
    uint32_t index;       /* in g->nodes */
    uint32_t *deps;       /* indices of the nodes it depends on */
    uint32_t ndeps, capdeps;
    union {
        struct {
            const void *func;
            dim3 grid, block;
            unsigned shared;
            uint8_t *buf;   /* the arguments, packed as the kernel's parameters */
            void **args;    /* args[i] -> parameter i in buf */
            uint32_t nparams;
        } k;
        struct cudaMemcpy3DParms copy;
        struct cudaMemsetParams set;
        struct cudaHostNodeParams host;
        graph *child;       /* owned: a copy of the graph given */
        cudaEvent_t event;
        struct {            /* cudaGraphNodeTypeMemAlloc */
            gmem_block *blk; /* its addresses (one reference) */
            size_t bytes;
            struct cudaMemPoolProps props;
            struct cudaMemAccessDesc *access; /* owned copy of the accessDescs */
            size_t naccess;
        } alloc;
        struct {            /* cudaGraphNodeTypeMemFree */
            gmem_block *blk; /* one reference */
            uint32_t alloc;  /* the allocation node of this graph it frees, or
                                GMEM_NONE: another graph's allocation */
        } mfree;
    } u;
};

struct rt_graph {
    void *handle;         /* its cudaGraph_t; NULL for a copy inside a node */
    node **nodes;
    uint32_t n, cap;
    uint64_t id;          /* unique: which graph a node came from */
    int owned;            /* a child graph node's: only the node frees it */
    uint32_t nexecs;      /* executable graphs instantiated from it, alive */
};

typedef struct rt_graph_exec {
    void *handle;
    graph *g;             /* a copy of the graph instantiated */
    uint32_t *order;      /* a topological order of g's nodes */
    uint64_t src, updated; /* ids of the graph it came from, and of the last update's */
    cudaGraph_t src_handle; /* that graph's handle (its nexecs counts this) */
    unsigned long long flags; /* cudaGraphInstantiateFlag* */
    int running;          /* launches in progress (a host node runs unlocked) */
    int doomed;           /* destroyed while running: freed when the last ends */
} graph_exec;

static uint64_t next_graph_id = 1;

/* ---- graphs and nodes ------------------------------------------------------------------ */

static void graph_free(graph *g);

static void node_free(node *nd)
{
    if (!nd)
        return;
    if (nd->handle)
        cudart_handle_free(nd->handle, H_GRAPH_NODE);
    free(nd->deps);
    if (nd->type == cudaGraphNodeTypeKernel) {
        free(nd->u.k.buf);
        free(nd->u.k.args);
    }
    if (nd->type == cudaGraphNodeTypeGraph)
        graph_free(nd->u.child);
    if (nd->type == cudaGraphNodeTypeMemAlloc) {
        free(nd->u.alloc.access);
        gmem_unref(nd->u.alloc.blk);
    }
    if (nd->type == cudaGraphNodeTypeMemFree)
        gmem_unref(nd->u.mfree.blk);
    free(nd);
}

static void graph_free(graph *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    if (g->handle)
        cudart_handle_free(g->handle, H_GRAPH);
    free(g);
}

static graph *graph_new(int with_handle)
{
    graph *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->id = next_graph_id++;
    if (with_handle && !(g->handle = cudart_handle_new(H_GRAPH, g))) {
        free(g);
        return NULL;
    }
    return g;
}

static graph *graph_of(cudaGraph_t h) { return cudart_handle_obj(h, H_GRAPH); }
static node *node_of(cudaGraphNode_t h) { return cudart_handle_obj(h, H_GRAPH_NODE); }

static int add_dep(node *nd, uint32_t dep)
{
    for (uint32_t i = 0; i < nd->ndeps; i++)
        if (nd->deps[i] == dep)
            return 0;
    if (nd->ndeps == nd->capdeps) {
        uint32_t c = nd->capdeps ? 2 * nd->capdeps : 4;
        uint32_t *d = realloc(nd->deps, c * sizeof *d);
        if (!d)
            return -1;
        nd->deps = d;
        nd->capdeps = c;
    }
    nd->deps[nd->ndeps++] = dep;
    return 0;
}

/* A new node of g after the nodes deps (handles; each must be g's). */
static cudaError_t node_new(graph *g, int type, const cudaGraphNode_t *deps, size_t ndeps,
                            node **out)
{
    if (ndeps && !deps)
        return cudaErrorInvalidValue;
    for (size_t i = 0; i < ndeps; i++) {
        node *d = node_of(deps[i]);
        if (!d || d->g != g)
            return cudaErrorInvalidValue;
    }
    if (g->n == UINT32_MAX)
        return cudaErrorMemoryAllocation;
    if (g->n == g->cap) {
        uint32_t c = g->cap ? 2 * g->cap : 8;
        node **v = realloc(g->nodes, c * sizeof *v);
        if (!v)
            return cudaErrorMemoryAllocation;
        g->nodes = v;
        g->cap = c;
    }
    node *nd = calloc(1, sizeof *nd);
    if (!nd || !(nd->handle = cudart_handle_new(H_GRAPH_NODE, nd))) {
        free(nd);
        return cudaErrorMemoryAllocation;
    }
    nd->g = g;
    nd->type = type;
    nd->index = g->n;
    for (size_t i = 0; i < ndeps; i++)
        if (add_dep(nd, node_of(deps[i])->index)) {
            node_free(nd);
            return cudaErrorMemoryAllocation;
        }
    g->nodes[g->n++] = nd;
    *out = nd;
    return cudaSuccess;
}

/* Copy a kernel launch's arguments into the node (lock held). */
static cudaError_t set_kernel(node *nd, const struct cudaKernelNodeParams *p)
{
    if (!p || !p->func)
        return cudaErrorInvalidValue;
    if (p->extra) {
        cudart_say("a kernel node with arguments in the 'extra' form is not supported by "
                   "lockstep: give kernelParams");
        return cudaErrorNotSupported;
    }
    lockstep_kernel *k;
    cudaError_t e = cudart_kernel(p->func, &k);
    if (e)
        return e;
    lockstep_kernel_info ki;
    lockstep_kernel_get_info(k, &ki);
    if (ki.num_params && !p->kernelParams)
        return cudaErrorInvalidValue;
    uint8_t *buf = calloc(1, ki.param_bytes ? ki.param_bytes : 1);
    void **args = calloc(ki.num_params ? ki.num_params : 1, sizeof *args);
    if (!buf || !args) {
        free(buf);
        free(args);
        return cudaErrorMemoryAllocation;
    }
    for (uint32_t i = 0; i < ki.num_params; i++) {
        if (!p->kernelParams[i]) {
            free(buf);
            free(args);
            return cudaErrorInvalidValue;
        }
        memcpy(buf + ki.params[i].offset, p->kernelParams[i], ki.params[i].size);
        args[i] = buf + ki.params[i].offset;
    }
    if (nd->type == cudaGraphNodeTypeKernel && nd->u.k.buf) {
        free(nd->u.k.buf);
        free(nd->u.k.args);
    }
    nd->u.k.func = p->func;
    nd->u.k.grid = p->gridDim;
    nd->u.k.block = p->blockDim;
    nd->u.k.shared = p->sharedMemBytes;
    nd->u.k.buf = buf;
    nd->u.k.args = args;
    nd->u.k.nparams = ki.num_params;
    return cudaSuccess;
}

static cudaError_t check_memset(const struct cudaMemsetParams *p)
{
    if (!p || !p->dst || (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4))
        return cudaErrorInvalidValue;
    if (p->height > 1 && p->pitch < p->width * p->elementSize)
        return cudaErrorInvalidPitchValue;
    return cudaSuccess;
}

static graph *graph_copy(const graph *src, int with_handle);

/* Copy one node's parameters into a fresh node of another graph. */
static int node_copy_params(node *dst, const node *src)
{
    dst->u = src->u;
    switch (src->type) {
    case cudaGraphNodeTypeKernel: {
        /* the same packed arguments, in a buffer of the copy's own */
        lockstep_kernel *k;
        if (cudart_kernel(src->u.k.func, &k))
            return -1;
        lockstep_kernel_info ki;
        lockstep_kernel_get_info(k, &ki);
        dst->u.k.buf = malloc(ki.param_bytes ? ki.param_bytes : 1);
        dst->u.k.args = calloc(ki.num_params ? ki.num_params : 1, sizeof *dst->u.k.args);
        if (!dst->u.k.buf || !dst->u.k.args) {
            free(dst->u.k.buf);
            free(dst->u.k.args);
            dst->u.k.buf = NULL;
            dst->u.k.args = NULL;
            return -1;
        }
        memcpy(dst->u.k.buf, src->u.k.buf, ki.param_bytes);
        for (uint32_t i = 0; i < ki.num_params; i++)
            dst->u.k.args[i] = dst->u.k.buf + ki.params[i].offset;
        return 0;
    }
    case cudaGraphNodeTypeGraph:
        dst->u.child = graph_copy(src->u.child, 0);
        if (dst->u.child)
            dst->u.child->owned = 1;
        return dst->u.child ? 0 : -1;
    case cudaGraphNodeTypeMemAlloc: {
        /* the same addresses: an instantiation's allocation is the graph's */
        size_t n = src->u.alloc.naccess;
        dst->u.alloc.access = NULL;
        if (n && !(dst->u.alloc.access = malloc(n * sizeof *dst->u.alloc.access)))
            return -1;
        if (n)
            memcpy(dst->u.alloc.access, src->u.alloc.access, n * sizeof *dst->u.alloc.access);
        gmem_ref(dst->u.alloc.blk);
        return 0;
    }
    case cudaGraphNodeTypeMemFree: gmem_ref(dst->u.mfree.blk); return 0;
    default: return 0;
    }
}

/* A deep copy of a graph (node for node, same indices and edges). */
static graph *graph_copy(const graph *src, int with_handle)
{
    graph *g = graph_new(with_handle);
    if (!g)
        return NULL;
    for (uint32_t i = 0; i < src->n; i++) {
        const node *s = src->nodes[i];
        node *d;
        if (node_new(g, s->type, NULL, 0, &d)) {
            graph_free(g);
            return NULL;
        }
        d->type = cudaGraphNodeTypeEmpty; /* until its parameters are in */
        if (node_copy_params(d, s)) {
            graph_free(g);
            return NULL;
        }
        d->type = s->type;
        for (uint32_t j = 0; j < s->ndeps; j++)
            if (add_dep(d, s->deps[j])) {
                graph_free(g);
                return NULL;
            }
    }
    return g;
}

/* One topological order of g, lowest-numbered ready node first; NULL when
 * out of memory or g has a cycle (*cycle set). */
static uint32_t *topo_order(const graph *g, int *cycle)
{
    *cycle = 0;
    uint32_t n = g->n;
    uint32_t *order = malloc((n ? n : 1) * sizeof *order);
    uint32_t *waiting = calloc(n ? n : 1, sizeof *waiting);
    uint8_t *done = calloc(n ? n : 1, 1);
    if (!order || !waiting || !done) {
        free(order);
        free(waiting);
        free(done);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        waiting[i] = g->nodes[i]->ndeps;
    uint32_t k = 0;
    while (k < n) {
        uint32_t pick = UINT32_MAX;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i] && !waiting[i]) {
                pick = i;
                break;
            }
        if (pick == UINT32_MAX) {
            *cycle = 1;
            free(order);
            order = NULL;
            break;
        }
        done[pick] = 1;
        order[k++] = pick;
        for (uint32_t i = 0; i < n; i++)
            if (!done[i])
                for (uint32_t j = 0; j < g->nodes[i]->ndeps; j++)
                    if (g->nodes[i]->deps[j] == pick)
                        waiting[i]--;
    }
    free(waiting);
    free(done);
    return order;
}

/* Whether g holds a memory node (allocation or free).  Child graphs never
 * do: a graph with memory nodes cannot become one. */
static int has_mem_nodes(const graph *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        if (g->nodes[i]->type == cudaGraphNodeTypeMemAlloc ||
            g->nodes[i]->type == cudaGraphNodeTypeMemFree)
            return 1;
    return 0;
}

/* The nodes nd depends on, directly or through others: a bitmap over g's
 * nodes, or NULL when out of memory. */
static uint8_t *ancestors(const graph *g, const node *nd)
{
    uint8_t *seen = calloc(g->n ? g->n : 1, 1);
    uint32_t *stack = malloc((g->n ? g->n : 1) * sizeof *stack), sp = 0;
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return NULL;
    }
    const node *x = nd;
    for (;;) {
        for (uint32_t j = 0; j < x->ndeps; j++)
            if (!seen[x->deps[j]]) {
                seen[x->deps[j]] = 1; /* each node is pushed once: sp < n */
                stack[sp++] = x->deps[j];
            }
        if (!sp)
            break;
        x = g->nodes[stack[--sp]];
    }
    free(stack);
    return seen;
}

/* ---- graph memory nodes ---------------------------------------------------------------
 * An allocation node's addresses are a gmem_block (graphmem.c), reserved
 * when the node is made.  Allocation nodes of one graph share a block when
 * their allocations cannot be live at once: a new node reuses the block of
 * an earlier allocation of the same graph whose free node it depends on, so
 * that it runs after the free in every launch (CUDA reuses addresses the
 * same way; its graphMemoryNodes sample shows it).  The block remembers, for
 * its graph, the last allocation node placed in it and that allocation's
 * free node, which is what cudaGraphAddMemFreeNode's rules are about.  The
 * reuse relies on edges never going away: CUDA forbids removing nodes and
 * edges of a graph with memory nodes (and lockstep removes none). */

/* Give allocation node nd of g (its dependencies set) its addresses: the
 * lowest-addressed block of g large enough whose last allocation is freed by
 * a node nd depends on, else a new block. */
static cudaError_t place_alloc(graph *g, node *nd, size_t bytes)
{
    gmem_block *best = NULL;
    uint8_t *anc = ancestors(g, nd); /* out of memory: no reuse, a new block */
    for (uint32_t i = 0; anc && i < g->n; i++) {
        const node *a = g->nodes[i];
        if (a == nd || a->type != cudaGraphNodeTypeMemAlloc)
            continue;
        gmem_block *b = a->u.alloc.blk;
        if (b->owner == g->id && b->tail_free != GMEM_NONE && anc[b->tail_free] &&
            b->size >= bytes && (!best || b->addr < best->addr))
            best = b;
    }
    free(anc);
    if (best) {
        gmem_ref(best);
    } else {
        cudaError_t e = gmem_new(bytes, g->id, &best);
        if (e)
            return e;
    }
    best->tail_alloc = nd->index;
    best->tail_free = GMEM_NONE;
    nd->u.alloc.blk = best;
    nd->u.alloc.bytes = bytes;
    return cudaSuccess;
}

/* Make nd, a new node of g, free the graph allocation at ptr, under the
 * rules CUDA documents for cudaGraphAddMemFreeNode: ptr must be the address
 * of a graph allocation; an allocation is freed at most once in its own
 * graph, and either there or by other graphs, never both. */
static cudaError_t set_free(graph *g, node *nd, void *ptr, const char *who)
{
    gmem_block *b = ptr ? gmem_find(ptr) : NULL;
    if (!b) {
        cudart_say("%s: %p is not the address of a graph allocation (made by an allocation "
                   "node, or by cudaMallocAsync in a stream capture)",
                   who, ptr);
        return cudaErrorInvalidValue;
    }
    if (b->owner == g->id) {
        if (b->tail_free != GMEM_NONE) {
            cudart_say("%s: the graph allocation at %p is freed in this graph already", who,
                       ptr);
            return cudaErrorInvalidValue;
        }
        if (b->freed_elsewhere) {
            cudart_say("%s: the graph allocation at %p is freed by another graph's free node, "
                       "so the graph that allocates it cannot free it too",
                       who, ptr);
            return cudaErrorInvalidValue;
        }
        b->tail_free = nd->index;
        nd->u.mfree.alloc = b->tail_alloc;
    } else {
        if (b->tail_free != GMEM_NONE) {
            cudart_say("%s: the graph allocation at %p is freed in the graph that allocates it, "
                       "so no other graph can free it",
                       who, ptr);
            return cudaErrorInvalidValue;
        }
        b->freed_elsewhere = 1;
        nd->u.mfree.alloc = GMEM_NONE;
    }
    gmem_ref(b);
    nd->u.mfree.blk = b;
    return cudaSuccess;
}

/* ---- running a graph ------------------------------------------------------------------- */

static cudaError_t fill_pattern(const struct cudaMemsetParams *p)
{
    size_t h = p->height ? p->height : 1;
    if (p->elementSize == 1)
        return cudart_fill2d(p->dst, p->pitch ? p->pitch : p->width, (int)(p->value & 0xff),
                             p->width, h);
    size_t row = p->width * p->elementSize;
    uint8_t *buf = malloc(row ? row : 1);
    if (!buf)
        return cudaErrorMemoryAllocation;
    for (size_t i = 0; i < p->width; i++)
        memcpy(buf + i * p->elementSize, &p->value, p->elementSize); /* little-endian, as CUDA */
    cudaError_t e = cudaSuccess;
    for (size_t y = 0; y < h && !e; y++)
        e = cudart_copy((char *)p->dst + y * p->pitch, buf, row, cudaMemcpyHostToDevice);
    free(buf);
    return e;
}

static cudaError_t run_graph(const graph *g, const uint32_t *order, cudaStream_t stream);

static cudaError_t run_node(const node *nd, cudaStream_t stream)
{
    switch (nd->type) {
    case cudaGraphNodeTypeKernel:
        return cudart_launch(nd->u.k.func, nd->u.k.grid, nd->u.k.block, nd->u.k.args,
                             nd->u.k.shared, stream);
    case cudaGraphNodeTypeMemcpy: return cudart_copy3d(&nd->u.copy);
    case cudaGraphNodeTypeMemset: return fill_pattern(&nd->u.set);
    case cudaGraphNodeTypeHost: cudart_call_host(nd->u.host.fn, nd->u.host.userData); return cudaSuccess;
    case cudaGraphNodeTypeGraph: return run_graph(nd->u.child, NULL, stream);
    case cudaGraphNodeTypeEventRecord: cudart_event_record(nd->u.event); return cudaSuccess;
    case cudaGraphNodeTypeMemAlloc: return gmem_map(nd->u.alloc.blk, nd->u.alloc.bytes);
    case cudaGraphNodeTypeMemFree: return gmem_unmap(nd->u.mfree.blk);
    default: return cudaSuccess; /* empty; an event wait: earlier work is complete */
    }
}

static cudaError_t run_graph(const graph *g, const uint32_t *order, cudaStream_t stream)
{
    uint32_t *own = NULL;
    if (!order) {
        int cycle;
        if (!(own = topo_order(g, &cycle)))
            return cycle ? cudaErrorInvalidValue : cudaErrorMemoryAllocation;
        order = own;
    }
    cudaError_t e = cudaSuccess;
    /* a kernel fault (the sticky error) ends the graph: later nodes would
     * run on what the fault left, and a second fault would hide the first */
    for (uint32_t i = 0; i < g->n && !e && !cudart_sticky(); i++)
        e = run_node(g->nodes[order[i]], stream);
    free(own);
    return e;
}

/* ---- stream capture --------------------------------------------------------------------- */

/* One capture sequence: its graph, the stream that began it, and the
 * streams that joined it (each with what it recorded last: its tail). */
typedef struct capture {
    unsigned long long id;
    graph *g;
    cudaStream_t origin;
    int mode;
    int invalid;          /* an operation not allowed in a capture was issued */
    struct cap_stream **streams;
    uint32_t nstreams, capstreams;
} capture;

typedef struct cap_stream {
    capture *cap;
    cudaStream_t stream;
    uint32_t *tail;           /* node indices */
    uint32_t ntail, captail;
    cudaGraphNode_t *tail_handles; /* for cudaStreamGetCaptureInfo */
    uint8_t *edge_data;
} cap_stream;

/* An event recorded in a capturing stream: the capture and the nodes it
 * marks.  The capture is named by id: it may have ended since. */
typedef struct cap_event {
    unsigned long long id;
    uint32_t *nodes;
    uint32_t n;
} cap_event;

static capture **captures; /* the sequences in progress */
static uint32_t ncaptures, capcaptures;
static unsigned long long next_capture_id = 1;
static _Thread_local int thread_capture_mode = cudaStreamCaptureModeGlobal;

static int user_stream(cudaStream_t s)
{
    return s && s != CUDA_STREAM_LEGACY && s != CUDA_STREAM_PER_THREAD;
}

static cap_stream *cap_of(cudaStream_t s)
{
    return user_stream(s) ? cudart_capture_of(s, H_STREAM) : NULL;
}

int graph_capturing(cudaStream_t s) { return cap_of(s) != NULL; }

cudaError_t graph_capture_refuse(cudaStream_t s)
{
    cap_stream *cs = cap_of(s);
    if (cs)
        cs->cap->invalid = 1;
    return cudaErrorStreamCaptureUnsupported;
}

static capture *capture_by_id(unsigned long long id)
{
    for (uint32_t i = 0; i < ncaptures; i++)
        if (captures[i]->id == id)
            return captures[i];
    return NULL;
}

static int set_tail(cap_stream *cs, const uint32_t *nodes, uint32_t n)
{
    if (n > cs->captail) {
        uint32_t *t = realloc(cs->tail, n * sizeof *t);
        if (!t)
            return -1;
        cs->tail = t;
        cs->captail = n;
    }
    if (n)
        memcpy(cs->tail, nodes, n * sizeof *nodes);
    cs->ntail = n;
    return 0;
}

static cap_stream *join(capture *c, cudaStream_t s, const uint32_t *tail, uint32_t ntail)
{
    if (c->nstreams == c->capstreams) {
        uint32_t n = c->capstreams ? 2 * c->capstreams : 4;
        cap_stream **v = realloc(c->streams, n * sizeof *v);
        if (!v)
            return NULL;
        c->streams = v;
        c->capstreams = n;
    }
    cap_stream *cs = calloc(1, sizeof *cs);
    if (!cs || set_tail(cs, tail, ntail)) {
        free(cs);
        return NULL;
    }
    cs->cap = c;
    cs->stream = s;
    c->streams[c->nstreams++] = cs;
    cudart_set_capture(s, H_STREAM, cs);
    return cs;
}

static void cap_stream_free(cap_stream *cs)
{
    cudart_set_capture(cs->stream, H_STREAM, NULL);
    free(cs->tail);
    free(cs->tail_handles);
    free(cs->edge_data);
    free(cs);
}

/* End a capture: its streams stop capturing; its graph is the caller's. */
static void capture_end(capture *c)
{
    for (uint32_t i = 0; i < c->nstreams; i++)
        cap_stream_free(c->streams[i]);
    free(c->streams);
    for (uint32_t i = 0; i < ncaptures; i++)
        if (captures[i] == c) {
            captures[i] = captures[--ncaptures];
            break;
        }
    free(c);
}

/* A node for an operation issued to capturing stream s, after its tail. */
static cudaError_t capture_node(cudaStream_t s, int type, node **out)
{
    cap_stream *cs = cap_of(s);
    if (cs->cap->invalid)
        return cudaErrorStreamCaptureInvalidated;
    node *nd;
    cudaError_t e = node_new(cs->cap->g, type, NULL, 0, &nd);
    if (e)
        return e;
    for (uint32_t i = 0; i < cs->ntail; i++)
        if (add_dep(nd, cs->tail[i])) {
            cs->cap->g->n--;
            node_free(nd);
            return cudaErrorMemoryAllocation;
        }
    if (set_tail(cs, &nd->index, 1)) {
        cs->cap->g->n--;
        node_free(nd);
        return cudaErrorMemoryAllocation;
    }
    *out = nd;
    return cudaSuccess;
}

/* Take a node that failed to get its parameters back out of the graph. */
static void capture_undo(cudaStream_t s, node *nd)
{
    cap_stream *cs = cap_of(s);
    graph *g = cs->cap->g;
    set_tail(cs, nd->deps, nd->ndeps);
    g->n--;
    nd->type = cudaGraphNodeTypeEmpty;
    node_free(nd);
}

cudaError_t graph_capture_kernel(cudaStream_t s, const void *func, dim3 grid, dim3 block,
                                 void **args, size_t shared)
{
    node *nd;
    cudaError_t e = capture_node(s, cudaGraphNodeTypeKernel, &nd);
    if (e)
        return e;
    struct cudaKernelNodeParams p = {(void *)(uintptr_t)func, grid, block, (unsigned)shared, args, NULL};
    nd->type = cudaGraphNodeTypeEmpty;
    if ((e = set_kernel(nd, &p))) {
        capture_undo(s, nd);
        return e;
    }
    nd->type = cudaGraphNodeTypeKernel;
    return cudaSuccess;
}

cudaError_t graph_capture_copy(cudaStream_t s, const struct cudaMemcpy3DParms *p)
{
    node *nd;
    cudaError_t e = capture_node(s, cudaGraphNodeTypeMemcpy, &nd);
    if (!e)
        nd->u.copy = *p;
    return e;
}

cudaError_t graph_capture_memset(cudaStream_t s, const struct cudaMemsetParams *p)
{
    cudaError_t e = check_memset(p);
    node *nd;
    if (!e && !(e = capture_node(s, cudaGraphNodeTypeMemset, &nd)))
        nd->u.set = *p;
    return e;
}

cudaError_t graph_capture_event_node(cudaStream_t s, cudaEvent_t e, int wait)
{
    node *nd;
    cudaError_t err =
        capture_node(s, wait ? cudaGraphNodeTypeWaitEvent : cudaGraphNodeTypeEventRecord, &nd);
    if (!err)
        nd->u.event = e;
    return err;
}

cudaError_t graph_capture_host(cudaStream_t s, cudaHostFn_t fn, void *data)
{
    node *nd;
    cudaError_t e = capture_node(s, cudaGraphNodeTypeHost, &nd);
    if (!e)
        nd->u.host = (struct cudaHostNodeParams){fn, data};
    return e;
}

cudaError_t graph_capture_alloc(cudaStream_t s, size_t size, void **ptr)
{
    node *nd;
    cudaError_t e = capture_node(s, cudaGraphNodeTypeMemAlloc, &nd);
    if (e)
        return e;
    nd->type = cudaGraphNodeTypeEmpty; /* until it has its addresses */
    nd->u.alloc.props.allocType = cudaMemAllocationTypePinned;
    nd->u.alloc.props.location = (struct cudaMemLocation){cudaMemLocationTypeDevice, 0};
    if ((e = place_alloc(cap_of(s)->cap->g, nd, size))) {
        capture_undo(s, nd);
        return e;
    }
    nd->type = cudaGraphNodeTypeMemAlloc;
    *ptr = (void *)(uintptr_t)nd->u.alloc.blk->addr;
    return cudaSuccess;
}

cudaError_t graph_capture_free(cudaStream_t s, void *ptr)
{
    node *nd;
    cudaError_t e = capture_node(s, cudaGraphNodeTypeMemFree, &nd);
    if (e)
        return e;
    nd->type = cudaGraphNodeTypeEmpty;
    if ((e = set_free(cap_of(s)->cap->g, nd, ptr, "cudaFreeAsync in a stream capture"))) {
        capture_undo(s, nd);
        cap_of(s)->cap->invalid = 1; /* as any operation the capture cannot hold */
        return e;
    }
    nd->type = cudaGraphNodeTypeMemFree;
    return cudaSuccess;
}

static void event_capture_free(cudaEvent_t e)
{
    cap_event *ce = cudart_capture_of(e, H_EVENT);
    if (ce) {
        free(ce->nodes);
        free(ce);
        cudart_set_capture(e, H_EVENT, NULL);
    }
}

int graph_capture_event_record(cudaEvent_t e, cudaStream_t s)
{
    event_capture_free(e);
    cap_stream *cs = cap_of(s);
    if (!cs)
        return 1;
    cap_event *ce = calloc(1, sizeof *ce);
    if (ce && cs->ntail && !(ce->nodes = malloc(cs->ntail * sizeof *ce->nodes))) {
        free(ce);
        ce = NULL;
    }
    if (!ce)
        return 0; /* out of memory: the event marks nothing */
    ce->id = cs->cap->id;
    ce->n = cs->ntail;
    if (ce->n)
        memcpy(ce->nodes, cs->tail, ce->n * sizeof *ce->nodes);
    cudart_set_capture(e, H_EVENT, ce);
    return 0;
}

cudaError_t graph_capture_event_wait(cudaStream_t s, cudaEvent_t e)
{
    cap_event *ce = cudart_capture_of(e, H_EVENT);
    capture *c = ce ? capture_by_id(ce->id) : NULL;
    if (!c)
        return cudaSuccess; /* not from a capture in progress: complete already */
    cap_stream *cs = cap_of(s);
    if (c->invalid)
        return cudaErrorStreamCaptureInvalidated;
    if (!cs) {
        if (!user_stream(s))
            return cudaErrorStreamCaptureImplicit;
        return join(c, s, ce->nodes, ce->n) ? cudaSuccess : cudaErrorMemoryAllocation;
    }
    if (cs->cap != c)
        return cudaErrorStreamCaptureIsolation;
    for (uint32_t i = 0; i < ce->n; i++) {
        int have = 0;
        for (uint32_t j = 0; j < cs->ntail; j++)
            have |= cs->tail[j] == ce->nodes[i];
        if (!have) {
            uint32_t *t = malloc((cs->ntail + 1) * sizeof *t);
            if (!t)
                return cudaErrorMemoryAllocation;
            memcpy(t, cs->tail, cs->ntail * sizeof *t);
            t[cs->ntail] = ce->nodes[i];
            int bad = set_tail(cs, t, cs->ntail + 1);
            free(t);
            if (bad)
                return cudaErrorMemoryAllocation;
        }
    }
    return cudaSuccess;
}

void graph_forget(const void *h, int kind)
{
    if (kind == H_EVENT) {
        event_capture_free((cudaEvent_t)(uintptr_t)h);
        return;
    }
    cap_stream *cs = cap_of((cudaStream_t)(uintptr_t)h);
    if (!cs)
        return;
    capture *c = cs->cap;
    if (c->origin == (cudaStream_t)(uintptr_t)h) {
        /* the stream that began the capture is gone: so is the capture */
        graph_free(c->g);
        capture_end(c);
        return;
    }
    for (uint32_t i = 0; i < c->nstreams; i++)
        if (c->streams[i] == cs) {
            c->streams[i] = c->streams[--c->nstreams];
            break;
        }
    cap_stream_free(cs);
}

/* Whether every node in tail is an ancestor-or-self of one in roots. */
static int reaches(const graph *g, const uint32_t *roots, uint32_t nroots, const uint32_t *tail,
                   uint32_t ntail)
{
    uint8_t *seen = calloc(g->n ? g->n : 1, 1);
    uint32_t *stack = malloc((g->n ? g->n : 1) * sizeof *stack);
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return 1; /* cannot tell: do not refuse the capture */
    }
    uint32_t sp = 0;
    for (uint32_t i = 0; i < nroots; i++)
        if (!seen[roots[i]]) {
            seen[roots[i]] = 1;
            stack[sp++] = roots[i];
        }
    while (sp) {
        const node *nd = g->nodes[stack[--sp]];
        for (uint32_t j = 0; j < nd->ndeps; j++)
            if (!seen[nd->deps[j]]) {
                seen[nd->deps[j]] = 1;
                stack[sp++] = nd->deps[j];
            }
    }
    int ok = 1;
    for (uint32_t i = 0; i < ntail; i++)
        ok &= seen[tail[i]];
    free(seen);
    free(stack);
    return ok;
}

static cudaError_t begin_capture(cudaStream_t s, int mode)
{
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return cudaErrorInvalidValue;
    if (!user_stream(s)) {
        cudart_say("cudaStreamBeginCapture: the legacy default stream cannot be captured; "
                   "capture a stream created with cudaStreamCreate");
        return cudaErrorStreamCaptureUnsupported;
    }
    if (cap_of(s))
        return cudaErrorIllegalState;
    if (ncaptures == capcaptures) {
        uint32_t n = capcaptures ? 2 * capcaptures : 4;
        capture **v = realloc(captures, n * sizeof *v);
        if (!v)
            return cudaErrorMemoryAllocation;
        captures = v;
        capcaptures = n;
    }
    capture *c = calloc(1, sizeof *c);
    if (!c || !(c->g = graph_new(1))) {
        free(c);
        return cudaErrorMemoryAllocation;
    }
    c->id = next_capture_id++;
    c->origin = s;
    c->mode = mode;
    captures[ncaptures++] = c;
    if (!join(c, s, NULL, 0)) {
        graph_free(c->g);
        capture_end(c);
        return cudaErrorMemoryAllocation;
    }
    return cudaSuccess;
}

static cudaError_t end_capture(cudaStream_t s, cudaGraph_t *pGraph)
{
    if (!pGraph)
        return cudaErrorInvalidValue;
    cap_stream *cs = cap_of(s);
    if (!cs)
        return cudaErrorIllegalState;
    capture *c = cs->cap;
    if (c->origin != s)
        return cudaErrorStreamCaptureUnmatched;
    if (c->invalid) {
        graph_free(c->g);
        capture_end(c);
        *pGraph = NULL;
        return cudaErrorStreamCaptureInvalidated;
    }
    /* every stream forked into the capture must have joined back: its last
     * work must be something the origin's last work depends on */
    for (uint32_t i = 0; i < c->nstreams; i++) {
        const cap_stream *o = c->streams[i];
        if (o != cs && !reaches(c->g, cs->tail, cs->ntail, o->tail, o->ntail)) {
            graph_free(c->g);
            capture_end(c);
            *pGraph = NULL;
            return cudaErrorStreamCaptureUnjoined;
        }
    }
    *pGraph = c->g->handle;
    capture_end(c);
    return cudaSuccess;
}

/* ---- the API: capture ------------------------------------------------------------------- */

#define API_ENTER()                                                                        \
    do {                                                                                   \
        cudaError_t e_ = cudart_enter();                                                   \
        if (e_)                                                                            \
            return e_;                                                                     \
    } while (0)

CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode)
{
    API_ENTER();
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    return cudart_leave(begin_capture(stream, mode));
}

CUDART_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, int mode)
{
    return cudaStreamBeginCapture(stream, mode);
}

CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph)
{
    API_ENTER();
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    return cudart_leave(end_capture(stream, pGraph));
}

CUDART_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph)
{
    return cudaStreamEndCapture(stream, pGraph);
}

CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus)
{
    if (!pCaptureStatus)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    cap_stream *cs = cap_of(stream);
    *pCaptureStatus = !cs                ? cudaStreamCaptureStatusNone
                      : cs->cap->invalid ? cudaStreamCaptureStatusInvalidated
                                         : cudaStreamCaptureStatusActive;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, int *pCaptureStatus)
{
    return cudaStreamIsCapturing(stream, pCaptureStatus);
}

CUDART_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, int *captureStatus_out,
                                                unsigned long long *id_out, cudaGraph_t *graph_out,
                                                const cudaGraphNode_t **dependencies_out,
                                                const void **edgeData_out,
                                                size_t *numDependencies_out)
{
    if (!captureStatus_out)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    cap_stream *cs = cap_of(stream);
    *captureStatus_out = !cs                ? cudaStreamCaptureStatusNone
                         : cs->cap->invalid ? cudaStreamCaptureStatusInvalidated
                                            : cudaStreamCaptureStatusActive;
    if (!cs)
        return cudart_leave(cudaSuccess);
    if (id_out)
        *id_out = cs->cap->id;
    if (graph_out)
        *graph_out = cs->cap->g->handle;
    if (dependencies_out || edgeData_out) {
        /* arrays that stay valid until the stream's next captured operation */
        free(cs->tail_handles);
        free(cs->edge_data);
        cs->tail_handles = calloc(cs->ntail ? cs->ntail : 1, sizeof *cs->tail_handles);
        cs->edge_data = calloc(cs->ntail ? cs->ntail : 1, 8); /* cudaGraphEdgeData: default */
        if (!cs->tail_handles || !cs->edge_data)
            return cudart_leave(cudaErrorMemoryAllocation);
        for (uint32_t i = 0; i < cs->ntail; i++)
            cs->tail_handles[i] = cs->cap->g->nodes[cs->tail[i]]->handle;
        if (dependencies_out)
            *dependencies_out = cs->tail_handles;
        if (edgeData_out)
            *edgeData_out = cs->edge_data;
    }
    if (numDependencies_out)
        *numDependencies_out = cs->ntail;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, int *captureStatus_out,
                                                     unsigned long long *id_out,
                                                     cudaGraph_t *graph_out,
                                                     const cudaGraphNode_t **dependencies_out,
                                                     const void **edgeData_out,
                                                     size_t *numDependencies_out)
{
    return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out,
                                    dependencies_out, edgeData_out, numDependencies_out);
}

/* The capture mode only decides which unsafe calls a capture forbids in
 * other threads; lockstep keeps it for the program to read back. */
CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
        return cudart_error(cudaErrorInvalidValue);
    int old = thread_capture_mode;
    thread_capture_mode = *mode;
    *mode = old;
    return cudaSuccess;
}

/* ---- the API: building graphs ----------------------------------------------------------- */

CUDART_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags)
{
    if (!pGraph || flags)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_new(1);
    if (!g)
        return cudart_leave(cudaErrorMemoryAllocation);
    *pGraph = g->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphDestroy(cudaGraph_t h)
{
    API_ENTER();
    graph *g = graph_of(h);
    if (!g || g->owned) /* a child graph node's graph is the node's to free */
        return cudart_leave(cudaErrorInvalidValue);
    for (uint32_t i = 0; i < ncaptures; i++)
        if (captures[i]->g == g)
            return cudart_leave(cudaErrorIllegalState); /* still being captured into */
    graph_free(g);
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    if (!pGraphClone)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_of(originalGraph);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    if (has_mem_nodes(g)) {
        cudart_say("cudaGraphClone: a graph holding memory nodes cannot be cloned (CUDA's rule: "
                   "its allocations' addresses are its own)");
        return cudart_leave(cudaErrorNotSupported);
    }
    graph *c = graph_copy(g, 1);
    if (!c)
        return cudart_leave(cudaErrorMemoryAllocation);
    *pGraphClone = c->handle;
    return cudart_leave(cudaSuccess);
}

/* The common start of every cudaGraphAdd*Node: a new node of that type. */
static cudaError_t add_node(cudaGraphNode_t *pNode, cudaGraph_t h, const cudaGraphNode_t *deps,
                            size_t ndeps, int type, node **out)
{
    if (!pNode)
        return cudaErrorInvalidValue;
    graph *g = graph_of(h);
    if (!g)
        return cudaErrorInvalidValue;
    return node_new(g, type, deps, ndeps, out);
}

/* Drop the node just added (its parameters were refused). */
static void add_undo(node *nd)
{
    nd->g->n--;
    nd->type = cudaGraphNodeTypeEmpty;
    node_free(nd);
}

CUDART_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaKernelNodeParams *pNodeParams)
{
    API_ENTER();
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                             cudaGraphNodeTypeEmpty, &nd);
    if (e)
        return cudart_leave(e);
    if ((e = set_kernel(nd, pNodeParams))) {
        add_undo(nd);
        return cudart_leave(e);
    }
    nd->type = cudaGraphNodeTypeKernel;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaMemcpy3DParms *pCopyParams)
{
    if (!pCopyParams)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                             cudaGraphNodeTypeMemcpy, &nd);
    if (e)
        return cudart_leave(e);
    nd->u.copy = *pCopyParams;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                const cudaGraphNode_t *pDependencies,
                                                size_t numDependencies, void *dst,
                                                const void *src, size_t count, int kind)
{
    struct cudaMemcpy3DParms p = cudart_params2d(dst, count, src, count, count, 1, kind);
    return cudaGraphAddMemcpyNode(pGraphNode, graph_h, pDependencies, numDependencies, &p);
}

CUDART_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaMemsetParams *pMemsetParams)
{
    cudaError_t e = check_memset(pMemsetParams);
    if (e)
        return cudart_error(e);
    API_ENTER();
    node *nd;
    e = add_node(pGraphNode, graph_h, pDependencies, numDependencies, cudaGraphNodeTypeMemset, &nd);
    if (e)
        return cudart_leave(e);
    nd->u.set = *pMemsetParams;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies,
                                            const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams || !pNodeParams->fn)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                             cudaGraphNodeTypeHost, &nd);
    if (e)
        return cudart_leave(e);
    nd->u.host = *pNodeParams;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, cudaGraph_t childGraph)
{
    API_ENTER();
    graph *child = graph_of(childGraph);
    if (!child || childGraph == graph_h)
        return cudart_leave(cudaErrorInvalidValue);
    if (has_mem_nodes(child)) {
        cudart_say("cudaGraphAddChildGraphNode: a graph holding memory nodes cannot be cloned "
                   "into a child graph node (CUDA's rule); CUDA moves it with cudaGraphAddNode "
                   "and cudaGraphChildGraphOwnershipMove, which lockstep does not support");
        return cudart_leave(cudaErrorNotSupported);
    }
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                             cudaGraphNodeTypeEmpty, &nd);
    if (e)
        return cudart_leave(e);
    if (!(nd->u.child = graph_copy(child, 0))) {
        add_undo(nd);
        return cudart_leave(cudaErrorMemoryAllocation);
    }
    nd->u.child->owned = 1;
    nd->type = cudaGraphNodeTypeGraph;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies)
{
    API_ENTER();
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                             cudaGraphNodeTypeEmpty, &nd);
    if (!e)
        *pGraphNode = nd->handle;
    return cudart_leave(e);
}

static cudaError_t add_event_node(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                  const cudaGraphNode_t *deps, size_t ndeps, cudaEvent_t event,
                                  int type)
{
    API_ENTER();
    if (!cudart_handle_live(event, H_EVENT))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, deps, ndeps, type, &nd);
    if (!e) {
        nd->u.event = event;
        *pGraphNode = nd->handle;
    }
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode,
                                                   cudaGraph_t graph_h,
                                                   const cudaGraphNode_t *pDependencies,
                                                   size_t numDependencies, cudaEvent_t event)
{
    return add_event_node(pGraphNode, graph_h, pDependencies, numDependencies, event,
                          cudaGraphNodeTypeEventRecord);
}

CUDART_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                 const cudaGraphNode_t *pDependencies,
                                                 size_t numDependencies, cudaEvent_t event)
{
    return add_event_node(pGraphNode, graph_h, pDependencies, numDependencies, event,
                          cudaGraphNodeTypeWaitEvent);
}

/* The parameters of an allocation node lockstep can make: device memory of
 * device 0, read-write for it, with no IPC handles. */
static cudaError_t check_alloc_params(const struct cudaMemAllocNodeParams *p)
{
    const struct cudaMemPoolProps *pp = &p->poolProps;
    if (p->bytesize == 0 || pp->allocType != cudaMemAllocationTypePinned ||
        pp->handleTypes != cudaMemHandleTypeNone || p->accessDescCount > 1 ||
        (p->accessDescCount && !p->accessDescs))
        return cudaErrorInvalidValue; /* one device: at most one access descriptor */
    if (pp->location.type != cudaMemLocationTypeDevice) {
        /* host, a host NUMA node, or the current thread's (CUDA 13: 2, 3, 4) */
        if (pp->location.type >= cudaMemLocationTypeHost && pp->location.type <= 4) {
            cudart_say("cudaGraphAddMemAllocNode: graph allocations in host memory are not "
                       "supported by lockstep: allocate device memory");
            return cudaErrorNotSupported;
        }
        return cudaErrorInvalidValue;
    }
    if (pp->location.id != 0)
        return cudaErrorInvalidDevice;
    for (size_t i = 0; i < p->accessDescCount; i++) {
        const struct cudaMemAccessDesc *a = &p->accessDescs[i];
        if (a->location.type == cudaMemLocationTypeDevice && a->location.id != 0)
            return cudaErrorInvalidDevice;
        if (a->location.type != cudaMemLocationTypeDevice ||
            a->flags != cudaMemAccessFlagsProtReadWrite)
            return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

/* Memory nodes may not go into a child graph node's graph (CUDA's rule). */
static int refuse_child(const graph *g, const char *who)
{
    if (!g || !g->owned)
        return 0;
    cudart_say("%s: a child graph node's graph cannot hold memory nodes", who);
    return 1;
}

CUDART_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                const cudaGraphNode_t *pDependencies,
                                                size_t numDependencies,
                                                struct cudaMemAllocNodeParams *nodeParams)
{
    if (!nodeParams)
        return cudart_error(cudaErrorInvalidValue);
    cudaError_t e = check_alloc_params(nodeParams);
    if (e)
        return cudart_error(e);
    API_ENTER();
    graph *g = graph_of(graph_h);
    if (refuse_child(g, "cudaGraphAddMemAllocNode"))
        return cudart_leave(cudaErrorInvalidValue);
    node *nd;
    if ((e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                      cudaGraphNodeTypeEmpty, &nd)))
        return cudart_leave(e);
    size_t n = nodeParams->accessDescCount;
    struct cudaMemAccessDesc *access = n ? malloc(n * sizeof *access) : NULL;
    if (n && !access) {
        add_undo(nd);
        return cudart_leave(cudaErrorMemoryAllocation);
    }
    if (n)
        memcpy(access, nodeParams->accessDescs, n * sizeof *access);
    if ((e = place_alloc(g, nd, nodeParams->bytesize))) {
        free(access);
        add_undo(nd);
        return cudart_leave(e);
    }
    nd->u.alloc.props = nodeParams->poolProps;
    nd->u.alloc.access = access;
    nd->u.alloc.naccess = n;
    nd->type = cudaGraphNodeTypeMemAlloc;
    nodeParams->dptr = (void *)(uintptr_t)nd->u.alloc.blk->addr;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                               const cudaGraphNode_t *pDependencies,
                                               size_t numDependencies, void *dptr)
{
    API_ENTER();
    graph *g = graph_of(graph_h);
    if (refuse_child(g, "cudaGraphAddMemFreeNode"))
        return cudart_leave(cudaErrorInvalidValue);
    node *nd;
    cudaError_t e = add_node(pGraphNode, graph_h, pDependencies, numDependencies,
                             cudaGraphNodeTypeEmpty, &nd);
    if (e)
        return cudart_leave(e);
    if ((e = set_free(g, nd, dptr, "cudaGraphAddMemFreeNode"))) {
        add_undo(nd);
        return cudart_leave(e);
    }
    nd->type = cudaGraphNodeTypeMemFree;
    *pGraphNode = nd->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph_h, const cudaGraphNode_t *from,
                                                const cudaGraphNode_t *to, const void *edgeData,
                                                size_t numDependencies)
{
    (void)edgeData; /* default edges: the only kind lockstep runs */
    API_ENTER();
    graph *g = graph_of(graph_h);
    if (!g || (numDependencies && (!from || !to)))
        return cudart_leave(cudaErrorInvalidValue);
    for (size_t i = 0; i < numDependencies; i++) {
        node *a = node_of(from[i]), *b = node_of(to[i]);
        if (!a || !b || a->g != g || b->g != g || a == b)
            return cudart_leave(cudaErrorInvalidValue);
    }
    for (size_t i = 0; i < numDependencies; i++)
        if (add_dep(node_of(to[i]), node_of(from[i])->index))
            return cudart_leave(cudaErrorMemoryAllocation);
    return cudart_leave(cudaSuccess);
}

static cudaError_t list_nodes(cudaGraph_t graph_h, cudaGraphNode_t *nodes, size_t *num, int roots)
{
    if (!num)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_of(graph_h);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    size_t k = 0;
    for (uint32_t i = 0; i < g->n; i++) {
        if (roots && g->nodes[i]->ndeps)
            continue;
        if (nodes && k < *num)
            nodes[k] = g->nodes[i]->handle;
        k++;
    }
    if (nodes && k < *num)
        for (size_t i = k; i < *num; i++)
            nodes[i] = NULL;
    if (!nodes || k < *num)
        *num = k;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphGetNodes(cudaGraph_t graph_h, cudaGraphNode_t *nodes,
                                         size_t *numNodes)
{
    return list_nodes(graph_h, nodes, numNodes, 0);
}

CUDART_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph_h, cudaGraphNode_t *pRootNodes,
                                             size_t *pNumRootNodes)
{
    return list_nodes(graph_h, pRootNodes, pNumRootNodes, 1);
}

CUDART_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t h, int *pType)
{
    if (!pType)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = node_of(h);
    if (!nd)
        return cudart_leave(cudaErrorInvalidValue);
    *pType = nd->type;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t h, cudaGraph_t *pGraph)
{
    if (!pGraph)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = node_of(h);
    if (!nd || nd->type != cudaGraphNodeTypeGraph)
        return cudart_leave(cudaErrorInvalidValue);
    if (!nd->u.child->handle && !(nd->u.child->handle = cudart_handle_new(H_GRAPH, nd->u.child)))
        return cudart_leave(cudaErrorMemoryAllocation);
    *pGraph = nd->u.child->handle;
    return cudart_leave(cudaSuccess);
}

/* The edges, as (from, to) pairs in node order; default edge data. */
CUDART_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph_h, cudaGraphNode_t *from,
                                         cudaGraphNode_t *to, void *edgeData, size_t *numEdges)
{
    if (!numEdges || (!from != !to))
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_of(graph_h);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    size_t k = 0;
    for (uint32_t i = 0; i < g->n; i++)
        for (uint32_t j = 0; j < g->nodes[i]->ndeps; j++) {
            if (from && k < *numEdges) {
                from[k] = g->nodes[g->nodes[i]->deps[j]]->handle;
                to[k] = g->nodes[i]->handle;
                if (edgeData)
                    memset((char *)edgeData + 8 * k, 0, 8);
            }
            k++;
        }
    for (size_t i = k; from && i < *numEdges; i++)
        from[i] = to[i] = NULL;
    if (!from || k < *numEdges)
        *numEdges = k;
    return cudart_leave(cudaSuccess);
}

/* The nodes a node depends on (in) or that depend on it (!in). */
static cudaError_t node_links(cudaGraphNode_t h, cudaGraphNode_t *out, void *edgeData, size_t *num,
                              int in)
{
    if (!num)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = node_of(h);
    if (!nd)
        return cudart_leave(cudaErrorInvalidValue);
    size_t k = 0;
    const graph *g = nd->g;
    for (uint32_t i = 0; i < g->n; i++) {
        int linked = 0;
        if (in) {
            for (uint32_t j = 0; j < nd->ndeps; j++)
                linked |= nd->deps[j] == i;
        } else {
            for (uint32_t j = 0; j < g->nodes[i]->ndeps; j++)
                linked |= g->nodes[i]->deps[j] == nd->index;
        }
        if (!linked)
            continue;
        if (out && k < *num) {
            out[k] = g->nodes[i]->handle;
            if (edgeData)
                memset((char *)edgeData + 8 * k, 0, 8);
        }
        k++;
    }
    for (size_t i = k; out && i < *num; i++)
        out[i] = NULL;
    if (!out || k < *num)
        *num = k;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node_h,
                                                    cudaGraphNode_t *pDependencies, void *edgeData,
                                                    size_t *pNumDependencies)
{
    return node_links(node_h, pDependencies, edgeData, pNumDependencies, 1);
}

CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node_h,
                                                      cudaGraphNode_t *pDependentNodes,
                                                      void *edgeData, size_t *pNumDependentNodes)
{
    return node_links(node_h, pDependentNodes, edgeData, pNumDependentNodes, 0);
}

/* A node of `type` by its handle (lock held), or NULL. */
static node *typed(cudaGraphNode_t h, int type)
{
    node *nd = node_of(h);
    return nd && nd->type == type ? nd : NULL;
}

CUDART_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t h,
                                                    struct cudaKernelNodeParams *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeKernel);
    if (!nd)
        return cudart_leave(cudaErrorInvalidValue);
    *p = (struct cudaKernelNodeParams){(void *)(uintptr_t)nd->u.k.func, nd->u.k.grid,
                                       nd->u.k.block, nd->u.k.shared, nd->u.k.args, NULL};
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t h,
                                                    const struct cudaKernelNodeParams *p)
{
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeKernel);
    return cudart_leave(nd ? set_kernel(nd, p) : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t h, struct cudaMemcpy3DParms *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeMemcpy);
    if (nd)
        *p = nd->u.copy;
    return cudart_leave(nd ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t h,
                                                    const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeMemcpy);
    if (nd)
        nd->u.copy = *p;
    return cudart_leave(nd ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t h, struct cudaMemsetParams *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeMemset);
    if (nd)
        *p = nd->u.set;
    return cudart_leave(nd ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t h,
                                                    const struct cudaMemsetParams *p)
{
    cudaError_t e = check_memset(p);
    if (e)
        return cudart_error(e);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeMemset);
    if (nd)
        nd->u.set = *p;
    return cudart_leave(nd ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t h, struct cudaHostNodeParams *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeHost);
    if (nd)
        *p = nd->u.host;
    return cudart_leave(nd ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t h,
                                                  const struct cudaHostNodeParams *p)
{
    if (!p || !p->fn)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeHost);
    if (nd)
        nd->u.host = *p;
    return cudart_leave(nd ? cudaSuccess : cudaErrorInvalidValue);
}

/* The poolProps and accessDescs returned belong to the node. */
CUDART_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t h,
                                                      struct cudaMemAllocNodeParams *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeMemAlloc);
    if (!nd)
        return cudart_leave(cudaErrorInvalidValue);
    p->poolProps = nd->u.alloc.props;
    p->accessDescs = nd->u.alloc.access;
    p->accessDescCount = nd->u.alloc.naccess;
    p->bytesize = nd->u.alloc.bytes;
    p->dptr = (void *)(uintptr_t)nd->u.alloc.blk->addr;
    return cudart_leave(cudaSuccess);
}

/* dptr_out points to a void *, which receives the address. */
CUDART_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t h, void *dptr_out)
{
    if (!dptr_out)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd = typed(h, cudaGraphNodeTypeMemFree);
    if (!nd)
        return cudart_leave(cudaErrorInvalidValue);
    void *p = (void *)(uintptr_t)nd->u.mfree.blk->addr;
    memcpy(dptr_out, &p, sizeof p);
    return cudart_leave(cudaSuccess);
}

/* ---- the API: executable graphs --------------------------------------------------------- */

static graph_exec *exec_of(cudaGraphExec_t h) { return cudart_handle_obj(h, H_GRAPH_EXEC); }

static void exec_free(graph_exec *x)
{
    graph *src = x->src_handle ? graph_of(x->src_handle) : NULL;
    if (src && src->id == x->src && src->nexecs)
        src->nexecs--;
    graph_free(x->g);
    free(x->order);
    if (x->handle)
        cudart_handle_free(x->handle, H_GRAPH_EXEC);
    free(x);
}

/* Whether a child graph, at any depth, has a dependency cycle. */
static int children_cyclic(const graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        if (g->nodes[i]->type != cudaGraphNodeTypeGraph)
            continue;
        int cycle = 0;
        uint32_t *order = topo_order(g->nodes[i]->u.child, &cycle);
        free(order);
        if (cycle || children_cyclic(g->nodes[i]->u.child))
            return 1;
    }
    return 0;
}

static int reaches(const graph *g, const uint32_t *roots, uint32_t nroots, const uint32_t *tail,
                   uint32_t ntail);

/* What cudaGraphInstantiate checks of a graph holding memory nodes: it has
 * no other executable graph, and each free node of one of its own
 * allocations depends on the node that allocates it. */
static cudaError_t check_mem_graph(const graph *g)
{
    if (g->nexecs) {
        cudart_say("cudaGraphInstantiate: a graph holding memory nodes can have one executable "
                   "graph at a time; destroy the other first");
        return cudaErrorInvalidValue;
    }
    for (uint32_t i = 0; i < g->n; i++) {
        const node *f = g->nodes[i];
        if (f->type == cudaGraphNodeTypeMemFree && f->u.mfree.alloc != GMEM_NONE &&
            !reaches(g, f->deps, f->ndeps, &f->u.mfree.alloc, 1)) {
            cudart_say("cudaGraphInstantiate: the free node of the graph allocation at %p does "
                       "not depend on the allocation node that makes it",
                       (void *)(uintptr_t)f->u.mfree.blk->addr);
            return cudaErrorInvalidValue;
        }
    }
    return cudaSuccess;
}

static cudaError_t instantiate(cudaGraphExec_t *pExec, cudaGraph_t h, unsigned long long flags)
{
    if (!pExec || (flags & ~0xfull) ||
        ((flags & cudaGraphInstantiateFlagAutoFreeOnLaunch) &&
         (flags & cudaGraphInstantiateFlagDeviceLaunch)))
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_of(h);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    if (has_mem_nodes(g)) {
        cudaError_t e = check_mem_graph(g);
        if (e)
            return cudart_leave(e);
    }
    graph_exec *x = calloc(1, sizeof *x);
    if (!x)
        return cudart_leave(cudaErrorMemoryAllocation);
    int cycle = 0;
    x->src = g->id;
    if (!(x->g = graph_copy(g, 0)) || !(x->order = topo_order(x->g, &cycle)) ||
        (cycle = children_cyclic(x->g)) || !(x->handle = cudart_handle_new(H_GRAPH_EXEC, x))) {
        exec_free(x);
        if (cycle)
            cudart_say("cudaGraphInstantiate: the graph's dependencies form a cycle");
        return cudart_leave(cycle ? cudaErrorInvalidValue : cudaErrorMemoryAllocation);
    }
    x->flags = flags;
    x->src_handle = g->handle;
    g->nexecs++;
    *pExec = x->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph_h,
                                            unsigned long long flags)
{
    return instantiate(pGraphExec, graph_h, flags);
}

CUDART_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
                                                     cudaGraph_t graph_h, unsigned long long flags)
{
    return instantiate(pGraphExec, graph_h, flags);
}

CUDART_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t h)
{
    API_ENTER();
    graph_exec *x = exec_of(h);
    if (!x)
        return cudart_leave(cudaErrorInvalidValue);
    if (x->running) {
        /* a host node of a launch in another thread runs now: the launch
         * frees it when it ends */
        cudart_handle_free(x->handle, H_GRAPH_EXEC);
        x->handle = NULL;
        x->doomed = 1;
        return cudart_leave(cudaSuccess);
    }
    exec_free(x);
    return cudart_leave(cudaSuccess);
}

/* Before a launch: an allocation of an earlier launch still live is freed
 * with cudaGraphInstantiateFlagAutoFreeOnLaunch, else refused (CUDA's rule;
 * its address could not hold two allocations). */
static cudaError_t free_earlier(graph_exec *x)
{
    for (uint32_t i = 0; i < x->g->n; i++) {
        const node *nd = x->g->nodes[i];
        if (nd->type != cudaGraphNodeTypeMemAlloc || !nd->u.alloc.blk->live_bytes)
            continue;
        if (!(x->flags & cudaGraphInstantiateFlagAutoFreeOnLaunch)) {
            cudart_say("cudaGraphLaunch: the graph allocation at %p of an earlier launch is "
                       "still live: free it (cudaFree, cudaFreeAsync, a free node) before "
                       "launching the graph again, or instantiate it with "
                       "cudaGraphInstantiateFlagAutoFreeOnLaunch",
                       (void *)(uintptr_t)nd->u.alloc.blk->addr);
            return cudaErrorInvalidValue;
        }
        gmem_unmap(nd->u.alloc.blk);
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGraphLaunch(cudaGraphExec_t h, cudaStream_t stream)
{
    API_ENTER();
    graph_exec *x = exec_of(h);
    if (!x)
        return cudart_leave(cudaErrorInvalidValue);
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    if (graph_capturing(stream)) {
        /* launching a graph into a capture records it as a child graph */
        if (has_mem_nodes(x->g)) {
            cudart_say("cudaGraphLaunch in a stream capture: a graph holding memory nodes "
                       "cannot become a child graph node");
            graph_capture_refuse(stream);
            return cudart_leave(cudaErrorNotSupported);
        }
        node *nd;
        cudaError_t e = capture_node(stream, cudaGraphNodeTypeEmpty, &nd);
        if (e)
            return cudart_leave(e);
        if (!(nd->u.child = graph_copy(x->g, 0))) {
            capture_undo(stream, nd);
            return cudart_leave(cudaErrorMemoryAllocation);
        }
        nd->u.child->owned = 1;
        nd->type = cudaGraphNodeTypeGraph;
        return cudart_leave(cudaSuccess);
    }
    cudaError_t e = free_earlier(x);
    if (e)
        return cudart_leave(e);
    x->running++;
    e = run_graph(x->g, x->order, stream);
    if (--x->running == 0 && x->doomed)
        exec_free(x);
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t h, unsigned long long *flags)
{
    if (!flags)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph_exec *x = exec_of(h);
    if (!x)
        return cudart_leave(cudaErrorInvalidValue);
    *flags = x->flags;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t h, cudaStream_t stream)
{
    return cudaGraphLaunch(h, stream);
}

/* An executable graph lives on the simulated device already. */
CUDART_API cudaError_t cudaGraphUpload(cudaGraphExec_t h, cudaStream_t stream)
{
    API_ENTER();
    if (!exec_of(h))
        return cudart_leave(cudaErrorInvalidValue);
    return cudart_leave(cudart_stream_valid(stream) ? cudaSuccess : cudaErrorInvalidResourceHandle);
}

CUDART_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t h, cudaStream_t stream)
{
    return cudaGraphUpload(h, stream);
}

/* The executable graph's copy of node h of the graph it was made from (or
 * last updated from); NULL for a node of any other graph. */
static node *exec_node(graph_exec *x, cudaGraphNode_t h, int type)
{
    node *nd = typed(h, type);
    if (!x || !nd || nd->index >= x->g->n || (nd->g->id != x->src && nd->g->id != x->updated))
        return NULL;
    node *c = x->g->nodes[nd->index];
    return c->type == type ? c : NULL;
}

CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                        const struct cudaKernelNodeParams *p)
{
    API_ENTER();
    node *c = exec_node(exec_of(hx), node_h, cudaGraphNodeTypeKernel);
    return cudart_leave(c ? set_kernel(c, p) : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                        const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *c = exec_node(exec_of(hx), node_h, cudaGraphNodeTypeMemcpy);
    if (c)
        c->u.copy = *p;
    return cudart_leave(c ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                        const struct cudaMemsetParams *p)
{
    cudaError_t e = check_memset(p);
    if (e)
        return cudart_error(e);
    API_ENTER();
    node *c = exec_node(exec_of(hx), node_h, cudaGraphNodeTypeMemset);
    if (c)
        c->u.set = *p;
    return cudart_leave(c ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                      const struct cudaHostNodeParams *p)
{
    if (!p || !p->fn)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *c = exec_node(exec_of(hx), node_h, cudaGraphNodeTypeHost);
    if (c)
        c->u.host = *p;
    return cudart_leave(c ? cudaSuccess : cudaErrorInvalidValue);
}

/* Take a graph of the same shape's parameters into an executable graph:
 * same node count, types and edges, in the same order; kernel nodes must
 * keep their function (a GPU's rule too). */
CUDART_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hx, cudaGraph_t hg,
                                           cudaGraphExecUpdateResultInfo *info)
{
    API_ENTER();
    graph_exec *x = exec_of(hx);
    graph *g = graph_of(hg);
    if (!x || !g)
        return cudart_leave(cudaErrorInvalidValue);
    int result = cudaGraphExecUpdateSuccess;
    cudaGraphNode_t bad = NULL;
    if (g->n != x->g->n)
        result = cudaGraphExecUpdateErrorTopologyChanged;
    for (uint32_t i = 0; i < g->n && result == cudaGraphExecUpdateSuccess; i++) {
        const node *a = g->nodes[i], *b = x->g->nodes[i];
        bad = a->handle;
        if (a->type != b->type)
            result = cudaGraphExecUpdateErrorNodeTypeChanged;
        else if (a->ndeps != b->ndeps ||
                 (a->ndeps && memcmp(a->deps, b->deps, a->ndeps * sizeof *a->deps)))
            result = cudaGraphExecUpdateErrorTopologyChanged;
        else if (a->type == cudaGraphNodeTypeGraph)
            result = cudaGraphExecUpdateErrorNotSupported;
        else if ((a->type == cudaGraphNodeTypeMemAlloc &&
                  (a->u.alloc.blk != b->u.alloc.blk || a->u.alloc.bytes != b->u.alloc.bytes)) ||
                 (a->type == cudaGraphNodeTypeMemFree && a->u.mfree.blk != b->u.mfree.blk))
            result = cudaGraphExecUpdateErrorParametersChanged; /* an allocation is its address */
    }
    if (result == cudaGraphExecUpdateSuccess && x->running)
        result = cudaGraphExecUpdateError; /* a host node of a launch runs now */
    if (result == cudaGraphExecUpdateSuccess) {
        graph *c = graph_copy(g, 0);
        if (!c)
            return cudart_leave(cudaErrorMemoryAllocation);
        graph_free(x->g);
        x->g = c; /* same topology: the order stands */
        x->updated = g->id;
        bad = NULL;
    }
    if (info)
        *info = (cudaGraphExecUpdateResultInfo){result, bad, NULL};
    return cudart_leave(result == cudaGraphExecUpdateSuccess ? cudaSuccess
                                                             : cudaErrorGraphExecUpdateFailure);
}
