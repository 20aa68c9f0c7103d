/* figs.c - the diff and the trend as sections of the main report's figure
 * model (figures.h): headings, text, callouts, the shared charts and the
 * tables of tables.c, built once and laid out by the main report's HTML
 * layout (html.c, templates/diff.html) and PDF layout (pr_pdf_doc_figs),
 * so that a comparison looks and reads like the report it compares. */
#include "config.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"

/* Runs without a partner named per side; the rest counted (the JSON diff
 * lists them all). */
#define UNMATCHED_SHOWN 20

/* The HTML size and PDF height of the charts, in the main report's
 * proportions: two side by side at 600 and 400 units (its 3:2 columns),
 * one across the page at 960. */
#define PAIR_L_W 600.0
#define PAIR_R_W 400.0
#define PAIR_H 300.0
#define PAIR_PDF_H 200.0
#define WIDE_W 960.0
#define FALL_H 340.0
#define FALL_PDF_H 270.0
#define TREND_H 300.0
#define TREND_PDF_H 215.0

void
pr_dfigs_table(struct pr_figs *f, struct pr_dtable *t, int built)
{
    struct pr_fig_table ft;

    memset(&ft, 0, sizeof(ft));
    if (built != 0) {
        pr_figs_nomem(f);
        pr_dtable_free(t);
        return;
    }
    ft.cols = t->cols;
    ft.n_cols = t->n_cols;
    ft.limit = SIZE_MAX; /* built to their length already */
    ft.names_from = t->names_from;
    ft.sub_key = PR_DTABLE_SUB;
    pr_figs_table_own(f, &ft, t->rows, "None.");
    t->rows = NULL;
    if (t->note[0] != '\0')
        pr_figs_note(f, t->note);
}

/* One callout {"sev", "text"} appended to items (sticky out-of-memory). */
static void
add_item(struct pr_figs *f, cJSON *items, const char *sev, const char *text)
{
    cJSON *o = cJSON_CreateObject();

    if (o == NULL || !cJSON_AddItemToArray(items, o)) {
        cJSON_Delete(o);
        pr_figs_nomem(f);
        return;
    }
    if (cJSON_AddStringToObject(o, "sev", sev) == NULL ||
        cJSON_AddStringToObject(o, PR_K_TEXT, text) == NULL)
        pr_figs_nomem(f);
}

struct items_ctx {
    struct pr_figs *f;
    cJSON *items;
};

static void
unmatched_item(void *ctx, const struct pr_dunmatched *u)
{
    struct items_ctx *c = ctx;
    char line[600];

    if (u->index < UNMATCHED_SHOWN) {
        snprintf(line, sizeof(line), "%s run %s %s; not compared.",
                 u->side == 0 ? "Baseline" : "Current", u->run, u->what);
        add_item(c->f, c->items, u->side == 0 ? "warning" : "info", line);
    } else if (u->index == UNMATCHED_SHOWN) {
        snprintf(line, sizeof(line),
                 "... and %zu more runs of the %s with no partner (the JSON "
                 "diff lists them all).",
                 u->count - UNMATCHED_SHOWN, u->side_name);
        add_item(c->f, c->items, "info", line);
    }
}

static void
compat_item(void *ctx, const char *lead, const char *text)
{
    struct items_ctx *c = ctx;

    add_item(c->f, c->items, lead[0] == 'W' ? "warning" : "info", text);
}

/* ---- the diff's sections ---------------------------------------------- */

/* Runs without a partner and comparability warnings and notes: what to
 * know before reading the numbers. */
static int
comparability_present(const cJSON *diff)
{
    const cJSON *c = pr_sget(diff, "comparability");
    const cJSON *um = pr_sget(diff, "runs_unmatched");

    return pr_sget_len(pr_sget(c, "warnings")) > 0 ||
           pr_sget_len(pr_sget(c, "notes")) > 0 ||
           pr_sget_len(pr_sget(um, "baseline")) > 0 ||
           pr_sget_len(pr_sget(um, "current")) > 0;
}

static void
comparability(struct pr_figs *f, const cJSON *diff, size_t top)
{
    struct items_ctx c = {f, cJSON_CreateArray()};

    (void)top;
    if (c.items == NULL) {
        pr_figs_nomem(f);
        return;
    }
    pr_dunmatched_each(diff, unmatched_item, &c);
    pr_dcompat_each(diff, compat_item, &c);
    pr_figs_items(f, c.items);
}

static void
gates(struct pr_figs *f, const cJSON *diff, size_t top)
{
    struct pr_dtable t;
    struct pr_dverdict v;
    char line[440];

    (void)top;
    pr_dverdict(diff, &v);
    snprintf(line, sizeof(line), "%s: %s.", v.word, v.counts);
    line[0] = (char)toupper((unsigned char)line[0]); /* "No regression" */
    pr_figs_text(f, line);
    pr_dfigs_table(f, &t, pr_dtable_gates(&t, diff));
}

/* The charts of each pair live until the section is laid out. */
struct pairs {
    struct pr_dpair_figs *figs;
    size_t n;
};

static void
pair_chart(struct pr_figs *f, pr_fig_draw_fn draw, const void *spec,
           const char *label, double w, double h, double pdf_h, int side)
{
    struct pr_fig_chart *ch = pr_fig_chart_new(draw, label, w, h, pdf_h);

    if (ch != NULL)
        ch->spec = spec;
    pr_figs_chart(f, ch, side);
}

static void
draw_waterfall(struct pr_canvas *c, const struct pr_chart_box *b,
               const void *spec)
{
    pr_dwaterfall(c, b, spec);
}

static void
runs(struct pr_figs *f, const cJSON *diff, struct pairs *p)
{
    const cJSON *pair;
    struct pr_dtable t;
    char label[256];
    size_t i = 0;

    cJSON_ArrayForEach(pair, pr_sget(diff, PR_K_RUNS))
    {
        struct pr_dpair_figs *pf = &p->figs[i++];
        int capture;
        snprintf(label, sizeof(label), "Run %s vs %s",
                 pr_sget_str_or(pair, "baseline", "?"),
                 pr_sget_str_or(pair, "current", "?"));
        pr_figs_part(f, label, pr_dpair_per(pair));
        if (pr_dpair_figs(pf, pair) != 0) {
            pr_figs_nomem(f);
            return;
        }
        /* runs without steps: what each capture held, and no step
           chart (one point a side) or waterfall of a window's length,
           which is the profiler's, not a speed (review 22g #1) */
        capture = cJSON_IsTrue(pr_sget(pair, "per_capture"));
        pair_chart(f, pr_fig_draw_stacked, &pf->stacked,
                   capture ? "Breakdown of each capture, baseline and current"
                           : "Mean step breakdown, baseline and current",
                   PAIR_L_W, PAIR_H, PAIR_PDF_H, 0);
        if (pf->many_steps)
            pair_chart(f, pr_fig_draw_lines, &pf->steps, "Step time per step",
                       PAIR_R_W, PAIR_H, PAIR_PDF_H, 1);
        if (!capture)
            pair_chart(f, draw_waterfall, &pf->waterfall,
                       "Waterfall of the change in mean step time", WIDE_W,
                       FALL_H, FALL_PDF_H, 0);
        pr_dfigs_table(f, &t, pr_dtable_figures(&t, pair, diff));
        if (pr_sget_len(pr_sget(pair, "collectives")) > 0) {
            pr_figs_heading(f, "Collectives (mean time per call)");
            pr_dfigs_table(f, &t, pr_dtable_collectives(&t, pair));
        }
    }
}

/* The change list c: what a row compares, then its regressions,
 * improvements, and new and vanished rows. */
static void
changes(struct pr_figs *f, const cJSON *diff, const struct pr_dchange *c,
        size_t top)
{
    struct pr_dtable t;
    char note[200];
    size_t k;
    const char *measure = pr_dchange_measure(c, diff);

    snprintf(note, sizeof(note), "%c%s, matched by %s.",
             toupper((unsigned char)measure[0]), measure + 1, c->matched);
    pr_figs_text(f, note);
    for (k = 0; k < PR_N_DKINDS; k++) {
        pr_figs_heading(f, pr_dkinds[k].title);
        pr_dfigs_table(f, &t,
                       pr_dtable_changes_calls(
                           &t, pr_sget(diff, c->key), pr_dkinds[k].want, top,
                           (size_t)pr_sget_len(pr_sget(diff, PR_K_RUNS)),
                           c->step_calls));
    }
}

static void
method(struct pr_figs *f, const cJSON *diff, size_t top)
{
    char before[200], after[2000], intervals[400], text[2300];

    (void)top;
    pr_dmethod_text(diff, before, sizeof(before), after, sizeof(after),
                    intervals, sizeof(intervals));
    snprintf(text, sizeof(text), "%s and %s", before, after);
    pr_figs_text(f, text);
    if (intervals[0] != '\0')
        pr_figs_note(f, intervals);
}

/* Build one section into fresh figures, hand it to each(), free it. */
static void
emit(const char *id, const char *title, size_t top, const cJSON *tree,
     void (*build)(struct pr_figs *, const cJSON *, size_t),
     pr_dfigs_each_fn *each, void *ctx)
{
    struct pr_figs f;

    pr_figs_init(&f, top);
    build(&f, tree, top);
    each(ctx, id, title, &f);
    pr_figs_free(&f);
}

void
pr_dfigs_diff(const cJSON *diff, size_t top, pr_dfigs_each_fn *each, void *ctx)
{
    struct pr_figs f;
    struct pairs p = {NULL, (size_t)pr_sget_len(pr_sget(diff, PR_K_RUNS))};
    size_t k, i;

    if (comparability_present(diff))
        emit("comparability", "Comparability", top, diff, comparability, each,
             ctx);
    emit("gates", "Gates", top, diff, gates, each, ctx);
    /* the pairs' charts point into p until the section is laid out */
    pr_figs_init(&f, top);
    p.figs = calloc(p.n ? p.n : 1, sizeof(*p.figs));
    if (p.figs == NULL)
        pr_figs_nomem(&f);
    else
        runs(&f, diff, &p);
    each(ctx, "runs", pr_dno_steps(diff) ? "Captures" : "Step time", &f);
    pr_figs_free(&f);
    for (i = 0; p.figs != NULL && i < p.n; i++)
        pr_dpair_figs_free(&p.figs[i]);
    free(p.figs);
    for (k = 0; k < PR_N_DCHANGES; k++) {
        const struct pr_dchange *c = &pr_dchanges[k];
        if (!pr_dchange_shown(c, diff))
            continue;
        pr_figs_init(&f, top);
        changes(&f, diff, c, top);
        each(ctx, c->key, c->title, &f);
        pr_figs_free(&f);
    }
    emit("method", "Method", top, diff, method, each, ctx);
}

/* ---- the trend's sections --------------------------------------------- */

void
pr_dfigs_trend(const cJSON *trend, pr_dfigs_each_fn *each, void *ctx)
{
    struct pr_figs f;
    struct pr_dtrend_figs tf;
    struct pr_dverdict v;
    struct pr_dtable t;
    cJSON *items;
    const cJSON *u;
    char line[700];
    size_t i;

    pr_figs_init(&f, 0);
    pr_dtrend_verdict(trend, &v);
    snprintf(line, sizeof(line), "%s: %s.", v.word, v.counts);
    line[0] = (char)toupper((unsigned char)line[0]);
    pr_figs_text(&f, line);
    if (pr_sget_len(pr_sget(trend, "unreadable")) > 0) {
        items = cJSON_CreateArray();
        if (items == NULL)
            pr_figs_nomem(&f);
        cJSON_ArrayForEach(u, pr_sget(trend, "unreadable"))
        {
            if (items == NULL)
                break;
            snprintf(line, sizeof(line),
                     "Night %.200s could not be read and is left out: %.400s",
                     pr_sget_str_or(u, PR_K_PATH, "?"),
                     pr_sget_str_or(u, "error", "?"));
            add_item(&f, items, "warning", line);
        }
        pr_figs_items(&f, items);
    }
    if (pr_dtrend_figs(&tf, trend) != 0)
        pr_figs_nomem(&f);
    /* captures without steps: no step chart, and why (review 25u #3) */
    if (tf.no_steps)
        pr_figs_text(&f,
                     tf.utilization
                         ? "No night has steps: each is one capture, whose "
                           "length is the profiler's window, not a speed, so "
                           "no step time is charted and the breakdown and "
                           "operators are per capture. Each night is "
                           "compared with the one before and, from the third "
                           "night on, with the first night by the diff "
                           "gates; the utilization chart (a share of each "
                           "capture) marks the latest night that crossed a "
                           "limit, the table lists them all."
                         : "No night has steps: each is one capture, whose "
                           "length is the profiler's window, not a speed, so "
                           "no step time is charted and the breakdown and "
                           "operators are per capture. Each night is "
                           "compared with the one before and, from the third "
                           "night on, with the first night by the diff "
                           "gates; the table lists the nights that crossed "
                           "a limit.");
    else
        pr_figs_text(&f, "Each night is compared with the one before and, from "
                         "the third night on, with the first night by the diff "
                         "gates (noise-aware for step time); the step chart "
                         "marks the latest night that crossed a limit, the "
                         "table lists them all.");
    if (tf.no_memory)
        pr_figs_text(&f, "Memory peak: no night records memory.");
    for (i = 0; i < tf.n && !f.failed; i++) {
        struct pr_fig_chart *ch =
            pr_fig_chart_new(pr_fig_draw_lines, tf.charts[i].title, WIDE_W,
                             TREND_H, TREND_PDF_H);
        if (ch != NULL)
            ch->spec = &tf.charts[i];
        pr_figs_chart(&f, ch, 0);
    }
    each(ctx, "trend", "Nightly trend", &f);
    pr_figs_free(&f);
    pr_dtrend_figs_free(&tf);
    pr_figs_init(&f, 0);
    pr_dfigs_table(&f, &t, pr_dtable_nights(&t, trend));
    each(ctx, "nights", "Nights", &f);
    pr_figs_free(&f);
}
