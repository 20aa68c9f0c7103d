/* figures.h - one figure model for every report.  A report is an ordered
 * list of sections (sections.c for the main report; diff/report_*.c for the
 * diff and trend); a section's build function turns the summary into
 * layout-neutral figures: headings, notes, key figures, tagged chart specs
 * and column tables.  The HTML layout (html.c), the PDF layout (pdf.c and
 * pdf_doc.c) and the terminal tables (table.c) only lay these out, so a
 * chart or a table is defined once and looks the same everywhere.
 *
 * Ownership: a struct pr_figs owns every block, part, chart buffer and
 * built row it holds (pr_figs_free).  Rows and strings borrowed from the
 * summary (a table's `rows`) must outlive the figures.  Building never
 * fails outright: out-of-memory is sticky in f->failed, later calls do
 * nothing, and the layout reports PR_E_NOMEM. */
#ifndef PROFREPORT_FIGURES_H
#define PROFREPORT_FIGURES_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "profreport/canvas.h"
#include "profreport/chart.h"

/* ---- columns ---------------------------------------------------------- */

/* How a cell shows the value at its column's key. */
enum pr_fmt {
    PR_FMT_TEXT = 0, /* string on one line, elided */
    PR_FMT_NAME,     /* operator or kernel name: shortened for display, in
                        full in tooltips, JSON and CSV */
    PR_FMT_WRAP,     /* prose, wrapped */
    PR_FMT_FILE,     /* path, shown by its basename */
    PR_FMT_COUNT,    /* 1,234 */
    PR_FMT_US,       /* microseconds as ns / µs / ms / s */
    PR_FMT_PCT,      /* 0..100 as 42.0% */
    PR_FMT_BYTES,    /* bytes as B / KiB / MiB / GiB */
    PR_FMT_FLOPS,    /* FLOP count: 980 GFLOP */
    PR_FMT_TFLOPS,   /* 10^12 FLOP/s */
    PR_FMT_GBPS,     /* 10^9 bytes/s */
    PR_FMT_AI,       /* FLOP/byte */
    PR_FMT_NUM,      /* plain number */
    PR_FMT_BOOL,     /* yes / no */
    PR_FMT_RECORDS,  /* records concerned, as COUNT; 0 (a note about the
                        whole input) as "whole input" */
    PR_FMT_FIGURE,   /* a string already formatted as a number */
    PR_FMT_CHANGE,   /* formatted signed change: red when worse, green
                        when better (pr_fig_change_dir) */
    PR_FMT_VERDICT   /* "FAIL"/"fail" in bold red, anything else green */
};

/* Where a column is shown when the user picks none. */
#define PR_COL_REPORT 1u /* HTML and PDF */
#define PR_COL_TERM 2u   /* terminal tables */
#define PR_COL_BOTH (PR_COL_REPORT | PR_COL_TERM)
/* HTML: the cell links to the row's "href_<id>", an anchor of the report
 * ("#critical-path"). */
#define PR_COL_LINK 4u
/* A column the PDF's portrait page leaves out of a table shown by default
 * (the HTML and `profreport table` keep it): the page says which. */
#define PR_COL_WIDE 8u

/* One column of a table. */
struct pr_col {
    const char *id;    /* short stable name: -c, --sort, CSV header */
    const char *key;   /* key in the row ("a.b" reads a nested one) */
    const char *label; /* header */
    enum pr_fmt fmt;   /* formatter, and the alignment: numbers right */
    double width;      /* share of the table width (PDF) */
    const char *help;  /* header tooltip, or NULL */
    unsigned show;     /* PR_COL_* */
};

/* The column an NPU run's table shows in place of c: the same data under
 * the NPU's words ("Cube", not "TC"), c itself where its words hold, NULL
 * where the figure is a CUDA GPU's only (SMs, warps, occupancy). */
const struct pr_col *pr_fig_col_npu(const struct pr_col *c);

/* A MindSpore run's word for a column whose label is PyTorch's: the
 * data loader's time is MindSpore's step interval (its step trace's
 * iteration_interval: the wait for the data queue, GetNext), the
 * summary key unchanged.  c itself where MindSpore has no other word. */
const struct pr_col *pr_fig_col_mindspore(const struct pr_col *c);

/* MindSpore's label for a breakdown or critical-path category whose
 * label is PyTorch's ("DataLoader", "Data loader"); label itself
 * otherwise. */
const char *pr_fig_label_mindspore(const char *key, const char *label);

/* 1 when the run ran under MindSpore; for a summary, every run (one at
 * least). */
int pr_fig_run_is_mindspore(const cJSON *run);
/* Whether a run is read from an Nsight Systems export (its input's
 * format "nsys"): its shapes come from PyTorch's emit_nvtx ranges, under
 * torch.autograd.profiler.emit_nvtx(record_shapes=True), not from
 * torch.profiler's record_shapes (issue #28). */
int pr_fig_run_is_nsys(const cJSON *summary, const cJSON *run);
/* A run without steps (pr_sget_run_is_capture): the findings' and
 * replays' per-step columns as the capture's ("Saves", "Of capture"),
 * c itself otherwise (static); whether every run of a summary (0 without
 * runs) is one. */
const struct pr_col *pr_fig_col_capture(const struct pr_col *c);
int pr_fig_summary_is_capture(const cJSON *summary);

/* "the other stage waits" with two pipeline stages in `dist` (a
 * summary's distributed), "the other stages wait" otherwise: the words
 * of the slowest stage's rank (issue #30 review). */
const char *pr_fig_other_stages(const cJSON *dist);

/* A run on torch_npu's device basis (step_summary.basis "npu_device")
 * whose host steps are longer than its device steps: its critical path and
 * the findings' gains are of the host step (from its host start, torch_npu's
 * Preparing included), which its tables and words say (issue #30). */
int pr_fig_run_host_step(const cJSON *run);

/* The column a host-step run's table (pr_fig_run_host_step) shows in place
 * of c: "Of host step" for "Of step", "Host step after" for "Step after";
 * c itself otherwise. */
const struct pr_col *pr_fig_col_host_step(const struct pr_col *c);
/* Whether every run of a summary (0 without runs) is a host-step run
 * (pr_fig_run_host_step): `profreport table` labels its columns so. */
int pr_fig_summary_is_host_step(const cJSON *summary);

/* 1 when a summary holds runs of both kinds: some with steps, some
 * without (a capture each): its shared words fit both (issue #29). */
int pr_fig_summary_is_mixed(const cJSON *summary);
int pr_fig_summary_is_mindspore(const cJSON *summary);

/* Where a run was stepped by a Step Id column whose steps' bounds the
 * file does not give (its no_steps row): that row's words up to the
 * column ("every task row is in step 19") into buf, and 1; else 0. */
int pr_fig_row_step_words(const cJSON *run, char *buf, size_t size);

/* Whether a run ran on an NPU (a device of kind "npu"), and whether every
 * run of a summary did (and there is one). */
int pr_fig_run_is_npu(const cJSON *run);
/* 1 when the run's files hold no device task at all (its diagnostics'
 * "no_tasks": a torch_npu rank with step_trace_time.csv and
 * communication.json but neither kernel_details.csv nor trace_view.json),
 * so its device did work the files do not show (issue #30). */
int pr_fig_run_no_tasks(const cJSON *run);
/* The files such a rank lacks, as its notes name them. */
#define PR_FIG_NO_TASK_FILES "neither kernel_details.csv nor trace_view.json"
int pr_fig_summary_is_npu(const cJSON *summary);

/* A finding's id as an NPU run's report shows it: the summary's ids are
 * a contract (summary-json.md) and keep their CUDA words, which an
 * Ascend reader should not meet (npu_trace_view's terminal and
 * Recommendations read "[low_gpu_utilization]"): "gpu" reads "npu"
 * (low_npu_utilization).  id itself when it has none, else buf. */
const char *pr_fig_id_npu(const char *id, char *buf, size_t size);

/* The words a GPU run's device units take (review 28h #12): NVIDIA's
 * (tensor cores, CUDA cores, SMs, CUDA graphs) unless its devices say
 * vendor "amd" (matrix cores (MFMA), vector ALUs, CUs, HIP graphs) or
 * "meta" (MTIA: the trace names no unit, so no tensor-core, SM or CUDA
 * words at all).  An NPU run's are pr_fig_run_is_npu's.  A summary's are
 * its runs' when they all agree, else NVIDIA's. */
enum pr_fig_units { PR_UNITS_CUDA = 0, PR_UNITS_AMD, PR_UNITS_MTIA };
struct pr_fig_words {
    const char *tc_title;  /* "Tensor cores": a section's title */
    const char *tc;        /* "tensor cores" */
    const char *tc_adj;    /* "tensor-core" */
    const char *tc_legend; /* a chart's legend: "Tensor cores" */
    const char *simt;      /* the rest of the chip: "CUDA cores" */
    const char *sm;        /* "SM" */
    const char *graphs;    /* "CUDA graphs" */
    const char *graph_adj; /* "CUDA-graph" */
    const char *device;    /* "GPU" */
    const char *warps;     /* "warps" (AMD: "wavefronts") */
};
enum pr_fig_units pr_fig_run_units(const cJSON *run);
enum pr_fig_units pr_fig_summary_units(const cJSON *summary);
const struct pr_fig_words *pr_fig_words(enum pr_fig_units u);

/* The column a run of units u shows in place of c (CUDA-worded): the
 * same data in AMD's words ("MFMA", "CUs"), NULL for MTIA where the
 * trace cannot tell (tensor cores, SMs, occupancy); c where its words
 * hold. */
const struct pr_col *pr_fig_col_units(const struct pr_col *c,
                                      enum pr_fig_units u);

/* Right-aligned (numeric) columns. */
int pr_col_numeric(enum pr_fmt f);

/* Which way the PR_FMT_CHANGE cell `text` of `row` goes: the row's
 * PR_FIG_CHANGE_DIR string ("worse", "better", "none") where it says, so
 * that a figure where higher is better (GPU utilization, SM efficiency,
 * occupancy, tensor-core share) is not painted good for falling (review
 * 22g #7); else by the text's sign, as for times (lower is better): 1
 * worse, -1 better, 0 neither. */
#define PR_FIG_CHANGE_DIR "_dir"
int pr_fig_change_dir(const cJSON *row, const char *text);

/* Display text of row[c->key]: numbers with human units, null or absent
 * as an en dash, names in full (layouts shorten them).  Returns buf or a
 * string borrowed from the row.  n >= 64. */
const char *pr_fig_cell(const cJSON *row, const struct pr_col *c, char *buf,
                        size_t n);

/* The one number formatting of every report (main, diff, trend; HTML,
 * PDF, terminal, Markdown): three significant digits in a human unit
 * (153 µs, 1.53 ms, 2.98 GiB, 42.0%), C locale, "-0" as "0", NaN and
 * infinity as an en dash.  Each writes into buf (n >= 64) and returns
 * it. */

/* Format v as f (a number format) into buf. */
char *pr_fig_format(double v, enum pr_fmt f, char *buf, size_t n);

/* The same with `extra` more decimals (0..PR_CHART_EXTRA_MAX, chart.h). */
char *pr_fig_format_x(double v, enum pr_fmt f, int extra, char *buf, size_t n);

/* The fewest extra decimals (0 to PR_CHART_EXTRA_MAX) at which every two
 * neighbours of v[0..n) that differ read apart as f: a change of 153.5 ->
 * 153.2 µs reads "153.5 µs" -> "153.2 µs", not "153 µs" twice. */
int pr_fig_extra_digits(const double *v, size_t n, enum pr_fmt f);

/* Two compared values (baseline, current) as f into bx and by, with the
 * extra decimals they need to read apart (pr_fig_extra_digits). */
void pr_fig_format_pair(double x, double y, enum pr_fmt f, char *bx, char *by,
                        size_t n);

/* A signed change as f: "+2.30 µs", "-1.50 MiB", "+12.3%"; one that
 * rounds to zero without a sign ("0", "0.0%", "0 ns"). */
char *pr_fig_format_change(double v, enum pr_fmt f, char *buf, size_t n);

/* A change of a percentage in percentage points: "+1.5 pp", "0.0 pp". */
char *pr_fig_format_pp(double pp, char *buf, size_t n);

/* The shared column catalogues, each ended by an entry with id NULL: the
 * report tables show the PR_COL_REPORT ones, `profreport table` the
 * PR_COL_TERM ones by default and any of them with -c. */
extern const struct pr_col pr_fig_cols_operators[];
extern const struct pr_col pr_fig_cols_kernels[];
extern const struct pr_col pr_fig_cols_steps[];
extern const struct pr_col pr_fig_cols_memory[];
extern const struct pr_col pr_fig_cols_modules[];
extern const struct pr_col pr_fig_cols_layers[];        /* sec_layers.c */
extern const struct pr_col pr_fig_cols_critical_path[]; /* sec_critpath.c */
extern const struct pr_col pr_fig_cols_findings[];      /* sec_verdict.c */

/* ---- figures ---------------------------------------------------------- */

/* How a chart draws itself: spec is whatever its maker filled in. */
typedef void pr_fig_draw(struct pr_canvas *c, const struct pr_chart_box *b,
                         const void *spec);
typedef pr_fig_draw *pr_fig_draw_fn;

/* chart.h's charts as pr_fig_draw_fn, for every report (main, diff and
 * trend): spec is the chart's struct pr_chart_stacked, _donut, _lines,
 * _roofline, _hbars or _timeline. */
pr_fig_draw pr_fig_draw_stacked, pr_fig_draw_donut, pr_fig_draw_lines,
    pr_fig_draw_roofline, pr_fig_draw_hbars, pr_fig_draw_timeline;

/* A chart: a draw function and its spec (chart.h), with the buffers the
 * spec points into.  w x h is its size in the HTML (points); pdf_h its
 * height across the PDF's text width.  Made by pr_fig_chart_new, so the
 * spec may point into the chart itself (it never moves). */
struct pr_fig_chart {
    pr_fig_draw_fn draw;
    const void *spec; /* points into own[] or into the chart itself */
    void *own[4];     /* owned buffers, free()d with the figures */
    char label[160];  /* accessible name */
    char title[160];  /* storage a spec may point its title at */
    double w, h, pdf_h;
    union {
        struct pr_chart_stacked stacked;
        struct pr_chart_donut donut;
        struct pr_chart_lines lines;
        struct pr_chart_roofline roofline;
        struct pr_chart_hbars hbars;
        struct pr_chart_timeline timeline;
    } u; /* storage for the spec of the chart.h charts */
};

/* A table: columns, rows, and what the caption says. */
/* In a table's row, an object of numbers by column key: what the HTML
 * sorts a PR_FMT_FIGURE cell of that column by, where its text does not
 * sort ("1.12 GiB (18 of 21 calls)" beside "3.58 GiB") */
#define PR_FIG_SORT_BY "sort_by"

struct pr_fig_table {
    const struct pr_col *cols;    /* catalogue (ended by id NULL) or array */
    size_t n_cols;                /* 0: every PR_COL_REPORT column of cols */
    const cJSON *rows;            /* array of objects (or one object) */
    const char *require;          /* only rows with a number at this key */
    const char *what;             /* "operators": for the caption */
    const char *order;            /* "device self time", or NULL */
    size_t limit;                 /* rows at most; 0 = the report's --top */
    const char *const *view;      /* ids of the columns of cols to show,
                                     NULL-terminated; NULL = by n_cols */
    const char *const *hide;      /* ids of columns not to show after all,
                                     NULL-terminated (a Span column where
                                     no two runs share a worker); NULL =
                                     none.  Both static: the layout reads
                                     them after the build returned */
    const char *const *hide_zero; /* ids of columns not to show where
                                     every row's value is 0 or null,
                                     NULL-terminated (static) */
    const char *depth_key;        /* a tree in pre-order: the rows' depth
                                     (0 at the top), the first column drawn
                                     indented by it, collapsible in HTML;
                                     NULL = a flat table */
    int npu;                      /* an NPU run's table: its columns in the
                                     NPU's words (pr_fig_col_npu) */
    int report_only;              /* no `profreport table` kind shows it:
                                     the PDF says its PR_COL_WIDE columns
                                     are in the HTML report alone */
    int mindspore;                /* a MindSpore run's table: its words
                                     (pr_fig_col_mindspore) */
    int units;                    /* enum pr_fig_units: a GPU run's unit
                                     words (pr_fig_col_units) */
    int capture;                  /* a run without steps: "/ step" columns
                                     of the capture (pr_fig_col_capture) */
    int host_step;                /* a run whose gains are of the host step
                                     (pr_fig_col_host_step) */
    const cJSON *names_from;      /* rows whose "name"s the name cells are
                                     told apart from too: the rest of the
                                     list the table shows part of (a diff's
                                     change list); NULL = none */
    const char *sub_key;          /* a row's string here is muted text after
                                     its first name cell (an operator's input
                                     shapes); NULL = none */
};

enum pr_block_kind {
    PR_BLOCK_HEADING, /* a sub-heading, kept with the block after it */
    PR_BLOCK_NOTE,    /* one muted line: an empty table, a missing part */
    PR_BLOCK_TEXT,    /* a paragraph */
    PR_BLOCK_KPIS,    /* a row of key figures */
    PR_BLOCK_CHARTS,  /* one chart, or two side by side where room */
    PR_BLOCK_TABLE,
    PR_BLOCK_ITEMS /* callouts: {sev, title, text, code} */
};

struct pr_kpi {
    char label[64];
    char value[48];
    char sub[160];
    int na; /* the value is unknown */
};

#define PR_FIG_MAX_KPIS 6

struct pr_block {
    enum pr_block_kind kind;
    char *text;                     /* HEADING, NOTE, TEXT: owned */
    struct pr_kpi *kpis;            /* KPIS: owned, n of them */
    struct pr_fig_chart *charts[2]; /* CHARTS: owned, n of them */
    size_t n;
    struct pr_fig_table table; /* TABLE */
    cJSON *own;                /* TABLE rows or ITEMS built here: owned */
};

/* A part of a section: the whole section, or one run of it. */
struct pr_part {
    char label[256]; /* "" = no heading of its own */
    char sub[160];   /* a muted note beside the label (the device) */
    struct pr_block *blocks;
    size_t n_blocks, cap;
};

struct pr_figs {
    struct pr_part *parts; /* owned */
    size_t n_parts, cap;
    size_t top;    /* rows per table (the report's --top) */
    int failed;    /* sticky out-of-memory */
    int npu;       /* the run (or every run) built for is an NPU's: tables
                      added take its words (pr_fig_col_npu) */
    int mindspore; /* likewise MindSpore's (pr_fig_col_mindspore) */
    int units;     /* likewise its units' (enum pr_fig_units) */
};

/* Empty figures showing `top` rows per table (0 = 50). */
void pr_figs_init(struct pr_figs *f, size_t top);
void pr_figs_free(struct pr_figs *f); /* accepts an initialised empty f */

/* Start a new part; label and sub may be NULL (copied). */
void pr_figs_part(struct pr_figs *f, const char *label, const char *sub);

/* Append a block to the current part (one is started when there is none).
 * Strings are copied. */
void pr_figs_heading(struct pr_figs *f, const char *text);
void pr_figs_note(struct pr_figs *f, const char *text);
void pr_figs_text(struct pr_figs *f, const char *text);

/* Append a key figure: v formatted as `fmt` (NaN marks it unknown); it
 * joins the KPIS block just before it, if any. */
void pr_figs_kpi(struct pr_figs *f, const char *label, double v,
                 enum pr_fmt fmt, const char *sub);

/* A new zeroed chart drawn by `draw`, sized w x h in the HTML and pdf_h
 * high in the PDF, with `label` as its accessible name; NULL on
 * out-of-memory.  The caller fills ch->u (or points ch->spec elsewhere)
 * and hands it to pr_figs_chart. */
struct pr_fig_chart *pr_fig_chart_new(pr_fig_draw_fn draw, const char *label,
                                      double w, double h, double pdf_h);

/* Append a chart and take it over (with its own[] buffers); NULL records
 * out-of-memory.  side = 1 puts it beside the chart just before. */
void pr_figs_chart(struct pr_figs *f, struct pr_fig_chart *ch, int side);

/* Free a chart that was not handed over; accepts NULL. */
void pr_fig_chart_free(struct pr_fig_chart *ch);

/* Append the table `t` when it has rows; otherwise the note `empty` (with
 * `heading` dropped).  A non-NULL heading comes first. */
void pr_figs_table(struct pr_figs *f, const char *heading,
                   const struct pr_fig_table *t, const char *empty);

/* Append a table of rows built here (taken over: freed with the
 * figures); `rows` may be NULL only after out-of-memory. */
void pr_figs_table_own(struct pr_figs *f, const struct pr_fig_table *t,
                       cJSON *rows, const char *empty);

/* Append callouts (taken over): an array of {"sev", "title", "text",
 * "code"} objects, sev one of info, warning, critical. */
void pr_figs_items(struct pr_figs *f, cJSON *items);

/* Record out-of-memory (sticky). */
void pr_figs_nomem(struct pr_figs *f);

/* Rows the table shows (require and limit applied) and rows it has. */
void pr_fig_table_count(const struct pr_fig_table *t, size_t top, size_t *shown,
                        size_t *total);

/* "Top 50 of 312, by device self time." (or "" when every row shows and
 * there is no order); n >= 96. */
void pr_fig_table_caption(const struct pr_fig_table *t, size_t top, char *buf,
                          size_t n);

/* 1 when some object of the array rows has a value (not null) at key
 * ("a.b" reads a nested one), else 0: whether a column says anything,
 * for pr_fig_table.hide. */
int pr_fig_rows_have(const cJSON *rows, const char *key);

/* 1 when no row of rows (an array, or one object) has a number other
 * than 0 at key ("a.b" reads a nested one): pr_fig_table.hide_zero. */
int pr_fig_rows_all_zero(const cJSON *rows, const char *key);

/* The i-th shown column of t: the view's, else the first n_cols, else
 * the catalogue's PR_COL_REPORT ones, less the hidden; NULL past the
 * end. */
const struct pr_col *pr_fig_table_col(const struct pr_fig_table *t, size_t i);

/* ---- sections --------------------------------------------------------- */

/* One section of a report: an anchor, a title, an optional paragraph,
 * and a build function called once per run (per_run) or once for the
 * whole summary (run NULL). */
struct pr_section {
    const char *id;    /* HTML anchor: stable */
    const char *title; /* heading and bookmark */
    const char *lede;  /* a paragraph under the heading, or NULL */
    int per_run;
    void (*build)(struct pr_figs *f, const cJSON *summary, const cJSON *run);
    /* NULL, or whether the section has anything to show for this summary
     * (a section that does not apply is left out, heading and all) */
    int (*present)(const cJSON *summary);
    /* the paragraph instead of lede when every run is host-only (a CPU
     * run: no device time to speak of), or NULL: lede */
    const char *host_lede;
};

/* The heading of section s in the report of summary: an NPU job's words
 * where s has them. */
const char *pr_section_title(const struct pr_section *s, const cJSON *summary);
/* A section's anchor id for this summary: its id, but the tensor-core
 * section of an NPU job is "cube-vector" (issue #30: no CUDA word in an
 * Ascend report, its page source included). */
const char *pr_section_id(const struct pr_section *s, const cJSON *summary);

/* Whether section s appears in the report of summary. */
int pr_section_present(const struct pr_section *s, const cJSON *summary);

/* The link matrix and traffic per transport of a distributed object
 * (sec_links.c); nothing when it has no link_groups. */
void pr_sec_links(struct pr_figs *f, const cJSON *distributed);

/* "Peak 2.87 GiB at 98.4 ms from the first row: Activation 84.1%,
 * Unknown 4.4%, ..." for a run's memory_timeline (sec_memtl.c): the
 * categories of 1% of the peak or more, largest first, into text (cap
 * bytes, always terminated). */
void pr_sec_memtl_peak(const cJSON *mt, char *text, size_t cap);

/* 1 when every run of summary (one at least) is a raw memory timeline's
 * (runs[].memory_timeline): memory only, of one device the file does not
 * name; the report shows its section and the data quality alone. */
int pr_fig_memtl_only(const cJSON *summary);

/* One stacked bar per row of `rows` (at most 64): named by
 * row[name_key] ("#12" for a step's "ProfilerStep#12" when steps),
 * segments row[group][cats[k].key] (group NULL: the row itself), absent
 * values as 0 (sections.c).  NULL on out-of-memory. */
struct pr_category; /* keys.h */
struct pr_fig_chart *
pr_sec_stacked_rows(const cJSON *rows, const char *name_key, const char *group,
                    const struct pr_category *cats, size_t n_cats,
                    const char *title, int steps);

/* The Ascend parts of the distributed section (sec_npu.c): the ranks'
 * split under the producer's names, its overlap categories with those
 * names, and the pipeline stages and HCCL time split of the summary. */
extern const struct pr_category *const pr_sec_npu_overlap;
/* capture: no rank has steps; mixed: some have, some do not (their
 * words, issue #29). */
void pr_sec_npu_workers(struct pr_figs *f, const cJSON *workers, int capture,
                        int mixed);
void pr_sec_npu_comm(struct pr_figs *f, const cJSON *summary);

/* Why `run` has no roofline, after `what` ("No roofline"): no operator
 * with FLOPs, or a device without a name or without known peaks; into
 * buf, returned. */
const char *pr_sec_roof_missing(const cJSON *summary, const cJSON *run,
                                const char *what, char *buf, size_t n);

/* The roofs the analysis chose for `run` (summary "roofline"): only those
 * of the dtypes its operators ran in, each with its one label; at most
 * `cap` into `roofs`, returns how many (sections.c). */
size_t pr_sec_roofs(const cJSON *run, struct pr_chart_roof *roofs, size_t cap);

/* A roofline of summary rows (operators, layers): a point per row with an
 * arithmetic intensity and an achieved rate, coloured by its bound, under
 * the roofs of pr_sec_roofs (sections.c). */
struct pr_sec_roofline {
    const char *caption;    /* the figure's name */
    const char *title;      /* the chart's title */
    const char *weight_key; /* the device time that sizes a point */
    size_t n_labels;        /* points named on the chart, the heaviest */
    /* NULL: a point is named by its row's "name"; else its name is
     * written by label() into a buffer of label_chars bytes */
    const char *(*label)(const cJSON *row, char *buf, size_t n);
    size_t label_chars;
};

/* The chart, *n_points its points; NULL on out-of-memory. */
struct pr_fig_chart *pr_sec_roofline_chart(const cJSON *run, const cJSON *rows,
                                           const struct pr_sec_roofline *spec,
                                           size_t *n_points);

/* On an NPU run, the note on the rows the roofline chart leaves out: the
 * Cube's, which no roof bounds (their data type's Cube peak is not known),
 * counted as `what`s ("operator"), the first three named with their rate
 * when names; 0 (buf untouched) when none. */
int pr_sec_roof_unbounded(const cJSON *run, const cJSON *rows, const char *what,
                          int names, char *buf, size_t n);

/* The main report's sections, in order (sections.c). */
extern const struct pr_section *const pr_report_sections[];
extern const size_t pr_report_n_sections;

/* Build one section of `summary` into f (initialised): per-run sections
 * get a part per run, labelled by pr_fig_run_label when there are
 * several. */
void pr_figs_section(struct pr_figs *f, const struct pr_section *s,
                     const cJSON *summary);

/* The name reports show for a device of devices[]: its label (the
 * trace's name, or "GPU 0 (no deviceProperties in trace)"), else its name
 * (summaries written before labels); NULL when neither. */
const char *pr_fig_device_name(const cJSON *dev);

/* 1 when the run holds nothing of a device (its "host_only"). */
int pr_fig_run_host_only(const cJSON *run);
/* A run read from a summary an older profreport wrote (contract.h): its
 * note, what the summary lacks, as a note of f (the verdict's first line,
 * or the overview's where an older summary has no verdict); nothing for
 * any other run. */
void pr_fig_older_note(struct pr_figs *f, const cJSON *run);
/* A summary without a distributed view whose runs are ranks of a job
 * (one an older profreport wrote, its view left out when it was read:
 * contract.h): "world size 8" (the largest a run names; "at least 8"
 * where that run's is a lower bound) or "2 ranks" (the
 * ranks its runs name) into buf, 1; else 0: no view means one process. */
int pr_fig_job_without_view(const cJSON *summary, char *buf, size_t n);
/* A summary without a distributed view that cannot tell whether its run
 * was one process: an older profreport's NPU run that records no world
 * size, nor where one came from (world_size_source: the Ascend sources
 * came later; ms_run3 of 08619121 is world size 2 today, review 21 #3).
 * 1 when so. */
int pr_fig_world_unknown(const cJSON *summary);
/* 1 when a run of the summary was read from one an older profreport
 * wrote (its older_summary diagnostics row). */
int pr_fig_summary_older(const cJSON *summary);
/* 1 when the summary has runs and every one is host-only (a CPU training
 * run): the report leaves the device views out and speaks of host time. */
int pr_fig_host_only(const cJSON *summary);
/* The present() of the device views (kernels, tensor cores, roofline):
 * whether the summary is not host-only. */
int pr_fig_has_device(const cJSON *summary);
/* A copy of the array rows in the order of the number at key, largest
 * first, then by "name" (a host-only run's tables by host time, where the
 * summary's order is by device time); NULL on out-of-memory. */
cJSON *pr_fig_rows_by(const cJSON *rows, const char *key);

/* "worker0 (span 1623143089861, rank 0)" for a run; n >= 64. */
char *pr_fig_run_label(const cJSON *run, char *buf, size_t n);

#endif
