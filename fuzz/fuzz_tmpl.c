/* fuzz_tmpl.c - libFuzzer target for the template engine: the input is a
 * template, then a NUL byte, then the JSON data it is rendered with (a
 * small fixed object when there is no NUL or the rest is not JSON).  A
 * partial is the template itself, once, so partials are rendered too. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "profreport/buf.h"
#include "profreport/tmpl.h"

static const char *fallback =
    "{\"title\": \"t<&>\", \"runs\": [{\"name\": \"a\", \"n\": 1}, "
    "{\"name\": \"b\", \"n\": null, \"list\": [1, 2]}], \"yes\": true, "
    "\"no\": false, \"html\": \"<b>x</b>\"}";

struct ctx {
    const char *tmpl;
    size_t len;
    int used;
};

static char *
partial(const char *name, void *user)
{
    struct ctx *c = user;
    char *p;

    (void)name;
    if (c->used++ > 0 || (p = malloc(c->len + 1)) == NULL)
        return NULL;
    memcpy(p, c->tmpl, c->len);
    p[c->len] = '\0';
    return p;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    const char *nul = memchr(text, '\0', size);
    size_t len = nul != NULL ? (size_t)(nul - text) : size;
    char *tmpl = malloc(len + 1);
    cJSON *json = NULL;
    struct ctx c;
    struct pr_buf out;
    struct pr_error err;

    if (tmpl == NULL)
        return 0;
    memcpy(tmpl, text, len);
    tmpl[len] = '\0';
    if (nul != NULL)
        json = cJSON_ParseWithLength(nul + 1, size - len - 1);
    if (json == NULL)
        json = cJSON_Parse(fallback);
    c.tmpl = tmpl;
    c.len = len;
    c.used = 0;
    pr_buf_init(&out, 0);
    pr_error_clear(&err);
    (void)pr_tmpl_render(tmpl, len, json, partial, &c, &out, &err);
    pr_buf_free(&out);
    cJSON_Delete(json);
    free(tmpl);
    return 0;
}
