/* strtab.h - string interning.  Each distinct byte string gets a dense id
 * (uint32_t); id 0 is always the empty string.  The table owns the bytes;
 * pointers returned by pr_strtab_get() stay valid until pr_strtab_free(). */
#ifndef PROFREPORT_STRTAB_H
#define PROFREPORT_STRTAB_H

#include <stddef.h>
#include <stdint.h>

#include "profreport/error.h"

#define PR_STR_EMPTY 0u
#define PR_STR_NONE UINT32_MAX /* "no string" / allocation failure */

struct pr_strtab;

struct pr_strtab *pr_strtab_new(void);    /* NULL on out-of-memory */
void pr_strtab_free(struct pr_strtab *t); /* accepts NULL */

/* Intern `len` bytes at `s` (need not be NUL-terminated).  Returns the id, or
 * PR_STR_NONE when memory runs out. */
uint32_t pr_strtab_intern(struct pr_strtab *t, const char *s, size_t len);

/* Look up without inserting; PR_STR_NONE when absent. */
uint32_t pr_strtab_find(const struct pr_strtab *t, const char *s, size_t len);

/* NUL-terminated text of an id; "" for an unknown id. */
const char *pr_strtab_get(const struct pr_strtab *t, uint32_t id);
size_t pr_strtab_len(const struct pr_strtab *t, uint32_t id);
size_t pr_strtab_count(const struct pr_strtab *t);

/* Bytes held by the table (for memory accounting). */
size_t pr_strtab_bytes(const struct pr_strtab *t);

#endif
