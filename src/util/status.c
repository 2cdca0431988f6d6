/*
 * status.c -- the names and messages of lockstep_status codes.  Shared by
 * every layer: the executor words its fault messages with them and the
 * API (src/core) returns them from lockstep_status_name/_string.
 */
#include "util/status.h"

static const char *const status_names[LOCKSTEP_STATUS_COUNT] = {
    "LOCKSTEP_SUCCESS", "LOCKSTEP_ERROR_INVALID_VALUE", "LOCKSTEP_ERROR_OUT_OF_MEMORY",
    "LOCKSTEP_ERROR_IO", "LOCKSTEP_ERROR_INVALID_PTX", "LOCKSTEP_ERROR_UNSUPPORTED_PTX",
    "LOCKSTEP_ERROR_NOT_FOUND", "LOCKSTEP_ERROR_INVALID_CONFIG", "LOCKSTEP_ERROR_INVALID_LAUNCH",
    "LOCKSTEP_ERROR_LAUNCH_OUT_OF_RESOURCES", "LOCKSTEP_ERROR_ILLEGAL_ADDRESS",
    "LOCKSTEP_ERROR_MISALIGNED_ADDRESS", "LOCKSTEP_ERROR_BARRIER_DEADLOCK",
    "LOCKSTEP_ERROR_INSN_LIMIT", "LOCKSTEP_ERROR_STACK_OVERFLOW", "LOCKSTEP_ERROR_TRAP",
    "LOCKSTEP_ERROR_ASSERT", "LOCKSTEP_ERROR_ILLEGAL_INSTRUCTION", "LOCKSTEP_ERROR_LAUNCH_TIMEOUT",
    "LOCKSTEP_ERROR_INTERRUPTED", "LOCKSTEP_ERROR_REDUNDANCY",
};

static const char *const status_strings[LOCKSTEP_STATUS_COUNT] = {
    "no error", "invalid argument", "out of memory", "I/O error", "invalid PTX",
    "unsupported PTX", "not found", "invalid configuration", "invalid launch configuration",
    "too many resources requested for launch", "illegal memory address", "misaligned address",
    "barrier deadlock", "instruction limit exceeded", "stack overflow", "trap",
    "device-side assertion failed", "illegal instruction", "launch timed out",
    "launch interrupted", "uncorrectable error detected by redundant execution",
};

const char *status_name(lockstep_status s)
{
    return (unsigned)s < LOCKSTEP_STATUS_COUNT ? status_names[s] : "LOCKSTEP_ERROR_UNKNOWN";
}

const char *status_text(lockstep_status s)
{
    return (unsigned)s < LOCKSTEP_STATUS_COUNT ? status_strings[s] : "unknown error";
}
