// struct_params.cu -- end-to-end kernels for kernel parameters
// (driver: test_struct_params.c).
//
// struct_param: a struct with int, float, double, char, short, unsigned long
//   long, an int array and a char array member passed by value; nvcc declares
//   it as one ".param .align 8 .b8 struct_param_param_0[K]" with K equal to
//   the host sizeof, and reads members with ld.param at byte offsets.
//   Each thread derives outputs from every member.
// mixed_scalars: ten scalar parameters of every size (char, short, int, long
//   long, float, double, unsigned char, pointer, ...) so the parameter buffer
//   needs padding between them; the driver launches it both through
//   lockstep_launch_args and through a hand-packed buffer laid out from
//   lockstep_kernel_get_info.
// struct_array: reads an array of the same struct from global memory (the
//   host layout and the device layout must agree).
#include "common.cuh"

struct Params {
    int i;
    float f;
    double d;
    char c;
    short s;
    int arr[5];
    unsigned long long u;
    char tag[3];
};

#define SP_OUTS 8

extern "C" __global__ void struct_param(Params p, int *out, double *dout, int n)
{
    unsigned g = e2e_gtid();
    if (g >= (unsigned)n)
        return;
    int *o = out + (size_t)g * SP_OUTS;
    o[0] = p.i + (int)g;
    o[1] = (int)(p.f * 4.0f) * (int)g;
    o[2] = p.c * 3 + p.s;
    o[3] = p.arr[g % 5u] - (int)g;
    o[4] = (int)(p.u >> (g % 64u));
    o[5] = (int)(p.u % 1000u) + p.tag[g % 3u];
    o[6] = (int)sizeof(Params);
    o[7] = p.arr[0] + p.arr[1] + p.arr[2] + p.arr[3] + p.arr[4];
    dout[g] = __dadd_rn(p.d, (double)g);
}

extern "C" __global__ void mixed_scalars(char c, short s, int i, long long ll, float f,
                                         double d, unsigned char uc, int *out,
                                         unsigned short us, double d2)
{
    if (threadIdx.x != 0 || blockIdx.x != 0)
        return;
    out[0] = c;
    out[1] = s;
    out[2] = i;
    out[3] = (int)ll;
    out[4] = (int)(ll >> 32);
    out[5] = __float_as_int(f);
    out[6] = __double2loint(d);
    out[7] = __double2hiint(d);
    out[8] = uc;
    out[9] = us;
    out[10] = __double2loint(d2);
    out[11] = __double2hiint(d2);
}

extern "C" __global__ void struct_array(const Params *ps, int *out, int n)
{
    unsigned g = e2e_gtid();
    if (g >= (unsigned)n)
        return;
    const Params *p = &ps[g];
    out[g] = p->i + (int)p->f + (int)p->d + p->c + p->s + p->arr[4] + (int)p->u + p->tag[2];
}
