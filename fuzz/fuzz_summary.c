/* fuzz_summary.c - libFuzzer target for the summary loader of diff and
 * trend: the input is written as a summary file and loaded, then compared
 * with itself, gated by the default rule and written as Markdown and
 * JUnit, so that every key the loader lets through is read by the code
 * that uses it.  A file that is not a summary goes on to the pipeline, as
 * it does for `profreport diff`. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "../src/diff/internal.h"
#include "profreport/buf.h"
#include "profreport/diff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
compare_self(const cJSON *sum)
{
    struct pr_diff_opts o;
    struct pr_error err;
    struct pr_buf out;
    cJSON *diff = NULL;
    size_t failed = 0;

    pr_diff_opts_init(&o);
    o.resamples = 50; /* the statistics, not their precision */
    pr_error_clear(&err);
    pr_buf_init(&out, 0);
    if (pr_diff_compare(sum, sum, "a", "b", &o, &diff, &err) == PR_OK &&
        pr_diff_gate(diff, NULL, 0, &o, &failed, &err) == PR_OK &&
        pr_diff_markdown(diff, o.top, &out, &err) == PR_OK)
        (void)pr_diff_junit(diff, &out, &err);
    cJSON_Delete(diff);
    pr_buf_free(&out);
}

static char path[64];

static void
remove_path(void)
{
    (void)unlink(path);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *paths[1];
    struct pr_error err;
    cJSON *sum = NULL;
    FILE *f;

    if (path[0] == '\0') {
        int fd;

        snprintf(path, sizeof(path), "/tmp/pr_fuzz_summary_XXXXXX");
        fd = mkstemp(path);
        if (fd < 0)
            abort();
        close(fd);
        atexit(remove_path);
    }
    f = fopen(path, "wb");
    if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        abort();
    paths[0] = path;
    pr_error_clear(&err);
    if (pr_dload_summary(paths, 1, 1, 0, &sum, NULL, &err) == PR_OK)
        compare_self(sum);
    cJSON_Delete(sum);
    return 0;
}
