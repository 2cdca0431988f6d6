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
 * free node may free, one executable graph at a time, no cloning, child
 * graphs only by moving a graph into its node, and the launch that finds
 * its last allocation still live.
 *
 * Conditional nodes (cudaGraphAddNode with cudaGraphNodeTypeConditional)
 * test a conditional handle (graphcond.c) when they run: IF runs its first
 * body graph when the value is not zero and its second, if it has one, when
 * it is; WHILE runs its body for as long as the value is not zero, testing
 * it before each round; SWITCH runs body n when the value is n, none when
 * it is past the last.  The bodies are graphs of their node (with handles
 * the program fills them through, by the API or by cudaStreamBeginCaptureToGraph);
 * they hold only the node types CUDA allows there ("conditional nodes"
 * below).  A handle's default is written when a graph it was made for
 * starts (each launch; each round of a body it was made for), if it has
 * cudaGraphCondAssignDefault.  A WHILE node whose value is still set after
 * WHILE_LIMIT rounds ends the launch (cudaErrorLaunchTimeout): a GPU would
 * spin for ever.
 *
 * cudaGraphAddNode takes every node type above through struct
 * cudaGraphNodeParams; the typed cudaGraphAdd*Node functions are the same
 * code.  cudaGraphNodeSetParams and cudaGraphExecNodeSetParams change
 * kernel, memcpy, memset and host nodes through the typed Set functions
 * and refuse other types with a message.  A child graph may
 * be moved into its node (cudaGraphChildGraphOwnershipMove) instead of
 * cloned: the node then owns that very graph, memory nodes included.
 * Edges carry only the default edge data: a programmatic dependency is
 * refused with a message (cudaErrorNotSupported).
 *
 * Not supported, each with a message: kernel nodes given arguments in the
 * `extra` form, external semaphore nodes, cudaGraphExecUpdate of a graph
 * holding child graph or conditional nodes.  Removing nodes
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
        struct {            /* cudaGraphNodeTypeConditional */
            gcond *cond;    /* its handle (one reference) */
            int ctype;      /* cudaGraphCondType* */
            uint32_t size;  /* bodies */
            graph **body;   /* owned */
            cudaGraph_t *out; /* the bodies' handles (phGraph_out); NULL in a copy */
        } cond;
    } u;
};

struct rt_graph {
    void *handle;         /* its cudaGraph_t; NULL for a copy inside a node */
    node **nodes;
    uint32_t n, cap;
    uint64_t id;          /* unique: which graph a node came from */
    int owned;            /* a child graph node's or a conditional node's: only the node frees it */
    int body;             /* a conditional node's body (else, when owned, a child graph) */
    int moved;            /* moved into its child graph node (cudaGraphChildGraphOwnershipMove) */
    node *parent;         /* the node it belongs to when owned, else NULL */
    gcond **conds;        /* the conditional handles made for it (one reference each) */
    uint32_t nconds, capconds;
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
    if (nd->type == cudaGraphNodeTypeConditional) {
        for (uint32_t i = 0; i < nd->u.cond.size; i++)
            graph_free(nd->u.cond.body[i]);
        free(nd->u.cond.body);
        free(nd->u.cond.out);
        gcond_unref(nd->u.cond.cond);
    }
    free(nd);
}

static void graph_free(graph *g)
{
    if (!g)
        return;
    for (uint32_t i = 0; i < g->n; i++)
        node_free(g->nodes[i]);
    free(g->nodes);
    for (uint32_t i = 0; i < g->nconds; i++)
        gcond_unref(g->conds[i]);
    free(g->conds);
    if (g->handle)
        cudart_handle_free(g->handle, H_GRAPH);
    free(g);
}

/* Keep conditional handle c with g (a reference taken). */
static int keep_cond(graph *g, gcond *c)
{
    if (g->nconds == g->capconds) {
        uint32_t n = g->capconds ? 2 * g->capconds : 4;
        gcond **v = realloc(g->conds, n * sizeof *v);
        if (!v)
            return -1;
        g->conds = v;
        g->capconds = n;
    }
    gcond_ref(c);
    g->conds[g->nconds++] = c;
    return 0;
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
        if (!dst->u.child)
            return -1;
        dst->u.child->owned = 1;
        dst->u.child->parent = dst;
        return 0;
    case cudaGraphNodeTypeConditional: {
        uint32_t n = src->u.cond.size;
        dst->u.cond.out = NULL;
        if (!(dst->u.cond.body = calloc(n, sizeof *dst->u.cond.body)))
            return -1;
        for (uint32_t i = 0; i < n; i++) {
            graph *b = graph_copy(src->u.cond.body[i], 0);
            if (!b) {
                while (i-- > 0)
                    graph_free(dst->u.cond.body[i]);
                free(dst->u.cond.body);
                return -1;
            }
            b->owned = b->body = 1;
            b->parent = dst;
            dst->u.cond.body[i] = b;
        }
        gcond_ref(dst->u.cond.cond);
        return 0;
    }
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
    for (uint32_t i = 0; i < src->nconds; i++)
        if (keep_cond(g, src->conds[i])) {
            graph_free(g);
            return NULL;
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

/* Whether g holds a memory node (allocation or free), itself or in a child
 * graph moved into one of its nodes (a cloned child never does; nor does a
 * conditional node's body). */
static int has_mem_nodes(const graph *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        if (g->nodes[i]->type == cudaGraphNodeTypeMemAlloc ||
            g->nodes[i]->type == cudaGraphNodeTypeMemFree ||
            (g->nodes[i]->type == cudaGraphNodeTypeGraph && has_mem_nodes(g->nodes[i]->u.child)))
            return 1;
    return 0;
}

/* Whether g holds a conditional node (child graphs never do). */
static int has_cond_nodes(const graph *g)
{
    for (uint32_t i = 0; i < g->n; i++)
        if (g->nodes[i]->type == cudaGraphNodeTypeConditional)
            return 1;
    return 0;
}

/* ---- where a node may go --------------------------------------------------------------
 * A graph is a program's own (parent NULL), a child graph node's graph, or
 * a conditional node's body, and those nest.  CUDA's rules: a body (at any
 * depth, child graphs in it included) holds only kernel, memcpy, memset,
 * empty, child graph and conditional nodes, and its copies touch no CUDA
 * array; a child graph holds no conditional node, and memory nodes only if
 * it was moved into its node whole (none can be added to it afterwards). */

static graph *graph_above(const graph *g) { return g->parent ? g->parent->g : NULL; }

/* g is a body, or lies in one. */
static int in_body(const graph *g)
{
    for (; g && g->parent; g = graph_above(g))
        if (g->body)
            return 1;
    return 0;
}

/* g is a child graph node's graph, or lies in one. */
static int in_child(const graph *g)
{
    for (; g && g->parent; g = graph_above(g))
        if (!g->body)
            return 1;
    return 0;
}

/* The graph with this id is g or a graph g lies in. */
static int graph_within(const graph *g, uint64_t id)
{
    for (; g; g = graph_above(g))
        if (g->id == id)
            return 1;
    return 0;
}

static const char *type_name(int type)
{
    static const char *const names[] = {"kernel", "memcpy", "memset", "host", "child graph",
                                        "empty", "event wait", "event record",
                                        "external semaphore signal", "external semaphore wait",
                                        "memory allocation", "memory free", "batch memop",
                                        "conditional"};
    return type >= 0 && type < (int)(sizeof names / sizeof *names) ? names[type] : "unknown";
}

static int body_allows(int type)
{
    return type == cudaGraphNodeTypeKernel || type == cudaGraphNodeTypeMemcpy ||
           type == cudaGraphNodeTypeMemset || type == cudaGraphNodeTypeEmpty ||
           type == cudaGraphNodeTypeGraph || type == cudaGraphNodeTypeConditional;
}

/* Whether a node of `type` may be added to g; says why not. */
static cudaError_t node_allowed(const graph *g, int type, const char *who)
{
    if (in_body(g) && !body_allows(type)) {
        cudart_say("%s: a conditional node's body graph can hold only kernel, memcpy, memset, "
                   "empty, child graph and conditional nodes, not %s nodes",
                   who, type_name(type));
        return cudaErrorNotSupported;
    }
    if ((type == cudaGraphNodeTypeMemAlloc || type == cudaGraphNodeTypeMemFree) && g->owned) {
        cudart_say("%s: a child graph node's graph cannot get memory nodes (a graph holding "
                   "them can only be moved into its node whole)",
                   who);
        return cudaErrorInvalidValue;
    }
    if (type == cudaGraphNodeTypeConditional && in_child(g)) {
        cudart_say("%s: a child graph node's graph cannot hold conditional nodes", who);
        return cudaErrorNotSupported;
    }
    return cudaSuccess;
}

/* Whether g may be (or lie in) a conditional node's body: its nodes'
 * types, at any depth, and no copy to or from a CUDA array; says why not. */
static cudaError_t check_body(const graph *g, const char *who)
{
    for (uint32_t i = 0; i < g->n; i++) {
        const node *nd = g->nodes[i];
        cudaError_t e = cudaSuccess;
        if (!body_allows(nd->type)) {
            cudart_say("%s: a conditional node's body graph (child graphs in it included) can "
                       "hold only kernel, memcpy, memset, empty, child graph and conditional "
                       "nodes, not %s nodes",
                       who, type_name(nd->type));
            return cudaErrorNotSupported;
        }
        if (nd->type == cudaGraphNodeTypeMemcpy &&
            (nd->u.copy.srcArray || nd->u.copy.dstArray)) {
            cudart_say("%s: a copy in a conditional node's body cannot read or write a CUDA "
                       "array",
                       who);
            return cudaErrorNotSupported;
        }
        if (nd->type == cudaGraphNodeTypeGraph)
            e = check_body(nd->u.child, who);
        for (uint32_t b = 0; !e && nd->type == cudaGraphNodeTypeConditional && b < nd->u.cond.size;
             b++)
            e = check_body(nd->u.cond.body[b], who);
        if (e)
            return e;
    }
    return cudaSuccess;
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

/* Rounds of a WHILE node's body after which a value still set ends the
 * launch. */
#define WHILE_LIMIT (1u << 24)

/* A conditional node: test its handle's value, run the body it picks. */
static cudaError_t run_cond(const node *nd, cudaStream_t stream)
{
    const gcond *c = nd->u.cond.cond;
    graph *const *body = nd->u.cond.body;
    uint32_t v = gcond_get(c), n = nd->u.cond.size;
    switch (nd->u.cond.ctype) {
    case cudaGraphCondTypeIf:
        return v ? run_graph(body[0], NULL, stream)
                 : n == 2 ? run_graph(body[1], NULL, stream) : cudaSuccess;
    case cudaGraphCondTypeSwitch: return v < n ? run_graph(body[v], NULL, stream) : cudaSuccess;
    default: /* WHILE: the value is tested before every round */
        for (uint32_t round = 0; v; round++, v = gcond_get(c)) {
            if (round == WHILE_LIMIT) {
                cudart_say("cudaGraphLaunch: a WHILE conditional node ran its body %u times and "
                           "its condition (handle 0x%llx) is still set: the launch ends here "
                           "(does the body ever set it to 0?)",
                           WHILE_LIMIT, (unsigned long long)gcond_handle(c));
                return cudaErrorLaunchTimeout;
            }
            cudaError_t e = run_graph(body[0], NULL, stream);
            if (e || cudart_sticky())
                return e;
        }
        return cudaSuccess;
    }
}

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
    case cudaGraphNodeTypeConditional: return run_cond(nd, stream);
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
    /* the defaults of the conditional handles made for this graph */
    for (uint32_t i = 0; i < g->nconds; i++)
        if (g->conds[i]->flags & cudaGraphCondAssignDefault)
            gcond_set(g->conds[i], g->conds[i]->dflt);
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
    int to_graph;         /* into the program's graph (cudaStreamBeginCaptureToGraph): the
                             graph is not the capture's to free */
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

/* A stream that can be captured: any but the legacy default stream (the
 * per-thread default stream can; its capture is the calling thread's). */
static int user_stream(cudaStream_t s)
{
    return s && s != CUDA_STREAM_LEGACY;
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
    if (node_allowed(cs->cap->g, type, "stream capture")) {
        cs->cap->invalid = 1; /* as any operation the capture cannot hold */
        return cudaErrorStreamCaptureUnsupported;
    }
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
    if (e)
        return e;
    if (in_body(nd->g) && (p->srcArray || p->dstArray)) {
        cudart_say("stream capture: a copy in a conditional node's body cannot read or write a "
                   "CUDA array");
        capture_undo(s, nd);
        return graph_capture_refuse(s);
    }
    nd->u.copy = *p;
    return cudaSuccess;
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
        if (!c->to_graph)
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

/* Whether edge data for n edges (NULL: all default) holds only default
 * edges, the only kind lockstep runs; says why not. */
static cudaError_t check_edges(const void *edgeData, size_t n, const char *who)
{
    static const unsigned char zero[sizeof(cudaGraphEdgeData)];
    for (size_t i = 0; edgeData && i < n; i++) {
        const cudaGraphEdgeData *d = (const cudaGraphEdgeData *)edgeData + i;
        if (!memcmp(d, zero, sizeof zero))
            continue;
        if (d->type == cudaGraphDependencyTypeProgrammatic) {
            cudart_say("%s: programmatic dependencies (edge data of type "
                       "cudaGraphDependencyTypeProgrammatic) are not supported by lockstep: "
                       "use default edges",
                       who);
            return cudaErrorNotSupported;
        }
        cudart_say("%s: edge data %zu is not a default edge (ports %u and %u, type %u): lockstep "
                   "runs default edges only",
                   who, i, d->from_port, d->to_port, d->type);
        return d->type > cudaGraphDependencyTypeProgrammatic ? cudaErrorInvalidValue
                                                             : cudaErrorNotSupported;
    }
    return cudaSuccess;
}

/* Begin a capture on s, into a new graph or, for
 * cudaStreamBeginCaptureToGraph, into the program's graph `into` after its
 * nodes deps. */
static cudaError_t begin_capture(cudaStream_t s, int mode, graph *into, const cudaGraphNode_t *deps,
                                 size_t ndeps)
{
    if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
        return cudaErrorInvalidValue;
    if (!user_stream(s)) {
        cudart_say("cudaStreamBeginCapture: the legacy default stream cannot be captured; "
                   "capture a stream created with cudaStreamCreate or cudaStreamPerThread");
        return cudaErrorStreamCaptureUnsupported;
    }
    if (cap_of(s))
        return cudaErrorIllegalState;
    if (ndeps && !deps)
        return cudaErrorInvalidValue;
    uint32_t *tail = malloc((ndeps ? ndeps : 1) * sizeof *tail);
    if (!tail)
        return cudaErrorMemoryAllocation;
    for (size_t i = 0; i < ndeps; i++) {
        node *d = node_of(deps[i]);
        if (!d || d->g != into) {
            free(tail);
            return cudaErrorInvalidValue;
        }
        tail[i] = d->index;
    }
    cudaError_t e = cudaErrorMemoryAllocation;
    capture *c = NULL;
    if (ncaptures == capcaptures) {
        uint32_t n = capcaptures ? 2 * capcaptures : 4;
        capture **v = realloc(captures, n * sizeof *v);
        if (!v)
            goto fail;
        captures = v;
        capcaptures = n;
    }
    if (!(c = calloc(1, sizeof *c)) || !(c->g = into ? into : graph_new(1)))
        goto fail;
    c->to_graph = into != NULL;
    c->id = next_capture_id++;
    c->origin = s;
    c->mode = mode;
    captures[ncaptures++] = c;
    if (!join(c, s, tail, (uint32_t)ndeps)) {
        if (!c->to_graph)
            graph_free(c->g);
        capture_end(c);
        c = NULL;
        goto fail;
    }
    free(tail);
    return cudaSuccess;
fail:
    free(c);
    free(tail);
    return e;
}

/* End the capture s began (its graph in *pGraph, which only a capture into
 * the program's own graph may leave NULL). */
static cudaError_t end_capture(cudaStream_t s, cudaGraph_t *pGraph)
{
    cap_stream *cs = cap_of(s);
    if (!cs)
        return pGraph ? cudaErrorIllegalState : cudaErrorInvalidValue;
    capture *c = cs->cap;
    if (!pGraph && !c->to_graph)
        return cudaErrorInvalidValue;
    if (c->origin != s)
        return cudaErrorStreamCaptureUnmatched;
    cudaError_t e = cudaSuccess;
    if (c->invalid) {
        e = cudaErrorStreamCaptureInvalidated;
    } else {
        /* every stream forked into the capture must have joined back: its
         * last work must be something the origin's last work depends on */
        for (uint32_t i = 0; i < c->nstreams && !e; i++) {
            const cap_stream *o = c->streams[i];
            if (o != cs && !reaches(c->g, cs->tail, cs->ntail, o->tail, o->ntail))
                e = cudaErrorStreamCaptureUnjoined;
        }
    }
    if (e && !c->to_graph)
        graph_free(c->g); /* a capture into the program's graph leaves what it added */
    if (pGraph)
        *pGraph = e ? NULL : c->g->handle;
    capture_end(c);
    return e;
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
    return cudart_leave(begin_capture(stream, mode, NULL, NULL, 0));
}

CUDART_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph_h,
                                                     const cudaGraphNode_t *dependencies,
                                                     const void *dependencyData,
                                                     size_t numDependencies, int mode)
{
    API_ENTER();
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    graph *g = graph_of(graph_h);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    cudaError_t e = check_edges(dependencyData, numDependencies, "cudaStreamBeginCaptureToGraph");
    if (e)
        return cudart_leave(e);
    return cudart_leave(begin_capture(stream, mode, g, dependencies, numDependencies));
}

CUDART_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph_h,
                                                          const cudaGraphNode_t *dependencies,
                                                          const void *dependencyData,
                                                          size_t numDependencies, int mode)
{
    return cudaStreamBeginCaptureToGraph(cudart_ptsz(stream), graph_h, dependencies, dependencyData,
                                         numDependencies, mode);
}

/* Replace (cudaStreamSetCaptureDependencies) or add to
 * (cudaStreamAddCaptureDependencies) the nodes a capturing stream's next
 * operation will depend on: nodes of the capture's graph, such as one the
 * program added itself (a conditional node, say). */
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                           cudaGraphNode_t *dependencies,
                                                           const void *dependencyData,
                                                           size_t numDependencies,
                                                           unsigned int flags)
{
    API_ENTER();
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    cap_stream *cs = cap_of(stream);
    if (!cs)
        return cudart_leave(cudaErrorIllegalState);
    if (cs->cap->invalid)
        return cudart_leave(cudaErrorStreamCaptureInvalidated);
    if ((flags != cudaStreamAddCaptureDependencies && flags != cudaStreamSetCaptureDependencies) ||
        (numDependencies && !dependencies))
        return cudart_leave(cudaErrorInvalidValue);
    cudaError_t e =
        check_edges(dependencyData, numDependencies, "cudaStreamUpdateCaptureDependencies");
    if (e)
        return cudart_leave(e);
    size_t keep = flags == cudaStreamAddCaptureDependencies ? cs->ntail : 0;
    uint32_t *t = malloc((keep + numDependencies + 1) * sizeof *t);
    if (!t)
        return cudart_leave(cudaErrorMemoryAllocation);
    if (keep)
        memcpy(t, cs->tail, keep * sizeof *t);
    size_t n = keep;
    for (size_t i = 0; i < numDependencies; i++) {
        node *d = node_of(dependencies[i]);
        if (!d || d->g != cs->cap->g) {
            free(t);
            return cudart_leave(cudaErrorInvalidValue);
        }
        size_t j = 0;
        while (j < n && t[j] != d->index)
            j++;
        if (j == n)
            t[n++] = d->index;
    }
    int bad = set_tail(cs, t, (uint32_t)n);
    free(t);
    return cudart_leave(bad ? cudaErrorMemoryAllocation : cudaSuccess);
}

CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                cudaGraphNode_t *dependencies,
                                                                const void *dependencyData,
                                                                size_t numDependencies,
                                                                unsigned int flags)
{
    return cudaStreamUpdateCaptureDependencies(cudart_ptsz(stream), dependencies, dependencyData,
                                               numDependencies, flags);
}

CUDART_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, int mode)
{
    return cudaStreamBeginCapture(cudart_ptsz(stream), mode);
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
    return cudaStreamEndCapture(cudart_ptsz(stream), pGraph);
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
    return cudaStreamIsCapturing(cudart_ptsz(stream), pCaptureStatus);
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
    return cudaStreamGetCaptureInfo(cudart_ptsz(stream), captureStatus_out, id_out, graph_out,
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

/* Whether a capture in progress records into g or into a graph inside it. */
static int capturing_into(const graph *g)
{
    for (uint32_t i = 0; i < ncaptures; i++)
        for (const graph *x = captures[i]->g; x; x = graph_above(x))
            if (x == g)
                return 1;
    return 0;
}

CUDART_API cudaError_t cudaGraphDestroy(cudaGraph_t h)
{
    API_ENTER();
    graph *g = graph_of(h);
    if (!g || g->owned) /* a child graph or a body is its node's to free */
        return cudart_leave(cudaErrorInvalidValue);
    if (capturing_into(g))
        return cudart_leave(cudaErrorIllegalState); /* still being captured into */
    graph_free(g);
    return cudart_leave(cudaSuccess);
}

/* What cannot be cloned (cudaGraphClone, a child graph node), and why. */
static cudaError_t check_clonable(const graph *g, const char *who)
{
    if (has_mem_nodes(g)) {
        cudart_say("%s: a graph holding memory nodes cannot be cloned (CUDA's rule: its "
                   "allocations' addresses are its own)%s",
                   who,
                   strcmp(who, "cudaGraphClone") ? "; move it into the child graph node "
                                                   "(cudaGraphAddNode with "
                                                   "cudaGraphChildGraphOwnershipMove)"
                                                 : "");
        return cudaErrorNotSupported;
    }
    if (has_cond_nodes(g)) {
        cudart_say("%s: a graph holding conditional nodes cannot be cloned%s", who,
                   strcmp(who, "cudaGraphClone") ? " or become a child graph" : "");
        return cudaErrorNotSupported;
    }
    return cudaSuccess;
}

CUDART_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph)
{
    if (!pGraphClone)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_of(originalGraph);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    cudaError_t e = check_clonable(g, "cudaGraphClone");
    if (e)
        return cudart_leave(e);
    graph *c = graph_copy(g, 1);
    if (!c)
        return cudart_leave(cudaErrorMemoryAllocation);
    *pGraphClone = c->handle;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                        cudaGraph_t graph_h,
                                                        unsigned int defaultLaunchValue,
                                                        unsigned int flags)
{
    if (!pHandle_out || (flags & ~(unsigned)cudaGraphCondAssignDefault))
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    graph *g = graph_of(graph_h);
    if (!g)
        return cudart_leave(cudaErrorInvalidValue);
    gcond *c;
    cudaError_t e = gcond_new(g->id, defaultLaunchValue, flags, &c);
    if (e)
        return cudart_leave(e);
    int bad = keep_cond(g, c);
    gcond_unref(c); /* the graph's reference, or none */
    if (bad)
        return cudart_leave(cudaErrorMemoryAllocation);
    *pHandle_out = gcond_handle(c);
    return cudart_leave(cudaSuccess);
}

/* Drop the node just added (its parameters were refused). */
static void add_undo(node *nd)
{
    nd->g->n--;
    nd->type = cudaGraphNodeTypeEmpty;
    node_free(nd);
}

/* ---- each type's parameters (lock held) ------------------------------------------------
 * Each sets new node nd of g (its type still empty) from the parameters of
 * cudaGraphAddNode; the typed cudaGraphAdd*Node functions come here too. */

/* A child graph node's graph: a copy of `child`, or `child` itself moved
 * into the node. */
static cudaError_t set_child(graph *g, node *nd, graph *child, int ownership, const char *who)
{
    if (!child || graph_within(g, child->id))
        return cudaErrorInvalidValue; /* none, or the graph itself or one it lies in */
    cudaError_t e = cudaSuccess;
    if (ownership == cudaGraphChildGraphOwnershipClone) {
        if ((e = check_clonable(child, who)) || (in_body(g) && (e = check_body(child, who))))
            return e;
        if (!(child = graph_copy(child, 0)))
            return cudaErrorMemoryAllocation;
    } else if (ownership == cudaGraphChildGraphOwnershipMove) {
        if (child->owned) {
            cudart_say("%s: the graph to move belongs to a node already", who);
            return cudaErrorInvalidValue;
        }
        if (capturing_into(child)) {
            cudart_say("%s: the graph to move is being captured into", who);
            return cudaErrorInvalidValue;
        }
        if (has_cond_nodes(child)) {
            cudart_say("%s: a graph holding conditional nodes cannot become a child graph", who);
            return cudaErrorNotSupported;
        }
        if (in_body(g) && (e = check_body(child, who)))
            return e;
        if (has_mem_nodes(child) && (g->owned || child->nexecs)) {
            cudart_say("%s: %s", who,
                       g->owned ? "a child graph node's graph cannot get memory nodes, not even "
                                  "in a graph moved into it"
                                : "a graph holding memory nodes that has an executable graph "
                                  "cannot be moved: destroy the executable graph first");
            return cudaErrorInvalidValue;
        }
        child->moved = 1;
    } else {
        return cudaErrorInvalidValue;
    }
    child->owned = 1;
    child->parent = nd;
    nd->u.child = child;
    return cudaSuccess;
}

/* The parameters of an allocation node lockstep can make: device memory of
 * device 0, read-write for it, with no IPC handles. */
static cudaError_t check_alloc_params(const struct cudaMemAllocNodeParams *p, const char *who)
{
    const struct cudaMemPoolProps *pp = &p->poolProps;
    if (p->bytesize == 0 || pp->allocType != cudaMemAllocationTypePinned ||
        pp->handleTypes != cudaMemHandleTypeNone || p->accessDescCount > 1 ||
        (p->accessDescCount && !p->accessDescs))
        return cudaErrorInvalidValue; /* one device: at most one access descriptor */
    if (pp->location.type != cudaMemLocationTypeDevice) {
        /* host, a host NUMA node, or the current thread's (CUDA 13: 2, 3, 4) */
        if (pp->location.type >= cudaMemLocationTypeHost && pp->location.type <= 4) {
            cudart_say("%s: graph allocations in host memory are not supported by lockstep: "
                       "allocate device memory",
                       who);
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

/* An allocation node: its addresses now, its address in p->dptr. */
static cudaError_t set_alloc(graph *g, node *nd, struct cudaMemAllocNodeParams *p, const char *who)
{
    cudaError_t e = check_alloc_params(p, who);
    if (e)
        return e;
    size_t n = p->accessDescCount;
    struct cudaMemAccessDesc *access = n ? malloc(n * sizeof *access) : NULL;
    if (n && !access)
        return cudaErrorMemoryAllocation;
    if (n)
        memcpy(access, p->accessDescs, n * sizeof *access);
    if ((e = place_alloc(g, nd, p->bytesize))) {
        free(access);
        return e;
    }
    nd->u.alloc.props = p->poolProps;
    nd->u.alloc.access = access;
    nd->u.alloc.naccess = n;
    p->dptr = (void *)(uintptr_t)nd->u.alloc.blk->addr;
    return cudaSuccess;
}

/* The largest SWITCH node lockstep makes (each body is a graph). */
#define SWITCH_MAX 65536u

/* A conditional node of g testing p->handle: its empty bodies, made now
 * (their handles in p->phGraph_out, an array the node owns). */
static cudaError_t set_cond(graph *g, node *nd, struct cudaConditionalNodeParams *p,
                            const char *who)
{
    gcond *c = gcond_find(p->handle);
    if (!c) {
        cudart_say("%s: 0x%llx is not a conditional handle (cudaGraphConditionalHandleCreate "
                   "makes them)",
                   who, (unsigned long long)p->handle);
        return cudaErrorInvalidValue;
    }
    if (!graph_within(g, c->graph)) {
        cudart_say("%s: the conditional handle 0x%llx was made for another graph: a conditional "
                   "node goes in the graph its handle was made for, or in a graph inside it",
                   who, (unsigned long long)p->handle);
        return cudaErrorInvalidValue;
    }
    uint32_t n = p->size;
    int ok = p->type == cudaGraphCondTypeIf       ? n == 1 || n == 2
             : p->type == cudaGraphCondTypeWhile  ? n == 1
             : p->type == cudaGraphCondTypeSwitch ? n >= 1
                                                  : 0;
    if (!ok) {
        cudart_say("%s: a conditional node of type %d with %u bodies (IF takes 1 or 2, WHILE 1, "
                   "SWITCH 1 or more)",
                   who, p->type, n);
        return cudaErrorInvalidValue;
    }
    if (n > SWITCH_MAX) {
        cudart_say("%s: a SWITCH node of %u bodies: lockstep makes at most %u", who, n,
                   SWITCH_MAX);
        return cudaErrorNotSupported;
    }
    graph **body = calloc(n, sizeof *body);
    cudaGraph_t *out = calloc(n, sizeof *out);
    uint32_t k = 0;
    if (body && out)
        for (; k < n && (body[k] = graph_new(1)); k++) {
            body[k]->owned = body[k]->body = 1;
            body[k]->parent = nd;
            out[k] = body[k]->handle;
        }
    if (k < n) {
        while (k-- > 0)
            graph_free(body[k]);
        free(body);
        free(out);
        return cudaErrorMemoryAllocation;
    }
    nd->u.cond.cond = c;
    nd->u.cond.ctype = p->type;
    nd->u.cond.size = n;
    nd->u.cond.body = body;
    nd->u.cond.out = out;
    gcond_ref(c);
    p->phGraph_out = out;
    return cudaSuccess;
}

/* Whether an event node may name e. */
static cudaError_t check_event(cudaEvent_t e)
{
    return cudart_handle_live(e, H_EVENT) ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

/* The common body of every way to add a node: a node of g after deps with
 * the parameters p (its type p->type), whose out fields (an allocation's
 * address, a conditional node's bodies) are filled in; lock held. */
static cudaError_t add_params(graph *g, const cudaGraphNode_t *deps, size_t ndeps,
                              struct cudaGraphNodeParams *p, const char *who, node **out)
{
    if (!g)
        return cudaErrorInvalidValue;
    int type = p->type;
    cudaError_t e = node_allowed(g, type, who);
    node *nd;
    if (e || (e = node_new(g, cudaGraphNodeTypeEmpty, deps, ndeps, &nd)))
        return e;
    switch (type) {
    case cudaGraphNodeTypeKernel: {
        const struct cudaKernelNodeParamsV2 *k = &p->kernel;
        struct cudaKernelNodeParams kp = {k->func, k->gridDim, k->blockDim, k->sharedMemBytes,
                                          k->kernelParams, k->extra};
        e = set_kernel(nd, &kp);
        break;
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags || p->memcpy.reserved[0] || p->memcpy.reserved[1] ||
            p->memcpy.reserved[2]) {
            e = cudaErrorInvalidValue;
        } else if (in_body(g) &&
                   (p->memcpy.copyParams.srcArray || p->memcpy.copyParams.dstArray)) {
            cudart_say("%s: a copy in a conditional node's body cannot read or write a CUDA "
                       "array",
                       who);
            e = cudaErrorNotSupported;
        } else {
            nd->u.copy = p->memcpy.copyParams;
        }
        break;
    case cudaGraphNodeTypeMemset: {
        const struct cudaMemsetParamsV2 *m = &p->memset;
        struct cudaMemsetParams sp = {m->dst, m->pitch, m->value, m->elementSize, m->width,
                                      m->height};
        if (!(e = check_memset(&sp)))
            nd->u.set = sp;
        break;
    }
    case cudaGraphNodeTypeHost:
        if (!p->host.fn)
            e = cudaErrorInvalidValue;
        else
            nd->u.host = (struct cudaHostNodeParams){p->host.fn, p->host.userData};
        break;
    case cudaGraphNodeTypeGraph:
        e = set_child(g, nd, graph_of(p->graph.graph), p->graph.ownership, who);
        break;
    case cudaGraphNodeTypeEmpty: break;
    case cudaGraphNodeTypeWaitEvent:
    case cudaGraphNodeTypeEventRecord: {
        cudaEvent_t ev = type == cudaGraphNodeTypeWaitEvent ? p->eventWait.event
                                                            : p->eventRecord.event;
        if (!(e = check_event(ev)))
            nd->u.event = ev;
        break;
    }
    case cudaGraphNodeTypeExtSemaphoreSignal:
    case cudaGraphNodeTypeExtSemaphoreWait:
        cudart_say("%s: external semaphore nodes are not supported by lockstep (it has no "
                   "external semaphores)",
                   who);
        e = cudaErrorNotSupported;
        break;
    case cudaGraphNodeTypeMemAlloc:
        e = set_alloc(g, nd, (struct cudaMemAllocNodeParams *)&p->alloc, who);
        break;
    case cudaGraphNodeTypeMemFree: e = set_free(g, nd, p->free.dptr, who); break;
    case cudaGraphNodeTypeConditional: e = set_cond(g, nd, &p->conditional, who); break;
    default:
        cudart_say("%s: %d is not a node type", who, type);
        e = cudaErrorInvalidValue;
        break;
    }
    if (e) {
        add_undo(nd);
        return e;
    }
    nd->type = type;
    *out = nd;
    return cudaSuccess;
}

/* A typed cudaGraphAdd*Node: the same as cudaGraphAddNode with p. */
static cudaError_t add_typed(cudaGraphNode_t *pNode, cudaGraph_t h, const cudaGraphNode_t *deps,
                             size_t ndeps, struct cudaGraphNodeParams *p, const char *who)
{
    if (!pNode)
        return cudart_error(cudaErrorInvalidValue);
    API_ENTER();
    node *nd;
    cudaError_t e = add_params(graph_of(h), deps, ndeps, p, who, &nd);
    if (!e)
        *pNode = nd->handle;
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                        const cudaGraphNode_t *pDependencies,
                                        const void *dependencyData, size_t numDependencies,
                                        struct cudaGraphNodeParams *nodeParams)
{
    if (!nodeParams)
        return cudart_error(cudaErrorInvalidValue);
    if (nodeParams->reserved0[0] || nodeParams->reserved0[1] || nodeParams->reserved0[2] ||
        nodeParams->reserved2) {
        cudart_say("cudaGraphAddNode: the reserved fields of cudaGraphNodeParams must be zero");
        return cudart_error(cudaErrorInvalidValue);
    }
    cudaError_t e = check_edges(dependencyData, numDependencies, "cudaGraphAddNode");
    if (e)
        return cudart_error(e);
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, nodeParams,
                     "cudaGraphAddNode");
}

CUDART_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaKernelNodeParams *pNodeParams)
{
    if (!pNodeParams)
        return cudart_error(cudaErrorInvalidValue);
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeKernel};
    p.kernel = (struct cudaKernelNodeParamsV2){pNodeParams->func,           pNodeParams->gridDim,
                                               pNodeParams->blockDim,
                                               pNodeParams->sharedMemBytes,
                                               pNodeParams->kernelParams, pNodeParams->extra};
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddKernelNode");
}

CUDART_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaMemcpy3DParms *pCopyParams)
{
    if (!pCopyParams)
        return cudart_error(cudaErrorInvalidValue);
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeMemcpy};
    p.memcpy.copyParams = *pCopyParams;
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddMemcpyNode");
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
    const struct cudaMemsetParams *m = pMemsetParams;
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeMemset};
    p.memset = (struct cudaMemsetParamsV2){m->dst,         m->pitch, m->value,
                                           m->elementSize, m->width, m->height};
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddMemsetNode");
}

CUDART_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies,
                                            const struct cudaHostNodeParams *pNodeParams)
{
    if (!pNodeParams || !pNodeParams->fn)
        return cudart_error(cudaErrorInvalidValue);
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeHost};
    p.host = (struct cudaHostNodeParamsV2){pNodeParams->fn, pNodeParams->userData};
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddHostNode");
}

CUDART_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, cudaGraph_t childGraph)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeGraph};
    p.graph = (struct cudaChildGraphNodeParams){childGraph, cudaGraphChildGraphOwnershipClone};
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddChildGraphNode");
}

CUDART_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeEmpty};
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddEmptyNode");
}

CUDART_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode,
                                                   cudaGraph_t graph_h,
                                                   const cudaGraphNode_t *pDependencies,
                                                   size_t numDependencies, cudaEvent_t event)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeEventRecord};
    p.eventRecord.event = event;
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddEventRecordNode");
}

CUDART_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                 const cudaGraphNode_t *pDependencies,
                                                 size_t numDependencies, cudaEvent_t event)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeWaitEvent};
    p.eventWait.event = event;
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddEventWaitNode");
}

CUDART_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                const cudaGraphNode_t *pDependencies,
                                                size_t numDependencies,
                                                struct cudaMemAllocNodeParams *nodeParams)
{
    if (!nodeParams)
        return cudart_error(cudaErrorInvalidValue);
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeMemAlloc};
    memcpy(&p.alloc, nodeParams, sizeof p.alloc); /* the same layout */
    cudaError_t e = add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                              "cudaGraphAddMemAllocNode");
    if (!e)
        nodeParams->dptr = p.alloc.dptr;
    return e;
}

CUDART_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                               const cudaGraphNode_t *pDependencies,
                                               size_t numDependencies, void *dptr)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeMemFree};
    p.free.dptr = dptr;
    return add_typed(pGraphNode, graph_h, pDependencies, numDependencies, &p,
                     "cudaGraphAddMemFreeNode");
}

CUDART_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph_h, const cudaGraphNode_t *from,
                                                const cudaGraphNode_t *to, const void *edgeData,
                                                size_t numDependencies)
{
    cudaError_t e = check_edges(edgeData, numDependencies, "cudaGraphAddDependencies");
    if (e)
        return cudart_error(e);
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
    if (nd && in_body(nd->g) && (p->srcArray || p->dstArray)) {
        cudart_say("cudaGraphMemcpyNodeSetParams: a copy in a conditional node's body cannot "
                   "read or write a CUDA array");
        return cudart_leave(cudaErrorNotSupported);
    }
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

/* Whether g itself has a dependency cycle. */
static int cyclic(const graph *g)
{
    int cycle = 0;
    free(topo_order(g, &cycle));
    return cycle;
}

/* Whether a child graph or a conditional node's body, at any depth, has a
 * dependency cycle. */
static int children_cyclic(const graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        const node *nd = g->nodes[i];
        if (nd->type == cudaGraphNodeTypeGraph &&
            (cyclic(nd->u.child) || children_cyclic(nd->u.child)))
            return 1;
        for (uint32_t b = 0; nd->type == cudaGraphNodeTypeConditional && b < nd->u.cond.size; b++)
            if (cyclic(nd->u.cond.body[b]) || children_cyclic(nd->u.cond.body[b]))
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
    if (g->nexecs && !g->owned) {
        cudart_say("cudaGraphInstantiate: a graph holding memory nodes can have one executable "
                   "graph at a time; destroy the other first");
        return cudaErrorInvalidValue;
    }
    for (uint32_t i = 0; i < g->n; i++) {
        const node *f = g->nodes[i];
        if (f->type == cudaGraphNodeTypeGraph && has_mem_nodes(f->u.child)) {
            cudaError_t e = check_mem_graph(f->u.child); /* a graph moved into its node */
            if (e)
                return e;
        }
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
static cudaError_t free_earlier(const graph_exec *x, const graph *g)
{
    for (uint32_t i = 0; i < g->n; i++) {
        const node *nd = g->nodes[i];
        if (nd->type == cudaGraphNodeTypeGraph) { /* a graph moved into its node */
            cudaError_t e = free_earlier(x, nd->u.child);
            if (e)
                return e;
            continue;
        }
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
        const char *who = "cudaGraphLaunch in a stream capture";
        const cap_stream *cs = cap_of(stream);
        if (!cs->cap->invalid) {
            if (has_mem_nodes(x->g) || has_cond_nodes(x->g)) {
                cudart_say("%s: a graph holding %s nodes cannot become a child graph node", who,
                           has_mem_nodes(x->g) ? "memory" : "conditional");
                graph_capture_refuse(stream);
                return cudart_leave(cudaErrorNotSupported);
            }
            if (in_body(cs->cap->g) && check_body(x->g, who)) {
                graph_capture_refuse(stream);
                return cudart_leave(cudaErrorStreamCaptureUnsupported);
            }
        }
        node *nd;
        cudaError_t e = capture_node(stream, cudaGraphNodeTypeGraph, &nd);
        if (e)
            return cudart_leave(e);
        nd->type = cudaGraphNodeTypeEmpty; /* until it has its graph */
        if (!(nd->u.child = graph_copy(x->g, 0))) {
            capture_undo(stream, nd);
            return cudart_leave(cudaErrorMemoryAllocation);
        }
        nd->u.child->owned = 1;
        nd->u.child->parent = nd;
        nd->type = cudaGraphNodeTypeGraph;
        return cudart_leave(cudaSuccess);
    }
    cudaError_t e = free_earlier(x, x->g);
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
    return cudaGraphLaunch(h, cudart_ptsz(stream));
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
    return cudaGraphUpload(h, cudart_ptsz(stream));
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
        else if (a->type == cudaGraphNodeTypeGraph || a->type == cudaGraphNodeTypeConditional) {
            cudart_say("cudaGraphExecUpdate: updating %s nodes is not supported by lockstep: "
                       "instantiate the graph again",
                       type_name(a->type));
            result = cudaGraphExecUpdateErrorNotSupported;
        }
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

/* ---- the generic setters ---------------------------------------------------------------
 * cudaGraphNodeSetParams and cudaGraphExecNodeSetParams take the node types
 * whose parameters the typed Set functions change (kernel, memcpy, memset,
 * host) and go through them; any other type is refused with a message. */

/* The typed form of p for the generic setters: 0, or an error said. */
static cudaError_t generic_params(const struct cudaGraphNodeParams *p, const char *who)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (p->reserved0[0] || p->reserved0[1] || p->reserved0[2] || p->reserved2) {
        cudart_say("%s: the reserved fields of cudaGraphNodeParams must be zero", who);
        return cudaErrorInvalidValue;
    }
    switch (p->type) {
    case cudaGraphNodeTypeKernel:
    case cudaGraphNodeTypeMemcpy:
    case cudaGraphNodeTypeMemset:
    case cudaGraphNodeTypeHost: return cudaSuccess;
    default:
        if (p->type < 0 || p->type > cudaGraphNodeTypeConditional) {
            cudart_say("%s: %d is not a node type", who, p->type);
            return cudaErrorInvalidValue;
        }
        cudart_say("%s: changing the parameters of %s nodes is not supported by lockstep (only "
                   "kernel, memcpy, memset and host nodes)",
                   who, type_name(p->type));
        return cudaErrorNotSupported;
    }
}

static struct cudaKernelNodeParams kernel_v1(const struct cudaKernelNodeParamsV2 *k)
{
    return (struct cudaKernelNodeParams){k->func,           k->gridDim,      k->blockDim,
                                         k->sharedMemBytes, k->kernelParams, k->extra};
}

static struct cudaMemsetParams memset_v1(const struct cudaMemsetParamsV2 *m)
{
    return (struct cudaMemsetParams){m->dst, m->pitch, m->value, m->elementSize, m->width,
                                     m->height};
}

CUDART_API cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node_h,
                                              struct cudaGraphNodeParams *nodeParams)
{
    cudaError_t e = generic_params(nodeParams, "cudaGraphNodeSetParams");
    if (e)
        return cudart_error(e);
    const struct cudaGraphNodeParams *p = nodeParams;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = kernel_v1(&p->kernel);
        return cudaGraphKernelNodeSetParams(node_h, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags)
            return cudart_error(cudaErrorInvalidValue);
        return cudaGraphMemcpyNodeSetParams(node_h, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = memset_v1(&p->memset);
        return cudaGraphMemsetNodeSetParams(node_h, &m);
    }
    default: {
        struct cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphHostNodeSetParams(node_h, &h);
    }
    }
}

CUDART_API cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                  struct cudaGraphNodeParams *nodeParams)
{
    cudaError_t e = generic_params(nodeParams, "cudaGraphExecNodeSetParams");
    if (e)
        return cudart_error(e);
    const struct cudaGraphNodeParams *p = nodeParams;
    switch (p->type) {
    case cudaGraphNodeTypeKernel: {
        struct cudaKernelNodeParams k = kernel_v1(&p->kernel);
        return cudaGraphExecKernelNodeSetParams(hx, node_h, &k);
    }
    case cudaGraphNodeTypeMemcpy:
        if (p->memcpy.flags)
            return cudart_error(cudaErrorInvalidValue);
        return cudaGraphExecMemcpyNodeSetParams(hx, node_h, &p->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
        struct cudaMemsetParams m = memset_v1(&p->memset);
        return cudaGraphExecMemsetNodeSetParams(hx, node_h, &m);
    }
    default: {
        struct cudaHostNodeParams h = {p->host.fn, p->host.userData};
        return cudaGraphExecHostNodeSetParams(hx, node_h, &h);
    }
    }
}
