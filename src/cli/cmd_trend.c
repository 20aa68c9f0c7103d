/* cmd_trend.c - `profreport trend`: its options and usage; the run itself
 * is pr_trend_run (src/diff/trend.c). */
#include "config.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/args.h"
#include "profreport/cmd.h"
#include "profreport/parse.h"
#include "profreport/sget.h"
#include "profreport/sink.h"
#include "profreport/trend.h"

static const char usage[] =
    "Usage: profreport trend --input S1 S2 ... [options]\n"
    "Nightly summaries (or traces) as a trend; each night is compared with\n"
    "the previous one, and from the third night on with the first night of\n"
    "the window too (a rise spread over nights, or hidden by a missing\n"
    "night, still crosses), by the diff gates.  Nights are ordered by\n"
    "their recorded time (the runs' span stamp) when every input has one,\n"
    "else in the order given.  A night that cannot be read is reported and\n"
    "left out; two readable nights are needed.\n"
    "\n"
    "  -i, --input PATH...   the nights (repeatable; bare paths count too)\n"
    "      --keep-order      use the order given\n"
    "      --fail-on RULE    gate between nights (repeatable), beside the\n"
    "                        default gate step.mean>+T%\n"
    "      --threshold PCT   T of the default gate (default 5)\n"
    "      --no-default-gate only the --fail-on rules\n"
    "      --max-input SIZE  refuse inputs larger than this, saved\n"
    "                        summaries too (default: half the memory)\n"
    "      --strict          a --fail-on rule that matches no figure of any\n"
    "                        night is a usage error (default: skipped)\n"
    "      --fail            exit 3 when the LAST night crossed a limit, 4\n"
    "                        when none of its gates compared anything\n"
    "      --html FILE       line charts, crossed nights marked\n"
    "      --pdf FILE        the same charts and table as a PDF\n"
    "      --json FILE       the series and the crossings\n"
    "      --junit FILE      JUnit XML, one test per gate of the last night\n"
    "      --markdown FILE   a table of nights (Markdown)\n"
    "      --format FMT      standard output, when no report file is asked\n"
    "                        for: text (the terminal's tables, as `table`\n"
    "                        prints them; the default) or md (Markdown)\n"
    "  -q, --quiet           no progress on stderr\n"
    "  -h, --help            this text\n"
    "  -V, --version         print the version\n"
    "\n"
    "The verdict is the last night's: REGRESSION when one of its gates\n"
    "crossed, INCONCLUSIVE when none compared anything, else no regression.\n"
    "Exit status: 0 ok, 1 usage or malformed rule (or, with --strict, a\n"
    "rule that matches nothing), 2 bad input (fewer than two readable\n"
    "nights), and with --fail 3 when the last night crossed a limit, 4 when\n"
    "it was inconclusive.\n";

enum { OPT_KEEP = PR_GOPT_OWN, OPT_FAIL, OPT_JUNIT, OPT_STRICT, OPT_FORMAT };

static const struct option long_opts[] = {
    {"input", required_argument, NULL, 'i'},
    {"keep-order", no_argument, NULL, OPT_KEEP},
    {"fail", no_argument, NULL, OPT_FAIL},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"format", required_argument, NULL, OPT_FORMAT},
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
    case OPT_JUNIT:
        a->job.junit = arg;
        return PR_OK;
    case OPT_STRICT:
        a->g.job.opts.strict = 1;
        return PR_OK;
    case OPT_FORMAT:
        return pr_args_stdout_format(arg, &a->job.stdout_md, err);
    }
    return pr_error_set(err, PR_E_USAGE, "trend: unknown option");
}

static enum pr_status
outputs_distinct(const struct trend_args *a, struct pr_error *err)
{
    const struct pr_gate_job *g = &a->g.job;
    const char *paths[] = {g->json, g->markdown, a->job.junit, g->html, g->pdf};
    const char *names[] = {"--json", "--markdown", "--junit", "--html",
                           "--pdf"};

    return pr_outputs_check(paths, names, 5, a->inputs, a->n_inputs, err);
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
    const char *verdict = NULL;
    enum pr_status st = parse_args(argc, argv, &a, err);

    if (st == PR_OK && !pr_gate_args_done(&a.g, ctl))
        st = pr_trend_run(&a.job, &verdict, err);
    if (st == PR_OK && a.fail && pr_sget_is(verdict, "fail"))
        st = pr_error_set(err, PR_E_REGRESSION,
                          "trend: the last night crossed a limit");
    else if (st == PR_OK && a.fail && pr_sget_is(verdict, "inconclusive"))
        st = pr_error_set(err, PR_E_INCONCLUSIVE,
                          "trend: inconclusive: no gate of the last night "
                          "compared anything");
    args_free(&a);
    return st;
}

const struct pr_cmd pr_cmd_trend = {
    "trend",      "chart nightly summaries and mark the nights that regressed",
    usage,        run,
    pr_gate_hint, NULL};
