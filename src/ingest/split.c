/* split.c - the streaming top-level scanner.  It walks the document as a
 * byte stream, cuts each element of `traceEvents` (or of a bare top-level
 * array) out as raw text for the caller to parse, keeps the text of a few
 * small top-level values, and skips everything else without storing it.
 * It tracks only strings, escapes and nesting; cJSON validates each event. */
#include "config.h"

#include <inttypes.h>
#include <string.h>

#include "internal.h"

enum {
    ST_START,      /* before the top-level value */
    ST_KEY_OR_END, /* in the top-level object, before a key or '}' */
    ST_KEY,        /* inside a top-level key */
    ST_COLON,
    ST_VALUE,     /* before a top-level value */
    ST_VAL,       /* inside a skipped or captured top-level value */
    ST_TOP_NEXT,  /* after a top-level value: ',' or '}' */
    ST_EV_BEFORE, /* in the events array, before an element or ']' */
    ST_EV_IN,     /* inside one event */
    ST_EV_AFTER,  /* after an event: ',' or ']' */
    ST_END        /* after the top-level value: only whitespace */
};

#define TARGET_SKIP (-1)

const char *const pr_split_cap_keys[PR_SPLIT_N_CAPS] = {
    "deviceProperties",
    "distributedInfo",
    "baseTimeNanoseconds",
    "Framework",
};

/* The bytes scan_value() acts on outside strings. */
static const unsigned char structural[256] = {
    ['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1,
};

static int
is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

void
pr_split_init(struct pr_split *s, pr_split_emit_fn emit, void *ctx)
{
    size_t i;

    memset(s, 0, sizeof(*s));
    s->emit = emit;
    s->ctx = ctx;
    s->state = ST_START;
    pr_buf_init(&s->part, PR_INGEST_MAX_EVENT);
    for (i = 0; i < PR_SPLIT_N_CAPS; i++)
        pr_buf_init(&s->caps[i], PR_INGEST_MAX_CAPTURE);
}

void
pr_split_free(struct pr_split *s)
{
    size_t i;

    if (s == NULL)
        return;
    pr_buf_free(&s->part);
    for (i = 0; i < PR_SPLIT_N_CAPS; i++)
        pr_buf_free(&s->caps[i]);
}

/* What a value starting with `c` is, for "not a trace" messages. */
static const char *
kind_of(char c)
{
    if (c == '-' || (c >= '0' && c <= '9'))
        return "a number";
    switch (c) {
    case '"':
        return "a string";
    case '[':
        return "an array";
    case '{':
        return "an object";
    case 't':
    case 'f':
        return "a boolean";
    case 'n':
        return "null";
    default:
        return "not JSON";
    }
}

/* Skip the rest of a string; the opening quote is already consumed.  Finds
 * quotes with memchr and decides whether one is escaped by the parity of
 * the backslashes before it, so long strings (call stacks, kernel names)
 * cost little.  Returns the byte after the closing quote, or NULL when the
 * chunk ends first (s->esc remembers a dangling backslash). */
static const char *
skip_string(struct pr_split *s, const char *p, const char *end)
{
    for (;;) {
        const char *q;
        size_t k = 0;

        if (s->esc) {
            if (p == end)
                return NULL;
            p++;
            s->esc = 0;
        }
        q = memchr(p, '"', (size_t)(end - p));
        if (q == NULL) {
            while (end - k > p && end[-1 - (ptrdiff_t)k] == '\\')
                k++;
            s->esc = (int)(k & 1);
            return NULL;
        }
        while (q - k > p && q[-1 - (ptrdiff_t)k] == '\\')
            k++;
        if ((k & 1) == 0) {
            s->in_str = 0;
            return q + 1;
        }
        p = q + 1;
    }
}

/* Advance through one string or container value, from its first byte or
 * from where the previous chunk left off.  Returns the byte after the
 * value, or NULL when the chunk ends inside it; nesting deeper than the
 * limit sets *deep to the offending byte (and returns NULL). */
static const char *
scan_value(struct pr_split *s, const char *p, const char *end,
           const char **deep)
{
    if (s->in_str) {
        p = skip_string(s, p, end);
        if (p == NULL || s->depth == 0)
            return p;
    }
    while (p < end) {
        char c;

        /* bytes between strings and brackets are most of what is left
         * once strings are skipped: one table look-up each */
        while (p < end && !structural[(unsigned char)*p])
            p++;
        if (p == end)
            break;
        c = *p++;
        if (c == '"') {
            s->in_str = 1;
            p = skip_string(s, p, end);
            if (p == NULL || s->depth == 0)
                return p;
        } else if (c == '{' || c == '[') {
            if (++s->depth > PR_INGEST_MAX_DEPTH) {
                *deep = p - 1;
                return NULL;
            }
        } else if (c == '}' || c == ']') {
            if (--s->depth == 0)
                return p;
        }
    }
    return NULL;
}

/* A scalar ends at a delimiter, which is not part of it. */
static const char *
scan_scalar(const char *p, const char *end)
{
    while (p < end && !is_ws(*p) && *p != ',' && *p != '}' && *p != ']')
        p++;
    return p < end ? p : NULL;
}

static uint64_t
off(const struct pr_split *s, const char *base, const char *p)
{
    return s->pos + (uint64_t)(p - base);
}

static enum pr_status
too_deep(struct pr_split *s, uint64_t at, struct pr_error *err)
{
    if (s->state == ST_EV_IN)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": event %" PRIu64
                            ": nesting deeper than %d levels",
                            at, s->n_events, PR_INGEST_MAX_DEPTH);
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": nesting deeper than %d levels", at,
                        PR_INGEST_MAX_DEPTH);
}

/* Inside one event: hand it over whole, gluing pieces that span chunks. */
static enum pr_status
feed_event(struct pr_split *s, const char *base, const char **pp,
           const char *end, struct pr_error *err)
{
    const char *p = *pp, *deep = NULL;
    const char *q = scan_value(s, p, end, &deep);
    enum pr_status st;

    if (deep != NULL)
        return too_deep(s, off(s, base, deep), err);
    if (q != NULL && s->part.len == 0) {
        st = s->emit(s->ctx, s->n_events, s->start, p, (size_t)(q - p), err);
    } else {
        st = pr_buf_add(&s->part, p, (size_t)((q ? q : end) - p));
        if (st != PR_OK)
            return pr_error_set(err, st,
                                "byte %" PRIu64 ": event %" PRIu64
                                ": event larger than %zu MiB",
                                s->start, s->n_events,
                                PR_INGEST_MAX_EVENT >> 20);
        if (q == NULL) {
            *pp = end;
            return PR_OK;
        }
        st = s->emit(s->ctx, s->n_events, s->start, s->part.data, s->part.len,
                     err);
        pr_buf_reset(&s->part);
    }
    s->n_events++;
    s->state = ST_EV_AFTER;
    *pp = q;
    return st;
}

/* Inside a top-level value we skip or keep. */
static enum pr_status
feed_value(struct pr_split *s, const char *base, const char **pp,
           const char *end, struct pr_error *err)
{
    const char *p = *pp, *deep = NULL, *q;

    if (s->scalar)
        q = scan_scalar(p, end);
    else
        q = scan_value(s, p, end, &deep);
    if (deep != NULL)
        return too_deep(s, off(s, base, deep), err);
    if (s->target != TARGET_SKIP) {
        size_t n = (size_t)((q ? q : end) - p);

        s->cap_total += n;
        if (s->cap_total > PR_INGEST_MAX_CAPTURE ||
            pr_buf_add(&s->caps[s->target], p, n) != PR_OK)
            return pr_error_set(err, PR_E_LIMIT,
                                "byte %" PRIu64 ": top-level value \"%s\" "
                                "larger than %zu MiB",
                                s->start, pr_split_cap_keys[s->target],
                                PR_INGEST_MAX_CAPTURE >> 20);
    }
    if (q == NULL) {
        *pp = end;
        return PR_OK;
    }
    s->state = ST_TOP_NEXT;
    *pp = q;
    return PR_OK;
}

/* Collect a top-level key; long keys are kept truncated and match nothing
 * (they are longer than every key we look for). */
static void
feed_key(struct pr_split *s, const char **pp, const char *end)
{
    const char *p = *pp;
    const char *q = skip_string(s, p, end);
    const char *stop = q ? q - 1 : end;
    size_t n = (size_t)(stop - p);

    if (s->key_len + n >= sizeof(s->key))
        n = s->key_len < sizeof(s->key) - 1 ? sizeof(s->key) - 1 - s->key_len
                                            : 0;
    memcpy(s->key + s->key_len, p, n);
    s->key_len += n;
    s->key[s->key_len] = '\0';
    if (q != NULL)
        s->state = ST_COLON;
    *pp = q ? q : end;
}

static int
key_is(const struct pr_split *s, const char *k)
{
    return s->key_len == strlen(k) && memcmp(s->key, k, s->key_len) == 0;
}

/* Start of a top-level value: the events array, a kept value or a skip. */
static enum pr_status
begin_value(struct pr_split *s, uint64_t at, char c, struct pr_error *err)
{
    size_t i;

    if (key_is(s, "traceEvents")) {
        if (c != '[')
            return pr_error_set(err, PR_E_NOT_FORMAT,
                                "not a profiler trace (traceEvents is %s, "
                                "not an array)",
                                kind_of(c));
        if (s->has_events)
            return pr_error_set(err, PR_E_FORMAT,
                                "byte %" PRIu64 ": second traceEvents key", at);
        s->has_events = 1;
        s->state = ST_EV_BEFORE;
        return PR_OK;
    }
    s->target = TARGET_SKIP;
    for (i = 0; i < PR_SPLIT_N_CAPS; i++) {
        if (key_is(s, pr_split_cap_keys[i])) {
            s->target = (int)i;
            /* a repeated key replaces the earlier value, as in Python */
            s->cap_total -= s->caps[i].len;
            pr_buf_reset(&s->caps[i]);
            s->cap_at[i] = at;
        }
    }
    s->start = at;
    s->in_str = 0;
    s->esc = 0;
    s->depth = 0;
    s->scalar = c != '"' && c != '{' && c != '[';
    s->state = ST_VAL;
    return PR_OK;
}

static enum pr_status
unexpected(uint64_t at, char c, const char *wanted, struct pr_error *err)
{
    unsigned char u = (unsigned char)c;

    if (u >= 0x20 && u < 0x7f)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": expected %s, found '%c'", at,
                            wanted, c);
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": expected %s, found byte 0x%02x", at,
                        wanted, u);
}

/* An element of the events array that is not an object. */
static enum pr_status
not_object(struct pr_split *s, uint64_t at, char c, struct pr_error *err)
{
    if (s->bare && s->n_events == 0)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "not a profiler trace (an array whose first "
                            "element is %s, not an event object)",
                            kind_of(c));
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": event %" PRIu64
                        ": not an object (%s)",
                        at, s->n_events, kind_of(c));
}

static enum pr_status
leave_events(struct pr_split *s)
{
    s->state = s->bare ? ST_END : ST_TOP_NEXT;
    return PR_OK;
}

/* The first byte of the document: an object, or a bare array of events. */
static enum pr_status
step_start(struct pr_split *s, uint64_t at, char c, struct pr_error *err)
{
    if (c == '{') {
        s->state = ST_KEY_OR_END;
        return PR_OK;
    }
    if (c == '[') {
        s->bare = 1;
        s->state = ST_EV_BEFORE;
        return PR_OK;
    }
    if (kind_of(c)[0] == 'n' && c != 'n')
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": not JSON (starts with "
                            "byte 0x%02x)",
                            at, (unsigned char)c);
    return pr_error_set(err, PR_E_NOT_FORMAT,
                        "not a profiler trace (the document is %s)",
                        kind_of(c));
}

/* Between the events of the array. */
static enum pr_status
step_events(struct pr_split *s, uint64_t at, char c, struct pr_error *err)
{
    if (s->state == ST_EV_AFTER) {
        if (c == ',') {
            s->state = ST_EV_BEFORE;
            return PR_OK;
        }
        if (c == ']')
            return leave_events(s);
        return unexpected(at, c, "',' or ']' after an event", err);
    }
    if (c == ']')
        return leave_events(s);
    if (c != '{')
        return not_object(s, at, c, err);
    s->start = at;
    s->depth = 0;
    s->in_str = 0;
    s->esc = 0;
    s->state = ST_EV_IN;
    return PR_OK;
}

/* One structural byte `c` at offset `at` (states between values). */
static enum pr_status
step(struct pr_split *s, uint64_t at, char c, struct pr_error *err)
{
    switch (s->state) {
    case ST_START:
        return step_start(s, at, c, err);
    case ST_KEY_OR_END:
        if (c == '}') {
            s->state = ST_END;
            return PR_OK;
        }
        if (c != '"')
            return unexpected(at, c, "a key", err);
        s->key_len = 0;
        s->key[0] = '\0';
        s->in_str = 1;
        s->esc = 0;
        s->state = ST_KEY;
        return PR_OK;
    case ST_COLON:
        if (c != ':')
            return unexpected(at, c, "':'", err);
        s->state = ST_VALUE;
        return PR_OK;
    case ST_VALUE:
        return begin_value(s, at, c, err);
    case ST_TOP_NEXT:
        if (c == ',' || c == '}') {
            s->state = c == ',' ? ST_KEY_OR_END : ST_END;
            return PR_OK;
        }
        return unexpected(at, c, "',' or '}'", err);
    case ST_EV_BEFORE:
    case ST_EV_AFTER:
        return step_events(s, at, c, err);
    default: /* ST_END */
        return unexpected(at, c, "the end of the document", err);
    }
}

/* Skip a UTF-8 byte order mark at the very start; some Windows tools write
 * one. */
static size_t
skip_bom(const struct pr_split *s, const char *p, size_t n)
{
    if (s->pos == 0 && s->state == ST_START && n >= 3 &&
        memcmp(p, "\xef\xbb\xbf", 3) == 0)
        return 3;
    return 0;
}

enum pr_status
pr_split_feed(struct pr_split *s, const char *p, size_t n, struct pr_error *err)
{
    const char *base = p, *end = p + n;
    enum pr_status st = PR_OK;

    p += skip_bom(s, p, n);
    while (p < end && st == PR_OK) {
        if (s->state == ST_EV_IN) {
            st = feed_event(s, base, &p, end, err);
        } else if (s->state == ST_VAL) {
            st = feed_value(s, base, &p, end, err);
        } else if (s->state == ST_KEY) {
            feed_key(s, &p, end);
        } else if (is_ws(*p)) {
            p++;
        } else {
            st = step(s, off(s, base, p), *p, err);
            /* a value's first byte belongs to the value: scan it there */
            if (s->state != ST_EV_IN && s->state != ST_VAL)
                p++;
        }
    }
    s->pos += n;
    return st;
}

enum pr_status
pr_split_finish(struct pr_split *s, struct pr_error *err)
{
    switch (s->state) {
    case ST_END:
        break;
    case ST_START:
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "byte %" PRIu64 ": empty input (not a profiler "
                            "trace)",
                            s->pos);
    case ST_EV_IN:
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": event %" PRIu64
                            ": unexpected end of input inside the event "
                            "that starts at byte %" PRIu64 " (truncated?)",
                            s->pos, s->n_events, s->start);
    default:
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": unexpected end of input "
                            "(truncated?)",
                            s->pos);
    }
    if (!s->bare && !s->has_events)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "not a profiler trace (no traceEvents)");
    return PR_OK;
}
