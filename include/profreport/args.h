/* args.h - command-line parsing into struct pr_options (getopt_long). */
#ifndef PROFREPORT_ARGS_H
#define PROFREPORT_ARGS_H

#include "profreport/error.h"
#include "profreport/pipeline.h"

/* Parse argv.  On success o->inputs is an owned array (free with
 * pr_args_free).  Usage errors are PR_E_USAGE with a message. */
PR_NODISCARD enum pr_status pr_args_parse(int argc, char **argv,
                                          struct pr_options *o,
                                          struct pr_error *err);
void pr_args_free(struct pr_options *o);

/* Usage text for --help. */
const char *pr_args_usage(void);

#endif
