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

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *outdir, *in = fuzz_lay_out(data, size, &outdir);

    fuzz_report(in, outdir);
    return 0;
}
