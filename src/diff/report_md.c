/* report_md.c - the diff as GitHub-flavoured Markdown for a CI job
 * summary: verdict first, then gates, per-run figures with their noise
 * test, top regressions / improvements, new and vanished rows, method. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "profreport/diff.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"

#define NAME_MAX_CHARS 80

static void
code(struct pr_buf *b, const char *s)
{
    if (pr_dmd_code(b, s != NULL ? s : "?", NAME_MAX_CHARS) != PR_OK)
        b->failed = 1;
}

/* A run that paired with none (pr_dunmatched_each). */
static void
unmatched(void *ctx, const struct pr_dunmatched *u)
{
    struct pr_buf *b = ctx;

    if (pr_buf_printf(b, "**%s** %s run ", u->lead, u->side_name) != PR_OK)
        b->failed = 1;
    code(b, u->run);
    if (pr_buf_printf(b, " %s; not compared.\n\n", u->what) != PR_OK)
        b->failed = 1;
}

static void md_text(struct pr_buf *b, const char *s);

/* A comparability warning or note (pr_dcompat_each). */
static void
compat_line(void *ctx, const char *lead, const char *text)
{
    struct pr_buf *b = ctx;

    if (pr_buf_printf(b, "**%s** ", lead) != PR_OK)
        b->failed = 1;
    md_text(b, text);
    pr_dadd(b, "\n\n");
}

static void
header(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *bs = pr_sget(diff, "baseline");
    const cJSON *cs = pr_sget(diff, "current");
    struct pr_dverdict v;
    char side[80];

    pr_dverdict(diff, &v);
    if (pr_buf_printf(b, "## profreport diff: %s (%s)\n\n", v.word, v.counts) !=
        PR_OK)
        b->failed = 1;
    pr_dadd(b, "Baseline ");
    code(b, pr_sget_str(bs, PR_K_LABEL));
    pr_dside_text(bs, side, sizeof(side));
    if (pr_buf_printf(b, " (%s) vs current ", side) != PR_OK)
        b->failed = 1;
    code(b, pr_sget_str(cs, PR_K_LABEL));
    pr_dside_text(cs, side, sizeof(side));
    if (pr_buf_printf(b, " (%s).\n\n", side) != PR_OK)
        b->failed = 1;
    pr_dunmatched_each(diff, unmatched, b);
    pr_dcompat_each(diff, compat_line, b);
}

/* Text in a table cell: Markdown's active characters backslash-escaped
 * (a glob rule's '*' is not emphasis), line breaks as spaces. */
static void
md_text(struct pr_buf *b, const char *s)
{
    for (; *s != '\0' && !b->failed; s++) {
        if (strchr("\\|*_[]<`", *s) != NULL && pr_buf_addc(b, '\\') != PR_OK)
            b->failed = 1;
        else if (pr_buf_addc(b, *s == '\n' || *s == '\r' ? ' ' : *s) != PR_OK)
            b->failed = 1;
    }
}

static void
md_cell(struct pr_buf *b, const struct pr_col *c, const char *text,
        const char *shown, const char *sub)
{
    pr_dadd(b, "| ");
    if (c->fmt == PR_FMT_NAME)
        code(b, shown != NULL ? shown : text);
    else if (c->fmt == PR_FMT_VERDICT && pr_sget_is(text, "FAIL"))
        pr_dadd(b, "**FAIL**");
    else
        md_text(b, text);
    if (sub != NULL) {
        pr_dadd(b, " ");
        code(b, sub);
    }
    pr_dadd(b, " ");
}

void
pr_dtable_md(struct pr_buf *b, const struct pr_dtable *t)
{
    const cJSON *row;
    size_t i, r = 0, sub = pr_dtable_sub_col(t);
    char **forms = pr_dnames(t, NAME_MAX_CHARS);
    int numbered = 0;

    if (forms == NULL && pr_sget_len(t->rows) > 0)
        b->failed = 1; /* out of memory */

    for (i = 0; i < t->n_cols; i++) {
        pr_dadd(b, "| ");
        md_text(b, t->cols[i].label);
        pr_dadd(b, " ");
    }
    pr_dadd(b, "|\n");
    for (i = 0; i < t->n_cols; i++)
        pr_dadd(b, pr_col_numeric(t->cols[i].fmt) ? "|---:" : "|---");
    pr_dadd(b, "|\n");
    cJSON_ArrayForEach(row, t->rows)
    {
        for (i = 0; i < t->n_cols; i++) {
            md_cell(b, &t->cols[i], pr_sget_str_or(row, t->cols[i].key, ""),
                    forms ? forms[r * t->n_cols + i] : NULL,
                    i == sub ? pr_sget_str(row, PR_DTABLE_SUB) : NULL);
            numbered |=
                forms != NULL && pr_shorten_numbered(forms[r * t->n_cols + i]);
        }
        pr_dadd(b, "|\n");
        r++;
    }
    pr_dnames_free(forms, t);
    if (numbered)
        pr_dadd(b, "\n" PR_SHORTEN_LEGEND "\n");
    if (pr_sget_len(t->rows) == 0) {
        pr_dadd(b, "| (none) ");
        for (i = 1; i < t->n_cols; i++)
            pr_dadd(b, "| ");
        pr_dadd(b, "|\n");
    }
    pr_dadd(b, "\n");
    if (t->note[0] != '\0') {
        pr_dadd(b, "_");
        md_text(b, t->note);
        pr_dadd(b, "_\n\n");
    }
}

static void
gates_table(struct pr_buf *b, const cJSON *diff)
{
    struct pr_dtable t;

    pr_dadd(b, "### Gates\n\n");
    pr_dtable_put(b, &t, pr_dtable_gates(&t, diff), pr_dtable_md);
}

static void
runs_tables(struct pr_buf *b, const cJSON *diff)
{
    const cJSON *pair;
    struct pr_dtable t;

    cJSON_ArrayForEach(pair, pr_sget(diff, PR_K_RUNS))
    {
        pr_dadd(b, "### Run ");
        code(b, pr_sget_str(pair, "baseline"));
        pr_dadd(b, " vs ");
        code(b, pr_sget_str(pair, "current"));
        pr_dadd(b, " (");
        pr_dadd(b, pr_dpair_per(pair));
        pr_dadd(b, ")\n\n");
        pr_dtable_put(b, &t, pr_dtable_figures(&t, pair, diff), pr_dtable_md);
        if (pr_sget_len(pr_sget(pair, "collectives")) > 0) {
            pr_dadd(b, "Collectives (mean time per call):\n\n");
            pr_dtable_put(b, &t, pr_dtable_collectives(&t, pair), pr_dtable_md);
        }
    }
}

/* Headings of the change tables (pr_dchanges_put): one a kind, naming
 * the list in running text. */
static void
change_head(struct pr_buf *b, const struct pr_dchange *c,
            const struct pr_dkind *k, const char *measure)
{
    if (k != NULL && pr_buf_printf(b, "### %s: %s (%s)\n\n", k->title, c->noun,
                                   measure) != PR_OK)
        b->failed = 1;
}

static void
method(struct pr_buf *b, const cJSON *diff)
{
    char before[200], after[2000], intervals[400];

    pr_dmethod_text(diff, before, sizeof(before), after, sizeof(after),
                    intervals, sizeof(intervals));
    if (pr_buf_printf(b, "### Method\n\n%s **and** %s\n", before, after) !=
            PR_OK ||
        (intervals[0] != '\0' &&
         pr_buf_printf(b, "\n%s\n", intervals) != PR_OK))
        b->failed = 1;
}

enum pr_status
pr_diff_markdown(const cJSON *diff, size_t top, struct pr_buf *out,
                 struct pr_error *err)
{
    header(out, diff);
    gates_table(out, diff);
    runs_tables(out, diff);
    pr_dchanges_put(out, diff, top, change_head, pr_dtable_md);
    method(out, diff);
    if (out->failed)
        return pr_error_set(err, PR_E_NOMEM, "markdown: out of memory");
    return PR_OK;
}
