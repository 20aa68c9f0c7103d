/* cmd_diff.c - `profreport diff`: its options and usage; the run itself
 * is pr_diff_run (src/diff/diff.c). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/args.h"
#include "profreport/cmd.h"
#include "profreport/diff.h"
#include "profreport/parse.h"
#include "profreport/sget.h"
#include "profreport/sink.h"

static const char usage[] =
    "Usage: profreport diff --baseline B --input C [options]\n"
    "Compare a run against a baseline and gate on regressions.\n"
    "B and C are trace files, run folders, or summary JSON files written\n"
    "by `profreport --json` (each option may repeat for several traces).\n"
    "\n"
    "  -b, --baseline PATH   the reference run\n"
    "  -i, --input PATH      the run to judge\n"
    "      --fail-on RULE    a gate (repeatable); default: step.mean>+T%\n"
    "      --threshold PCT   T of the default gate (default 5)\n"
    "      --alpha P         significance level of the noise test (0.05)\n"
    "      --min-share PCT   glob rules skip rows under PCT% of the step\n"
    "                        time (default 1)\n"
    "      --strict          a --fail-on rule that matches no figure fails\n"
    "                        (default: skipped, with a warning)\n"
    "      --top N           rows per table in reports (default 15)\n"
    "      --json FILE       the comparison for machines\n"
    "      --markdown FILE   a CI job summary (stdout when no report is\n"
    "                        asked for)\n"
    "      --junit FILE      JUnit XML, one test per gate\n"
    "      --html FILE       self-contained HTML report\n"
    "      --pdf FILE        PDF report\n"
    "  -q, --quiet           no progress or gate lines on stderr\n"
    "  -h, --help            this text\n"
    "  -V, --version         print the version\n"
    "\n"
    "Exit status: 0 no gate tripped, 1 usage or malformed rule, 2 bad\n"
    "input, 3 a gate tripped.\n\n" PR_RULE_GRAMMAR;

enum {
    OPT_FAIL_ON = 256,
    OPT_THRESHOLD,
    OPT_ALPHA,
    OPT_MIN_SHARE,
    OPT_TOP,
    OPT_JSON,
    OPT_MARKDOWN,
    OPT_JUNIT,
    OPT_HTML,
    OPT_PDF,
    OPT_STRICT
};

static const struct option long_opts[] = {
    {"baseline", required_argument, NULL, 'b'},
    {"input", required_argument, NULL, 'i'},
    {"fail-on", required_argument, NULL, OPT_FAIL_ON},
    {"threshold", required_argument, NULL, OPT_THRESHOLD},
    {"alpha", required_argument, NULL, OPT_ALPHA},
    {"min-share", required_argument, NULL, OPT_MIN_SHARE},
    {"top", required_argument, NULL, OPT_TOP},
    {"json", required_argument, NULL, OPT_JSON},
    {"markdown", required_argument, NULL, OPT_MARKDOWN},
    {"junit", required_argument, NULL, OPT_JUNIT},
    {"html", required_argument, NULL, OPT_HTML},
    {"pdf", required_argument, NULL, OPT_PDF},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, 'V'},
    {NULL, 0, NULL, 0}};

struct diff_args {
    const char **base, **cur; /* owned arrays of borrowed argv strings */
    size_t n_base, n_cur;
    struct pr_rule *rules; /* owned */
    size_t n_rules;
    const char *json, *markdown, *junit, *html, *pdf; /* borrowed */
    struct pr_diff_opts opts;
    int quiet, help, version;
};

static void
args_free(struct diff_args *a)
{
    pr_rule_list_free(a->rules, a->n_rules);
    free(a->base);
    free(a->cur);
}

/* A number option in [lo, hi]. */
static enum pr_status
number(const char *opt, const char *s, double lo, double hi, double *out,
       struct pr_error *err)
{
    if (!pr_parse_double(s, lo, hi, out))
        return pr_error_set(err, PR_E_USAGE,
                            "--%s: expected a number from "
                            "%g to %g, got \"%s\"",
                            opt, lo, hi, s);
    return PR_OK;
}

static enum pr_status
one_option(struct diff_args *a, int c, const char *arg, struct pr_error *err)
{
    int64_t top;

    switch (c) {
    case 'b':
        return pr_args_push(&a->base, &a->n_base, arg, err);
    case 'i':
        return pr_args_push(&a->cur, &a->n_cur, arg, err);
    case OPT_FAIL_ON:
        return pr_rule_list_add(&a->rules, &a->n_rules, arg, err);
    case OPT_THRESHOLD:
        return number("threshold", arg, 0, 1e6, &a->opts.threshold_pct, err);
    case OPT_ALPHA:
        return number("alpha", arg, 1e-9, 0.5, &a->opts.alpha, err);
    case OPT_MIN_SHARE:
        return number("min-share", arg, 0, 100, &a->opts.min_share_pct, err);
    case OPT_TOP:
        if (!pr_parse_int64(arg, 1, 100000, &top))
            return pr_error_set(err, PR_E_USAGE,
                                "--top: expected a whole "
                                "number from 1 to 100000, got \"%s\"",
                                arg);
        a->opts.top = (size_t)top;
        return PR_OK;
    case OPT_JSON:
        a->json = arg;
        return PR_OK;
    case OPT_MARKDOWN:
        a->markdown = arg;
        return PR_OK;
    case OPT_JUNIT:
        a->junit = arg;
        return PR_OK;
    case OPT_HTML:
        a->html = arg;
        return PR_OK;
    case OPT_PDF:
        a->pdf = arg;
        return PR_OK;
    case OPT_STRICT:
        a->opts.strict = 1;
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
    return pr_error_set(err, PR_E_USAGE, "diff: unknown option");
}

static enum pr_status
outputs_distinct(const struct diff_args *a, struct pr_error *err)
{
    const char *paths[] = {a->json, a->markdown, a->junit, a->html, a->pdf};
    const char *names[] = {"--json", "--markdown", "--junit", "--html",
                           "--pdf"};

    return pr_outputs_distinct(paths, names, 5, err);
}

static enum pr_status
parse_args(int argc, char **argv, struct diff_args *a, struct pr_error *err)
{
    int c;
    enum pr_status st = PR_OK;

    memset(a, 0, sizeof(*a));
    pr_diff_opts_init(&a->opts);
    optind = 0; /* glibc: full re-initialisation, so tests may call twice */
    opterr = 0; /* we word the message ourselves */
    while (st == PR_OK &&
           (c = getopt_long(argc, argv, "b:i:qhV", long_opts, NULL)) != -1) {
        if (c == '?' || c == ':')
            return pr_error_set(err, PR_E_USAGE,
                                "diff: bad or incomplete "
                                "option \"%s\"",
                                argv[optind - 1]);
        st = one_option(a, c, optarg, err);
    }
    if (st != PR_OK || a->help || a->version)
        return st;
    if (optind < argc)
        return pr_error_set(err, PR_E_USAGE,
                            "diff: unexpected argument "
                            "\"%s\"",
                            argv[optind]);
    if (a->n_base == 0 || a->n_cur == 0)
        return pr_error_set(err, PR_E_USAGE,
                            "diff: needs --baseline and "
                            "--input");
    return outputs_distinct(a, err);
}

static void
print_gates(const cJSON *diff)
{
    const cJSON *g;

    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(diff, "gates"))
    {
        fprintf(stderr, "diff: %s %s: %s\n", pr_sget_str(g, "result"),
                pr_sget_str(g, "rule"), pr_sget_str(g, "detail"));
    }
}

/* What a reader of the gate lines could miss: rules that looked at
 * nothing, and runs that vanished or are new (issue #15). */
static void
print_warnings(const cJSON *diff, int strict)
{
    const cJSON *g, *um = pr_sget(diff, "runs_unmatched"), *w;

    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        if (cJSON_IsFalse(pr_sget(g, "matched")))
            fprintf(stderr,
                    "profreport: warning: --fail-on '%s' matches no figure "
                    "of these runs: %s\n",
                    pr_sget_str(g, "rule"),
                    strict ? "failed (--strict)"
                           : "skipped (--strict fails it)");
    }
    cJSON_ArrayForEach(w, pr_sget(um, "baseline"))
    {
        fprintf(stderr,
                "profreport: warning: run '%s' of the baseline vanished: "
                "no run of the current side pairs with it\n",
                cJSON_IsString(w) ? w->valuestring : "?");
    }
    cJSON_ArrayForEach(w, pr_sget(um, "current"))
    {
        fprintf(stderr,
                "profreport: warning: run '%s' is new: no run of the "
                "baseline pairs with it\n",
                cJSON_IsString(w) ? w->valuestring : "?");
    }
}

/* The job the parsed command line describes (borrowing from a). */
static struct pr_diff_job
job_of(const struct diff_args *a)
{
    struct pr_diff_job j;

    memset(&j, 0, sizeof(j));
    j.base = a->base;
    j.cur = a->cur;
    j.n_base = a->n_base;
    j.n_cur = a->n_cur;
    j.rules = a->rules;
    j.n_rules = a->n_rules;
    j.json = a->json;
    j.markdown = a->markdown;
    j.junit = a->junit;
    j.html = a->html;
    j.pdf = a->pdf;
    j.opts = a->opts;
    j.quiet = a->quiet;
    return j;
}

static enum pr_status
run(int argc, char **argv, struct pr_cmd_ctl *ctl, struct pr_error *err)
{
    struct diff_args a;
    struct pr_diff_job job;
    cJSON *diff = NULL;
    size_t n_failed = 0;
    enum pr_status st = parse_args(argc, argv, &a, err);

    if (st == PR_OK && (a.help || a.version)) {
        ctl->want_help = a.help;
        ctl->want_version = a.version;
    } else if (st == PR_OK) {
        job = job_of(&a);
        st = pr_diff_run(&job, &diff, &n_failed, err);
    }
    if (st == PR_OK && !a.quiet && diff != NULL) {
        print_gates(diff);
        print_warnings(diff, a.opts.strict);
    }
    if (st == PR_OK && n_failed > 0)
        st = pr_error_set(err, PR_E_REGRESSION, "diff: %zu gate%s tripped",
                          n_failed, n_failed == 1 ? "" : "s");
    cJSON_Delete(diff);
    args_free(&a);
    return st;
}

/* A malformed rule is best explained by the grammar. */
static const char *
hint(const struct pr_error *err)
{
    return strstr(err->msg, "bad rule") != NULL ? PR_RULE_GRAMMAR : NULL;
}

const struct pr_cmd pr_cmd_diff = {
    "diff", "compare a run with a baseline and gate on regressions", usage, run,
    hint};
