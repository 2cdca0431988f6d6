/*
 * vec.c -- growth for the VEC() arrays of common.h: capacity doubles, and
 * a failed allocation leaves the array as it was.
 */
#include "util/common.h"

int vec_grow_(void **v, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t c = *cap ? *cap : 8;
    while (c < need) {
        if (c > SIZE_MAX / 2 / elem)
            return -1;
        c *= 2;
    }
    void *nv = realloc(*v, c * elem);
    if (!nv)
        return -1;
    *v = nv;
    *cap = c;
    return 0;
}
