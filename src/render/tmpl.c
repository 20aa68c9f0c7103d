/* tmpl.c - a Mustache engine (spec v1: variables, sections, inverted
 * sections, comments, partials, set delimiters; no lambdas) rendering over a
 * cJSON tree, plus template loading.  Templates are parsed into a flat token
 * array, then rendered; HTML escaping is escape.c's job. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/escape.h"
#include "profreport/tmpl.h"

#define MAX_DELIM 16    /* bytes in a delimiter */
#define MAX_NESTING 64  /* section nesting within one template */
#define MAX_DEPTH 128   /* context stack: sections + partials at run time */
#define MAX_PARTIALS 32 /* partials nested in partials */
#define MAX_TEMPLATE_FILE (16u << 20)

enum tok_kind {
    TOK_TEXT,
    TOK_VAR,
    TOK_RAW,
    TOK_SECTION,
    TOK_INVERTED,
    TOK_PARTIAL
};

struct tok {
    enum tok_kind kind;
    size_t off, len;         /* text, or the trimmed name */
    size_t end;              /* sections: index of the token after the body */
    size_t ind_off, ind_len; /* partials: standalone indentation */
    size_t line;             /* 1-based, for errors */
};

struct parser {
    const char *src;
    size_t len;
    struct tok *toks;
    size_t n, cap;
    char otag[MAX_DELIM + 1], ctag[MAX_DELIM + 1];
    size_t olen, clen;
    size_t open[MAX_NESTING]; /* indexes of unclosed sections */
    size_t n_open;
    struct pr_error *err;
};

struct render {
    const cJSON *stack[MAX_DEPTH];
    size_t depth;
    size_t n_partials;
    pr_tmpl_partial_fn partial;
    void *user;
    struct pr_buf *out;
    struct pr_error *err;
};

static enum pr_status render_tmpl(struct render *r, const char *src,
                                  size_t len);

static size_t
line_of(const char *s, size_t off)
{
    size_t line = 1;

    for (size_t i = 0; i < off; i++) {
        line += s[i] == '\n';
    }
    return line;
}

static int
is_blank(char c)
{
    return c == ' ' || c == '\t';
}

static enum pr_status
fail(struct parser *p, size_t off, const char *what)
{
    return pr_error_set(p->err, PR_E_TEMPLATE, "line %zu: %s",
                        line_of(p->src, off), what);
}

static enum pr_status
push(struct parser *p, enum tok_kind kind, size_t off, size_t len, size_t at)
{
    struct tok *t;

    if (kind == TOK_TEXT && len == 0) {
        return PR_OK;
    }
    if (pr_grow((void **)&p->toks, &p->cap, p->n + 1, sizeof(*t)) != PR_OK) {
        return pr_error_set(p->err, PR_E_NOMEM, "out of memory");
    }
    t = &p->toks[p->n++];
    memset(t, 0, sizeof(*t));
    t->kind = kind;
    t->off = off;
    t->len = len;
    t->end = p->n;
    t->line = line_of(p->src, at);
    return PR_OK;
}

static size_t
find(const char *s, size_t len, size_t from, const char *pat, size_t plen)
{
    for (size_t i = from; i + plen <= len; i++) {
        if (memcmp(s + i, pat, plen) == 0) {
            return i;
        }
    }
    return len;
}

/* "{{=<% %>=}}": body is "<% %>" between the '=' signs. */
static enum pr_status
set_delims(struct parser *p, size_t off, size_t len, size_t at)
{
    const char *s = p->src + off;
    size_t i = 0, a, b;

    while (i < len && is_blank(s[i])) {
        i++;
    }
    a = i;
    while (i < len && !is_blank(s[i])) {
        i++;
    }
    b = i;
    while (i < len && is_blank(s[i])) {
        i++;
    }
    size_t c = i;
    while (i < len && !is_blank(s[i])) {
        i++;
    }
    size_t d = i;
    while (i < len && is_blank(s[i])) {
        i++;
    }
    if (b == a || d == c || i != len || b - a > MAX_DELIM ||
        d - c > MAX_DELIM || memchr(s + a, '=', b - a) ||
        memchr(s + c, '=', d - c)) {
        return fail(p, at, "bad set-delimiter tag");
    }
    memcpy(p->otag, s + a, b - a);
    p->otag[b - a] = '\0';
    p->olen = b - a;
    memcpy(p->ctag, s + c, d - c);
    p->ctag[d - c] = '\0';
    p->clen = d - c;
    return PR_OK;
}

/* Trim blanks around a tag name; an empty name is an error. */
static enum pr_status
name_of(struct parser *p, size_t *off, size_t *len, size_t at)
{
    while (*len > 0 && (is_blank(p->src[*off]) || p->src[*off] == '\n')) {
        (*off)++, (*len)--;
    }
    while (*len > 0 && (is_blank(p->src[*off + *len - 1]) ||
                        p->src[*off + *len - 1] == '\n')) {
        (*len)--;
    }
    if (*len == 0) {
        return fail(p, at, "empty tag name");
    }
    return PR_OK;
}

static enum pr_status
open_section(struct parser *p, enum tok_kind kind, size_t off, size_t len,
             size_t at)
{
    if (p->n_open == MAX_NESTING) {
        return fail(p, at, "sections nested too deeply");
    }
    p->open[p->n_open++] = p->n;
    return push(p, kind, off, len, at);
}

static enum pr_status
close_section(struct parser *p, size_t off, size_t len, size_t at)
{
    struct tok *t;

    if (p->n_open == 0) {
        return fail(p, at, "closing tag without an open section");
    }
    t = &p->toks[p->open[--p->n_open]];
    if (t->len != len || memcmp(p->src + t->off, p->src + off, len) != 0) {
        return pr_error_set(p->err, PR_E_TEMPLATE,
                            "line %zu: section \"%.*s\" closed by \"%.*s\"",
                            line_of(p->src, at),
                            (int)(t->len > 64 ? 64 : t->len), p->src + t->off,
                            (int)(len > 64 ? 64 : len), p->src + off);
    }
    t->end = p->n;
    return PR_OK;
}

/* Is the tag [at, q) alone on its line?  On success *ls is the line start
 * and *next the offset after the line's end (newline consumed). */
static int
standalone(const struct parser *p, size_t prev_end, size_t at, size_t q,
           size_t *ls, size_t *next)
{
    size_t i = at;

    while (i > prev_end && is_blank(p->src[i - 1])) {
        i--;
    }
    if (i > 0 && p->src[i - 1] != '\n') {
        return 0;
    }
    if (i < prev_end ||
        (i == prev_end && prev_end > 0 && p->src[prev_end - 1] != '\n')) {
        return 0;
    }
    *ls = i;
    i = q;
    while (i < p->len && is_blank(p->src[i])) {
        i++;
    }
    if (i == p->len) {
        *next = i;
        return 1;
    }
    if (p->src[i] == '\n') {
        *next = i + 1;
        return 1;
    }
    if (p->src[i] == '\r' && i + 1 < p->len && p->src[i + 1] == '\n') {
        *next = i + 2;
        return 1;
    }
    return 0;
}

/* Emit one tag whose body (after the sigil) is [off, off+len). */
static enum pr_status
emit_tag(struct parser *p, char sigil, size_t off, size_t len, size_t at,
         size_t ls, int alone)
{
    enum pr_status st;

    if (sigil == '!') {
        return PR_OK;
    }
    if (sigil == '=') {
        return set_delims(p, off, len, at);
    }
    st = name_of(p, &off, &len, at);
    if (st != PR_OK) {
        return st;
    }
    switch (sigil) {
    case '#':
        return open_section(p, TOK_SECTION, off, len, at);
    case '^':
        return open_section(p, TOK_INVERTED, off, len, at);
    case '/':
        return close_section(p, off, len, at);
    case '>':
        st = push(p, TOK_PARTIAL, off, len, at);
        if (st == PR_OK && alone) {
            p->toks[p->n - 1].ind_off = ls;
            p->toks[p->n - 1].ind_len = at - ls;
        }
        return st;
    case '{':
    case '&':
        return push(p, TOK_RAW, off, len, at);
    default:
        return push(p, TOK_VAR, off, len, at);
    }
}

/* Parse one tag starting at `at` (on the open delimiter).  *prev_end is the
 * end of the previous tag, *pos the scan position; both are advanced. */
static enum pr_status
parse_tag(struct parser *p, size_t *pos, size_t *prev_end, size_t at)
{
    size_t b = at + p->olen, e, q, ls = 0, next = 0;
    char sigil = b < p->len ? p->src[b] : '\0';
    int alone;
    enum pr_status st;

    if (sigil == '{') {
        char close[MAX_DELIM + 2];
        snprintf(close, sizeof(close), "}%s", p->ctag);
        e = find(p->src, p->len, b + 1, close, p->clen + 1);
        q = e + p->clen + 1;
    } else {
        e = find(p->src, p->len, b, p->ctag, p->clen);
        q = e + p->clen;
    }
    if (e == p->len) {
        return fail(p, at, "unclosed tag");
    }
    if (sigil == '=' && (e == b + 1 || p->src[e - 1] != '=')) {
        return fail(p, at, "bad set-delimiter tag");
    }
    if (sigil == '\0' || strchr("#^/!>=", sigil) == NULL) {
        int raw = sigil == '{' || sigil == '&';
        st = push(p, TOK_TEXT, *pos, at - *pos, *pos);
        if (st == PR_OK) {
            st = emit_tag(p, raw ? sigil : ' ', raw ? b + 1 : b,
                          raw ? e - b - 1 : e - b, at, 0, 0);
        }
        *pos = *prev_end = q;
        return st;
    }
    alone = standalone(p, *prev_end, at, q, &ls, &next);
    st = push(p, TOK_TEXT, *pos, (alone ? ls : at) - *pos, *pos);
    if (st == PR_OK) {
        size_t body_len = e - b - 1 - (sigil == '=');
        st = emit_tag(p, sigil, b + 1, body_len, at, ls, alone);
    }
    *pos = *prev_end = alone ? next : q;
    return st;
}

static enum pr_status
parse(struct parser *p)
{
    size_t pos = 0, prev_end = 0;
    enum pr_status st;

    memcpy(p->otag, "{{", 3);
    memcpy(p->ctag, "}}", 3);
    p->olen = p->clen = 2;
    for (;;) {
        size_t at = find(p->src, p->len, pos, p->otag, p->olen);
        if (at == p->len) {
            break;
        }
        st = parse_tag(p, &pos, &prev_end, at);
        if (st != PR_OK) {
            return st;
        }
    }
    st = push(p, TOK_TEXT, pos, p->len - pos, pos);
    if (st == PR_OK && p->n_open > 0) {
        const struct tok *t = &p->toks[p->open[p->n_open - 1]];
        return pr_error_set(p->err, PR_E_TEMPLATE,
                            "line %zu: section \"%.*s\" is not closed", t->line,
                            (int)(t->len > 64 ? 64 : t->len), p->src + t->off);
    }
    return st;
}

/* --- name lookup */

static const cJSON *
child(const cJSON *obj, const char *name, size_t len)
{
    if (!cJSON_IsObject(obj)) {
        return NULL;
    }
    for (const cJSON *c = obj->child; c != NULL; c = c->next) {
        if (c->string && strlen(c->string) == len &&
            memcmp(c->string, name, len) == 0) {
            return c;
        }
    }
    return NULL;
}

/* Resolve a (dotted) name against the context stack; NULL when missing. */
static const cJSON *
lookup(const struct render *r, const char *name, size_t len)
{
    const char *dot;
    size_t first;
    const cJSON *v = NULL;

    if (len == 1 && name[0] == '.') {
        return r->stack[r->depth - 1];
    }
    dot = memchr(name, '.', len);
    first = dot ? (size_t)(dot - name) : len;
    for (size_t i = r->depth; i > 0 && v == NULL; i--) {
        v = child(r->stack[i - 1], name, first);
    }
    while (v != NULL && first < len) {
        size_t start = first + 1;
        dot = memchr(name + start, '.', len - start);
        first = dot ? (size_t)(dot - name) : len;
        v = child(v, name + start, first - start);
    }
    return v;
}

static int
is_truthy(const cJSON *v)
{
    if (v == NULL || cJSON_IsFalse(v) || cJSON_IsNull(v) ||
        cJSON_IsInvalid(v)) {
        return 0;
    }
    if (cJSON_IsArray(v)) {
        return v->child != NULL;
    }
    if (cJSON_IsString(v)) {
        return v->valuestring != NULL && v->valuestring[0] != '\0';
    }
    return 1;
}

/* Shortest text that reads back as the same double (C locale). */
static enum pr_status
add_number(struct pr_buf *out, double d)
{
    char tmp[40];

    if (!isfinite(d)) {
        return PR_OK;
    }
    if (d == floor(d) && fabs(d) < 1e15) {
        snprintf(tmp, sizeof(tmp), "%.0f", d == 0 ? 0.0 : d);
    } else {
        snprintf(tmp, sizeof(tmp), "%.15g", d);
        if (strtod(tmp, NULL) != d) {
            snprintf(tmp, sizeof(tmp), "%.17g", d);
        }
    }
    return pr_buf_adds(out, tmp);
}

static enum pr_status
interpolate(struct render *r, const cJSON *v, int escape)
{
    enum pr_status st = PR_OK;

    if (cJSON_IsString(v) && v->valuestring != NULL) {
        size_t n = strlen(v->valuestring);
        st = escape ? pr_escape_html(r->out, v->valuestring, n)
                    : pr_buf_add(r->out, v->valuestring, n);
    } else if (cJSON_IsNumber(v)) {
        st = add_number(r->out, v->valuedouble);
    } else if (cJSON_IsTrue(v)) {
        st = pr_buf_adds(r->out, "true");
    } else if (cJSON_IsFalse(v)) {
        st = pr_buf_adds(r->out, "false");
    }
    if (st != PR_OK) {
        return pr_error_set(r->err, st, "rendering template: %s",
                            pr_error_str(st));
    }
    return PR_OK;
}

/* --- rendering */

static enum pr_status render_range(struct render *r, const char *src,
                                   const struct tok *t, size_t from, size_t to);

static enum pr_status
push_ctx(struct render *r, const cJSON *v, size_t line)
{
    if (r->depth == MAX_DEPTH) {
        return pr_error_set(r->err, PR_E_TEMPLATE,
                            "line %zu: sections nested too deeply", line);
    }
    r->stack[r->depth++] = v;
    return PR_OK;
}

static enum pr_status
render_section(struct render *r, const char *src, const struct tok *t, size_t i)
{
    const cJSON *v = lookup(r, src + t[i].off, t[i].len);
    enum pr_status st = PR_OK;

    if (t[i].kind == TOK_INVERTED) {
        if (is_truthy(v)) {
            return PR_OK;
        }
        return render_range(r, src, t, i + 1, t[i].end);
    }
    if (!is_truthy(v)) {
        return PR_OK;
    }
    if (!cJSON_IsArray(v)) {
        st = push_ctx(r, v, t[i].line);
        if (st == PR_OK) {
            st = render_range(r, src, t, i + 1, t[i].end);
            r->depth--;
        }
        return st;
    }
    for (const cJSON *e = v->child; e != NULL && st == PR_OK; e = e->next) {
        st = push_ctx(r, e, t[i].line);
        if (st == PR_OK) {
            st = render_range(r, src, t, i + 1, t[i].end);
            r->depth--;
        }
    }
    return st;
}

/* Copy of text with `ind` inserted at the start of every line (a final
 * newline starts no new line).  NULL on out-of-memory. */
static char *
indent_text(const char *text, const char *ind, size_t ind_len, size_t *len)
{
    struct pr_buf b;
    size_t n = strlen(text);
    int bol = 1;
    enum pr_status st = PR_OK;

    pr_buf_init(&b, 0);
    for (size_t i = 0; i < n && st == PR_OK; i++) {
        if (bol) {
            st = pr_buf_add(&b, ind, ind_len);
        }
        if (st == PR_OK) {
            st = pr_buf_addc(&b, text[i]);
        }
        bol = text[i] == '\n';
    }
    if (st == PR_OK && b.data == NULL) {
        st = pr_buf_adds(&b, "");
    }
    if (st != PR_OK) {
        pr_buf_free(&b);
        return NULL;
    }
    return pr_buf_take(&b, len);
}

static enum pr_status
render_partial(struct render *r, const char *src, const struct tok *t)
{
    char name[256], *text, *ind;
    size_t len;
    enum pr_status st;

    if (r->partial == NULL || t->len >= sizeof(name)) {
        return PR_OK;
    }
    if (r->n_partials == MAX_PARTIALS) {
        return pr_error_set(r->err, PR_E_TEMPLATE,
                            "line %zu: partials nested too deeply", t->line);
    }
    memcpy(name, src + t->off, t->len);
    name[t->len] = '\0';
    text = r->partial(name, r->user);
    if (text == NULL) {
        return PR_OK;
    }
    ind = indent_text(text, src + t->ind_off, t->ind_len, &len);
    free(text);
    if (ind == NULL) {
        return pr_error_set(r->err, PR_E_NOMEM, "out of memory");
    }
    r->n_partials++;
    st = render_tmpl(r, ind, len);
    r->n_partials--;
    if (st != PR_OK && r->n_partials == 0) { /* name the outermost only */
        pr_error_prefix(r->err, "partial \"%s\": ", name);
    }
    free(ind);
    return st;
}

static enum pr_status
render_range(struct render *r, const char *src, const struct tok *t,
             size_t from, size_t to)
{
    enum pr_status st = PR_OK;
    size_t i = from;

    while (i < to && st == PR_OK) {
        switch (t[i].kind) {
        case TOK_TEXT:
            st = pr_buf_add(r->out, src + t[i].off, t[i].len);
            if (st != PR_OK) {
                st = pr_error_set(r->err, st, "rendering template: %s",
                                  pr_error_str(st));
            }
            break;
        case TOK_VAR:
        case TOK_RAW:
            st = interpolate(r, lookup(r, src + t[i].off, t[i].len),
                             t[i].kind == TOK_VAR);
            break;
        case TOK_SECTION:
        case TOK_INVERTED:
            st = render_section(r, src, t, i);
            i = t[i].end;
            continue;
        case TOK_PARTIAL:
            st = render_partial(r, src, &t[i]);
            break;
        }
        i++;
    }
    return st;
}

static enum pr_status
render_tmpl(struct render *r, const char *src, size_t len)
{
    struct parser p;
    enum pr_status st;

    memset(&p, 0, sizeof(p));
    p.src = src;
    p.len = len;
    p.err = r->err;
    st = parse(&p);
    if (st == PR_OK) {
        st = render_range(r, src, p.toks, 0, p.n);
    }
    free(p.toks);
    return st;
}

enum pr_status
pr_tmpl_render(const char *tmpl, size_t len, const cJSON *data,
               pr_tmpl_partial_fn partial, void *user, struct pr_buf *out,
               struct pr_error *err)
{
    struct render r;

    memset(&r, 0, sizeof(r));
    r.stack[0] = data;
    r.depth = 1;
    r.partial = partial;
    r.user = user;
    r.out = out;
    r.err = err;
    return render_tmpl(&r, tmpl, len);
}

/* --- loading */

static int
is_safe_name(const char *name)
{
    if (name[0] == '\0' || name[0] == '.' || strchr(name, '/') != NULL ||
        strchr(name, '\\') != NULL) {
        return 0;
    }
    return strlen(name) < 200;
}

static enum pr_status
read_file(const char *path, char **out, size_t *len, struct pr_error *err)
{
    FILE *f = fopen(path, "rb");
    struct pr_buf b;
    char chunk[4096];
    size_t n;
    enum pr_status st = PR_OK;

    if (f == NULL) {
        return pr_error_set(err, PR_E_IO, "%s: %s", path, strerror(errno));
    }
    pr_buf_init(&b, MAX_TEMPLATE_FILE);
    while (st == PR_OK && (n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        st = pr_buf_add(&b, chunk, n);
    }
    if (st == PR_OK && ferror(f)) {
        st = PR_E_IO;
    }
    fclose(f);
    if (st == PR_OK) {
        st = pr_buf_adds(&b, ""); /* data is non-NULL even when empty */
    }
    if (st != PR_OK) {
        pr_buf_free(&b);
        return pr_error_set(err, st, "%s: cannot read template (%s)", path,
                            pr_error_str(st));
    }
    *out = pr_buf_take(&b, len);
    return PR_OK;
}

enum pr_status
pr_tmpl_load(const char *name, const char *dir, char **out, size_t *len,
             struct pr_error *err)
{
    *out = NULL;
    *len = 0;
    if (!is_safe_name(name)) {
        return pr_error_set(err, PR_E_TEMPLATE, "bad template name \"%s\"",
                            name);
    }
    if (dir != NULL) {
        char path[4096];
        FILE *f;
        int n = snprintf(path, sizeof(path), "%s/%s", dir, name);
        if (n < 0 || (size_t)n >= sizeof(path)) {
            return pr_error_set(err, PR_E_USAGE, "%s: path too long", dir);
        }
        f = fopen(path, "rb");
        if (f != NULL) {
            fclose(f);
            return read_file(path, out, len, err);
        }
    }
    for (const struct pr_tmpl_file *t = pr_tmpl_builtin; t->name; t++) {
        if (strcmp(t->name, name) == 0) {
            *out = malloc(t->len + 1);
            if (*out == NULL) {
                return pr_error_set(err, PR_E_NOMEM, "out of memory");
            }
            memcpy(*out, t->data, t->len + 1);
            *len = t->len;
            return PR_OK;
        }
    }
    return pr_error_set(err, PR_E_TEMPLATE, "no template \"%s\"", name);
}
