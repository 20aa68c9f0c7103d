/* fuzz_pipeline.c - libFuzzer target for the whole report command, as
 * `profreport -q --input IN --json --html --pdf` runs it: discovery,
 * sniffing and every reader of the format table (whichever claims the
 * input, so readers added to the table are fuzzed without a new target),
 * the saved-summary input, every analysis, and the JSON, HTML and PDF
 * writers (issue #19: the pipeline with the PDF on every input).  The
 * input is one file or, starting with "@@@ ", a folder (fuzz_files.h).
 * Any exit status is fine; a crash, a leak, undefined behaviour or a hang
 * is a finding. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "fuzz_files.h"
#include "profreport/args.h"
#include "profreport/pipeline.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *outdir, *in = fuzz_lay_out(data, size, &outdir);
    char json[128], html[128], pdf[128];
    char input[128];
    char *argv[] = {(char[]){"profreport"},
                    (char[]){"-q"},
                    (char[]){"--threads"},
                    (char[]){"2"},
                    (char[]){"--jobs"},
                    (char[]){"1"},
                    (char[]){"--max-input"},
                    (char[]){"16MiB"},
                    (char[]){"--input"},
                    input,
                    (char[]){"--json"},
                    json,
                    (char[]){"--html"},
                    html,
                    (char[]){"--pdf"},
                    pdf,
                    NULL};
    struct pr_options o;
    struct pr_error err;

    snprintf(input, sizeof(input), "%s", in);
    snprintf(json, sizeof(json), "%s/o.json", outdir);
    snprintf(html, sizeof(html), "%s/o.html", outdir);
    snprintf(pdf, sizeof(pdf), "%s/o.pdf", outdir);
    pr_error_clear(&err);
    if (pr_args_parse(16, argv, PR_CMD_REPORT, &o, &err) != PR_OK)
        abort(); /* the command line is ours */
    (void)pr_pipeline_run(&o, &err);
    pr_args_free(&o);
    return 0;
}
