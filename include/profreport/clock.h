/* clock.h - the one reading of "now" for reports: SOURCE_DATE_EPOCH when it
 * holds a valid Unix time (reproducible builds), else the wall clock.
 * Header-only like checked.h and parse.h, so core stays libc-only. */
#ifndef PROFREPORT_CLOCK_H
#define PROFREPORT_CLOCK_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "profreport/parse.h"

static inline int64_t
pr_clock_generation_time(void)
{
    const char *s = getenv("SOURCE_DATE_EPOCH");
    int64_t v;

    if (s != NULL && pr_parse_int64(s, 0, INT64_MAX, &v))
        return v;
    return (int64_t)time(NULL);
}

#endif
