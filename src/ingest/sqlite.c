/* sqlite.c - what the formats stored as SQLite share (the torch_npu and
 * msprof databases, Nsight Systems exports; spec/other-producers.md §2.5,
 * §5.1): open a database read-only and defensively, ask which tables and
 * columns a given producer version has (schemas move between versions:
 * probe, never assume), and load a string-id table, since both families
 * store every name as an id into one (STRING_IDS / StringIds).  The
 * queries a format runs on its own tables are the format's. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "internal.h"
#include "profreport/buf.h"

/* The longest text or blob SQLite may hand out, and the longest query. */
#define VALUE_LIMIT (64 << 20)
#define SQL_LIMIT (1 << 20)

/* The tables the schema probes read: SQLite's catalogue, and the pragma
 * functions over it ("pragma_table_info"). */
static int
is_catalogue(const char *table)
{
    return table != NULL && (strcmp(table, "sqlite_master") == 0 ||
                             strcmp(table, "sqlite_schema") == 0 ||
                             strcmp(table, "sqlite_temp_master") == 0 ||
                             strncmp(table, "pragma_", 7) == 0);
}

/* Whatever the query, nothing is read on behalf of a view or a trigger
 * (`inner` names one: the file's own SQL), and nothing is attached. */
static int
rows_auth(void *arg, int code, const char *a, const char *b, const char *db,
          const char *inner)
{
    (void)arg;
    (void)a;
    (void)b;
    (void)db;
    if (inner != NULL || code == SQLITE_ATTACH)
        return SQLITE_DENY;
    return SQLITE_OK;
}

/* Until pr_sqlite_allow_rows has checked the schema, only the catalogue
 * is read: a format's probe cannot reach a computed column by mistake. */
static int
probe_auth(void *arg, int code, const char *a, const char *b, const char *db,
           const char *inner)
{
    if (code == SQLITE_READ && !is_catalogue(a))
        return SQLITE_DENY;
    return rows_auth(arg, code, a, b, db, inner);
}

/* A database file is untrusted input: no functions with side effects
 * called from its schema, no triggers, no views, no writes (defensive
 * mode, query_only), "name" is always a name, never a string, and the
 * texts SQLite builds are bounded. */
static enum pr_status
harden(sqlite3 *db, struct pr_error *err)
{
    int on = 0;

    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &on) !=
            SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &on) !=
            SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, &on) !=
            SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, &on) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, &on) != SQLITE_OK ||
        sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL) !=
            SQLITE_OK)
        return pr_error_set(err, PR_E_NOMEM, "cannot configure SQLite");
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, VALUE_LIMIT);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, SQL_LIMIT);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    if (sqlite3_set_authorizer(db, probe_auth, NULL) != SQLITE_OK)
        return pr_error_set(err, PR_E_NOMEM, "cannot configure SQLite");
    return PR_OK;
}

/* "file:PATH?immutable=1" ("file://" before an absolute PATH) with PATH
 * percent-encoded where a URI needs it (RFC 3986 unreserved characters and '/'
 * pass as they are); sqlite3_free it. */
static char *
uri_of(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i, n = strlen(path), j = 0;
    char *out = sqlite3_malloc64((sqlite3_uint64)n * 3 + 32);

    if (out == NULL)
        return NULL;
    /* an absolute path gets an empty authority ("file:///x"), so that
     * "//x" is never read as a host name */
    j = path[0] == '/' ? 7 : 5;
    memcpy(out, "file://", j);
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || c == '/' || c == '-' || c == '_' ||
            c == '.' || c == '~') {
            out[j++] = (char)c;
        } else {
            out[j++] = '%';
            out[j++] = hex[c >> 4];
            out[j++] = hex[c & 15];
        }
    }
    memcpy(out + j, "?immutable=1", 13);
    return out;
}

/* The file `path` leads to, and its size with the write-ahead log SQLite
 * keeps beside it (beside the file a symlink leads to, where SQLite looks
 * for it): the log's pages are part of the database.  *real is owned by
 * the caller. */
static enum pr_status
locate(const char *path, uint64_t max, char **real, struct pr_error *err)
{
    struct stat sb, wb;
    char *wal;
    uint64_t total;

    *real = NULL;
    if (stat(path, &sb) != 0)
        return pr_error_set(err, PR_E_IO, "cannot open: %s", strerror(errno));
    if (!S_ISREG(sb.st_mode))
        return pr_error_set(err, PR_E_IO, "cannot open: not a regular file");
    *real = realpath(path, NULL);
    if (*real == NULL)
        return pr_error_set(err, errno == ENOMEM ? PR_E_NOMEM : PR_E_IO,
                            "cannot open: %s", strerror(errno));
    total = (uint64_t)sb.st_size;
    wal = sqlite3_mprintf("%s-wal", *real);
    if (wal == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (stat(wal, &wb) == 0 && !S_ISREG(wb.st_mode)) {
        sqlite3_free(wal);
        return pr_error_set(err, PR_E_IO,
                            "its write-ahead log (-wal) is not a regular "
                            "file");
    }
    if (stat(wal, &wb) == 0)
        total += (uint64_t)wb.st_size;
    sqlite3_free(wal);
    if (total > max)
        return pr_error_set(err, PR_E_LIMIT,
                            "database larger than the limit of %llu bytes "
                            "(%llu with its write-ahead log)",
                            (unsigned long long)max, (unsigned long long)total);
    return PR_OK;
}

enum pr_status
pr_sqlite_open(const char *path, uint64_t max, sqlite3 **out,
               struct pr_error *err)
{
    const char *vfs = pr_sqlite_vfs();
    sqlite3 *db = NULL;
    char *real = NULL, *uri = NULL;
    enum pr_status st;
    int rc;

    *out = NULL;
    if (vfs == NULL)
        return pr_error_set(err, PR_E_NOMEM, "cannot configure SQLite");
    st = locate(path, max, &real, err);
    if (st == PR_OK && (uri = uri_of(real)) == NULL)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    free(real);
    if (st != PR_OK)
        return st;
    rc = sqlite3_open_v2(uri, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, vfs);
    sqlite3_free(uri);
    if (rc != SQLITE_OK) {
        st = pr_error_set(err, rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_IO,
                          "cannot open: %s",
                          db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return st;
    }
    st = harden(db, err);
    if (st == PR_OK)
        st = pr_sqlite_check(db, err);
    if (st != PR_OK) {
        sqlite3_close(db);
        return st;
    }
    *out = db;
    return PR_OK;
}

enum pr_status
pr_sqlite_check(sqlite3 *db, struct pr_error *err)
{
    char *msg = NULL;
    int rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL,
                          &msg);

    if (rc == SQLITE_OK)
        return PR_OK;
    pr_error_set(err, rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_FORMAT,
                 "not a readable SQLite database (%s)",
                 msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_FORMAT;
}

/* The first row of `sql` as "a" or "a.b" (two text columns) into out;
 * 1 when there is one, 0 when not, -1 on a database error. */
static int
first_row(sqlite3 *db, const char *sql, char *out, size_t cap)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);

    if (rc == SQLITE_OK)
        rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        const unsigned char *a = sqlite3_column_text(q, 0);
        const unsigned char *b =
            sqlite3_column_count(q) > 1 ? sqlite3_column_text(q, 1) : NULL;

        snprintf(out, cap, "%.100s%s%.100s", a ? (const char *)a : "",
                 b ? "." : "", b ? (const char *)b : "");
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

enum pr_status
pr_sqlite_allow_rows(sqlite3 *db, struct pr_error *err)
{
    char what[256];
    int r;

    /* a virtual table runs a module's code on every read; its columns are
     * not asked for (that would connect it) */
    r = first_row(db,
                  "SELECT name FROM pragma_table_list WHERE schema = 'main' "
                  "AND type = 'virtual' ORDER BY name",
                  what, sizeof(what));
    if (r == 1)
        return pr_error_set(err, PR_E_FORMAT,
                            "table %s is a virtual table, which runs code "
                            "to make its rows: refused (profreport reads "
                            "only stored rows)",
                            what);
    /* hidden 2 and 3: GENERATED ALWAYS AS (...) VIRTUAL or STORED */
    if (r == 0)
        r = first_row(db,
                      "SELECT t.name, x.name FROM pragma_table_list t, "
                      "pragma_table_xinfo(t.name) x WHERE t.schema = 'main' "
                      "AND t.type = 'table' AND x.hidden IN (2, 3) ORDER BY "
                      "t.name, x.cid",
                      what, sizeof(what));
    if (r == 1)
        return pr_error_set(err, PR_E_FORMAT,
                            "column %s is a generated column, computed by "
                            "the file's own SQL: refused (profreport reads "
                            "only stored columns)",
                            what);
    if (r < 0)
        return pr_error_set(err, PR_E_FORMAT, "cannot read the schema (%s)",
                            sqlite3_errmsg(db));
    if (sqlite3_set_authorizer(db, rows_auth, NULL) != SQLITE_OK)
        return pr_error_set(err, PR_E_NOMEM, "cannot configure SQLite");
    return PR_OK;
}

const char *
pr_sqlite_why(struct sqlite3 *db, char *buf, size_t cap)
{
    static const struct {
        const char *starts, *pre, *post;
    } words[] = {
        {"ambiguous column name: ", "column ",
         " is in more than one of the tables read together: the database "
         "is not as its producer writes it (edited, or made by hand)"},
        {"no such column: ", "it has no column ",
         ": a producer version profreport does not read, or an edited file"},
        {"no such table: ", "it has no table ",
         ": a producer version profreport does not read, or an edited file"},
    };
    const char *msg = db != NULL ? sqlite3_errmsg(db) : "no database";
    size_t i;

    for (i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
        size_t k = strlen(words[i].starts);

        if (strncmp(msg, words[i].starts, k) != 0)
            continue;
        snprintf(buf, cap, "%s%.100s%s (SQLite: %s)", words[i].pre, msg + k,
                 words[i].post, msg);
        return buf;
    }
    if (strcmp(msg, "database disk image is malformed") == 0 ||
        strcmp(msg, "file is not a database") == 0)
        snprintf(buf, cap, "the file is damaged (SQLite: %s)", msg);
    else
        snprintf(buf, cap, "SQLite: %s", msg);
    return buf;
}

void
pr_sqlite_close(sqlite3 *db)
{
    sqlite3_close(db);
}

/* 1 when the one-row query `sql` with text parameters a (and b) finds a
 * row, 0 when not, -1 on a database error. */
static int
exists(sqlite3 *db, const char *sql, const char *a, const char *b)
{
    sqlite3_stmt *q = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &q, NULL);

    if (rc == SQLITE_OK)
        rc = sqlite3_bind_text(q, 1, a, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK && b != NULL)
        rc = sqlite3_bind_text(q, 2, b, -1, SQLITE_STATIC);
    if (rc == SQLITE_OK)
        rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
}

int
pr_sqlite_has_table(sqlite3 *db, const char *table)
{
    return exists(db,
                  "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
                  "name = ?1",
                  table, NULL);
}

int
pr_sqlite_has_column(sqlite3 *db, const char *table, const char *column)
{
    return exists(db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2",
                  table, column);
}

/* `name` as an SQL identifier: in grave accents, which SQLite never reads
 * as a string (a double-quoted name that matches no column silently
 * becomes a string literal), the accent doubled inside. */
static enum pr_status
add_ident(struct pr_buf *b, const char *name)
{
    enum pr_status st = pr_buf_addc(b, '`');

    for (; st == PR_OK && *name; name++) {
        if (*name == '`')
            st = pr_buf_addc(b, '`');
        if (st == PR_OK)
            st = pr_buf_addc(b, *name);
    }
    return st == PR_OK ? pr_buf_addc(b, '`') : st;
}

static enum pr_status
strings_sql(struct pr_buf *sql, const char *table, const char *id_col,
            const char *value_col)
{
    enum pr_status st = pr_buf_adds(sql, "SELECT ");

    if (st == PR_OK)
        st = add_ident(sql, id_col);
    if (st == PR_OK)
        st = pr_buf_adds(sql, ", ");
    if (st == PR_OK)
        st = add_ident(sql, value_col);
    if (st == PR_OK)
        st = pr_buf_adds(sql, " FROM ");
    if (st == PR_OK)
        st = add_ident(sql, table);
    return st == PR_OK ? pr_buf_addc(sql, '\0') : st;
}

static int
cmp_ent(const void *a, const void *b)
{
    const struct pr_sqlite_str *x = a, *y = b;

    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return x->off < y->off ? -1 : (x->off > y->off); /* first row wins */
}

/* One row of the string table into `s`; an id that is no integer is bad
 * input (at). */
static enum pr_status
add_row(struct pr_sqlite_strings *s, sqlite3_stmt *q, struct pr_sqlite_at *at)
{
    const unsigned char *v = sqlite3_column_text(q, 1);
    size_t n = (size_t)sqlite3_column_bytes(q, 1);
    struct pr_sqlite_str *e;

    if (pr_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*e)) != PR_OK)
        return PR_E_NOMEM;
    e = &s->v[s->n];
    e->id = pr_sqlite_int(at, q, 0, -1);
    if (at->st != PR_OK)
        return at->st;
    e->off = s->text.len;
    if ((v != NULL && pr_buf_add(&s->text, v, n) != PR_OK) ||
        pr_buf_addc(&s->text, '\0') != PR_OK)
        return PR_E_LIMIT;
    s->n++;
    return PR_OK;
}

static enum pr_status
read_rows(struct pr_sqlite_strings *s, sqlite3 *db, sqlite3_stmt *q,
          const char *table, struct pr_error *err)
{
    struct pr_sqlite_at at = {table, 0, PR_OK, err};
    enum pr_status st = PR_OK;
    int rc;

    while (st == PR_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        at.row++;
        st = add_row(s, q, &at);
    }
    if (at.st != PR_OK)
        return at.st;
    if (st == PR_E_LIMIT)
        return pr_error_set(err, st, "string table larger than %zu MiB",
                            PR_SQLITE_MAX_STRINGS >> 20);
    if (st != PR_OK)
        return pr_error_set(err, st, "out of memory");
    if (rc != SQLITE_DONE)
        return pr_error_set(err, rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_FORMAT,
                            "reading the string table: %s", sqlite3_errmsg(db));
    return PR_OK;
}

enum pr_status
pr_sqlite_load_strings(sqlite3 *db, const char *table, const char *id_col,
                       const char *value_col, struct pr_sqlite_strings *out,
                       struct pr_error *err)
{
    struct pr_buf sql;
    sqlite3_stmt *q = NULL;
    enum pr_status st;

    memset(out, 0, sizeof(*out));
    pr_buf_init(&out->text, PR_SQLITE_MAX_STRINGS);
    pr_buf_init(&sql, 0);
    st = strings_sql(&sql, table, id_col, value_col);
    if (st != PR_OK)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    else if (sqlite3_prepare_v2(db, sql.data, -1, &q, NULL) != SQLITE_OK) {
        char why[512];

        st = pr_error_set(err, PR_E_FORMAT, "string table %s: %s", table,
                          pr_sqlite_why(db, why, sizeof(why)));
    } else
        st = read_rows(out, db, q, table, err);
    sqlite3_finalize(q);
    pr_buf_free(&sql);
    if (st != PR_OK) {
        pr_sqlite_strings_free(out);
        return st;
    }
    if (out->n > 0)
        qsort(out->v, out->n, sizeof(*out->v), cmp_ent);
    return PR_OK;
}

const char *
pr_sqlite_string(const struct pr_sqlite_strings *s, int64_t id)
{
    size_t lo = 0, hi = s->n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (s->v[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n && s->v[lo].id == id ? s->text.data + s->v[lo].off : NULL;
}

void
pr_sqlite_strings_free(struct pr_sqlite_strings *s)
{
    if (s == NULL)
        return;
    free(s->v);
    pr_buf_free(&s->text);
    memset(s, 0, sizeof(*s));
}

void
pr_sqlite_bad(struct pr_sqlite_at *at, sqlite3_stmt *q, int i, const char *why)
{
    const char *col = sqlite3_column_name(q, i);

    if (at->st != PR_OK)
        return;
    at->st = pr_error_set(at->err, PR_E_FORMAT, "%s row %llu: %s %s",
                          at->what ? at->what : "query",
                          (unsigned long long)at->row, col ? col : "?", why);
}

int64_t
pr_sqlite_int(struct pr_sqlite_at *at, sqlite3_stmt *q, int i, int64_t dflt)
{
    double d;

    switch (sqlite3_column_type(q, i)) {
    case SQLITE_NULL:
        return dflt;
    case SQLITE_INTEGER:
        return sqlite3_column_int64(q, i);
    case SQLITE_FLOAT:
        d = sqlite3_column_double(q, i);
        if (d > -9.2e18 && d < 9.2e18 && d == (double)(int64_t)d)
            return (int64_t)d;
        pr_sqlite_bad(at, q, i,
                      "is a fraction or out of range where an "
                      "integer belongs");
        return dflt;
    case SQLITE_TEXT:
        pr_sqlite_bad(at, q, i, "is text where an integer belongs");
        return dflt;
    default:
        pr_sqlite_bad(at, q, i, "is a blob where an integer belongs");
        return dflt;
    }
}

int64_t
pr_sqlite_time(struct pr_sqlite_at *at, sqlite3_stmt *q, int i, int64_t dflt)
{
    int64_t v = pr_sqlite_int(at, q, i, dflt);
    char why[96];

    if (v >= -PR_SQLITE_MAX_ABS_NS && v <= PR_SQLITE_MAX_ABS_NS)
        return v;
    snprintf(why, sizeof(why),
             "is %lld ns, beyond the +-2^62 ns (146 years) a time may be",
             (long long)v);
    pr_sqlite_bad(at, q, i, why);
    return dflt;
}
