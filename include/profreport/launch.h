/* launch.h - a `profreport record` run: start COMMAND under the CUPTI
 * collector, wait for it, then report on what it captured (the command
 * line is src/cli/cmd_record.c's). */
#ifndef PROFREPORT_LAUNCH_H
#define PROFREPORT_LAUNCH_H

#include "profreport/error.h"

/* One record run; pointers borrowed. */
struct pr_launch_job {
    const char *out_dir;           /* NULL: ./profreport-record-<time> */
    const char *json, *html, *pdf; /* reports; NULL: not asked */
    int quiet;
    char **command; /* NULL-terminated, command[0] set */
};

/* Run it.  *code receives the exit status the process should end with
 * when it is not the error's: COMMAND's own (128 + N when signal N ended
 * it, 127 when it could not be started), or -1.  A command that cannot
 * start leaves no trace folder behind.  Errors: PR_E_IO (folder, start),
 * PR_E_FORMAT (nothing captured after COMMAND succeeded), and those of the
 * reports. */
PR_NODISCARD enum pr_status pr_launch_run(const struct pr_launch_job *job,
                                          int *code, struct pr_error *err);

#endif
