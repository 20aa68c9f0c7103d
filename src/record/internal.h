/* internal.h - shared by src/record/ only: the session's layout (session.c
 * fills it, convert.c reads it), the links correlate.c derives, the JSON
 * text writer (jsonw.c) and the CUPTI translation (cupti_map.c, used by
 * collector.c and its unit test). */
#ifndef PROFREPORT_RECORD_INTERNAL_H
#define PROFREPORT_RECORD_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "profreport/buf.h"
#include "profreport/error.h"
#include "profreport/record.h"
#include "profreport/strtab.h"

struct pr_record_session {
    struct pr_rec *recs; /* owned; names point into strs */
    size_t n, cap, max;
    struct pr_record_device *devs; /* owned */
    size_t n_devs, cap_devs;
    struct pr_strtab *strs; /* owned copies of every name */
    uint64_t dropped;
};

/* A paired NVTX range (start and end records with the same id). */
struct pr_rec_range {
    int64_t start_ns, end_ns;
    uint32_t pid, tid;
    const char *text;     /* session-owned */
    int64_t ext;          /* External id given to it (1, 2, ...) */
    int is_op;            /* an emit_nvtx operator range */
    struct pr_nvtx_op op; /* parsed text when is_op */
};

/* An API record's place in the correlation index. */
struct pr_rec_corr {
    uint32_t corr;
    int rank;   /* runtime before driver for equal ids */
    size_t idx; /* into session->recs */
};

/* What the writer derives from a session before writing: ranges, External
 * ids and the correlation index.  All arrays owned. */
struct pr_rec_links {
    struct pr_rec_range *ranges;
    size_t n_ranges;
    size_t n_unpaired;           /* NVTX starts or ends without a partner */
    int64_t *ext;                /* per record: External id, 0 = none */
    struct pr_rec_corr *by_corr; /* API records sorted by correlation */
    size_t n_api;
};

/* Pair NVTX ranges, give ranges External ids and give each API call the id
 * of the innermost range on its thread that contains it, and each GPU
 * activity the id of the API call with its correlation.  PR_E_NOMEM. */
PR_NODISCARD enum pr_status
pr_correlate_build(const struct pr_record_session *s, struct pr_rec_links *out,
                   struct pr_error *err);
void pr_correlate_free(struct pr_rec_links *l); /* accepts NULL */
/* The API record (runtime or driver call) with correlation `corr`, or NULL. */
const struct pr_rec *pr_correlate_api(const struct pr_record_session *s,
                                      const struct pr_rec_links *l,
                                      uint32_t corr);

/* A small streaming JSON text writer with a sticky error (redis rio),
 * writing to a FILE * or a pr_buf. */
struct pr_jsonw {
    FILE *fp;           /* borrowed; or NULL */
    struct pr_buf *mem; /* borrowed; or NULL */
    enum pr_status st;  /* first failure; later writes do nothing */
    int first;          /* no member written yet in the open object */
};

void pr_jsonw_init(struct pr_jsonw *w, FILE *fp, struct pr_buf *mem);
void pr_jsonw_raw(struct pr_jsonw *w, const char *s);
void pr_jsonw_rawn(struct pr_jsonw *w, const char *s, size_t n);
void pr_jsonw_fmt(struct pr_jsonw *w, const char *fmt, ...) PR_PRINTF(2, 3);
/* A quoted, escaped JSON string. */
void pr_jsonw_str(struct pr_jsonw *w, const char *s);
/* Object members: `"key": value`, with the comma when needed. */
void pr_jsonw_key(struct pr_jsonw *w, const char *key);
void pr_jsonw_kstr(struct pr_jsonw *w, const char *key, const char *v);
void pr_jsonw_kint(struct pr_jsonw *w, const char *key, int64_t v);
void pr_jsonw_kuint(struct pr_jsonw *w, const char *key, uint64_t v);
void pr_jsonw_kdbl(struct pr_jsonw *w, const char *key, double v);
/* Nanoseconds as microseconds with three decimals ("12.345"). */
void pr_jsonw_kus(struct pr_jsonw *w, const char *key, int64_t ns);

/* Translate one CUPTI activity record (a CUpti_Activity *, passed as void *
 * so this header needs no CUDA) into *out.  Returns 1 when the record is one
 * we keep, 0 when its kind is ignored.  Names are borrowed from the CUPTI
 * record.  Defined only when built with CUPTI. */
int pr_cupti_map(const void *activity, struct pr_rec *out);

#endif
