/*
 * hostfp.c -- save, set and restore the host floating-point environment
 * around a launch (see hostfp.h).
 */
#include "exec/hostfp.h"

#include <fenv.h>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define MXCSR_DAZ 0x0040u /* denormals are zero (inputs) */
#define MXCSR_FTZ 0x8000u /* flush to zero (results) */
#define MXCSR_RC 0x6000u  /* rounding control */
#endif

void hostfp_enter(hostfp_env *saved)
{
    saved->rounding = fegetround();
    saved->control = 0;
    if (saved->rounding != FE_TONEAREST)
        fesetround(FE_TONEAREST);
#if defined(__x86_64__) || defined(__i386__)
    saved->control = _mm_getcsr();
    if (saved->control & (MXCSR_DAZ | MXCSR_FTZ | MXCSR_RC))
        _mm_setcsr(saved->control & ~(MXCSR_DAZ | MXCSR_FTZ | MXCSR_RC));
#elif defined(__aarch64__)
    {
        unsigned long fpcr;
        __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
        saved->control = (unsigned)fpcr;
        /* clear RMode (23:22), FZ (24), FZ16 (19), and FEAT_AFP's AH (1) and FIZ (0) */
        unsigned long want = fpcr & ~((3ul << 22) | (1ul << 24) | (1ul << 19) | 3ul);
        if (want != fpcr)
            __asm__ volatile("msr fpcr, %0" : : "r"(want));
    }
#endif
}

void hostfp_leave(const hostfp_env *saved)
{
#if defined(__x86_64__) || defined(__i386__)
    if (_mm_getcsr() != saved->control)
        _mm_setcsr(saved->control);
#elif defined(__aarch64__)
    {
        unsigned long fpcr, want = saved->control;
        __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr));
        if (fpcr != want)
            __asm__ volatile("msr fpcr, %0" : : "r"(want));
    }
#endif
    if (fegetround() != saved->rounding)
        fesetround(saved->rounding);
}
