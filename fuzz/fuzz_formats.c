/* fuzz_formats.c - libFuzzer target for each row of the format table by
 * itself, past sniffing: the input is a format's name and a newline, then
 * one file or a folder (fuzz_files.h), loaded by that row's load() and,
 * when accepted, summarised.  Rows are found by name at run time, so a
 * reader added to the table is fuzzed as soon as seeds name it (fuzz/run.sh
 * makes one seed per row from test data and ../shared/traces).  An input
 * naming no row is skipped.  Any status is fine; a crash, a leak,
 * undefined behaviour or a hang is a finding. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "fuzz_files.h"
#include "profreport/formats.h"
#include "profreport/trace.h"

static const struct pr_format *
format_named(const char *name, size_t n)
{
    const struct pr_format_table *tab = pr_formats_builtin();
    size_t i;

    for (i = 0; i < tab->n; i++)
        if (strlen(tab->v[i]->name) == n &&
            memcmp(tab->v[i]->name, name, n) == 0)
            return tab->v[i];
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv);

/* FUZZ_LIST_FORMATS=1 prints the rows' names and exits: fuzz/run.sh
 * makes the seeds of every row from them. */
int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const struct pr_format_table *tab = pr_formats_builtin();
    size_t i;

    (void)argc;
    (void)argv;
    if (getenv("FUZZ_LIST_FORMATS") == NULL)
        return 0;
    for (i = 0; i < tab->n; i++)
        printf("%s\n", tab->v[i]->name);
    exit(0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *nl = memchr(data, '\n', size < 32 ? size : 32);
    struct pr_read_opts o = {.max_input_bytes = (uint64_t)16 << 20,
                             .threads = 2};
    const struct pr_format *f;
    struct pr_trace *t = NULL;
    struct pr_error err;
    const char *in, *outdir;
    size_t skip;

    if (nl == NULL)
        return 0;
    f = format_named((const char *)data, (size_t)(nl - (const char *)data));
    if (f == NULL)
        return 0;
    skip = (size_t)(nl - (const char *)data) + 1;
    in = fuzz_lay_out(data + skip, size - skip, &outdir);
    in = fuzz_only_folder(in);
    pr_error_clear(&err);
    if (f->load(in, &o, &t, &err) == PR_OK)
        fuzz_summarise(t);
    return 0;
}
