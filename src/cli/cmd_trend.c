/* cmd_trend.c - `profreport trend`: its options and usage; the run itself
 * is pr_trend_run (src/diff/trend.c). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/args.h"
#include "profreport/cmd.h"
#include "profreport/parse.h"
#include "profreport/sink.h"
#include "profreport/trend.h"

static const char usage[] =
    "Usage: profreport trend --input S1 S2 ... [options]\n"
    "Nightly summaries (or traces) as a trend; each night is compared with\n"
    "the previous one by the diff gates.  Nights are ordered by their\n"
    "recorded time (the runs' span stamp) when every input has one, else\n"
    "in the order given.\n"
    "\n"
    "  -i, --input PATH...   the nights (repeatable; bare paths count too)\n"
    "      --keep-order      use the order given\n"
    "      --fail-on RULE    gate between consecutive nights (repeatable);\n"
    "                        default: step.mean>+T%\n"
    "      --threshold PCT   T of the default gate (default 5)\n"
    "      --fail            exit 3 when the LAST night crossed a limit\n"
    "      --html FILE       line charts, crossed nights marked\n"
    "      --pdf FILE        the same charts and table as a PDF\n"
    "      --json FILE       the series and the crossings\n"
    "      --markdown FILE   a table of nights (stdout when no report is\n"
    "                        asked for)\n"
    "  -q, --quiet           no progress on stderr\n"
    "  -h, --help            this text\n"
    "  -V, --version         print the version\n"
    "\n"
    "Exit status: 0 ok, 1 usage or malformed rule, 2 bad input, 3 with\n"
    "--fail when the last night crossed a limit.\n";

enum { OPT_KEEP = PR_GOPT_OWN, OPT_FAIL };

static const struct option long_opts[] = {
    {"input", required_argument, NULL, 'i'},
    {"keep-order", no_argument, NULL, OPT_KEEP},
    {"fail", no_argument, NULL, OPT_FAIL},
    PR_GATE_LONG_OPTIONS};

struct trend_args {
    const char **inputs; /* owned array of borrowed argv strings */
    size_t n_inputs;
    int fail;
    struct pr_gate_args g;
    struct pr_trend_job job; /* what they describe, once parsed */
};

static void
args_free(struct trend_args *a)
{
    pr_gate_args_free(&a->g);
    free(a->inputs);
}

/* The options only trend has (pr_gate_own_fn); '-' in front of the short
 * options makes bare paths arrive in order as option 1, so that
 * "--input s1.json s2.json" works as users write it. */
static enum pr_status
one_option(void *ctx, int c, const char *arg, struct pr_error *err)
{
    struct trend_args *a = ctx;

    switch (c) {
    case 1:
    case 'i':
        return pr_args_push(&a->inputs, &a->n_inputs, arg, err);
    case OPT_KEEP:
        a->job.keep_order = 1;
        return PR_OK;
    case OPT_FAIL:
        a->fail = 1;
        return PR_OK;
    }
    return pr_error_set(err, PR_E_USAGE, "trend: unknown option");
}

static enum pr_status
outputs_distinct(const struct trend_args *a, struct pr_error *err)
{
    const struct pr_gate_job *g = &a->g.job;
    const char *paths[] = {g->json, g->markdown, g->html, g->pdf};
    const char *names[] = {"--json", "--markdown", "--html", "--pdf"};

    return pr_outputs_distinct(paths, names, 4, err);
}

static enum pr_status
parse_args(int argc, char **argv, struct trend_args *a, struct pr_error *err)
{
    enum pr_status st;

    memset(a, 0, sizeof(*a));
    st = pr_gate_args_parse(argc, argv, "trend", "-i:qhV", long_opts,
                            one_option, a, &a->g, err);
    if (st != PR_OK || a->g.help || a->g.version)
        return st;
    if (a->n_inputs < 2)
        return pr_error_set(err, PR_E_USAGE,
                            "trend: needs at least two "
                            "--input summaries");
    a->job.inputs = a->inputs;
    a->job.n_inputs = a->n_inputs;
    a->job.gate = a->g.job;
    return outputs_distinct(a, err);
}

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    struct trend_args a;
    int crossed = 0;
    enum pr_status st = parse_args(argc, argv, &a, err);

    if (st == PR_OK && !pr_gate_args_done(&a.g, ctl))
        st = pr_trend_run(&a.job, &crossed, err);
    if (st == PR_OK && a.fail && crossed)
        st = pr_error_set(err, PR_E_REGRESSION,
                          "trend: the last night crossed a limit");
    args_free(&a);
    return st;
}

const struct pr_cmd pr_cmd_trend = {
    "trend", "chart nightly summaries and mark the nights that regressed",
    usage, run, pr_gate_hint};
