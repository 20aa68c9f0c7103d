/* fuzz_csv.c - libFuzzer target for the CSV reader the table formats
 * share: header, records, quoted fields, BOM, limits. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "../src/ingest/internal.h"
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pr_csv *c = NULL;
    struct pr_error err;
    size_t i, len;
    int got = 1, col;

    pr_error_clear(&err);
    if (pr_csv_open_mem(data, size, &c, &err) != PR_OK)
        return 0;
    col = pr_csv_col(c, "Name");
    for (i = 0; i < pr_csv_n_cols(c); i++)
        (void)pr_csv_col_name(c, i);
    while (got && pr_csv_next(c, &got, &err) == PR_OK && got) {
        (void)pr_csv_field(c, col, &len);
        (void)pr_csv_n_fields(c);
    }
    pr_csv_close(c);
    return 0;
}
