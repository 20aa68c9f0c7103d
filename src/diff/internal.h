/* internal.h - helpers shared by the files of src/diff only: null-safe
 * reads of the summary and diff trees, number formatting for reports, and
 * Markdown cell quoting. */
#ifndef PROFREPORT_DIFF_INTERNAL_H
#define PROFREPORT_DIFF_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "profreport/buf.h"
#include "profreport/chart.h"
#include "profreport/diff_rules.h"
#include "profreport/error.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/shorten.h"

/* o[key] as a number; NAN when o is not an object, the key is missing, or
 * the value is null or not a number. */
double pr_dj_num(const cJSON *o, const char *key);

/* o[key] as a string; NULL when missing or not a string. */
const char *pr_dj_str(const cJSON *o, const char *key);

/* Add key = v to obj, or null when v is not finite.  Returns 0 on
 * out-of-memory. */
int pr_dj_add_num(cJSON *obj, const char *key, double v);

/* Numbers in the diff's reports: figures.h's one formatting (three
 * significant digits, NaN as "–"), by a metric row's unit ("us", "bytes",
 * "pct").  Each writes into buf (n >= 64) and returns it. */
char *pr_dfmt_value(double v, const char *unit, char *buf, size_t n);
/* Baseline and current: more decimals only where they would read alike. */
void pr_dfmt_pair(double x, double y, const char *unit, char *bx, char *by,
                  size_t n);
/* A signed change: "+2.30 µs", "-1.50 MiB", in pp for "pct": "+1.5 pp". */
char *pr_dfmt_delta(double v, const char *unit, char *buf, size_t n);
/* A signed relative change: "+12.3%". */
char *pr_dfmt_pct(double pct, char *buf, size_t n);
/* A p-value: "0.0022", "3.1e-05". */
char *pr_dfmt_p(double p, char *buf, size_t n);

/* Sticky appends for the text reports: on failure set b->failed, which
 * the report checks once at the end.  pr_desc escapes s for HTML and XML
 * text and attributes (NULL reads as ""). */
void pr_dadd(struct pr_buf *b, const char *s);
void pr_desc(struct pr_buf *b, const char *s);

/* Is an operator or kernel change row one that a table `want` shows:
 * > 0 regressions, < 0 improvements, 0 new and vanished? */
int pr_drow_wanted(const cJSON *row, int want);

/* The mean step breakdown of a run pair (its "breakdown" array in
 * pr_keys_breakdown order): vals[0..7] baseline and vals[8..15] current (0
 * where unknown), deltas[k] current minus baseline, *start and *end the
 * two totals. */
void pr_dbreakdown(const cJSON *pair, double vals[16], double deltas[8],
                   double *start, double *end);

/* row["baseline_us"] or row["current_us"] (`key`) for a report, NAN
 * (shown as a dash) for the side a "new" or "vanished" row lacks: the
 * tree says 0 there, which reads as a measured zero (issue #15). */
double pr_drow_us(const cJSON *row, const char *key);

/* Work rates of a pair of runs without steps (rates.c, review24 #5):
 * metric rows "rate.kernels" (kernel events per second of capture, with
 * the calls, windows and "per_call_change_pct", the change of the
 * kernels' mean time per call at the baseline's mix), "rate.gemm" (GEMM
 * kernel calls per second) and "rate.op" (the baseline's most frequent
 * operator, its "name", calls per second), unit "per_s", appended to
 * metrics; rows of windows more than 10% apart are not compared.
 * Nothing for runs with steps.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_drates_pair(cJSON *metrics, const cJSON *rb,
                                           const cJSON *rc,
                                           struct pr_error *err);

/* The collectives of a pair of runs side by side (colls.c): a row per
 * collective type of either run's communication.ops ("name", "status"
 * both/new/vanished, calls, bytes, mean time per call, algbw and busbw of
 * each side, the change per call) in pair["collectives"]; none where
 * neither run has one.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dcollectives_pair(cJSON *pair, const cJSON *rb,
                                                 const cJSON *rc,
                                                 struct pr_error *err);

/* Across the pairs of runs (diff["runs"]): a collective whose change per
 * call rose 10% or more on one rank and fell as much on another is the
 * wait moving between ranks (a call lasts until its slowest rank
 * arrives), not the link: each pair's row of it gets "rank_skew" {the
 * largest rise and fall and their runs (up_pct, up_run, down_pct,
 * down_run), the fastest time per call of each side and its run
 * (fastest_baseline_us, fastest_baseline_run, fastest_current_us,
 * fastest_current_run) and its change (fastest_delta_pct)} (review 27
 * #7).  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dcollectives_skew(cJSON *runs,
                                                 struct pr_error *err);

/* The most code points a shortened name takes in a diff's text. */
#define PR_DNAME_MAX_CHARS 120

/* Give every row of a change list whose name is longer than max_chars
 * (<= PR_DNAME_MAX_CHARS) code points a "short_name": its shortened form,
 * told apart from the others' by pr_shorten_distinct (shorten.h), so
 * that two kernels never read as one in a gate line or JUnit message
 * (issue #32).
 * Returns 0, or -1 on out-of-memory. */
PR_NODISCARD int pr_dshort_names(cJSON *rows, size_t max_chars);

/* How a run's steps were made (step_pairs.c): ProfilerStep#N markers,
 * another producer's steps (NVTX "step 3", Ascend iterations, MegEngine
 * StopStep), or none (no steps, or the whole capture counted as the one
 * step "0"). */
enum pr_dstep_source {
    PR_DSTEPS_NONE = 0,
    PR_DSTEPS_PROFILER,
    PR_DSTEPS_NAMED
};

/* "ProfilerStep", "named steps" or "no steps" (static). */
const char *pr_dstep_source_text(enum pr_dstep_source s);

/* The steps two paired runs compare (issue #29): when both number their
 * steps (ProfilerStep#N) and share a number, the steps whose number both
 * have (keep[side][i] for step i of that side's "steps"); otherwise every
 * step (keep NULL). */
struct pr_dstep_pairs {
    enum pr_dstep_source src[2]; /* 0 baseline, 1 current */
    int by_number;               /* steps paired by ProfilerStep number */
    unsigned char *keep[2];      /* owned; NULL: every step of the side */
    size_t n[2];                 /* steps of each run */
    size_t n_paired;             /* pairs, when by_number */
    int drop_first[2];           /* the side's first step is left out, as
                                    its job's line leaves it out (a warm-up
                                    on some rank: job.per_rank[].
                                    first_step_excluded, review 27 #10a) */
};

/* Pair the steps of runs rb and rc; free with pr_dstep_pairs_free, also
 * after an error.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dstep_pair(const cJSON *rb, const cJSON *rc,
                                          struct pr_dstep_pairs *p,
                                          struct pr_error *err);
void pr_dstep_pairs_free(struct pr_dstep_pairs *p);

/* 1 when side keeps every step of its run (its summary's step figures
 * hold as they are): none left out by number nor as a warm-up. */
int pr_dstep_all_kept(const struct pr_dstep_pairs *p, int side);

/* The per-step samples of side `side` (run is that side's run): the
 * durations (cat NULL) or breakdown category cat of the kept steps (p
 * NULL: every step), those without a value left out.  *out is owned by
 * the caller.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dstep_samples(const struct pr_dstep_pairs *p,
                                             int side, const cJSON *run,
                                             const char *cat, double **out,
                                             size_t *n, struct pr_error *err);

/* The mean (q < 0) or q-quantile of those samples into *out (NAN for
 * none), as the summary's step_summary computes them.  Errors:
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dstep_stat(const struct pr_dstep_pairs *p,
                                          int side, const cJSON *run,
                                          const char *cat, double q,
                                          double *out, struct pr_error *err);

struct pr_match_table;

/* Whether the runs can be compared (compat.c), into diff["comparability"]
 * = {"comparable", "warnings": [..], "notes": [..]}: for a pair of runs
 * (its "current" name set) whose steps sp paired, pair["steps"], and its
 * step and breakdown rows marked "comparable": false with a reason
 * ("not_comparable") when one run has step markers and the other none;
 * a warning for that and for a device run against a CPU-only run, a note
 * for two device models.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dcompat_pair(cJSON *diff, cJSON *pair,
                                            const cJSON *rb, const cJSON *rc,
                                            const struct pr_dstep_pairs *sp,
                                            struct pr_error *err);

/* The rows of the matched table t (`key` "operators" or "kernels", named
 * `noun` in text) added and deleted between the runs, as HTA's ops_diff:
 * diff["added_deleted"][key] = {"added", "deleted": [{"name",
 * "calls_per_step", "device_us_per_step"}] by time, "in_both",
 * "in_both_pct", "time_in_both_pct"}; a warning when the names barely
 * overlap.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dcompat_table(cJSON *diff, const char *key,
                                             const char *noun,
                                             const struct pr_match_table *t,
                                             struct pr_error *err);

/* diff["comparability"]["comparable"]: no warning was given; and when
 * some pair's steps are not comparable, every row of the per-step tables
 * (operators, kernels, sources, modules) marked so too.  Also, from the
 * summaries base and cur: ["builds"] {"baseline", "current"} (their
 * tool.build, null for none) with a warning when they differ, and
 * ["older_summaries"], a line for each side an older profreport wrote
 * (its parts left out), for stderr and JUnit.  Errors: PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dcompat_finish(cJSON *diff, const cJSON *base,
                                              const cJSON *cur,
                                              struct pr_error *err);

/* A run of the diff that paired with none ("runs_unmatched"), for the
 * line each report shows so that a vanished rank does not go unseen: on
 * the baseline side it vanished (a warning), on the current side it is
 * new (a note). */
struct pr_dunmatched {
    int side;              /* 0 baseline, 1 current */
    const char *lead;      /* "Warning:" or "Note:" */
    const char *side_name; /* "baseline" or "current" */
    const char *run;       /* its label; "?" when the tree has none */
    const char *what;      /* "vanished (...)" or "is new (...)" */
    size_t index, count;   /* its place among its side's unmatched runs */
};

/* Call each for every comparability warning ("Warning:") and note
 * ("Note:") of the diff tree (diff["comparability"], compat.c). */
void pr_dcompat_each(const cJSON *diff,
                     void (*each)(void *ctx, const char *lead,
                                  const char *text),
                     void *ctx);

/* Call each for every unmatched run of the diff tree, baseline side first,
 * in the tree's order. */
void pr_dunmatched_each(const cJSON *diff,
                        void (*each)(void *ctx, const struct pr_dunmatched *u),
                        void *ctx);

/* Append s as a Markdown table cell in a code span: '|' escaped, '`' and
 * line breaks replaced, cut to max_chars code points. */
PR_NODISCARD enum pr_status pr_dmd_code(struct pr_buf *b, const char *s,
                                        size_t max_chars);

/* One line for an item of a gate's lists: "memory.peak GPU0 [worker1]
 * +7.3% (+300 MiB, 4.00 GiB -> 4.29 GiB)", plus the p-value when a
 * noise test ran. */
PR_NODISCARD enum pr_status pr_ddescribe(struct pr_buf *b, const cJSON *it);

/* Why a figure or row is not compared, in short, from its reason
 * ("not_comparable", compat.c): "different windows", "definition
 * changed", "a CPU-only run", ...; the reason itself is under
 * Comparability (static). */
const char *pr_dshort_why(const char *why);

/* The verdict of a gated diff (or trend) tree as every report states it:
 * word "REGRESSION", "no regression" or "INCONCLUSIVE", its class
 * ("fail", "pass", "inconclusive": CSS and colours), and `counts`, e.g.
 * "1 of 3 gates tripped; 2 skipped" or "no gate compared anything: 2 of
 * 2 skipped". */
struct pr_dverdict {
    const char *word, *cls;
    size_t failed, skipped, total;
    size_t warnings; /* comparability warnings: the verdict is marked */
    int partial;     /* a gate compared only some runs, or runs paired with
                        none (counts says so) */
    char counts[400];
    /* a partial comparison's "3 of 4 runs compared, 1 not compared:
       different windows" or "1 of 3 runs compared; 2 new, no baseline"
       (in counts after "tripped in"), and counts without it, for a
       layout that gives it a line of its own */
    char runs[220], bare[300];
};
void pr_dverdict(const cJSON *diff, struct pr_dverdict *v);
/* The reason a row is not compared where one side records no device
 * tasks (compat.c check_tasks): its tables list nothing as new or
 * vanished. */
#define PR_DNO_TASKS_WHY "one side records no device tasks"
/* A trend night's comparability warnings of its `key` comparison
 * ("gates" or "gates_vs_first"), each in its short form ("devices
 * differ; world size differs"), into buf; 0 when it has none. */
int pr_dtrend_warn_words(const cJSON *night, const char *key, char *buf,
                         size_t cap);

/* The same for a trend tree: its verdict is its last night's, the counts
 * those of that night's gates (with the night before and with the first
 * night), how many nights crossed and how many could not be read. */
void pr_dtrend_verdict(const cJSON *trend, struct pr_dverdict *v);
/* "NPU" when the diff's runs are Ascend ones (diff["device_kind"] npu,
 * compat.c), else "GPU": the word for a device in the diff's text; the
 * metric ids (gpu.utilization, tc.share) stay device-neutral. */
const char *pr_ddevice_word(const cJSON *diff);
/* 1 on an NPU diff whose runs hold HCCL collectives (diff["npu_hccl"],
 * compat.c): only then does an NPU's utilization count HCCL waits. */
int pr_dnpu_hccl(const cJSON *diff);

/* A waterfall from `start` to `end` (microseconds) through n signed
 * steps; pointers borrowed for the call. */
struct pr_dwaterfall {
    const char *title;
    const char *const *labels; /* n category names */
    const double *deltas;      /* n changes, us */
    size_t n;
    double start, end;
};

/* Draw it on any canvas (SVG or PDF).  Cannot fail; backend errors are
 * sticky in the canvas. */
void pr_dwaterfall(struct pr_canvas *c, const struct pr_chart_box *b,
                   const struct pr_dwaterfall *w);

/* The charts of one pair of runs (pair_figs.c), built once for the HTML
 * and the PDF layout.  The specs point into the struct: build it where it
 * stays, and pr_dpair_figs_free() it whatever the result. */
struct pr_dpair_figs {
    double vals[16], deltas[8]; /* pr_dbreakdown() */
    /* the categories' labels and colours (keys.h's pr_keys_breakdown, the
     * main report's), as the arrays chart.h takes */
    const char *cat_names[PR_N_BREAKDOWN];
    uint32_t cat_colors[PR_N_BREAKDOWN];
    struct pr_chart_stacked stacked; /* mean step breakdown of both runs */
    struct pr_dwaterfall waterfall;  /* where the time went */
    struct pr_chart_series series[2];
    struct pr_chart_lines steps; /* step time per step; gaps for holes */
    int many_steps;              /* a side has 2 steps or more: the step
                                    chart has a line to draw */
    double *xs, *ys;             /* owned */
};

/* Build them from a pair of the diff tree's "runs"; 0, or -1 on
 * out-of-memory. */
PR_NODISCARD int pr_dpair_figs(struct pr_dpair_figs *f, const cJSON *pair);
void pr_dpair_figs_free(struct pr_dpair_figs *f);

/* The trend report's line charts (trend_figs.c), built once for the HTML
 * and the PDF layout: step time, memory peak, breakdown and, when the tree
 * names them, the top operators, over nights 1..n named by their inputs;
 * a value a night lacks is NAN, a gap in its line.  When no night has
 * steps (captures), no step chart: each device's utilization and the top
 * kernels' time per call instead, and "per capture" in the titles; no
 * memory chart when no night records memory (no_memory). */
#define PR_DTREND_CHARTS 5
#define PR_DTREND_SERIES 8
#define PR_DTREND_KNAME_CHARS 48
struct pr_dtrend_figs {
    struct pr_chart_lines charts[PR_DTREND_CHARTS]; /* draw charts[0..n) */
    size_t n;
    struct pr_chart_series series[PR_DTREND_CHARTS][PR_DTREND_SERIES];
    size_t n_nights;
    double *x, *y;   /* owned: positions, values */
    char **names;    /* owned array of the nights' tick names */
    char *name_buf;  /* owned: their text */
    char mark[64];   /* the crossed night's label */
    int no_steps;    /* no night has steps: per-capture words, no step chart */
    int no_memory;   /* no night records memory: no memory chart */
    int utilization; /* the utilization chart (no_steps) is drawn */
    char kname[PR_DTREND_SERIES][PR_SHORTEN_CAP(PR_DTREND_KNAME_CHARS)];
};

/* Build the charts of a trend tree (cmd_trend.c's: "nights",
 * "top_operators"); strings of the tree are borrowed.  0, or -1 on
 * out-of-memory; pr_dtrend_figs_free() either way. */
PR_NODISCARD int pr_dtrend_figs(struct pr_dtrend_figs *f, const cJSON *trend);
void pr_dtrend_figs_free(struct pr_dtrend_figs *f);

/* A table of the diff or the trend (tables.c), built once and laid out
 * by the Markdown, HTML and PDF writers: columns (label, key, format,
 * width) and rows of display strings at the columns' keys.  A row's
 * PR_DTABLE_SUB string is muted text after its name cell (the first
 * PR_FMT_NAME column: the input shapes of an operator, "(default)" after
 * a gate). */
#define PR_DTABLE_SUB "_sub"
struct pr_dtable {
    const struct pr_col *cols; /* n_cols of them, static */
    size_t n_cols;
    cJSON *rows;             /* owned: array of objects of strings */
    const cJSON *names_from; /* borrowed: the change list whose "name"s
                                the table's names are told apart from
                                (its other tables too), or NULL */
    char note[2048];         /* shown under the table, or "": the rows a
                                top list left out as not compared */
};

/* Build a table: the gates of a diff tree; the figures of one pair of its
 * "runs" (with their noise tests); the rows of a change list ("operators",
 * "kernels", ...) that pr_drow_wanted(want) keeps, top at most (a top
 * regression or improvement only where it was compared: those marked
 * "comparable": false are left out and counted in the table's note); the
 * nights of a trend tree.  0, or -1 on out-of-memory; pr_dtable_free() either
 * way. */
PR_NODISCARD int pr_dtable_gates(struct pr_dtable *t, const cJSON *diff);
PR_NODISCARD int pr_dtable_figures(struct pr_dtable *t, const cJSON *pair,
                                   const cJSON *diff);
PR_NODISCARD int pr_dtable_changes(struct pr_dtable *t, const cJSON *arr,
                                   int want, size_t top, size_t n_pairs);
/* The same, and with step_calls a per-step table ends with each row's
 * "Calls per step", baseline -> current (the operators'). */
PR_NODISCARD int pr_dtable_changes_calls(struct pr_dtable *t, const cJSON *arr,
                                         int want, size_t top, size_t n_pairs,
                                         int step_calls);
PR_NODISCARD int pr_dtable_nights(struct pr_dtable *t, const cJSON *trend);
/* The collectives of one pair (pair["collectives"], colls.c): type, calls,
 * bytes, time per call and its change, algbw and busbw, each "baseline ->
 * current"; no rows when the pair has none. */
PR_NODISCARD int pr_dtable_collectives(struct pr_dtable *t, const cJSON *pair);
void pr_dtable_free(struct pr_dtable *t);

/* The Method paragraph of the diff reports, around its one emphasised
 * word: before + "and" + after, plain text (the HTML escapes it); the
 * test, alpha, the bootstrap and what pairs rows, from diff["method"].
 * Then, when the cost cap of a large job left some intervals out,
 * `intervals` says which (else it is ""). */
void pr_dmethod_text(const cJSON *diff, char *before, size_t nb, char *after,
                     size_t na, char *intervals, size_t ni);

/* The change lists of a diff tree, in the reports' order, each shown as
 * PR_N_DKINDS tables (pr_dtable_changes' want): the Markdown, HTML and PDF
 * reports name, order and skip them from here alone. */
struct pr_dchange {
    const char *key;     /* the diff tree's array: "operators" */
    const char *title;   /* heading: "Source locations" */
    const char *noun;    /* in running text: "source locations" */
    const char *measure; /* what a row compares: "device self time per
                            step" */
    const char *matched; /* what pairs a baseline row with a current one */
    int optional;        /* left out when the diff has no rows for it (no
                            stacks or modules recorded) */
    int step_calls;      /* its per-step tables end with the calls per
                            step, so a time that grows with its calls
                            reads as such */
};
struct pr_dkind {
    const char *title; /* "Top regressions" */
    int want;          /* pr_drow_wanted's */
};
#define PR_N_DCHANGES 4
#define PR_N_DKINDS 3
extern const struct pr_dchange pr_dchanges[PR_N_DCHANGES];
extern const struct pr_dkind pr_dkinds[PR_N_DKINDS];

/* What a row of change list c of diff compares, for headings: c's
 * measure, or its time per call when neither side has steps (the rows
 * are then per call, "per": "call", compare.c). */
const char *pr_dchange_measure(const struct pr_dchange *c, const cJSON *diff);

/* 1 when neither side of diff has steps: every run of each is one capture
 * (the sides' "no_steps"), and the change lists compare time per call. */
int pr_dno_steps(const cJSON *diff);

/* Rows compared per call (two captures) are listed as regressions or
 * improvements only from this change per call on (review 23g #7). */
#define PR_DCALL_FLOOR_PCT 1.0

/* One side of the diff in words: "runs: 1, steps: 8", or "runs: 2, no
 * steps" when each of its runs is one capture. */
void pr_dside_text(const cJSON *side, char *buf, size_t n);

/* What a pair's figures are taken over: "per step", or "per capture; no
 * steps" for a pair of runs without steps (pair "per_capture",
 * compat.c). */
const char *pr_dpair_per(const cJSON *pair);

/* Whether a report shows change list c of diff (its tables, empty or
 * not); 0 for an optional one without rows. */
int pr_dchange_shown(const struct pr_dchange *c, const cJSON *diff);

/* Every change table of diff that a report shows, top rows at most, laid
 * out into b by `layout` (pr_dtable_md); head() writes
 * the headings: with k NULL before a change list's tables, then before
 * each of its kinds, with what its rows compare (pr_dchange_measure).  Sticky
 * on b->failed. */
void pr_dchanges_put(struct pr_buf *b, const cJSON *diff, size_t top,
                     void (*head)(struct pr_buf *, const struct pr_dchange *,
                                  const struct pr_dkind *k,
                                  const char *measure),
                     void (*layout)(struct pr_buf *, const struct pr_dtable *));

/* The index of the column that a row's PR_DTABLE_SUB text follows. */
size_t pr_dtable_sub_col(const struct pr_dtable *t);

/* Lay a table out as a Markdown table (report_md.c), a row "none" when
 * it has no rows; sticky on b->failed.  (The HTML and PDF lay the tables
 * out as figures: pr_dfigs_diff.) */
/* The name cells of a text report's table: for row r and each
 * PR_FMT_NAME column c, forms[r * t->n_cols + c] is that name in at most
 * max_chars code points (<= PR_DNAME_MAX_CHARS), told apart from the
 * column's other names and those of t->names_from (the list the table
 * shows part of) by pr_shorten_distinct (shorten.h), so that two kernels
 * never read as one (issue #32); NULL for other columns.  The
 * layouts escape it and keep the full name where they can (an HTML
 * title).  NULL on out-of-memory or no rows; pr_dnames_free() frees. */
char **pr_dnames(const struct pr_dtable *t, size_t max_chars);
void pr_dnames_free(char **forms, const struct pr_dtable *t);
void pr_dtable_md(struct pr_buf *b, const struct pr_dtable *t);

/* Lay out a table whose build returned `built` (0: built; else mark b
 * failed), then free it: pr_dtable_put(b, &t, pr_dtable_gates(&t, diff),
 * pr_dtable_md). */
void pr_dtable_put(struct pr_buf *b, struct pr_dtable *t, int built,
                   void (*layout)(struct pr_buf *, const struct pr_dtable *));

/* The diff and the trend as sections of the main report's figure model
 * (figs.c): each section is built into figures, handed to each() with its
 * anchor id and title, and freed after it returns, so a layout lays it out
 * in the call (html.c's view, pr_pdf_doc_figs).  The diff: Comparability
 * (runs without a partner, warnings and notes; only when there are any),
 * Gates (the verdict and the gates), Step time (a part per pair of runs:
 * mean breakdown and step time side by side, the waterfall, the figures
 * with their noise tests), a section per change list shown (regressions,
 * improvements, new and vanished; top rows each), Method.  The trend:
 * Nightly trend (verdict, unreadable nights, the line charts) and
 * Nights.  Out-of-memory is sticky in the figures handed over. */
typedef void pr_dfigs_each_fn(void *ctx, const char *id, const char *title,
                              const struct pr_figs *f);
void pr_dfigs_diff(const cJSON *diff, size_t top, pr_dfigs_each_fn *each,
                   void *ctx);
void pr_dfigs_trend(const cJSON *trend, pr_dfigs_each_fn *each, void *ctx);
/* Hand table t, built by a tables.c function that returned `built`, to
 * the figures (its rows taken over, t->rows NULL after); the note "None."
 * when it has no rows. */
void pr_dfigs_table(struct pr_figs *f, struct pr_dtable *t, int built);

/* The trend page (cmd_trend.c's tree: "nights", "top_operators") in the
 * main report's HTML layout (templates/diff.html); appended to out.
 * Errors: PR_E_NOMEM, PR_E_TEMPLATE. */
PR_NODISCARD enum pr_status
pr_trend_html(const cJSON *trend, struct pr_buf *out, struct pr_error *err);

/* The trend as a PDF written atomically to `path`: the same line charts
 * and table of nights as pr_trend_html.  Errors: PR_E_PDF, PR_E_IO,
 * PR_E_NOMEM, PR_E_USAGE for "-". */
PR_NODISCARD enum pr_status pr_trend_pdf(const cJSON *trend, const char *path,
                                         struct pr_error *err);

struct pr_merge;

/* Load the summary of one comparison side: a single summary JSON file
 * (detected by its "schema_version" key near the top and no
 * "traceEvents") is read whole; anything else (trace files, run folders,
 * several paths) goes through the pipeline.  *out is owned by the
 * caller.  m NULL: every run whole; else several saved summaries leave
 * their runs lite and *m set (pr_pipeline_summary_merged), *m NULL.
 * max_input: --max-input (0: the default), for traces and summaries;
 * otherwise.  Errors: PR_E_IO, PR_E_FORMAT (e.g. unsupported
 * schema_version), PR_E_NOMEM, and those of the pipeline. */
PR_NODISCARD enum pr_status pr_dload_summary(const char *const *paths, size_t n,
                                             int quiet, uint64_t max_input,
                                             cJSON **out, struct pr_merge **m,
                                             struct pr_error *err);

/* The runs of two summaries and how they pair (pair.c): same rank, else
 * same worker, else same position, first untaken in order; O(n log n). */
struct pr_dpairs {
    const cJSON **b, **c; /* owned arrays of the runs (borrowed) */
    size_t nb, nc;
    const char **job_b, **job_c; /* owned: each run's job key (in keys),
                                    "" unless both sides hold several
                                    jobs */
    char **keys;                 /* owned: the jobs' keys */
    size_t n_keys;
    size_t *with;           /* owned: with[i] = the run of c paired with
                               b[i], or SIZE_MAX */
    unsigned char *taken_c; /* owned: 1 for the runs of c that paired */
};

/* Pair the runs of summary base with those of summary cur (a one-run
 * summary always pairs with a one-run summary); when both hold several
 * jobs (summary "jobs", issue #15), a run pairs only within the job of
 * the same name.  Free with pr_dpairs_free, also after an error.  Errors:
 * PR_E_NOMEM. */
PR_NODISCARD enum pr_status pr_dpair_runs(const cJSON *base, const cJSON *cur,
                                          struct pr_dpairs *p,
                                          struct pr_error *err);
void pr_dpairs_free(struct pr_dpairs *p);

/* Basename of path, for labels in reports (no absolute paths there). */
const char *pr_dbasename(const char *path);

#endif
