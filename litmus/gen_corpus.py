#!/usr/bin/env python3
"""gen_corpus.py -- write lockstep's litmus corpus (litmus/*.litmus).

The tests of the GPU-litmus thesis (chapters 3-5) and their variants, in the
thesis's GPU_PTX format, plus tests in the scoped PTX syntax (litmus/ptx/).
Each base shape is written once here and instantiated with each fence scope
and placement; rerun this script to regenerate the files (never edit them by
hand).  litmus/EXPECTED records what each configuration shows for them.

    python3 litmus/gen_corpus.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))

# placements: (suffix, scope tree, memory region)
INTER = ("", "(device (cta (warp T0)) (cta (warp T1)))", "global")
INTRA_G = ("+cta", "(device (cta (warp T0) (warp T1)))", "global")
INTRA_S = ("+cta+shared", "(device (cta (warp T0) (warp T1)))", "shared")


def fence(scope):
    return None if scope is None else "membar.%s" % scope


def write(path, name, doc, threads, regs, tree, memmap, cond, init=None):
    """threads: list of instruction lists; regs: per thread {reg: type or '=loc'}."""
    lines = ["GPU_PTX %s" % name, '"%s"' % doc, "{"]
    for k, rs in enumerate(regs):
        for r, ty in rs.items():
            if ty.startswith("="):
                lines.append("%d:.reg .b64 %s = %s;" % (k, r, ty[1:]))
            else:
                lines.append("%d:.reg .%s %s;" % (k, ty, r))
    for loc, v in (init or {}).items():
        lines.append("%s = %d;" % (loc, v))
    lines.append("}")
    cols = [["T%d" % k] + [c.rstrip(";") for c in code] for k, code in enumerate(threads)]
    depth = max(len(c) for c in cols)
    widths = [max(len(x) for x in c) for c in cols]
    for i in range(depth):
        cells = [(c[i] if i < len(c) else "").ljust(w) for c, w in zip(cols, widths)]
        lines.append(" | ".join(cells).rstrip() + " ;")
    lines += ["", "ScopeTree", tree, "", memmap, "", "exists", cond, ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def two_loc_regs(n, extra=None):
    rs = [{"rx": "=x", "ry": "=y"} for _ in range(n)]
    for k, d in (extra or {}).items():
        rs[k].update(d)
    return rs


def gen():
    out = os.path.join(HERE)
    files = []

    def emit(name, *a, **kw):
        fn = name.replace("/", "_") + ".litmus"
        write(os.path.join(out, fn), name, *a, **kw)
        files.append(fn)

    scopes = [None, "cta", "gl"]
    for place in (INTER, INTRA_G, INTRA_S):
        suf, tree, reg = place
        mm = "x: %s, y: %s" % (reg, reg)
        cop = "cg" if reg == "global" else ""
        ld = "ld.%s.s32" % cop if cop else "ld.s32"
        st = "st.%s.s32" % cop if cop else "st.s32"
        for sc in scopes:
            f = "+membar.%s" % sc if sc else ""
            def fl(code):
                return [c for c in code if c]
            # MP: message passing
            emit("MP%s%s" % (f, suf), "message passing: T0 writes data then flag; T1 reads flag then data",
                 [fl(["%s [rx], 1;" % st, fence(sc) and fence(sc) + ";", "%s [ry], 1;" % st]),
                  fl(["%s r0, [ry];" % ld, fence(sc) and fence(sc) + ";", "%s r1, [rx];" % ld])],
                 two_loc_regs(2, {1: {"r0": "s32", "r1": "s32"}}), tree, mm, "(1:r0=1 /\\ 1:r1=0)")
            # SB: store buffering
            emit("SB%s%s" % (f, suf), "store buffering: each thread writes one location then reads the other",
                 [fl(["%s [rx], 1;" % st, fence(sc) and fence(sc) + ";", "%s r0, [ry];" % ld]),
                  fl(["%s [ry], 1;" % st, fence(sc) and fence(sc) + ";", "%s r0, [rx];" % ld])],
                 two_loc_regs(2, {0: {"r0": "s32"}, 1: {"r0": "s32"}}), tree, mm, "(0:r0=0 /\\ 1:r0=0)")
            # LB: load buffering
            emit("LB%s%s" % (f, suf), "load buffering: each thread reads one location then writes the other",
                 [fl(["%s r0, [rx];" % ld, fence(sc) and fence(sc) + ";", "%s [ry], 1;" % st]),
                  fl(["%s r0, [ry];" % ld, fence(sc) and fence(sc) + ";", "%s [rx], 1;" % st])],
                 two_loc_regs(2, {0: {"r0": "s32"}, 1: {"r0": "s32"}}), tree, mm, "(0:r0=1 /\\ 1:r0=1)")
            # CoRR: coherence of read-read
            emit("CoRR%s%s" % (f, suf), "coherence of read-read: T1 reads the new value, then the old one",
                 [["%s [rx], 1;" % st],
                  fl(["%s r0, [rx];" % ld, fence(sc) and fence(sc) + ";", "%s r1, [rx];" % ld])],
                 [{"rx": "=x"}, {"rx": "=x", "r0": "s32", "r1": "s32"}], tree, "x: %s" % reg,
                 "(1:r0=1 /\\ 1:r1=0)")
            # 2+2W, R, S (inter-CTA, global only)
            if place is INTER:
                emit("2+2W%s" % f, "two writers, two locations: each location ends with the other's first write",
                     [fl(["st.cg.s32 [rx], 1;", fence(sc) and fence(sc) + ";", "st.cg.s32 [ry], 2;"]),
                      fl(["st.cg.s32 [ry], 1;", fence(sc) and fence(sc) + ";", "st.cg.s32 [rx], 2;"])],
                     two_loc_regs(2), tree, mm, "(x=1 /\\ y=1)")
                emit("R%s" % f, "R: T0 writes x then y; T1 overwrites y then reads x",
                     [fl(["st.cg.s32 [rx], 1;", fence(sc) and fence(sc) + ";", "st.cg.s32 [ry], 1;"]),
                      fl(["st.cg.s32 [ry], 2;", fence(sc) and fence(sc) + ";", "ld.cg.s32 r0, [rx];"])],
                     two_loc_regs(2, {1: {"r0": "s32"}}), tree, mm, "(y=2 /\\ 1:r0=0)")
                emit("S%s" % f, "S: T0 writes x=2 then y; T1 reads y then writes x=1",
                     [fl(["st.cg.s32 [rx], 2;", fence(sc) and fence(sc) + ";", "st.cg.s32 [ry], 1;"]),
                      fl(["ld.cg.s32 r0, [ry];", fence(sc) and fence(sc) + ";", "st.cg.s32 [rx], 1;"])],
                     two_loc_regs(2, {1: {"r0": "s32"}}), tree, mm, "(1:r0=1 /\\ x=2)")
                iriw_t = "(device (cta (warp T0)) (cta (warp T1)) (cta (warp T2)) (cta (warp T3)))"
                emit("IRIW%s" % f, "independent reads of independent writes: the readers disagree on the order",
                     [["st.cg.s32 [rx], 1;"], ["st.cg.s32 [ry], 1;"],
                      fl(["ld.cg.s32 r0, [rx];", fence(sc) and fence(sc) + ";", "ld.cg.s32 r1, [ry];"]),
                      fl(["ld.cg.s32 r0, [ry];", fence(sc) and fence(sc) + ";", "ld.cg.s32 r1, [rx];"])],
                     two_loc_regs(4, {2: {"r0": "s32", "r1": "s32"}, 3: {"r0": "s32", "r1": "s32"}}),
                     iriw_t, mm, "(2:r0=1 /\\ 2:r1=0 /\\ 3:r0=1 /\\ 3:r1=0)")

    # Chapter 4: the L1 annotation, volatile, locks, the deque (inter-CTA, global)
    tree = INTER[1]
    for sc in [None, "cta", "gl", "sys"]:
        f = "+membar.%s" % sc if sc else ""
        fl = lambda code: [c for c in code if c]
        fen = fence(sc) and fence(sc) + ";"
        emit("MP-L1%s" % f, "message passing, loads through the L1 (ld.ca)",
             [fl(["st.cg.s32 [rx], 1;", fen, "st.cg.s32 [ry], 1;"]),
              fl(["ld.ca.s32 r0, [ry];", fen, "ld.ca.s32 r1, [rx];"])],
             two_loc_regs(2, {1: {"r0": "s32", "r1": "s32"}}), tree, "x: global, y: global",
             "(1:r0=1 /\\ 1:r1=0)")
        emit("CoRR-L2-L1%s" % f, "read x from the L2 (ld.cg), then from the L1 (ld.ca): new, then stale",
             [["st.cg.s32 [rx], 1;"], fl(["ld.cg.s32 r0, [rx];", fen, "ld.ca.s32 r1, [rx];"])],
             [{"rx": "=x"}, {"rx": "=x", "r0": "s32", "r1": "s32"}], tree, "x: global",
             "(1:r0=1 /\\ 1:r1=0)")
        if sc == "sys":
            continue
        for suf, tr, reg in (INTER, INTRA_S):
            emit("MP-volatile%s%s" % (f, suf), "message passing with .volatile accesses",
                 [fl(["st.volatile.s32 [rx], 1;", fen, "st.volatile.s32 [ry], 1;"]),
                  fl(["ld.volatile.s32 r0, [ry];", fen, "ld.volatile.s32 r1, [rx];"])],
                 two_loc_regs(2, {1: {"r0": "s32", "r1": "s32"}}), tr, "x: %s, y: %s" % (reg, reg),
                 "(1:r0=1 /\\ 1:r1=0)")
        lock_regs = [{"rx": "=x", "ry": "=y", "r0": "b32"},
                     {"rx": "=x", "ry": "=y", "r0": "b32", "r1": "pred", "r2": "u32"}]
        emit("CAS-SL%s" % f, "CUDA by Example's spin lock: unlock by atomicExch, lock by atomicCAS",
             [fl(["st.cg.u32 [rx], 1;", fen, "atom.exch.b32 r0, [ry], 0;"]),
              fl(["atom.cas.b32 r0, [ry], 0, 1;", "setp.eq.u32 r1, r0, 0;",
                  fen and "@r1 " + fen, "@r1 ld.cg.u32 r2, [rx];"])],
             lock_regs, tree, "x: global, y: global", "(1:r0=0 /\\ 1:r2=0)", init={"y": 1})
        emit("EXCH-SL%s" % f, "Stuart and Owens' spin lock: lock and unlock by atomicExch",
             [fl(["st.cg.u32 [rx], 1;", fen, "atom.exch.b32 r0, [ry], 0;"]),
              fl(["atom.exch.b32 r0, [ry], 1;", "setp.eq.u32 r1, r0, 0;",
                  fen and "@r1 " + fen, "@r1 ld.cg.u32 r2, [rx];"])],
             lock_regs, tree, "x: global, y: global", "(1:r0=0 /\\ 1:r2=0)", init={"y": 1})
        emit("DLB-MP%s" % f, "work-stealing deque: the owner pushes a task then bumps tail; a thief sees tail, steals a stale task",
             [fl(["st.cg.s32 [rt], 1;", fen, "st.cg.s32 [rl], 1;"]),
              fl(["ld.cg.s32 r0, [rl];", "setp.gt.s32 r3, r0, 0;", fen and "@r3 " + fen,
                  "@r3 ld.cg.s32 r1, [rt];", "@r3 atom.cas.b32 r2, [rh], 0, 1;"])],
             [{"rt": "=task", "rl": "=tail"},
              {"rt": "=task", "rl": "=tail", "rh": "=head", "r0": "s32", "r1": "s32", "r2": "b32", "r3": "pred"}],
             tree, "task: global, tail: global, head: global", "(1:r0=1 /\\ 1:r2=0 /\\ 1:r1=0)")
    # racing atomics only: the order they take at the partition (DAB makes it one order)
    emit("ATOM-ADD2", "two atomic adds race on x: who went first",
         [["atom.add.u32 r0, [rx], 1;"], ["atom.add.u32 r0, [rx], 2;"]],
         [{"rx": "=x", "r0": "u32"}, {"rx": "=x", "r0": "u32"}], tree, "x: global",
         "(0:r0=0 /\\ 1:r0=1)")
    emit("CAS-RACE", "two CASes race to claim x; exactly one wins",
         [["atom.cas.b32 r0, [rx], 0, 1;"], ["atom.cas.b32 r0, [rx], 0, 2;"]],
         [{"rx": "=x", "r0": "b32"}, {"rx": "=x", "r0": "b32"}], tree, "x: global",
         "(0:r0=0 /\\ 1:r0=0)")
    return files


PTX_TESTS = {
    "MP+rel+acq.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                       ["st.relaxed.gpu.s32 [x], 1;", "st.release.gpu.s32 [y], 1;"],
                       ["ld.acquire.gpu.s32 r0, [y];", "ld.relaxed.gpu.s32 r1, [x];"],
                       "(1:r0=1 /\\ 1:r1=0)", "forbidden"),
    "MP+rel+acq.cta-across-ctas": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                                   ["st.relaxed.gpu.s32 [x], 1;", "st.release.cta.s32 [y], 1;"],
                                   ["ld.acquire.cta.s32 r0, [y];", "ld.relaxed.gpu.s32 r1, [x];"],
                                   "(1:r0=1 /\\ 1:r1=0)", "allowed (scopes do not include each other)"),
    "MP+fence.acq_rel.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                             ["st.relaxed.gpu.s32 [x], 1;", "fence.acq_rel.gpu;", "st.relaxed.gpu.s32 [y], 1;"],
                             ["ld.relaxed.gpu.s32 r0, [y];", "fence.acq_rel.gpu;", "ld.relaxed.gpu.s32 r1, [x];"],
                             "(1:r0=1 /\\ 1:r1=0)", "forbidden"),
    "MP+weak": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                ["st.weak.s32 [x], 1;", "st.weak.s32 [y], 1;"],
                ["ld.weak.s32 r0, [y];", "ld.weak.s32 r1, [x];"],
                "(1:r0=1 /\\ 1:r1=0)", "allowed (a data race)"),
    "SB+fence.sc.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                        ["st.relaxed.gpu.s32 [x], 1;", "fence.sc.gpu;", "ld.relaxed.gpu.s32 r0, [y];"],
                        ["st.relaxed.gpu.s32 [y], 1;", "fence.sc.gpu;", "ld.relaxed.gpu.s32 r0, [x];"],
                        "(0:r0=0 /\\ 1:r0=0)", "forbidden"),
    "SB+relaxed.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                       ["st.relaxed.gpu.s32 [x], 1;", "ld.relaxed.gpu.s32 r0, [y];"],
                       ["st.relaxed.gpu.s32 [y], 1;", "ld.relaxed.gpu.s32 r0, [x];"],
                       "(0:r0=0 /\\ 1:r0=0)", "allowed"),
    "LB+acq+rel.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                       ["ld.acquire.gpu.s32 r0, [x];", "st.release.gpu.s32 [y], 1;"],
                       ["ld.acquire.gpu.s32 r0, [y];", "st.release.gpu.s32 [x], 1;"],
                       "(0:r0=1 /\\ 1:r0=1)", "forbidden"),
    "CoRR+relaxed.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                         ["st.relaxed.gpu.s32 [x], 1;"],
                         ["ld.relaxed.gpu.s32 r0, [x];", "ld.relaxed.gpu.s32 r1, [x];"],
                         "(1:r0=1 /\\ 1:r1=0)", "forbidden (coherence of morally strong accesses)"),
    "CAS-SL+rel+acq.gpu": ("P0@cta 0,gpu 0", "P1@cta 1,gpu 0",
                           ["st.relaxed.gpu.u32 [x], 1;", "atom.release.gpu.exch.b32 r0, [y], 0;"],
                           ["atom.acquire.gpu.cas.b32 r0, [y], 0, 1;", "setp.eq.u32 p1, r0, 0;",
                            "@p1 ld.relaxed.gpu.u32 r2, [x];"],
                           "(1:r0=0 /\\ 1:r2=0)", "forbidden"),
}


def gen_ptx():
    d = os.path.join(HERE, "ptx")
    os.makedirs(d, exist_ok=True)
    files = []
    for name, (h0, h1, c0, c1, cond, verdict) in PTX_TESTS.items():
        init = "{ x=0; y=0; }"
        if name.startswith("CAS-SL"):
            init = "{ x=0; y=1; }"
        cols = [[h0] + [c.rstrip(";") for c in c0], [h1] + [c.rstrip(";") for c in c1]]
        depth = max(len(c) for c in cols)
        w = [max(len(x) for x in c) for c in cols]
        lines = ["PTX %s" % name, '"scoped PTX memory model: the outcome is %s"' % verdict, init]
        for i in range(depth):
            cells = [(c[i] if i < len(c) else "").ljust(ww) for c, ww in zip(cols, w)]
            lines.append(" | ".join(cells).rstrip() + " ;")
        lines += ["exists %s" % cond, ""]
        fn = name + ".litmus"
        with open(os.path.join(d, fn), "w") as f:
            f.write("\n".join(lines))
        files.append("ptx/" + fn)
    return files


if __name__ == "__main__":
    a = gen()
    b = gen_ptx()
    print("wrote %d tests" % (len(a) + len(b)))
