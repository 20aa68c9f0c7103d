/* fuzz_reader.c - libFuzzer target for the Kineto / Chrome JSON reader
 * from memory (the splitter, the event scanner, the parser threads and the
 * merge), with two parser threads so batches are merged as in a real run,
 * then the trace finished and its summary built: the analysis passes read
 * whatever the reader accepted. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "fuzz.h"
#include "profreport/reader.h"
#include "profreport/trace.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pr_read_opts o = {.max_input_bytes = (uint64_t)16 << 20,
                             .threads = 2};
    struct pr_trace *t = NULL;
    struct pr_error err;

    pr_error_clear(&err);
    if (pr_reader_load_mem("fuzz", data, size, &o, &t, &err) == PR_OK)
        fuzz_summarise(t);
    return 0;
}
