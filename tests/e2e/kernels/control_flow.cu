// control_flow.cu -- end-to-end kernels for SIMT control flow (driver: test_control_flow.c).
//
// control_flow: per thread, on data chosen so that lanes of one warp disagree:
//   - a divergent if/else nested two deep (lane parity, then data bits);
//   - an early return taken by some threads (they leave the rest of their
//     outputs untouched, which the driver checks against a sentinel);
//   - nested for loops whose trip counts come from the data, with continue in
//     the inner loop and break in both loops;
//   - a switch on v % 9 with shared cases, a fall-through and a default;
//   - a while loop whose trip count differs per lane (Collatz step count);
//   - a for loop whose trip count depends on the lane, with a divergent body
//     and a data-dependent break;
//   - short-circuit && / || guarding neighbour loads;
//   - a do/while bit search.
// grid2d: a 2-D grid over a w x h image with a bounds check on both axes,
// a block-uniform branch (blockIdx parity) and a per-column loop.
#include "common.cuh"

#define CF_OUTS 8

extern "C" __global__ void control_flow(const int *in, int *out, int n)
{
    unsigned i = e2e_gtid();
    if (i >= (unsigned)n)
        return;
    int v = in[i];
    int *o = out + (size_t)i * CF_OUTS;
    unsigned lane = e2e_tid_in_block() & 31;

    int r0;
    if (lane & 1) {
        if (v & 4)
            r0 = v * 3;
        else
            r0 = v - 100;
    } else {
        r0 = (v & 8) ? (v ^ 0x55) : -v;
        if (v & 16)
            r0 += (int)lane;
    }
    o[0] = r0;

    if (v % 11 == 0) {
        o[1] = -1;
        return;
    }

    int acc = 0;
    int outer = (v & 7) + 1, inner = (v >> 3) & 7;
    for (int a = 0; a < outer; a++) {
        if (a == 5 && (v & 64))
            break;
        for (int b = 0; b <= inner + a; b++) {
            if ((a + b) % 3 == 0)
                continue;
            acc += a * 10 + b;
            if (acc > 300)
                break;
        }
        acc ^= a;
    }
    o[1] = acc;

    int s;
    switch ((unsigned)v % 9u) {
    case 0:
        s = 11;
        break;
    case 1:
        s = v + 1;
        break;
    case 2:
    case 3:
        s = v * 2;
        break;
    case 4:
        s = -v;
        // fall through
    case 5:
        s = (v & 0xff) + 5;
        break;
    case 7:
        s = v >> 2;
        break;
    default:
        s = 1000 + (int)((unsigned)v % 9u);
        break;
    }
    o[2] = s;

    unsigned c = ((unsigned)v & 1023u) + 1u;
    int steps = 0;
    while (c != 1u) {
        c = (c & 1u) ? 3u * c + 1u : c >> 1;
        steps++;
    }
    o[3] = steps;

    int t = 0;
    for (int k = 0; k < (int)(lane % 7u) + (v & 3); k++) {
        if (k & 1)
            t += k;
        else
            t -= v & 0xff;
        if (t < -300)
            break;
    }
    o[4] = t;

    o[5] = (i + 1 < (unsigned)n && in[i + 1] > v) ? 1 : ((i > 0 && in[i - 1] < v) ? 2 : 3);

    unsigned bits = (unsigned)v;
    int pos = 0;
    do {
        if ((bits & 3u) == 3u)
            break;
        bits >>= 1;
        pos++;
    } while (bits != 0u);
    o[6] = pos;

    int w = 0;
    if (lane < 8)
        w = 1;
    else if (lane < 16)
        w = 2;
    else if (lane < 24 && (v & 1))
        w = 3;
    else
        w = 4;
    o[7] = w * 1000 + (int)lane;
}

extern "C" __global__ void grid2d(int *out, int w, int h)
{
    unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= (unsigned)w || y >= (unsigned)h)
        return;
    int val;
    if ((blockIdx.x + blockIdx.y) & 1) {
        val = (int)(x * 100u + y);
    } else {
        val = 0;
        for (unsigned k = 0; k <= x % 5u; k++)
            val += (int)(y + k);
        val = -val;
    }
    out[y * (unsigned)w + x] = val;
}
