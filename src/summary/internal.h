/* internal.h - what the files of src/summary share and nothing else
 * includes: schema.def's short words for a row's types and flags, for the
 * files that include schema.def themselves (schema.c, merge.c). */
#ifndef PR_SUMMARY_INTERNAL_H
#define PR_SUMMARY_INTERNAL_H

#include "profreport/schema.h"

#define NUM PR_ST_NUM
#define STR PR_ST_STR
#define NUL PR_ST_NULL
#define BOOL PR_ST_BOOL
#define OBJ PR_ST_OBJ
#define ARR PR_ST_ARR
#define SPEC PR_SF_SPEC
#define REQ PR_SF_REQ
#define NONNEG PR_SF_NONNEG
#define LITE PR_SF_LITE
#define MAP PR_SF_MAP
#define ALWAYS PR_SF_ALWAYS
#define RANK PR_SF_RANK
#define EVERY PR_SF_EVERY
#define WHERE PR_SF_WHERE

#endif
