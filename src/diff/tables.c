/* tables.c - the tables of the diff and the trend, built once: their
 * columns (label, key, format, width: figures.h's struct pr_col) and rows
 * of display strings in the reports' one number formatting (figures.h).  The
 * Markdown writer (pr_dtable_md) and the main report's HTML and PDF layouts
 * (as figures: pr_dfigs_table) only lay them out, so the three reports show
 * the same columns with the same numbers. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"

#define DETAIL_MAX_CHARS 400 /* about six lines of a PDF Detail cell */

/* ---- the columns ------------------------------------------------------ */

static const struct pr_col gate_cols[] = {
    {"result", "result", "Result", PR_FMT_VERDICT, 0.9, NULL, PR_COL_BOTH},
    {"rule", PR_K_RULE, "Gate", PR_FMT_NAME, 2.2, NULL, PR_COL_BOTH},
    {"detail", "detail", "Detail", PR_FMT_WRAP, 6.5, NULL, PR_COL_BOTH},
};

static const struct pr_col figure_cols[] = {
    {"figure", "figure", "Figure", PR_FMT_NAME, 1.8, NULL, PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.05, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 2.0, NULL, PR_COL_BOTH},
    {"p", "p", "p-value", PR_FMT_FIGURE, 0.8, NULL, PR_COL_BOTH},
    {"ci", "ci", "95% CI of the change", PR_FMT_FIGURE, 1.85, NULL,
     PR_COL_BOTH},
    {"noise", "noise", "Noise test", PR_FMT_WRAP, 1.6, NULL, PR_COL_BOTH},
};

/* The calls a step makes of each row, both sides, last (review 27's
 * brief: a time per step that rises with the calls is no slower call;
 * aten::copy_ 74 -> 872 calls a step on HTA's trace_diff): a terminal too
 * narrow for it leaves it out first. */
static const struct pr_col change_cols[] = {
    {"name", PR_K_NAME, "Name", PR_FMT_NAME, 5.0, NULL, PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.2, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.2, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 1.2, NULL, PR_COL_BOTH},
    {"pct", "pct", "Change %", PR_FMT_CHANGE, 1.0, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls per step", PR_FMT_TEXT, 1.3, NULL,
     PR_COL_BOTH},
};

/* The rows of two runs without steps, compared per call (compare.c):
 * the calls in each capture beside the mean time per call. */
static const struct pr_col call_cols[] = {
    {"name", PR_K_NAME, "Name", PR_FMT_NAME, 4.4, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls per run", PR_FMT_TEXT, 1.1, NULL, PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 1.1, NULL, PR_COL_BOTH},
    {"pct", "pct", "Change %", PR_FMT_CHANGE, 1.0, NULL, PR_COL_BOTH},
};

static const struct pr_col call_status_cols[] = {
    {"name", PR_K_NAME, "Name", PR_FMT_NAME, 4.4, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls per run", PR_FMT_TEXT, 1.1, NULL, PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 1.1, NULL, PR_COL_BOTH},
    {"status", "status", "Status", PR_FMT_TEXT, 1.0, NULL, PR_COL_BOTH},
};

/* The same over several runs a side: a mean per rank. */
static const struct pr_col call_ranks_cols[] = {
    {"name", PR_K_NAME, "Name", PR_FMT_NAME, 4.4, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls, mean per rank", PR_FMT_TEXT, 1.1, NULL,
     PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 1.1, NULL, PR_COL_BOTH},
    {"pct", "pct", "Change %", PR_FMT_CHANGE, 1.0, NULL, PR_COL_BOTH},
};

static const struct pr_col call_status_ranks_cols[] = {
    {"name", PR_K_NAME, "Name", PR_FMT_NAME, 4.4, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls, mean per rank", PR_FMT_TEXT, 1.1, NULL,
     PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 1.1, NULL, PR_COL_BOTH},
    {"status", "status", "Status", PR_FMT_TEXT, 1.0, NULL, PR_COL_BOTH},
};

/* The collectives of a pair of runs (colls.c): each side's calls, bytes
 * and bandwidths as "before -> after", the time per call as the change
 * tables show it. */
static const struct pr_col coll_cols[] = {
    {"name", PR_K_NAME, "Collective", PR_FMT_NAME, 2.0, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"pct", "pct", "Change %", PR_FMT_CHANGE, 0.9, NULL, PR_COL_BOTH},
    {"size", "size", "Bytes", PR_FMT_FIGURE, 1.7, NULL, PR_COL_BOTH},
    {"algbw", "algbw", "algbw GB/s", PR_FMT_FIGURE, 1.2, NULL, PR_COL_BOTH},
    {"busbw", "busbw", "busbw GB/s", PR_FMT_FIGURE, 1.2, NULL, PR_COL_BOTH},
};

/* New and vanished rows: a status instead of a relative change. */
static const struct pr_col status_cols[] = {
    {"name", PR_K_NAME, "Name", PR_FMT_NAME, 5.0, NULL, PR_COL_BOTH},
    {"base", "base", "Baseline", PR_FMT_FIGURE, 1.2, NULL, PR_COL_BOTH},
    {"cur", "cur", "Current", PR_FMT_FIGURE, 1.2, NULL, PR_COL_BOTH},
    {"delta", "delta", "Change", PR_FMT_CHANGE, 1.2, NULL, PR_COL_BOTH},
    {"status", "status", "Status", PR_FMT_TEXT, 1.0, NULL, PR_COL_BOTH},
    {"calls", PR_K_CALLS, "Calls per step", PR_FMT_TEXT, 1.3, NULL,
     PR_COL_BOTH},
};

static const struct pr_col night_cols[] = {
    {"night", "night", "#", PR_FMT_FIGURE, 0.4, NULL, PR_COL_BOTH},
    {"input", "input", "Input", PR_FMT_NAME, 2.4, NULL, PR_COL_BOTH},
    {"mean", PR_K_MEAN, "Mean step", PR_FMT_FIGURE, 1.1, NULL, PR_COL_BOTH},
    {"p90", PR_K_P90, "p90", PR_FMT_FIGURE, 1.0, NULL, PR_COL_BOTH},
    {"mem", "mem", "Memory peak", PR_FMT_FIGURE, 1.1, NULL, PR_COL_BOTH},
    {"crossed", "crossed", "Crossed", PR_FMT_TEXT, 0.7, NULL, PR_COL_BOTH},
    {"gates", "gates", "Gates", PR_FMT_WRAP, 4.0, NULL, PR_COL_BOTH},
};

/* The nights of captures without steps: the capture's length, never a
 * "step", and no p90 of one value (review 25u #3). */
static const struct pr_col night_capture_cols[] = {
    {"night", "night", "#", PR_FMT_FIGURE, 0.4, NULL, PR_COL_BOTH},
    {"input", "input", "Input", PR_FMT_NAME, 2.4, NULL, PR_COL_BOTH},
    {"capture", "capture", "Capture (no steps)", PR_FMT_FIGURE, 1.2, NULL,
     PR_COL_BOTH},
    {"mem", "mem", "Memory peak", PR_FMT_FIGURE, 1.1, NULL, PR_COL_BOTH},
    {"crossed", "crossed", "Crossed", PR_FMT_TEXT, 0.7, NULL, PR_COL_BOTH},
    {"gates", "gates", "Gates", PR_FMT_WRAP, 4.0, NULL, PR_COL_BOTH},
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* ---- rows ------------------------------------------------------------- */

static int
table_init(struct pr_dtable *t, const struct pr_col *cols, size_t n)
{
    t->cols = cols;
    t->n_cols = n;
    t->names_from = NULL;
    t->note[0] = '\0';
    t->rows = cJSON_CreateArray();
    return t->rows != NULL ? 0 : -1;
}

/* Append a row of n string cells at the columns' keys, and `sub` (muted
 * text after the name cell) when not NULL; 0, or -1 on out-of-memory. */
static int
add_row(struct pr_dtable *t, const char *const *vals, const char *sub)
{
    cJSON *o = cJSON_CreateObject();
    size_t i;

    if (o == NULL || !cJSON_AddItemToArray(t->rows, o)) {
        cJSON_Delete(o);
        return -1;
    }
    for (i = 0; i < t->n_cols; i++)
        if (cJSON_AddStringToObject(o, t->cols[i].key,
                                    vals[i] ? vals[i] : "") == NULL)
            return -1;
    if (sub != NULL && cJSON_AddStringToObject(o, PR_DTABLE_SUB, sub) == NULL)
        return -1;
    return 0;
}

size_t
pr_dtable_sub_col(const struct pr_dtable *t)
{
    size_t i;

    for (i = 0; i < t->n_cols; i++)
        if (t->cols[i].fmt == PR_FMT_NAME)
            return i;
    return 0;
}

void
pr_dtable_put(struct pr_buf *b, struct pr_dtable *t, int built,
              void (*layout)(struct pr_buf *, const struct pr_dtable *))
{
    if (built != 0)
        b->failed = 1;
    else
        layout(b, t);
    pr_dtable_free(t);
}

void
pr_dtable_free(struct pr_dtable *t)
{
    cJSON_Delete(t->rows);
    t->rows = NULL;
}

int
pr_dtable_gates(struct pr_dtable *t, const cJSON *diff)
{
    const cJSON *g;
    char detail[PR_SHORTEN_CAP(DETAIL_MAX_CHARS)];

    if (table_init(t, gate_cols, N_OF(gate_cols)) != 0)
        return -1;
    cJSON_ArrayForEach(g, pr_sget(diff, "gates"))
    {
        const char *vals[3];
        vals[0] = pr_sget_is(pr_sget_str(g, "result"), "fail")      ? "FAIL"
                  : pr_sget_is(pr_sget_str(g, "result"), "skipped") ? "skipped"
                                                                    : "pass";
        vals[1] = pr_sget_str_or(g, PR_K_RULE, "?");
        /* cut in the middle: a detail ends with its verdict; one a
           tenth over the room stays whole, as a cut there takes a few
           letters out of a word (review 30g #5: h100's long run name
           made "time per w…dow" of a 402-character detail) */
        vals[2] = pr_sget_str_or(g, "detail", "");
        if (strlen(vals[2]) > DETAIL_MAX_CHARS + DETAIL_MAX_CHARS / 10)
            vals[2] = pr_shorten_middle(vals[2], DETAIL_MAX_CHARS, detail,
                                        sizeof(detail));
        if (add_row(t, vals,
                    cJSON_IsTrue(pr_sget(g, "default")) ? "(default)" : NULL) !=
            0)
            return -1;
    }
    return 0;
}

/* The noise test of a figure in words, its method in short (the Method
 * section spells it out).  A figure without per-step samples has no test
 * at all; one with too few steps has one that could not run. */
static void
noise_text(const cJSON *noise, char *buf, size_t n)
{
    const char *m = pr_sget_str(noise, PR_K_METHOD);
    const char *how = m;

    if (!cJSON_IsObject(noise)) {
        snprintf(buf, n, "limit only");
        return;
    }
    if (m == NULL || strcmp(m, "none") == 0) {
        snprintf(buf, n, "limit only (too few steps)");
        return;
    }
    if (strcmp(m, "mann-whitney-exact") == 0)
        how = "MWU exact";
    else if (strcmp(m, "mann-whitney-normal") == 0)
        how = "MWU normal";
    else if (strcmp(m, "bootstrap") == 0)
        how = "bootstrap CI: too few steps for MWU";
    snprintf(buf, n, "%s (%s)",
             cJSON_IsTrue(pr_sget(noise, "significant")) ? "significant"
                                                         : "within noise",
             how);
}
/* "+48.8 to +78.5%", or a dash without a test. */
static void
interval_text(const cJSON *noise, char *buf, size_t n)
{
    double lo = pr_sget_num(noise, "ci_lo_pct"),
           hi = pr_sget_num(noise, "ci_hi_pct");
    char a[64], b[64];

    if (!isfinite(lo) || !isfinite(hi)) {
        pr_dfmt_pct(NAN, buf, n);
        return;
    }
    pr_dfmt_pct(lo, a, sizeof(a));
    if (strchr(a, '%') != NULL)
        *strchr(a, '%') = '\0'; /* the unit once, at the end */
    snprintf(buf, n, "%s to %s", a, pr_dfmt_pct(hi, b, sizeof(b)));
}

/* "step.mean", "memory.peak GPU0", "gpu.utilization GPU 3" ("NPU 3" on
 * an Ascend pair: the row's device_label), "rate.op aten::copy_ GPU 0" (a
 * figure of one operator or kernel names it). */
static void
figure_name(const cJSON *row, char *buf, size_t n)
{
    const cJSON *dev = pr_sget(row, PR_K_DEVICE);
    char m[120];

    if (pr_sget_str(row, PR_K_NAME) != NULL)
        snprintf(m, sizeof(m), "%s %s", pr_sget_str_or(row, "metric", "?"),
                 pr_sget_str(row, PR_K_NAME));
    else
        snprintf(m, sizeof(m), "%s", pr_sget_str_or(row, "metric", "?"));

    /* a solo pair of two ids (GPU 3 last night, GPU 1 tonight): the
       metric alone, the pair named under Comparability */
    if (pr_sget(row, "device_current") != NULL)
        snprintf(buf, n, "%s", m);
    else if (cJSON_IsString(dev))
        snprintf(buf, n, "%s %s", m, dev->valuestring);
    else if (cJSON_IsString(pr_sget(row, "device_label")))
        snprintf(buf, n, "%s %s", m, pr_sget_str(row, "device_label"));
    else if (cJSON_IsNumber(dev))
        snprintf(buf, n, "%s GPU %d", m, dev->valueint);
    else
        snprintf(buf, n, "%s", m);
}

/* Figures where a rise is good: the share of the window a device was
 * busy (utilization, SM efficiency, occupancy), the tensor-core share
 * of kernel time and the work done per second of a capture (rate.*);
 * for every other figure (times, memory) lower is better. */
static int
higher_is_better(const char *metric)
{
    return strncmp(metric, "gpu.", 4) == 0 || strncmp(metric, "tc.", 3) == 0 ||
           strncmp(metric, "rate.", 5) == 0; /* work per second */
}

/* Which way a figure row's change goes (PR_FIG_CHANGE_DIR): "worse",
 * "better", or "none" for no change, no value or a figure not
 * compared. */
static const char *
figure_dir(const cJSON *row)
{
    double d = pr_sget_num(row, "delta");
    int up = d > 0;

    if (!(d > 0 || d < 0) || cJSON_IsFalse(pr_sget(row, "comparable")))
        return "none";
    return up != higher_is_better(pr_sget_str_or(row, "metric", "")) ? "worse"
                                                                     : "better";
}

/* Append s to the table's note when all of it fits (a cut sentence reads
 * as another), a space before it; 0 when it did not fit. */
static int
note_add(struct pr_dtable *t, const char *s)
{
    size_t at = strlen(t->note), len = strlen(s);

    if (at + (at > 0) + len + 1 > sizeof(t->note))
        return 0;
    if (at > 0)
        t->note[at++] = ' ';
    memcpy(t->note + at, s, len + 1);
    return 1;
}

/* The note of an occupancy row not compared (compare.c's
 * occupancy_basis), marked `mark`: which side leaves out how much of its
 * kernel time, and why (review 27 #6: the reason in the Change cell
 * widened the table past a terminal, a PDF cell and a 1300 px page). */
static void
occupancy_note(struct pr_dtable *t, const cJSON *row, char mark)
{
    double ub = pr_sget_num(row, "occupancy_unknown_baseline_pct");
    double uc = pr_sget_num(row, "occupancy_unknown_current_pct");
    char s[400], sides[200];

    if (ub > 0 && uc > 0)
        snprintf(sides, sizeof(sides),
                 "%.1f%% of the baseline's kernel time and %.1f%% of the "
                 "current's",
                 ub, uc);
    else
        snprintf(sides, sizeof(sides),
                 "%.1f%% of the %s kernel time, none "
                 "of the %s",
                 ub > 0 ? ub : uc, ub > 0 ? "baseline's" : "current's",
                 ub > 0 ? "current's" : "baseline's");
    snprintf(s, sizeof(s),
             "(%c) occupancy not known for %s: kernels over 48 KiB of shared "
             "memory, whose occupancy the profiler does not compute (it "
             "writes 0), so the two means are not over the same kernels.",
             mark, sides);
    note_add(t, s);
}

/* The first clause of a run's utilization note (up to its ';'), and the
 * next one where it qualifies the first ("all is HCCL tasks; the trace
 * holds no compute tasks for this device, though ...": without it "all"
 * reads as the device's, review 29 #4: ms_cluster4's ranks 2/3 compute
 * 123 ms a step). */
static void
first_clause(const char *note, char *buf, size_t n)
{
    size_t len = strcspn(note, ";");

    if (note[len] == ';' &&
        strncmp(note + len, "; the trace holds no", 20) == 0)
        len += 1 + strcspn(note + len + 1, ";");

    snprintf(buf, n, "%.*s", (int)(len < n ? len : n - 1), note);
}

/* Each run's own note on a device's utilization (compare.c's
 * utilization_notes: "of 96.7% busy, all is HCCL tasks"), under the
 * figures: once when both runs say the same, else each side's (review 27
 * #10b: an NPU's 96.7% is HCCL waiting). */
static void
utilization_note(struct pr_dtable *t, const cJSON *row, const char *name)
{
    const char *nb = pr_sget_str(row, "note_baseline");
    const char *nc = pr_sget_str(row, "note_current");
    char a[600], b[600], s[1500];

    if (nb == NULL && nc == NULL)
        return;
    first_clause(nb ? nb : "", a, sizeof(a));
    first_clause(nc ? nc : "", b, sizeof(b));
    /* "utilization counts HCCL tasks as busy: of ..." on both sides: what
       it counts once, then each side's figures */
    const char *ta = strstr(a, ": "), *tb = strstr(b, ": ");
    size_t head = ta != NULL ? (size_t)(ta - a) : 0;
    int same_head = ta != NULL && tb != NULL && head == (size_t)(tb - b) &&
                    strncmp(a, b, head) == 0 &&
                    strncmp(a, "utilization ", 12) == 0;
    if (nb != NULL && nc != NULL && same_head && strcmp(ta, tb) == 0)
        snprintf(s, sizeof(s), "%s %.*s: %s (both runs).", name,
                 (int)(head - 12), a + 12, ta + 2);
    else if (nb != NULL && nc != NULL && same_head)
        snprintf(s, sizeof(s), "%s %.*s: baseline %s; current %s.", name,
                 (int)(head - 12), a + 12, ta + 2, tb + 2);
    else if ((nb == NULL || nc == NULL) && ta != NULL && nb != NULL &&
             strncmp(a, "utilization ", 12) == 0)
        snprintf(s, sizeof(s), "%s %.*s: baseline %s.", name, (int)(head - 12),
                 a + 12, ta + 2);
    else if ((nb == NULL || nc == NULL) && tb != NULL && nc != NULL &&
             strncmp(b, "utilization ", 12) == 0)
        snprintf(s, sizeof(s), "%s %.*s: current %s.", name, (int)(tb - b - 12),
                 b + 12, tb + 2);
    else if (nb != NULL && nc != NULL && strcmp(a, b) == 0)
        snprintf(s, sizeof(s), "%s: %s (both runs).", name, a);
    else if (nb != NULL && nc != NULL)
        snprintf(s, sizeof(s), "%s: baseline: %s; current: %s.", name, a, b);
    else
        snprintf(s, sizeof(s), "%s, %s: %s.", name,
                 nb != NULL ? "baseline" : "current", nb != NULL ? a : b);
    note_add(t, s);
}

static int
figure_row(struct pr_dtable *t, const cJSON *row, int *marks)
{
    const cJSON *noise = pr_sget(row, "noise");
    const char *unit = pr_sget_str(row, "unit");
    char name[160], v1[64], v2[64], dl[64], pct[64], change[140];
    char p[64], ci[140], txt[80];
    const char *vals[7] = {name, v1, v2, change, p, ci, txt};

    figure_name(row, name, sizeof(name));
    pr_dfmt_pair(pr_sget_num(row, "baseline"), pr_sget_num(row, "current"),
                 unit, v1, v2, sizeof(v1));
    pr_dfmt_delta(pr_sget_num(row, "delta"), unit, dl, sizeof(dl));
    /* in pp, or from a baseline of 0 or none: no percentage, not "- -" */
    if (pr_sget_is(unit, "pct") || isnan(pr_sget_num(row, "delta_pct")))
        snprintf(change, sizeof(change), "%s", dl);
    else
        snprintf(change, sizeof(change), "%s %s", dl,
                 pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct, sizeof(pct)));
    /* the p of the test that decided: none when the interval did (a
       rank test that cannot reach alpha would read as the decision) */
    pr_dfmt_p(pr_sget_is(pr_sget_str(noise, PR_K_METHOD), "bootstrap")
                  ? NAN
                  : pr_sget_num(noise, "p_value"),
              p, sizeof(p));
    interval_text(noise, ci, sizeof(ci));
    noise_text(noise, txt, sizeof(txt));
    if (cJSON_IsFalse(pr_sget(row, "comparable"))) {
        /* no change shown for a figure the gates refused to compare */
        snprintf(change, sizeof(change), "not compared (%s)",
                 pr_dshort_why(pr_sget_str(row, "not_comparable")));
        /* a reason too long for a cell: a mark on the figure and in the
           cell (a terminal that hides the Change column still shows
           it), the reason under the table */
        if (isfinite(pr_sget_num(row, "occupancy_unknown_baseline_pct")) &&
            *marks < 26) {
            char mark = (char)('a' + (*marks)++);
            size_t len = strlen(name);
            snprintf(change, sizeof(change), "not compared (%c)", mark);
            snprintf(name + len, sizeof(name) - len, " (%c)", mark);
            occupancy_note(t, row, mark);
        }
        pr_dfmt_p(NAN, p, sizeof(p));
        pr_dfmt_pct(NAN, ci, sizeof(ci));
        snprintf(txt, sizeof(txt), "not compared");
    }
    if (add_row(t, vals, NULL) != 0)
        return -1;
    return cJSON_AddStringToObject(
               cJSON_GetArrayItem(t->rows, cJSON_GetArraySize(t->rows) - 1),
               PR_FIG_CHANGE_DIR, figure_dir(row)) != NULL
               ? 0
               : -1;
}

/* Issue #29: breakdown.communication is the exposed communication on both
 * sides; the collectives' whole time per step beside it, where the row
 * has it (compare.c's comm_totals), and the hidden part, the total less
 * the exposed, so that an exposed part and a total that move apart read
 * as more (or less) of it hidden (HTA trace_diff: exposed 14.4 -> 9.59 ms
 * while the total rose 27.3 -> 36.6 ms: hidden 12.9 -> 27.0 ms).  On an
 * Ascend diff (npu) in the producer's words: step_trace_time.csv's
 * Communication(Not Overlapped), Communication and Overlapped columns
 * (torch_npu's, MindSpore's and msprof-analyze's), not HTA's. */
static void
comm_note(struct pr_dtable *t, const cJSON *row, int capture, int npu)
{
    double tb = pr_sget_num(row, "total_baseline_us");
    double tc = pr_sget_num(row, "total_current_us");
    double eb = pr_sget_num(row, "baseline"), ec = pr_sget_num(row, "current");
    double hb = tb - eb, hc = tc - ec;
    char name[160], a[64], b[64], p[64], ha[64], hb_[64], hp[64], s[1400];
    int same;
    size_t len;

    if (!isfinite(tb) || !isfinite(tc))
        return;
    figure_name(row, name, sizeof(name));
    same = fabs(hb) < 0.5 && fabs(hc) < 0.5;

    pr_dfmt_pair(tb, tc, "us", a, b, sizeof(a));
    p[0] = '\0';
    if (tb > 0)
        pr_dfmt_pct(100.0 * (tc / tb - 1.0), p, sizeof(p));
    len = (size_t)snprintf(
        s, sizeof(s),
        "%s is %s on both sides%s: collective time beside %s. The "
        "collectives' %s time per %s, %s, is %s (baseline) -> %s "
        "(current)%s%s%s.",
        name,
        npu ? "Communication(Not Overlapped)" : "the exposed communication",
        npu ? ", as step_trace_time.csv names it" : "",
        npu ? "no computing task" : "no compute kernel, copy or fill",
        npu ? "whole" : "total", capture ? "capture" : "step",
        npu ? "overlapped or not (its Communication)" : "hidden or not", a, b,
        p[0] ? ", " : "", p,
        !same ? ""
        : npu ? ", the same as Communication(Not Overlapped) on both sides: "
                "none of it overlapped a computing task"
              : ", the same as the exposed on both sides: none of it ran "
                "beside a compute kernel, copy or fill");
    if (!same && len < sizeof(s) && hb >= 0 && hc >= 0) {
        /* the part hidden, total less exposed: where the exposed part
           and the total move apart, the hidden part explains it */
        int apart = (ec - eb) * (tc - tb) < 0;

        if (hb < 0.5)
            hb = 0;
        if (hc < 0.5)
            hc = 0;
        pr_dfmt_pair(hb, hc, "us", ha, hb_, sizeof(ha));
        hp[0] = '\0';
        if (hb > 0)
            pr_dfmt_pct(100.0 * (hc / hb - 1.0), hp, sizeof(hp));
        snprintf(s + len, sizeof(s) - len,
                 " The %s part (%s less %s) is %s (baseline) -> %s "
                 "(current)%s%s%s%s%s.",
                 npu ? "overlapped" : "hidden",
                 npu ? "Communication" : "the total",
                 npu ? "Communication(Not Overlapped)" : "the exposed", ha, hb_,
                 hp[0] ? ", " : "", hp, apart ? ": " : "",
                 apart ? (hc > hb ? "more" : "less") : "",
                 !apart ? ""
                 : npu  ? " of it overlapped a computing task, so "
                          "Communication(Not Overlapped) and Communication "
                          "moved apart"
                        : " of it ran beside compute, so the exposed part "
                          "and the total moved apart");
    }
    note_add(t, s);
}

int
pr_dtable_figures(struct pr_dtable *t, const cJSON *pair, const cJSON *diff)
{
    const cJSON *row;
    int capture = cJSON_IsTrue(pr_sget(pair, "per_capture"));
    int marks = 0;

    if (table_init(t, figure_cols, N_OF(figure_cols)) != 0)
        return -1;
    cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
    {
        double x = pr_sget_num(row, "baseline"),
               y = pr_sget_num(row, "current");
        if ((isnan(x) && isnan(y)) || (x == 0 && y == 0))
            continue; /* a figure neither run has: idle ones clutter */
        /* runs without steps: their "step" is the capture, whose length
           the Comparability note gives; no step row reads as a speed
           (review 22g #1) */
        if (capture &&
            strncmp(pr_sget_str_or(row, "metric", ""), "step.", 5) == 0)
            continue;
        if (figure_row(t, row, &marks) != 0)
            return -1;
    }
    /* the runs' own words on what their utilization counts, after the
       marks' reasons */
    cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
    {
        char name[160];
        double x = pr_sget_num(row, "baseline"),
               y = pr_sget_num(row, "current");
        if ((isnan(x) && isnan(y)) || (x == 0 && y == 0) ||
            !pr_sget_is(pr_sget_str(row, "metric"), "gpu.utilization"))
            continue;
        figure_name(row, name, sizeof(name));
        utilization_note(t, row, name);
    }
    cJSON_ArrayForEach(row, pr_sget(pair, "metrics"))
    {
        if (pr_sget_is(pr_sget_str(row, "metric"), "breakdown.communication"))
            comm_note(t, row, capture,
                      strcmp(pr_ddevice_word(diff), "NPU") == 0);
    }
    return 0;
}

/* "a -> b" of a row's two figures (`fmt`; a dash for a side without
 * one), or "" when neither side has one. */
static void
both_sides(const cJSON *row, const char *kb, const char *kc, enum pr_fmt fmt,
           char *buf, size_t n)
{
    char a[64], b[64];
    double x = pr_sget_num(row, kb), y = pr_sget_num(row, kc);

    if (isnan(x) && isnan(y)) {
        buf[0] = '\0';
        return;
    }
    pr_fig_format(x, fmt, a, sizeof(a));
    pr_fig_format(y, fmt, b, sizeof(b));
    snprintf(buf, n, "%s -> %s", a, b);
}

/* One side's calls: "34", "34 (32 timed)" where the mean time per call
 * is over fewer calls than were made (a kernel without its host call, a
 * call without its kernel), a dash for a side without the collective. */
static void
coll_calls_side(const cJSON *row, const char *side, char *buf, size_t n)
{
    char k[40], a[64];
    double calls, timed;

    snprintf(k, sizeof(k), "calls_%s", side);
    calls = pr_sget_num(row, k);
    snprintf(k, sizeof(k), "timed_calls_%s", side);
    timed = pr_sget_num(row, k);
    pr_fig_format(calls, PR_FMT_COUNT, a, sizeof(a));
    if (isfinite(calls) && isfinite(timed) && timed != calls)
        snprintf(buf, n, "%s (%.0f timed)", a, timed);
    else
        snprintf(buf, n, "%s", a);
}

/* One side's bytes: all its calls', or those of its sized calls with
 * their count ("1.12 GiB (18/21)") where not every call has a size;
 * a dash where none has. */
static void
coll_bytes_side(const cJSON *row, const char *side, char *buf, size_t n)
{
    char k[40], a[64];
    double total, sized, sized_calls, calls;

    snprintf(k, sizeof(k), "bytes_%s", side);
    total = pr_sget_num(row, k);
    snprintf(k, sizeof(k), "sized_bytes_%s", side);
    sized = pr_sget_num(row, k);
    snprintf(k, sizeof(k), "sized_calls_%s", side);
    sized_calls = pr_sget_num(row, k);
    snprintf(k, sizeof(k), "calls_%s", side);
    calls = pr_sget_num(row, k);
    if (!isfinite(total) && isfinite(sized) && sized_calls > 0 &&
        isfinite(calls) && sized_calls < calls) {
        pr_fig_format(sized, PR_FMT_BYTES, a, sizeof(a));
        snprintf(buf, n, "%s (%.0f/%.0f)", a, sized_calls, calls);
    } else
        pr_fig_format(total, PR_FMT_BYTES, buf, n);
}

/* The note under the collectives table: which figures are over part of
 * the calls, and the group sizes that differ (busbw scales algbw by the
 * group: another group size is another factor, not another link). */
static void
coll_note(struct pr_dtable *t, const cJSON *pair)
{
    static const char *const sides[2] = {"baseline", "current"};
    const cJSON *row;
    size_t at = 0, cap = sizeof(t->note);
    int groups = 0, k;

    t->note[0] = '\0';
    cJSON_ArrayForEach(row, pr_sget(pair, "collectives"))
    {
        for (k = 0; k < 2 && at + 1 < cap; k++) {
            char key[40];
            double calls, sized, timed, bw;
            snprintf(key, sizeof(key), "bytes_%s", sides[k]);
            if (isfinite(pr_sget_num(row, key)))
                continue;
            snprintf(key, sizeof(key), "calls_%s", sides[k]);
            calls = pr_sget_num(row, key);
            snprintf(key, sizeof(key), "sized_calls_%s", sides[k]);
            sized = pr_sget_num(row, key);
            snprintf(key, sizeof(key), "timed_calls_%s", sides[k]);
            timed = pr_sget_num(row, key);
            snprintf(key, sizeof(key), "bw_calls_%s", sides[k]);
            bw = pr_sget_num(row, key);
            if (!(sized > 0) || !isfinite(calls) || sized >= calls)
                continue;
            if (!isfinite(timed))
                timed = calls;
            if (!isfinite(bw))
                bw = sized;
            at += (size_t)snprintf(
                t->note + at, cap - at,
                "%s%s, %s: %.0f of its %.0f calls have a size in the trace; "
                "its bytes are of those %.0f, its algbw and busbw over the "
                "%.0f both sized and timed, its time per call over all "
                "%.0f timed.",
                at > 0 ? " " : "", pr_sget_str_or(row, PR_K_NAME, "?"),
                sides[k], sized, calls, sized, bw, timed);
        }
    }
    cJSON_ArrayForEach(row, pr_sget(pair, "collectives"))
    {
        double gb = pr_sget_num(row, "group_size_baseline");
        double gc = pr_sget_num(row, "group_size_current");
        if (!isfinite(gb) || !isfinite(gc) || gb == gc || at + 1 >= cap)
            continue;
        at += (size_t)snprintf(t->note + at, cap - at, "%s%s %s %.0f -> %.0f",
                               at > 0 && groups == 0 ? " " : "",
                               groups == 0 ? "Group sizes differ (busbw "
                                             "scales algbw by the group, so "
                                             "its change is not the link's):"
                                           : ";",
                               pr_sget_str_or(row, PR_K_NAME, "?"), gb, gc);
        groups++;
    }
    if (groups > 0 && at + 1 < cap)
        snprintf(t->note + at, cap - at, ".");
    /* review 27 #7: opposite signs across ranks are the wait moving */
    cJSON_ArrayForEach(row, pr_sget(pair, "collectives"))
    {
        const cJSON *sk = pr_sget(row, "rank_skew");
        char s[700], up[64], down[64], fb[64], fc[64], fp[64];
        if (sk == NULL)
            continue;
        pr_dfmt_pct(pr_sget_num(sk, "up_pct"), up, sizeof(up));
        pr_dfmt_pct(pr_sget_num(sk, "down_pct"), down, sizeof(down));
        pr_dfmt_pair(pr_sget_num(sk, "fastest_baseline_us"),
                     pr_sget_num(sk, "fastest_current_us"), "us", fb, fc,
                     sizeof(fb));
        pr_dfmt_pct(pr_sget_num(sk, "fastest_delta_pct"), fp, sizeof(fp));
        snprintf(s, sizeof(s),
                 "%s: its time per call changed %s on %s and %s on %s: a "
                 "call lasts until the slowest rank arrives, so opposite "
                 "signs are the wait moving between ranks, not the "
                 "transfer; the fastest rank's time per call, %s (%s) -> "
                 "%s (%s), %s, still holds that rank's own wait in the "
                 "calls another rank reached last, so its change is not "
                 "the transfer's alone.",
                 pr_sget_str_or(row, PR_K_NAME, "?"), up,
                 pr_sget_str_or(sk, "up_run", "?"), down,
                 pr_sget_str_or(sk, "down_run", "?"), fb,
                 pr_sget_str_or(sk, "fastest_baseline_run", "?"), fc,
                 pr_sget_str_or(sk, "fastest_current_run", "?"), fp);
        note_add(t, s);
    }
}

int
pr_dtable_collectives(struct pr_dtable *t, const cJSON *pair)
{
    const cJSON *row;
    size_t n_cols = N_OF(coll_cols) - 3;

    /* bytes and bandwidths only where some side has them (nsys captures
       size no call): three empty columns squeeze the others' headers */
    cJSON_ArrayForEach(row, pr_sget(pair, "collectives"))
    {
        if (isfinite(pr_sget_num(row, "bytes_baseline")) ||
            isfinite(pr_sget_num(row, "bytes_current")) ||
            pr_sget_num(row, "sized_bytes_baseline") > 0 ||
            pr_sget_num(row, "sized_bytes_current") > 0 ||
            isfinite(pr_sget_num(row, "algbw_baseline_gbps")) ||
            isfinite(pr_sget_num(row, "algbw_current_gbps")))
            n_cols = N_OF(coll_cols);
    }
    if (table_init(t, coll_cols, n_cols) != 0)
        return -1;
    cJSON_ArrayForEach(row, pr_sget(pair, "collectives"))
    {
        char calls[200], size[200], v1[64], v2[64], pct[64], alg[140], bus[140];
        char a[96], b[96];
        const char *vals[8] = {pr_sget_str_or(row, PR_K_NAME, "?"),
                               calls,
                               v1,
                               v2,
                               pct,
                               size,
                               alg,
                               bus};
        const char *st = pr_sget_str(row, "status");
        coll_calls_side(row, "baseline", a, sizeof(a));
        coll_calls_side(row, "current", b, sizeof(b));
        snprintf(calls, sizeof(calls), "%s -> %s", a, b);
        coll_bytes_side(row, "baseline", a, sizeof(a));
        coll_bytes_side(row, "current", b, sizeof(b));
        if (isnan(pr_sget_num(row, "bytes_baseline")) &&
            isnan(pr_sget_num(row, "bytes_current")) &&
            !(pr_sget_num(row, "sized_bytes_baseline") > 0) &&
            !(pr_sget_num(row, "sized_bytes_current") > 0))
            size[0] = '\0'; /* neither side sized: no "- -> -" */
        else
            snprintf(size, sizeof(size), "%s -> %s", a, b);
        both_sides(row, "algbw_baseline_gbps", "algbw_current_gbps", PR_FMT_NUM,
                   alg, sizeof(alg));
        both_sides(row, "busbw_baseline_gbps", "busbw_current_gbps", PR_FMT_NUM,
                   bus, sizeof(bus));
        pr_dfmt_pair(pr_sget_num(row, "baseline_us"),
                     pr_sget_num(row, "current_us"), "us", v1, v2, sizeof(v1));
        if (pr_sget_is(st, "new") || pr_sget_is(st, "vanished"))
            vals[4] = st;
        else if (cJSON_IsFalse(pr_sget(row, "comparable")))
            /* compat.c check_first_only: a warm-up against steady steps */
            vals[4] = "not compared (see Comparability)";
        else
            pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct, sizeof(pct));
        if (add_row(t, vals, NULL) != 0)
            return -1;
    }
    coll_note(t, pair);
    return 0;
}

/* One side's calls, a mean per run (per capture): a count where it is
 * whole, else with its half ("16.5": the runs differ), never rounded to
 * a count no run had (review 23g #7). */
static void
calls_one(double v, char *buf, size_t n)
{
    if (isfinite(v) && v != floor(v) && v < 1e6)
        snprintf(buf, n, "%.1f", v);
    else
        pr_fig_format_x(v, PR_FMT_COUNT, 0, buf, n);
}

/* "34 -> 30", "16.5 -> 15", "- -> 12" (a side without the row), mean
 * calls per capture. */
static void
calls_text(const cJSON *row, char *buf, size_t n)
{
    char a[64], b[64];
    const char *st = pr_sget_str(row, "status");
    double x = pr_sget_num(row, "calls_baseline");
    double y = pr_sget_num(row, "calls_current");

    calls_one(pr_sget_is(st, "new") ? NAN : x, a, sizeof(a));
    calls_one(pr_sget_is(st, "vanished") ? NAN : y, b, sizeof(b));
    snprintf(buf, n, "%s -> %s", a, b);
}

static int
change_row(struct pr_dtable *t, const cJSON *row, int want)
{
    char v1[64], v2[64], dl[64], pct[64], calls[140];
    const char *vals[6] = {NULL, v1, v2, dl, pct, calls};
    int by_call = pr_sget_is(pr_sget_str(row, "per"), "call");

    calls_text(row, calls, sizeof(calls)); /* last, per step */

    if (by_call) {
        /* the calls column after the name */
        vals[1] = calls;
        vals[2] = v1;
        vals[3] = v2;
        vals[4] = dl;
        vals[5] = pct;
    }
    vals[0] = pr_sget_str_or(row, PR_K_NAME, "?");
    pr_dfmt_pair(pr_drow_us(row, "baseline_us"), pr_drow_us(row, "current_us"),
                 "us", v1, v2, sizeof(v1));
    pr_dfmt_delta(pr_sget_num(row, "delta_us"), "us", dl, sizeof(dl));
    if (want == 0)
        vals[by_call ? 5 : 4] = pr_sget_str(row, "status");
    else
        pr_dfmt_pct(pr_sget_num(row, "delta_pct"), pct, sizeof(pct));
    return add_row(t, vals, pr_sget_str(row, PR_K_INPUT_SHAPES));
}

const struct pr_dchange pr_dchanges[PR_N_DCHANGES] = {
    {"operators", "Operators", "operators", "device self time per step", "name",
     0, 1},
    {"kernels", "Kernels", "kernels", "device time per step", "name", 0, 0},
    {"sources", "Source locations", "source locations",
     "device self time per step", "file:line (function)", 1, 0},
    {"modules", "Modules", "modules", "device total time per step",
     "module path", 1, 0},
};

const struct pr_dkind pr_dkinds[PR_N_DKINDS] = {
    {"Top regressions", 1},
    {"Top improvements", -1},
    {"New and vanished", 0},
};

const char *
pr_dchange_measure(const struct pr_dchange *c, const cJSON *diff)
{
    if (!pr_dno_steps(diff))
        return c->measure;
    return strcmp(c->key, "operators") == 0 || strcmp(c->key, "sources") == 0
               ? "mean device self time per call; no steps"
           : strcmp(c->key, "kernels") == 0
               ? "mean device time per call; no steps"
               : "mean device total time per call; no steps";
}

void
pr_dside_text(const cJSON *side, char *buf, size_t n)
{
    if (cJSON_IsTrue(pr_sget(side, "no_steps")))
        snprintf(buf, n, "runs: %.0f, no steps", pr_sget_num(side, PR_K_RUNS));
    else
        snprintf(buf, n, "runs: %.0f, steps: %.0f",
                 pr_sget_num(side, PR_K_RUNS), pr_sget_num(side, PR_K_STEPS));
}

const char *
pr_dpair_per(const cJSON *pair)
{
    return cJSON_IsTrue(pr_sget(pair, "per_capture")) ? "per capture; no steps"
                                                      : "per step";
}

int
pr_dno_steps(const cJSON *diff)
{
    return cJSON_IsTrue(pr_sget(pr_sget(diff, "baseline"), "no_steps")) &&
           cJSON_IsTrue(pr_sget(pr_sget(diff, "current"), "no_steps"));
}

int
pr_dchange_shown(const struct pr_dchange *c, const cJSON *diff)
{
    return !c->optional || pr_sget_len(pr_sget(diff, c->key)) > 0;
}

void
pr_dchanges_put(struct pr_buf *b, const cJSON *diff, size_t top,
                void (*head)(struct pr_buf *, const struct pr_dchange *,
                             const struct pr_dkind *, const char *),
                void (*layout)(struct pr_buf *, const struct pr_dtable *))
{
    struct pr_dtable tab;
    size_t t, k;

    for (t = 0; t < PR_N_DCHANGES; t++) {
        const struct pr_dchange *c = &pr_dchanges[t];
        if (!pr_dchange_shown(c, diff))
            continue;
        head(b, c, NULL, pr_dchange_measure(c, diff));
        for (k = 0; k < PR_N_DKINDS; k++) {
            head(b, c, &pr_dkinds[k], pr_dchange_measure(c, diff));
            pr_dtable_put(b, &tab,
                          pr_dtable_changes_calls(
                              &tab, pr_sget(diff, c->key), pr_dkinds[k].want,
                              top,
                              (size_t)pr_sget_len(pr_sget(diff, PR_K_RUNS)),
                              c->step_calls),
                          layout);
        }
    }
}

int
pr_dtable_changes(struct pr_dtable *t, const cJSON *arr, int want, size_t top,
                  size_t n_pairs)
{
    return pr_dtable_changes_calls(t, arr, want, top, n_pairs, 0);
}

int
pr_dtable_changes_calls(struct pr_dtable *t, const cJSON *arr, int want,
                        size_t top, size_t n_pairs, int step_calls)
{
    const cJSON *row;
    const char *why = NULL;
    size_t n = 0, left = 0, below = 0, other = 0, same2 = 0;
    const char *why2 = NULL;
    size_t at;

    int by_call =
        pr_sget_is(pr_sget_str(cJSON_GetArrayItem(arr, 0), "per"), "call");

    /* over several runs a side's calls are a mean per rank ("253.5 ->
       226"), not one run's (review24 #5) */
    if (by_call && n_pairs > 1)
        by_call = 2;
    if (by_call
            ? (want == 0
                   ? table_init(t,
                                by_call == 2 ? call_status_ranks_cols
                                             : call_status_cols,
                                N_OF(call_status_cols))
                   : table_init(t, by_call == 2 ? call_ranks_cols : call_cols,
                                N_OF(call_cols)))
            : (want == 0
                   ? table_init(t, status_cols, N_OF(status_cols) - !step_calls)
                   : table_init(t, change_cols,
                                N_OF(change_cols) - !step_calls)))
        return -1;
    t->names_from = arr; /* a name reads as in the list's other tables */
    cJSON_ArrayForEach(row, arr)
    {
        if (!pr_drow_wanted(row, want))
            continue;
        /* a change the diff did not compare (a whole capture against a
           step, different windows) is no top regression or improvement:
           counted, not listed (review 20) */
        if ((want != 0 || pr_sget_is(pr_sget_str(row, "not_comparable"),
                                     PR_DNO_TASKS_WHY)) &&
            cJSON_IsFalse(pr_sget(row, "comparable"))) {
            const char *w = pr_sget_str(row, "not_comparable");
            if (why == NULL)
                why = w;
            else if (strcmp(pr_dshort_why(why), pr_dshort_why(w)) != 0) {
                other++; /* another reason than the first row's */
                if (why2 == NULL)
                    why2 = w;
                same2 += strcmp(pr_dshort_why(why2), pr_dshort_why(w)) == 0;
            }
            left++;
            continue;
        }
        /* per call, a change under the floor is no regression nor
           improvement (review 23g #7: +0.1% on a kernel whose calls vary
           more) */
        if (by_call && want != 0 &&
            !(fabs(pr_sget_num(row, "delta_pct")) >= PR_DCALL_FLOOR_PCT)) {
            below++;
            continue;
        }
        if (n == top)
            continue;
        if (change_row(t, row, want) != 0)
            return -1;
        n++;
    }
    at = 0;
    if (left > 0) {
        char more[200] = "";
        int w;
        /* rows left out for several reasons: how many for the first's */
        if (other > 0 && same2 == other)
            snprintf(more, sizeof(more), "%zu %s; %zu %s", left - other,
                     pr_dshort_why(why), other, pr_dshort_why(why2));
        else if (other > 0)
            snprintf(more, sizeof(more), "%zu %s; %zu for other reasons",
                     left - other, pr_dshort_why(why), other);
        w = snprintf(t->note, sizeof(t->note),
                     "%zu row%s not compared (%s) left out of this list; the "
                     "JSON diff keeps %s.",
                     left, left == 1 ? "" : "s",
                     other > 0 ? more : pr_dshort_why(why),
                     left == 1 ? "it" : "them");
        at = w > 0 && (size_t)w < sizeof(t->note) ? (size_t)w : 0;
    }
    if (below > 0)
        snprintf(t->note + at, sizeof(t->note) - at,
                 "%s%zu row%s changed under %g%% a call (not listed).",
                 at > 0 ? " " : "", below, below == 1 ? "" : "s",
                 PR_DCALL_FLOOR_PCT);
    return 0;
}

/* "CROSSED step.mean>+5%: detail; ok memory.peak>+1GiB: detail", or
 * "first night" for a night with nothing before it. */
static void
gates_text(const cJSON *night, char *buf, size_t n)
{
    static const char *const keys[] = {"gates", "gates_vs_first"};
    static const char *const vs[] = {"", " (vs the first night)"};
    const cJSON *g;
    size_t at = 0, k;

    buf[0] = '\0';
    for (k = 0; k < 2; k++) {
        char why[200];

        /* the comparison's warnings first: "not comparable (devices
           differ; world size differs)" */
        if (pr_dtrend_warn_words(night, keys[k], why, sizeof(why)) && at < n) {
            int w = snprintf(buf + at, n - at, "%sNOT COMPARABLE%s (%s)",
                             at > 0 ? "; " : "", vs[k], why);
            at += w > 0 ? (size_t)w : 0;
        }
        cJSON_ArrayForEach(g, pr_sget(night, keys[k]))
        {
            const char *res = pr_sget_str(g, "result");
            int w;
            if (at >= n)
                break;
            w = snprintf(buf + at, n - at, "%s%s %s%s: %s", at > 0 ? "; " : "",
                         pr_sget_is(res, "fail")      ? "CROSSED"
                         : pr_sget_is(res, "skipped") ? "skipped"
                                                      : "ok",
                         pr_sget_str_or(g, PR_K_RULE, "?"), vs[k],
                         pr_sget_str_or(g, "detail", ""));
            at += w > 0 ? (size_t)w : 0;
        }
    }
    if (at == 0)
        snprintf(buf, n, "%s", "first night");
}

/* The nights' values at `key` (NAN where a night lacks one), and the
 * extra decimals at which every two nights in a row that differ read
 * apart (figures.h); *extra 0 on out-of-memory. */
static double *
night_column(const cJSON *nights, const char *key, enum pr_fmt f, int *extra)
{
    size_t n = (size_t)pr_sget_len(nights), i = 0;
    double *v = malloc((n ? n : 1) * sizeof(*v));
    const cJSON *night;

    *extra = 0;
    if (v == NULL)
        return NULL;
    cJSON_ArrayForEach(night, nights)
    {
        v[i++] = pr_sget_num(night, key);
    }
    *extra = pr_fig_extra_digits(v, i, f);
    return v;
}

int
pr_dtable_nights(struct pr_dtable *t, const cJSON *trend)
{
    static const char *const keys[3] = {"step_mean_us", "step_p90_us",
                                        "memory_peak_bytes"};
    static const enum pr_fmt fmts[3] = {PR_FMT_US, PR_FMT_US, PR_FMT_BYTES};
    const cJSON *night, *nights = pr_sget(trend, "nights");
    char idx[16], num[3][64], gates[1000];
    const char *vals[7] = {idx, NULL, num[0], num[1], num[2], NULL, gates};
    double *col[3] = {NULL, NULL, NULL};
    int extra[3], i = 0, rc = 0;
    int capture = cJSON_IsTrue(pr_sget(trend, "no_steps"));
    size_t k, crossed = 5;

    if (capture) {
        /* # input capture memory crossed gates */
        vals[3] = num[2];
        vals[4] = NULL;
        vals[5] = gates;
        crossed = 4;
        if (table_init(t, night_capture_cols, N_OF(night_capture_cols)) != 0)
            return -1;
    } else if (table_init(t, night_cols, N_OF(night_cols)) != 0)
        return -1;
    for (k = 0; k < 3; k++)
        if ((col[k] = night_column(nights, keys[k], fmts[k], &extra[k])) ==
            NULL)
            rc = -1;
    cJSON_ArrayForEach(night, nights)
    {
        if (rc != 0)
            break;
        for (k = 0; k < 3; k++)
            pr_fig_format_x(col[k][i], fmts[k], extra[k], num[k],
                            sizeof(num[k]));
        snprintf(idx, sizeof(idx), "%d", ++i);
        vals[1] = pr_sget_str_or(night, PR_K_LABEL, "?");
        vals[crossed] = cJSON_IsTrue(pr_sget(night, "crossed")) ? "yes" : "no";
        gates_text(night, gates, sizeof(gates));
        rc = add_row(t, vals, NULL);
    }
    for (k = 0; k < 3; k++)
        free(col[k]);
    return rc;
}
