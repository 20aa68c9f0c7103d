/* kineto.c - the first two rows of the format table: Kineto traces (a JSON
 * object with "traceEvents", PyTorch's profiler) and Chrome trace arrays (a
 * bare JSON array of events).  Both are read by the streaming JSON reader
 * (reader.h), which tells the two apart itself and says PR_E_NOT_FORMAT
 * for JSON that is no trace. */
#include "config.h"

#include "../internal.h"
#include "profreport/formats.h"
#include "profreport/reader.h"

static enum pr_claim
by_name(const struct pr_probe *p)
{
    return pr_probe_name_ends(p, ".json") || pr_probe_name_ends(p, ".json.gz")
               ? PR_CLAIM_NAME
               : PR_CLAIM_NO;
}

/* Any JSON object: the reader decides whether it is a trace, and says
 * precisely why not (other JSON files of a run folder are skipped with its
 * message).  Content that is neither object nor array falls back to the
 * name, so that a damaged *.json named explicitly gets the reader's
 * byte-exact error rather than "not a format". */
static enum pr_claim
sniff_kineto(const struct pr_probe *p)
{
    int c;

    if (p->is_dir)
        return PR_CLAIM_NO;
    c = pr_probe_first(p);
    if (c == '{')
        return pr_probe_has(p, "\"traceEvents\"") ? PR_CLAIM_SURE
                                                  : PR_CLAIM_SHAPE;
    if (c == '[')
        return PR_CLAIM_NO; /* the chrome row's */
    return by_name(p);
}

static enum pr_claim
sniff_chrome(const struct pr_probe *p)
{
    if (p->is_dir || pr_probe_first(p) != '[')
        return PR_CLAIM_NO;
    return pr_probe_has(p, "\"ph\"") ? PR_CLAIM_SURE : PR_CLAIM_SHAPE;
}

const struct pr_format pr_format_kineto = {
    "kineto", sniff_kineto, pr_reader_load, 1, "PyTorch/Kineto trace"};
const struct pr_format pr_format_chrome = {"chrome", sniff_chrome,
                                           pr_reader_load, 1, "Chrome trace"};
