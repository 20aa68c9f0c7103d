/* shorten.c - display forms of operator and kernel names (shorten.h).
 * Each step rewrites a working copy in place (every step only removes or
 * replaces text with something shorter), and the first form that fits
 * wins. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/shorten.h"

#define ELLIPSIS "\xE2\x80\xA6"
#define MIN_CHARS 8

size_t
pr_shorten_width(const char *s)
{
    size_t n = 0;

    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Byte offset of the first `chars` code points of s. */
static size_t
prefix_bytes(const char *s, size_t chars)
{
    size_t i = 0;

    while (s[i] && chars > 0) {
        i++;
        while (((unsigned char)s[i] & 0xC0) == 0x80)
            i++;
        chars--;
    }
    return i;
}

char *
pr_shorten_middle(const char *text, size_t max_chars, char *out, size_t cap)
{
    size_t w = pr_shorten_width(text), head, tail, hb, tb, len;

    if (cap == 0)
        return out;
    if (max_chars < MIN_CHARS)
        max_chars = MIN_CHARS;
    len = strlen(text);
    if (w <= max_chars && len < cap) {
        memcpy(out, text, len + 1);
        return out;
    }
    if (max_chars > (cap - 8) / 4)
        max_chars = (cap - 8) / 4; /* what the buffer holds */
    head = (max_chars - 1) / 2;
    tail = max_chars - 1 - head;
    hb = prefix_bytes(text, head);
    tb = len - prefix_bytes(text, w - tail);
    memcpy(out, text, hb);
    memcpy(out + hb, ELLIPSIS, 3);
    memcpy(out + hb + 3, text + len - tb, tb);
    out[hb + 3 + tb] = '\0';
    return out;
}

/* ---- the steps: each rewrites s in place -------------------------------- */

static int
is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_' || c == '$' ||
           ((unsigned char)c & 0x80);
}

static void
remove_all(char *s, const char *what)
{
    size_t n = strlen(what);
    char *p;

    while ((p = strstr(s, what)) != NULL)
        memmove(p, p + n, strlen(p + n) + 1);
}

/* Drop "(anonymous namespace)::", the parameter list (from the first '('
 * outside template arguments) and the return type (up to the last space
 * before it outside template arguments): "void at::k<T>(int)" ->
 * "at::k<T>". */
static void
strip_signature(char *s)
{
    int depth = 0;
    size_t i, last_space = 0;
    int has_space = 0;

    remove_all(s, "(anonymous namespace)::");
    for (i = 0; s[i]; i++) {
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>' && depth > 0)
            depth--;
        else if (s[i] == '(' && depth == 0 && i > 0 &&
                 (is_ident(s[i - 1]) || s[i - 1] == '>'))
            break; /* "name(" or "name<...>(": a parameter list */
        else if (s[i] == ' ' && depth == 0) {
            last_space = i;
            has_space = 1;
        }
    }
    if (s[i] == '\0')
        return; /* no signature: "Memcpy HtoD (Pageable -> Device)" */
    s[i] = '\0';
    while (i > 0 && s[i - 1] == ' ')
        s[--i] = '\0';
    if (has_space && last_space < i)
        memmove(s, s + last_space + 1, strlen(s + last_space + 1) + 1);
}

/* Inside template arguments, drop namespace qualifiers ("at::native::
 * AddFunctor" -> "AddFunctor") and the space of "> >". */
static void
strip_inner_namespaces(char *s)
{
    size_t r = 0, w = 0, tok = 0;
    int depth = 0;

    for (; s[r]; r++) {
        char c = s[r];
        if (depth > 0 && c == ':' && s[r + 1] == ':') {
            w = tok; /* forget the qualifier just written */
            r++;
            continue;
        }
        if (c == ' ' && s[r + 1] == '>' && w > 0 && s[w - 1] == '>')
            continue;
        depth += c == '<' ? 1 : (c == '>' && depth > 0) ? -1 : 0;
        s[w++] = c;
        if (!is_ident(c))
            tok = w;
    }
    s[w] = '\0';
}

/* Drop the function's own namespace: "at::native::k<...>" -> "k<...>". */
static void
strip_outer_namespace(char *s)
{
    size_t i, cut = 0;

    for (i = 0; s[i] && s[i] != '<'; i++)
        if (s[i] == ':' && s[i + 1] == ':')
            cut = i + 2;
    if (cut > 0 && s[cut] != '\0')
        memmove(s, s + cut, strlen(s + cut) + 1);
}

/* Index of the '>' that closes the '<' at s[open], or of the NUL. */
static size_t
closing(const char *s, size_t open)
{
    size_t i;
    int depth = 0;

    for (i = open; s[i]; i++) {
        if (s[i] == '<')
            depth++;
        else if (s[i] == '>' && --depth == 0)
            return i;
    }
    return i;
}

/* Replace the arguments of templates nested `keep` levels deep with an
 * ellipsis: keep 1 gives "k<4, F<…>, A<…>>", keep 0 gives "k<…>".
 * Arguments of three bytes or fewer stay ("k<T>"). */
static void
fold_templates(char *s, int keep)
{
    size_t r, w = 0, end;
    int depth = 0;

    for (r = 0; s[r]; r++) {
        if (s[r] == '<' && depth == keep) {
            end = closing(s, r);
            if (end - r - 1 > 3) {
                memcpy(s + w, "<" ELLIPSIS, 4);
                w += 4;
                if (s[end] == '>')
                    s[w++] = '>';
                r = s[end] ? end : end - 1;
                continue;
            }
        }
        depth += s[r] == '<' ? 1 : (s[r] == '>' && depth > 0) ? -1 : 0;
        s[w++] = s[r];
    }
    s[w] = '\0';
}

/* Code points before the first '<': the name without its arguments. */
static size_t
base_width(const char *s)
{
    size_t n = 0;

    for (; *s && *s != '<'; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

static int
fits(const char *s, size_t max_chars, size_t cap)
{
    return pr_shorten_width(s) <= max_chars && strlen(s) < cap;
}

char *
pr_shorten(const char *name, size_t max_chars, char *out, size_t cap)
{
    /* the working copy: on the stack for any name a trace is likely to
       hold, so that shortening one cannot run out of memory (a failed
       copy would shorten it differently, and silently) */
    char work[8192], *s;
    size_t len;
    int step;

    if (cap == 0)
        return out;
    if (max_chars < MIN_CHARS)
        max_chars = MIN_CHARS;
    if (fits(name, max_chars, cap))
        return pr_shorten_middle(name, max_chars, out, cap);
    len = strlen(name);
    if (len < sizeof(work))
        s = memcpy(work, name, len + 1);
    else if ((s = strdup(name)) == NULL)
        return pr_shorten_middle(name, max_chars, out, cap);
    for (step = 0; step < 5 && !fits(s, max_chars, cap); step++) {
        if (step == 0)
            strip_signature(s);
        else if (step == 1)
            strip_inner_namespaces(s);
        else if (step == 2)
            strip_outer_namespace(s);
        else if (step == 3)
            fold_templates(s, 1);
        else if (base_width(s) >= 16) /* a short base ("Kernel<...>") */
            fold_templates(s, 0);     /* needs its arguments to tell */
    }
    pr_shorten_middle(s[0] ? s : name, max_chars, out, cap);
    if (s != work)
        free(s);
    return out;
}
