/* nvtx.c - recognise the NVTX ranges that torch.autograd.profiler.emit_nvtx
 * pushes ("aten::addmm, seq = 12, op_id = 7, sizes = [[64, 512], []],
 * input_op_ids = [(5,0)]") so that the writer can turn them into operators.
 * Everything else is a user annotation. */
#include "config.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/record.h"

static const char *const FIELDS[] = {
    ", seq = ", ", op_id = ", ", sizes = ", ", input_op_ids = "};

/* The first emit_nvtx field in `text`, or NULL. */
static const char *
first_field(const char *text)
{
    const char *best = NULL;
    size_t i;

    for (i = 0; i < sizeof(FIELDS) / sizeof(FIELDS[0]); i++) {
        const char *p = strstr(text, FIELDS[i]);
        if (p != NULL && (best == NULL || p < best))
            best = p;
    }
    return best;
}

/* Length of a balanced "[...]" made only of digits, '-', ',', ' ' and
 * brackets (a shapes list); 0 when `p` does not start one. */
static size_t
shapes_len(const char *p)
{
    size_t i;
    int depth = 0;

    if (*p != '[')
        return 0;
    for (i = 0; p[i] != '\0'; i++) {
        char ch = p[i];
        if (ch == '[')
            depth++;
        else if (ch == ']')
            depth--;
        else if (!isdigit((unsigned char)ch) && ch != '-' && ch != ',' &&
                 ch != ' ')
            return 0;
        if (depth == 0)
            return i + 1;
        if (depth > 64) /* deeper than any tensor list: not a shapes list */
            return 0;
    }
    return 0;
}

static int64_t
parse_seq(const char *text)
{
    const char *p = strstr(text, FIELDS[0]);
    char *end;
    long long v;

    if (p == NULL)
        return -1;
    p += strlen(FIELDS[0]);
    if (!isdigit((unsigned char)*p))
        return -1;
    v = strtoll(p, &end, 10);
    if (*end != '\0' && *end != ',')
        return -1;
    return (int64_t)v;
}

/* "ns::name..." - how PyTorch names operators (aten::, autograd::, ...). */
static int
is_qualified(const char *name, size_t len)
{
    size_t i = 0;

    if (len == 0 || !(isalpha((unsigned char)name[0]) || name[0] == '_'))
        return 0;
    while (i < len && (isalnum((unsigned char)name[i]) || name[i] == '_'))
        i++;
    return i + 2 < len && name[i] == ':' && name[i + 1] == ':';
}

int
pr_record_parse_nvtx(const char *text, struct pr_nvtx_op *out)
{
    const char *f = first_field(text);
    const char *sz;

    memset(out, 0, sizeof(*out));
    out->seq = -1;
    out->name_len = f != NULL ? (size_t)(f - text) : strlen(text);
    if (f == NULL)
        return is_qualified(text, out->name_len);
    out->seq = parse_seq(text);
    sz = strstr(text, FIELDS[2]);
    if (sz != NULL) {
        sz += strlen(FIELDS[2]);
        out->sizes_len = shapes_len(sz);
        out->sizes = out->sizes_len ? sz : NULL;
    }
    /* record_function() ranges get only "op_id = N": not operators */
    return out->seq >= 0 || out->sizes != NULL ||
           is_qualified(text, out->name_len);
}
