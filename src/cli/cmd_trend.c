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

enum {
    OPT_KEEP = 256,
    OPT_FAIL_ON,
    OPT_THRESHOLD,
    OPT_FAIL,
    OPT_HTML,
    OPT_JSON,
    OPT_MD,
    OPT_PDF
};

static const struct option long_opts[] = {
    {"input", required_argument, NULL, 'i'},
    {"keep-order", no_argument, NULL, OPT_KEEP},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"fail", no_argument, NULL, OPT_FAIL},
    {"html", required_argument, NULL, OPT_HTML},
    {"pdf", required_argument, NULL, OPT_PDF},
    {"json", required_argument, NULL, OPT_JSON},
    {"markdown", required_argument, NULL, OPT_MD},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

struct trend_args {
    const char **inputs; /* owned array of borrowed argv strings */
    size_t n_inputs;
    struct pr_rule *rules; /* owned */
    size_t n_rules;
    const char *html, *json, *markdown, *pdf; /* borrowed */
    struct pr_diff_opts opts;
    int keep_order, fail, quiet, help, version;
};

static void
args_free(struct trend_args *a)
{
    pr_rule_list_free(a->rules, a->n_rules);
    free(a->inputs);
}

static enum pr_status
one_option(struct trend_args *a, int c, const char *arg, struct pr_error *err)
{
    switch (c) {
    case 'i':
        return pr_args_push(&a->inputs, &a->n_inputs, arg, err);
    case OPT_FAIL_ON:
        return pr_rule_list_add(&a->rules, &a->n_rules, arg, err);
    case OPT_THRESHOLD:
        if (!pr_parse_double(arg, 0, 1e6, &a->opts.threshold_pct))
            return pr_error_set(err, PR_E_USAGE,
                                "--threshold: expected a "
                                "percentage, got \"%s\"",
                                arg);
        return PR_OK;
    case OPT_KEEP:
        a->keep_order = 1;
        return PR_OK;
    case OPT_FAIL:
        a->fail = 1;
        return PR_OK;
    case OPT_HTML:
        a->html = arg;
        return PR_OK;
    case OPT_PDF:
        a->pdf = arg;
        return PR_OK;
    case OPT_JSON:
        a->json = arg;
        return PR_OK;
    case OPT_MD:
        a->markdown = arg;
        return PR_OK;
    case 'q':
        a->quiet = 1;
        return PR_OK;
    case 'h':
        a->help = 1;
        return PR_OK;
    case 'V':
        a->version = 1;
        return PR_OK;
    }
    return pr_error_set(err, PR_E_USAGE, "trend: unknown option");
}

static enum pr_status
outputs_distinct(const struct trend_args *a, struct pr_error *err)
{
    const char *paths[] = {a->json, a->markdown, a->html, a->pdf};
    const char *names[] = {"--json", "--markdown", "--html", "--pdf"};

    return pr_outputs_distinct(paths, names, 4, err);
}

static enum pr_status
parse_args(int argc, char **argv, struct trend_args *a, struct pr_error *err)
{
    int c;
    enum pr_status st = PR_OK;

    memset(a, 0, sizeof(*a));
    pr_diff_opts_init(&a->opts);
    optind = 0; /* glibc: full re-initialisation */
    opterr = 0;
    /* '-' in front: bare paths arrive in order as option 1, so that
       "--input s1.json s2.json" works as users write it */
    while (st == PR_OK &&
           (c = getopt_long(argc, argv, "-i:qhV", long_opts, NULL)) != -1) {
        if (c == '?' || c == ':')
            return pr_error_set(err, PR_E_USAGE,
                                "trend: bad or incomplete "
                                "option \"%s\"",
                                argv[optind - 1]);
        st = c == 1 ? pr_args_push(&a->inputs, &a->n_inputs, optarg, err)
                    : one_option(a, c, optarg, err);
    }
    if (st != PR_OK || a->help || a->version)
        return st;
    if (a->n_inputs < 2)
        return pr_error_set(err, PR_E_USAGE,
                            "trend: needs at least two "
                            "--input summaries");
    return outputs_distinct(a, err);
}

static struct pr_trend_job
job_of(const struct trend_args *a)
{
    struct pr_trend_job j;

    memset(&j, 0, sizeof(j));
    j.inputs = a->inputs;
    j.n_inputs = a->n_inputs;
    j.rules = a->rules;
    j.n_rules = a->n_rules;
    j.html = a->html;
    j.json = a->json;
    j.markdown = a->markdown;
    j.pdf = a->pdf;
    j.opts = a->opts;
    j.keep_order = a->keep_order;
    j.quiet = a->quiet;
    return j;
}

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    struct trend_args a;
    struct pr_trend_job job;
    int crossed = 0;
    enum pr_status st = parse_args(argc, argv, &a, err);

    if (st == PR_OK && (a.help || a.version)) {
        ctl->want_help = a.help;
        ctl->want_version = a.version;
    } else if (st == PR_OK) {
        job = job_of(&a);
        st = pr_trend_run(&job, &crossed, err);
    }
    if (st == PR_OK && a.fail && crossed)
        st = pr_error_set(err, PR_E_REGRESSION,
                          "trend: the last night crossed a limit");
    args_free(&a);
    return st;
}

static const char *
hint(const struct pr_error *err)
{
    return strstr(err->msg, "bad rule") != NULL ? PR_RULE_GRAMMAR : NULL;
}

const struct pr_cmd pr_cmd_trend = {
    "trend", "chart nightly summaries and mark the nights that regressed",
    usage, run, hint};
