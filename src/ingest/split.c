/* split.c - the streaming top-level scanner.  It walks the document as a
 * byte stream, cuts each element of `traceEvents` (or of a bare top-level
 * array) out as raw text for the caller to parse, keeps the text of a few
 * small top-level values, and skips everything else without storing it.
 * Events are cut by tracking strings, escapes and nesting only (events.c
 * checks each one against the grammar below); everything else, top-level
 * keys and values, is checked here as it streams by. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "profreport/parse.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

enum {
    ST_START,      /* before the top-level value */
    ST_KEY_OR_END, /* in the top-level object, before a key or '}' */
    ST_KEY_NEXT,   /* after ',' in the top-level object: a key */
    ST_KEY,        /* inside a top-level key */
    ST_COLON,
    ST_VALUE,     /* before a top-level value */
    ST_VAL,       /* inside a skipped or captured top-level value */
    ST_TOP_NEXT,  /* after a top-level value: ',' or '}' */
    ST_EV_BEFORE, /* in the events array, before an element or ']' */
    ST_EV_NEXT,   /* after ',' in the events array: an element */
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

/* The bytes scan_bytes() acts on outside strings. */
static const unsigned char structural[256] = {
    ['"'] = 1, ['{'] = 1, ['}'] = 1, ['['] = 1, [']'] = 1,
};

static int
is_ws(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* ------------------------------------------------------------ grammar */

enum {
    J_START,
    J_MINUS,
    J_ZERO,
    J_INT,
    J_DOT,
    J_FRAC,
    J_E,
    J_ESIGN,
    J_EXP,
    J_LIT
};

/* The literal tokens; "-Infinity" is reached through a number's '-'. */
static const char *const literals[] = {"true",     "false",     "null", "NaN",
                                       "Infinity", "-Infinity", "N/A"};
enum { LIT_NAN = 3, LIT_NEG_INF = 5, LIT_NA = 6 };

static int
is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

void
pr_jscalar_init(struct pr_jscalar *s)
{
    s->st = J_START;
    s->lit = 0;
    s->pos = 0;
}

/* A byte that would run on from a token (so "truex" and "0x1f" are wrong
 * tokens, not a token and a stray byte). */
static int
is_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) ||
           c == '/' || c == '.' || c == '+' || c == '-' || c == '_';
}

/* Inside a literal: the next byte of it, or its end. */
static int
lit_step(struct pr_jscalar *s, unsigned char c)
{
    const char *want = literals[s->lit];

    if (want[s->pos] == '\0')
        return 0;
    if (s->lit == LIT_NAN && s->pos == 1 && c == '/')
        s->lit = LIT_NA; /* "N/" is N/A, not NaN */
    else if ((unsigned char)want[s->pos] != c)
        return -1;
    s->pos++;
    return 1;
}

static int
start_step(struct pr_jscalar *s, unsigned char c)
{
    size_t i;

    if (c == '-' || is_digit(c)) {
        s->st = c == '-' ? J_MINUS : c == '0' ? J_ZERO : J_INT;
        return 1;
    }
    for (i = 0; i < sizeof(literals) / sizeof(literals[0]); i++) {
        if ((unsigned char)literals[i][0] == c) {
            s->st = J_LIT;
            s->lit = (uint8_t)i;
            s->pos = 1;
            return 1;
        }
    }
    return -1;
}

static int
token_step(struct pr_jscalar *s, unsigned char c)
{
    int d = is_digit(c), e = c == 'e' || c == 'E';

    switch (s->st) {
    case J_START:
        return start_step(s, c);
    case J_MINUS:
        if (c == 'I') {
            s->st = J_LIT;
            s->lit = LIT_NEG_INF;
            s->pos = 2;
            return 1;
        }
        s->st = c == '0' ? J_ZERO : J_INT;
        return d ? 1 : -1;
    case J_ZERO: /* JSON has no leading zeros */
    case J_INT:
        if (d && s->st == J_ZERO)
            return -1;
        s->st = c == '.' ? J_DOT : e ? J_E : s->st;
        return d || c == '.' || e ? 1 : 0;
    case J_DOT:
    case J_ESIGN:
        s->st = s->st == J_DOT ? J_FRAC : J_EXP;
        return d ? 1 : -1;
    case J_FRAC:
        s->st = e ? J_E : J_FRAC;
        return d || e ? 1 : 0;
    case J_E:
        s->st = c == '+' || c == '-' ? J_ESIGN : J_EXP;
        return d || c == '+' || c == '-' ? 1 : -1;
    case J_EXP:
        return d ? 1 : 0;
    default:
        return lit_step(s, c);
    }
}

int
pr_jscalar_step(struct pr_jscalar *s, unsigned char c)
{
    int r = token_step(s, c);

    return r == 0 && is_word(c) ? -1 : r;
}

int
pr_jscalar_ok(const struct pr_jscalar *s)
{
    switch (s->st) {
    case J_ZERO:
    case J_INT:
    case J_FRAC:
    case J_EXP:
        return 1;
    case J_LIT:
        return literals[s->lit][s->pos] == '\0';
    default:
        return 0;
    }
}

static const char *
digits_end(const char *p, const char *end)
{
    while (p < end && is_digit((unsigned char)*p))
        p++;
    return p;
}

const char *
pr_json_number_end(const char *p, const char *end)
{
    const char *q = p + (p < end && *p == '-');

    if (q == end || !is_digit((unsigned char)*q))
        return NULL;
    q = *q == '0' ? q + 1 : digits_end(q, end); /* no leading zeros */
    if (q < end && *q == '.') {
        if (++q == end || !is_digit((unsigned char)*q))
            return NULL;
        q = digits_end(q, end);
    }
    if (q < end && (*q == 'e' || *q == 'E')) {
        q += q + 1 < end && (q[1] == '+' || q[1] == '-') ? 2 : 1;
        if (q >= end || !is_digit((unsigned char)*q))
            return NULL;
        q = digits_end(q, end);
    }
    return q < end && is_word((unsigned char)*q) ? NULL : q;
}

static int
is_hex(unsigned char c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int
is_escape(unsigned char c)
{
    return c != '\0' && strchr("\"\\/bfnrtu", c) != NULL;
}

size_t
pr_json_escape_len(const char *p, const char *end)
{
    int i;

    if (end - p < 2 || !is_escape((unsigned char)p[1]))
        return 0;
    if (p[1] != 'u')
        return 2;
    if (end - p < 6)
        return 0;
    for (i = 2; i < 6; i++) {
        if (!is_hex((unsigned char)p[i]))
            return 0;
    }
    return 6;
}

enum pr_status
pr_json_refuse_nul(const char *text, size_t len, uint64_t offset,
                   uint64_t index, struct pr_error *err)
{
    size_t at = pr_parse_json_nul(text, len);
    char ev[40] = "";

    if (at == SIZE_MAX)
        return PR_OK;
    if (index != UINT64_MAX)
        snprintf(ev, sizeof(ev), "event %" PRIu64 ": ", index);
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": %sa string holds \\u0000 (a NUL "
                        "character), which no profiler writes in a name: not "
                        "read, as the name would be cut there",
                        offset + at, ev);
}

/* States of the streaming checker. */
enum {
    K_VALUE,
    K_VALUE_OR_CLOSE,
    K_KEY_OR_CLOSE,
    K_KEY,
    K_COLON,
    K_AFTER,
    K_STR,
    K_ESC,
    K_HEX,
    K_SCALAR,
    K_DONE
};

void
pr_jchk_init(struct pr_jchk *k)
{
    memset(k, 0, sizeof(*k));
    k->st = K_VALUE;
}

static void
after_value(struct pr_jchk *k)
{
    k->st = k->depth == 0 ? K_DONE : K_AFTER;
}

static int
top_is_obj(const struct pr_jchk *k)
{
    return (int)((k->obj >> (k->depth - 1)) & 1);
}

/* An opening or closing bracket; 0 when it does not fit or is too deep. */
static int
bracket(struct pr_jchk *k, unsigned char c)
{
    if (c == '{' || c == '[') {
        if (k->depth == PR_INGEST_MAX_DEPTH)
            return 0;
        k->depth++;
        if (c == '{')
            k->obj |= (uint64_t)1 << (k->depth - 1);
        else
            k->obj &= ~((uint64_t)1 << (k->depth - 1));
        k->st = c == '{' ? K_KEY_OR_CLOSE : K_VALUE_OR_CLOSE;
        return 1;
    }
    if (k->depth == 0 || top_is_obj(k) != (c == '}'))
        return 0;
    k->depth--;
    after_value(k);
    return 1;
}

/* A byte where a value starts (or, after '[', the array may close). */
static int
value_byte(struct pr_jchk *k, unsigned char c)
{
    if (c == '{' || c == '[' || (c == ']' && k->st == K_VALUE_OR_CLOSE))
        return bracket(k, c);
    if (c == '"') {
        k->st = K_STR;
        k->key = 0;
        return 1;
    }
    pr_jscalar_init(&k->sc);
    k->st = K_SCALAR;
    return pr_jscalar_step(&k->sc, c) == 1;
}

/* One byte outside strings and tokens; 0 when it is wrong there. */
static int
struct_byte(struct pr_jchk *k, unsigned char c)
{
    if (k->st == K_ESC) {
        if (!is_escape(c))
            return 0;
        k->st = c == 'u' ? K_HEX : K_STR;
        k->hex = 4;
        return 1;
    }
    if (k->st == K_HEX) {
        if (!is_hex(c))
            return 0;
        k->st = --k->hex == 0 ? K_STR : K_HEX;
        return 1;
    }
    if (is_ws((char)c))
        return 1;
    switch (k->st) {
    case K_VALUE:
    case K_VALUE_OR_CLOSE:
        return value_byte(k, c);
    case K_KEY_OR_CLOSE:
    case K_KEY:
        if (c == '}' && k->st == K_KEY_OR_CLOSE)
            return bracket(k, c);
        k->st = K_STR;
        k->key = 1;
        return c == '"';
    case K_COLON:
        k->st = K_VALUE;
        return c == ':';
    default: /* K_AFTER */
        if (c == ',') {
            k->st = top_is_obj(k) ? K_KEY : K_VALUE;
            return 1;
        }
        return (c == '}' || c == ']') && bracket(k, c);
    }
}

/* End a feed: count what was taken, say what to blame on failure. */
static int
fed(struct pr_jchk *k, int r, size_t i, size_t *used)
{
    *used = i;
    if (r == PR_JCHK_BAD || r == PR_JCHK_DEEP)
        k->bad = k->st == K_SCALAR || k->st == K_ESC || k->st == K_HEX
                     ? k->tok
                     : k->seen + i;
    k->seen += i;
    return r;
}

int
pr_jchk_feed(struct pr_jchk *k, const char *p, size_t n, size_t *used)
{
    size_t i = 0;

    while (i < n) {
        unsigned char c = (unsigned char)p[i];

        if (k->st == K_STR) {
            while (i < n && p[i] != '"' && p[i] != '\\')
                i++;
            if (i == n)
                break;
            if (p[i] == '"') {
                if (k->key)
                    k->st = K_COLON;
                else
                    after_value(k);
            } else {
                k->st = K_ESC;
                k->tok = k->seen + i; /* a wrong escape: blame its '\\' */
            }
            i++;
        } else if (k->st == K_SCALAR) {
            int r = pr_jscalar_step(&k->sc, c);

            if (r < 0 || (r == 0 && !pr_jscalar_ok(&k->sc)))
                return fed(k, PR_JCHK_BAD, i, used);
            if (r == 0)
                after_value(k); /* c is looked at again below */
            else
                i++;
        } else {
            int ok = struct_byte(k, c);
            const char *q = NULL;

            if (k->st == K_SCALAR) {
                k->tok = k->seen + i; /* a number or literal begins at c */
                /* a number that ends inside this chunk, in one go */
                q = pr_json_number_end(p + i, p + n);
            }
            if (!ok)
                return fed(k,
                           k->depth == PR_INGEST_MAX_DEPTH &&
                                   (c == '{' || c == '[')
                               ? PR_JCHK_DEEP
                               : PR_JCHK_BAD,
                           i, used);
            if (q != NULL && q < p + n) {
                i = (size_t)(q - p);
                after_value(k); /* the byte at q is looked at next */
            } else {
                i++;
            }
        }
        if (k->st == K_DONE)
            return fed(k, PR_JCHK_DONE, i, used);
    }
    return fed(k, PR_JCHK_MORE, n, used);
}

int
pr_jchk_end(const struct pr_jchk *k)
{
    return k->st == K_SCALAR && k->depth == 0 && pr_jscalar_ok(&k->sc)
               ? PR_JCHK_DONE
               : PR_JCHK_MORE;
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

/* Skip the rest of a string; the opening quote is already consumed.  A
 * backslash escapes the byte after it, also across chunks (s->esc).
 * Returns the byte after the closing quote, or NULL when the chunk ends
 * first. */
static const char *
skip_string(struct pr_split *s, const char *p, const char *end)
{
    for (;;) {
        if (s->esc) {
            if (p == end)
                return NULL;
            p++;
            s->esc = 0;
        }
        p = pr_str_stop(p, end);
        if (p == end)
            return NULL;
        if (*p == '"') {
            s->in_str = 0;
            return p + 1;
        }
        s->esc = 1;
        p++;
    }
}

/* The byte-wise scan of [p, end) inside a value, from the state that
 * s->depth, s->in_str and s->esc hold (also where an earlier chunk left
 * off).  Returns the byte after the value, or NULL when it goes on past
 * end; nesting deeper than the limit sets *deep to the offending byte
 * (and returns NULL). */
static const char *
scan_bytes(struct pr_split *s, const char *p, const char *end,
           const char **deep)
{
    if (s->in_str) {
        p = skip_string(s, p, end);
        if (p == NULL || s->depth == 0)
            return p;
    }
    while (p < end) {
        char c;

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

/* ------------------------------------------------------------ blocks */

/* Most of an event is passed over 64 bytes at a time, as simdjson does:
 * bit masks of the block's quotes, backslashes and brackets, the bytes
 * that backslashes escape, and from those which bytes are inside strings,
 * with no branch per string.  Only the brackets outside strings are then
 * visited, a few per event.  The masks treat every backslash as an escape,
 * the byte-wise scan only those inside strings; a block with a backslash
 * outside strings (not JSON) goes to the byte-wise scan, so both give the
 * same answer on every input. */

#define BLOCK 64

struct blk {
    uint64_t quote, bslash, open, close; /* bit i: byte i of the block */
};

#if defined(__SSE2__)
static uint64_t
mask16(__m128i eq, int at)
{
    return (uint64_t)(unsigned)_mm_movemask_epi8(eq) << at;
}

static void
blk_masks(const char *p, struct blk *b)
{
    const __m128i qt = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'),
                  up = _mm_set1_epi8((char)0xdf), op = _mm_set1_epi8('['),
                  cl = _mm_set1_epi8(']');
    int i;

    memset(b, 0, sizeof(*b));
    for (i = 0; i < BLOCK; i += 16) {
        __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        __m128i f = _mm_and_si128(w, up); /* '{' & 0xdf is '[' */

        b->quote |= mask16(_mm_cmpeq_epi8(w, qt), i);
        b->bslash |= mask16(_mm_cmpeq_epi8(w, bs), i);
        b->open |= mask16(_mm_cmpeq_epi8(f, op), i);
        b->close |= mask16(_mm_cmpeq_epi8(f, cl), i);
    }
}
#else
static void
blk_masks(const char *p, struct blk *b)
{
    int i;

    memset(b, 0, sizeof(*b));
    for (i = 0; i < BLOCK; i++) {
        uint64_t bit = (uint64_t)1 << i;
        char f = (char)(p[i] & 0xdf);

        b->quote |= p[i] == '"' ? bit : 0;
        b->bslash |= p[i] == '\\' ? bit : 0;
        b->open |= f == '[' ? bit : 0;
        b->close |= f == ']' ? bit : 0;
    }
}
#endif

/* The bytes escaped by a backslash: those after an odd run of them.
 * *carry is 1 when the byte after the block is escaped (in: the first
 * byte of this one).  simdjson's json_escape_scanner. */
static uint64_t
escaped_bits(uint64_t bs, uint64_t *carry)
{
    const uint64_t odd = 0xaaaaaaaaaaaaaaaaull;
    uint64_t pot, code, escaped;

    if (bs == 0) {
        escaped = *carry;
        *carry = 0;
        return escaped;
    }
    pot = bs & ~*carry;
    code = (((pot << 1) | odd) - pot) ^ odd;
    escaped = code ^ (bs | *carry);
    *carry = (code & bs) >> 63;
    return escaped;
}

/* Bit i: the quotes at or before byte i are odd in number. */
static uint64_t
prefix_xor(uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

static int
lowest_bit(uint64_t m)
{
#if defined(__GNUC__)
    return __builtin_ctzll(m);
#else
    int i = 0;

    while (((m >> i) & 1) == 0)
        i++;
    return i;
#endif
}

/* The brackets `st` (outside strings) of the block at p, in order: 1 and
 * *q after the value when it ends among them, 0 when not (or when too
 * deep: *deep). */
static int
visit_brackets(struct pr_split *s, const char *p, uint64_t st, const char **q,
               const char **deep)
{
    while (st != 0) {
        int i = lowest_bit(st);

        st &= st - 1;
        if ((p[i] & 0xdf) == '[') {
            if (++s->depth > PR_INGEST_MAX_DEPTH) {
                *deep = p + i;
                return 0;
            }
        } else if (--s->depth == 0) {
            s->in_str = 0;
            s->esc = 0;
            *q = p + i + 1;
            return 1;
        }
    }
    return 0;
}

/* One block of n <= 64 bytes at p: 1 and *q when the value ends in it, 0
 * when it goes on (s holds the state after the block) or is too deep
 * (*deep), -1 when the byte-wise scan must take the block. */
static int
scan_block(struct pr_split *s, const char *p, size_t n, const char **q,
           const char **deep)
{
    char pad[BLOCK];
    const char *b = p;
    uint64_t carry = (uint64_t)s->esc, valid, esc, instr;
    struct blk m;

    if (n < BLOCK) { /* spaces change no state */
        memset(pad, ' ', sizeof(pad));
        memcpy(pad, p, n);
        b = pad;
    }
    valid = n < BLOCK ? ((uint64_t)1 << n) - 1 : ~(uint64_t)0;
    blk_masks(b, &m);
    esc = escaped_bits(m.bslash, &carry);
    instr = prefix_xor(m.quote & ~esc) ^ (s->in_str ? ~(uint64_t)0 : 0);
    if ((m.bslash & ~instr & valid) != 0)
        return -1;
    if (visit_brackets(s, p, (m.open | m.close) & ~instr & valid, q, deep))
        return 1;
    s->in_str = (int)((instr >> (n - 1)) & 1);
    s->esc = (int)(n < BLOCK ? (esc >> n) & 1 : carry);
    return 0;
}

/* Advance through one event, from its first byte or from where the
 * previous chunk left off: block by block, or byte by byte where a block
 * asks for it.  Returns the byte after the value, or NULL when the chunk
 * ends inside it; nesting deeper than the limit sets *deep to the
 * offending byte (and returns NULL). */
static const char *
scan_value(struct pr_split *s, const char *p, const char *end,
           const char **deep)
{
    const char *q = NULL;

    while (p < end && *deep == NULL) {
        size_t n = end - p < BLOCK ? (size_t)(end - p) : BLOCK;
        int r = scan_block(s, p, n, &q, deep);

        if (r > 0)
            return q;
        if (r < 0 && (q = scan_bytes(s, p, p + n, deep)) != NULL)
            return q;
        p += n;
    }
    return NULL;
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

/* A top-level key or value that is not JSON. */
static enum pr_status
bad_top(struct pr_split *s, const char *p, int r, int in_key,
        struct pr_error *err)
{
    uint64_t at = s->start + s->chk.bad;
    char what[48];

    if (r == PR_JCHK_DEEP)
        return too_deep(s, at, err);
    if (s->chk.bad < s->chk.seen)
        snprintf(what, sizeof(what), "a bad number or literal");
    else if ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f)
        snprintf(what, sizeof(what), "'%c'", *p);
    else
        snprintf(what, sizeof(what), "byte 0x%02x", (unsigned char)*p);
    if (in_key)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %" PRIu64 ": invalid JSON: %s in a key", at,
                            what);
    return pr_error_set(err, PR_E_FORMAT,
                        "byte %" PRIu64 ": invalid JSON: %s in the value "
                        "of %s",
                        at, what, s->key);
}

/* Inside a top-level value we skip or keep: checked as it goes. */
static enum pr_status
feed_value(struct pr_split *s, const char **pp, const char *end,
           struct pr_error *err)
{
    const char *p = *pp;
    size_t n;
    int r = pr_jchk_feed(&s->chk, p, (size_t)(end - p), &n);

    if (r == PR_JCHK_BAD || r == PR_JCHK_DEEP)
        return bad_top(s, p + n, r, 0, err);
    if (s->target != TARGET_SKIP) {
        enum pr_status st = PR_OK;

        s->cap_total += n;
        if (s->cap_total <= PR_INGEST_MAX_CAPTURE)
            st = pr_buf_add(&s->caps[s->target], p, n);
        if (st == PR_E_NOMEM)
            return pr_error_set(err, st, "out of memory");
        if (s->cap_total > PR_INGEST_MAX_CAPTURE || st != PR_OK)
            return pr_error_set(err, PR_E_LIMIT,
                                "byte %" PRIu64 ": top-level value \"%s\" "
                                "larger than %zu MiB",
                                s->start, pr_split_cap_keys[s->target],
                                PR_INGEST_MAX_CAPTURE >> 20);
    }
    *pp = p + n;
    if (r == PR_JCHK_DONE)
        s->state = ST_TOP_NEXT;
    return PR_OK;
}

/* Collect a top-level key, quotes included; long keys are kept truncated
 * and match nothing (they are longer than every key we look for). */
static enum pr_status
feed_key(struct pr_split *s, const char **pp, const char *end,
         struct pr_error *err)
{
    const char *p = *pp;
    size_t n, k;
    int r = pr_jchk_feed(&s->chk, p, (size_t)(end - p), &n);

    if (r == PR_JCHK_BAD || r == PR_JCHK_DEEP)
        return bad_top(s, p + n, r, 1, err);
    k = n;
    if (s->key_len + k >= sizeof(s->key))
        k = s->key_len < sizeof(s->key) - 1 ? sizeof(s->key) - 1 - s->key_len
                                            : 0;
    memcpy(s->key + s->key_len, p, k);
    s->key_len += k;
    s->key[s->key_len] = '\0';
    if (r == PR_JCHK_DONE)
        s->state = ST_COLON;
    *pp = p + n;
    return PR_OK;
}

static int
key_is(const struct pr_split *s, const char *k)
{
    return s->key_len == strlen(k) + 2 && memcmp(s->key + 1, k, strlen(k)) == 0;
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
    if (key_is(s, "rocprofiler-sdk-tool"))
        s->other_keys |= 1;
    else if (key_is(s, "schema"))
        s->other_keys |= 2;
    else if (key_is(s, "nodes") && c == '[')
        s->other_keys |= 4;
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
    pr_jchk_init(&s->chk);
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
            s->state = ST_EV_NEXT;
            return PR_OK;
        }
        if (c == ']')
            return leave_events(s);
        return unexpected(at, c, "',' or ']' after an event", err);
    }
    if (c == ']' && s->state == ST_EV_BEFORE)
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
    case ST_KEY_NEXT:
        if (c == '}' && s->state == ST_KEY_OR_END) {
            s->state = ST_END;
            return PR_OK;
        }
        if (c != '"')
            return unexpected(at, c, "a key", err);
        s->key_len = 0;
        s->key[0] = '\0';
        pr_jchk_init(&s->chk);
        s->start = at;
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
            s->state = c == ',' ? ST_KEY_NEXT : ST_END;
            return PR_OK;
        }
        return unexpected(at, c, "',' or '}'", err);
    case ST_EV_BEFORE:
    case ST_EV_NEXT:
    case ST_EV_AFTER:
        return step_events(s, at, c, err);
    default: /* ST_END */
        return unexpected(at, c, "the end of the document", err);
    }
}

/* Skip a UTF-8 byte order mark at the very start (some Windows tools write
 * one), also when the first chunks are shorter than it (a pipe). */
static enum pr_status
skip_bom(struct pr_split *s, const char **pp, const char *end,
         struct pr_error *err)
{
    static const char bom[] = "\xef\xbb\xbf";
    const char *p = *pp;

    while (p < end && s->pos + (uint64_t)(p - *pp) < 3 &&
           s->bom == (int)(s->pos + (uint64_t)(p - *pp)) && *p == bom[s->bom]) {
        s->bom++;
        p++;
    }
    if (p < end && s->bom > 0 && s->bom < 3)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %d: not JSON (an incomplete byte order "
                            "mark)",
                            s->bom);
    *pp = p;
    return PR_OK;
}

enum pr_status
pr_split_feed(struct pr_split *s, const char *p, size_t n, struct pr_error *err)
{
    const char *base = p, *end = p + n;
    enum pr_status st = PR_OK;

    if (s->pos < 3 && s->state == ST_START)
        st = skip_bom(s, &p, end, err);
    while (p < end && st == PR_OK) {
        if (s->state == ST_EV_IN) {
            st = feed_event(s, base, &p, end, err);
        } else if (s->state == ST_VAL) {
            st = feed_value(s, &p, end, err);
        } else if (s->state == ST_KEY) {
            st = feed_key(s, &p, end, err);
        } else if (is_ws(*p)) {
            p++;
        } else {
            st = step(s, off(s, base, p), *p, err);
            /* a value's first byte belongs to the value: scan it there */
            if (s->state != ST_EV_IN && s->state != ST_VAL &&
                s->state != ST_KEY)
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
    /* formats a user may well give for a trace, named with what to give
       instead (hunt 30 #7, #10: TraceLens's rocprofv3 JSON of an MI350X,
       chakra's execution trace) */
    if (!s->bare && !s->has_events && (s->other_keys & 1))
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "a rocprofv3 (rocprofiler-sdk) JSON, which "
                            "profreport does not read: profile the PyTorch "
                            "program with torch.profiler, whose ROCm trace it "
                            "reads");
    if (!s->bare && !s->has_events && (s->other_keys & 6) == 6)
        return pr_error_set(
            err, PR_E_NOT_FORMAT,
            "a PyTorch execution trace (ExecutionTraceObserver: "
            "an operator graph without device times), which "
            "profreport does not read alone: give the Kineto "
            "trace recorded with it (torch.profiler's "
            ".pt.trace.json)");
    if (!s->bare && !s->has_events)
        return pr_error_set(err, PR_E_NOT_FORMAT,
                            "not a profiler trace (no traceEvents)");
    return PR_OK;
}

enum pr_status
pr_split_source(struct pr_source *src, pr_split_emit_fn emit, void *ctx,
                struct pr_error *err)
{
    struct pr_split sp;
    const char *p;
    size_t n;
    enum pr_status st = PR_OK;

    pr_split_init(&sp, emit, ctx);
    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK &&
           n > 0)
        st = pr_split_feed(&sp, p, n, err);
    if (st == PR_OK)
        st = pr_split_finish(&sp, err);
    pr_split_free(&sp);
    return st;
}

enum pr_status
pr_split_path(const char *path, uint64_t max, pr_split_emit_fn emit, void *ctx,
              struct pr_error *err)
{
    struct pr_source *src = NULL;
    enum pr_status st = pr_source_open(path, max, 0, &src, err);

    if (st == PR_OK)
        st = pr_split_source(src, emit, ctx, err);
    pr_source_close(src);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}
