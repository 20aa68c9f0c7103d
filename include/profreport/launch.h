/* launch.h - a `profreport record` run: start COMMAND under a collector
 * (torch.profiler through the shipped launcher for a Python command, the
 * CUPTI collector for any other), wait for it, then report on what it
 * captured (the command line is src/cli/cmd_record.c's). */
#ifndef PROFREPORT_LAUNCH_H
#define PROFREPORT_LAUNCH_H

#include "profreport/error.h"

/* Which collector captures the run. */
enum pr_collector {
    PR_COLLECTOR_AUTO = 0, /* torch for a Python interpreter, else cupti */
    PR_COLLECTOR_TORCH,    /* torch.profiler (torch_npu.profiler) through
                              data/profreport_torch.py; command[0] is the
                              Python interpreter */
    PR_COLLECTOR_CUPTI     /* the CUPTI collector injected into COMMAND */
};

/* One record run; pointers borrowed. */
struct pr_launch_job {
    const char *out_dir;           /* NULL: ./profreport-record-<time> */
    const char *json, *html, *pdf; /* reports; NULL: not asked */
    int quiet;
    char **command; /* NULL-terminated, command[0] set */
    enum pr_collector collector;
    /* torch.profiler only: "WAIT,WARMUP,ACTIVE" (NULL: the launcher's
     * default), and what not to record */
    const char *steps;
    int no_shapes, no_memory, no_stack;
};

/* Run it.  *code receives the exit status the process should end with
 * when it is not the error's: COMMAND's own (128 + N when signal N ended
 * it, 127 when it could not be started), or -1.  A command that cannot
 * start leaves no trace folder behind.  A run stopped by SIGINT or SIGTERM
 * keeps the traces already written and writes no report.  Errors: PR_E_IO
 * (folder, start, no launcher), PR_E_USAGE (a Python command that runs no
 * script), PR_E_FORMAT (nothing captured after COMMAND succeeded), and
 * those of the reports. */
PR_NODISCARD enum pr_status pr_launch_run(const struct pr_launch_job *job,
                                          int *code, struct pr_error *err);

#endif
