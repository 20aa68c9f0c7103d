/* args.h - the options of the report and table commands into struct
 * pr_options (getopt_long). */
#ifndef PROFREPORT_ARGS_H
#define PROFREPORT_ARGS_H

#include "profreport/error.h"
#include "profreport/pipeline.h"

/* Parse argv (argv[0] is the program or the command's name) for command
 * `cmd`.  On success o->inputs is an owned array (free with pr_args_free,
 * also after an error).  Usage errors are PR_E_USAGE with a message. */
PR_NODISCARD enum pr_status pr_args_parse(int argc, char **argv,
                                          enum pr_command cmd,
                                          struct pr_options *o,
                                          struct pr_error *err);
void pr_args_free(struct pr_options *o);

/* Append the borrowed string p to the owned array *v of *n entries (the
 * repeatable path options of every command).  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_args_push(const char ***v, size_t *n,
                                         const char *p, struct pr_error *err);

#endif
