/*
 * status.h -- the names ("LOCKSTEP_ERROR_TRAP") and messages ("trap") of
 * lockstep_status codes, for every layer (the public functions
 * lockstep_status_name/_string return these).
 */
#ifndef LOCKSTEP_UTIL_STATUS_H
#define LOCKSTEP_UTIL_STATUS_H

#include "lockstep.h"

const char *status_name(lockstep_status s);
const char *status_text(lockstep_status s);

#endif
