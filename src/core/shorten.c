/* shorten.c - display forms of operator and kernel names (shorten.h).
 * Each step rewrites a working copy in place (every step only removes or
 * replaces text with something shorter), and the first form that fits
 * wins. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/shorten.h"

#define ELLIPSIS "\xE2\x80\xA6"
#define MIN_CHARS 8
#define FIT_MAX_BYTES 1024 /* longer forms take the plain window or cut */

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

/* Remove every occurrence of `what` from s in one pass (a hostile name of
 * 45,000 of them took a minute when each removal moved the rest). */
static void
remove_all(char *s, const char *what)
{
    size_t n = strlen(what), r = 0, w = 0;

    while (s[r] != '\0') {
        if (s[r] == what[0] && strncmp(s + r, what, n) == 0) {
            r += n;
            continue;
        }
        s[w++] = s[r++];
    }
    s[w] = '\0';
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
    remove_all(s, "<unnamed>::"); /* EDG's (nvcc's) anonymous namespace */
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
            size_t b = w;
            int d = 0;
            while (b > 0 && s[w - 1] == '>') { /* "Policy<long, int>::" */
                b--;
                d += s[b] == '>' ? 1 : s[b] == '<' ? -1 : 0;
                if (d == 0)
                    break;
            }
            if (b < w && d == 0) { /* a class template's: "Policy<long,
                                      int>::Policy800" keeps it, the
                                      "::" of "f<T>::operator()" goes */
                if (is_ident(s[r + 2]) && strncmp(s + r + 2, "operator", 8))
                    s[w++] = ':', s[w++] = ':';
            } else {
                w = tok; /* forget the qualifier just written */
            }
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

/* The name that tells a template argument list s[from, to) apart: the
 * deepest of the functions that own a lambda ("log_kernel_cuda" of
 * "log_kernel_cuda{lambda(float)}") and of the functors ("MulFunctor<float>"
 * of "BinaryFunctor<float, MulFunctor<float>>"), the first of the deepest;
 * its offset and length in *at, *len; 0 when there is none. */
static int
key_name(const char *s, size_t from, size_t to, size_t *at, size_t *len)
{
    size_t i = from, b, e;
    int depth = 0, best = -1;

    while (i < to) {
        if ((s[i] == '{' || s[i] == '[') && i > from &&
            strncmp(s + i + 1, "lambda(", 7) == 0) {
            int d = 0;
            e = i; /* the owner: "f{lambda", "f<T>{lambda" */
            while (e > from && s[e - 1] == '>') {
                for (e--; e > from; e--) {
                    d += s[e] == '>' ? 1 : s[e] == '<' ? -1 : 0;
                    if (d == 0)
                        break;
                }
            }
            for (b = e; b > from && is_ident(s[b - 1]); b--)
                ;
            while (e - b >= 3 && strncmp(s + b, ELLIPSIS, 3) == 0)
                b += 3;
            if (e - b >= 4 && depth > best &&
                strncmp(s + b, "lambda", 6) != 0 &&
                strncmp(s + b, "operator", 8) != 0) {
                *at = b;
                *len = e - b;
                best = depth;
            }
            i++;
            continue;
        }
        if (!is_ident(s[i])) {
            depth += s[i] == '<' ? 1 : (s[i] == '>' && depth > 0) ? -1 : 0;
            i++;
            continue;
        }
        for (b = i; i < to && is_ident(s[i]); i++)
            ;
        e = i;
        while (e - b >= 3 && strncmp(s + b, ELLIPSIS, 3) == 0)
            b += 3; /* "…AddFunctor": a fold's ellipsis is no part */
        if (e - b >= 3 && strncmp(s + e - 3, ELLIPSIS, 3) == 0) {
            /* "…name…": a name an inner fold kept; "name…": a cut one */
            if (b > from + 2 && strncmp(s + b - 3, ELLIPSIS, 3) == 0 &&
                e - b >= 7 && depth > best) {
                *at = b;
                *len = e - b - 3;
                best = depth;
            }
            continue;
        }
        if (i - b >= 6 && depth > best) { /* "MinOps", "MulFunctor" */
            size_t k;
            for (k = b; k + 7 <= i; k++)
                if (strncmp(s + k, "Functor", 7) == 0 ||
                    strncmp(s + k, "functor", 7) == 0)
                    break;
            if (k + 7 <= i || /* a reduction's op: "WelfordOps", "MinOps" */
                strncmp(s + i - 3, "Ops", 3) == 0) {
                *at = b;
                *len = i - b;
                best = depth;
                if (i < to && s[i] == '<') { /* "MulFunctor<float>" */
                    e = i + 1;
                    while (e < to && e - i < 12 && s[e] != '>' && s[e] != '<')
                        e++;
                    if (e < to && s[e] == '>' && e - i > 1 &&
                        ((unsigned char)s[i + 1] & 0x80) == 0)
                        *len = e + 1 - b;
                }
            }
        }
    }
    return best >= 0;
}

/* Whether the identifier that ends at s[end] is a Binary or Unary functor
 * (BinaryFunctor, AUnaryFunctor, BUnaryFunctor, UnaryFunctor). */
static int
is_holder(const char *s, size_t end)
{
    static const char *const holders[] = {"BinaryFunctor", "UnaryFunctor"};
    size_t k, n;

    for (k = 0; k < 2; k++) {
        n = strlen(holders[k]);
        if (end >= n && strncmp(s + end - n, holders[k], n) == 0)
            return 1;
    }
    return 0;
}

/* The length of the first argument of the list that opens at s[lt]
 * ("BFloat16" of "<BFloat16, BFloat16, ...") where it is one identifier
 * before the key s[at, at + len), a functor whose own argument would
 * read as the type ("MulFunctor<float>" of a BFloat16 functor), and that
 * argument is another; 0 when not. */
static size_t
first_type(const char *s, size_t lt, size_t at, size_t len)
{
    size_t e, n;

    for (e = lt + 1; e < at && is_ident(s[e]); e++)
        ;
    if (e == lt + 1 || e + 2 > at || s[e] != ',' || s[e + 1] != ' ')
        return 0;
    n = e - lt - 1;
    if (len < 3 || s[at + len - 1] != '>') /* "threshold_kernel_impl": */
        return 0;                          /* no type read for it */
    if (len > n + 2 && s[at + len - n - 2] == '<' &&
        strncmp(s + at + len - n - 1, s + lt + 1, n) == 0)
        return 0;
    return n;
}

/* The element type of the Binary/Unary functor nested in s[from, at)
 * that holds the key name s[at, at + len) ("BinaryFunctor<BFloat16, " of
 * "BinaryFunctor<BFloat16, BFloat16, BFloat16, MulFunctor<float>>"): its
 * offset and length in *pat, *plen; 0 when there is none. */
static int
element_type(const char *s, size_t from, size_t at, size_t len, size_t *pat,
             size_t *plen)
{
    size_t i = at, b, n;
    int d = 0;

    while (i > from) { /* the '<' of the list that holds the key */
        i--;
        d += s[i] == '>' ? 1 : s[i] == '<' ? -1 : 0;
        if (d < 0)
            break;
    }
    if (d >= 0 || i <= from)
        return 0;
    for (b = i; b > from && is_ident(s[b - 1]); b--)
        ;
    while (i - b >= 3 && strncmp(s + b, ELLIPSIS, 3) == 0)
        b += 3; /* "…BinaryFunctor": a fold's ellipsis is no part */
    if (!is_holder(s + b, i - b) || (n = first_type(s, i, at, len)) == 0)
        return 0;
    *pat = b;
    *plen = i + 1 + n + 2 - b;
    return 1;
}

/* Replace the arguments of templates nested `keep` levels deep with an
 * ellipsis: keep 1 gives "k<4, F<…>, A<…>>", keep 0 gives "k<…>"; with
 * `named`, the name that tells the arguments apart stays between two
 * ellipses ("k<…log_kernel_cuda…>", key_name).  Arguments of three bytes
 * or fewer stay ("k<T>"). */
static void
fold_templates(char *s, int keep, int named)
{
    size_t r, w = 0, end, at = 0, len = 0;
    int depth = 0;

    for (r = 0; s[r]; r++) {
        if (s[r] == '<' && depth == keep) {
            end = closing(s, r);
            if (end - r - 1 > 3) {
                char endc = s[end];
                size_t pat = 0, plen = 0;
                char tmp[256];
                if (named && key_name(s, r + 1, end, &at, &len) &&
                    len + 7 <= end - r) { /* "<…name…" within "<...": */
                    /* the element type of the functor that holds it:
                       "<…BinaryFunctor<BFloat16, …MulFunctor<float>>…" */
                    if (element_type(s, r + 1, at, len, &pat, &plen) &&
                        named == 2) { /* "<…BFloat16…MulFunctor<float>…" */
                        size_t q = pat; /* "BFloat16" */
                        while (s[q] != '<')
                            q++;
                        plen = pat + plen - 2 - (q + 1);
                        pat = q + 1;
                    }
                    if (plen == 0 && w > 0 && is_holder(s, w) &&
                        (plen = first_type(s, r, at, len)) > 0 &&
                        plen + len + 9 <= end - r && plen + len < 200) {
                        /* the list is the functor's own: "BUnaryFunctor<
                           BFloat16, …MulFunctor<float>…>" */
                        memcpy(tmp, s + r + 1, plen);
                        memcpy(tmp + plen, ", " ELLIPSIS, 5);
                        memcpy(tmp + plen + 5, s + at, len);
                        len += plen + 5;
                        memcpy(s + w + 1, tmp, len);
                        s[w] = '<';
                        w += 1 + len;
                        memcpy(s + w, ELLIPSIS, 3);
                        w += 3;
                        if (endc == '>')
                            s[w++] = '>';
                        r = endc ? end : end - 1;
                        continue;
                    }
                    if (plen > 0 && plen + len + 11 <= end - r &&
                        plen + len < 200) {
                        size_t x = 0;
                        memcpy(tmp, s + pat, plen);
                        memcpy(tmp + plen, ELLIPSIS, 3);
                        memcpy(tmp + plen + 3, s + at, len);
                        if (named != 2)
                            tmp[plen + 3 + len] = '>', x = 1;
                        len += plen + 3 + x;
                        memcpy(s + w + 4, tmp, len); /* before "<…" */
                    } else { /* the NUL of an unclosed list is never
                                written */
                        memmove(s + w + 4, s + at, len); /* before "<…" */
                    }
                    memcpy(s + w, "<" ELLIPSIS, 4);
                    w += 4 + len;
                    memcpy(s + w, ELLIPSIS, 3);
                    w += 3;
                } else {
                    memcpy(s + w, "<" ELLIPSIS, 4);
                    w += 4;
                }
                if (endc == '>')
                    s[w++] = '>';
                r = endc ? end : end - 1;
                continue;
            }
        }
        depth += s[r] == '<' ? 1 : (s[r] == '>' && depth > 0) ? -1 : 0;
        s[w++] = s[r];
    }
    s[w] = '\0';
}

/* Inside template arguments, drop EDG's casts of numbers ("(int)128" ->
 * "128") and the chains of lambdas that only call
 * the next ("{lambda()#2}operator()() ", EDG's "[lambda() (instance 3)]
 * operator ()() "), the instance number of the lambda left ("#1",
 * " (instance 1)") and the parameter list of the function that owns it:
 * "direct_copy_kernel_cuda(TensorIteratorBase&){lambda()#2}operator()()
 * {lambda()#14}operator()() {lambda(float)#1}" ->
 * "direct_copy_kernel_cuda{lambda(float)}". */
static void
strip_lambdas(char *s)
{
    size_t r = 0, w = 0, e;
    int depth = 0;

    while (s[r]) {
        char c = s[r];
        size_t k;
        for (k = 0; depth > 0 && c == '(' && k < 4; k++) {
            static const char *const casts[] = {"(int)", "(unsigned int)",
                                                "(unsigned long)", "(long)"};
            size_t n = strlen(casts[k]);
            if (strncmp(s + r, casts[k], n) == 0 &&
                ((s[r + n] >= '0' && s[r + n] <= '9') || s[r + n] == '-'))
                break;
        }
        if (depth > 0 && strncmp(s + r, "void ", 5) == 0 && w > 0 &&
            (s[w - 1] == ' ' || s[w - 1] == '<')) {
            r += 5; /* a function template's return type */
            continue;
        }
        if (depth > 0 && c == '(' && k < 4) { /* "(int)128" -> "128" */
            r = strchr(s + r, ')') - s + 1;
            continue;
        }
        if (depth > 0 && (c == '{' || c == '[') &&
            strncmp(s + r + 1, "lambda(", 7) == 0) {
            char close = c == '{' ? '}' : ']';
            size_t p = r + 8, q;
            int pd = 1;
            for (; s[p] && pd > 0; p++) /* the lambda's parameters */
                pd += s[p] == '(' ? 1 : s[p] == ')' ? -1 : 0;
            for (e = p; s[e] && s[e] != close && s[e] != '<' && s[e] != '>';
                 e++)
                ;
            if (s[e] == close) {
                /* the owner's parameter list: "f(…){lambda" -> "f{lambda" */
                if (w > 0 && s[w - 1] == ')') {
                    size_t b = w - 1;
                    int d = 0;
                    for (;; b--) {
                        d += s[b] == ')' ? 1 : s[b] == '(' ? -1 : 0;
                        if (d == 0 || b == 0)
                            break;
                    }
                    if (d == 0 && b > 0 &&
                        (is_ident(s[b - 1]) || s[b - 1] == '>'))
                        w = b;
                }
                q = e + 1;
                if (p == r + 9 && /* "lambda()": a chain link? */
                    (strncmp(s + q, "operator()() ", 13) == 0 ||
                     strncmp(s + q, "operator ()() ", 14) == 0)) {
                    r = q + (s[q + 8] == ' ' ? 14 : 13);
                    continue;
                }
                s[w++] = c; /* "{lambda(float)" and its close */
                memmove(s + w, s + r + 1, p - r - 1);
                w += p - r - 1;
                s[w++] = close;
                r = e + 1;
                continue;
            }
        }
        depth += c == '<' ? 1 : (c == '>' && depth > 0) ? -1 : 0;
        s[w++] = c;
        r++;
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

#define N_STEPS 8

/* Step `step` (0 to N_STEPS - 1) of the display form, in place. */
static void
apply_step(char *s, int step)
{
    if (step == 0)
        strip_signature(s);
    else if (step == 1)
        strip_inner_namespaces(s);
    else if (step == 2)
        strip_lambdas(s);
    else if (step == 3)
        strip_outer_namespace(s);
    else if (step == 4)
        fold_templates(s, 1, 1);
    else if (base_width(s) >= 16) /* a short base ("Kernel<...>") */
        fold_templates(s, 0,
                       step == 5   ? 1
                       : step == 6 ? 2
                                   : 0); /* needs
               its arguments to tell */
}

static int
fits(const char *s, size_t max_chars, size_t cap)
{
    return pr_shorten_width(s) <= max_chars && strlen(s) < cap;
}

static void token_cut(const char *s, size_t len, size_t *hb, size_t *tb);
static char *fit_form(const char *s, size_t at, size_t max, int folds,
                      size_t *left, char *out, size_t *work);

/* The form of name with its template arguments folded to the name that
 * tells them apart (step 5: "k<…MulFunctor<float>…>"), shrunk by whole
 * parts to max code points (fit_form: the name's own arguments, the
 * kernel's generic last word, a number and an elided argument go
 * first), into fit (FIT_MAX_BYTES + 1 bytes); 1 when it fits and still
 * holds such a name, else 0. */
static int
keyed_fit(const char *name, size_t max, char *fit, size_t *work)
{
    char s[FIT_MAX_BYTES + 1];
    size_t len = strlen(name), at, kn;
    int step;

    if (len > FIT_MAX_BYTES)
        return 0;
    memcpy(s, name, len + 1);
    for (step = 0; step < 6; step++)
        apply_step(s, step);
    if (strstr(s, "<" ELLIPSIS) == NULL || !key_name(s, 0, strlen(s), &at, &kn))
        return 0;
    if (fit_form(s, SIZE_MAX, max, 1, NULL, fit, work) == NULL)
        return 0;
    return key_name(fit, 0, strlen(fit), &at, &kn);
}

char *
pr_shorten(const char *name, size_t max_chars, char *out, size_t cap)
{
    /* the working copy: on the stack for any name a trace is likely to
       hold, so that shortening one cannot run out of memory (a failed
       copy would shorten it differently, and silently) */
    char work[8192], *s, fit[FIT_MAX_BYTES + 1];
    size_t fit_work[3 * FIT_MAX_BYTES + 3]; /* on the stack: as work */
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
    for (step = 0; step < N_STEPS && !fits(s, max_chars, cap); step++)
        apply_step(s, step);
    if (step == N_STEPS && s[0] != '\0' &&
        keyed_fit(name, max_chars, fit, fit_work) && strlen(fit) < cap) {
        /* the last step folded away the name that says what the kernel
           computes: a form that keeps it, where one fits */
        memcpy(out, fit, strlen(fit) + 1);
    } else if (s[0] == '\0' || fits(s, max_chars, cap)) {
        pr_shorten_middle(s[0] ? s : name, max_chars, out, cap);
    } else if (fit_form(s, SIZE_MAX, max_chars, 0, NULL, fit, fit_work) !=
                   NULL &&
               strlen(fit) < cap) { /* whole arguments and parts elided */
        memcpy(out, fit, strlen(fit) + 1);
    } else { /* the middle cut, at token boundaries */
        size_t w = pr_shorten_width(s), head, hb, tb, m = max_chars;
        len = strlen(s);
        if (m > (cap - 8) / 4)
            m = (cap - 8) / 4; /* what the buffer holds */
        head = (m - 1) / 2;
        hb = prefix_bytes(s, head);
        tb = len - prefix_bytes(s, w - (m - 1 - head));
        token_cut(s, len, &hb, &tb);
        memcpy(out, s, hb);
        memcpy(out + hb, ELLIPSIS, 3);
        memcpy(out + hb + 3, s + len - tb, tb + 1);
    }
    if (s != work)
        free(s);
    return out;
}

/* ---- names told apart (pr_shorten_distinct) ----------------------------- */

/* name with the first `steps` of pr_shorten's steps applied and no cut
 * (steps 0: the name itself), in a new string; NULL on out-of-memory. */
static char *
detail_form(const char *name, int steps)
{
    char *s = strdup(name);
    int step;

    for (step = 0; s != NULL && step < steps; step++)
        apply_step(s, step);
    if (s != NULL && s[0] == '\0') { /* a name that is all signature */
        free(s);
        s = strdup(name);
    }
    return s;
}

struct named {
    const char *name; /* borrowed */
    char *form;       /* owned */
    size_t at;        /* index in the caller's arrays */
};

static int
cmp_named(const void *pa, const void *pb)
{
    const struct named *a = pa, *b = pb;
    int c = strcmp(a->form, b->form);

    if (c != 0)
        return c;
    c = strcmp(a->name, b->name);
    return c != 0 ? c : (a->at > b->at) - (a->at < b->at);
}

/* The end of the run of v[i..n) (sorted by cmp_named) whose forms equal
 * v[i]'s; *mixed: whether the run holds two different names. */
static size_t
form_run(const struct named *v, size_t i, size_t n, int *mixed)
{
    size_t j;

    *mixed = 0;
    for (j = i + 1; j < n && strcmp(v[j].form, v[i].form) == 0; j++)
        *mixed |= strcmp(v[j].name, v[i].name) != 0;
    return j;
}

/* Code points a and b share at their start, and at their end, counted
 * up to `upto` (more is never needed: the cut shows fewer). */
static size_t
same_head(const char *a, const char *b, size_t upto)
{
    size_t i = 0, n = 0;

    for (; a[i] != '\0' && a[i] == b[i] && n <= upto; i++)
        n += ((unsigned char)a[i] & 0xC0) != 0x80;
    return n;
}

static size_t
same_tail(const char *a, const char *b, size_t upto)
{
    size_t i = strlen(a), j = strlen(b), n = 0;

    for (; i > 0 && j > 0 && a[i - 1] == b[j - 1] && n <= upto; i--, j--)
        n += ((unsigned char)a[i - 1] & 0xC0) != 0x80;
    return n;
}

/* Whether a part of an identifier starts at s[t] (t > 0): "_rowwise" of
 * "split_embedding_backward_codegen_rowwise", "Kernel" of
 * "DeviceRadixSortExclusiveSumKernel". */
static int
part_start(const char *s, size_t t)
{
    return s[t] == '_' ||
           (s[t] >= 'A' && s[t] <= 'Z' && s[t - 1] >= 'a' && s[t - 1] <= 'z');
}

/* A cut of name s after hb bytes and before its last tb bytes, moved to
 * token boundaries: the head ends before an identifier it would split
 * (where that keeps half of it) and never on an opening bracket, space
 * or comma ("k<…f(T&)[…" -> "k<…f(T&)…"); the tail starts after one. */
static void
token_cut(const char *s, size_t len, size_t *hb, size_t *tb)
{
    size_t h = *hb, t = len - *tb;

    if (h > 0 && h < len && is_ident(s[h - 1]) && is_ident(s[h])) {
        size_t b = h;
        while (b > 0 && is_ident(s[b - 1]))
            b--;
        if (h - b < 4 && b > 0) /* a piece of a name too short to read */
            h = b;
        else { /* else where one of its parts ends: "split_embedding…" */
            size_t q = h;
            while (q > b + 4 && !part_start(s, q))
                q--;
            if (part_start(s, q))
                h = q;
        }
    }
    for (;;) { /* "f(T&)[", "k<4, ": an opened part or a separator */
        if (h > 0 && (s[h - 1] == ' ' || s[h - 1] == ','))
            h--;
        else if (h >= 3 && strncmp(s + h - 3, ELLIPSIS, 3) == 0)
            h -= 3; /* a fold's "…" at the cut: one "…", not "……" */
        else if (h > 1 && strchr("([{", s[h - 1]) != NULL &&
                 (is_ident(s[h - 2]) || s[h - 2] == ')' || s[h - 2] == '>'))
            h--; /* (a list's own "[" stays: "[1, 2], […]") */
        else
            break;
    }
    if (*tb > 0 && t > 0 && t < len && is_ident(s[t - 1]) && is_ident(s[t])) {
        size_t q = t; /* the tail starts where a part of a name does */
        while (q < len && is_ident(s[q]) && !part_start(s, q))
            q++;
        if ((q < len && is_ident(s[q])) || q - t < 4)
            t = q;
    }
    while (*tb > 0 && t < len &&
           (s[t] == ' ' || s[t] == ',' ||
            (t + 3 <= len && strncmp(s + t, ELLIPSIS, 3) == 0)))
        t += s[t] == ' ' || s[t] == ',' ? 1 : 3;
    if (h == 0 && t == len) /* nothing would be left: the plain cut */
        return;
    *hb = h;
    *tb = len - t;
}

/* "head…tail": the first h and last t code points of s, cut at token
 * boundaries (token_cut). */
static char *
head_tail(const char *s, size_t h, size_t t)
{
    size_t w = pr_shorten_width(s), hb, tb, len = strlen(s);
    char *out;

    if (h + t >= w)
        return strdup(s);
    hb = prefix_bytes(s, h);
    tb = len - prefix_bytes(s, w - t);
    token_cut(s, len, &hb, &tb);
    out = malloc(hb + tb + 4);
    if (out == NULL)
        return NULL;
    memcpy(out, s, hb);
    memcpy(out + hb, ELLIPSIS, 3);
    memcpy(out + hb + 3, s + len - tb, tb + 1);
    return out;
}

/* Where head…tail cannot tell them apart (they differ in the middle):
 * the first h code points, then from the start of the argument that
 * holds code point `at` (where s first differs from its nearest name),
 * as much as fits, "…" marking each cut. */
static char *
window(const char *s, size_t h, size_t at, size_t max)
{
    size_t w = pr_shorten_width(s), from = at, room, hb, fb, eb, len;
    char *out;

    if (h + 2 >= max)
        h = max / 3;
    while (from > h && at - from < 40) { /* back to the argument's start */
        size_t b = prefix_bytes(s, from - 1);
        if (s[b] == '<' || s[b] == ',' || s[b] == ' ')
            break;
        from--;
    }
    if (from <= h + 1) /* the window meets the head: one cut at the end */
        return head_tail(s, max - 1, 0);
    room = max - h - 1; /* the window and its closing ellipsis */
    if (w - from > room)
        room--; /* room for the "…" after the window */
    else if (w - room > h + 1)
        from = w - room; /* it reaches the end: start it earlier */
    else
        return head_tail(s, h, max - 1 - h);
    len = strlen(s);
    hb = prefix_bytes(s, h);
    if (hb > 0 && is_ident(s[hb - 1]) && is_ident(s[hb])) {
        size_t b = hb; /* the head ends where a part of the name does */
        while (b > 0 && is_ident(s[b - 1]))
            b--;
        while (hb > b + 4 && !part_start(s, hb))
            hb--;
    }
    if (hb >= 3 && strncmp(s + hb - 3, ELLIPSIS, 3) == 0)
        hb -= 3; /* "vectorized…" of a name shrunk: one "…" */
    fb = prefix_bytes(s, from);
    eb = prefix_bytes(s, from + room < w ? from + room : w);
    if (eb < len) { /* end it at a token boundary too */
        size_t tb = 0;
        token_cut(s, len, &eb, &tb);
        if (eb <= fb || (eb <= prefix_bytes(s, at) &&
                         prefix_bytes(s, from + room) > prefix_bytes(s, at)))
            eb = prefix_bytes(s, from + room); /* keep the difference */
    }
    if (fb > 0 && is_ident(s[fb - 1]) && is_ident(s[fb])) {
        size_t q = fb; /* not from inside a word: "…ol, float" */
        while (q < eb && q - fb < 12 && is_ident(s[q]) && !part_start(s, q))
            q++;
        if (q + 4 < eb && q <= prefix_bytes(s, at) &&
            (part_start(s, q) || !is_ident(s[q])))
            fb = q;
    }
    while (fb < eb && (s[fb] == ' ' || s[fb] == ',') &&
           fb < prefix_bytes(s, at))
        fb++;
    while (eb >= fb + 6 && strncmp(s + fb, ELLIPSIS, 3) == 0)
        fb += 3; /* a fold's "…" at the window's start: one "…" */
    out = malloc(hb + (eb - fb) + 8);
    if (out == NULL)
        return NULL;
    memcpy(out, s, hb);
    memcpy(out + hb, ELLIPSIS, 3);
    memcpy(out + hb + 3, s + fb, eb - fb);
    if (eb < len)
        memcpy(out + hb + 3 + (eb - fb), ELLIPSIS, 3),
            out[hb + 6 + (eb - fb)] = '\0';
    else
        out[hb + 3 + (eb - fb)] = '\0';
    return out;
}

/* ---- fitting a form that tells names apart (fit_form) ------------------ */

#define FIT_MAX_ROUNDS 64

static size_t span_width(const char *s, size_t from, size_t to);

/* Replace s[from, to) with `with` (no longer than it), in place. */
static void
splice(char *s, size_t from, size_t to, const char *with)
{
    size_t n = strlen(with);

    memcpy(s + from, with, n);
    memmove(s + from + n, s + to, strlen(s + to) + 1);
}

/* The best cut so far of fit_step's: s[at, to) replaced, saving `save`
 * code points; the one that saves least while enough (`need`), else the
 * one that saves most. */
struct fit_cut {
    size_t at, to, save;
    int named, have;
};

static void
fit_consider(struct fit_cut *c, size_t at, size_t to, size_t save, size_t need,
             int named)
{
    if (save == 0)
        return;
    if (!c->have || (save >= need && (c->save < need || save < c->save)) ||
        (c->save < need && save > c->save)) {
        c->have = 1;
        c->at = at;
        c->to = to;
        c->save = save;
        c->named = named;
    }
}

/* "…name…" of the key name in s[from, to) (key_name) into with (at
 * least its length + 7 bytes); its length, 0 when there is none. */
static size_t
named_fold(const char *s, size_t from, size_t to, char *with)
{
    size_t at, kn;

    if (!key_name(s, from, to, &at, &kn) || kn + 6 >= to - from)
        return 0;
    memcpy(with, ELLIPSIS, 3);
    memcpy(with + 3, s + at, kn);
    memcpy(with + 3 + kn, ELLIPSIS, 4);
    return kn + 6;
}

/* Whether the identifier s[from, to) ends in a generic last word that
 * says only that it is a kernel ("_kernel" of
 * "vectorized_elementwise_kernel"), after two words or more; its start
 * in *at. */
static int
generic_tail(const char *s, size_t from, size_t to, size_t *at)
{
    static const char *const words[] = {"_kernel", "_Kernel"};
    size_t k, n, u;

    for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
        n = strlen(words[k]);
        if (to - from <= n + 8 || strncmp(s + to - n, words[k], n) != 0)
            continue;
        for (u = from + 1; u < to - n && s[u] != '_'; u++)
            ;
        if (u < to - n) { /* a word between the first and the tail */
            *at = to - n;
            return 1;
        }
    }
    return 0;
}

/* Whether the identifier s[from, to) holds a generic word inside, after
 * its first part and before its last ("_codegen", "_kernel" of
 * "split_embedding_backward_codegen_rowwise_adagrad_unweighted_kernel_
 * cta_per_row_1"), the ellipsis beside it if any: the span to elide,
 * the longest, in *at, *end. */
static int
generic_inner(const char *s, size_t from, size_t to, size_t *at, size_t *end)
{
    static const char *const words[] = {"_codegen", "_kernel", "_impl"};
    size_t k, n, u, best = 0;

    for (u = from + 1; u < to && s[u] != '_'; u++)
        ; /* past the first part */
    for (; u < to; u++) {
        if (s[u] != '_')
            continue;
        for (k = 0; k < sizeof(words) / sizeof(words[0]); k++) {
            n = strlen(words[k]);
            if (u + n < to && strncmp(s + u, words[k], n) == 0 &&
                (s[u + n] == '_' || strncmp(s + u + n, ELLIPSIS, 3) == 0) &&
                n > best) {
                *at = u;
                *end = u + n;
                best = n;
            }
        }
    }
    if (best == 0)
        return 0;
    if (*at >= from + 3 && strncmp(s + *at - 3, ELLIPSIS, 3) == 0)
        *at -= 3; /* "…_kernel_": one ellipsis */
    if (*end + 3 <= to && strncmp(s + *end, ELLIPSIS, 3) == 0)
        *end += 3;
    return 1;
}

/* One shrinking step on s of width w toward max code points, keeping the
 * byte at *p (where s first differs from its nearest name; SIZE_MAX:
 * none) and the brackets balanced; *p follows the text.  Candidates, by
 * kind, the next kind only where the one before has none: (with `folds`)
 * a template argument list not holding *p folded to "<…name…>"
 * (key_name), or to "<…>" where it holds no such name, or the kept
 * name's own arguments dropped ("…MulFunctor<float>…" -> "…MulFunctor…"),
 * the one that saves least while enough to fit, else the one that saves
 * most; the longest whole argument of a list ("<>" or "()") holding *p
 * (any list when none) elided to "…", or to "…name…" where it holds
 * such a name (never one that is that name); a long identifier's generic
 * word ("_kernel", "_codegen"); the middle parts of a long identifier not
 * holding *p ("split…_rowwise_adagrad…", "Device…SumKernel"), least
 * while enough; a list's leading number or elided last argument joined
 * to the ellipsis beside it; last (with `folds`) a list that holds such
 * a name folded to "<…>" (review 26g #7).  No cut starts inside an
 * identifier it keeps.  `work`: 2 * strlen(s) + 2 slots.  Returns 0 when
 * nothing is left to shrink. */
static int
fit_step(char *s, size_t w, size_t max, size_t *p, size_t *work, int folds)
{
    size_t len = strlen(s), i, need = w - max, *match = work;
    size_t *stack = work + len + 1, top = 0, ptop = 0, kl;
    size_t *pstack = work + 2 * len + 2;
    struct fit_cut c = {0, 0, 0, 0, 0};
    int kind;
    char with[FIT_MAX_BYTES + 8];

    for (i = 0; i < len; i++) { /* match the template brackets */
        match[i] = 0;
        if (s[i] == '<')
            stack[top++] = i;
        else if (s[i] == '>' && top > 0 && (i == 0 || s[i - 1] != '-'))
            match[stack[--top]] = i;
        else if (s[i] == '(')
            pstack[ptop++] = i;
        else if (s[i] == ')' && ptop > 0)
            match[pstack[--ptop]] = i;
    }
    for (kind = folds ? 0 : 1; kind < (folds ? 6 : 5) && !c.have; kind++) {
        for (i = 0; i < len; i++) {
            /* a lambda's parameters tell it apart: "{lambda(bool, long" */
            int params = kind == 1 && s[i] == '(' &&
                         (i < 6 || strncmp(s + i - 6, "lambda", 6) != 0);
            size_t e = s[i] == '<' || params ? match[i] : 0, a, from, t, s1,
                   last;
            int holds = e > 0 && (*p == SIZE_MAX || (i < *p && *p <= e)), d = 0;
            if (kind == 0 || kind == 5) { /* a list not holding *p */
                size_t ka, kn, b;
                if (e == 0 || e - i - 1 <= 3 ||
                    (holds && (*p != SIZE_MAX || kind == 5)))
                    continue;
                for (b = i; b > 0 && is_ident(s[b - 1]) &&
                            !(b >= 3 && strncmp(s + b - 3, ELLIPSIS, 3) == 0);
                     b--)
                    ;
                if (kind == 0 && b < i && b >= 3 &&
                    strncmp(s + b - 3, ELLIPSIS, 3) == 0 &&
                    strncmp(s + e + 1, ELLIPSIS, 3) == 0) {
                    /* the kept name's own arguments: "…MulFunctor<float>…"
                       -> "…MulFunctor…" (its ellipses mark the cut) */
                    fit_consider(&c, i, e + 1, span_width(s, i, e + 1), need,
                                 2);
                    continue;
                }
                if (holds) /* no difference to keep: only that */
                    continue;
                kl = kind == 0 ? named_fold(s, i + 1, e, with) : 0;
                if (kl > 0)
                    fit_consider(&c, i + 1, e,
                                 span_width(s, i + 1, e) -
                                     pr_shorten_width(with),
                                 need, 1);
                /* "<…>" drops the name that says what the kernel computes
                   ("AUnaryFunctor<…MulFunctor…>"): a list that holds one
                   is folded so only when nothing else is left (review 26g
                   #7: "vectorized…_kernel<4, AUnaryFunctor<…>, …>") */
                if (kind == 5 || !key_name(s, i + 1, e, &ka, &kn))
                    fit_consider(&c, i + 1, e, span_width(s, i + 1, e) - 1,
                                 need, 0);
            } else if (kind == 1) { /* an argument of a list holding *p */
                if (!holds)
                    continue;
                for (a = i + 1, d = 0; a < e && (s[a] != ',' || d > 0); a++)
                    d += strchr("<({[", s[a]) != NULL   ? 1
                         : strchr(">)}]", s[a]) != NULL ? -1
                                                        : 0;
                if (a >= e) /* one argument: "Kernel<…>" tells nothing */
                    continue;
                for (d = 0, from = a = i + 1; a <= e; a++) {
                    if (a < e && strchr("<({[", s[a]) != NULL)
                        d++;
                    else if (a < e && strchr(">)}]", s[a]) != NULL && d > 0)
                        d--;
                    if (a < e && (s[a] != ',' || d > 0))
                        continue;
                    while (from < a && s[from] == ' ')
                        from++;
                    if (!(from <= *p && *p < a) && span_width(s, from, a) > 1) {
                        /* an argument that holds the name saying what the
                           kernel computes keeps it: "…MulFunctor…" */
                        size_t sv = span_width(s, from, a) - 1, ka, kn;
                        int nm = 0;
                        if (key_name(s, from, a, &ka, &kn)) {
                            nm = 1; /* none where it is that name: */
                            sv = named_fold(s, from, a, with) > 0 /* "F<…>" */
                                     ? span_width(s, from, a) -
                                           pr_shorten_width(with)
                                     : 0;
                        }
                        if (sv > 0 && (!c.have || sv > c.save))
                            fit_consider(&c, from, a, sv, SIZE_MAX,
                                         nm); /* the longest */
                    }
                    from = a + 1;
                }
            } else if (kind == 4) {
                /* before a named functor goes: the list's number and
                   elided last argument join the ellipses beside them,
                   "<4, F<…MulFunctor…>, …>" -> "<…F<…MulFunctor…>…>" */
                if (strncmp(s + i, ", " ELLIPSIS, 5) == 0 && i + 5 < len &&
                    (s[i + 5] == '>' || s[i + 5] == ','))
                    fit_consider(&c, i, i + 5, 2, need, 0);
                else if (s[i] == '<' && s[i + 1] >= '0' && s[i + 1] <= '9') {
                    for (a = i + 1; a < len && s[a] >= '0' && s[a] <= '9'; a++)
                        ;
                    if (a - i <= 4 && s[a] == ',' && s[a + 1] == ' ' &&
                        (*p == SIZE_MAX || *p >= a + 2))
                        fit_consider(&c, i + 1, a + 2,
                                     span_width(s, i + 1, a + 2) - 1, need, 0);
                }
            } else if (kind == 2) { /* a long identifier's generic words */
                if (!is_ident(s[i]) || (i > 0 && is_ident(s[i - 1])))
                    continue;
                for (e = i; e < len && is_ident(s[e]); e++)
                    ;
                /* a kernel's generic last word goes before its others:
                   "vectorized_elementwise…", not "vectorized…_kernel" */
                if (e - i >= 16 && e - i < 64 && generic_tail(s, i, e, &t) &&
                    (*p == SIZE_MAX || *p < t || *p >= e))
                    fit_consider(&c, t, e, span_width(s, t, e) - 1, need, 0);
                else if (e - i >= 24 && strncmp(s + i, ELLIPSIS, 3) != 0 &&
                         generic_inner(s, i, e, &t, &a) &&
                         (*p == SIZE_MAX || *p < t || *p >= a))
                    fit_consider(&c, t, a, span_width(s, t, a) - 1, need, 0);
                i = e;
            } else if (kind == 3) { /* a long identifier's middle parts */
                if (!is_ident(s[i]) || (i > 0 && is_ident(s[i - 1])))
                    continue;
                for (e = i; e < len && is_ident(s[e]); e++)
                    ;
                /* one whose generic word went: its words after the first
                   too, "vectorized_elementwise…" -> "vectorized…" */
                if (e - i >= 16 && strncmp(s + e - 3, ELLIPSIS, 3) == 0 &&
                    strncmp(s + i, ELLIPSIS, 3) != 0) { /* not "…Key…" */
                    for (t = i + 1; t < e - 3 && s[t] != '_'; t++)
                        ;
                    if (t > i + 4 && t < e - 3 &&
                        (*p == SIZE_MAX || *p < t || *p >= e))
                        fit_consider(&c, t, e, span_width(s, t, e) - 1, need,
                                     0);
                    i = e;
                    continue;
                }
                for (s1 = i; s1 < e && s[s1] == '_'; s1++)
                    ;
                for (s1++; s1 < e && !part_start(s, s1); s1++)
                    ;
                if (e - i < 24 || s1 >= e ||
                    strncmp(s + i, ELLIPSIS, 3) == 0) /* a kept "…Key…" */
                    continue;
                /* the parts dropped about the middle of what stays:
                   "sm80_xmma_wgrad…_tensor16x8x8_kernel" */
                t = e - i > need + 2 ? i + (e - i - need - 1) / 2 : i;
                for (a = t; a > s1 && !part_start(s, a); a--)
                    ;
                if (a > s1 && (*p == SIZE_MAX || *p < a || *p >= e))
                    s1 = a;
                for (last = 0, t = s1 + 1; t < e; t++) {
                    if (!part_start(s, t))
                        continue;
                    if (*p != SIZE_MAX && s1 <= *p && *p < t)
                        break;
                    last = t;
                    if (span_width(s, s1, t) > need)
                        break;
                }
                if (last > 0)
                    fit_consider(&c, s1, last, span_width(s, s1, last) - 1,
                                 need, 0);
                i = e;
            }
        }
    }
    if (!c.have)
        return 0;
    if (c.named == 2)
        with[0] = '\0';
    else if (!c.named || named_fold(s, c.at, c.to, with) == 0)
        memcpy(with, ELLIPSIS, 4);
    kl = strlen(with);
    if (*p != SIZE_MAX && *p >= c.to)
        *p -= (c.to - c.at) - kl;
    splice(s, c.at, c.to, with);
    /* an elided argument beside another: "…, …" -> "…" */
    for (i = 0; s[i];) {
        if (strncmp(s + i, ELLIPSIS ", " ELLIPSIS, 8) == 0) {
            if (*p != SIZE_MAX && *p >= i + 8)
                *p -= 5;
            splice(s, i, i + 5, "");
        } else if (strncmp(s + i, ELLIPSIS ELLIPSIS, 6) == 0) {
            if (*p != SIZE_MAX && *p >= i + 6) /* parts elided beside */
                *p -= 3;                       /* one another: "…" */
            splice(s, i, i + 3, "");
        } else {
            i++;
        }
    }
    return 1;
}

/* The form of s (a form that does not fit) in at most max code points
 * by shrinking whole parts only (fit_step), the part at code point `at`
 * (where it first differs from its nearest name; SIZE_MAX: none) kept;
 * `folds`: whether lists may fold (pr_shorten's steps have folded what
 * they would), into out (FIT_MAX_BYTES + 1 bytes; `work`: 3 *
 * FIT_MAX_BYTES + 3 slots), so that it allocates nothing and cannot
 * shorten differently when memory runs out.  Returns out, or NULL when s
 * is longer than FIT_MAX_BYTES or, without `left`, the form cannot fit;
 * with `left`, the form as far as it shrank, *left the code point where
 * `at` is in it (SIZE_MAX: none). */
static char *
fit_form(const char *s, size_t at, size_t max, int folds, size_t *left,
         char *out, size_t *work)
{
    size_t len = strlen(s), p, w, rounds;

    if (len > FIT_MAX_BYTES)
        return NULL;
    memcpy(out, s, len + 1);
    p = at == SIZE_MAX ? SIZE_MAX : prefix_bytes(s, at);
    if (p != SIZE_MAX && p >= len)
        p = SIZE_MAX;
    for (rounds = 0;
         (w = pr_shorten_width(out)) > max && rounds < FIT_MAX_ROUNDS &&
         fit_step(out, w, max, &p, work, folds);
         rounds++)
        ;
    if (left != NULL)
        *left = p == SIZE_MAX ? SIZE_MAX : span_width(out, 0, p);
    else if (pr_shorten_width(out) > max)
        return NULL;
    return out;
}

/* The form of r (rw code points, first differing from its nearest name
 * at code point `at`) in max code points: with `whole`, whole parts
 * shrunk first (fit_form), then a window at its difference over what
 * is left; else the plain window (head of pref code points).  NULL on
 * out-of-memory. */
static char *
told_form(const char *r, size_t rw, size_t at, size_t pref, size_t max,
          int whole)
{
    size_t left, fw, hw, *work;
    char *f, *part;

    if (rw <= max)
        return strdup(r);
    if (!whole || strlen(r) > FIT_MAX_BYTES)
        return window(r, pref, at, max);
    part = malloc(FIT_MAX_BYTES + 1);
    work = malloc((3 * FIT_MAX_BYTES + 3) * sizeof(*work));
    f = part != NULL && work != NULL
            ? fit_form(r, at, max, 1, &left, part, work)
            : NULL;
    free(work);
    if (f == NULL) { /* out-of-memory */
        free(part);
        return NULL;
    }
    if ((fw = pr_shorten_width(part)) <= max)
        return part;
    /* what shrank whole, then a window at its difference */
    hw = base_width(part) + 1 < max / 2 ? base_width(part) + 1 : max / 2;
    f = window(part, hw, left == SIZE_MAX ? fw : left, max);
    free(part);
    return f;
}

static int tell_apart(struct named *v, size_t i, size_t j, size_t max,
                      int depth);

/* r[] sorted through an index, for finding alike forms and nearest
 * names without comparing every two. */
static int
cmp_r(const void *pa, const void *pb, void *ctx)
{
    const char *const *r = ctx;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int c = strcmp(r[a], r[b]);

    return c != 0 ? c : (a > b) - (a < b);
}

#define BIG_GROUP 256 /* larger groups skip the one-cut search (g * g) */
#define MAX_DEPTH                                                              \
    8 /* levels of groups told apart within groups: past                       \
         them a group takes its one cut and is numbered                        \
         where still alike, so a hostile list cannot run                       \
         the stack out at a level per name */

/* The forms v[i..j) take when their names shortened alike: the most
 * shortened of pr_shorten's steps at which the names still differ, cut
 * to max code points as "head…tail" with one head length for all of them
 * such that any two keep a differing part, the head reaching past where
 * most of them first differ from their nearest name (the function name at
 * least, where it fits); where no such cut exists, each keeps a window
 * around where it first differs; windows alike again are told apart
 * among themselves, `depth` levels deep so far.  Returns 0, -1 on
 * out-of-memory. */
static int
tell_apart(struct named *v, size_t i, size_t j, size_t max, int depth)
{
    size_t g = j - i, k, m, h, best_h = 0, pref, *ord, *at, *rw;
    long best_score = -1;
    int steps, ok = 0, found = 0;
    char **r = calloc(g, sizeof(*r)), **fk = calloc(g, sizeof(*fk));
    unsigned char *bad = calloc(max + 1, 1);

    ord = calloc(g, sizeof(*ord));
    at = calloc(g, sizeof(*at));
    rw = calloc(g, sizeof(*rw));
    if (r == NULL || fk == NULL || bad == NULL || ord == NULL || at == NULL ||
        rw == NULL)
        goto nomem;
    for (steps = N_STEPS; steps >= 0 && !ok; steps--) {
        for (k = 0; k < g; k++) {
            free(r[k]);
            if ((r[k] = detail_form(v[i + k].name, steps)) == NULL)
                goto nomem;
            ord[k] = k;
        }
        qsort_r(ord, g, sizeof(*ord), cmp_r, r);
        ok = 1; /* every two different names differ in this form */
        for (k = 1; k < g && ok; k++)
            ok = strcmp(r[ord[k]], r[ord[k - 1]]) != 0 ||
                 strcmp(v[i + ord[k]].name, v[i + ord[k - 1]].name) == 0;
    }
    for (k = 0; k < g; k++)
        rw[k] = pr_shorten_width(r[k]);
    /* where each first differs from its nearest other form: at a sorted
       neighbour */
    for (k = 0; k < g; k++) {
        size_t x = ord[k];
        for (m = k; m-- > 0 && strcmp(r[ord[m]], r[x]) == 0;)
            ;
        if (m < g)
            at[x] = same_head(r[x], r[ord[m]], SIZE_MAX);
        for (m = k + 1; m < g && strcmp(r[ord[m]], r[x]) == 0; m++)
            ;
        if (m < g && same_head(r[x], r[ord[m]], SIZE_MAX) > at[x])
            at[x] = same_head(r[x], r[ord[m]], SIZE_MAX);
    }
    pref = base_width(r[0]) + 1;
    if (pref > max / 2)
        pref = max / 2;
    /* head lengths h that leave two forms alike: both cut, and alike in
       their first h and last max - 1 - h code points */
    for (k = 0; k < g && g <= BIG_GROUP; k++)
        for (m = k + 1; m < g; m++) {
            size_t sh, st;
            if (rw[k] <= max || rw[m] <= max || strcmp(r[k], r[m]) == 0)
                continue;
            sh = same_head(r[k], r[m], max);
            st = same_tail(r[k], r[m], max);
            for (h = st + 1 < max ? max - 1 - st : 0; h <= sh && h <= max; h++)
                bad[h] = 1;
        }
    for (h = 1; h + 2 <= max && g <= BIG_GROUP; h++) {
        long score = 0;
        if (bad[h])
            continue;
        /* names whose first difference shows, with a dozen code points
           after it in the head, or in the tail; ties: nearest pref */
        for (k = 0; k < g; k++)
            score += at[k] + 12 <= h || at[k] + (max - 1 - h) >= rw[k];
        score = score * 256 - (long)(h > pref ? h - pref : pref - h);
        if (score > best_score) {
            best_score = score;
            best_h = h;
            found = 1;
        }
    }
    /* first each its own window at its first difference (what tells it
       from its nearest name, in context); the one cut for all where two
       windows meet */
    for (k = 0; k < g; k++) {
        char *f = told_form(r[k], rw[k], at[k], pref, max, 1);
        if (f == NULL)
            goto nomem;
        free(v[i + k].form);
        v[i + k].form = f;
    }
    /* forms shrunk alike for different names (what one elided told it
       from a name not its nearest): those take their plain windows */
    for (k = 0; k < g; k++) {
        ord[k] = k;
        fk[k] = v[i + k].form;
    }
    qsort_r(ord, g, sizeof(*ord), cmp_r, fk);
    for (k = 0; k < g; k = m) {
        int mixed = 0;
        for (m = k + 1; m < g && strcmp(fk[ord[m]], fk[ord[k]]) == 0; m++)
            mixed |= strcmp(v[i + ord[m]].name, v[i + ord[k]].name) != 0;
        for (h = k; mixed && h < m; h++) {
            size_t x = ord[h];
            char *f = told_form(r[x], rw[x], at[x], pref, max, 0);
            if (f == NULL)
                goto nomem;
            free(v[i + x].form);
            v[i + x].form = f;
        }
    }
    qsort(v + i, g, sizeof(*v), cmp_named);
    ok = 1;
    for (k = 0; k < g; k = m) { /* windows alike: told apart among them */
        int mixed;
        m = form_run(v + i, k, g, &mixed);
        if (mixed && m - k < g && depth < MAX_DEPTH) {
            if (tell_apart(v, i + k, i + m, max, depth + 1) != 0)
                goto nomem;
        } else if (mixed) {
            ok = 0;
        }
    }
    for (k = 0; k < g && !ok && found; k++) {
        char *f = detail_form(v[i + k].name, steps + 1);
        char *cut = f == NULL ? NULL
                    : pr_shorten_width(f) <= max
                        ? strdup(f)
                        : head_tail(f, best_h, max - 1 - best_h);
        free(f);
        if (cut == NULL)
            goto nomem;
        free(v[i + k].form);
        v[i + k].form = cut;
    }
    for (k = 0; k < g; k++)
        free(r[k]);
    free(r);
    free(fk);
    free(bad);
    free(ord);
    free(at);
    free(rw);
    return 0;
nomem:
    for (k = 0; r != NULL && k < g; k++)
        free(r[k]);
    free(r);
    free(fk);
    free(bad);
    free(ord);
    free(at);
    free(rw);
    return -1;
}

/* Forms still alike for different names: " [2]", " [3]" ... after the
 * first, the form cut so the tag fits; numbered again per run of alike
 * forms, or (global) on through all of them. */
static int
number_alike(struct named *v, size_t n, size_t max, int global)
{
    size_t i, first = 0;       /* v[first]: the first of a run alike */
    size_t k = global ? n : 1; /* global: past every number given before */
    char tag[24];

    for (i = 1; i < n; i++) {
        size_t tw;
        char *f, *g;
        if (strcmp(v[i].form, v[first].form) != 0) {
            k = global ? k : 1;
            first = i;
            continue;
        }
        if (strcmp(v[i].name, v[i - 1].name) == 0) {
            /* equal names read alike: the form (and number) given the
               first of them, not the run's untagged one */
            if (strcmp(v[i].form, v[i - 1].form) != 0) {
                if ((f = strdup(v[i - 1].form)) == NULL)
                    return -1;
                free(v[i].form);
                v[i].form = f;
            }
            continue;
        }
        snprintf(tag, sizeof(tag), " [%zu]", ++k);
        tw = strlen(tag);
        f = pr_shorten_width(v[i].form) + tw <= max || max < tw + 2
                ? strdup(v[i].form)
                : head_tail(v[i].form, max - tw - 1, 0);
        if (f == NULL)
            return -1;
        g = realloc(f, strlen(f) + tw + 1);
        if (g == NULL) {
            free(f);
            return -1;
        }
        memcpy(g + strlen(g), tag, tw + 1);
        f = g;
        free(v[i].form);
        v[i].form = f;
    }
    return 0;
}

int
pr_shorten_distinct(const char *const *names, size_t n, size_t max_chars,
                    char **forms)
{
    return pr_shorten_names(names, n, n, max_chars, forms, 1);
}

int
pr_shorten_names(const char *const *names, size_t n, size_t n_keep,
                 size_t max_chars, char **forms, size_t stride)
{
    struct named *v;
    size_t i, j, k;
    char *buf;
    int rc = 0;

    if (max_chars < MIN_CHARS)
        max_chars = MIN_CHARS;
    for (i = 0; i < n_keep; i++)
        forms[i * stride] = NULL;
    v = calloc(n ? n : 1, sizeof(*v));
    buf = malloc(PR_SHORTEN_CAP(max_chars));
    if (v == NULL || buf == NULL)
        rc = -1;
    for (i = 0; i < n && rc == 0; i++) {
        v[i].name = names[i] != NULL ? names[i] : "";
        v[i].at = i;
        v[i].form = strdup(
            pr_shorten(v[i].name, max_chars, buf, PR_SHORTEN_CAP(max_chars)));
        if (v[i].form == NULL)
            rc = -1;
    }
    if (rc == 0)
        qsort(v, n, sizeof(*v), cmp_named);
    for (i = 0; i < n && rc == 0; i = j) {
        int mixed;
        j = form_run(v, i, n, &mixed);
        if (mixed)
            rc = tell_apart(v, i, j, max_chars, 0);
    }
    if (rc == 0) { /* a told-apart form may meet another name's */
        qsort(v, n, sizeof(*v), cmp_named);
        rc = number_alike(v, n, max_chars, 0);
    }
    if (rc == 0) { /* so narrow that numbered forms met: numbers unique */
        qsort(v, n, sizeof(*v), cmp_named);
        rc = number_alike(v, n, max_chars, 1);
    }
    for (k = 0; k < n && v != NULL; k++) {
        if (rc == 0 && v[k].at < n_keep)
            forms[v[k].at * stride] = v[k].form;
        else
            free(v[k].form);
    }
    free(v);
    free(buf);
    return rc;
}

/* ---- labels that are paths (pr_shorten_labels) -------------------------- */

static int
is_sep(char c)
{
    return c == '.' || c == '/';
}

/* Code points of s[from, to). */
static size_t
span_width(const char *s, size_t from, size_t to)
{
    size_t n = 0;

    for (; from < to; from++)
        n += ((unsigned char)s[from] & 0xC0) != 0x80;
    return n;
}

/* "head…mid…tail" of path label s (len bytes): s[0, head), the parts
 * s[mid0, mid1) (none when mid0 == mid1), and from s[t] on, where t is
 * at most `leaf` and moved back over whole parts while the form stays
 * within max code points; an ellipsis for each gap.  NULL when even the
 * leaf does not fit so, when the tail would start past *tail (it must
 * keep what a plainer form shows; *tail: where it starts), or on
 * out-of-memory (*oom set). */
static char *
label_cut(const char *s, size_t len, size_t head, size_t mid0, size_t mid1,
          size_t leaf, size_t max, size_t *tail, int *oom)
{
    size_t hw = span_width(s, 0, head), mw = span_width(s, mid0, mid1);
    size_t t = leaf, acc = span_width(s, leaf, len), lo, p, i, room;
    char *out;

    if (mw > 0 && mid1 + 1 >= leaf) { /* the parts meet the leaf: a tail */
        t = mid0;
        acc = span_width(s, mid0, len);
        mw = 0;
        mid0 = mid1 = 0;
    }
    if (hw + 1 + (mw ? mw + 1 : 0) + acc > max)
        return NULL;
    room = max - hw - 1 - (mw ? mw + 1 : 0);
    lo = mw ? mid1 : head;
    while (t > lo + 1) { /* s[t - 1] is a separator: the part before it */
        size_t add;
        for (p = t - 1; p > lo && !is_sep(s[p - 1]); p--)
            ;
        add = span_width(s, p, t);
        if (p <= lo || acc + add > room)
            break;
        acc += add;
        t = p;
    }
    if (t > *tail) /* it would lose parts the plain form shows */
        return NULL;
    *tail = t;
    out = malloc(head + (mid1 - mid0) + (len - t) + 8);
    if (out == NULL) {
        *oom = 1;
        return NULL;
    }
    memcpy(out, s, head);
    memcpy(out + head, ELLIPSIS, 3);
    i = head + 3;
    if (mw) {
        memcpy(out + i, s + mid0, mid1 - mid0);
        i += mid1 - mid0;
        memcpy(out + i, ELLIPSIS, 3);
        i += 3;
    }
    memcpy(out + i, s + t, len - t + 1);
    return out;
}

/* The display form of a path label in at most max code points: its head
 * (the first part with its separator, at most a third of the width),
 * "…", and as many of its last parts as fit, the leaf always whole.
 * With lo <= hi (byte offsets where it first differs from labels that
 * read alike, SIZE_MAX: none), the parts from lo's to hi's show too,
 * between two ellipses, the head given up for them where need be, else
 * hi's part alone.  A label without separators, or whose leaf alone does
 * not fit, is cut in its middle.  Linear in the label.  NULL on
 * out-of-memory. */
static char *
label_form(const char *s, size_t max, size_t lo, size_t hi)
{
    size_t len = strlen(s), i, leaf = 0, head, hw, leafw, m0[2], m1, k;
    size_t t0 = SIZE_MAX, t;
    char *out = NULL, *buf;
    int oom = 0;

    if (pr_shorten_width(s) <= max)
        return strdup(s);
    for (i = 0; i + 1 < len; i++) /* a trailing separator ends no part */
        if (is_sep(s[i]))
            leaf = i + 1;
    leafw = leaf ? span_width(s, leaf, len) : 0;
    if (leaf == 0 || leafw + 3 > max) {
        if ((buf = malloc(PR_SHORTEN_CAP(max))) == NULL)
            return NULL;
        out = strdup(pr_shorten_middle(s, max, buf, PR_SHORTEN_CAP(max)));
        free(buf);
        return out;
    }
    for (head = 0; head < leaf && !is_sep(s[head]); head++)
        ;
    head++; /* the first part and its separator */
    hw = span_width(s, 0, head);
    if (hw > max / 3)
        hw = max / 3;
    if (hw + 1 + leafw > max)
        hw = max - 1 - leafw;
    head = prefix_bytes(s, hw);
    out = label_cut(s, len, head, 0, 0, leaf, max, &t0, &oom);
    if (out == NULL || hi == SIZE_MAX || hi >= leaf)
        return out;
    free(out); /* the plain form: what the others must keep (t0) */
    out = NULL;
    { /* the parts that tell it apart */
        if (lo > hi)
            lo = hi;
        for (k = 0; k < 2; k++) { /* from lo's part, then hi's alone */
            size_t at = k == 0 ? lo : hi;
            for (m0[k] = at; m0[k] > 0 && !is_sep(s[m0[k] - 1]); m0[k]--)
                ;
        }
        for (m1 = hi; m1 < leaf && !is_sep(s[m1]); m1++)
            ;
        for (k = 0; k < 4 && out == NULL && !oom; k++) {
            size_t from = m0[k / 2], h = k % 2 == 0 ? head : 0;
            if (from < h)
                from = h;
            t = t0;
            if (from < m1)
                out = label_cut(s, len, h, from, m1, leaf, max, &t, &oom);
        }
        if (out != NULL || oom)
            return out;
    }
    t = SIZE_MAX; /* none fits: the plain form, numbered if still alike */
    return label_cut(s, len, head, 0, 0, leaf, max, &t, &oom);
}

int
pr_shorten_labels(const char *const *names, size_t n, size_t n_keep,
                  size_t max_chars, char **forms, size_t stride)
{
    struct named *v;
    size_t i, j, k;
    int rc = 0;

    if (max_chars < MIN_CHARS)
        max_chars = MIN_CHARS;
    for (i = 0; i < n_keep; i++)
        forms[i * stride] = NULL;
    v = calloc(n ? n : 1, sizeof(*v));
    if (v == NULL)
        return -1;
    for (i = 0; i < n && rc == 0; i++) {
        v[i].name = names[i] != NULL ? names[i] : "";
        v[i].at = i;
        if ((v[i].form =
                 label_form(v[i].name, max_chars, SIZE_MAX, SIZE_MAX)) == NULL)
            rc = -1;
    }
    if (rc == 0)
        qsort(v, n, sizeof(*v), cmp_named);
    /* labels alike: each shows the parts where they differ */
    for (i = 0; i < n && rc == 0; i = j) {
        int mixed;
        j = form_run(v, i, n, &mixed);
        for (k = i; mixed && k < j && rc == 0; k++) {
            /* from where the run's names part (sorted by name, the
               first and last share what all share) to where this one
               parts from its nearest different names before and after
               (equal names are neighbours, and so take one form) */
            size_t lo = same_head(v[i].name, v[j - 1].name, SIZE_MAX), hi;
            size_t m;
            char *f;
            hi = lo;
            for (m = k; m > i && strcmp(v[m - 1].name, v[k].name) == 0; m--)
                ;
            if (m > i && same_head(v[m - 1].name, v[k].name, SIZE_MAX) > hi)
                hi = same_head(v[m - 1].name, v[k].name, SIZE_MAX);
            for (m = k + 1; m < j && strcmp(v[m].name, v[k].name) == 0; m++)
                ;
            if (m < j && same_head(v[m].name, v[k].name, SIZE_MAX) > hi)
                hi = same_head(v[m].name, v[k].name, SIZE_MAX);
            lo = prefix_bytes(v[k].name, lo);
            hi = prefix_bytes(v[k].name, hi);
            if ((f = label_form(v[k].name, max_chars, lo, hi)) == NULL) {
                rc = -1;
                break;
            }
            free(v[k].form);
            v[k].form = f;
        }
    }
    if (rc == 0) { /* still alike: numbered, as pr_shorten_names does */
        qsort(v, n, sizeof(*v), cmp_named);
        rc = number_alike(v, n, max_chars, 0);
    }
    if (rc == 0) {
        qsort(v, n, sizeof(*v), cmp_named);
        rc = number_alike(v, n, max_chars, 1);
    }
    for (k = 0; k < n; k++) {
        if (rc == 0 && v[k].at < n_keep)
            forms[v[k].at * stride] = v[k].form;
        else
            free(v[k].form);
    }
    free(v);
    return rc;
}

int
pr_shorten_numbered(const char *form)
{
    size_t n = form != NULL ? strlen(form) : 0, i;

    if (n < 4 || form[n - 1] != ']')
        return 0;
    for (i = n - 1; i > 0 && form[i - 1] >= '0' && form[i - 1] <= '9'; i--)
        ;
    return i + 1 < n && i >= 2 && form[i - 1] == '[' && form[i - 2] == ' ';
}

void
pr_shorten_free(char **forms, size_t n)
{
    size_t i;

    for (i = 0; forms != NULL && i < n; i++) {
        free(forms[i]);
        forms[i] = NULL;
    }
}
