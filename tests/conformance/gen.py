#!/usr/bin/env python3
"""gen.py -- generate lockstep's instruction-semantics conformance suite.

Writes, next to this script (or into --out DIR):

  conf.ptx    one .visible .entry per case.  Every kernel has the parameters
              (u64 out, u64 a, u64 b, u64 c, u32 n); thread i of a 1-D grid
              reads the raw 64-bit inputs a[i], b[i], c[i], narrows them to
              the operand types of the instruction under test, executes it
              once and stores the raw result bits to out[i] as a u64
              (zero-extended; predicates as 0/1 through selp).
  cases.txt   one line per case (see the header it writes): kernel name,
              instruction form, inputs read, natural result width in bytes,
              tolerance kind, input set, thread count, block size, and a
              64-bit hash of everything that determines the case's outputs
              (the kernel text, the PTX header, the input values, the launch
              shape).  The golden file records the hash it was made with, so
              a stale golden case is detected instead of silently compared.
  inputs.bin  the input sets, the one source of truth for inputs: the native
              runner and the lockstep test both upload exactly these bytes.

                  "LSCINPT1"  u32 version (1)  u32 nsets
                  nsets x { char name[32]; u32 n; u32 zero;
                            u64 a[n]; u64 b[n]; u64 c[n]; }   little-endian

Everything is deterministic (one seeded random.Random); running the script
twice gives byte-identical files.  Python 3 standard library only.

Each kernel marks its text with "// @case NAME" before and "// @end" after,
so a consumer can load one case on its own (the header is the text before
the first "// @case").

DESIGN.  A case body is PTX with placeholders:
  <a:TYPE> <b:TYPE> <c:TYPE>   input a/b/c viewed as TYPE (u32 via cvt.u32.u64,
                               f32/f64 via a direct ld.global of the same
                               address, 16-bit via cvt.u16.u64, pred = bit 0,
                               lo/hi = the halves via mov.b64 {lo,hi})
  <d>                          the result register, of the case's result type
  <NAME:TYPE>                  a temporary register, one per NAME
  <pa> <pb> <pc> <pout>        .b64 global addresses of a[i], b[i], c[i], out[i]
  <cblk>                       .b64 global address of c[first thread of the CTA]
  <gid> <tid> <lane>           global index, %tid.x, %laneid (u32)
The emitter turns placeholders into registers and writes the conversions.
"""

import argparse
import hashlib
import math
import os
import random
import re
import struct
import sys

SEED = 0x10C57E9
PTX_HEADER = ".version 9.0\n.target sm_75\n.address_size 64\n"
BLOCK = 128

M16 = 0xFFFF
M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1

rng = random.Random(SEED)


# --------------------------------------------------------------------------
# Value helpers
# --------------------------------------------------------------------------

def f32b(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def f64b(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def hi_garbage(v, bits):
    """Fill the bits above `bits` with random garbage: narrowing must drop them."""
    return ((rng.getrandbits(64 - bits) << bits) | (v & ((1 << bits) - 1))) & M64


def rand_f32():
    """A random f32 bit pattern: mostly ordinary numbers, some anything."""
    k = rng.random()
    s = rng.getrandbits(1) << 31
    if k < 0.45:
        e = rng.randint(127 - 20, 127 + 20)
    elif k < 0.75:
        e = rng.randint(1, 254)
    elif k < 0.85:
        e = 0
    else:
        return rng.getrandbits(32)
    return s | (e << 23) | rng.getrandbits(23)


def near_f32(x):
    """A random f32 with an exponent near x's: additions round and cancel."""
    e = (x >> 23) & 0xFF
    if e in (0, 255):
        return rand_f32()
    e2 = min(254, max(1, e + rng.randint(-26, 26)))
    return (rng.getrandbits(1) << 31) | (e2 << 23) | rng.getrandbits(23)


def rand_f64():
    k = rng.random()
    s = rng.getrandbits(1) << 63
    if k < 0.45:
        e = rng.randint(1023 - 40, 1023 + 40)
    elif k < 0.75:
        e = rng.randint(1, 2046)
    elif k < 0.85:
        e = 0
    else:
        return rng.getrandbits(64)
    return s | (e << 52) | rng.getrandbits(52)


def near_f64(x):
    e = (x >> 52) & 0x7FF
    if e in (0, 0x7FF):
        return rand_f64()
    e2 = min(2046, max(1, e + rng.randint(-55, 55)))
    return (rng.getrandbits(1) << 63) | (e2 << 52) | rng.getrandbits(52)


def rand_f16():
    k = rng.random()
    s = rng.getrandbits(1) << 15
    if k < 0.5:
        e = rng.randint(15 - 6, 15 + 6)
    elif k < 0.8:
        e = rng.randint(1, 30)
    elif k < 0.9:
        e = 0
    else:
        return rng.getrandbits(16)
    return s | (e << 10) | rng.getrandbits(10)


def rand_int(bits):
    """Random integers: full-width bits, small magnitudes, and near-extremes."""
    k = rng.random()
    m = (1 << bits) - 1
    if k < 0.4:
        return rng.getrandbits(bits)
    if k < 0.7:
        return rng.randint(-300, 300) & m
    if k < 0.85:
        return (rng.getrandbits(bits) >> rng.randint(0, bits - 1)) & m
    top = 1 << (bits - 1)
    return (top + rng.randint(-40, 40)) & m


# --------------------------------------------------------------------------
# Interesting values
# --------------------------------------------------------------------------

I16_SPECIAL = [0, 1, 2, 3, 7, 15, 16, 17, 0xFFFF, 0x7FFF, 0x8000, 0x8001, 0xFFFE,
               0xFFF9, 0x00FF, 0x0100, 0x5555, 0xAAAA, 0x1234, 0x7FFE, 31, 32, 0xFF80, 100]
I32_SPECIAL = [0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 100, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000,
               0x80000001, 0xFFFFFFFE, 0xFFFFFFF9, 0x0000FFFF, 0x00010000, 0x00800000,
               0x007FFFFF, 0x00FFFFFF, 0xFF800000, 0x55555555, 0xAAAAAAAA, 0x12345678,
               0xDEADBEEF, 0x00FF00FF]
I64_SPECIAL = [0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 100, M64, 0x7FFFFFFFFFFFFFFF,
               0x8000000000000000, 0x8000000000000001, M64 - 1, M64 - 6, 0xFFFFFFFF,
               0x100000000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF80000000,
               0x5555555555555555, 0xAAAAAAAAAAAAAAAA, 0x123456789ABCDEF0,
               0xDEADBEEFCAFEBABE, 0x00000000FFFFFFFE, 0xFFFFFFFF00000001]
SHIFTS = [0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 127, 128, 255, 256,
          0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x100000001]

F32_SPECIAL = [
    0x00000000, 0x80000000,             # +0 -0
    0x7F800000, 0xFF800000,             # +inf -inf
    0x7FC00000,                         # quiet NaN
    0x7F800001,                         # signalling NaN with payload
    0xFFC12345,                         # negative NaN with payload
    0x00000001, 0x807FFFFF, 0x007FFFFF,  # smallest subnormal, -/+ largest subnormal
    0x00800000, 0x80800000,             # +- smallest normal
    0x3F800000, 0xBF800000,             # +-1
    0x3F800001,                         # 1 + 2^-23
    0x33800000,                         # 2^-24 (1 + 2^-24 is a tie)
    0x3F000000, 0x3FC00000, 0xC0200000,  # 0.5 1.5 -2.5 (ties for rni)
    0x40400000,                         # 3
    0x7F7FFFFF, 0xFF7FFFFF,             # +- max finite
    0x4B800000,                         # 2^24
    0x4F000000, 0xDF000000,             # 2^31, -2^63
    0x3DCCCCCD, 0x40490FDB,             # 0.1, pi
    0x3FFFFFFF,                         # 1.9999999
    0x00C00000,                         # 1.5 * 2^-126
    0x34000000,                         # 2^-23
    0x3EAAAAAB,                         # 1/3
    0xC2C80000,                         # -100
]
F64_SPECIAL = [
    0x0000000000000000, 0x8000000000000000,
    0x7FF0000000000000, 0xFFF0000000000000,
    0x7FF8000000000000,
    0x7FF0000000000001,
    0xFFF8000012345678,
    0x0000000000000001, 0x800FFFFFFFFFFFFF, 0x000FFFFFFFFFFFFF,
    0x0010000000000000, 0x8010000000000000,
    0x3FF0000000000000, 0xBFF0000000000000,
    0x3FF0000000000001,                 # 1 + 2^-52
    0x3CA0000000000000,                 # 2^-53
    0x3FE0000000000000, 0x3FF8000000000000, 0xC004000000000000,  # 0.5 1.5 -2.5
    0x4008000000000000,                 # 3
    0x7FEFFFFFFFFFFFFF, 0xFFEFFFFFFFFFFFFF,
    0x3FF0000010000000,                 # 1 + 2^-24: a tie when rounded to f32
    0x47EFFFFFE0000000,                 # f32 max
    0x41E0000000000000, 0xC3E0000000000000,  # 2^31, -2^63
    0x3FB999999999999A, 0x400921FB54442D18,  # 0.1, pi
    0x36A0000000000000,                 # 2^-149: f32 smallest subnormal
    0x3810000000000000,                 # 2^-126
    0x3FD5555555555555,                 # 1/3
    0xC059000000000000,                 # -100
]
F16_SPECIAL = [0x0000, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFE12, 0x0001, 0x83FF,
               0x03FF, 0x0400, 0x8400, 0x3C00, 0xBC00, 0x3C01, 0x1000, 0x3800, 0x3E00,
               0xC100, 0x4200, 0x7BFF, 0xFBFF, 0x2E66, 0x4248]


# --------------------------------------------------------------------------
# Input sets
# --------------------------------------------------------------------------

SETS = {}  # name -> (a, b, c), each a list of u64; insertion order is file order


def add_set(name, a, b, c):
    assert len(a) == len(b) == len(c) and len(a) % 32 == 0, name
    assert name not in SETS and len(name) < 32
    SETS[name] = ([x & M64 for x in a], [x & M64 for x in b], [x & M64 for x in c])


def pairs_set(name, specials, randf, nearf, bits, total=1024):
    """Every special crossed with every special, then random pairs."""
    sp = specials[:32]
    a, b = [], []
    for x in sp:
        for y in sp:
            a.append(x)
            b.append(y)
    while len(a) < total:
        x = randf()
        a.append(x)
        b.append(nearf(x) if nearf and rng.random() < 0.5 else randf())
    c = [rng.getrandbits(64) for _ in a]
    if bits < 64:
        a = [hi_garbage(x, bits) for x in a]
        b = [hi_garbage(x, bits) for x in b]
    add_set(name, a, b, c)


def triples_set(name, specials, randf, bits, total=1024, extra=()):
    a, b, c = [], [], []
    for t in extra:
        a.append(t[0])
        b.append(t[1])
        c.append(t[2])

    def pick():
        return rng.choice(specials) if rng.random() < 0.5 else randf()
    while len(a) < total:
        a.append(pick())
        b.append(pick())
        c.append(pick())
    if bits < 64:
        a = [hi_garbage(x, bits) for x in a]
        b = [hi_garbage(x, bits) for x in b]
        c = [hi_garbage(x, bits) for x in c]
    add_set(name, a, b, c)


def unary_set(name, specials, randf, bits, total=512):
    a = list(specials)
    while len(a) < total:
        a.append(randf())
    b = [rng.getrandbits(64) for _ in a]
    c = [rng.getrandbits(64) for _ in a]
    if bits < 64:
        a = [hi_garbage(x, bits) for x in a]
    add_set(name, a, b, c)


def build_sets():
    pairs_set("i16p", I16_SPECIAL, lambda: rand_int(16), None, 16)
    pairs_set("i32p", I32_SPECIAL, lambda: rand_int(32), None, 32)
    pairs_set("i64p", I64_SPECIAL, lambda: rand_int(64), None, 64)
    triples_set("i16t", I16_SPECIAL, lambda: rand_int(16), 16)
    triples_set("i32t", I32_SPECIAL, lambda: rand_int(32), 32)
    triples_set("i64t", I64_SPECIAL, lambda: rand_int(64), 64)
    unary_set("i16u", I16_SPECIAL, lambda: rand_int(16), 16, 256)
    unary_set("i32u", I32_SPECIAL, lambda: rand_int(32), 32, 512)
    unary_set("i64u", I64_SPECIAL, lambda: rand_int(64), 64, 512)

    # shifts: a value crossed with a shift count (b), and shift counts in c
    for bits, sp in ((16, I16_SPECIAL), (32, I32_SPECIAL), (64, I64_SPECIAL)):
        a, b = [], []
        for x in sp[:24]:
            for s in SHIFTS:
                a.append(x)
                b.append(s)
        while len(a) < 768:
            a.append(rand_int(bits))
            b.append(rng.choice(SHIFTS) if rng.random() < 0.5 else rng.getrandbits(8))
        c = [rng.choice(SHIFTS) if rng.random() < 0.7 else rng.getrandbits(32) for _ in a]
        add_set("sh%d" % bits, [hi_garbage(x, bits) for x in a],
                [hi_garbage(x, 32) for x in b], [hi_garbage(x, 32) for x in c])

    a = [rng.choice(I32_SPECIAL) if rng.random() < 0.3 else rng.getrandbits(32)
         for _ in range(512)]
    b = [rng.choice(I32_SPECIAL) if rng.random() < 0.3 else rng.getrandbits(32)
         for _ in range(512)]
    c = [rng.choice(SHIFTS) if rng.random() < 0.8 else rng.getrandbits(32) for _ in range(512)]
    add_set("shf", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [hi_garbage(x, 32) for x in c])

    # floats
    pairs_set("f32p", F32_SPECIAL, rand_f32, near_f32, 32)
    pairs_set("f64p", F64_SPECIAL, rand_f64, near_f64, 64)
    pairs_set("f16p", F16_SPECIAL, rand_f16, None, 16)
    fma32 = [(0x3F800001, 0x3F800001, 0xBF800000),   # (1+u)^2 - 1: fused keeps 2^-46
             (0x3F800001, 0x3F7FFFFF, 0xBF800000),
             (0x7F7FFFFF, 0x40000000, 0xFF7FFFFF),   # overflow inside, finite result
             (0x00800000, 0x3F000000, 0x00000000),   # product subnormal
             (0x3F800000, 0x33800000, 0x3F800000),   # tie
             (0x80000000, 0x00000000, 0x00000000),   # -0*0 + 0
             (0x3F800000, 0x3F800000, 0xBF800000)]   # exact zero: sign by rounding mode
    triples_set("f32t", F32_SPECIAL, rand_f32, 32, 1024, fma32)
    fma64 = [(0x3FF0000000000001, 0x3FF0000000000001, 0xBFF0000000000000),
             (0x7FEFFFFFFFFFFFFF, 0x4000000000000000, 0xFFEFFFFFFFFFFFFF),
             (0x3FF0000000000000, 0x3FF0000000000000, 0xBFF0000000000000),
             (0x8000000000000000, 0x0000000000000000, 0x0000000000000000)]
    triples_set("f64t", F64_SPECIAL, rand_f64, 64, 1024, fma64)
    triples_set("f16t", F16_SPECIAL, rand_f16, 16, 512)
    unary_set("f32u", F32_SPECIAL, rand_f32, 32, 512)
    unary_set("f64u", F64_SPECIAL, rand_f64, 64, 512)
    unary_set("f16u", F16_SPECIAL, rand_f16, 16, 256)

    # packed f16x2: low halves cross, high halves a shuffled cross
    a, b = [], []
    sp = F16_SPECIAL
    for i, x in enumerate(sp):
        for j, y in enumerate(sp):
            a.append(x | (sp[(i * 7 + j) % len(sp)] << 16))
            b.append(y | (sp[(j * 5 + i + 3) % len(sp)] << 16))
    while len(a) < 1024:
        a.append(rand_f16() | (rand_f16() << 16))
        b.append(rand_f16() | (rand_f16() << 16))
    c = [rand_f16() | (rand_f16() << 16) for _ in a]
    add_set("f16x2p", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [hi_garbage(x, 32) for x in c])

    # transcendental inputs
    trig = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC12345,
            0x00000001, 0x807FFFFF, 0x00800000, 0x3F800000, 0xBF800000,
            f32b(math.pi), f32b(-math.pi), f32b(math.pi / 2), f32b(2 * math.pi),
            f32b(-2 * math.pi), f32b(100 * math.pi), f32b(-100 * math.pi), 0x33800000]
    a = list(trig)
    while len(a) < 512:
        k = rng.random()
        lim = 2 * math.pi if k < 0.6 else (100 * math.pi if k < 0.9 else 1.0e6)
        a.append(f32b(rng.uniform(-lim, lim)))
    add_set("f32trig", [hi_garbage(x, 32) for x in a], [0] * len(a), [0] * len(a))
    a = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
         0x3F800000, 0xBF800000, f32b(127.99), f32b(128.0), f32b(-126.0), f32b(-149.0),
         f32b(-150.0), f32b(0.5), f32b(-0.5), f32b(10.0)]
    while len(a) < 512:
        a.append(f32b(rng.uniform(-160.0, 135.0)) if rng.random() < 0.8 else rand_f32())
    add_set("f32ex2", [hi_garbage(x, 32) for x in a], [0] * len(a), [0] * len(a))
    a = [0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
         0x007FFFFF, 0x00800000, 0x3F800000, 0xBF800000, 0x3F000000, 0x40000000,
         0x3F000001, 0x3FFFFFFF, 0x7F7FFFFF, 0x3F7FFFFF, 0x3F800001]
    while len(a) < 512:
        k = rng.random()
        if k < 0.4:
            a.append(f32b(rng.uniform(0.5, 2.0)))
        elif k < 0.9:
            a.append(rng.randint(0, 254) << 23 | rng.getrandbits(23))
        else:
            a.append(rand_f32())
    add_set("f32lg2", [hi_garbage(x, 32) for x in a], [0] * len(a), [0] * len(a))

    # conversions
    cv = [0, 1, M64, 0x7F, 0x80, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF,
          0x80000000, 0xFFFFFFFF, 0x100000000, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000,
          (-128) & M64, (-129) & M64, (-32768) & M64, (-32769) & M64,
          (-(1 << 31)) & M64, (-(1 << 31) - 1) & M64, 0x123456789ABCDEF0, 0xFFFFFFFF80000000,
          0x00000000FFFFFF80, 0x000000000000FF7F, 0x1000001, 0x1000003, 0x1000002,
          0x20000000000001, 0x20000000000003, (-0x1000001) & M64, 0xFFFFFFFFFFFFF800,
          0x7FFFFFFFFFFFFC00, 0x7FFFFFFFFFFFFE00, 0x8000000000000400, 0xFFFFFF7F,
          0x7FFFFFC0, 0x80000080, 0xFFFFFF80, 2, 100, (-100) & M64]
    a = list(cv)
    while len(a) < 512:
        k = rng.random()
        if k < 0.4:
            a.append(rng.getrandbits(64))
        elif k < 0.7:
            a.append(rng.randint(-(1 << 31), (1 << 32)) & M64)
        else:
            a.append((rng.getrandbits(64) >> rng.randint(0, 63)) * rng.choice((1, -1)) & M64)
    add_set("cvti", a, [rng.getrandbits(64) for _ in a], [rng.getrandbits(64) for _ in a])

    cf = list(F32_SPECIAL) + [f32b(x) for x in (
        0.49999997, -0.49999997, 127.5, 128.0, 255.5, 256.0, -128.5, -129.0, 32767.5,
        65535.5, 65536.0, -32768.5, 2147483520.0, -2147483904.0, 4294967040.0,
        4294967296.0, 9.2233715e18, 1.8446743e19, 1.8446744e19, -9.223373e18, 1.0e10,
        -1.0e10, 0.99999994, -0.99999994, 65504.0, 65520.0, 65519.996, 2.0 ** -24,
        2.0 ** -25, 1.5 * 2.0 ** -25, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, 6.1035156e-05,
        -3.5, 4.5, 5.5, -0.5, 16777217.0, 1.0e-40, -1.0e-40)]
    a = list(cf)
    while len(a) < 512:
        k = rng.random()
        if k < 0.5:
            a.append(rng.getrandbits(1) << 31 | rng.randint(110, 200) << 23 | rng.getrandbits(23))
        elif k < 0.7:
            a.append(f32b(rng.randint(-70000, 70000) + rng.choice((0.0, 0.5, 0.25, 0.75))))
        else:
            a.append(rand_f32())
    add_set("cvtf32", [hi_garbage(x, 32) for x in a], [0] * len(a), [0] * len(a))

    cd = list(F64_SPECIAL) + [
        0x3FF0000010000001, 0x3FF0000030000000, 0x47EFFFFFF0000000, 0x47EFFFFFEFFFFFFF,
        0x47F0000000000000, 0x3690000000000000, 0x3698000000000000, 0x380FFFFFF0000000,
        0x3800000000000000, 0x41DFFFFFFFE00000, 0x41DFFFFFFFF00000, 0xC1E0000000100000,
        0x41EFFFFFFFF00000, 0x43E0000000000000, 0x43F0000000000000, 0x43EFFFFFFFFFFFFF,
        0xC3E0000000000001, f64b(0.49999999999999994), f64b(2.5), f64b(-2.5), f64b(3.5),
        f64b(4294967295.5), f64b(65504.0), f64b(65520.0), f64b(2.0 ** -24),
        f64b(2.0 ** -25), f64b(1.0e300), f64b(-1.0e-300), f64b(1.0e-310)]
    a = list(cd)
    while len(a) < 512:
        k = rng.random()
        if k < 0.5:
            a.append(rng.getrandbits(1) << 63 | rng.randint(900, 1150) << 52 | rng.getrandbits(52))
        elif k < 0.7:
            a.append(f64b(rng.randint(-(1 << 40), 1 << 40) + rng.choice((0.0, 0.5, 0.25))))
        else:
            a.append(rand_f64())
    add_set("cvtf64", a, [0] * len(a), [0] * len(a))

    a = list(F16_SPECIAL)
    while len(a) < 256:
        a.append(rand_f16())
    add_set("cvtf16", [hi_garbage(x, 16) for x in a], [0] * len(a), [0] * len(a))

    # bit-field operations
    # bfe/bfi restrict position and length to 0..255 (larger values are
    # undefined); positions and lengths past the operand width are in range
    pos = [0, 1, 7, 8, 15, 16, 24, 31, 32, 33, 63, 64, 65, 100, 200, 255]
    ln = [0, 1, 7, 8, 16, 24, 31, 32, 33, 63, 64, 65, 127, 128, 200, 255]
    for bits in (32, 64):
        sp = I32_SPECIAL if bits == 32 else I64_SPECIAL
        a, b, c = [], [], []
        for p in pos:
            for q in ln:
                a.append(rng.choice(sp))
                b.append(rng.choice(sp))
                c.append(p | q << 32)
        while len(a) < 1024:
            a.append(rand_int(bits))
            b.append(rand_int(bits))
            c.append((rng.choice(pos) if rng.random() < 0.5 else rng.getrandbits(7)) |
                     (rng.choice(ln) if rng.random() < 0.5 else rng.getrandbits(7)) << 32)
        a = [hi_garbage(x, bits) for x in a]
        b = [hi_garbage(x, bits) for x in b]
        add_set("bf%d" % bits, a, b, c)
    a, b = [], []
    for p in pos + [256, 0x80000000, 0xFFFFFFFF]:
        for q in ln + [256, 0x80000001, 0xFFFFFFFF]:
            a.append(p)
            b.append(q)
    while len(a) < 512:
        a.append(rng.getrandbits(6))
        b.append(rng.getrandbits(6))
    add_set("bmsk", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [0] * len(a))

    sel = [0x3210, 0x7654, 0x0123, 0x4567, 0x4444, 0x8888, 0x89AB, 0xCDEF, 0x1111, 0x9999,
           0xBA98, 0x0000, 0xFFFF, 0x5140, 0x3715, 0xE6A2, 0x0001, 0x0002, 0x0003, 0x8000]
    a, b, c = [], [], []
    for s in sel:
        for x, y in ((0x80FF7F01, 0x00C0407F), (0x12345678, 0x9ABCDEF0), (0xFFFFFFFF, 0),
                     (0x7F807F80, 0x807F807F)):
            a.append(x)
            b.append(y)
            c.append(s | rng.getrandbits(16) << 16)
    while len(a) < 512:
        a.append(rng.getrandbits(32))
        b.append(rng.getrandbits(32))
        c.append(rng.getrandbits(32) if rng.random() < 0.5 else rng.choice(sel))
    add_set("prmt", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [hi_garbage(x, 32) for x in c])

    a = [rng.getrandbits(32) for _ in range(256)]
    b = [rng.getrandbits(32) for _ in range(256)]
    c = [rng.getrandbits(32) for _ in range(256)]
    a[:4] = [0, M32, 0xF0F0F0F0, 0xFF00FF00]
    b[:4] = [0, M32, 0xCCCCCCCC, 0xFFFF0000]
    c[:4] = [0, M32, 0xAAAAAAAA, 0x0F0F0F0F]
    add_set("lop", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [hi_garbage(x, 32) for x in c])

    dp = [0, 0x7F7F7F7F, 0x80808080, 0xFFFFFFFF, 0x01020304, 0x7FFF8000, 0x80007FFF,
          0x00FF00FF, 0x7FFFFFFF, 0x80000000]
    a, b, c = [], [], []
    for x in dp:
        for y in dp:
            a.append(x)
            b.append(y)
            c.append(rng.choice((0, 1, M32, 0x7FFFFFFF, 0x80000000, rng.getrandbits(32))))
    while len(a) < 512:
        a.append(rng.getrandbits(32))
        b.append(rng.getrandbits(32))
        c.append(rng.getrandbits(32))
    add_set("dp", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [hi_garbage(x, 32) for x in c])

    # slct with an f32 selector in c
    a, b, c = [], [], []
    for s in F32_SPECIAL:
        for _ in range(4):
            a.append(rng.getrandbits(32))
            b.append(rng.getrandbits(32))
            c.append(s)
    while len(a) < 256:
        a.append(rng.getrandbits(32))
        b.append(rng.getrandbits(32))
        c.append(rand_f32())
    add_set("slctf", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [hi_garbage(x, 32) for x in c])

    # atomics on a thread's own location: a = initial memory, b = operand,
    # c = compare value for cas (equal to a half of the time)
    for bits, sp in ((32, I32_SPECIAL), (64, I64_SPECIAL)):
        a, b, c = [], [], []
        while len(a) < 256:
            x = rng.choice(sp) if rng.random() < 0.5 else rand_int(bits)
            y = rng.choice(sp) if rng.random() < 0.5 else rand_int(bits)
            a.append(x)
            b.append(y)
            c.append(x if rng.random() < 0.5 else rand_int(bits))
        add_set("atom%d" % bits, [hi_garbage(x, bits) for x in a],
                [hi_garbage(x, bits) for x in b], [hi_garbage(x, bits) for x in c])
    a, b = [], []
    for x in (0, 1, 5, 99, 100, 101, 0x7FFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF):
        for y in (0, 1, 5, 99, 100, 101, 0x7FFFFFFF, 0xFFFFFFFE, 0xFFFFFFFF):
            a.append(x)
            b.append(y)
    while len(a) < 128:
        a.append(rng.getrandbits(8))
        b.append(rng.getrandbits(8))
    add_set("atominc", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [0] * len(a))
    a, b = [], []
    for x in F32_SPECIAL[:16]:
        for y in F32_SPECIAL[:16]:
            a.append(x)
            b.append(y)
    add_set("atomf32", [hi_garbage(x, 32) for x in a], [hi_garbage(x, 32) for x in b],
            [0] * len(a))
    a, b = [], []
    for x in F64_SPECIAL[:16]:
        for y in F64_SPECIAL[:16]:
            a.append(x)
            b.append(y)
    add_set("atomf64", a, b, [0] * len(a))
    # contended atomics: small values whose sums are exact in any order
    n = 512
    a = [rng.randint(0, 255) for _ in range(n)]
    b = [rng.getrandbits(32) for _ in range(n)]
    # c[first thread of a CTA] is the accumulator of the global cases: its low
    # word is a small integer-valued f32 so that float sums stay exact
    c = [rng.getrandbits(32) << 32 | f32b(float(rng.randint(0, 1000))) for _ in range(n)]
    add_set("contend", [hi_garbage(x, 32) for x in a], b, c)

    # warp-level: 8 warps (2 CTAs of 128); a per-warp value pattern in a,
    # a per-warp predicate pattern in bit 0 of b, per-lane offsets/lanes in c
    a, b, c = [], [], []
    for w in range(8):
        pool = [rng.getrandbits(32) for _ in range(4)]
        for l in range(32):
            if w == 0 or w == 6:
                v = 0x5EED0000 | w
            elif w == 1:
                v = pool[l & 1]
            elif w == 2:
                v = pool[l >> 3]
            elif w == 3:
                v = rng.getrandbits(32)
            elif w == 4:
                v = pool[0] if l != 31 else pool[1]
            elif w == 5:
                v = pool[0]
            else:
                v = pool[rng.randint(0, 2)]
            hi = (l if w == 5 else (rng.getrandbits(32) if w == 3 else 0x0BAD0000 | w))
            a.append(v | hi << 32)
            p = [1, 0, l & 1, rng.getrandbits(1), int(l == 0), int(l != 31),
                 rng.getrandbits(1), int(l < 16)][w]
            b.append(rng.getrandbits(63) << 1 | p)
            c.append(rng.randint(0, 40) if rng.random() < 0.9 else rng.getrandbits(32))
    add_set("warp", a, b, c)
    # bar.red: 4 CTAs: all true, all false, random, all true but one
    a, b = [], []
    for blk in range(4):
        for t in range(BLOCK):
            p = [1, 0, rng.getrandbits(1), int(t != 77)][blk]
            b.append(rng.getrandbits(63) << 1 | p)
            a.append(rng.getrandbits(64))
    add_set("barred", a, b, [rng.getrandbits(64) for _ in a])


# --------------------------------------------------------------------------
# Cases and the kernel emitter
# --------------------------------------------------------------------------

REG_CLASS = {
    "pred": "p",
    "b16": "rs", "u16": "rs", "s16": "rs", "f16": "rs",
    "b32": "r", "u32": "r", "s32": "r", "f16x2": "r", "lo": "r", "hi": "r",
    "f32": "f",
    "b64": "rd", "u64": "rd", "s64": "rd",
    "f64": "fd",
}
CLASS_DECL = [("p", ".pred"), ("rs", ".b16"), ("r", ".b32"), ("f", ".f32"),
              ("rd", ".b64"), ("fd", ".f64")]
WIDTH = {"p": 1, "rs": 2, "r": 4, "f": 4, "rd": 8, "fd": 8}

CASES = []
NAMES = set()


class Case:
    def __init__(self, name, form, body, dtype, iset, tol="exact", width=None,
                 guard=True, shared=(), globals_=()):
        self.name = name
        self.form = form
        self.body = body if isinstance(body, list) else [body]
        self.dtype = dtype
        self.iset = iset
        self.tol = tol
        self.width = width or WIDTH[REG_CLASS[dtype]]
        self.guard = guard
        self.shared = list(shared)
        self.globals = list(globals_)
        self.nin = 0
        self.text = ""


def case(name, form, body, dtype, iset, **kw):
    name = re.sub(r"[^A-Za-z0-9_]", "_", name)
    assert name not in NAMES, name
    assert iset in SETS, iset
    NAMES.add(name)
    assert kw.get("guard", True) or len(SETS[iset][0]) % BLOCK == 0, name
    c = Case(name, form.replace(" ", ""), body, dtype, iset, **kw)
    CASES.append(c)
    return c


PH = re.compile(r"<([A-Za-z][A-Za-z0-9_]*)(?::([a-z0-9]+))?>")
IN_ADDR = {"a": "%rd7", "b": "%rd8", "c": "%rd9"}
IN_RAW = {"a": "%rd10", "b": "%rd11", "c": "%rd12"}
FIXED = {"pout": "%rd6", "pa": "%rd7", "pb": "%rd8", "pc": "%rd9",
         "gid": "%r5", "tid": "%r4", "ntid": "%r3", "ctaid": "%r2"}


def emit_kernel(c):
    """Turn a case into its PTX kernel text."""
    cnt = {k: 20 for k, _ in CLASS_DECL}

    def new(cls):
        r = "%%%s%d" % (cls, cnt[cls])
        cnt[cls] += 1
        return r

    views, temps = {}, {}
    raw_used = set()
    conv = []      # conversions from the raw inputs, after the raw loads
    extra = []     # other prologue lines (laneid, cblk)

    def view(src, ty):
        key = (src, ty)
        if key in views:
            return views[key]
        addr, raw = IN_ADDR[src], IN_RAW[src]
        if ty in ("u64", "s64", "b64"):
            raw_used.add(src)
            r = raw
        elif ty == "f64":
            r = new("fd")
            conv.append("ld.global.f64 %s, [%s];" % (r, addr))
        elif ty == "f32":
            r = new("f")
            conv.append("ld.global.f32 %s, [%s];" % (r, addr))
        elif ty in ("u32", "s32", "b32", "f16x2"):
            raw_used.add(src)
            r = new("r")
            conv.append("cvt.u32.u64 %s, %s;" % (r, raw))
        elif ty in ("u16", "s16", "b16", "f16"):
            raw_used.add(src)
            r = new("rs")
            conv.append("cvt.u16.u64 %s, %s;" % (r, raw))
        elif ty == "pred":
            raw_used.add(src)
            t = new("r")
            r = new("p")
            conv.extend(["cvt.u32.u64 %s, %s;" % (t, raw), "and.b32 %s, %s, 1;" % (t, t),
                         "setp.eq.b32 %s, %s, 1;" % (r, t)])
        elif ty in ("lo", "hi"):
            raw_used.add(src)
            lo, hi = new("r"), new("r")
            conv.append("mov.b64 {%s, %s}, %s;" % (lo, hi, raw))
            views[(src, "lo")] = lo
            views[(src, "hi")] = hi
            return views[key]
        else:
            raise ValueError("%s: bad view type %s" % (c.name, ty))
        views[key] = r
        return r

    dreg = new(REG_CLASS[c.dtype])

    def repl(m):
        nm, ty = m.group(1), m.group(2)
        if nm in ("a", "b", "c"):
            return view(nm, ty)
        if ty:
            if nm not in temps:
                temps[nm] = (new(REG_CLASS[ty]), ty)
            assert temps[nm][1] == ty or REG_CLASS[temps[nm][1]] == REG_CLASS[ty], \
                (c.name, nm)
            return temps[nm][0]
        if nm == "d":
            return dreg
        if nm in FIXED:
            return FIXED[nm]
        if nm == "lane":
            if "lane" not in temps:
                temps["lane"] = (new("r"), "u32")
                extra.append("mov.u32 %s, %%laneid;" % temps["lane"][0])
            return temps["lane"][0]
        if nm == "cblk":
            if "cblk" not in temps:
                t, r = new("rd"), new("rd")
                temps["cblk"] = (r, "u64")
                extra.extend(["mul.wide.u32 %s, %%r4, 8;" % t,
                              "sub.s64 %s, %%rd9, %s;" % (r, t)])
            return temps["cblk"][0]
        raise ValueError("%s: bad placeholder %s" % (c.name, m.group(0)))

    body = [PH.sub(repl, line) for line in c.body]
    c.nin = len(set(k[0] for k in views) | raw_used)

    # result -> u64 in %rd19
    cls = REG_CLASS[c.dtype]
    if cls == "p":
        epi = ["selp.u64 %%rd19, 1, 0, %s;" % dreg]
    elif cls == "rs":
        epi = ["cvt.u64.u16 %%rd19, %s;" % dreg]
    elif cls == "r":
        epi = ["cvt.u64.u32 %%rd19, %s;" % dreg]
    elif cls == "f":
        t = new("r")
        epi = ["mov.b32 %s, %s;" % (t, dreg), "cvt.u64.u32 %%rd19, %s;" % t]
    elif cls == "fd":
        epi = ["mov.b64 %%rd19, %s;" % dreg]
    else:
        epi = ["mov.b64 %%rd19, %s;" % dreg]
    epi.append("st.global.u64 [%rd6], %rd19;")

    n = c.name
    L = ["// @case " + n] + c.globals + [
         ".visible .entry %s(" % n,
         "\t.param .u64 %s_param_0," % n,
         "\t.param .u64 %s_param_1," % n,
         "\t.param .u64 %s_param_2," % n,
         "\t.param .u64 %s_param_3," % n,
         "\t.param .u32 %s_param_4" % n,
         ")", "{"]
    for k, decl in CLASS_DECL:
        L.append("\t.reg %s %%%s<%d>;" % (decl, k, cnt[k]))
    for s in c.shared:
        L.append("\t" + s)
    L.append("")
    P = ["ld.param.u64 %%rd1, [%s_param_0];" % n,
         "ld.param.u64 %%rd2, [%s_param_1];" % n,
         "ld.param.u64 %%rd3, [%s_param_2];" % n,
         "ld.param.u64 %%rd4, [%s_param_3];" % n,
         "ld.param.u32 %%r1, [%s_param_4];" % n,
         "mov.u32 %r2, %ctaid.x;",
         "mov.u32 %r3, %ntid.x;",
         "mov.u32 %r4, %tid.x;",
         "mad.lo.s32 %r5, %r2, %r3, %r4;"]
    if c.guard:
        P += ["setp.ge.u32 %p1, %r5, %r1;", "@%p1 bra $Ldone;"]
    P += ["mul.wide.u32 %rd5, %r5, 8;",
          "cvta.to.global.u64 %rd13, %rd1;",
          "add.s64 %rd6, %rd13, %rd5;",
          "cvta.to.global.u64 %rd14, %rd2;",
          "add.s64 %rd7, %rd14, %rd5;",
          "cvta.to.global.u64 %rd15, %rd3;",
          "add.s64 %rd8, %rd15, %rd5;",
          "cvta.to.global.u64 %rd16, %rd4;",
          "add.s64 %rd9, %rd16, %rd5;"]
    for s in ("a", "b", "c"):
        if s in raw_used:
            P.append("ld.global.u64 %s, [%s];" % (IN_RAW[s], IN_ADDR[s]))
    P += conv + extra
    for line in P:
        L.append("\t" + line)
    L.append("\t// %s" % c.form)
    for line in body:
        L.append(line if line.endswith(":") else "\t" + line)
    for line in epi:
        L.append("\t" + line)
    if c.guard:
        L.append("$Ldone:")
    L += ["\tret;", "}", "// @end", ""]
    c.text = "\n".join(L)


# --------------------------------------------------------------------------
# The cases, by group
# --------------------------------------------------------------------------

def ipair(t):
    return {"16": "i16p", "32": "i32p", "64": "i64p"}[t[1:]]


def itrip(t):
    return {"16": "i16t", "32": "i32t", "64": "i64t"}[t[1:]]


def iuni(t):
    return {"16": "i16u", "32": "i32u", "64": "i64u"}[t[1:]]


ITYPES = ["s16", "u16", "s32", "u32", "s64", "u64"]
RND = ["rn", "rz", "rm", "rp"]


def g_int_arith():
    for op in ("add", "sub"):
        for t in ITYPES:
            case("%s_%s" % (op, t), "%s.%s" % (op, t),
                 "%s.%s <d>, <a:%s>, <b:%s>;" % (op, t, t, t), t, ipair(t))
        case("%s_sat_s32" % op, "%s.sat.s32" % op,
             "%s.sat.s32 <d>, <a:s32>, <b:s32>;" % op, "s32", "i32p")
    for t in ITYPES:
        for m in ("lo", "hi"):
            case("mul_%s_%s" % (m, t), "mul.%s.%s" % (m, t),
                 "mul.%s.%s <d>, <a:%s>, <b:%s>;" % (m, t, t, t), t, ipair(t))
        if t[1:] != "64":
            wide = t[0] + str(2 * int(t[1:]))
            case("mul_wide_%s" % t, "mul.wide.%s" % t,
                 "mul.wide.%s <d>, <a:%s>, <b:%s>;" % (t, t, t), wide, ipair(t))
    for t in ITYPES:
        for m in ("lo", "hi"):
            case("mad_%s_%s" % (m, t), "mad.%s.%s" % (m, t),
                 "mad.%s.%s <d>, <a:%s>, <b:%s>, <c:%s>;" % (m, t, t, t, t), t, itrip(t))
        if t[1:] != "64":
            wide = t[0] + str(2 * int(t[1:]))
            case("mad_wide_%s" % t, "mad.wide.%s" % t,
                 "mad.wide.%s <d>, <a:%s>, <b:%s>, <c:%s>;" % (t, t, t, wide), wide, itrip(t))
    case("mad_hi_sat_s32", "mad.hi.sat.s32",
         "mad.hi.sat.s32 <d>, <a:s32>, <b:s32>, <c:s32>;", "s32", "i32t")
    for t in ("u32", "s32"):
        for m in ("lo", "hi"):
            case("mul24_%s_%s" % (m, t), "mul24.%s.%s" % (m, t),
                 "mul24.%s.%s <d>, <a:%s>, <b:%s>;" % (m, t, t, t), t, "i32p")
            case("mad24_%s_%s" % (m, t), "mad24.%s.%s" % (m, t),
                 "mad24.%s.%s <d>, <a:%s>, <b:%s>, <c:%s>;" % (m, t, t, t, t), t, "i32t")
    case("mad24_hi_sat_s32", "mad24.hi.sat.s32",
         "mad24.hi.sat.s32 <d>, <a:s32>, <b:s32>, <c:s32>;", "s32", "i32t")
    for t in ITYPES:
        case("sad_%s" % t, "sad.%s" % t,
             "sad.%s <d>, <a:%s>, <b:%s>, <c:%s>;" % (t, t, t, t), t, itrip(t))
    for op in ("div", "rem"):
        for t in ITYPES:
            case("%s_%s" % (op, t), "%s.%s" % (op, t),
                 "%s.%s <d>, <a:%s>, <b:%s>;" % (op, t, t, t), t, ipair(t))
    for op in ("abs", "neg"):
        for t in ("s16", "s32", "s64"):
            case("%s_%s" % (op, t), "%s.%s" % (op, t),
                 "%s.%s <d>, <a:%s>;" % (op, t, t), t, iuni(t))
    for op in ("min", "max"):
        for t in ITYPES:
            case("%s_%s" % (op, t), "%s.%s" % (op, t),
                 "%s.%s <d>, <a:%s>, <b:%s>;" % (op, t, t, t), t, ipair(t))


def g_carry():
    # 64-bit add and subtract from 32-bit halves
    case("addcc_u32_chain64", "add.cc.u32+addc.u32",
         ["add.cc.u32 <l:u32>, <a:lo>, <b:lo>;", "addc.u32 <h:u32>, <a:hi>, <b:hi>;",
          "mov.b64 <d>, {<l:u32>, <h:u32>};"], "u64", "i64p")
    case("subcc_u32_chain64", "sub.cc.u32+subc.u32",
         ["sub.cc.u32 <l:u32>, <a:lo>, <b:lo>;", "subc.u32 <h:u32>, <a:hi>, <b:hi>;",
          "mov.b64 <d>, {<l:u32>, <h:u32>};"], "u64", "i64p")
    # carry / borrow out as a value
    case("addcc_u32_carry", "add.cc.u32+addc.u32(0,0)",
         ["add.cc.u32 <l:u32>, <a:u32>, <b:u32>;", "addc.u32 <h:u32>, 0, 0;",
          "mov.b64 <d>, {<l:u32>, <h:u32>};"], "u64", "i32p")
    case("subcc_u32_borrow", "sub.cc.u32+subc.u32(0,0)",
         ["sub.cc.u32 <l:u32>, <a:u32>, <b:u32>;", "subc.u32 <h:u32>, 0, 0;",
          "mov.b64 <d>, {<l:u32>, <h:u32>};"], "u64", "i32p")
    case("addcc_s32_carry", "add.cc.s32+addc.s32",
         ["add.cc.s32 <l:s32>, <a:s32>, <b:s32>;", "addc.s32 <h:s32>, <a:s32>, <b:s32>;",
          "mov.b64 <d>, {<l:s32>, <h:s32>};"], "u64", "i32p")
    # 96-bit chains: a.lo a.hi c.lo + b.lo b.hi c.hi
    case("addc_cc_chain96", "add.cc.u32+addc.cc.u32+addc.u32",
         ["add.cc.u32 <x0:u32>, <a:lo>, <b:lo>;",
          "addc.cc.u32 <x1:u32>, <a:hi>, <b:hi>;",
          "addc.u32 <x2:u32>, <c:lo>, <c:hi>;",
          "xor.b32 <x2:u32>, <x2:u32>, <x0:u32>;",
          "mov.b64 <d>, {<x1:u32>, <x2:u32>};"], "u64", "i64t")
    case("subc_cc_chain96", "sub.cc.u32+subc.cc.u32+subc.u32",
         ["sub.cc.u32 <x0:u32>, <a:lo>, <b:lo>;",
          "subc.cc.u32 <x1:u32>, <a:hi>, <b:hi>;",
          "subc.u32 <x2:u32>, <c:lo>, <c:hi>;",
          "xor.b32 <x2:u32>, <x2:u32>, <x0:u32>;",
          "mov.b64 <d>, {<x1:u32>, <x2:u32>};"], "u64", "i64t")
    # 128-bit add/sub from 64-bit parts: carry into c
    case("addcc_u64_carry", "add.cc.u64+addc.u64",
         ["add.cc.u64 <l:u64>, <a:u64>, <b:u64>;", "addc.u64 <d>, <c:u64>, 0;"],
         "u64", "i64t")
    case("subcc_u64_borrow", "sub.cc.u64+subc.u64",
         ["sub.cc.u64 <l:u64>, <a:u64>, <b:u64>;", "subc.u64 <d>, <c:u64>, 0;"],
         "u64", "i64t")
    case("addc_cc_u64_chain", "add.cc.u64+addc.cc.u64+addc.u64",
         ["add.cc.u64 <l:u64>, <a:u64>, <b:u64>;", "addc.cc.u64 <m:u64>, <c:u64>, <a:u64>;",
          "addc.u64 <h:u64>, 0, 0;", "xor.b64 <d>, <m:u64>, <h:u64>;"], "u64", "i64t")
    # 32x32+64 -> 64 multiply-accumulate
    case("madcc_lo_hi_u32", "mad.lo.cc.u32+madc.hi.u32",
         ["mad.lo.cc.u32 <l:u32>, <a:u32>, <b:u32>, <c:lo>;",
          "madc.hi.u32 <h:u32>, <a:u32>, <b:u32>, <c:hi>;",
          "mov.b64 <d>, {<l:u32>, <h:u32>};"], "u64", "i32t")
    case("madcc_hi_cc_carry", "mad.lo.cc.u32+madc.hi.cc.u32+addc.u32",
         ["mad.lo.cc.u32 <l:u32>, <a:u32>, <b:u32>, <c:lo>;",
          "madc.hi.cc.u32 <h:u32>, <a:u32>, <b:u32>, <c:hi>;",
          "addc.u32 <k:u32>, 0, 0;", "xor.b32 <h:u32>, <h:u32>, <k:u32>;",
          "shl.b32 <k:u32>, <k:u32>, 31;", "xor.b32 <l:u32>, <l:u32>, <k:u32>;",
          "mov.b64 <d>, {<l:u32>, <h:u32>};"], "u64", "i32t")
    case("madc_lo_cc_s32", "mad.hi.cc.s32+madc.lo.cc.s32+addc.s32",
         ["mad.hi.cc.s32 <l:s32>, <a:s32>, <b:s32>, <c:lo>;",
          "madc.lo.cc.s32 <h:s32>, <a:s32>, <b:s32>, <c:hi>;",
          "addc.s32 <k:s32>, 0, 0;", "add.s32 <h:s32>, <h:s32>, <k:s32>;",
          "mov.b64 <d>, {<l:s32>, <h:s32>};"], "u64", "i32t")
    case("madcc_u64", "mad.lo.cc.u64+madc.hi.u64",
         ["mad.lo.cc.u64 <l:u64>, <a:u64>, <b:u64>, <c:u64>;",
          "madc.hi.u64 <h:u64>, <a:u64>, <b:u64>, 0;", "xor.b64 <d>, <h:u64>, <l:u64>;"],
         "u64", "i64t")


def g_float_arith():
    for op in ("add", "sub", "mul"):
        for mods in ("", ".rn", ".rz", ".rm", ".rp", ".ftz", ".rn.ftz", ".rz.ftz", ".sat",
                     ".rm.ftz.sat"):
            form = "%s%s.f32" % (op, mods)
            case(form, form, "%s <d>, <a:f32>, <b:f32>;" % form, "f32", "f32p")
        for mods in ("", ".rn", ".rz", ".rm", ".rp"):
            form = "%s%s.f64" % (op, mods)
            case(form, form, "%s <d>, <a:f64>, <b:f64>;" % form, "f64", "f64p")
        for mods in ("", ".rn", ".rn.ftz", ".sat", ".rn.ftz.sat"):
            form = "%s%s.f16" % (op, mods)
            case(form, form, "%s <d>, <a:f16>, <b:f16>;" % form, "f16", "f16p")
        for mods in (".rn", ".ftz", ".rn.sat"):
            form = "%s%s.f16x2" % (op, mods)
            case(form, form, "%s <d>, <a:f16x2>, <b:f16x2>;" % form, "b32", "f16x2p")
    for mods in (".rn", ".rz", ".rm", ".rp", ".rn.ftz", ".rn.sat", ".rz.ftz.sat"):
        for op in ("fma", "mad"):
            form = "%s%s.f32" % (op, mods)
            case(form, form, "%s <d>, <a:f32>, <b:f32>, <c:f32>;" % form, "f32", "f32t")
    for mods in (".rn", ".rz", ".rm", ".rp"):
        for op in ("fma", "mad"):
            form = "%s%s.f64" % (op, mods)
            case(form, form, "%s <d>, <a:f64>, <b:f64>, <c:f64>;" % form, "f64", "f64t")
    for form in ("fma.rn.f16", "fma.rn.ftz.f16", "fma.rn.sat.f16"):
        case(form, form, "%s <d>, <a:f16>, <b:f16>, <c:f16>;" % form, "f16", "f16t")
    for form in ("fma.rn.f16x2", "fma.rn.ftz.sat.f16x2"):
        case(form, form, "%s <d>, <a:f16x2>, <b:f16x2>, <c:f16x2>;" % form, "b32", "f16x2p")
    # division
    for mods in (".rn", ".rz", ".rm", ".rp", ".rn.ftz", ".rp.ftz"):
        form = "div%s.f32" % mods
        case(form, form, "%s <d>, <a:f32>, <b:f32>;" % form, "f32", "f32p")
    for form, tol in (("div.full.f32", "ulp:2"), ("div.full.ftz.f32", "ulp:2"),
                      ("div.approx.f32", "divapprox"), ("div.approx.ftz.f32", "divapprox")):
        case(form, form, "%s <d>, <a:f32>, <b:f32>;" % form, "f32", "f32p", tol=tol)
    for r in RND:
        form = "div.%s.f64" % r
        case(form, form, "%s <d>, <a:f64>, <b:f64>;" % form, "f64", "f64p")
    # abs / neg / min / max / copysign
    for op in ("abs", "neg"):
        for form, t, s in (("%s.f32", "f32", "f32u"), ("%s.ftz.f32", "f32", "f32u"),
                           ("%s.f64", "f64", "f64u"), ("%s.f16", "f16", "f16u"),
                           ("%s.ftz.f16", "f16", "f16u"), ("%s.f16x2", "f16x2", "f16x2p")):
            f = form % op
            case(f, f, "%s <d>, <a:%s>;" % (f, t), "b32" if t == "f16x2" else t, s)
    for op in ("min", "max"):
        for form, t, s in (("%s.f32", "f32", "f32p"), ("%s.ftz.f32", "f32", "f32p"),
                           ("%s.f64", "f64", "f64p")):
            f = form % op
            case(f, f, "%s <d>, <a:%s>, <b:%s>;" % (f, t, t), t, s)
    case("copysign.f32", "copysign.f32", "copysign.f32 <d>, <a:f32>, <b:f32>;", "f32", "f32p")
    case("copysign.f64", "copysign.f64", "copysign.f64 <d>, <a:f64>, <b:f64>;", "f64", "f64p")
    for op in ("finite", "infinite", "number", "notanumber", "normal", "subnormal"):
        for t in ("f32", "f64"):
            f = "testp.%s.%s" % (op, t)
            case(f, f, "%s <d>, <a:%s>;" % (f, t), "pred", t + "u")


def g_special_fn():
    for r in RND:
        for t in ("f32", "f64"):
            for op in ("rcp", "sqrt"):
                f = "%s.%s.%s" % (op, r, t)
                case(f, f, "%s <d>, <a:%s>;" % (f, t), t, t + "u")
    for op in ("rcp", "sqrt"):
        f = "%s.rn.ftz.f32" % op
        case(f, f, "%s <d>, <a:f32>;" % f, "f32", "f32u")
    for f, tol in (("rcp.approx.f32", "ulp:1"), ("rcp.approx.ftz.f32", "ulp:1"),
                   ("sqrt.approx.f32", "rel:-23"), ("sqrt.approx.ftz.f32", "rel:-23"),
                   ("rsqrt.approx.f32", "rel:-22.9"), ("rsqrt.approx.ftz.f32", "rel:-22.9"),
                   ("tanh.approx.f32", "rel:-11")):
        case(f, f, "%s <d>, <a:f32>;" % f, "f32", "f32u", tol=tol)
    # no documented bound: see README
    for f, tol in (("rcp.approx.ftz.f64", "hi64:-19"), ("rsqrt.approx.f64", "rel64:-50"),
                   ("rsqrt.approx.ftz.f64", "hi64:-19")):
        case(f, f, "%s <d>, <a:f64>;" % f, "f64", "f64u", tol=tol)
    for op, s, tol in (("sin", "f32trig", "sincos"), ("cos", "f32trig", "sincos"),
                       ("lg2", "f32lg2", "lg2"), ("ex2", "f32ex2", "ulp:2")):
        for m in ("", ".ftz"):
            f = "%s.approx%s.f32" % (op, m)
            case(f, f, "%s <d>, <a:f32>;" % f, "f32", s, tol=tol)


def g_bits():
    for t in ("b32", "b64"):
        bits = t[1:]
        s = "i%su" % bits
        case("popc_" + t, "popc." + t, "popc.%s <d>, <a:%s>;" % (t, t), "u32", s)
        case("clz_" + t, "clz." + t, "clz.%s <d>, <a:%s>;" % (t, t), "u32", s)
        case("brev_" + t, "brev." + t, "brev.%s <d>, <a:%s>;" % (t, t), t, s)
    for t in ("u32", "s32", "u64", "s64"):
        s = "i%su" % t[1:]
        case("bfind_" + t, "bfind." + t, "bfind.%s <d>, <a:%s>;" % (t, t), "u32", s)
        case("bfind_shiftamt_" + t, "bfind.shiftamt." + t,
             "bfind.shiftamt.%s <d>, <a:%s>;" % (t, t), "u32", s)
        case("bfe_" + t, "bfe." + t, "bfe.%s <d>, <a:%s>, <c:lo>, <c:hi>;" % (t, t), t,
             "bf" + t[1:])
    for t in ("b32", "b64"):
        case("bfi_" + t, "bfi." + t, "bfi.%s <d>, <a:%s>, <b:%s>, <c:lo>, <c:hi>;" % (t, t, t),
             t, "bf" + t[1:])
    for m in ("clamp", "wrap"):
        case("bmsk_%s_b32" % m, "bmsk.%s.b32" % m, "bmsk.%s.b32 <d>, <a:b32>, <b:b32>;" % m,
             "b32", "bmsk")
        for t in ("u32", "s32"):
            case("szext_%s_%s" % (m, t), "szext.%s.%s" % (m, t),
                 "szext.%s.%s <d>, <a:%s>, <b:u32>;" % (m, t, t), t, "sh32")
    case("prmt_b32", "prmt.b32", "prmt.b32 <d>, <a:b32>, <b:b32>, <c:b32>;", "b32", "prmt")
    for m in ("f4e", "b4e", "rc8", "ecl", "ecr", "rc16"):
        case("prmt_b32_" + m, "prmt.b32." + m,
             "prmt.b32.%s <d>, <a:b32>, <b:b32>, <c:b32>;" % m, "b32", "prmt")
    for imm in ("0x4321", "0x0000", "0x8080", "0x3210", "0x7531"):
        case("prmt_b32_imm" + imm[2:], "prmt.b32(c=%s)" % imm,
             "prmt.b32 <d>, <a:b32>, <b:b32>, %s;" % imm, "b32", "prmt")
    for lut in (0x00, 0xFF, 0x96, 0xE8, 0xCA, 0x80, 0xFE, 0x1E, 0x6A, 0xF0, 0xCC, 0xAA):
        case("lop3_b32_%02x" % lut, "lop3.b32(lut=0x%02x)" % lut,
             "lop3.b32 <d>, <a:b32>, <b:b32>, <c:b32>, 0x%02x;" % lut, "b32", "lop")
    for d in ("l", "r"):
        for m in ("clamp", "wrap"):
            case("shf_%s_%s_b32" % (d, m), "shf.%s.%s.b32" % (d, m),
                 "shf.%s.%s.b32 <d>, <a:b32>, <b:b32>, <c:u32>;" % (d, m), "b32", "shf")
    for t in ("b16", "b32", "b64"):
        s = "sh" + t[1:]
        case("shl_" + t, "shl." + t, "shl.%s <d>, <a:%s>, <b:u32>;" % (t, t), t, s)
        for k in ("b", "u", "s"):
            tt = k + t[1:]
            case("shr_" + tt, "shr." + tt, "shr.%s <d>, <a:%s>, <b:u32>;" % (tt, tt), tt, s)
    case("shl_b32_imm", "shl.b32(imm 5)", "shl.b32 <d>, <a:b32>, 5;", "b32", "i32u")
    case("shr_s64_imm", "shr.s64(imm 40)", "shr.s64 <d>, <a:s64>, 40;", "s64", "i64u")
    for t in ("b16", "b32", "b64"):
        s = ipair("x" + t[1:])
        for op in ("and", "or", "xor"):
            case("%s_%s" % (op, t), "%s.%s" % (op, t),
                 "%s.%s <d>, <a:%s>, <b:%s>;" % (op, t, t, t), t, s)
        for op in ("not", "cnot"):
            case("%s_%s" % (op, t), "%s.%s" % (op, t), "%s.%s <d>, <a:%s>;" % (op, t, t), t, s)
    for op in ("and", "or", "xor"):
        case("%s_pred" % op, "%s.pred" % op, "%s.pred <d>, <b:pred>, <c:pred>;" % op, "pred",
             "i32p")
    case("not_pred", "not.pred", "not.pred <d>, <b:pred>;", "pred", "i32p")
    case("and_pred_neg", "and.pred(!b)", "and.pred <d>, <c:pred>, !<b:pred>;", "pred",
         "i32p")
    for at in ("u32", "s32"):
        for bt in ("u32", "s32"):
            case("dp4a_%s_%s" % (at, bt), "dp4a.%s.%s" % (at, bt),
                 "dp4a.%s.%s <d>, <a:b32>, <b:b32>, <c:b32>;" % (at, bt), "b32", "dp")
            for m in ("lo", "hi"):
                case("dp2a_%s_%s_%s" % (m, at, bt), "dp2a.%s.%s.%s" % (m, at, bt),
                     "dp2a.%s.%s.%s <d>, <a:b32>, <b:b32>, <c:b32>;" % (m, at, bt), "b32", "dp")


CMP_S = ["eq", "ne", "lt", "le", "gt", "ge"]
CMP_U = CMP_S + ["lo", "ls", "hi", "hs"]
CMP_F = CMP_S + ["equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"]


def g_compare():
    for t in ("s16", "u16", "s32", "u32", "s64", "u64"):
        ops = CMP_S if t[0] == "s" else CMP_U
        if t[1:] == "16":
            ops = ["lt", "ge"] if t[0] == "s" else ["lo", "hs", "gt"]
        for op in ops:
            f = "setp.%s.%s" % (op, t)
            case(f, f, "%s <d>, <a:%s>, <b:%s>;" % (f, t, t), "pred", ipair(t))
    for t in ("b32", "b64"):
        for op in ("eq", "ne"):
            f = "setp.%s.%s" % (op, t)
            case(f, f, "%s <d>, <a:%s>, <b:%s>;" % (f, t, t), "pred", ipair(t))
    for t in ("f32", "f64"):
        for op in CMP_F:
            f = "setp.%s.%s" % (op, t)
            case(f, f, "%s <d>, <a:%s>, <b:%s>;" % (f, t, t), "pred", t + "p")
    for op in ("eq", "lt", "geu", "num", "gtu"):
        f = "setp.%s.ftz.f32" % op
        case(f, f, "%s <d>, <a:f32>, <b:f32>;" % f, "pred", "f32p")
    for op in ("lt", "equ", "nan"):
        f = "setp.%s.f16" % op
        case(f, f, "%s <d>, <a:f16>, <b:f16>;" % f, "pred", "f16p")
    case("setp_lt_f16x2_pq", "setp.lt.f16x2(p|q)",
         ["setp.lt.f16x2 <p:pred>|<q:pred>, <a:f16x2>, <b:f16x2>;",
          "selp.u32 <x:u32>, 1, 0, <p:pred>;", "selp.u32 <y:u32>, 2, 0, <q:pred>;",
          "or.b32 <d>, <x:u32>, <y:u32>;"], "u32", "f16x2p", width=1)
    # boolean combination with a third predicate (c), and the p|q form
    for f, t, s in (("setp.lt.and.s32", "s32", "i32p"), ("setp.hi.or.u32", "u32", "i32p"),
                    ("setp.ne.xor.u64", "u64", "i64p"), ("setp.ltu.and.f32", "f32", "f32p"),
                    ("setp.ge.or.ftz.f32", "f32", "f32p"), ("setp.nan.xor.f64", "f64", "f64p")):
        case(f, f, "%s <d>, <a:%s>, <b:%s>, <c:pred>;" % (f, t, t), "pred", s)
    case("setp.ge.or.f32_negc", "setp.ge.or.f32(!c)",
         "setp.ge.or.f32 <d>, <a:f32>, <b:f32>, !<c:pred>;", "pred", "f32p")
    for nm, f, t, s, tail in (("setp_lt_s32_pq", "setp.lt.s32", "s32", "i32p", ""),
                              ("setp_gtu_f32_pq", "setp.gtu.f32", "f32", "f32p", ""),
                              ("setp_eq_and_f64_pq", "setp.eq.and.f64", "f64", "f64p",
                               ", !<c:pred>"),
                              ("setp_le_or_s64_pq", "setp.le.or.s64", "s64", "i64p",
                               ", <c:pred>")):
        case(nm, f + "(p|q)",
             ["%s <p:pred>|<q:pred>, <a:%s>, <b:%s>%s;" % (f, t, t, tail),
              "selp.u32 <x:u32>, 1, 0, <p:pred>;", "selp.u32 <y:u32>, 2, 0, <q:pred>;",
              "or.b32 <d>, <x:u32>, <y:u32>;"], "u32", s, width=1)
    for f, t, dt, s in (("set.lt.u32.s32", "s32", "u32", "i32p"),
                        ("set.hs.s32.u32", "u32", "s32", "i32p"),
                        ("set.eq.f32.s32", "s32", "f32", "i32p"),
                        ("set.gtu.f32.f32", "f32", "f32", "f32p"),
                        ("set.le.ftz.u32.f32", "f32", "u32", "f32p"),
                        ("set.ne.u32.f64", "f64", "u32", "f64p"),
                        ("set.hi.u32.u64", "u64", "u32", "i64p"),
                        ("set.nan.f32.f64", "f64", "f32", "f64p")):
        case(f, f, "%s <d>, <a:%s>, <b:%s>;" % (f, t, t), dt, s)
    case("set.lt.and.u32.s32", "set.lt.and.u32.s32",
         "set.lt.and.u32.s32 <d>, <a:s32>, <b:s32>, !<c:pred>;", "u32", "i32p")
    case("set.geu.or.f32.f32", "set.geu.or.f32.f32",
         "set.geu.or.f32.f32 <d>, <a:f32>, <b:f32>, <c:pred>;", "f32", "f32p")
    # selp / slct
    for t, s in (("b16", "i16p"), ("b32", "i32p"), ("u64", "i64p"), ("f32", "f32p"),
                 ("f64", "f64p")):
        case("selp." + t, "selp." + t, "selp.%s <d>, <a:%s>, <b:%s>, <c:pred>;" % (t, t, t),
             t, s)
    case("selp.b32_imm", "selp.b32(imm)", "selp.b32 <d>, 7, -3, <c:pred>;", "b32", "i32p")
    for f, t, s in (("slct.b32.s32", "b32", "i32t"), ("slct.u64.s32", "u64", "i64t"),
                    ("slct.f32.s32", "f32", "i32t")):
        case(f, f, "%s <d>, <a:%s>, <b:%s>, <c:s32>;" % (f, t, t), t, s)
    for f in ("slct.b32.f32", "slct.ftz.b32.f32", "slct.s32.f32"):
        case(f, f, "%s <d>, <a:b32>, <b:b32>, <c:f32>;" % f, "b32", "slctf")


INT_T = ["u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"]


def ibits(t):
    return int(t[1:])


def sat_legal(d, s):
    """.sat on an int->int cvt is legal only where the value can overflow."""
    ds, ss = ibits(d), ibits(s)
    if s[0] == "u" and d[0] == "u":
        return ds < ss
    if s[0] == "u" and d[0] == "s":
        return ds <= ss
    if s[0] == "s" and d[0] == "s":
        return ds < ss
    return True


def reg_view(t):
    """Register view for an int cvt operand: 8/16-bit types live in 32-bit
    registers (cvt allows operands wider than the type)."""
    return "u64" if ibits(t) == 64 else "u32"


def g_cvt():
    for d in INT_T:
        for s in INT_T:
            if d == s:
                continue
            dt = "u64" if ibits(d) == 64 else "u32"
            for sat in ("", ".sat"):
                if sat and not sat_legal(d, s):
                    continue
                f = "cvt%s.%s.%s" % (sat, d, s)
                case(f, f, "%s <d>, <a:%s>;" % (f, reg_view(s)), dt, "cvti")
    # nvcc-style 16-bit register operands
    case("cvt.u16.u32_rs", "cvt.u16.u32(b16 dst)", "cvt.u16.u32 <d>, <a:u32>;", "u16", "cvti")
    case("cvt.s32.s16_rs", "cvt.s32.s16(b16 src)", "cvt.s32.s16 <d>, <a:s16>;", "s32", "cvti")
    case("cvt.s8.s16_rs", "cvt.s8.s16(b16 regs)", "cvt.s8.s16 <d>, <a:s16>;", "s16", "cvti")
    case("cvt.u64.u16_rs", "cvt.u64.u16(b16 src)", "cvt.u64.u16 <d>, <a:u16>;", "u64", "cvti")
    case("cvt.sat.s16.s32_rs", "cvt.sat.s16.s32(b16 dst)", "cvt.sat.s16.s32 <d>, <a:s32>;",
         "s16", "cvti")
    # float -> int
    for d in INT_T:
        dt = "u64" if ibits(d) == 64 else "u32"
        for r in ("rni", "rzi", "rmi", "rpi"):
            f = "cvt.%s.%s.f32" % (r, d)
            case(f, f, "%s <d>, <a:f32>;" % f, dt, "cvtf32")
        if ibits(d) >= 32:
            for r in ("rni", "rzi", "rmi", "rpi"):
                f = "cvt.%s.%s.f64" % (r, d)
                case(f, f, "%s <d>, <a:f64>;" % f, dt, "cvtf64")
        else:
            f = "cvt.rzi.%s.f64" % d
            case(f, f, "%s <d>, <a:f64>;" % f, dt, "cvtf64")
    for f, dt in (("cvt.rzi.ftz.s32.f32", "u32"), ("cvt.rni.ftz.u64.f32", "u64"),
                  ("cvt.rni.sat.s32.f32", "u32"), ("cvt.rzi.sat.u16.f32", "u32")):
        case(f, f, "%s <d>, <a:f32>;" % f, dt, "cvtf32")
    # int -> float
    for s in ("s32", "u32", "s64", "u64"):
        for t in ("f32", "f64"):
            for r in RND:
                f = "cvt.%s.%s.%s" % (r, t, s)
                case(f, f, "%s <d>, <a:%s>;" % (f, s), t, "cvti")
    for s in ("s8", "u8", "s16", "u16"):
        f = "cvt.rn.f32.%s" % s
        case(f, f, "%s <d>, <a:u32>;" % f, "f32", "cvti")
        f = "cvt.rn.f64.%s" % s
        case(f, f, "%s <d>, <a:u32>;" % f, "f64", "cvti")
    # float <-> float
    for f in ("cvt.f64.f32", "cvt.ftz.f64.f32"):
        case(f, f, "%s <d>, <a:f32>;" % f, "f64", "cvtf32")
    for m in ("rn", "rz", "rm", "rp", "rn.ftz", "rn.sat", "rz.ftz.sat"):
        f = "cvt.%s.f32.f64" % m
        case(f, f, "%s <d>, <a:f64>;" % f, "f32", "cvtf64")
    for m in ("rni", "rzi", "rmi", "rpi", "rni.ftz", "rzi.ftz.sat"):
        f = "cvt.%s.f32.f32" % m
        case(f, f, "%s <d>, <a:f32>;" % f, "f32", "cvtf32")
    for m in ("ftz", "sat", "ftz.sat"):
        f = "cvt.%s.f32.f32" % m
        case(f, f, "%s <d>, <a:f32>;" % f, "f32", "cvtf32")
    for m in ("rni", "rzi", "rmi", "rpi"):
        f = "cvt.%s.f64.f64" % m
        case(f, f, "%s <d>, <a:f64>;" % f, "f64", "cvtf64")
    case("cvt.sat.f64.f64", "cvt.sat.f64.f64", "cvt.sat.f64.f64 <d>, <a:f64>;", "f64",
         "cvtf64")
    # half precision
    for m in ("rn", "rz", "rm", "rp", "rn.ftz"):
        f = "cvt.%s.f16.f32" % m
        case(f, f, "%s <d>, <a:f32>;" % f, "f16", "cvtf32")
    case("cvt.rn.f16.f64", "cvt.rn.f16.f64", "cvt.rn.f16.f64 <d>, <a:f64>;", "f16", "cvtf64")
    for f, dt in (("cvt.f32.f16", "f32"), ("cvt.ftz.f32.f16", "f32"), ("cvt.f64.f16", "f64")):
        case(f, f, "%s <d>, <a:f16>;" % f, dt, "cvtf16")
    case("cvt.rn.f16.s32", "cvt.rn.f16.s32", "cvt.rn.f16.s32 <d>, <a:s32>;", "f16", "cvti")
    case("cvt.rn.f16.u64", "cvt.rn.f16.u64", "cvt.rn.f16.u64 <d>, <a:u64>;", "f16", "cvti")
    case("cvt.rzi.s32.f16", "cvt.rzi.s32.f16", "cvt.rzi.s32.f16 <d>, <a:f16>;", "s32",
         "cvtf16")
    case("cvt.rni.u16.f16", "cvt.rni.u16.f16", "cvt.rni.u16.f16 <d>, <a:f16>;", "u32",
         "cvtf16")
    case("cvt.rni.f16.f16", "cvt.rni.f16.f16", "cvt.rni.f16.f16 <d>, <a:f16>;", "f16",
         "cvtf16")


def g_mov():
    case("mov.b16", "mov.b16", "mov.b16 <d>, <a:b16>;", "b16", "i16u")
    case("mov.b32", "mov.b32", "mov.b32 <d>, <a:b32>;", "b32", "i32u")
    case("mov.b64", "mov.b64", "mov.b64 <d>, <a:b64>;", "b64", "i64u")
    case("mov.f32", "mov.f32", "mov.f32 <d>, <a:f32>;", "f32", "f32u")
    case("mov.f64", "mov.f64", "mov.f64 <d>, <a:f64>;", "f64", "f64u")
    case("mov_b64_pack", "mov.b64{lo,hi}",
         ["cvt.u32.u64 <x:u32>, <b:u64>;", "mov.b64 <d>, {<x:u32>, <a:u32>};"], "u64", "i64p")
    case("mov_b64_unpack", "mov.b64{lo,hi}<-",
         ["mov.b64 {<x:u32>, <y:u32>}, <a:b64>;", "sub.u32 <x:u32>, <x:u32>, <y:u32>;",
          "mov.b64 <d>, {<y:u32>, <x:u32>};"], "u64", "i64u")
    case("mov_b32_unpack16", "mov.b32{h0,h1}<-",
         ["mov.b32 {<x:b16>, <y:b16>}, <a:b32>;", "add.u16 <x:b16>, <x:b16>, 1;",
          "mov.b32 <d>, {<y:b16>, <x:b16>};"], "b32", "i32u")
    case("mov_b64_pack16", "mov.b64{h0,h1,h2,h3}",
         ["mov.b64 {<w:b16>, <x:b16>, <y:b16>, <z:b16>}, <a:b64>;",
          "mov.b64 <d>, {<z:b16>, <w:b16>, <y:b16>, <x:b16>};"], "b64", "i64u")
    # immediates (GPGPU-Sim truncated 64-bit decimal immediates)
    case("imm_u64_dec", "add.u64(imm 81985529216486895)",
         "add.u64 <d>, <a:u64>, 81985529216486895;", "u64", "i64u")
    case("imm_s64_neg", "add.s64(imm -81985529216486895)",
         "add.s64 <d>, <a:s64>, -81985529216486895;", "s64", "i64u")
    case("imm_b64_hex", "xor.b64(imm 0xFEDCBA9876543210)",
         "xor.b64 <d>, <a:b64>, 0xFEDCBA9876543210;", "b64", "i64u")
    case("imm_u32_neg", "add.u32(imm -1)", "add.u32 <d>, <a:u32>, -1;", "u32", "i32u")
    case("imm_s32_oct", "and.b32(imm 0777)", "and.b32 <d>, <a:b32>, 0777;", "b32", "i32u")
    case("imm_f32_hex", "add.rn.f32(imm 0f3FC00000)", "add.rn.f32 <d>, <a:f32>, 0f3FC00000;",
         "f32", "f32u")
    case("imm_f64_hex", "mul.rn.f64(imm 0dC008000000000000)",
         "mul.rn.f64 <d>, <a:f64>, 0dC008000000000000;", "f64", "f64u")
    case("imm_f32_dec", "mul.rn.f32(imm 0.1)", "mul.rn.f32 <d>, <a:f32>, 0.1;", "f32", "f32u")
    case("imm_mov_u64", "mov.u64(imm 0x8000000000000001)",
         ["mov.u64 <x:u64>, 0x8000000000000001;", "add.u64 <d>, <a:u64>, <x:u64>;"], "u64",
         "i64u")
    # narrow loads from the same address (little-endian, sign/zero extension)
    for f, dt, off in (("ld.global.u8", "u32", 1), ("ld.global.s8", "u32", 7),
                       ("ld.global.u16", "u32", 2), ("ld.global.s16", "u32", 6),
                       ("ld.global.s32", "u64", 4), ("ld.global.u32", "u64", 4),
                       ("ld.global.s8", "u16", 3), ("ld.global.s16", "u64", 0)):
        nm = "%s_%s_off%d" % (f, dt, off)
        case(nm, "%s(%s dst,+%d)" % (f, dt, off), "%s <d>, [<pa>+%d];" % (f, off), dt, "i64u")
    case("ld.global.v2.u32", "ld.global.v2.u32",
         ["ld.global.v2.u32 {<x:u32>, <y:u32>}, [<pa>];", "mov.b64 <d>, {<y:u32>, <x:u32>};"],
         "u64", "i64u")
    case("ld.global.v4.u16", "ld.global.v4.u16",
         ["ld.global.v4.u16 {<w:b16>, <x:b16>, <y:b16>, <z:b16>}, [<pa>];",
          "mov.b64 <d>, {<x:b16>, <y:b16>, <z:b16>, <w:b16>};"], "u64", "i64u")
    # narrow stores into a stored u64
    for f, t, off in (("st.global.u8", "u32", 3), ("st.global.u16", "u16", 6),
                      ("st.global.u32", "u32", 4), ("st.global.b8", "b16", 0)):
        case("%s_off%d" % (f, off), "%s(+%d)" % (f, off),
             ["st.global.u64 [<pout>], <a:u64>;", "%s [<pout>+%d], <b:%s>;" % (f, off, t),
              "ld.global.u64 <d>, [<pout>];"], "u64", "i64p")
    case("st.global.v2.u32", "st.global.v2.u32",
         ["st.global.v2.u32 [<pout>], {<b:u32>, <a:u32>};", "ld.global.u64 <d>, [<pout>];"],
         "u64", "i64p")


def g_warp():
    full = "0xffffffff"
    W = dict(guard=False)
    case("sreg_laneid", "mov.u32(%laneid)", "mov.u32 <d>, %laneid;", "u32", "warp", **W)
    for m in ("eq", "lt", "le", "gt", "ge"):
        case("sreg_lanemask_" + m, "mov.u32(%%lanemask_%s)" % m,
             "mov.u32 <d>, %%lanemask_%s;" % m, "u32", "warp", **W)
    case("sreg_ids", "mov.u32(%tid,%ntid,%ctaid,%nctaid)",
         ["mov.u32 <x:u32>, %tid.x;", "mov.u32 <y:u32>, %ntid.x;",
          "shl.b32 <y:u32>, <y:u32>, 8;", "or.b32 <x:u32>, <x:u32>, <y:u32>;",
          "mov.u32 <y:u32>, %ctaid.x;", "shl.b32 <y:u32>, <y:u32>, 16;",
          "or.b32 <x:u32>, <x:u32>, <y:u32>;", "mov.u32 <y:u32>, %nctaid.x;",
          "shl.b32 <y:u32>, <y:u32>, 24;", "or.b32 <x:u32>, <x:u32>, <y:u32>;",
          "mov.u32 <y:u32>, %tid.y;", "mov.u32 <z:u32>, %ntid.y;",
          "mov.u32 <w:u32>, %ctaid.z;", "add.u32 <y:u32>, <y:u32>, <z:u32>;",
          "add.u32 <y:u32>, <y:u32>, <w:u32>;", "mov.b64 <d>, {<x:u32>, <y:u32>};"],
         "u64", "warp", **W)
    # shfl: (mode, b, c)
    shfls = [("up", "1", "0"), ("up", "5", "0"), ("up", "3", "0x1800"), ("up", "<c:u32>", "0"),
             ("down", "1", "0x1f"), ("down", "16", "0x1f"), ("down", "3", "0x181f"),
             ("down", "<c:u32>", "0x1f"), ("down", "2", "0x0f"),
             ("bfly", "1", "0x1f"), ("bfly", "16", "0x1f"), ("bfly", "5", "0x181f"),
             ("bfly", "<c:u32>", "0x1f"), ("bfly", "6", "0x0f"),
             ("idx", "0", "0x1f"), ("idx", "<c:u32>", "0x1f"), ("idx", "<c:u32>", "0x101f"),
             ("idx", "<c:u32>", "0x1c1f"), ("idx", "<c:u32>", "0x0f"), ("idx", "33", "0x1f")]
    for i, (m, b, cc) in enumerate(shfls):
        bs = "r" if b.startswith("<") else b
        case("shfl_%s_%d" % (m, i), "shfl.sync.%s.b32(b=%s,c=%s)" % (m, bs, cc),
             "shfl.sync.%s.b32 <d>, <a:b32>, %s, %s, %s;" % (m, b, cc, full), "b32", "warp",
             **W)
        case("shfl_%s_%d_dp" % (m, i), "shfl.sync.%s.b32(d|p,b=%s,c=%s)" % (m, bs, cc),
             ["shfl.sync.%s.b32 <x:b32>|<p:pred>, <a:b32>, %s, %s, %s;" % (m, b, cc, full),
              "selp.u32 <y:u32>, 1, 0, <p:pred>;", "mov.b64 <d>, {<x:b32>, <y:u32>};"],
             "u64", "warp", **W)
    # partial member masks inside divergent regions
    div_even = ["and.b32 <t:u32>, <lane>, 1;", "setp.ne.u32 <q:pred>, <t:u32>, 0;",
                "mov.b32 <d>, 0xdead0000;", "@<q:pred> bra $Lskip;"]
    div_low = ["setp.ge.u32 <q:pred>, <lane>, 16;", "mov.b32 <d>, 0xdead0000;",
               "@<q:pred> bra $Lskip;"]
    case("shfl_div_even_bfly", "shfl.sync.bfly.b32(mask=0x55555555,divergent)",
         div_even + ["shfl.sync.bfly.b32 <d>, <a:b32>, 2, 0x1f, 0x55555555;", "$Lskip:"],
         "b32", "warp", **W)
    case("shfl_div_even_idx", "shfl.sync.idx.b32(mask=0x55555555,divergent)",
         div_even + ["shl.b32 <s:u32>, <c:u32>, 1;",
                     "shfl.sync.idx.b32 <d>, <a:b32>, <s:u32>, 0x1f, 0x55555555;", "$Lskip:"],
         "b32", "warp", **W)
    case("shfl_div_low_idx", "shfl.sync.idx.b32(mask=0xffff,c=0x0f,divergent)",
         div_low + ["shfl.sync.idx.b32 <d>, <a:b32>, <c:u32>, 0x0f, 0x0000ffff;", "$Lskip:"],
         "b32", "warp", **W)
    case("shfl_div_low_down_dp", "shfl.sync.down.b32(d|p,mask=0xffff,c=0x0f,divergent)",
         div_low + ["shfl.sync.down.b32 <x:b32>|<p:pred>, <a:b32>, 3, 0x0f, 0x0000ffff;",
                    "selp.b32 <d>, <x:b32>, 0xffffffff, <p:pred>;", "$Lskip:"],
         "b32", "warp", **W)
    case("shfl_div_low_up", "shfl.sync.up.b32(mask=0xffff,divergent)",
         div_low + ["shfl.sync.up.b32 <d>, <a:b32>, 2, 0, 0x0000ffff;", "$Lskip:"],
         "b32", "warp", **W)
    # vote
    for m in ("all", "any", "uni"):
        for neg in ("", "!"):
            case("vote_%s%s" % (m, "_neg" if neg else ""), "vote.sync.%s.pred(%sp)" % (m, neg),
                 "vote.sync.%s.pred <d>, %s<b:pred>, %s;" % (m, neg, full), "pred", "warp", **W)
    for neg in ("", "!"):
        case("vote_ballot%s" % ("_neg" if neg else ""), "vote.sync.ballot.b32(%sp)" % neg,
             "vote.sync.ballot.b32 <d>, %s<b:pred>, %s;" % (neg, full), "b32", "warp", **W)
    case("vote_div_even_ballot", "vote.sync.ballot.b32(mask=0x55555555,divergent)",
         div_even + ["vote.sync.ballot.b32 <d>, <b:pred>, 0x55555555;", "$Lskip:"],
         "b32", "warp", **W)
    case("vote_div_low_all", "vote.sync.all.pred(mask=0xffff,divergent)",
         div_low + ["vote.sync.all.pred <p:pred>, <b:pred>, 0x0000ffff;",
                    "selp.u32 <d>, 1, 0, <p:pred>;", "$Lskip:"], "b32", "warp", **W)
    # match
    case("match_any_b32", "match.any.sync.b32", "match.any.sync.b32 <d>, <a:b32>, %s;" % full,
         "b32", "warp", **W)
    case("match_any_b64", "match.any.sync.b64", "match.any.sync.b64 <d>, <a:b64>, %s;" % full,
         "b32", "warp", **W)
    case("match_all_b32", "match.all.sync.b32", "match.all.sync.b32 <d>, <a:b32>, %s;" % full,
         "b32", "warp", **W)
    for t in ("b32", "b64"):
        case("match_all_%s_dp" % t, "match.all.sync.%s(d|p)" % t,
             ["match.all.sync.%s <x:b32>|<p:pred>, <a:%s>, %s;" % (t, t, full),
              "selp.u32 <y:u32>, 1, 0, <p:pred>;", "mov.b64 <d>, {<x:b32>, <y:u32>};"],
             "u64", "warp", **W)
    case("match_div_low_any", "match.any.sync.b32(mask=0xffff,divergent)",
         div_low + ["match.any.sync.b32 <d>, <a:b32>, 0x0000ffff;", "$Lskip:"],
         "b32", "warp", **W)
    # activemask
    case("activemask_full", "activemask.b32", "activemask.b32 <d>;", "b32", "warp", **W)
    case("activemask_div", "activemask.b32(divergent)",
         ["@<b:pred> bra $Ltaken;", "activemask.b32 <d>;", "bra $Ljoin;", "$Ltaken:",
          "activemask.b32 <d>;", "not.b32 <d>, <d>;", "$Ljoin:"], "b32", "warp", **W)
    case("activemask_nested", "activemask.b32(nested divergence)",
         ["mov.b32 <d>, 0;", "@!<b:pred> bra $Lout;", "and.b32 <t:u32>, <lane>, 2;",
          "setp.eq.u32 <q:pred>, <t:u32>, 0;", "@<q:pred> bra $Lout;", "activemask.b32 <d>;",
          "$Lout:"], "b32", "warp", **W)
    # barrier reductions
    case("bar_red_popc", "bar.red.popc.u32", "bar.red.popc.u32 <d>, 0, <b:pred>;", "u32",
         "barred", **W)
    case("bar_red_popc_neg", "bar.red.popc.u32(!p)", "bar.red.popc.u32 <d>, 0, !<b:pred>;",
         "u32", "barred", **W)
    case("bar_red_and", "bar.red.and.pred", "bar.red.and.pred <d>, 0, <b:pred>;", "pred",
         "barred", **W)
    case("bar_red_or", "bar.red.or.pred", "bar.red.or.pred <d>, 0, <b:pred>;", "pred",
         "barred", **W)
    case("bar_red_or_neg", "bar.red.or.pred(!p)", "bar.red.or.pred <d>, 0, !<b:pred>;", "pred",
         "barred", **W)


def g_atom():
    """Atomics designed so the results do not depend on the order threads run."""
    W = dict(guard=False)
    ops32 = [("add.u32", "u32", "atom32"), ("add.f32", "f32", "atomf32"),
             ("inc.u32", "u32", "atominc"), ("dec.u32", "u32", "atominc"),
             ("min.u32", "u32", "atom32"), ("min.s32", "s32", "atom32"),
             ("max.u32", "u32", "atom32"), ("max.s32", "s32", "atom32"),
             ("exch.b32", "b32", "atom32"), ("cas.b32", "b32", "atom32"),
             ("and.b32", "b32", "atom32"), ("or.b32", "b32", "atom32"),
             ("xor.b32", "b32", "atom32")]
    for op, t, s in ops32:
        # cas compares with c (equal to the initial value half of the time)
        # and stores b
        opnd = "<c:%s>, <b:%s>" % (t, t) if op.startswith("cas") else "<b:%s>" % t
        # global, own location: out[i]; result = {old, new}
        case("atom_global_" + op, "atom.global.%s(own addr)" % op,
             ["st.global.%s [<pout>], <a:%s>;" % (t, t),
              "atom.global.%s <o:%s>, [<pout>], %s;" % (op, t, opnd),
              "ld.global.%s <m:%s>, [<pout>];" % (t, t),
              "mov.b32 <x:b32>, <o:%s>;" % t, "mov.b32 <y:b32>, <m:%s>;" % t,
              "mov.b64 <d>, {<x:b32>, <y:b32>};"], "u64", s, **W)
        # shared, own slot
        case("atom_shared_" + op, "atom.shared.%s(own addr)" % op,
             ["mov.u32 <s:u32>, sarr;", "shl.b32 <t:u32>, <tid>, 3;",
              "add.u32 <s:u32>, <s:u32>, <t:u32>;",
              "st.shared.%s [<s:u32>], <a:%s>;" % (t, t),
              "atom.shared.%s <o:%s>, [<s:u32>], %s;" % (op, t, opnd),
              "ld.shared.%s <m:%s>, [<s:u32>];" % (t, t),
              "mov.b32 <x:b32>, <o:%s>;" % t, "mov.b32 <y:b32>, <m:%s>;" % t,
              "mov.b64 <d>, {<x:b32>, <y:b32>};"], "u64", s,
             shared=[".shared .align 8 .b64 sarr[%d];" % BLOCK], **W)
    ops64 = [("add.u64", "u64", "atom64"), ("add.f64", "f64", "atomf64"),
             ("min.u64", "u64", "atom64"), ("min.s64", "s64", "atom64"),
             ("max.u64", "u64", "atom64"), ("max.s64", "s64", "atom64"),
             ("exch.b64", "b64", "atom64"), ("cas.b64", "b64", "atom64"),
             ("and.b64", "b64", "atom64"), ("or.b64", "b64", "atom64"),
             ("xor.b64", "b64", "atom64")]
    for op, t, s in ops64:
        opnd = "<c:%s>, <b:%s>" % (t, t) if op.startswith("cas") else "<b:%s>" % t
        case("atom_global_" + op, "atom.global.%s(own addr,new value)" % op,
             ["st.global.%s [<pout>], <a:%s>;" % (t, t),
              "atom.global.%s <o:%s>, [<pout>], %s;" % (op, t, opnd),
              "ld.global.%s <d>, [<pout>];" % t], t, s, **W)
        case("atom_global_%s_ret" % op, "atom.global.%s(own addr,old value)" % op,
             ["st.global.%s [<pout>], <a:%s>;" % (t, t),
              "atom.global.%s <d>, [<pout>], %s;" % (op, opnd)], t, s, **W)
    for op, t, s in (("add.u64", "u64", "atom64"), ("cas.b64", "b64", "atom64"),
                     ("add.f64", "f64", "atomf64"), ("max.s64", "s64", "atom64")):
        opnd = "<c:%s>, <b:%s>" % (t, t) if op.startswith("cas") else "<b:%s>" % t
        case("atom_shared_" + op, "atom.shared.%s(own addr)" % op,
             ["mov.u32 <s:u32>, sarr;", "shl.b32 <t:u32>, <tid>, 3;",
              "add.u32 <s:u32>, <s:u32>, <t:u32>;",
              "st.shared.%s [<s:u32>], <a:%s>;" % (t, t),
              "atom.shared.%s <o:%s>, [<s:u32>], %s;" % (op, t, opnd),
              "ld.shared.%s <m:%s>, [<s:u32>];" % (t, t),
              "mov.b64 <x:b64>, <o:%s>;" % t, "mov.b64 <y:b64>, <m:%s>;" % t,
              "xor.b64 <d>, <x:b64>, <y:b64>;"], "u64", s,
             shared=[".shared .align 8 .b64 sarr[%d];" % BLOCK], **W)
    # with memory-order / scope qualifiers
    case("atom_relaxed_gpu_add", "atom.relaxed.gpu.global.add.u32",
         ["st.global.u32 [<pout>], <a:u32>;",
          "atom.relaxed.gpu.global.add.u32 <o:u32>, [<pout>], <b:u32>;",
          "ld.global.u32 <m:u32>, [<pout>];", "mov.b64 <d>, {<o:u32>, <m:u32>};"],
         "u64", "atom32", **W)
    case("atom_acq_rel_cta_or", "atom.acq_rel.cta.global.or.b32",
         ["st.global.u32 [<pout>], <a:u32>;",
          "atom.acq_rel.cta.global.or.b32 <o:u32>, [<pout>], <b:u32>;",
          "ld.global.u32 <m:u32>, [<pout>];", "mov.b64 <d>, {<o:u32>, <m:u32>};"],
         "u64", "atom32", **W)
    # contended: every thread of a CTA on one location; only the final value
    # (order-independent) is compared.  Shared: initialized by thread 0.
    sh = [".shared .align 8 .b64 sacc;"]
    cont = [("add.u32", "u32", "0", "<a:u32>"), ("add.f32", "f32", "0f00000000", "<v:f32>"),
            ("inc.u32", "u32", "0", "100"), ("dec.u32", "u32", "1000", "2000"),
            ("min.s32", "s32", "0x7fffffff", "<q:s32>"), ("max.u32", "u32", "0", "<b:u32>"),
            ("and.b32", "b32", "0xffffffff", "<r:b32>"), ("or.b32", "b32", "0", "<b:b32>"),
            ("xor.b32", "b32", "0", "<b:b32>"), ("add.u64", "u64", "0", "<b:u64>"),
            ("add.f64", "f64", "0d0000000000000000", "<w:f64>")]
    pre = {"<v:f32>": ["cvt.rn.f32.u32 <v:f32>, <a:u32>;"],
           "<w:f64>": ["cvt.rn.f64.u32 <w:f64>, <a:u32>;"],
           "<q:s32>": ["sub.s32 <q:s32>, <a:u32>, 128;"],
           "<r:b32>": ["and.b32 <k:b32>, <a:u32>, 31;", "mov.b32 <r:b32>, 1;",
                       "shl.b32 <r:b32>, <r:b32>, <k:b32>;", "not.b32 <r:b32>, <r:b32>;"]}
    for op, t, init, val in cont:
        wt = "u64" if t in ("u64", "f64") else "u32"
        body = pre.get(val, []) + [
            "setp.ne.u32 <z:pred>, <tid>, 0;", "@<z:pred> bra $Lw;",
            "st.shared.%s [sacc], %s;" % (t, init), "$Lw:", "bar.sync 0;",
            "atom.shared.%s <o:%s>, [sacc], %s;" % (op, t, val), "bar.sync 0;",
            "ld.shared.%s <m:%s>, [sacc];" % (t, t), "mov.b%s <d>, <m:%s>;" % (wt[1:], t)]
        case("atom_shared_contended_" + op, "atom.shared.%s(contended)" % op, body, wt,
             "contend", shared=sh, **W)
    for op, t, val in (("add.u32", "u32", "<a:u32>"), ("add.u64", "u64", "<b:u64>"),
                       ("max.s32", "s32", "<b:s32>"), ("or.b32", "b32", "<b:b32>"),
                       ("add.f32", "f32", "<v:f32>")):
        wt = "u64" if t == "u64" else "u32"
        # c[first thread of the CTA] is the accumulator: its initial value is
        # the input; no thread reads it before the barrier-ordered load
        body = pre.get(val, []) + [
            "atom.global.%s <o:%s>, [<cblk>], %s;" % (op, t, val), "bar.sync 0;",
            "ld.volatile.global.%s <m:%s>, [<cblk>];" % (t, t),
            "mov.b%s <d>, <m:%s>;" % (wt[1:], t)]
        case("atom_global_contended_" + op, "atom.global.%s(contended)" % op, body, wt,
             "contend", **W)
    case("red_global_add_u32", "red.global.add.u32(contended)",
         ["red.global.add.u32 [<cblk>], <a:u32>;", "bar.sync 0;",
          "ld.volatile.global.u32 <d>, [<cblk>];"], "u32", "contend", **W)
    case("red_shared_add_u32", "red.shared.add.u32(contended)",
         ["setp.ne.u32 <z:pred>, <tid>, 0;", "@<z:pred> bra $Lw;",
          "st.shared.u32 [sacc], 7;", "$Lw:", "bar.sync 0;",
          "red.shared.add.u32 [sacc], <a:u32>;", "bar.sync 0;", "ld.shared.u32 <d>, [sacc];"],
         "u32", "contend", shared=sh, **W)


def g_misc():
    """Memory spaces, calls, predicated execution, exit, fences, SIMD video."""
    case("mem_local", "st.local/ld.local",
         ["st.local.u64 [loc], <a:u64>;", "st.local.u32 [loc+8], <b:u32>;",
          "st.local.u16 [loc+2], <b:b16>;", "ld.local.u32 <x:u32>, [loc+4];",
          "ld.local.u32 <y:u32>, [loc];", "ld.local.s8 <z:u32>, [loc+9];",
          "add.u32 <y:u32>, <y:u32>, <z:u32>;", "mov.b64 <d>, {<y:u32>, <x:u32>};"],
         "u64", "i64p", shared=[".local .align 8 .b8 loc[16];"])
    case("mem_generic_shared", "cvta.shared+st/ld(generic)",
         ["mov.u64 <s:u64>, sbuf;", "cvta.shared.u64 <g:u64>, <s:u64>;",
          "cvt.u64.u32 <o:u64>, <tid>;", "shl.b64 <o:u64>, <o:u64>, 3;",
          "add.s64 <g:u64>, <g:u64>, <o:u64>;", "st.u64 [<g:u64>], <a:u64>;",
          "st.u16 [<g:u64>+2], <b:b16>;", "cvta.to.shared.u64 <s:u64>, <g:u64>;",
          "ld.shared.u64 <d>, [<s:u64>];"], "u64", "i64p",
         shared=[".shared .align 8 .b64 sbuf[%d];" % BLOCK])
    case("mem_generic_global", "ld(generic global)",
         ["cvta.global.u64 <g:u64>, <pa>;", "ld.u64 <x:u64>, [<g:u64>];",
          "ld.s16 <y:u64>, [<g:u64>+2];", "xor.b64 <d>, <x:u64>, <y:u64>;"], "u64", "i64u")
    case("mem_global_nc", "ld.global.nc.u64", "ld.global.nc.u64 <d>, [<pa>];", "u64", "i64u")
    case("mem_volatile", "st.volatile/ld.volatile.global",
         ["st.volatile.global.u32 [<pout>+4], <a:u32>;",
          "st.volatile.global.u32 [<pout>], <b:u32>;", "ld.volatile.global.u64 <d>, [<pout>];"],
         "u64", "i32p")
    case("mem_const", "ld.const(module .const array)",
         ["and.b32 <i:u32>, <a:u32>, 3;", "mul.wide.u32 <o:u64>, <i:u32>, 8;",
          "mov.u64 <p:u64>, mem_const_tab;", "add.s64 <p:u64>, <p:u64>, <o:u64>;",
          "ld.const.u64 <d>, [<p:u64>];"], "u64", "i32u",
         globals_=[".const .align 8 .b64 mem_const_tab[4] = {81985529216486895, "
                   "0xFEDCBA9876543210, 1, 18446744073709551615};"])
    case("mem_global_var", "ld.global(module .global array)",
         ["and.b32 <i:u32>, <a:u32>, 7;", "mov.u64 <p:u64>, mem_global_tab;",
          "cvt.u64.u32 <o:u64>, <i:u32>;", "add.s64 <p:u64>, <p:u64>, <o:u64>;",
          "ld.global.s8 <d>, [<p:u64>];"], "s32", "i32u",
         globals_=[".global .align 1 .b8 mem_global_tab[8] = {1, 255, 128, 127, 0, 2, 200, 9};"])
    case("call_func", "call.uni(.func, .param)",
         ["{", ".param .b64 param0;", ".param .b32 param1;", ".param .b64 retval0;",
          "st.param.b64 [param0], <a:u64>;", "st.param.b32 [param1], <b:u32>;",
          "call.uni (retval0), call_func_shlxor, (param0, param1);",
          "ld.param.b64 <d>, [retval0];", "}"], "u64", "i64p",
         globals_=[".func (.param .b64 r) call_func_shlxor(.param .b64 x, .param .b32 s)",
                   "{", "\t.reg .b64 %t<4>;", "\t.reg .b32 %u<2>;",
                   "\tld.param.b64 %t1, [x];", "\tld.param.b32 %u1, [s];",
                   "\tshl.b64 %t2, %t1, %u1;", "\txor.b64 %t3, %t2, %t1;",
                   "\tst.param.b64 [r], %t3;", "\tret;", "}"])
    case("pred_guard", "@p add / @!p sub",
         ["mov.b32 <d>, <a:u32>;", "@<c:pred> add.u32 <d>, <a:u32>, <b:u32>;",
          "@!<c:pred> sub.u32 <d>, <d>, 1;"], "u32", "i32p")
    case("pred_guard_setp", "@p setp",
         ["setp.ne.u32 <q:pred>, <a:u32>, 0;", "@<c:pred> setp.lt.u32 <q:pred>, <a:u32>, <b:u32>;",
          "selp.u32 <d>, 1, 0, <q:pred>;"], "u32", "i32p", width=1)
    case("exit_early", "exit",
         ["@!<c:pred> bra $Lstay;", "st.global.u64 [<pout>], <a:u64>;", "exit;", "$Lstay:",
          "mov.b64 <d>, <b:u64>;"], "u64", "i64p")
    case("fence_membar", "membar/fence/nanosleep",
         ["st.global.u64 [<pout>], <a:u64>;", "membar.gl;", "fence.sc.cta;", "membar.cta;",
          "fence.acq_rel.gpu;", "nanosleep.u32 0;", "ld.global.u64 <d>, [<pout>];"],
         "u64", "i64u")
    for f in ("vabsdiff4.u32.u32.u32.add", "vabsdiff4.s32.s32.s32.add",
              "vabsdiff4.u32.u32.u32.sat", "vabsdiff4.s32.s32.s32.sat"):
        case(f, f, "%s <d>, <a:b32>, <b:b32>, <c:b32>;" % f, "b32", "dp")


# --------------------------------------------------------------------------
# Output
# --------------------------------------------------------------------------

def set_bytes(name):
    a, b, c = SETS[name]
    n = len(a)
    return struct.pack("<%dQ" % (3 * n), *(a + b + c))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.dirname(os.path.abspath(__file__)))
    args = ap.parse_args()

    build_sets()
    groups = []
    for g in (g_int_arith, g_carry, g_float_arith, g_special_fn, g_bits, g_compare, g_cvt,
              g_mov, g_warp, g_atom, g_misc):
        before = len(CASES)
        g()
        groups.append("%s %d" % (g.__name__[2:], len(CASES) - before))
    for c in CASES:
        emit_kernel(c)

    used = []
    for c in CASES:
        if c.iset not in used:
            used.append(c.iset)
    setdata = {s: set_bytes(s) for s in used}

    ptx = ["// conf.ptx -- lockstep instruction conformance kernels.",
           "// GENERATED by tests/conformance/gen.py; do not edit.",
           "// Kernel (out, a, b, c, n): out[i] = raw bits of OP(a[i], b[i], c[i]).",
           PTX_HEADER]
    lines = ["# cases.txt -- GENERATED by tests/conformance/gen.py; do not edit.",
             "# name form inputs width tolerance set n block hash",
             "# width: natural result width in bytes (the kernel stores it zero-extended",
             "# to u64).  tolerance: exact, or a documented PTX ISA bound (README.md).",
             "# hash: 64-bit digest of the PTX header, kernel text, inputs and launch shape."]
    for c in CASES:
        ptx.append(c.text)
        n = len(SETS[c.iset][0])
        h = hashlib.blake2b(digest_size=8)
        h.update(PTX_HEADER.encode())
        h.update(c.text.encode())
        h.update(c.iset.encode() + b"\0")
        h.update(setdata[c.iset])
        h.update(struct.pack("<III", n, BLOCK, c.width))
        lines.append("%s %s %d %d %s %s %d %d %s" % (c.name, c.form, c.nin, c.width, c.tol,
                                                    c.iset, n, BLOCK, h.hexdigest()))

    out = args.out
    with open(os.path.join(out, "conf.ptx"), "w", newline="\n") as f:
        f.write("\n".join(ptx))
    with open(os.path.join(out, "cases.txt"), "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")
    with open(os.path.join(out, "inputs.bin"), "wb") as f:
        f.write(b"LSCINPT1" + struct.pack("<II", 1, len(used)))
        for s in used:
            n = len(SETS[s][0])
            f.write(s.encode().ljust(32, b"\0") + struct.pack("<II", n, 0))
            f.write(setdata[s])
    print("gen.py: %d cases (%s), %d input sets -> %s" % (len(CASES), ", ".join(groups),
                                                           len(used), out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
