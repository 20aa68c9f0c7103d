/* pipeline.h - the one place that knows every stage: options in, report
 * files out.  cli/ calls this; it prints nothing but notes and warnings
 * (usage and errors are main's). */
#ifndef PROFREPORT_PIPELINE_H
#define PROFREPORT_PIPELINE_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"

struct cJSON;
struct pr_kclass_table;

enum pr_command {
    PR_CMD_REPORT = 0, /* profreport --input ... --json/--html/--pdf */
    PR_CMD_TABLE       /* profreport table ... */
};

struct pr_options {
    enum pr_command command;
    const char **inputs; /* owned array of borrowed argv strings */
    size_t n_inputs;
    const char *json_path; /* borrowed from argv; NULL = not requested */
    const char *html_path;
    const char *pdf_path;
    const char *template_dir;
    const char *source_link; /* --source-link URL template; NULL = file:// */
    const char *paper;       /* "a4" | "letter" */
    const char *font;
    int top;       /* --top N, default 50 */
    int top_given; /* --top was on the command line */
    int quiet;
    int progress; /* --progress: whatever the input's size, wherever */
    int verbose;
    int want_help, want_version; /* -h / -V: main prints, nothing runs */
    int threads;                 /* 0 = auto */
    int jobs;                    /* --jobs: files read at once; 0 = auto */
    uint64_t max_input;          /* --max-input bytes; 0 = default */
    int follow_links; /* --follow-links: folders' links out of them too */
    int each_job;     /* --each-job: one set of reports per job */
    double peak_tflops, peak_gbps;
    const char *device_spec; /* --device-spec FILE */
    /* --kernel-rules FILE, else $PROFREPORT_KERNEL_RULES: rules before the
     * shipped kernel table's (kclass.h); NULL = none */
    const char *kernel_rules;
    /* borrowed: the kernel table the pipeline read (the user's rules and
     * the shipped ones), set by the pipeline for the traces it reads */
    const struct pr_kclass_table *kclass;
    const char *detail_ranks; /* --detail-ranks; NULL = detail.h's default */
    /* table subcommand */
    const char *table_kind; /* operators|kernels|kernel-calls|memory|steps */
    const char *sort_col;
    const char *group_by;
    const char *filter;
    const char *job; /* table --job NAME: one job of several */
    const char *columns;
    double min_time_us;
    int csv, json_out;
    int width;
    const char *why; /* table --why NAME: explain one kernel name */
};

/* Run the command.  Returns PR_OK or the first error (err holds the message
 * that main prints after "profreport: "). */
PR_NODISCARD enum pr_status pr_pipeline_run(const struct pr_options *o,
                                            struct pr_error *err);

/* Build the summary of a set of inputs (trace files or run folders) with
 * default options but --max-input's `max_input` (0: the default); for
 * subcommands such as diff.  *out is owned by the caller (cJSON_Delete). */
PR_NODISCARD enum pr_status pr_pipeline_summary(const char *const *inputs,
                                                size_t n, int quiet,
                                                uint64_t max_input,
                                                struct cJSON **out,
                                                struct pr_error *err);

struct pr_merge;

/* pr_pipeline_summary, but when the inputs are several saved summaries
 * their runs stay lite (merge.h) and *m (else NULL) says where the whole
 * ones are: for consumers that read the runs whole one or two at a time
 * (diff).  *m must outlive *out; free it with pr_merge_free. */
PR_NODISCARD enum pr_status
pr_pipeline_summary_merged(const char *const *inputs, size_t n, int quiet,
                           uint64_t max_input, struct cJSON **out,
                           struct pr_merge **m, struct pr_error *err);

/* The size limit on a saved summary read back: --max-input's bytes, or
 * when it was not given the default limit on an input (formats.h). */
uint64_t pr_pipeline_saved_max(uint64_t max_input);

#endif
