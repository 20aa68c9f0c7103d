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
/* The longest text a text table keeps whole: longer text is kept as its
 * first bytes and "... [N bytes cut]" (names of real traces stay below
 * 8 KiB: CUTLASS and ATen template names). */
#define PR_TEXT_MAX 65536

struct pr_strtab;

/* A table of byte strings: every distinct byte string is its own entry, so
 * it serves as a set of binary keys too.  NULL on out-of-memory. */
struct pr_strtab *pr_strtab_new(void);
/* A table of text (a trace's names): what is not well-formed UTF-8 is
 * stored, and looked up, with each ill-formed part replaced by U+FFFD, and
 * counted (issue #19).  Never use one for binary keys: keys that differ
 * only in ill-formed bytes would share an entry. */
struct pr_strtab *pr_strtab_new_text(void);
void pr_strtab_free(struct pr_strtab *t); /* accepts NULL */

/* Intern `len` bytes at `s` (need not be NUL-terminated).  Returns the id, or
 * PR_STR_NONE when memory runs out.  A text table repairs ill-formed UTF-8
 * first (see pr_strtab_new_text) and cuts text longer than PR_TEXT_MAX. */
uint32_t pr_strtab_intern(struct pr_strtab *t, const char *s, size_t len);

/* Entries made from text that was not UTF-8 (data quality). */
size_t pr_strtab_repaired(const struct pr_strtab *t);
/* Entries made from text longer than PR_TEXT_MAX (data quality). */
size_t pr_strtab_cut(const struct pr_strtab *t);

/* Look up without inserting (a text table repairs first, as
 * pr_strtab_intern does); PR_STR_NONE when absent. */
uint32_t pr_strtab_find(const struct pr_strtab *t, const char *s, size_t len);

/* NUL-terminated text of an id; "" for an unknown id. */
const char *pr_strtab_get(const struct pr_strtab *t, uint32_t id);
size_t pr_strtab_len(const struct pr_strtab *t, uint32_t id);
size_t pr_strtab_count(const struct pr_strtab *t);

/* Bytes held by the table (for memory accounting). */
size_t pr_strtab_bytes(const struct pr_strtab *t);

#endif
