/*
 * test_cdp.c -- dynamic parallelism through the C API: hand-written PTX
 * calling CUDA's device runtime (exec/devrt.c), the names nvcc 12 and
 * later emit (__cudaCDP2GetParameterBufferV2, __cudaCDP2LaunchDeviceV2,
 * ...) and the ones the programming guide gives for PTX
 * (cudaGetParameterBuffer, cudaLaunchDevice).  Every case runs in
 * functional mode, in timing mode on 1 and on 2 host threads, and under
 * GPUDet and DAB, and must print and compute the same there, with the
 * same statistics on 1 and 2 threads.
 *
 * Checks:
 *   - tree: a kernel that launches itself from each of its two threads,
 *     three levels deep, printing as it goes: the exact text, in the order
 *     lockstep's schedule gives (each child grid, with its own children,
 *     after its parent, in launching-thread order), and the launch's
 *     statistics (device_launches 6, 7 CTAs, 14 threads);
 *   - order: children of two CTAs in the NULL stream, a named stream, the
 *     fire-and-forget stream and the tail-launch stream, and a tail launch
 *     that launches and tail-launches again: the order they ran in;
 *   - the older cudaGetParameterBuffer / cudaLaunchDevice pair;
 *   - errors returned to device code, and each thread's last error: a bad
 *     block shape (cudaErrorInvalidConfiguration), a bad stream, something
 *     that is not a kernel, a buffer launched twice, stream flags, a
 *     destroyed stream, cudaGetErrorString, cudaDeviceGetAttribute without
 *     a CUDA runtime to answer it; the nesting depth limit
 *     (-lockstep_cdp_max_depth) and the pending launch limit
 *     (-lockstep_cdp_pending_launches);
 *   - device-side cudaMemcpyAsync, cudaMemsetAsync, cudaMalloc, cudaFree;
 *   - what stops the launch, with a message: a child grid that faults
 *     (named as launched from device code), a device-side copy from memory
 *     that is not there, a device-runtime function lockstep does not
 *     provide, device-side cudaDeviceSynchronize, and a launch under
 *     redundant execution (-lockstep_redundancy dmr).
 */
#include <stdlib.h>

#include "e2e.h"

#define HDR ".version 8.0\n.target sm_75\n.address_size 64\n"

#define DECLS                                                                              \
    ".extern .func (.param .b64 r) __cudaCDP2GetParameterBufferV2(.param .b64 f, .param "  \
    ".align 4 .b8 g[12], .param .align 4 .b8 b[12], .param .b32 s);\n"                    \
    ".extern .func (.param .b32 r) __cudaCDP2LaunchDeviceV2(.param .b64 p, .param .b64 "   \
    "s);\n"                                                                                \
    ".extern .func (.param .b32 r) __cudaCDP2GetLastError();\n"                            \
    ".extern .func (.param .b32 r) __cudaCDP2PeekAtLastError();\n"                         \
    ".extern .func (.param .b64 r) cudaGetParameterBuffer(.param .b64 a, .param .b64 s);\n" \
    ".extern .func (.param .b32 r) cudaLaunchDevice(.param .b64 f, .param .b64 p, .param " \
    ".align 4 .b8 g[12], .param .align 4 .b8 b[12], .param .b32 s, .param .b64 t);\n"      \
    ".extern .func (.param .b32 r) __cudaCDP2StreamCreateWithFlags(.param .b64 p, .param " \
    ".b32 f);\n"                                                                           \
    ".extern .func (.param .b32 r) __cudaCDP2StreamDestroy(.param .b64 s);\n"              \
    ".extern .func (.param .b64 r) __cudaCDP2GetErrorString(.param .b32 e);\n"             \
    ".extern .func (.param .b32 r) __cudaCDP2DeviceGetAttribute(.param .b64 p, .param "    \
    ".b32 a, .param .b32 d);\n"                                                            \
    ".extern .func (.param .b32 r) __cudaCDP2MemcpyAsync(.param .b64 d, .param .b64 s, "   \
    ".param .b64 n, .param .b32 k, .param .b64 t);\n"                                      \
    ".extern .func (.param .b32 r) __cudaCDP2MemsetAsync(.param .b64 d, .param .b32 v, "   \
    ".param .b64 n, .param .b64 t);\n"                                                     \
    ".extern .func (.param .b32 r) __cudaCDP2Malloc(.param .b64 p, .param .b64 n);\n"      \
    ".extern .func (.param .b32 r) __cudaCDP2Free(.param .b64 p);\n"                       \
    ".extern .func (.param .b32 r) __cudaCDP2Memcpy3DAsync(.param .b64 p, .param .b64 "    \
    "s);\n"                                                                                \
    ".extern .func (.param .b32 r) cudaDeviceSynchronize();\n"                             \
    ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n"

#define REGS                                                                               \
    "    .reg .pred %p<10>;\n    .reg .b32 %r<100>;\n    .reg .b64 %rd<100>;\n"

/* %rd90 = a parameter buffer for function address %rd89 with grid (G,1,1)
 * and block (B,1,1) */
#define GETBUF_AT(G, B)                                                                    \
    "    { .param .b64 gf; .param .align 4 .b8 gg[12]; .param .align 4 .b8 gb[12];\n"      \
    "      .param .b32 gs; .param .b64 gr;\n"                                              \
    "      st.param.b64 [gf], %rd89;\n"                                                    \
    "      st.param.b32 [gg], " G "; st.param.b32 [gg+4], 1; st.param.b32 [gg+8], 1;\n"    \
    "      st.param.b32 [gb], " B "; st.param.b32 [gb+4], 1; st.param.b32 [gb+8], 1;\n"    \
    "      st.param.b32 [gs], 0;\n"                                                        \
    "      call.uni (gr), __cudaCDP2GetParameterBufferV2, (gf, gg, gb, gs);\n"             \
    "      ld.param.b64 %rd90, [gr]; }\n"
#define GETBUF(K, G, B) "    mov.u64 %rd89, " K ";\n" GETBUF_AT(G, B)
/* %r90 = cudaLaunchDeviceV2(%rd90, stream S) */
#define LAUNCH(S)                                                                          \
    "    { .param .b64 lp; .param .b64 ls; .param .b32 lr;\n"                              \
    "      st.param.b64 [lp], %rd90; st.param.b64 [ls], " S ";\n"                          \
    "      call.uni (lr), __cudaCDP2LaunchDeviceV2, (lp, ls);\n"                           \
    "      ld.param.b32 %r90, [lr]; }\n"
/* rec's arguments: the log (%rd1) and value V */
#define REC_ARGS(V) "    st.u64 [%rd90], %rd1;\n    st.u32 [%rd90+8], " V ";\n"
/* %r91 = cudaGetLastError() / cudaPeekAtLastError() */
#define LASTERR(F)                                                                         \
    "    { .param .b32 er; call.uni (er), " F ", (); ld.param.b32 %r91, [er]; }\n"

/* rec(log, v): thread 0 appends v to log (log[0] counts, entries follow);
 * tree(depth, max, id): prints, and each thread launches tree(depth + 1,
 * max, 2 id + tid) until depth + 1 reaches max. */
static const char common_ptx[] =
    ".visible .entry rec(.param .u64 rec_log, .param .u32 rec_v)\n{\n" REGS
    "    mov.u32 %r1, %tid.x;\n"
    "    setp.ne.u32 %p1, %r1, 0;\n"
    "    @%p1 bra RDONE;\n"
    "    ld.param.u64 %rd1, [rec_log];\n"
    "    ld.param.u32 %r2, [rec_v];\n"
    "    atom.global.add.u32 %r3, [%rd1], 1;\n"
    "    mul.wide.u32 %rd2, %r3, 4;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    st.global.u32 [%rd3+4], %r2;\n"
    "RDONE:\n"
    "    ret;\n}\n"
    ".visible .entry tree(.param .u32 t_depth, .param .u32 t_max, .param .u32 t_id)\n{\n" REGS
    "    .local .align 8 .b8 pbuf[16];\n"
    "    ld.param.u32 %r1, [t_depth];\n"
    "    ld.param.u32 %r2, [t_max];\n"
    "    ld.param.u32 %r3, [t_id];\n"
    "    mov.u32 %r4, %tid.x;\n"
    "    st.local.u32 [pbuf], %r1;\n"
    "    st.local.u32 [pbuf+4], %r3;\n"
    "    st.local.u32 [pbuf+8], %r4;\n"
    "    mov.u64 %rd2, pbuf;\n"
    "    cvta.local.u64 %rd3, %rd2;\n"
    "    mov.u64 %rd4, tree_fmt;\n"
    "    cvta.global.u64 %rd5, %rd4;\n"
    "    { .param .b64 a0; .param .b64 a1; .param .b32 r0;\n"
    "      st.param.b64 [a0], %rd5; st.param.b64 [a1], %rd3;\n"
    "      call.uni (r0), vprintf, (a0, a1); }\n"
    "    add.u32 %r5, %r1, 1;\n"
    "    setp.ge.u32 %p1, %r5, %r2;\n"
    "    @%p1 bra TDONE;\n"
    "    shl.b32 %r6, %r3, 1;\n"
    "    add.u32 %r7, %r6, %r4;\n" GETBUF("tree", "1", "2")
    "    setp.eq.u64 %p2, %rd90, 0;\n"
    "    @%p2 bra TDONE;\n"
    "    st.u32 [%rd90], %r5;\n"
    "    st.u32 [%rd90+4], %r2;\n"
    "    st.u32 [%rd90+8], %r7;\n" LAUNCH("0")
    "TDONE:\n"
    "    ret;\n}\n";

/* "d%u id%u t%u\n" */
static const char tree_fmt[] =
    ".global .align 1 .b8 tree_fmt[14] = {100, 37, 117, 32, 105, 100, 37, 117, 32, 116, 37, "
    "117, 10, 0};\n"
    /* "%s\n" */
    ".global .align 1 .b8 s_fmt[4] = {37, 115, 10, 0};\n";

/* order(log, res): two CTAs of two threads.  CTA 0 thread 0 tail-launches
 * rec(100) and tail2 first; every thread launches rec(10 cta + tid) into
 * the NULL stream; CTA 0 thread 1 then rec(2) into a stream it creates
 * (res[0..2]: create, launch, destroy); CTA 1 thread 0 then rec(50) into
 * the fire-and-forget stream.  tail2(log) tail-launches rec(200), then
 * launches rec(150) into the NULL stream. */
static const char order_ptx[] =
    ".visible .entry order(.param .u64 o_log, .param .u64 o_res)\n{\n" REGS
    "    .local .align 8 .b8 sbuf[8];\n"
    "    ld.param.u64 %rd1, [o_log];\n"
    "    ld.param.u64 %rd2, [o_res];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mov.u32 %r2, %ctaid.x;\n"
    "    or.b32 %r3, %r1, %r2;\n"
    "    setp.ne.u32 %p1, %r3, 0;\n"
    "    @%p1 bra O1;\n" GETBUF("rec", "1", "1") REC_ARGS("100") LAUNCH("3")
        GETBUF("tail2", "1", "1") "    st.u64 [%rd90], %rd1;\n" LAUNCH("3")
    "O1:\n"
    "    mad.lo.u32 %r4, %r2, 10, %r1;\n" GETBUF("rec", "1", "1") REC_ARGS("%r4") LAUNCH("0")
    "    mad.lo.u32 %r5, %r2, 2, %r1;\n"
    "    setp.ne.u32 %p2, %r5, 1;\n"
    "    @%p2 bra O2;\n"
    "    mov.u64 %rd10, sbuf;\n"
    "    cvta.local.u64 %rd11, %rd10;\n"
    "    { .param .b64 sp; .param .b32 sf; .param .b32 sr;\n"
    "      st.param.b64 [sp], %rd11; st.param.b32 [sf], 1;\n"
    "      call.uni (sr), __cudaCDP2StreamCreateWithFlags, (sp, sf);\n"
    "      ld.param.b32 %r20, [sr]; }\n"
    "    st.u32 [%rd2], %r20;\n"
    "    ld.local.u64 %rd12, [sbuf];\n" GETBUF("rec", "1", "1") REC_ARGS("2") LAUNCH("%rd12")
    "    st.u32 [%rd2+4], %r90;\n"
    "    { .param .b64 dp; .param .b32 dr;\n"
    "      st.param.b64 [dp], %rd12;\n"
    "      call.uni (dr), __cudaCDP2StreamDestroy, (dp);\n"
    "      ld.param.b32 %r21, [dr]; }\n"
    "    st.u32 [%rd2+8], %r21;\n"
    "O2:\n"
    "    setp.ne.u32 %p3, %r2, 1;\n"
    "    setp.ne.u32 %p4, %r1, 0;\n"
    "    or.pred %p5, %p3, %p4;\n"
    "    @%p5 bra O3;\n" GETBUF("rec", "1", "1") REC_ARGS("50") LAUNCH("4")
    "O3:\n"
    "    ret;\n}\n"
    ".visible .entry tail2(.param .u64 t2_log)\n{\n" REGS
    "    ld.param.u64 %rd1, [t2_log];\n" GETBUF("rec", "1", "1") REC_ARGS("200") LAUNCH("3")
        GETBUF("rec", "1", "1") REC_ARGS("150") LAUNCH("0")
    "    ret;\n}\n";

/* v1(log, res): cudaGetParameterBuffer(64, 16), then cudaLaunchDevice of
 * rec(log, 7) with grid 1, block 32: res[0] the buffer's alignment ok,
 * res[1] the launch's result */
static const char v1_ptx[] =
    ".visible .entry v1(.param .u64 v_log, .param .u64 v_res)\n{\n" REGS
    "    ld.param.u64 %rd1, [v_log];\n"
    "    ld.param.u64 %rd2, [v_res];\n"
    "    { .param .b64 ba; .param .b64 bs; .param .b64 br;\n"
    "      st.param.b64 [ba], 64; st.param.b64 [bs], 16;\n"
    "      call.uni (br), cudaGetParameterBuffer, (ba, bs);\n"
    "      ld.param.b64 %rd90, [br]; }\n"
    "    and.b64 %rd3, %rd90, 63;\n"
    "    setp.eq.u64 %p1, %rd3, 0;\n"
    "    setp.ne.u64 %p2, %rd90, 0;\n"
    "    and.pred %p3, %p1, %p2;\n"
    "    selp.u32 %r1, 1, 0, %p3;\n"
    "    st.u32 [%rd2], %r1;\n" REC_ARGS("7")
    "    mov.u64 %rd89, rec;\n"
    "    { .param .b64 lf; .param .b64 lp; .param .align 4 .b8 lg[12]; .param .align 4 .b8 lb[12];\n"
    "      .param .b32 lsm; .param .b64 lst; .param .b32 lr;\n"
    "      st.param.b64 [lf], %rd89; st.param.b64 [lp], %rd90;\n"
    "      st.param.b32 [lg], 1; st.param.b32 [lg+4], 1; st.param.b32 [lg+8], 1;\n"
    "      st.param.b32 [lb], 32; st.param.b32 [lb+4], 1; st.param.b32 [lb+8], 1;\n"
    "      st.param.b32 [lsm], 0; st.param.b64 [lst], 0;\n"
    "      call.uni (lr), cudaLaunchDevice, (lf, lp, lg, lb, lsm, lst);\n"
    "      ld.param.b32 %r90, [lr]; }\n"
    "    st.u32 [%rd2+4], %r90;\n"
    "    ret;\n}\n";

/* errs(out, log), one thread; out[i] below */
static const char errs_ptx[] =
    ".visible .entry errs(.param .u64 e_out, .param .u64 e_log)\n{\n" REGS
    "    .local .align 8 .b8 ebuf[8];\n"
    "    ld.param.u64 %rd2, [e_out];\n"
    "    ld.param.u64 %rd1, [e_log];\n"
    /* 0-2: a block of 2048 threads; the last error, twice */
    GETBUF("rec", "1", "2048") REC_ARGS("1") LAUNCH("0")
    "    st.u32 [%rd2], %r90;\n" LASTERR("__cudaCDP2GetLastError")
    "    st.u32 [%rd2+4], %r91;\n" LASTERR("__cudaCDP2GetLastError")
    "    st.u32 [%rd2+8], %r91;\n"
    /* 3-6: a stream that is none; peek twice, get */
    GETBUF("rec", "1", "1") REC_ARGS("1") LAUNCH("4660")
    "    st.u32 [%rd2+12], %r90;\n" LASTERR("__cudaCDP2PeekAtLastError")
    "    st.u32 [%rd2+16], %r91;\n" LASTERR("__cudaCDP2PeekAtLastError")
    "    st.u32 [%rd2+20], %r91;\n" LASTERR("__cudaCDP2GetLastError")
    "    st.u32 [%rd2+24], %r91;\n"
    /* 7-8: a buffer for what is no kernel: NULL, and the error */
    "    mov.u64 %rd89, 66;\n" GETBUF_AT("1", "1")
    "    setp.eq.u64 %p1, %rd90, 0;\n"
    "    selp.u32 %r10, 1, 0, %p1;\n"
    "    st.u32 [%rd2+28], %r10;\n" LASTERR("__cudaCDP2GetLastError")
    "    st.u32 [%rd2+32], %r91;\n"
    /* 9: stream flags 0; 10: destroying a stream that is none */
    "    mov.u64 %rd10, ebuf;\n"
    "    cvta.local.u64 %rd11, %rd10;\n"
    "    { .param .b64 sp; .param .b32 sf; .param .b32 sr;\n"
    "      st.param.b64 [sp], %rd11; st.param.b32 [sf], 0;\n"
    "      call.uni (sr), __cudaCDP2StreamCreateWithFlags, (sp, sf);\n"
    "      ld.param.b32 %r20, [sr]; }\n"
    "    st.u32 [%rd2+36], %r20;\n"
    "    { .param .b64 dp; .param .b32 dr;\n"
    "      st.param.b64 [dp], 12345;\n"
    "      call.uni (dr), __cudaCDP2StreamDestroy, (dp);\n"
    "      ld.param.b32 %r21, [dr]; }\n"
    "    st.u32 [%rd2+40], %r21;\n"
    /* 11: cudaDeviceGetAttribute with no CUDA runtime to answer */
    "    { .param .b64 ap; .param .b32 aa; .param .b32 ad; .param .b32 ar;\n"
    "      st.param.b64 [ap], %rd11; st.param.b32 [aa], 1; st.param.b32 [ad], 0;\n"
    "      call.uni (ar), __cudaCDP2DeviceGetAttribute, (ap, aa, ad);\n"
    "      ld.param.b32 %r22, [ar]; }\n"
    "    st.u32 [%rd2+44], %r22;\n"
    /* 12-13: one buffer launched twice */
    GETBUF("rec", "1", "1") REC_ARGS("5") LAUNCH("0")
    "    st.u32 [%rd2+48], %r90;\n" LAUNCH("0")
    "    st.u32 [%rd2+52], %r90;\n"
    /* printf("%s\n", cudaGetErrorString(9)) */
    "    { .param .b32 ge; .param .b64 gr;\n"
    "      st.param.b32 [ge], 9;\n"
    "      call.uni (gr), __cudaCDP2GetErrorString, (ge);\n"
    "      ld.param.b64 %rd20, [gr]; }\n"
    "    st.local.u64 [ebuf], %rd20;\n"
    "    mov.u64 %rd21, s_fmt;\n"
    "    cvta.global.u64 %rd22, %rd21;\n"
    "    { .param .b64 a0; .param .b64 a1; .param .b32 r0;\n"
    "      st.param.b64 [a0], %rd22; st.param.b64 [a1], %rd11;\n"
    "      call.uni (r0), vprintf, (a0, a1); }\n"
    "    ret;\n}\n";

/* deep(out, d): thread 0 launches deep(out, d + 1) while d < 3; out[d]:
 * the launch's result.  many(out, log): each of 5 threads asks for a
 * buffer (out[tid]: it got one), out[5 + tid] its last error, and
 * launches rec(log, tid) with the buffer it got. */
static const char limits_ptx[] =
    ".visible .entry deep(.param .u64 d_out, .param .u32 d_d)\n{\n" REGS
    "    ld.param.u64 %rd1, [d_out];\n"
    "    ld.param.u32 %r1, [d_d];\n"
    "    setp.ge.u32 %p1, %r1, 3;\n"
    "    @%p1 bra DDONE;\n"
    "    add.u32 %r2, %r1, 1;\n" GETBUF("deep", "1", "1")
    "    st.u64 [%rd90], %rd1;\n"
    "    st.u32 [%rd90+8], %r2;\n" LAUNCH("0")
    "    mul.wide.u32 %rd2, %r1, 4;\n"
    "    add.u64 %rd3, %rd1, %rd2;\n"
    "    st.u32 [%rd3], %r90;\n"
    "DDONE:\n"
    "    ret;\n}\n"
    ".visible .entry many(.param .u64 m_out, .param .u64 m_log)\n{\n" REGS
    "    ld.param.u64 %rd2, [m_out];\n"
    "    ld.param.u64 %rd1, [m_log];\n"
    "    mov.u32 %r1, %tid.x;\n" GETBUF("rec", "1", "1")
    "    setp.ne.u64 %p1, %rd90, 0;\n"
    "    selp.u32 %r2, 1, 0, %p1;\n"
    "    mul.wide.u32 %rd3, %r1, 4;\n"
    "    add.u64 %rd4, %rd2, %rd3;\n"
    "    st.u32 [%rd4], %r2;\n" LASTERR("__cudaCDP2GetLastError")
    "    st.u32 [%rd4+20], %r91;\n"
    "    @!%p1 bra MDONE;\n" REC_ARGS("%r1") LAUNCH("0")
    "MDONE:\n"
    "    ret;\n}\n";

/* copies(dst, src, res): cudaMemcpyAsync 16 bytes src -> dst, then
 * cudaMemsetAsync 8 bytes of 0x5a at dst + 16, then rec(dst + 32, 9)
 * after them in the NULL stream; cudaMalloc / cudaFree of 32 bytes
 * (res[0..4]).  badcopy(dst, src): a copy from src (not device memory).
 * fparent(p): launches fchild(p), which stores to p. */
static const char copies_ptx[] =
    ".visible .entry copies(.param .u64 c_dst, .param .u64 c_src, .param .u64 c_res)\n{\n" REGS
    "    .local .align 8 .b8 mbuf[8];\n"
    "    ld.param.u64 %rd5, [c_dst];\n"
    "    ld.param.u64 %rd6, [c_src];\n"
    "    ld.param.u64 %rd7, [c_res];\n"
    "    { .param .b64 d; .param .b64 s; .param .b64 n; .param .b32 k; .param .b64 t; .param .b32 r;\n"
    "      st.param.b64 [d], %rd5; st.param.b64 [s], %rd6; st.param.b64 [n], 16;\n"
    "      st.param.b32 [k], 3; st.param.b64 [t], 0;\n"
    "      call.uni (r), __cudaCDP2MemcpyAsync, (d, s, n, k, t);\n"
    "      ld.param.b32 %r10, [r]; }\n"
    "    st.u32 [%rd7], %r10;\n"
    "    add.u64 %rd8, %rd5, 16;\n"
    "    { .param .b64 d; .param .b32 v; .param .b64 n; .param .b64 t; .param .b32 r;\n"
    "      st.param.b64 [d], %rd8; st.param.b32 [v], 90; st.param.b64 [n], 8;\n"
    "      st.param.b64 [t], 0;\n"
    "      call.uni (r), __cudaCDP2MemsetAsync, (d, v, n, t);\n"
    "      ld.param.b32 %r11, [r]; }\n"
    "    st.u32 [%rd7+4], %r11;\n"
    "    add.u64 %rd1, %rd5, 32;\n" GETBUF("rec", "1", "1") REC_ARGS("9") LAUNCH("0")
    "    mov.u64 %rd10, mbuf;\n"
    "    cvta.local.u64 %rd11, %rd10;\n"
    "    { .param .b64 p; .param .b64 n; .param .b32 r;\n"
    "      st.param.b64 [p], %rd11; st.param.b64 [n], 32;\n"
    "      call.uni (r), __cudaCDP2Malloc, (p, n);\n"
    "      ld.param.b32 %r12, [r]; }\n"
    "    st.u32 [%rd7+8], %r12;\n"
    "    ld.local.u64 %rd12, [mbuf];\n"
    "    setp.ne.u64 %p1, %rd12, 0;\n"
    "    selp.u32 %r13, 1, 0, %p1;\n"
    "    st.u32 [%rd7+12], %r13;\n"
    "    st.u32 [%rd12], 77;\n"
    "    { .param .b64 p; .param .b32 r;\n"
    "      st.param.b64 [p], %rd12;\n"
    "      call.uni (r), __cudaCDP2Free, (p);\n"
    "      ld.param.b32 %r14, [r]; }\n"
    "    st.u32 [%rd7+16], %r14;\n"
    "    ret;\n}\n"
    ".visible .entry badcopy(.param .u64 b_dst, .param .u64 b_src)\n{\n" REGS
    "    ld.param.u64 %rd5, [b_dst];\n"
    "    ld.param.u64 %rd6, [b_src];\n"
    "    { .param .b64 d; .param .b64 s; .param .b64 n; .param .b32 k; .param .b64 t; .param .b32 r;\n"
    "      st.param.b64 [d], %rd5; st.param.b64 [s], %rd6; st.param.b64 [n], 16;\n"
    "      st.param.b32 [k], 3; st.param.b64 [t], 0;\n"
    "      call.uni (r), __cudaCDP2MemcpyAsync, (d, s, n, k, t);\n"
    "      ld.param.b32 %r10, [r]; }\n"
    "    ret;\n}\n"
    ".visible .entry fchild(.param .u64 fc_p)\n{\n" REGS
    "    ld.param.u64 %rd1, [fc_p];\n"
    "    st.global.u32 [%rd1], 1;\n"
    "    ret;\n}\n"
    ".visible .entry fparent(.param .u64 fp_p)\n{\n" REGS
    "    ld.param.u64 %rd1, [fp_p];\n" GETBUF("fchild", "1", "1")
    "    st.u64 [%rd90], %rd1;\n" LAUNCH("0")
    "    ret;\n}\n"
    ".visible .entry unsup()\n{\n" REGS
    "    { .param .b64 p; .param .b64 s; .param .b32 r;\n"
    "      st.param.b64 [p], 0; st.param.b64 [s], 0;\n"
    "      call.uni (r), __cudaCDP2Memcpy3DAsync, (p, s);\n"
    "      ld.param.b32 %r1, [r]; }\n"
    "    ret;\n}\n"
    ".visible .entry devsync()\n{\n" REGS
    "    { .param .b32 r; call.uni (r), cudaDeviceSynchronize, (); ld.param.b32 %r1, [r]; }\n"
    "    ret;\n}\n";

/* ---- the runs ---------------------------------------------------------------------- */

typedef struct capture {
    char buf[16384];
    size_t len;
} capture;

static void capture_fn(void *ud, const char *text, size_t len)
{
    capture *c = ud;
    if (c->len + len < sizeof c->buf) {
        memcpy(c->buf + c->len, text, len);
        c->len += len;
        c->buf[c->len] = 0;
    }
}

/* The modes every case runs in. */
static const char *const modes[] = {
    "-lockstep_mode functional",
    "-lockstep_mode timing\n-lockstep_threads 1",
    "-lockstep_mode timing\n-lockstep_threads 2",
    /* the device runtime's calls are built-in calls there too */
    "-lockstep_mode timing\n-lockstep_threads 2\n-lockstep_det gpudet",
    "-lockstep_mode timing\n-lockstep_threads 2\n-lockstep_det dab",
};
#define NMODES 5

static lockstep_device *cdp_device(const char *opts, capture *cap)
{
    lockstep_config *cfg = NULL;
    lockstep_device *dev = NULL;
    if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS)
        return NULL;
    int ok = lockstep_config_parse(cfg, opts, strlen(opts), "test") == LOCKSTEP_SUCCESS;
    CHECK_MSG(ok, "%s: %s", opts, lockstep_config_last_error(cfg));
    if (ok)
        CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
    lockstep_config_destroy(cfg);
    if (dev && cap)
        lockstep_device_set_printf_output(dev, capture_fn, cap);
    return dev;
}

static lockstep_module *cdp_load(lockstep_device *dev, const char *body)
{
    size_t n = strlen(HDR) + strlen(DECLS) + strlen(tree_fmt) + strlen(common_ptx) + strlen(body) + 1;
    char *text = malloc(n);
    if (!text)
        return NULL;
    snprintf(text, n, "%s%s%s%s%s", HDR, DECLS, tree_fmt, common_ptx, body);
    lockstep_module *mod = NULL;
    lockstep_status st = lockstep_module_load_ptx(dev, text, strlen(text), "cdp.ptx", &mod);
    CHECK_MSG(st == LOCKSTEP_SUCCESS, "load: %s", lockstep_device_last_error(dev));
    free(text);
    return st == LOCKSTEP_SUCCESS ? mod : NULL;
}

/* A launch of kernel `name` that must succeed. */
static int run(lockstep_device *dev, lockstep_module *mod, const char *name, uint32_t grid,
               uint32_t block, void **args, lockstep_launch_stats *st)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, name);
    if (!k)
        return 0;
    lockstep_launch_stats local;
    return E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(grid, 1, 1), e2e_dim3(block, 1, 1),
                                            0, args, st ? st : &local));
}

/* A launch of kernel `name` that must stop with `want` and a message
 * holding `msg`. */
static void run_fails(lockstep_device *dev, lockstep_module *mod, const char *name, void **args,
                      lockstep_status want, const char *msg)
{
    lockstep_kernel *k = e2e_kernel(dev, mod, name);
    if (!k)
        return;
    lockstep_status s = lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(1, 1, 1), 0,
                                             args, NULL);
    CHECK_MSG(s == want, "%s: %s, expected %s (%s)", name, lockstep_status_name(s),
              lockstep_status_name(want), lockstep_device_last_error(dev));
    CHECK_STR_CONTAINS(lockstep_device_last_error(dev), msg);
    CHECK(lockstep_synchronize(dev) == want);
}

static void same_stats(const char *what, const lockstep_launch_stats *a,
                       const lockstep_launch_stats *b)
{
    CHECK_MSG(a->warp_insts == b->warp_insts && a->thread_insts == b->thread_insts &&
                  a->ctas == b->ctas && a->device_launches == b->device_launches &&
                  a->t.cycles == b->t.cycles && a->t.l2_accesses == b->t.l2_accesses &&
                  a->t.dram_reads == b->t.dram_reads &&
                  !memcmp(a->t.stall, b->t.stall, sizeof a->t.stall),
              "%s: statistics differ between 1 and 2 host threads (cycles %llu / %llu, warp "
              "instructions %llu / %llu)",
              what, (unsigned long long)a->t.cycles, (unsigned long long)b->t.cycles,
              (unsigned long long)a->warp_insts, (unsigned long long)b->warp_insts);
}

static void test_tree(void)
{
    static const char want[] = "d0 id0 t0\nd0 id0 t1\n"
                               "d1 id0 t0\nd1 id0 t1\n"
                               "d2 id0 t0\nd2 id0 t1\n"
                               "d2 id1 t0\nd2 id1 t1\n"
                               "d1 id1 t0\nd1 id1 t1\n"
                               "d2 id2 t0\nd2 id2 t1\n"
                               "d2 id3 t0\nd2 id3 t1\n";
    lockstep_launch_stats st[NMODES];
    memset(st, 0, sizeof st);
    for (int m = 0; m < NMODES; m++) {
        static capture cap;
        cap.len = 0;
        cap.buf[0] = 0;
        lockstep_device *dev = cdp_device(modes[m], &cap);
        lockstep_module *mod = dev ? cdp_load(dev, "") : NULL;
        uint32_t depth = 0, max = 3, id = 0;
        void *args[] = {&depth, &max, &id};
        if (mod && run(dev, mod, "tree", 1, 2, args, &st[m])) {
            CHECK(lockstep_synchronize(dev) == LOCKSTEP_SUCCESS);
            CHECK_MSG(!strcmp(cap.buf, want), "%s: printed\n%s\nexpected\n%s", modes[m], cap.buf,
                      want);
            CHECK_MSG(st[m].device_launches == 6 && st[m].ctas == 7 && st[m].threads == 14,
                      "%s: device_launches %llu ctas %llu threads %llu", modes[m],
                      (unsigned long long)st[m].device_launches,
                      (unsigned long long)st[m].ctas, (unsigned long long)st[m].threads);
            CHECK(st[m].warp_insts > 0 && st[m].timing == (m > 0));
            if (m > 0) {
                uint64_t stall[LOCKSTEP_STALL_COUNT];
                CHECK(lockstep_last_launch_sm_stalls(dev, 0, stall) == 0);
            }
        }
        e2e_device_destroy(dev);
    }
    CHECK_MSG(st[0].thread_insts == st[1].thread_insts,
              "thread instructions: functional %llu, timing %llu",
              (unsigned long long)st[0].thread_insts, (unsigned long long)st[1].thread_insts);
    same_stats("tree", &st[1], &st[2]);
}

static void test_order(void)
{
    /* NULL-stream, named and fire-and-forget work by CTA, in launch order
     * within a CTA; then the tail launches, each with its own children */
    static const uint32_t want[] = {9, 0, 1, 2, 10, 11, 50, 100, 150, 200};
    lockstep_launch_stats st[NMODES];
    memset(st, 0, sizeof st);
    for (int m = 0; m < NMODES; m++) {
        lockstep_device *dev = cdp_device(modes[m], NULL);
        lockstep_module *mod = dev ? cdp_load(dev, order_ptx) : NULL;
        lockstep_dptr log = mod ? e2e_alloc(dev, 64 * 4) : 0, res = mod ? e2e_alloc(dev, 16) : 0;
        if (log && res && e2e_fill(dev, log, 0, 64 * 4) && e2e_fill(dev, res, 0xff, 16)) {
            void *args[] = {&log, &res};
            if (run(dev, mod, "order", 2, 2, args, &st[m])) {
                uint32_t got[10], r[3];
                if (e2e_download(dev, got, log, sizeof got) && e2e_download(dev, r, res, sizeof r)) {
                    e2e_cmp_u32(modes[m], got, want, 10, NULL);
                    CHECK_MSG(r[0] == 0 && r[1] == 0 && r[2] == 0, "%s: stream %u %u %u",
                              modes[m], r[0], r[1], r[2]);
                }
                CHECK(st[m].device_launches == 10);
            }
        }
        e2e_device_destroy(dev);
    }
    same_stats("order", &st[1], &st[2]);
}

static void test_v1(void)
{
    for (int m = 0; m < NMODES; m++) {
        lockstep_device *dev = cdp_device(modes[m], NULL);
        lockstep_module *mod = dev ? cdp_load(dev, v1_ptx) : NULL;
        lockstep_dptr log = mod ? e2e_alloc(dev, 64) : 0, res = mod ? e2e_alloc(dev, 8) : 0;
        if (log && res && e2e_fill(dev, log, 0, 64)) {
            void *args[] = {&log, &res};
            if (run(dev, mod, "v1", 1, 1, args, NULL)) {
                uint32_t got[2], r[2];
                if (e2e_download(dev, got, log, sizeof got) && e2e_download(dev, r, res, sizeof r))
                    CHECK_MSG(got[0] == 1 && got[1] == 7 && r[0] == 1 && r[1] == 0,
                              "%s: log %u %u, res %u %u", modes[m], got[0], got[1], r[0], r[1]);
            }
        }
        e2e_device_destroy(dev);
    }
}

static void test_errors(void)
{
    /* cudaErrorInvalidConfiguration 9, cudaErrorInvalidResourceHandle 400,
     * cudaErrorInvalidDeviceFunction 98, cudaErrorInvalidValue 1,
     * cudaErrorNotSupported 801 */
    static const uint32_t want[] = {9, 9, 0, 400, 400, 400, 400, 1, 98, 1, 400, 801, 0, 1};
    for (int m = 0; m < NMODES; m++) {
        static capture cap;
        cap.len = 0;
        cap.buf[0] = 0;
        lockstep_device *dev = cdp_device(modes[m], &cap);
        lockstep_module *mod = dev ? cdp_load(dev, errs_ptx) : NULL;
        lockstep_dptr out = mod ? e2e_alloc(dev, 64) : 0, log = mod ? e2e_alloc(dev, 64) : 0;
        lockstep_launch_stats st;
        if (out && log && e2e_fill(dev, log, 0, 64)) {
            void *args[] = {&out, &log};
            if (run(dev, mod, "errs", 1, 1, args, &st)) {
                uint32_t got[14], lg[2];
                if (e2e_download(dev, got, out, sizeof got) && e2e_download(dev, lg, log, sizeof lg)) {
                    e2e_cmp_u32(modes[m], got, want, 14, NULL);
                    /* only the good launch ran */
                    CHECK_MSG(lg[0] == 1 && lg[1] == 5, "%s: log %u %u", modes[m], lg[0], lg[1]);
                }
                CHECK(st.device_launches == 1);
                CHECK(lockstep_synchronize(dev) == LOCKSTEP_SUCCESS);
                CHECK_MSG(!strcmp(cap.buf, "invalid configuration argument\n"), "%s: printed '%s'",
                          modes[m], cap.buf);
            }
        }
        e2e_device_destroy(dev);
    }
}

static void test_limits(void)
{
    for (int m = 0; m < NMODES; m++) {
        for (int lim = 0; lim < 2; lim++) {
            char opts[256];
            snprintf(opts, sizeof opts, "%s\n%s", modes[m],
                     lim ? "-lockstep_cdp_max_depth 2\n-lockstep_cdp_pending_launches 3" : "");
            lockstep_device *dev = cdp_device(opts, NULL);
            lockstep_module *mod = dev ? cdp_load(dev, limits_ptx) : NULL;
            lockstep_dptr out = mod ? e2e_alloc(dev, 64) : 0, log = mod ? e2e_alloc(dev, 64) : 0;
            if (!out || !log || !e2e_fill(dev, out, 0xee, 64) || !e2e_fill(dev, log, 0, 64)) {
                e2e_device_destroy(dev);
                continue;
            }
            /* the nesting depth: the host's grid is depth 0 */
            uint32_t d = 0;
            void *dargs[] = {&out, &d};
            lockstep_launch_stats st;
            if (run(dev, mod, "deep", 1, 1, dargs, &st)) {
                uint32_t got[4];
                uint32_t want[4] = {0, 0, lim ? 65u : 0u, 0xeeeeeeeeu};
                if (e2e_download(dev, got, out, sizeof got))
                    e2e_cmp_u32(opts, got, want, 4, NULL);
                CHECK(st.device_launches == (lim ? 2u : 3u));
            }
            /* pending launches: 5 threads ask at once */
            e2e_fill(dev, out, 0xee, 64);
            void *margs[] = {&out, &log};
            if (run(dev, mod, "many", 1, 5, margs, &st)) {
                uint32_t got[10], n = 0;
                uint32_t want[10] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0};
                if (lim) /* cudaErrorLaunchPendingCountExceeded 69 */
                    memcpy(want, (uint32_t[10]){1, 1, 1, 0, 0, 0, 0, 0, 69, 69}, sizeof want);
                if (e2e_download(dev, got, out, sizeof got) && e2e_download(dev, &n, log, 4)) {
                    e2e_cmp_u32(opts, got, want, 10, NULL);
                    CHECK_MSG(n == (lim ? 3u : 5u), "%s: %u ran", opts, n);
                }
            }
            e2e_device_destroy(dev);
        }
    }
}

static void test_copies(void)
{
    for (int m = 0; m < NMODES; m++) {
        lockstep_device *dev = cdp_device(modes[m], NULL);
        lockstep_module *mod = dev ? cdp_load(dev, copies_ptx) : NULL;
        lockstep_dptr dst = mod ? e2e_alloc(dev, 64) : 0, src = mod ? e2e_alloc(dev, 16) : 0;
        lockstep_dptr res = mod ? e2e_alloc(dev, 32) : 0;
        uint8_t s[16];
        for (int i = 0; i < 16; i++)
            s[i] = (uint8_t)(i * 7 + 1);
        if (!dst || !src || !res || !e2e_fill(dev, dst, 0, 64) ||
            !E2E_OK(dev, lockstep_memcpy_htod(dev, src, s, 16))) {
            e2e_device_destroy(dev);
            continue;
        }
        void *args[] = {&dst, &src, &res};
        if (run(dev, mod, "copies", 1, 1, args, NULL)) {
            uint8_t got[64];
            uint32_t r[5];
            if (e2e_download(dev, got, dst, 64) && e2e_download(dev, r, res, sizeof r)) {
                CHECK_MSG(!memcmp(got, s, 16), "%s: the copy", modes[m]);
                int fill = 1;
                for (int i = 16; i < 24; i++)
                    fill &= got[i] == 0x5a;
                CHECK_MSG(fill && got[24] == 0, "%s: the fill", modes[m]);
                uint32_t log[2];
                memcpy(log, got + 32, 8);
                CHECK_MSG(log[0] == 1 && log[1] == 9, "%s: rec after them: %u %u", modes[m],
                          log[0], log[1]);
                CHECK_MSG(r[0] == 0 && r[1] == 0 && r[2] == 0 && r[3] == 1 && r[4] == 0,
                          "%s: results %u %u %u %u %u", modes[m], r[0], r[1], r[2], r[3], r[4]);
            }
        }
        /* what stops a launch, with a message */
        lockstep_dptr nowhere = 0x100;
        void *bargs[] = {&dst, &nowhere};
        run_fails(dev, mod, "badcopy", bargs, LOCKSTEP_ERROR_ILLEGAL_ADDRESS,
                  "device-side cudaMemcpyAsync of 1 row of 16 bytes");
        void *fargs[] = {&nowhere};
        run_fails(dev, mod, "fparent", fargs, LOCKSTEP_ERROR_ILLEGAL_ADDRESS,
                  "a grid launched from device code by kernel 'fparent', CTA (0,0,0), thread "
                  "(0,0,0), at nesting depth 1");
        run_fails(dev, mod, "unsup", NULL, LOCKSTEP_ERROR_UNSUPPORTED_PTX,
                  "'__cudaCDP2Memcpy3DAsync' is a function of CUDA's device runtime (cudadevrt) "
                  "that lockstep does not provide");
        run_fails(dev, mod, "devsync", NULL, LOCKSTEP_ERROR_UNSUPPORTED_PTX,
                  "device-side cudaDeviceSynchronize was removed in CUDA 12");
        /* the device goes on: a good launch after them */
        if (run(dev, mod, "copies", 1, 1, args, NULL))
            CHECK(lockstep_synchronize(dev) == LOCKSTEP_SUCCESS);
        e2e_device_destroy(dev);
    }
}

static void test_dmr(void)
{
    static capture cap;
    lockstep_device *dev = cdp_device("-lockstep_mode timing\n-lockstep_redundancy dmr\n"
                                      "-dmr_pair slot", &cap);
    lockstep_module *mod = dev ? cdp_load(dev, "") : NULL;
    uint32_t depth = 0, max = 3, id = 0;
    void *args[] = {&depth, &max, &id};
    if (mod)
        run_fails(dev, mod, "tree", args, LOCKSTEP_ERROR_UNSUPPORTED_PTX,
                  "kernels cannot be launched from device code under -lockstep_redundancy dmr");
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_tree);
    RUN(test_order);
    RUN(test_v1);
    RUN(test_errors);
    RUN(test_limits);
    RUN(test_copies);
    RUN(test_dmr);
    return test_summary();
}
