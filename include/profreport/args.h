/* args.h - the options of the report and table commands into struct
 * pr_options (getopt_long), and the gate options that diff and trend
 * share (gate_args.c). */
#ifndef PROFREPORT_ARGS_H
#define PROFREPORT_ARGS_H

#include <getopt.h>
#include <stddef.h>

#include "profreport/cmd.h"
#include "profreport/diff.h"
#include "profreport/diff_rules.h"
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

/* The whole of the report and table commands (cmd.h's run): parse argv
 * for `cmd`, then hand --help/--version to main through ctl or run the
 * pipeline.  Returns the parse's or the pipeline's status. */
PR_NODISCARD enum pr_status pr_args_run(int argc, char **argv,
                                        enum pr_command cmd,
                                        struct pr_cmd_ctl *ctl,
                                        struct pr_error *err);

/* Append the borrowed string p to the owned array *v of *n entries (the
 * repeatable path options of every command).  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_args_push(const char ***v, size_t *n,
                                         const char *p, struct pr_error *err);

/* ---- diff and trend: the gates, the reports, quiet/help/version ---- */

/* --format FMT of diff and trend, what standard output gets when no
 * report file is asked for: *md = 0 for "text" (the terminal's tables),
 * 1 for "md" (Markdown).  Errors: PR_E_USAGE for any other word. */
PR_NODISCARD enum pr_status pr_args_stdout_format(const char *arg, int *md,
                                                  struct pr_error *err);

/* getopt values of the shared long options; a command numbers its own
 * from PR_GOPT_OWN. */
enum {
    PR_GOPT_FAIL_ON = 256,
    PR_GOPT_THRESHOLD,
    PR_GOPT_JSON,
    PR_GOPT_MARKDOWN,
    PR_GOPT_HTML,
    PR_GOPT_PDF,
    PR_GOPT_NO_DEFAULT_GATE,
    PR_GOPT_MAX_INPUT,
    PR_GOPT_OWN
};

/* The shared entries and the terminator: the end of a command's
 * struct option table. */
#define PR_GATE_LONG_OPTIONS                                                   \
    {"fail-on", required_argument, NULL, PR_GOPT_FAIL_ON},                     \
        {"threshold", required_argument, NULL, PR_GOPT_THRESHOLD},             \
        {"json", required_argument, NULL, PR_GOPT_JSON},                       \
        {"markdown", required_argument, NULL, PR_GOPT_MARKDOWN},               \
        {"html", required_argument, NULL, PR_GOPT_HTML},                       \
        {"pdf", required_argument, NULL, PR_GOPT_PDF},                         \
        {"no-default-gate", no_argument, NULL, PR_GOPT_NO_DEFAULT_GATE},       \
        {"max-input", required_argument, NULL, PR_GOPT_MAX_INPUT},             \
        {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},   \
        {"version", no_argument, NULL, 'V'},                                   \
    {                                                                          \
        NULL, 0, NULL, 0                                                       \
    }

/* What the shared options set: job as the run takes it (paths borrowed
 * from argv, rules from the owned list). */
struct pr_gate_args {
    struct pr_rule *rules; /* owned */
    size_t n_rules;
    struct pr_gate_job job;
    int help, version;
    int threshold_given; /* --threshold was on the command line */
};

/* A command's own option c (argument arg, NULL for none) into its ctx;
 * 1 (a non-option argument) arrives here too when the short options
 * start with '-'.  Returns PR_OK or a PR_E_USAGE error. */
typedef enum pr_status (*pr_gate_own_fn)(void *ctx, int c, const char *arg,
                                         struct pr_error *err);

/* The usage error for an unknown option `arg` of command `cmd` (NULL for
 * the report): "did you mean" the nearest of `opts` (getopt_long's table,
 * ending in a NULL name) when one is near. */
enum pr_status pr_args_unknown(const char *cmd, const char *arg,
                               const struct option *opts, struct pr_error *err);

/* Parse argv for command `cmd` ("diff", "trend": it names the messages)
 * with getopt_long(shortopts, longopts): the shared options into g, the
 * others through own(ctx, ...).  Arguments left over start at optind.
 * Free g with pr_gate_args_free(), also after an error.  Errors:
 * PR_E_USAGE, PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_gate_args_parse(int argc, char **argv, const char *cmd,
                   const char *shortopts, const struct option *longopts,
                   pr_gate_own_fn own, void *ctx, struct pr_gate_args *g,
                   struct pr_error *err);

void pr_gate_args_free(struct pr_gate_args *g);

/* 1 when -h or -V was given: ctl then asks main to print it, and the
 * command runs nothing. */
int pr_gate_args_done(const struct pr_gate_args *g, struct pr_cmd_ctl *ctl);

/* The rule grammar after a malformed --fail-on rule; NULL otherwise. */
const char *pr_gate_hint(const struct pr_error *err);

#endif
