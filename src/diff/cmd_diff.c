/* cmd_diff.c - `profreport diff`: load two summaries, compare, gate, write
 * the reports.  The subcommand's own main: it prints its errors as
 * "profreport: message" and returns the exit status (0 pass, 1 usage or
 * malformed rule, 2 bad input, 3 a gate tripped). */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/parse.h"
#include "profreport/sink.h"

#define EXIT_GATE 3

static const char usage_text[] =
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
    "      --top N           rows per table in reports (default 15)\n"
    "      --json FILE       the comparison for machines\n"
    "      --markdown FILE   a CI job summary (stdout when no report is\n"
    "                        asked for)\n"
    "      --junit FILE      JUnit XML, one test per gate\n"
    "      --html FILE       self-contained HTML report\n"
    "      --pdf FILE        PDF report\n"
    "  -q, --quiet           no progress or gate lines on stderr\n"
    "  -h, --help            this text\n"
    "\n"
    "Exit status: 0 no gate tripped, 1 usage or malformed rule, 2 bad\n"
    "input, 3 a gate tripped.\n\n" PR_RULE_GRAMMAR;

enum { OPT_FAIL_ON = 256, OPT_THRESHOLD, OPT_ALPHA, OPT_MIN_SHARE, OPT_TOP,
       OPT_JSON, OPT_MARKDOWN, OPT_JUNIT, OPT_HTML, OPT_PDF };

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
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0}};

struct diff_args {
    const char **base, **cur; /* owned arrays of borrowed argv strings */
    size_t n_base, n_cur;
    struct pr_rule *rules;    /* owned */
    size_t n_rules;
    const char *json, *markdown, *junit, *html, *pdf; /* borrowed */
    struct pr_diff_opts opts;
    int quiet, help;
};

static void
args_free(struct diff_args *a)
{
    pr_drules_free(a->rules, a->n_rules);
    free(a->base);
    free(a->cur);
}

/* A number option in [lo, hi]. */
static enum pr_status
number(const char *opt, const char *s, double lo, double hi, double *out,
       struct pr_error *err)
{
    if (!pr_parse_double(s, lo, hi, out))
        return pr_error_set(err, PR_E_USAGE, "--%s: expected a number from "
                            "%g to %g, got \"%s\"", opt, lo, hi, s);
    return PR_OK;
}

static enum pr_status
one_option(struct diff_args *a, int c, const char *arg, struct pr_error *err)
{
    int64_t top;

    switch (c) {
    case 'b':
        return pr_dpush_path(&a->base, &a->n_base, arg, err);
    case 'i':
        return pr_dpush_path(&a->cur, &a->n_cur, arg, err);
    case OPT_FAIL_ON:
        return pr_dpush_rule(&a->rules, &a->n_rules, arg, err);
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
    case 'q':
        a->quiet = 1;
        return PR_OK;
    case 'h':
        a->help = 1;
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
           (c = getopt_long(argc, argv, "b:i:qh", long_opts, NULL)) != -1) {
        if (c == '?' || c == ':')
            return pr_error_set(err, PR_E_USAGE, "diff: bad or incomplete "
                                "option \"%s\"", argv[optind - 1]);
        st = one_option(a, c, optarg, err);
    }
    if (st != PR_OK || a->help)
        return st;
    if (optind < argc)
        return pr_error_set(err, PR_E_USAGE, "diff: unexpected argument "
                            "\"%s\"", argv[optind]);
    if (a->n_base == 0 || a->n_cur == 0)
        return pr_error_set(err, PR_E_USAGE, "diff: needs --baseline and "
                            "--input");
    return outputs_distinct(a, err);
}

typedef enum pr_status (*render_fn)(const cJSON *diff, size_t top,
                                    struct pr_buf *out, struct pr_error *err);

static enum pr_status
junit_fn(const cJSON *diff, size_t top, struct pr_buf *out,
         struct pr_error *err)
{
    (void)top;
    return pr_diff_junit(diff, out, err);
}

static enum pr_status
json_fn(const cJSON *diff, size_t top, struct pr_buf *out,
        struct pr_error *err)
{
    char *text = cJSON_Print(diff);
    enum pr_status st;

    (void)top;
    if (text == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    st = pr_buf_adds(out, text);
    if (st == PR_OK)
        st = pr_buf_addc(out, '\n');
    cJSON_free(text);
    return st == PR_OK ? st : pr_error_set(err, st, "json: out of memory");
}

/* Render one report into a new staging file of the set. */
static enum pr_status
stage_report(struct pr_outputs *set, const char *path, render_fn fn,
             const cJSON *diff, size_t top, struct pr_error *err)
{
    struct pr_buf b;
    const char *tmp;
    enum pr_status st;

    if (path == NULL)
        return PR_OK;
    st = pr_outputs_stage(set, path, &tmp, err);
    if (st != PR_OK)
        return st;
    pr_buf_init(&b, 0);
    st = fn(diff, top, &b, err);
    if (st == PR_OK)
        st = pr_outputs_fill(tmp, path, b.data ? b.data : "", b.len, err);
    pr_buf_free(&b);
    return st;
}

/* Every report, committed together: all of them or none. */
static enum pr_status
write_reports(const struct diff_args *a, const cJSON *diff,
              struct pr_error *err)
{
    int none = !a->json && !a->markdown && !a->junit && !a->html && !a->pdf;
    size_t top = a->opts.top;
    struct pr_outputs set;
    const char *tmp;
    enum pr_status st;

    pr_outputs_init(&set);
    st = stage_report(&set, a->json, json_fn, diff, top, err);
    if (st == PR_OK)
        st = stage_report(&set, none ? "-" : a->markdown, pr_diff_markdown,
                          diff, top, err);
    if (st == PR_OK)
        st = stage_report(&set, a->junit, junit_fn, diff, top, err);
    if (st == PR_OK)
        st = stage_report(&set, a->html, pr_diff_html, diff, top, err);
    if (st == PR_OK && a->pdf != NULL) {
        st = pr_outputs_stage(&set, a->pdf, &tmp, err);
        if (st == PR_OK)
            st = pr_diff_pdf(diff, top, tmp, err);
    }
    if (st == PR_OK)
        st = pr_outputs_commit(&set, err);
    pr_outputs_free(&set);
    return st;
}

static void
print_gates(const cJSON *diff)
{
    const cJSON *g;

    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(diff, "gates"))
    {
        fprintf(stderr, "diff: %s %s: %s\n", pr_dj_str(g, "result"),
                pr_dj_str(g, "rule"), pr_dj_str(g, "detail"));
    }
}

static enum pr_status
load_side(const char *const *paths, size_t n, int quiet, cJSON **out,
          struct pr_error *err)
{
    enum pr_status st = pr_dload_summary(paths, n, quiet, out, err);

    if (st != PR_OK && (st == PR_E_USAGE))
        err->code = st = PR_E_FORMAT; /* input problems are exit 2 */
    return st;
}

static enum pr_status
run_diff(const struct diff_args *a, size_t *n_failed, struct pr_error *err)
{
    cJSON *base = NULL, *cur = NULL, *diff = NULL;
    char lb[256], lc[256];
    enum pr_status st;

    st = load_side(a->base, a->n_base, a->quiet, &base, err);
    if (st == PR_OK)
        st = load_side(a->cur, a->n_cur, a->quiet, &cur, err);
    snprintf(lb, sizeof(lb), "%s%s", pr_dbasename(a->base[0]),
             a->n_base > 1 ? " (+more)" : "");
    snprintf(lc, sizeof(lc), "%s%s", pr_dbasename(a->cur[0]),
             a->n_cur > 1 ? " (+more)" : "");
    if (st == PR_OK)
        st = pr_diff_compare(base, cur, lb, lc, &a->opts, &diff, err);
    if (st == PR_OK)
        st = pr_diff_gate(diff, a->rules, a->n_rules, &a->opts, n_failed,
                          err);
    if (st == PR_OK)
        st = write_reports(a, diff, err);
    if (st == PR_OK && !a->quiet)
        print_gates(diff);
    cJSON_Delete(diff);
    cJSON_Delete(base);
    cJSON_Delete(cur);
    return st;
}

int
pr_diff_main(int argc, char **argv)
{
    struct diff_args a;
    struct pr_error err;
    size_t n_failed = 0;
    enum pr_status st;

    pr_error_clear(&err);
    st = parse_args(argc, argv, &a, &err);
    if (st == PR_OK && a.help)
        fputs(usage_text, stdout);
    else if (st == PR_OK)
        st = run_diff(&a, &n_failed, &err);
    args_free(&a);
    if (st != PR_OK)
        return pr_dcmd_fail("diff", st, &err);
    return n_failed > 0 ? EXIT_GATE : 0;
}
