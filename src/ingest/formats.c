/* formats.c - the table of input formats, and picking one for an input.
 *
 * How to add a format (issue #10: one file and one row):
 *
 *  1. Write src/ingest/<producer>/<name>.c (one folder per producer:
 *     kineto, nsys, ascend, msprof, mindspore, megengine; the shared
 *     readers stay in src/ingest; include "../internal.h") defining
 *         const struct pr_format pr_format_<name> = {"<name>", sniff, load,
 *                                                    streams};
 *     - sniff(probe) looks at the first bytes of a file (p->head, inflated
 *       when gzip'd) or at a folder (p->is_dir) and answers how sure it is
 *       (enum pr_claim): PR_CLAIM_SURE for a signature only this format has
 *       (SQLite magic plus its tables, a CSV header with its own columns),
 *       PR_CLAIM_SHAPE for the right kind of content, PR_CLAIM_NAME when
 *       only the name fits.  Folder members need a claim on their content;
 *       a claim by name alone counts only for files named explicitly.  A
 *       format that reads a whole run folder (torch_npu *_ascend_pt/,
 *       msprof PROF_*) claims the folder, and discovery does not look
 *       inside it.  The pr_probe_* helpers of internal.h do the usual
 *       checks.
 *     - load(path, opts, &trace, err) builds the trace: take bytes from a
 *       byte source (pr_source_*, which handles gzip and the size cap),
 *       rows from the CSV reader (pr_csv_*), tables from the SQLite helper
 *       (pr_sqlite_*); fill the model with the pr_trace_add_* calls; finish
 *       with pr_trace_finish().  Messages start with the path; return
 *       PR_E_NOT_FORMAT when the input turns out not to be yours.
 *  2. Add &pr_format_<name> to the table below (and its extern line), more
 *     specific formats first, and the file to Makefile.am.
 *  3. Tests: tests/ingest/test_<name>.c with small inputs written by the
 *     test, and a sniffing case in test_formats.c. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "profreport/formats.h"

extern const struct pr_format pr_format_kineto, pr_format_chrome;
extern const struct pr_format pr_format_megengine, pr_format_megengine_static;
extern const struct pr_format pr_format_nsys, pr_format_ascend_db;
extern const struct pr_format pr_format_ascend_trace, pr_format_ascend;
extern const struct pr_format pr_format_mindspore;
extern const struct pr_format pr_format_msprof, pr_format_msprof_op_summary;
extern const struct pr_format pr_format_msprof_cluster;
extern const struct pr_format pr_format_autograd, pr_format_memtl;

/* One row per format, most specific first: on equal claims the earlier
 * row wins. */
static const struct pr_format *const builtin[] = {
    &pr_format_ascend, /* a run folder: before the files it holds */
    &pr_format_msprof, /* PROF_* holds timelines others would claim */
    &pr_format_mindspore,
    &pr_format_nsys,
    &pr_format_megengine_static,
    &pr_format_megengine, /* a Chrome trace too: before kineto and chrome */
    &pr_format_ascend_trace,
    &pr_format_autograd, /* a Chrome array too: before chrome */
    &pr_format_memtl,    /* an array of arrays */
    &pr_format_kineto,
    &pr_format_chrome,
    &pr_format_msprof_op_summary,
    &pr_format_msprof_cluster,
    &pr_format_ascend_db, /* SQLite with the Ascend tables only */
};

static const struct pr_format_table builtin_table = {
    builtin, sizeof(builtin) / sizeof(builtin[0])};

const struct pr_format_table *
pr_formats_builtin(void)
{
    return &builtin_table;
}

const struct pr_format *
pr_formats_pick(const struct pr_format_table *tab, const struct pr_probe *p,
                enum pr_claim min, enum pr_claim *claim)
{
    const struct pr_format *best = NULL;
    enum pr_claim top = PR_CLAIM_NO;
    size_t i;

    for (i = 0; i < tab->n; i++) {
        enum pr_claim c = tab->v[i]->sniff(p);

        if (c > top) {
            top = c;
            best = tab->v[i];
        }
    }
    if (claim != NULL)
        *claim = top;
    return top >= min && top > PR_CLAIM_NO ? best : NULL;
}

const struct pr_format *
pr_formats_streaming(const struct pr_format_table *tab)
{
    size_t i;

    for (i = 0; i < tab->n; i++) {
        if (tab->v[i]->streams)
            return tab->v[i];
    }
    return NULL;
}

static int
is_text(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
            return 0;
    }
    return 1;
}

void
pr_formats_describe(const struct pr_probe *p, int quote, char *out, size_t cap)
{
    const char *s;
    size_t n, i;
    char line[40];

    if (p->is_dir) {
        snprintf(out, cap, "a folder");
        return;
    }
    if (p->head == NULL) {
        snprintf(out, cap, "content that could not be read");
        return;
    }
    if (p->n_head >= 16 && memcmp(p->head, "SQLite format 3", 16) == 0) {
        snprintf(out, cap, "an SQLite database");
        return;
    }
    pr_probe_text(p, &s, &n);
    if (n == 0) {
        snprintf(out, cap, p->whole ? "an empty file" : "blank text");
        return;
    }
    if (!is_text(s, n < 256 ? n : 256)) {
        snprintf(out, cap, "binary data");
        return;
    }
    if (!quote) {
        int comma = 0;

        for (i = 0; i < n && s[i] != '\n' && s[i] != '\r'; i++)
            comma |= s[i] == ',';
        snprintf(out, cap, "%s",
                 s[0] == '{' || s[0] == '[' ? "JSON text of no trace format"
                 : s[0] == '<'              ? "XML or HTML text"
                 : comma                    ? "CSV text of no known table"
                                            : "text");
        return;
    }
    for (i = 0; i < n && i < sizeof(line) - 1 && s[i] != '\n' && s[i] != '\r';
         i++)
        line[i] = s[i] == '"' ? '\'' : s[i];
    line[i] = '\0';
    snprintf(out, cap, "text starting \"%s\"", line);
}

/* What users call format i of `tab` (its title, else its name); NULL
 * when it is listed nowhere or an earlier row has the same words. */
static const char *
user_words(const struct pr_format_table *tab, size_t i)
{
    const char *t = tab->v[i]->title ? tab->v[i]->title : tab->v[i]->name;
    size_t k;

    if (t[0] == '\0')
        return NULL;
    for (k = 0; k < i; k++) {
        const char *e = tab->v[k]->title ? tab->v[k]->title : tab->v[k]->name;

        if (strcmp(e, t) == 0)
            return NULL;
    }
    return t;
}

void
pr_formats_names(const struct pr_format_table *tab, char *out, size_t cap)
{
    size_t i, len = 0;

    if (cap == 0)
        return;
    out[0] = '\0';
    for (i = 0; i < tab->n; i++) {
        const char *t = user_words(tab, i);
        const char *sep = len ? ", " : "";
        size_t need;

        if (t == NULL)
            continue;
        need = strlen(sep) + strlen(t);
        /* words that do not fit whole end the list with "..." (when that
         * fits), never half of them or a dangling comma */
        if (len + need >= cap) {
            if (len + 5 < cap)
                memcpy(out + len, ", ...", 6);
            return;
        }
        snprintf(out + len, cap - len, "%s%s", sep, t);
        len += need;
    }
}

/* ------------------------------------------------------------ probe helpers */

void
pr_probe_text(const struct pr_probe *p, const char **s, size_t *n)
{
    const char *q = p->head, *end = p->head ? p->head + p->n_head : NULL;

    *s = NULL;
    *n = 0;
    if (q == NULL)
        return;
    if (end - q >= 3 && memcmp(q, "\xef\xbb\xbf", 3) == 0)
        q += 3;
    while (q < end && (*q == ' ' || *q == '\n' || *q == '\r' || *q == '\t'))
        q++;
    *s = q;
    *n = (size_t)(end - q);
}

int
pr_probe_first(const struct pr_probe *p)
{
    const char *s;
    size_t n;

    pr_probe_text(p, &s, &n);
    return n > 0 ? (unsigned char)s[0] : -1;
}

int
pr_probe_has(const struct pr_probe *p, const char *needle)
{
    size_t m = strlen(needle), i;

    if (p->head == NULL || m == 0 || p->n_head < m)
        return 0;
    for (i = 0; i + m <= p->n_head; i++) {
        const char *q = memchr(p->head + i, needle[0], p->n_head - m + 1 - i);

        if (q == NULL)
            return 0;
        i = (size_t)(q - p->head);
        if (memcmp(q, needle, m) == 0)
            return 1;
    }
    return 0;
}

int
pr_probe_name_ends(const struct pr_probe *p, const char *suffix)
{
    size_t n = strlen(p->base), m = strlen(suffix);

    return n >= m && strcmp(p->base + n - m, suffix) == 0;
}
