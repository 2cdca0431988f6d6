/*
 * hostfp.h -- the host floating-point environment a launch runs in.
 *
 * The interpreter computes the common f32/f64 cases with the host's own
 * IEEE operations (fpmath.c does the rest in integers).  Those give
 * lockstep's bit-exact answers only in the IEEE default environment:
 * round to nearest even, subnormals neither flushed nor treated as zero.
 * A CUDA program runs lockstep inside its own process, and its host code
 * may have changed that environment (fesetround(), or -ffast-math, whose
 * start-up code sets the x86 FTZ and DAZ bits).  So a launch saves the
 * environment, sets the default, and restores the program's at the end.
 */
#ifndef LOCKSTEP_EXEC_HOSTFP_H
#define LOCKSTEP_EXEC_HOSTFP_H

typedef struct hostfp_env {
    int rounding;       /* fegetround() */
    unsigned control;   /* x86 MXCSR / AArch64 FPCR; 0 where unused */
} hostfp_env;

/* Save the calling thread's environment in *saved and set the default. */
void hostfp_enter(hostfp_env *saved);
/* Restore what hostfp_enter saved. */
void hostfp_leave(const hostfp_env *saved);

#endif
