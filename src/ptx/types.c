/*
 * types.c -- the tables behind types.h.
 */
#include "ptx/types.h"

#include <string.h>

const char *const ptx_type_names[PT_COUNT] = {
#define X(e, n, b, c) n,
    PTX_TYPES(X)
#undef X
};

const uint8_t ptx_type_bytes[PT_COUNT] = {
#define X(e, n, b, c) b,
    PTX_TYPES(X)
#undef X
};

const uint8_t ptx_type_classes[PT_COUNT] = {
#define X(e, n, b, c) c,
    PTX_TYPES(X)
#undef X
};

const char *const ptx_space_names[SP_COUNT] = {
#define X(e, n) n,
    PTX_SPACES(X)
#undef X
};

ptx_type ptx_type_from_name(const char *s)
{
    for (int t = PT_PRED; t < PT_COUNT; t++)
        if (strcmp(ptx_type_names[t], s) == 0)
            return (ptx_type)t;
    return PT_NONE;
}
