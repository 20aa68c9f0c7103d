/* gate_args.c - the options `diff` and `trend` share: the --fail-on
 * gates and their threshold, the report paths, quiet/help/version, and
 * the getopt loop around a command's own options (args.h). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/args.h"
#include "profreport/parse.h"

/* A shared option into g; PR_E_USAGE for a bad value, and *own = 1 when
 * c is not a shared option. */
static enum pr_status
shared_option(struct pr_gate_args *g, int c, const char *arg, int *own,
              struct pr_error *err)
{
    const char **path[] = {&g->job.json, &g->job.markdown, &g->job.html,
                           &g->job.pdf};

    switch (c) {
    case PR_GOPT_FAIL_ON:
        return pr_rule_list_add(&g->rules, &g->n_rules, arg, err);
    case PR_GOPT_THRESHOLD:
        if (!pr_parse_pct(arg, 0, 1e6, &g->job.opts.threshold_pct))
            return pr_error_set(err, PR_E_USAGE,
                                "--threshold: expected a percentage from "
                                "%g to %g (5 or 5%%), got \"%s\"",
                                0.0, 1e6, arg);
        g->threshold_given = 1;
        return PR_OK;
    case PR_GOPT_NO_DEFAULT_GATE:
        g->job.opts.no_default_gate = 1;
        return PR_OK;
    case PR_GOPT_MAX_INPUT:
        if (!pr_parse_bytes(arg, 1, UINT64_MAX, &g->job.max_input))
            return pr_error_set(err, PR_E_USAGE,
                                "--max-input: expected a whole number of "
                                "bytes >= 1, optionally with a unit (K, M, "
                                "G or KiB, MiB, GiB; KB, MB, GB), got '%s'",
                                arg);
        return PR_OK;
    case PR_GOPT_JSON:
    case PR_GOPT_MARKDOWN:
    case PR_GOPT_HTML:
    case PR_GOPT_PDF:
        *path[c - PR_GOPT_JSON] = arg;
        return PR_OK;
    case 'q':
        g->job.quiet = 1;
        return PR_OK;
    case 'h':
        g->help = 1;
        return PR_OK;
    case 'V':
        g->version = 1;
        return PR_OK;
    }
    *own = 1;
    return PR_OK;
}

/* Gate options that contradict each other: --threshold is the default
 * gate's limit, so it means nothing without that gate, and without the
 * default gate and without rules nothing would be gated (issue #32). */
static enum pr_status
check_gates(const struct pr_gate_args *g, const char *cmd, struct pr_error *err)
{
    if (g->help || g->version || !g->job.opts.no_default_gate)
        return PR_OK;
    if (g->threshold_given)
        return pr_error_set(err, PR_E_USAGE,
                            "%s: --threshold sets the default step gate's "
                            "limit, which --no-default-gate turns off (use "
                            "--fail-on 'step.mean>+N%%')",
                            cmd);
    if (g->n_rules == 0)
        return pr_error_set(err, PR_E_USAGE,
                            "%s: --no-default-gate leaves no gate: give "
                            "--fail-on RULE",
                            cmd);
    return PR_OK;
}

enum pr_status
pr_gate_args_parse(int argc, char **argv, const char *cmd,
                   const char *shortopts, const struct option *longopts,
                   pr_gate_own_fn own, void *ctx, struct pr_gate_args *g,
                   struct pr_error *err)
{
    enum pr_status st = PR_OK;
    int c, not_shared;

    memset(g, 0, sizeof(*g));
    pr_diff_opts_init(&g->job.opts);
    optind = 0; /* glibc: full re-initialisation, so tests may call twice */
    opterr = 0; /* we word the message ourselves */
    while (st == PR_OK &&
           (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
        if (c == '?')
            return pr_args_unknown(cmd, argv[optind - 1], longopts, err);
        if (c == ':')
            return pr_error_set(err, PR_E_USAGE,
                                "%s: option '%s' needs a value", cmd,
                                argv[optind - 1]);
        not_shared = 0;
        st = shared_option(g, c, optarg, &not_shared, err);
        if (st == PR_OK && not_shared)
            st = own(ctx, c, optarg, err);
    }
    g->job.rules = g->rules;
    g->job.n_rules = g->n_rules;
    if (st == PR_OK)
        st = check_gates(g, cmd, err);
    return st;
}

void
pr_gate_args_free(struct pr_gate_args *g)
{
    pr_rule_list_free(g->rules, g->n_rules);
    g->rules = NULL;
    g->n_rules = 0;
}

int
pr_gate_args_done(const struct pr_gate_args *g, struct pr_cmd_ctl *ctl)
{
    if (!g->help && !g->version)
        return 0;
    ctl->want_help = g->help;
    ctl->want_version = g->version;
    return 1;
}

const char *
pr_gate_hint(const struct pr_error *err)
{
    return strstr(err->msg, "bad rule") != NULL ? PR_RULE_GRAMMAR : NULL;
}

enum pr_status
pr_args_stdout_format(const char *arg, int *md, struct pr_error *err)
{
    if (strcmp(arg, "text") != 0 && strcmp(arg, "md") != 0)
        return pr_error_set(err, PR_E_USAGE,
                            "--format: expected text or md, got \"%s\"", arg);
    *md = strcmp(arg, "md") == 0;
    return PR_OK;
}
