#!/usr/bin/env python3
"""forms.py -- generate tests/census/forms.txt: one small PTX module for every
entry of the PTX census (what nvcc-compiled benchmark programs use), so that
lockstep's coverage of real PTX is measured rather than claimed.

The census ("What PTX real programs use": 231 benchmarks compiled with
nvcc 13.0 for sm_75) has four lists, copied verbatim below:

  forms      "Opcode + modifiers (type suffixes dropped), ranked by benchmarks
             using": 224 forms such as ld.global.nc, setp.lt, shfl.sync.bfly
  base       "Base opcodes, ranked by how many benchmarks use them": 63 rows
  sreg       "Special registers": 20 names
  directive  "Directives and declarations": 60 entries

For every entry this script writes one record: a complete PTX module
(.version 9.0 / .target sm_75 / .address_size 64, one .visible .entry unless
the entry is about some other declaration) holding a minimal but realistic use
of the entry: the type suffixes and operands nvcc would emit, and exactly the
registers the snippet uses (declared the way nvcc declares them, %r<N>).

Each record says whether lockstep is expected to load it:
  expect=supported    everything in the PTX core, i.e. all of the census except
                      the families below.  A supported record that lockstep
                      rejects is a lockstep bug: the test fails and says why.
  expect=unsupported  instructions in LOCKSTEP_UNSUPPORTED below (what
                      `lockstep ptx check` reported as "unsupported instruction"
                      outside the core's required set).  Loading must fail with
                      LOCKSTEP_ERROR_UNSUPPORTED_PTX and name the instruction.

Usage:
  python3 tests/census/forms.py            write tests/census/forms.txt
  python3 tests/census/forms.py --check    also assemble every snippet with
                                           `ptxas -arch=<target>` and run
                                           `build/lockstep ptx check` on it,
                                           printing each disagreement
  --census PATH   compare the lists embedded here with a census markdown file

The output is deterministic (no randomness, fixed order); standard library only.
The record format is described in the header this script writes (FORMAT_DOC).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(HERE, "forms.txt")

# --------------------------------------------------------------------------
# The census lists, copied verbatim (the forms line, the base-opcode table,
# the special registers, the directives).
# --------------------------------------------------------------------------

CENSUS_FORMS = """1.`ret`(231/1084), 2.`mov`(228/41486), 3.`add`(225/67006), 4.`ld.param`(225/5521), 5.`cvta.to.global`(220/3005), 6.`bra`(212/18444), 7.`mul.wide`(206/9159), 8.`st.global`(204/9576), 9.`mad.lo`(199/3165), 10.`shl`(172/13432), 11.`ld.global`(171/11792), 12.`setp.lt`(163/7322), 13.`setp.ge`(163/5208), 14.`sub`(153/15001), 15.`setp.eq`(150/6306), 16.`setp.ne`(150/6016), 17.`and`(148/14588), 18.`mul.lo`(133/2132), 19.`cvt`(128/6793), 20.`or`(122/2991), 21.`fma.rn`(117/27401), 22.`mul`(116/22249), 23.`setp.gt`(114/2507), 24.`shr`(110/9880), 25.`st.shared`(95/9663), 26.`ld.shared`(94/14160), 27.`selp`(93/10634), 28.`bra.uni`(93/3050), 29.`cvt.rn`(89/2218), 30.`not`(67/3641), 31.`neg`(67/1279), 32.`bar.sync`(61/2110), 33.`div.rn`(61/809), 34.`setp.le`(53/439), 35.`xor`(49/3379), 36.`barrier.sync`(45/1093), 37.`max`(45/556), 38.`cvt.rzi`(35/439), 39.`div`(34/303), 40.`min`(32/1017), 41.`ld.const`(29/1059), 42.`abs`(29/1005), 43.`st.global.v2`(26/154), 44.`tex.2d.v4`(25/483), 45.`st.global.v4`(24/176), 46.`bfi`(24/80), 47.`rcp.rn`(22/737), 48.`ld.local`(22/477), 49.`st.local`(22/332), 50.`sqrt.rn`(22/145), 51.`ld.global.nc`(21/3581), 52.`setp.geu`(21/645), 53.`atom.global.add`(20/76), 54.`ld.global.v2`(18/127), 55.`bar.warp.sync`(16/1948), 56.`ld.global.v4`(16/872), 57.`st.param`(16/475), 58.`call.uni`(15/148), 59.`setp.ltu`(15/58), 60.`atom.shared.add`(14/1141), 61.`ld.shared.v4`(14/389), 62.`cvt.rni`(14/56), 63.`st.shared.v4`(13/891), 64.`tex.1d.v4`(13/266), 65.`mul.rn`(13/163), 66.`ld.volatile.shared`(12/1121), 67.`st.volatile.shared`(12/746), 68.`cvt.sat`(12/220), 69.`clz`(11/424), 70.`shfl.sync.idx`(11/424), 71.`popc`(11/404), 72.`vote.sync.ballot`(11/144), 73.`rem`(11/102), 74.`brev`(11/68), 75.`cvta.local`(11/18), 76.`ld.volatile.global`(10/86), 77.`setp.leu`(10/64), 78.`mad.wide`(10/50), 79.`cvta.global`(9/47), 80.`ld.shared.v2`(8/715), 81.`shfl.sync.up`(8/561), 82.`st`(8/131), 83.`ex2.approx`(8/108), 84.`rcp.approx.ftz`(8/79), 85.`st.local.v2`(8/27), 86.`bfind.shiftamt`(8/24), 87.`shfl.sync.down`(7/1734), 88.`shfl.sync.bfly`(7/333), 89.`setp.neu`(7/142), 90.`setp.gtu`(7/138), 91.`ex2.approx.ftz`(7/87), 92.`ld.global.nc.v2`(7/61), 93.`add.rn`(6/677), 94.`fma.rm`(6/83), 95.`st.volatile.global`(6/78), 96.`membar.cta`(6/76), 97.`rsqrt.approx`(5/272), 98.`st.shared.v2`(5/221), 99.`div.approx`(5/83), 100.`nanosleep`(5/70), 101.`cvta.shared`(5/49), 102.`ld.global.nc.v4`(5/22), 103.`mul.hi`(5/20), 104.`vote.ballot.sync`(4/2944), 105.`bmsk.clamp`(4/171), 106.`cos.approx`(4/77), 107.`sin.approx`(4/77), 108.`vote.sync.any`(4/46), 109.`atom.global.min`(4/40), 110.`st.local.v4`(4/33), 111.`atom.add.release.gpu`(4/32), 112.`ld.acquire.gpu`(4/32), 113.`trap`(4/32), 114.`tex.3d.v4`(4/26), 115.`vote.sync.all`(4/24), 116.`ld.const.v4`(4/23), 117.`activemask`(4/12), 118.`copysign`(4/12), 119.`bar.red.or`(4/9), 120.`exit`(4/9), 121.`atom.global.max`(4/5), 122.`prmt`(3/79), 123.`ld.relaxed.gpu.v2`(3/72), 124.`ld`(3/57), 125.`st.relaxed.gpu.v2`(3/45), 126.`atom.global.exch`(3/39), 127.`ld.acquire.cta`(3/24), 128.`match.any.sync`(3/16), 129.`cvt.rmi`(3/15), 130.`cvta.to.local`(3/9), 131.`lg2.approx`(3/8), 132.`atom.global.or`(3/7), 133.`ld.param.v2`(3/5), 134.`cvt.rpi`(3/3), 135.`wmma.mma.sync.aligned.row.col.m16n16k16`(2/4106), 136.`wmma.load.b.sync.aligned.col.m16n16k16.shared`(2/2048), 137.`wmma.load.a.sync.aligned.row.m16n16k16.shared`(2/1024), 138.`membar.gl`(2/28), 139.`call`(2/22), 140.`atom.global.inc`(2/21), 141.`ld.volatile.global.v4`(2/21), 142.`wmma.load.c.sync.aligned.row.m16n16k16.shared`(2/16), 143.`wmma.store.d.sync.aligned.row.m16n16k16.shared`(2/16), 144.`atom.shared.exch`(2/12), 145.`wmma.load.a.sync.aligned.row.m16n16k16.global`(2/10), 146.`wmma.load.b.sync.aligned.col.m16n16k16.global`(2/10), 147.`st.volatile`(2/9), 148.`tex.a2d.v4`(2/9), 149.`atom.add.relaxed.cta`(2/7), 150.`atom.add.acq_rel.cta`(2/6), 151.`atom.global.sys.add`(2/5), 152.`ld.volatile`(2/5), 153.`ld.param.v4`(2/3), 154.`wmma.load.c.sync.aligned.row.m16n16k16.global`(2/2), 155.`wmma.store.d.sync.aligned.row.m16n16k16.global`(2/2), 156.`ld.ca`(1/98), 157.`mul.rp`(1/71), 158.`add.rp`(1/64), 159.`shf.l.wrap`(1/64), 160.`st.release.sys.global`(1/54), 161.`mul.rm`(1/49), 162.`ld.cg`(1/48), 163.`add.rm`(1/37), 164.`setp.nan`(1/30), 165.`st.cg`(1/30), 166.`sub.ftz`(1/29), 167.`mul.ftz`(1/28), 168.`div.rp`(1/25), 169.`div.rm`(1/20), 170.`fma.rn.ftz`(1/16), 171.`ld.acquire.sys.global`(1/14), 172.`atom.or.acq_rel.cta`(1/12), 173.`red.and.release.cta`(1/12), 174.`st.release.gpu`(1/10), 175.`ld.relaxed.gpu`(1/8), 176.`membar.sys`(1/7), 177.`mad.lo.cc`(1/6), 178.`tex.cube.v4`(1/6), 179.`vabsdiff4.add`(1/6), 180.`ld.local.v4`(1/5), 181.`atom.add`(1/4), 182.`madc.hi`(1/4), 183.`addc`(1/3), 184.`atom.shared.or`(1/3), 185.`bfind`(1/3), 186.`ld.const.v2`(1/3), 187.`madc.hi.cc`(1/3), 188.`setp.num`(1/3), 189.`abs.ftz`(1/2), 190.`addc.cc`(1/2), 191.`atom.global.sys.and`(1/2), 192.`atom.global.sys.cas`(1/2), 193.`atom.global.sys.dec`(1/2), 194.`atom.global.sys.exch`(1/2), 195.`atom.global.sys.inc`(1/2), 196.`atom.global.sys.max`(1/2), 197.`atom.global.sys.min`(1/2), 198.`atom.global.sys.or`(1/2), 199.`atom.global.sys.xor`(1/2), 200.`div.approx.ftz`(1/2), 201.`fma.rz`(1/2), 202.`setp.eq.ftz`(1/2), 203.`setp.geu.ftz`(1/2), 204.`setp.lt.ftz`(1/2), 205.`st.relaxed.cta`(1/2), 206.`subc.cc`(1/2), 207.`add.cc`(1/1), 208.`add.rz`(1/1), 209.`atom.add.acquire.cta`(1/1), 210.`atom.global.and`(1/1), 211.`atom.global.cas`(1/1), 212.`atom.global.dec`(1/1), 213.`atom.global.xor`(1/1), 214.`fence.sc.cta`(1/1), 215.`ld.relaxed.cta`(1/1), 216.`madc.lo.cc`(1/1), 217.`sub.cc`(1/1), 218.`subc`(1/1), 219.`sust.b.1d.v4.trap`(1/1), 220.`sust.b.2d.trap`(1/1), 221.`sust.b.2d.v4.trap`(1/1), 222.`sust.b.3d.trap`(1/1), 223.`sust.b.a2d.v4.trap`(1/1), 224.`tex.level.2d.v4`(1/1)"""

CENSUS_BASE = """
| 1 | `ret` | 1084 | 231 |
| 2 | `mov` | 41486 | 228 |
| 3 | `ld` | 40402 | 228 |
| 4 | `add` | 67786 | 225 |
| 5 | `cvta` | 3128 | 225 |
| 6 | `st` | 22653 | 224 |
| 7 | `mul` | 33871 | 218 |
| 8 | `setp` | 28884 | 212 |
| 9 | `bra` | 21494 | 212 |
| 10 | `mad` | 3221 | 201 |
| 11 | `shl` | 13432 | 172 |
| 12 | `sub` | 15031 | 153 |
| 13 | `and` | 14588 | 148 |
| 14 | `cvt` | 9744 | 147 |
| 15 | `or` | 2991 | 122 |
| 16 | `fma` | 27502 | 118 |
| 17 | `shr` | 9880 | 110 |
| 18 | `selp` | 10634 | 93 |
| 19 | `div` | 1242 | 85 |
| 20 | `bar` | 4067 | 69 |
| 21 | `not` | 3641 | 67 |
| 22 | `neg` | 1279 | 67 |
| 23 | `xor` | 3379 | 49 |
| 24 | `barrier` | 1093 | 45 |
| 25 | `max` | 556 | 45 |
| 26 | `tex` | 791 | 42 |
| 27 | `min` | 1017 | 32 |
| 28 | `atom` | 1433 | 31 |
| 29 | `abs` | 1007 | 29 |
| 30 | `rcp` | 816 | 26 |
| 31 | `bfi` | 80 | 24 |
| 32 | `sqrt` | 145 | 22 |
| 33 | `shfl` | 3052 | 19 |
| 34 | `call` | 170 | 16 |
| 35 | `ex2` | 195 | 15 |
| 36 | `vote` | 3158 | 12 |
| 37 | `clz` | 424 | 11 |
| 38 | `popc` | 404 | 11 |
| 39 | `rem` | 102 | 11 |
| 40 | `brev` | 68 | 11 |
| 41 | `membar` | 111 | 8 |
| 42 | `bfind` | 27 | 8 |
| 43 | `rsqrt` | 272 | 5 |
| 44 | `nanosleep` | 70 | 5 |
| 45 | `bmsk` | 171 | 4 |
| 46 | `cos` | 77 | 4 |
| 47 | `sin` | 77 | 4 |
| 48 | `trap` | 32 | 4 |
| 49 | `activemask` | 12 | 4 |
| 50 | `copysign` | 12 | 4 |
| 51 | `exit` | 9 | 4 |
| 52 | `prmt` | 79 | 3 |
| 53 | `match` | 16 | 3 |
| 54 | `lg2` | 8 | 3 |
| 55 | `sust` | 5 | 3 |
| 56 | `wmma` | 7234 | 2 |
| 57 | `shf` | 64 | 1 |
| 58 | `red` | 12 | 1 |
| 59 | `madc` | 8 | 1 |
| 60 | `vabsdiff4` | 6 | 1 |
| 61 | `addc` | 5 | 1 |
| 62 | `subc` | 3 | 1 |
| 63 | `fence` | 1 | 1 |
"""

CENSUS_SREGS = """`%tid.x` (223), `%ctaid.x` (215), `%ntid.x` (183), `%ctaid.y` (93), `%tid.y` (92), `%nctaid.x` (75), `%ntid.y` (75), `%tid.z` (21), `%laneid` (16), `%ntid.z` (14), `%nctaid.y` (12), `%ctaid.z` (8), `%nctaid.z` (7), `%clock64` (6), `%lanemask_le` (4), `%lanemask_lt` (4), `%envreg1` (4), `%envreg2` (4), `%lanemask_ge` (3), `%globaltimer` (3)"""

CENSUS_DIRECTIVES = """
- `.address_size 64` — 231 benchmarks
- `.target sm_75` — 231 benchmarks
- `.version 9.0` — 231 benchmarks
- `.reg .b64 (array %name<N>)` — 228 benchmarks
- `.reg .b32 (array %name<N>)` — 227 benchmarks
- `.param .u64` — 223 benchmarks
- `.visible .entry` — 220 benchmarks
- `.reg .pred (array %name<N>)` — 212 benchmarks
- `.param .u32` — 198 benchmarks
- `.reg .f32 (array %name<N>)` — 172 benchmarks
- `.pragma "nounroll"` — 85 benchmarks
- `.shared .align N .<type> name[N]` — 74 benchmarks
- `.param .f32` — 66 benchmarks
- `.reg .b16 (array %name<N>)` — 60 benchmarks
- `.reg .f64 (array %name<N>)` — 49 benchmarks
- `.extern .shared .align N .<type> name[]` — 38 benchmarks
- `.global .align N .<type> name[N]` — 33 benchmarks
- `.reg .b64 (scalar)` — 30 benchmarks
- `.const .align N .<type> name[N]` — 27 benchmarks
- `.local .align N .<type> name[N]` — 27 benchmarks
- `.global .align N .<type> name[N] = {initializer}` — 26 benchmarks
- `.param .align N .b8 name[K] (by-value struct/array)` — 20 benchmarks
- `.reg .b32 (scalar)` — 19 benchmarks
- `.shared .align N .<type> name` — 18 benchmarks
- `.param (call-sequence local) .b64` — 15 benchmarks
- `.param .b64` — 15 benchmarks
- `.param (call-sequence local) .b32` — 14 benchmarks
- `.entry` — 13 benchmarks
- `.param .b32` — 11 benchmarks
- `.extern .func (retval) with .param list` — 10 benchmarks
- `.maxntid` — 9 benchmarks
- `.const .align N .<type> name[N] = {initializer}` — 9 benchmarks
- `.param .u8` — 8 benchmarks
- `.param (call-sequence local) .align` — 7 benchmarks
- `.reg .u32 (scalar)` — 6 benchmarks
- `.param .f64` — 6 benchmarks
- `.pragma "used_bytes_mask 61695"` — 6 benchmarks
- `.global .align N .<type> name` — 6 benchmarks
- `.reg .pred (scalar)` — 5 benchmarks
- `.minnctapersm` — 5 benchmarks
- `.reg .s32 (scalar)` — 4 benchmarks
- `.reg .u64 (scalar)` — 4 benchmarks
- `.func (retval) with .param list` — 4 benchmarks
- `.const .align N .<type> name` — 4 benchmarks
- `.pragma "used_bytes_mask 4080"` — 4 benchmarks
- `.pragma "used_bytes_mask 65520"` — 4 benchmarks
- `.extern .func` — 4 benchmarks
- `.pragma "used_bytes_mask 4095"` — 3 benchmarks
- `label: .callprototype (indirect-call signature)` — 2 benchmarks
- `.func` — 2 benchmarks
- `.param .u16` — 2 benchmarks
- `.weak .entry` — 2 benchmarks
- `.visible .func` — 2 benchmarks
- `.pragma "used_bytes_mask 7"` — 1 benchmarks
- `.weak .func` — 1 benchmarks
- `.reg .f16 (scalar)` — 1 benchmarks
- `.global .align N .<type> name = value` — 1 benchmarks
- `.extern .entry` — 1 benchmarks
- `.noreturn` — 1 benchmarks
- `.visible .global .align N .<type> name` — 1 benchmarks
"""


def parse_census():
    """The four lists as (form, rank, benchmarks, static-or-None) tuples."""
    forms = [(m.group(2), int(m.group(1)), int(m.group(3)), int(m.group(4)))
             for m in re.finditer(r"(\d+)\.`([^`]+)`\((\d+)/(\d+)\)", CENSUS_FORMS)]
    base = [(m.group(2), int(m.group(1)), int(m.group(4)), int(m.group(3)))
            for m in re.finditer(r"\| (\d+) \| `([^`]+)` \| (\d+) \| (\d+) \|", CENSUS_BASE)]
    sregs = [(m.group(1), i + 1, int(m.group(2)), None)
             for i, m in enumerate(re.finditer(r"`(%[^`]+)` \((\d+)\)", CENSUS_SREGS))]
    dirs = [(m.group(1), i + 1, int(m.group(2)), None)
            for i, m in enumerate(re.finditer(r"^- `(.+)` — (\d+) benchmarks$",
                                              CENSUS_DIRECTIVES, re.M))]
    assert [r for _, r, _, _ in forms] == list(range(1, 225)), "forms list"
    assert [r for _, r, _, _ in base] == list(range(1, 64)), "base table"
    assert len(sregs) == 20 and len(dirs) == 60
    return {"forms": forms, "base": base, "sreg": sregs, "directive": dirs}


def compare_with_census_file(path, lists):
    """Check that the embedded lists match the census markdown at `path`."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    ok = True
    for piece in (CENSUS_FORMS, CENSUS_SREGS):
        if piece not in text:
            print("census differs: %s..." % piece[:40], file=sys.stderr)
            ok = False
    for line in (CENSUS_BASE + CENSUS_DIRECTIVES).strip().splitlines():
        if line not in text:
            print("census differs: %s" % line, file=sys.stderr)
            ok = False
    return ok


# --------------------------------------------------------------------------
# Building modules
# --------------------------------------------------------------------------

HEADER = ".version 9.0\n.target %s\n.address_size 64\n"

# Register prefixes nvcc uses, in the order it declares them.  The regex
# tries the two-letter prefixes first so %rd1 is not read as %r.
REG_CLASSES = [("p", ".pred"), ("rs", ".b16"), ("r", ".b32"), ("f", ".f32"),
               ("rd", ".b64"), ("fd", ".f64")]
REG_RE = re.compile(r"%(rd|rs|fd|p|r|f)(\d+)\b")


def reg_decls(body):
    """The .reg declarations for the numbered registers `body` uses."""
    top = {}
    for m in REG_RE.finditer(body):
        top[m.group(1)] = max(top.get(m.group(1), 0), int(m.group(2)) + 1)
    return ["\t.reg %s \t%%%s<%d>;" % (t, p, top[p]) for p, t in REG_CLASSES if p in top]


def kernel(body, params=(), pre="", decls=(), target="sm_75", head=".visible .entry",
           name="k", attrs="", ret=True):
    """A module with one kernel `name` whose body is `body` (lines joined by
    newlines, instructions indented with a tab) followed by ret.  `pre` is
    module-scope text before the kernel, `params` the kernel's .param lines,
    `decls` extra declarations at the top of the body."""
    lines = [HEADER % target]
    if pre:
        lines.append(pre.rstrip("\n") + "\n")
    if params:
        plist = ",\n".join("\t" + p for p in params)
        lines.append("%s %s(\n%s\n)%s\n{" % (head, name, plist, attrs))
    else:
        lines.append("%s %s()%s\n{" % (head, name, attrs))
    text = body.strip("\n")
    decl_lines = ["\t" + d for d in decls] + reg_decls(text)
    if decl_lines:
        lines.extend(decl_lines)
        lines.append("")
    lines.append(text)
    if ret:
        lines.append("\tret;")
    lines.append("}")
    return "\n".join(lines) + "\n"


def one(insn, **kw):
    """A kernel whose body is the single instruction (or lines) `insn`."""
    return kernel("\n".join("\t" + s if not s.endswith(":") else s
                            for s in insn.strip().split("\n")), **kw)


P64 = [".param .u64 k_param_0"]
FUNC = """.func (.param .b32 func_retval0) foo(
\t.param .b32 foo_param_0
)
{
\t.reg .b32 \t%r<3>;

\tld.param.b32 \t%r1, [foo_param_0];
\tadd.s32 \t%r2, %r1, 1;
\tst.param.b32 \t[func_retval0], %r2;
\tret;
}
"""


def call_seq(call="call.uni", target="foo"):
    """An nvcc-style call block: parameter, return value, call, result."""
    return ("\t{ // callseq 0, 0\n"
            "\t.param .b32 param0;\n"
            "\tst.param.b32 \t[param0], %r1;\n"
            "\t.param .b32 retval0;\n"
            "\t" + call + " (retval0), \n\t" + target + ", \n\t(\n\tparam0\n\t);\n"
            "\tld.param.b32 \t%r2, [retval0];\n"
            "\t} // callseq 0")


def branch(insn):
    """A conditional or unconditional jump forward to a label."""
    return "\t%s \t$L__BB0_2;\n\tadd.s32 \t%%r2, %%r1, 1;\n$L__BB0_2:" % insn


V4F = "{%f1, %f2, %f3, %f4}"
V2F = "{%f1, %f2}"
V8R = "{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}"
V8R2 = "{%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}"
V8F = "{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}"
V8F2 = "{%f9, %f10, %f11, %f12, %f13, %f14, %f15, %f16}"

# --------------------------------------------------------------------------
# One snippet per census form.  Types: .s32 for integer arithmetic, .u32 for
# carry chains and unsigned forms nvcc uses, .b32 for bit operations, .f32
# for the float forms, .u64 for addresses; global addresses in %rd registers,
# shared addresses in 32-bit %r registers (what nvcc emits for sm_75).
# --------------------------------------------------------------------------

FORMS = {
    "ret": one("ret;", ret=False),
    "mov": one("mov.u32 \t%r1, %tid.x;"),
    "add": one("add.s32 \t%r3, %r1, %r2;"),
    "ld.param": one("ld.param.u64 \t%rd1, [k_param_0];", params=P64),
    "cvta.to.global": one("cvta.to.global.u64 \t%rd2, %rd1;"),
    "bra": kernel(branch("@%p1 bra")),
    "mul.wide": one("mul.wide.s32 \t%rd1, %r1, 4;"),
    "st.global": one("st.global.f32 \t[%rd1], %f1;"),
    "mad.lo": one("mad.lo.s32 \t%r4, %r1, %r2, %r3;"),
    "shl": one("shl.b32 \t%r2, %r1, 2;"),
    "ld.global": one("ld.global.f32 \t%f1, [%rd1];"),
    "setp.lt": one("setp.lt.s32 \t%p1, %r1, %r2;"),
    "setp.ge": one("setp.ge.s32 \t%p1, %r1, %r2;"),
    "sub": one("sub.s32 \t%r3, %r1, %r2;"),
    "setp.eq": one("setp.eq.s32 \t%p1, %r1, 0;"),
    "setp.ne": one("setp.ne.s32 \t%p1, %r1, %r2;"),
    "and": one("and.b32 \t%r3, %r1, %r2;"),
    "mul.lo": one("mul.lo.s32 \t%r3, %r1, %r2;"),
    "cvt": one("cvt.u64.u32 \t%rd1, %r1;"),
    "or": one("or.b32 \t%r3, %r1, %r2;"),
    "fma.rn": one("fma.rn.f32 \t%f4, %f1, %f2, %f3;"),
    "mul": one("mul.f32 \t%f3, %f1, %f2;"),
    "setp.gt": one("setp.gt.s32 \t%p1, %r1, %r2;"),
    "shr": one("shr.u32 \t%r2, %r1, 31;"),
    "st.shared": one("st.shared.f32 \t[%r1], %f1;"),
    "ld.shared": one("ld.shared.f32 \t%f1, [%r1];"),
    "selp": one("selp.b32 \t%r3, %r1, %r2, %p1;"),
    "bra.uni": kernel(branch("bra.uni")),
    "cvt.rn": one("cvt.rn.f32.s32 \t%f1, %r1;"),
    "not": one("not.b32 \t%r2, %r1;"),
    "neg": one("neg.s32 \t%r2, %r1;"),
    "bar.sync": one("bar.sync \t0;"),
    "div.rn": one("div.rn.f32 \t%f3, %f1, %f2;"),
    "setp.le": one("setp.le.s32 \t%p1, %r1, %r2;"),
    "xor": one("xor.b32 \t%r3, %r1, %r2;"),
    "barrier.sync": one("barrier.sync \t0;"),
    "max": one("max.s32 \t%r3, %r1, %r2;"),
    "cvt.rzi": one("cvt.rzi.s32.f32 \t%r1, %f1;"),
    "div": one("div.s32 \t%r3, %r1, %r2;"),
    "min": one("min.s32 \t%r3, %r1, %r2;"),
    "ld.const": one("ld.const.f32 \t%f1, [cdata+4];",
                    pre=".const .align 4 .b8 cdata[64];"),
    "abs": one("abs.f32 \t%f2, %f1;"),
    "st.global.v2": one("st.global.v2.f32 \t[%rd1], " + V2F + ";"),
    "tex.2d.v4": one("tex.2d.v4.f32.f32 \t" + V4F + ", [%rd1, {%f5, %f6}];"),
    "st.global.v4": one("st.global.v4.f32 \t[%rd1], " + V4F + ";"),
    "bfi": one("bfi.b32 \t%r5, %r1, %r2, %r3, %r4;"),
    "rcp.rn": one("rcp.rn.f32 \t%f2, %f1;"),
    "ld.local": one("ld.local.u32 \t%r1, [%rd1];"),
    "st.local": one("st.local.u32 \t[%rd1], %r1;"),
    "sqrt.rn": one("sqrt.rn.f32 \t%f2, %f1;"),
    "ld.global.nc": one("ld.global.nc.f32 \t%f1, [%rd1];"),
    "setp.geu": one("setp.geu.f32 \t%p1, %f1, %f2;"),
    "atom.global.add": one("atom.global.add.u32 \t%r2, [%rd1], %r1;"),
    "ld.global.v2": one("ld.global.v2.f32 \t" + V2F + ", [%rd1];"),
    "bar.warp.sync": one("bar.warp.sync \t-1;"),
    "ld.global.v4": one("ld.global.v4.f32 \t" + V4F + ", [%rd1];"),
    "st.param": kernel(call_seq(), pre=FUNC),
    "call.uni": kernel(call_seq(), pre=FUNC),
    "setp.ltu": one("setp.ltu.f32 \t%p1, %f1, %f2;"),
    "atom.shared.add": one("atom.shared.add.u32 \t%r3, [%r1], %r2;"),
    "ld.shared.v4": one("ld.shared.v4.f32 \t" + V4F + ", [%r1];"),
    "cvt.rni": one("cvt.rni.s32.f32 \t%r1, %f1;"),
    "st.shared.v4": one("st.shared.v4.f32 \t[%r1], " + V4F + ";"),
    "tex.1d.v4": one("tex.1d.v4.f32.s32 \t" + V4F + ", [%rd1, {%r1}];"),
    "mul.rn": one("mul.rn.f32 \t%f3, %f1, %f2;"),
    "ld.volatile.shared": one("ld.volatile.shared.u32 \t%r2, [%r1];"),
    "st.volatile.shared": one("st.volatile.shared.u32 \t[%r1], %r2;"),
    "cvt.sat": one("cvt.sat.f32.f32 \t%f2, %f1;"),
    "clz": one("clz.b32 \t%r2, %r1;"),
    "shfl.sync.idx": one("shfl.sync.idx.b32 \t%r3, %r1, %r2, 31, -1;"),
    "popc": one("popc.b32 \t%r2, %r1;"),
    "vote.sync.ballot": one("vote.sync.ballot.b32 \t%r1, %p1, -1;"),
    "rem": one("rem.s32 \t%r3, %r1, %r2;"),
    "brev": one("brev.b32 \t%r2, %r1;"),
    "cvta.local": one("cvta.local.u64 \t%rd2, %rd1;"),
    "ld.volatile.global": one("ld.volatile.global.u32 \t%r1, [%rd1];"),
    "setp.leu": one("setp.leu.f32 \t%p1, %f1, %f2;"),
    "mad.wide": one("mad.wide.s32 \t%rd2, %r1, 4, %rd1;"),
    "cvta.global": one("cvta.global.u64 \t%rd2, %rd1;"),
    "ld.shared.v2": one("ld.shared.v2.f32 \t" + V2F + ", [%r1];"),
    "shfl.sync.up": one("shfl.sync.up.b32 \t%r2, %r1, 1, 0, -1;"),
    "st": one("st.u32 \t[%rd1], %r1;"),
    "ex2.approx": one("ex2.approx.f32 \t%f2, %f1;"),
    "rcp.approx.ftz": one("rcp.approx.ftz.f32 \t%f2, %f1;"),
    "st.local.v2": one("st.local.v2.u32 \t[%rd1], {%r1, %r2};"),
    "bfind.shiftamt": one("bfind.shiftamt.u32 \t%r2, %r1;"),
    "shfl.sync.down": one("shfl.sync.down.b32 \t%r2, %r1, 16, 31, -1;"),
    "shfl.sync.bfly": one("shfl.sync.bfly.b32 \t%r2|%p1, %r1, 16, 31, -1;"),
    "setp.neu": one("setp.neu.f32 \t%p1, %f1, %f2;"),
    "setp.gtu": one("setp.gtu.f32 \t%p1, %f1, %f2;"),
    "ex2.approx.ftz": one("ex2.approx.ftz.f32 \t%f2, %f1;"),
    "ld.global.nc.v2": one("ld.global.nc.v2.f32 \t" + V2F + ", [%rd1];"),
    "add.rn": one("add.rn.f32 \t%f3, %f1, %f2;"),
    "fma.rm": one("fma.rm.f32 \t%f4, %f1, %f2, %f3;"),
    "st.volatile.global": one("st.volatile.global.u32 \t[%rd1], %r1;"),
    "membar.cta": one("membar.cta;"),
    "rsqrt.approx": one("rsqrt.approx.f32 \t%f2, %f1;"),
    "st.shared.v2": one("st.shared.v2.f32 \t[%r1], " + V2F + ";"),
    "div.approx": one("div.approx.f32 \t%f3, %f1, %f2;"),
    "nanosleep": one("nanosleep.u32 \t%r1;"),
    "cvta.shared": one("cvta.shared.u64 \t%rd2, %rd1;"),
    "ld.global.nc.v4": one("ld.global.nc.v4.f32 \t" + V4F + ", [%rd1];"),
    "mul.hi": one("mul.hi.s32 \t%r3, %r1, %r2;"),
    "vote.ballot.sync": one("vote.ballot.sync.b32 \t%r1, %p1, -1;"),
    "bmsk.clamp": one("bmsk.clamp.b32 \t%r3, %r1, %r2;"),
    "cos.approx": one("cos.approx.f32 \t%f2, %f1;"),
    "sin.approx": one("sin.approx.f32 \t%f2, %f1;"),
    "vote.sync.any": one("vote.sync.any.pred \t%p2, %p1, -1;"),
    "atom.global.min": one("atom.global.min.s32 \t%r2, [%rd1], %r1;"),
    "st.local.v4": one("st.local.v4.u32 \t[%rd1], {%r1, %r2, %r3, %r4};"),
    "atom.add.release.gpu": one("atom.add.release.gpu.u32 \t%r2, [%rd1], %r1;"),
    "ld.acquire.gpu": one("ld.acquire.gpu.u32 \t%r1, [%rd1];"),
    "trap": one("trap;"),
    "tex.3d.v4": one("tex.3d.v4.f32.f32 \t" + V4F + ", [%rd1, {%f5, %f6, %f7, %f8}];"),
    "vote.sync.all": one("vote.sync.all.pred \t%p2, %p1, -1;"),
    "ld.const.v4": one("ld.const.v4.f32 \t" + V4F + ", [cdata];",
                       pre=".const .align 16 .b8 cdata[64];"),
    "activemask": one("activemask.b32 \t%r1;"),
    "copysign": one("copysign.f32 \t%f3, %f1, %f2;"),
    "bar.red.or": one("bar.red.or.pred \t%p2, 0, %p1;"),
    "exit": one("exit;"),
    "atom.global.max": one("atom.global.max.s32 \t%r2, [%rd1], %r1;"),
    "prmt": one("prmt.b32 \t%r4, %r1, %r2, %r3;"),
    "ld.relaxed.gpu.v2": one("ld.relaxed.gpu.v2.u32 \t{%r1, %r2}, [%rd1];"),
    "ld": one("ld.u32 \t%r1, [%rd1];"),
    "st.relaxed.gpu.v2": one("st.relaxed.gpu.v2.u32 \t[%rd1], {%r1, %r2};"),
    "atom.global.exch": one("atom.global.exch.b32 \t%r2, [%rd1], %r1;"),
    "ld.acquire.cta": one("ld.acquire.cta.u32 \t%r1, [%rd1];"),
    "match.any.sync": one("match.any.sync.b32 \t%r2, %r1, -1;"),
    "cvt.rmi": one("cvt.rmi.f32.f32 \t%f2, %f1;"),
    "cvta.to.local": one("cvta.to.local.u64 \t%rd2, %rd1;"),
    "lg2.approx": one("lg2.approx.f32 \t%f2, %f1;"),
    "atom.global.or": one("atom.global.or.b32 \t%r2, [%rd1], %r1;"),
    "ld.param.v2": one("ld.param.v2.u32 \t{%r1, %r2}, [k_param_0];",
                       params=[".param .align 8 .b8 k_param_0[8]"]),
    "cvt.rpi": one("cvt.rpi.f32.f32 \t%f2, %f1;"),
    "wmma.mma.sync.aligned.row.col.m16n16k16": one(
        "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 \t" + V8F + ", " + V8R + ", "
        + V8R2 + ", " + V8F2 + ";"),
    "wmma.load.b.sync.aligned.col.m16n16k16.shared": one(
        "wmma.load.b.sync.aligned.col.m16n16k16.shared.f16 \t" + V8R + ", [%r9], %r10;"),
    "wmma.load.a.sync.aligned.row.m16n16k16.shared": one(
        "wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 \t" + V8R + ", [%r9], %r10;"),
    "membar.gl": one("membar.gl;"),
    "call": kernel(call_seq("call"), pre=FUNC),
    "atom.global.inc": one("atom.global.inc.u32 \t%r2, [%rd1], %r1;"),
    "ld.volatile.global.v4": one("ld.volatile.global.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd1];"),
    "wmma.load.c.sync.aligned.row.m16n16k16.shared": one(
        "wmma.load.c.sync.aligned.row.m16n16k16.shared.f32 \t" + V8F + ", [%r1], %r2;"),
    "wmma.store.d.sync.aligned.row.m16n16k16.shared": one(
        "wmma.store.d.sync.aligned.row.m16n16k16.shared.f32 \t[%r1], " + V8F + ", %r2;"),
    "atom.shared.exch": one("atom.shared.exch.b32 \t%r3, [%r1], %r2;"),
    "wmma.load.a.sync.aligned.row.m16n16k16.global": one(
        "wmma.load.a.sync.aligned.row.m16n16k16.global.f16 \t" + V8R + ", [%rd1], %r9;"),
    "wmma.load.b.sync.aligned.col.m16n16k16.global": one(
        "wmma.load.b.sync.aligned.col.m16n16k16.global.f16 \t" + V8R + ", [%rd1], %r9;"),
    "st.volatile": one("st.volatile.u32 \t[%rd1], %r1;"),
    "tex.a2d.v4": one("tex.a2d.v4.f32.f32 \t" + V4F + ", [%rd1, {%r1, %f5, %f6, %f6}];"),
    "atom.add.relaxed.cta": one("atom.add.relaxed.cta.u32 \t%r2, [%rd1], %r1;"),
    "atom.add.acq_rel.cta": one("atom.add.acq_rel.cta.u32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.add": one("atom.global.sys.add.u32 \t%r2, [%rd1], %r1;"),
    "ld.volatile": one("ld.volatile.u32 \t%r1, [%rd1];"),
    "ld.param.v4": one("ld.param.v4.u32 \t{%r1, %r2, %r3, %r4}, [k_param_0];",
                       params=[".param .align 16 .b8 k_param_0[16]"]),
    "wmma.load.c.sync.aligned.row.m16n16k16.global": one(
        "wmma.load.c.sync.aligned.row.m16n16k16.global.f32 \t" + V8F + ", [%rd1], %r1;"),
    "wmma.store.d.sync.aligned.row.m16n16k16.global": one(
        "wmma.store.d.sync.aligned.row.m16n16k16.global.f32 \t[%rd1], " + V8F + ", %r1;"),
    "ld.ca": one("ld.ca.u32 \t%r1, [%rd1];"),
    "mul.rp": one("mul.rp.f32 \t%f3, %f1, %f2;"),
    "add.rp": one("add.rp.f32 \t%f3, %f1, %f2;"),
    "shf.l.wrap": one("shf.l.wrap.b32 \t%r4, %r1, %r2, %r3;"),
    "st.release.sys.global": one("st.release.sys.global.u32 \t[%rd1], %r1;"),
    "mul.rm": one("mul.rm.f32 \t%f3, %f1, %f2;"),
    "ld.cg": one("ld.cg.u32 \t%r1, [%rd1];"),
    "add.rm": one("add.rm.f32 \t%f3, %f1, %f2;"),
    "setp.nan": one("setp.nan.f32 \t%p1, %f1, %f2;"),
    "st.cg": one("st.cg.u32 \t[%rd1], %r1;"),
    "sub.ftz": one("sub.ftz.f32 \t%f3, %f1, %f2;"),
    "mul.ftz": one("mul.ftz.f32 \t%f3, %f1, %f2;"),
    "div.rp": one("div.rp.f32 \t%f3, %f1, %f2;"),
    "div.rm": one("div.rm.f32 \t%f3, %f1, %f2;"),
    "fma.rn.ftz": one("fma.rn.ftz.f32 \t%f4, %f1, %f2, %f3;"),
    "ld.acquire.sys.global": one("ld.acquire.sys.global.u32 \t%r1, [%rd1];"),
    "atom.or.acq_rel.cta": one("atom.or.acq_rel.cta.b32 \t%r2, [%rd1], %r1;"),
    "red.and.release.cta": one("red.and.release.cta.b32 \t[%rd1], %r1;"),
    "st.release.gpu": one("st.release.gpu.u32 \t[%rd1], %r1;"),
    "ld.relaxed.gpu": one("ld.relaxed.gpu.u32 \t%r1, [%rd1];"),
    "membar.sys": one("membar.sys;"),
    "mad.lo.cc": one("mad.lo.cc.u32 \t%r4, %r1, %r2, %r3;"),
    "tex.cube.v4": one("tex.cube.v4.f32.f32 \t" + V4F + ", [%rd1, {%f5, %f6, %f7, %f8}];"),
    "vabsdiff4.add": one("vabsdiff4.u32.u32.u32.add \t%r4, %r1, %r2, %r3;"),
    "ld.local.v4": one("ld.local.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd1];"),
    "atom.add": one("atom.add.u32 \t%r2, [%rd1], %r1;"),
    # carry consumers follow the instruction that sets the carry, as in nvcc's
    # multi-word arithmetic
    "madc.hi": one("mad.lo.cc.u32 \t%r4, %r1, %r2, %r3;\n"
                   "madc.hi.u32 \t%r5, %r1, %r2, 0;"),
    "addc": one("add.cc.u32 \t%r3, %r1, %r2;\naddc.u32 \t%r6, %r4, %r5;"),
    "atom.shared.or": one("atom.shared.or.b32 \t%r3, [%r1], %r2;"),
    "bfind": one("bfind.u32 \t%r2, %r1;"),
    "ld.const.v2": one("ld.const.v2.f32 \t" + V2F + ", [cdata];",
                       pre=".const .align 8 .b8 cdata[64];"),
    "madc.hi.cc": one("mad.lo.cc.u32 \t%r4, %r1, %r2, %r3;\n"
                      "madc.hi.cc.u32 \t%r5, %r1, %r2, 0;\n"
                      "addc.u32 \t%r6, 0, 0;"),
    "setp.num": one("setp.num.f32 \t%p1, %f1, %f2;"),
    "abs.ftz": one("abs.ftz.f32 \t%f2, %f1;"),
    "addc.cc": one("add.cc.u32 \t%r3, %r1, %r2;\naddc.cc.u32 \t%r6, %r4, %r5;\n"
                   "addc.u32 \t%r7, 0, 0;"),
    "atom.global.sys.and": one("atom.global.sys.and.b32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.cas": one("atom.global.sys.cas.b32 \t%r3, [%rd1], %r1, %r2;"),
    "atom.global.sys.dec": one("atom.global.sys.dec.u32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.exch": one("atom.global.sys.exch.b32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.inc": one("atom.global.sys.inc.u32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.max": one("atom.global.sys.max.s32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.min": one("atom.global.sys.min.s32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.or": one("atom.global.sys.or.b32 \t%r2, [%rd1], %r1;"),
    "atom.global.sys.xor": one("atom.global.sys.xor.b32 \t%r2, [%rd1], %r1;"),
    "div.approx.ftz": one("div.approx.ftz.f32 \t%f3, %f1, %f2;"),
    "fma.rz": one("fma.rz.f32 \t%f4, %f1, %f2, %f3;"),
    "setp.eq.ftz": one("setp.eq.ftz.f32 \t%p1, %f1, %f2;"),
    "setp.geu.ftz": one("setp.geu.ftz.f32 \t%p1, %f1, %f2;"),
    "setp.lt.ftz": one("setp.lt.ftz.f32 \t%p1, %f1, %f2;"),
    "st.relaxed.cta": one("st.relaxed.cta.u32 \t[%rd1], %r1;"),
    "subc.cc": one("sub.cc.u32 \t%r3, %r1, %r2;\nsubc.cc.u32 \t%r6, %r4, %r5;\n"
                   "subc.u32 \t%r7, 0, 0;"),
    "add.cc": one("add.cc.u32 \t%r3, %r1, %r2;"),
    "add.rz": one("add.rz.f32 \t%f3, %f1, %f2;"),
    "atom.add.acquire.cta": one("atom.add.acquire.cta.u32 \t%r2, [%rd1], %r1;"),
    "atom.global.and": one("atom.global.and.b32 \t%r2, [%rd1], %r1;"),
    "atom.global.cas": one("atom.global.cas.b32 \t%r3, [%rd1], %r1, %r2;"),
    "atom.global.dec": one("atom.global.dec.u32 \t%r2, [%rd1], %r1;"),
    "atom.global.xor": one("atom.global.xor.b32 \t%r2, [%rd1], %r1;"),
    "fence.sc.cta": one("fence.sc.cta;"),
    "ld.relaxed.cta": one("ld.relaxed.cta.u32 \t%r1, [%rd1];"),
    "madc.lo.cc": one("mad.lo.cc.u32 \t%r4, %r1, %r2, %r3;\n"
                      "madc.lo.cc.u32 \t%r5, %r1, %r2, 0;\n"
                      "addc.u32 \t%r6, 0, 0;"),
    "sub.cc": one("sub.cc.u32 \t%r3, %r1, %r2;"),
    "subc": one("sub.cc.u32 \t%r3, %r1, %r2;\nsubc.u32 \t%r6, %r4, %r5;"),
    "sust.b.1d.v4.trap": one("sust.b.1d.v4.b32.trap \t[%rd1, {%r1}], {%r2, %r3, %r4, %r5};"),
    "sust.b.2d.trap": one("sust.b.2d.b32.trap \t[%rd1, {%r1, %r2}], {%r3};"),
    "sust.b.2d.v4.trap": one("sust.b.2d.v4.b32.trap \t[%rd1, {%r1, %r2}], {%r3, %r4, %r5, %r6};"),
    "sust.b.3d.trap": one("sust.b.3d.b32.trap \t[%rd1, {%r1, %r2, %r3, %r3}], {%r4};"),
    "sust.b.a2d.v4.trap": one(
        "sust.b.a2d.v4.b32.trap \t[%rd1, {%r1, %r2, %r3, %r3}], {%r4, %r5, %r6, %r7};"),
    "tex.level.2d.v4": one("tex.level.2d.v4.f32.f32 \t" + V4F + ", [%rd1, {%f5, %f6}], %f7;"),
}

# --------------------------------------------------------------------------
# One snippet per base opcode: the base opcode's most typical nvcc use, with
# a type or operand shape that the forms above do not already cover where
# one is realistic (64-bit and double variants, immediates, %p operands).
# --------------------------------------------------------------------------

BASE = {
    "ret": one("ret;", ret=False),
    "mov": one("mov.f32 \t%f1, 0f3F800000;"),
    "ld": one("ld.global.u64 \t%rd2, [%rd1+8];"),
    "add": one("add.s64 \t%rd3, %rd1, %rd2;"),
    "cvta": one("ld.param.u64 \t%rd1, [k_param_0];\ncvta.to.global.u64 \t%rd2, %rd1;",
                params=P64),
    "st": one("st.global.u64 \t[%rd1+8], %rd2;"),
    "mul": one("mul.f64 \t%fd3, %fd1, %fd2;"),
    "setp": one("setp.lt.f32 \t%p1, %f1, %f2;"),
    "bra": kernel(branch("@!%p1 bra")),
    "mad": one("mad.lo.s64 \t%rd4, %rd1, %rd2, %rd3;"),
    "shl": one("shl.b64 \t%rd2, %rd1, 3;"),
    "sub": one("sub.f32 \t%f3, %f1, %f2;"),
    "and": one("and.pred \t%p3, %p1, %p2;"),
    "cvt": one("cvt.f64.f32 \t%fd1, %f1;"),
    "or": one("or.b64 \t%rd3, %rd1, %rd2;"),
    "fma": one("fma.rn.f64 \t%fd4, %fd1, %fd2, %fd3;"),
    "shr": one("shr.s32 \t%r2, %r1, 31;"),
    "selp": one("selp.f32 \t%f3, %f1, %f2, %p1;"),
    "div": one("div.rn.f64 \t%fd3, %fd1, %fd2;"),
    "bar": one("bar.sync \t0;"),
    "not": one("not.pred \t%p2, %p1;"),
    "neg": one("neg.f32 \t%f2, %f1;"),
    "xor": one("xor.b64 \t%rd3, %rd1, %rd2;"),
    "barrier": one("barrier.sync \t0;"),
    "max": one("max.f32 \t%f3, %f1, %f2;"),
    "tex": one("tex.1d.v4.s32.s32 \t{%r1, %r2, %r3, %r4}, [%rd1, {%r5}];"),
    "min": one("min.f32 \t%f3, %f1, %f2;"),
    "atom": one("atom.global.add.f32 \t%f2, [%rd1], %f1;"),
    "abs": one("abs.s32 \t%r2, %r1;"),
    "rcp": one("rcp.rn.f64 \t%fd2, %fd1;"),
    "bfi": one("bfi.b32 \t%r3, %r1, %r2, 8, 8;"),
    "sqrt": one("sqrt.rn.f64 \t%fd2, %fd1;"),
    "shfl": one("shfl.sync.down.b32 \t%r2|%p1, %r1, 1, 31, -1;"),
    "call": kernel("\t{ // callseq 0, 0\n\tcall.uni \n\tbar, \n\t(\n\t);\n\t} // callseq 0",
                   pre=".func bar()\n{\n\tret;\n}\n"),
    "ex2": one("ex2.approx.ftz.f32 \t%f2, %f1;"),
    "vote": one("vote.sync.any.pred \t%p2, %p1, -1;"),
    "clz": one("clz.b64 \t%r1, %rd1;"),
    "popc": one("popc.b64 \t%r1, %rd1;"),
    "rem": one("rem.u64 \t%rd3, %rd1, %rd2;"),
    "brev": one("brev.b64 \t%rd2, %rd1;"),
    "membar": one("membar.gl;"),
    "bfind": one("bfind.s64 \t%r1, %rd1;"),
    "rsqrt": one("rsqrt.approx.ftz.f32 \t%f2, %f1;"),
    "nanosleep": one("nanosleep.u32 \t100;"),
    "bmsk": one("bmsk.clamp.b32 \t%r2, %r1, 8;"),
    "cos": one("cos.approx.ftz.f32 \t%f2, %f1;"),
    "sin": one("sin.approx.ftz.f32 \t%f2, %f1;"),
    "trap": one("trap;"),
    "activemask": one("activemask.b32 \t%r1;"),
    "copysign": one("copysign.f64 \t%fd3, %fd1, %fd2;"),
    "exit": one("exit;"),
    "prmt": one("prmt.b32 \t%r3, %r1, %r2, 0x5410;"),
    "match": one("match.any.sync.b64 \t%r1, %rd1, -1;"),
    "lg2": one("lg2.approx.ftz.f32 \t%f2, %f1;"),
    "sust": one("sust.b.1d.b32.trap \t[%rd1, {%r1}], {%r2};"),
    "wmma": one("wmma.load.a.sync.aligned.row.m16n16k16.global.f16 \t" + V8R + ", [%rd1], %r9;"),
    "shf": one("shf.r.wrap.b32 \t%r4, %r1, %r2, %r3;"),
    "red": one("red.global.add.u32 \t[%rd1], %r1;"),
    "madc": one("mad.lo.cc.u32 \t%r4, %r1, %r2, %r3;\nmadc.lo.u32 \t%r5, %r1, %r2, 0;"),
    # ptxas: the accumulator of a video instruction must be a register
    "vabsdiff4": one("vabsdiff4.u32.u32.u32.add \t%r4, %r1, %r2, %r3;"),
    "addc": one("add.cc.u32 \t%r3, %r1, %r2;\naddc.u32 \t%r6, %r4, 0;"),
    "subc": one("sub.cc.u32 \t%r3, %r1, %r2;\nsubc.u32 \t%r6, %r4, 0;"),
    "fence": one("fence.acq_rel.gpu;"),
}

# --------------------------------------------------------------------------
# Special registers: read into a register of the register's width.
# --------------------------------------------------------------------------

SREG_64 = {"%clock64", "%globaltimer"}
SREGS = {}
for _name, *_ in parse_census()["sreg"]:
    if _name in SREG_64:
        SREGS[_name] = one("mov.u64 \t%%rd1, %s;" % _name)
    else:
        SREGS[_name] = one("mov.u32 \t%%r1, %s;" % _name)

# --------------------------------------------------------------------------
# Directives and declarations: each in the place nvcc puts it.
# --------------------------------------------------------------------------

VPRINTF_DECL = """.extern .func (.param .b32 func_retval0) vprintf
(
\t.param .b64 vprintf_param_0,
\t.param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[4] = {104, 105, 10, 0};"""

VPRINTF_CALL = """\tmov.u64 \t%rd1, $str;
\tcvta.global.u64 \t%rd2, %rd1;
\t{ // callseq 0, 0
\t.param .b64 param0;
\tst.param.b64 \t[param0], %rd2;
\t.param .b64 param1;
\tst.param.b64 \t[param1], 0;
\t.param .b32 retval0;
\tcall.uni (retval0), \n\tvprintf, \n\t(\n\tparam0, \n\tparam1\n\t);
\tld.param.b32 \t%r1, [retval0];
\t} // callseq 0"""

ASSERTFAIL_DECL = """.extern .func __assertfail
(
\t.param .b64 __assertfail_param_0,
\t.param .b64 __assertfail_param_1,
\t.param .b32 __assertfail_param_2,
\t.param .b64 __assertfail_param_3,
\t.param .b64 __assertfail_param_4
)
;
.global .align 1 .b8 $str[2] = {48, 0};"""

ASSERTFAIL_CALL = """\tmov.u64 \t%rd1, $str;
\tcvta.global.u64 \t%rd2, %rd1;
\t{ // callseq 0, 0
\t.param .b64 param0;
\tst.param.b64 \t[param0], %rd2;
\t.param .b64 param1;
\tst.param.b64 \t[param1], %rd2;
\t.param .b32 param2;
\tst.param.b32 \t[param2], 12;
\t.param .b64 param3;
\tst.param.b64 \t[param3], %rd2;
\t.param .b64 param4;
\tst.param.b64 \t[param4], 1;
\tcall.uni \n\t__assertfail, \n\t(\n\tparam0, \n\tparam1, \n\tparam2, \n\tparam3, \n\tparam4\n\t);
\t} // callseq 0"""


def func_module(head, entry_head=".visible .entry"):
    """A function `foo` (declared with `head`) taking and returning a .b32,
    and a kernel calling it."""
    return kernel(call_seq(), pre=FUNC.replace(".func", head, 1), head=entry_head)


def used_bytes_mask(mask, load):
    """nvcc's .pragma "used_bytes_mask" right before the vector load it describes."""
    return one('.pragma "used_bytes_mask %d";\n%s' % (mask, load))


LOOP = """$L__BB0_1:
\t.pragma "nounroll";
\tadd.s32 \t%r2, %r2, 1;
\tsetp.lt.s32 \t%p1, %r2, %r1;
\t@%p1 bra \t$L__BB0_1;"""

DIRECTIVES = {
    ".address_size 64": one("ret;", ret=False),
    ".target sm_75": one("ret;", ret=False),
    ".version 9.0": one("ret;", ret=False),
    ".reg .b64 (array %name<N>)": one("add.s64 \t%rd3, %rd1, %rd2;"),
    ".reg .b32 (array %name<N>)": one("add.s32 \t%r3, %r1, %r2;"),
    ".param .u64": one("ld.param.u64 \t%rd1, [k_param_0];", params=P64),
    ".visible .entry": one("ret;", ret=False),
    ".reg .pred (array %name<N>)": one("setp.ne.s32 \t%p1, %r1, 0;"),
    ".param .u32": one("ld.param.u32 \t%r1, [k_param_0];", params=[".param .u32 k_param_0"]),
    ".reg .f32 (array %name<N>)": one("add.f32 \t%f3, %f1, %f2;"),
    '.pragma "nounroll"': kernel(LOOP),
    ".shared .align N .<type> name[N]": one(
        "mov.u32 \t%r1, _ZZ1kE4tile;\nst.shared.f32 \t[%r1+4], %f1;",
        pre=".shared .align 4 .b8 _ZZ1kE4tile[1024];"),
    ".param .f32": one("ld.param.f32 \t%f1, [k_param_0];", params=[".param .f32 k_param_0"]),
    ".reg .b16 (array %name<N>)": one("ld.global.u8 \t%rs1, [%rd1];\ncvt.u32.u16 \t%r1, %rs1;"),
    ".reg .f64 (array %name<N>)": one("add.f64 \t%fd3, %fd1, %fd2;"),
    ".extern .shared .align N .<type> name[]": one(
        "mov.u32 \t%r1, dyn_smem;\nld.shared.f32 \t%f1, [%r1];",
        pre=".extern .shared .align 16 .b8 dyn_smem[];"),
    ".global .align N .<type> name[N]": one(
        "mov.u64 \t%rd1, gbuf;\nst.global.u32 \t[%rd1+4], %r1;",
        pre=".global .align 4 .b8 gbuf[64];"),
    ".reg .b64 (scalar)": kernel(
        "\tmov.u64 \t%SPL, __local_depot0;\n\tadd.u64 \t%rd1, %SPL, 0;\n"
        "\tst.local.u32 \t[%rd1], %r1;",
        decls=(".local .align 4 .b8 \t__local_depot0[16];", ".reg .b64 \t%SP;",
               ".reg .b64 \t%SPL;")),
    ".const .align N .<type> name[N]": one("ld.const.f32 \t%f1, [cdata+8];",
                                           pre=".const .align 4 .b8 cdata[64];"),
    ".local .align N .<type> name[N]": kernel(
        "\tmov.u64 \t%rd1, __local_depot0;\n\tst.local.u32 \t[%rd1+4], %r1;",
        decls=(".local .align 4 .b8 \t__local_depot0[16];",)),
    ".global .align N .<type> name[N] = {initializer}": one(
        "ld.global.u32 \t%r1, [tbl+4];",
        pre=".global .align 4 .b8 tbl[8] = {1, 0, 0, 0, 2, 0, 0, 0};"),
    ".param .align N .b8 name[K] (by-value struct/array)": one(
        "ld.param.u64 \t%rd1, [k_param_0+8];",
        params=[".param .align 8 .b8 k_param_0[16]"]),
    ".reg .b32 (scalar)": one(
        "// begin inline asm\n{\n.reg .b32 t;\nadd.s32 \tt, %r1, 1;\nmov.b32 \t%r2, t;\n}\n"
        "// end inline asm"),
    ".shared .align N .<type> name": one(
        "atom.shared.add.u32 \t%r2, [_ZZ1kE5count], 1;",
        pre=".shared .align 4 .u32 _ZZ1kE5count;"),
    ".param (call-sequence local) .b64": kernel(
        "\t{ // callseq 0, 0\n\t.param .b64 param0;\n\tst.param.b64 \t[param0], %rd1;\n"
        "\tcall.uni \n\tbar, \n\t(\n\tparam0\n\t);\n\t} // callseq 0",
        pre=".func bar(\n\t.param .b64 bar_param_0\n)\n{\n\tret;\n}\n"),
    ".param .b64": kernel(
        "\t{ // callseq 0, 0\n\t.param .b64 param0;\n\tst.param.b64 \t[param0], %rd1;\n"
        "\tcall.uni \n\tbar, \n\t(\n\tparam0\n\t);\n\t} // callseq 0",
        pre=".func bar(\n\t.param .b64 bar_param_0\n)\n{\n\t.reg .b64 \t%rd<2>;\n\n"
            "\tld.param.b64 \t%rd1, [bar_param_0];\n\tret;\n}\n"),
    ".param (call-sequence local) .b32": kernel(call_seq(), pre=FUNC),
    ".entry": one("ret;", ret=False, head=".entry"),
    ".param .b32": kernel(call_seq(), pre=FUNC),
    ".extern .func (retval) with .param list": kernel(VPRINTF_CALL, pre=VPRINTF_DECL),
    ".maxntid": one("ret;", ret=False, attrs="\n.maxntid 256, 1, 1"),
    ".const .align N .<type> name[N] = {initializer}": one(
        "ld.const.f32 \t%f1, [ctbl+4];",
        pre=".const .align 4 .b8 ctbl[8] = {0, 0, 128, 63, 0, 0, 0, 64};"),
    ".param .u8": one("ld.param.u8 \t%rs1, [k_param_0];", params=[".param .u8 k_param_0"]),
    ".param (call-sequence local) .align": kernel(
        "\t{ // callseq 0, 0\n\t.param .align 8 .b8 param0[16];\n"
        "\tst.param.v2.b64 \t[param0], {%rd1, %rd2};\n"
        "\tcall.uni \n\tbar, \n\t(\n\tparam0\n\t);\n\t} // callseq 0",
        pre=".func bar(\n\t.param .align 8 .b8 bar_param_0[16]\n)\n{\n\tret;\n}\n"),
    ".reg .u32 (scalar)": one(
        "// begin inline asm\n{\n.reg .u32 t;\nmov.u32 \tt, %laneid;\nmov.u32 \t%r1, t;\n}\n"
        "// end inline asm"),
    ".param .f64": one("ld.param.f64 \t%fd1, [k_param_0];", params=[".param .f64 k_param_0"]),
    '.pragma "used_bytes_mask 61695"': used_bytes_mask(
        61695, "ld.global.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd1];"),
    ".global .align N .<type> name": one(
        "atom.global.add.u32 \t%r2, [gcount], 1;", pre=".global .align 4 .u32 gcount;"),
    ".reg .pred (scalar)": one(
        "// begin inline asm\n{\n.reg .pred p;\nsetp.ne.b32 \tp, %r1, 0;\n"
        "vote.sync.ballot.b32 \t%r2, p, -1;\n}\n// end inline asm"),
    ".minnctapersm": one("ret;", ret=False, attrs="\n.maxntid 256, 1, 1\n.minnctapersm 2"),
    ".reg .s32 (scalar)": one(
        "// begin inline asm\n{\n.reg .s32 t;\nadd.s32 \tt, %r1, -1;\nmov.b32 \t%r2, t;\n}\n"
        "// end inline asm"),
    ".reg .u64 (scalar)": one(
        "// begin inline asm\n{\n.reg .u64 t;\nmov.u64 \tt, %globaltimer;\nmov.b64 \t%rd1, t;\n}\n"
        "// end inline asm"),
    ".func (retval) with .param list": kernel(call_seq(), pre=FUNC),
    ".const .align N .<type> name": one("ld.const.f32 \t%f1, [cscale];",
                                        pre=".const .align 4 .f32 cscale;"),
    '.pragma "used_bytes_mask 4080"': used_bytes_mask(
        4080, "ld.global.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd1];"),
    '.pragma "used_bytes_mask 65520"': used_bytes_mask(
        65520, "ld.global.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd1];"),
    ".extern .func": kernel(ASSERTFAIL_CALL, pre=ASSERTFAIL_DECL),
    '.pragma "used_bytes_mask 4095"': used_bytes_mask(
        4095, "ld.global.v4.u32 \t{%r1, %r2, %r3, %r4}, [%rd1];"),
    "label: .callprototype (indirect-call signature)": kernel(
        "\tmov.u64 \t%rd1, foo;\n"
        "\t{ // callseq 0, 0\n\t.param .b32 param0;\n\tst.param.b32 \t[param0], %r1;\n"
        "\t.param .b32 retval0;\n"
        "\tprototype_0 : .callprototype (.param .b32 _) _ (.param .b32 _);\n"
        "\tcall (retval0), \n\t%rd1, \n\t(\n\tparam0\n\t)\n\t, prototype_0;\n"
        "\tld.param.b32 \t%r2, [retval0];\n\t} // callseq 0",
        pre=FUNC),
    ".func": kernel("\t{ // callseq 0, 0\n\tcall.uni \n\tbar, \n\t(\n\t);\n\t} // callseq 0",
                    pre=".func bar()\n{\n\tret;\n}\n"),
    ".param .u16": one("ld.param.u16 \t%rs1, [k_param_0];", params=[".param .u16 k_param_0"]),
    ".weak .entry": one("ret;", ret=False, head=".weak .entry"),
    ".visible .func": func_module(".visible .func"),
    '.pragma "used_bytes_mask 7"': used_bytes_mask(7, "ld.global.u32 \t%r1, [%rd1];"),
    ".weak .func": func_module(".weak .func"),
    ".reg .f16 (scalar)": one(
        "// begin inline asm\n{\n.reg .f16 lo, hi;\nmov.b32 \t{lo, hi}, %r1;\n"
        "mov.b16 \t%rs1, hi;\n}\n// end inline asm"),
    ".global .align N .<type> name = value": one(
        "ld.global.u32 \t%r1, [gval];", pre=".global .align 4 .u32 gval = 42;"),
    ".extern .entry": one("ret;", ret=False, pre=".extern .entry other\n(\n\t.param .u64 other_param_0\n)\n;"),
    ".noreturn": kernel(
        "\t{ // callseq 0, 0\n\tcall.uni \n\tdie, \n\t(\n\t);\n\t} // callseq 0",
        pre=".func die()\n.noreturn\n{\n\ttrap;\n}\n"),
    ".visible .global .align N .<type> name": one(
        "ld.global.u32 \t%r1, [gdata];", pre=".visible .global .align 4 .u32 gdata;"),
}

SNIPPETS = {"forms": FORMS, "base": BASE, "sreg": SREGS, "directive": DIRECTIVES}
ID_PREFIX = {"forms": "form", "base": "base", "sreg": "sreg", "directive": "dir"}

# --------------------------------------------------------------------------
# What is expected of lockstep.
# --------------------------------------------------------------------------

# The families the PTX core leaves out (by the form's first component).
EXCLUDED = {
}

# Forms of otherwise supported instructions that lockstep leaves out, by the
# form's first two components.
FORM_EXCLUDED = {
}

# Instructions outside the PTX core's required set (census ranks 1-50, prmt,
# shf, red, fence, madc/addc/subc and the .cc forms, lg2/sin/cos, exit, match,
# activemask) that `lockstep ptx check` rejected as "unsupported instruction".
# Everything not listed here or in EXCLUDED is expected to load.
LOCKSTEP_UNSUPPORTED = {
}

# What `lockstep ptx check` said about each unsupported instruction when
# forms.txt was last regenerated (--check reports any change).
LOCKSTEP_SAYS = {
}

# Entries that need a newer target than sm_75 (none so far): form -> target.
TARGETS = {}


def expectation(form):
    """(expect, instruction name the error must name, note) for one entry."""
    opcode = form.split(".")[0] if not form.startswith((".", "%", "label")) else None
    two = ".".join(form.split(".")[:2]) if opcode else None
    if two in FORM_EXCLUDED:
        return "unsupported", two, FORM_EXCLUDED[two]
    if opcode in EXCLUDED:
        return "unsupported", opcode, EXCLUDED[opcode]
    if opcode in LOCKSTEP_UNSUPPORTED:
        return "unsupported", opcode, LOCKSTEP_UNSUPPORTED[opcode]
    return "supported", None, None


FORMAT_DOC = """\
# forms.txt -- one PTX module per entry of the PTX census (generated by
# tests/census/forms.py; do not edit by hand: edit the generator and rerun
#     python3 tests/census/forms.py
# ).  tests/unit/test_census_forms.c loads every module with lockstep.
#
# Format.  Lines starting with '#' before the first record are comments.
# Each record is
#
#   @@ ID LIST rank=R benchmarks=B static=S target=T expect=E [insn=I]
#   @@ form: FORM
#   @@ note: TEXT                          (unsupported only: why)
#   @@ lockstep: TEXT                      (unsupported only: what lockstep said)
#   PTX text, verbatim, as many lines as it takes
#   @@ end
#
#   ID      form-NNN, base-NN, sreg-NN or dir-NN
#   LIST    the census list the entry comes from: forms ("Opcode + modifiers,
#           type suffixes dropped"), base ("Base opcodes"), sreg ("Special
#           registers") or directive ("Directives and declarations")
#   R, B    the entry's rank in that list and how many of the 231 benchmarks
#           use it; S its static instruction count ('-' where the census has none)
#   T       the .target the snippet needs (sm_75 unless noted)
#   E       supported: lockstep must load the module;
#           unsupported: loading must fail with LOCKSTEP_ERROR_UNSUPPORTED_PTX
#           and the message must name instruction I
#   FORM    the census entry, verbatim (may contain spaces)
#
# Every snippet assembles with `ptxas -arch=T` (CUDA 13.0); check with
#     python3 tests/census/forms.py --check
"""


def records():
    """Every record as a dict, in census order: forms, base, sreg, directive."""
    lists = parse_census()
    out = []
    for lst in ("forms", "base", "sreg", "directive"):
        width = 3 if lst == "forms" else 2
        snippets = SNIPPETS[lst]
        names = [e[0] for e in lists[lst]]
        missing = [n for n in names if n not in snippets]
        extra = [n for n in snippets if n not in names]
        if missing or extra:
            sys.exit("%s: no snippet for %s; snippet for no entry %s" % (lst, missing, extra))
        for form, rank, bench, static in lists[lst]:
            expect, insn, note = expectation(form)
            target = TARGETS.get(form, "sm_75")
            ptx = snippets[form]
            if target != "sm_75":
                ptx = ptx.replace(".target sm_75", ".target " + target, 1)
            out.append({
                "id": "%s-%0*d" % (ID_PREFIX[lst], width, rank), "list": lst,
                "form": form, "rank": rank, "benchmarks": bench,
                "static": "-" if static is None else str(static), "target": target,
                "expect": expect, "insn": insn, "note": note, "ptx": ptx,
            })
    return out


def render(recs):
    parts = [FORMAT_DOC]
    for r in recs:
        head = "@@ %s %s rank=%d benchmarks=%d static=%s target=%s expect=%s" % (
            r["id"], r["list"], r["rank"], r["benchmarks"], r["static"], r["target"],
            r["expect"])
        if r["insn"]:
            head += " insn=" + r["insn"]
        lines = ["", head, "@@ form: " + r["form"]]
        if r["note"]:
            lines.append("@@ note: " + r["note"])
        if r["insn"]:
            lines.append("@@ lockstep: " + LOCKSTEP_SAYS[r["insn"]])
        assert "\n@@" not in r["ptx"]
        lines.append(r["ptx"].rstrip("\n"))
        lines.append("@@ end")
        parts.append("\n".join(lines) + "\n")
    return "".join(parts)


# --------------------------------------------------------------------------
# --check: assemble with ptxas, run `lockstep ptx check`
# --------------------------------------------------------------------------

def run_tool(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    return p.returncode, p.stdout.strip()


def check(recs, lockstep):
    """Assemble every snippet with ptxas and load it with lockstep; print
    every rejection.  Returns the number of problems."""
    problems = 0
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for r in recs:
            path = os.path.join(tmp, r["id"] + ".ptx")
            with open(path, "w") as f:
                f.write(r["ptx"])
            paths.append(path)

        have_ptxas = shutil.which("ptxas") is not None
        if not have_ptxas:
            print("no ptxas on the PATH: running lockstep only")

        def both(i):
            r, path = recs[i], paths[i]
            pt = (run_tool(["ptxas", "-arch=" + r["target"], path, "-o", os.devnull])
                  if have_ptxas else (0, ""))
            ls = run_tool([lockstep, "ptx", "check", path]) if lockstep else (0, "")
            return pt, ls

        with ThreadPoolExecutor(max_workers=os.cpu_count() or 4) as pool:
            results = list(pool.map(both, range(len(recs))))
    for r, ((prc, pout), (lrc, lout)) in zip(recs, results):
        tag = "%s %s" % (r["id"], r["form"])
        if prc != 0:
            problems += 1
            print("PTXAS REJECTS %s:\n  %s" % (tag, pout.replace("\n", "\n  ")))
        elif pout:
            print("ptxas says about %s:\n  %s" % (tag, pout.replace("\n", "\n  ")))
        if not lockstep:
            continue
        if r["expect"] == "supported" and lrc != 0:
            problems += 1
            print("LOCKSTEP REJECTS %s:\n  %s" % (tag, lout.replace("\n", "\n  ")))
        elif r["expect"] == "unsupported" and (lrc == 0 or "unsupported instruction" not in lout):
            problems += 1
            print("LOCKSTEP DOES NOT REPORT %s AS UNSUPPORTED:\n  %s"
                  % (tag, lout.replace("\n", "\n  ")))
        elif r["expect"] == "unsupported" and LOCKSTEP_SAYS[r["insn"]] not in lout:
            print("lockstep's message for %s changed (update LOCKSTEP_SAYS):\n  %s"
                  % (tag, lout.replace("\n", "\n  ")))
    print("checked %d snippets: %d problems" % (len(recs), problems))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=OUT, help="output file (default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="assemble every snippet with ptxas and run lockstep ptx check")
    ap.add_argument("--lockstep", default=os.path.join(ROOT, "build", "lockstep"),
                    help="the lockstep command for --check (default: %(default)s)")
    ap.add_argument("--census", help="compare the embedded lists with this census file")
    args = ap.parse_args()
    recs = records()
    if args.census and not compare_with_census_file(args.census, parse_census()):
        return 1
    with open(args.out, "w", newline="\n") as f:
        f.write(render(recs))
    print("wrote %d records to %s" % (len(recs), os.path.relpath(args.out, ROOT)))
    if args.check:
        lockstep = args.lockstep if os.access(args.lockstep, os.X_OK) else None
        if not lockstep:
            print("no %s: assembling with ptxas only" % args.lockstep)
        return 1 if check(recs, lockstep) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
