/* sqlite.c - what the formats stored as SQLite share (the torch_npu and
 * msprof databases, Nsight Systems exports; spec/other-producers.md §2.5,
 * §5.1): open a database read-only and defensively, ask which tables and
 * columns a given producer version has (schemas move between versions:
 * probe, never assume), and load a string-id table, since both families
 * store every name as an id into one (STRING_IDS / StringIds).  The
 * queries a format runs on its own tables are the format's. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <sqlite3.h>

#include "internal.h"
#include "profreport/buf.h"

/* A database file is untrusted input: no functions with side effects
 * called from its schema, no triggers, no writes (defensive mode), and
 * "name" is always a name, never a string. */
static enum pr_status
harden(sqlite3 *db, struct pr_error *err)
{
    int on = 0;

    if (sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &on) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, &on) !=
            SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, &on) !=
            SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, &on) != SQLITE_OK ||
        sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, &on) != SQLITE_OK)
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

/* Open `path` read-only without writing beside it.  A database in WAL mode
 * (torch_npu's and msprof's exports are) makes SQLite create `-wal` and
 * `-shm` files next to it even when opened read-only, whenever it can
 * (as root, always): litter in the user's run folder, which the next
 * discovery then reports.  Opened as immutable, SQLite touches nothing;
 * only when a non-empty `-wal` holds pages not yet in the file is it
 * opened the ordinary way, so no committed row is missed. */
static int
open_untouched(const char *path, sqlite3 **db)
{
    struct stat wb;
    char *wal, *uri;
    int rc;

    wal = sqlite3_mprintf("%s-wal", path);
    if (wal == NULL)
        return SQLITE_NOMEM;
    rc = stat(wal, &wb) == 0 && wb.st_size > 0;
    sqlite3_free(wal);
    if (rc)
        return sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY, NULL);
    uri = uri_of(path);
    if (uri == NULL)
        return SQLITE_NOMEM;
    rc = sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
    sqlite3_free(uri);
    return rc;
}

enum pr_status
pr_sqlite_open(const char *path, uint64_t max, sqlite3 **out,
               struct pr_error *err)
{
    struct stat sb;
    sqlite3 *db = NULL;
    enum pr_status st;
    int rc;

    *out = NULL;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode))
        return pr_error_set(err, PR_E_IO, "cannot open: not a regular file");
    if ((uint64_t)sb.st_size > max)
        return pr_error_set(err, PR_E_LIMIT,
                            "database larger than the limit of %llu bytes",
                            (unsigned long long)max);
    rc = open_untouched(path, &db);
    if (rc != SQLITE_OK) {
        enum pr_status s = pr_error_set(
            err, rc == SQLITE_NOMEM ? PR_E_NOMEM : PR_E_IO, "cannot open: %s",
            db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        sqlite3_close(db);
        return s;
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

/* One row of the string table into `s`. */
static enum pr_status
add_row(struct pr_sqlite_strings *s, sqlite3_stmt *q)
{
    const unsigned char *v = sqlite3_column_text(q, 1);
    size_t n = (size_t)sqlite3_column_bytes(q, 1);
    struct pr_sqlite_str *e;

    if (pr_grow((void **)&s->v, &s->cap, s->n + 1, sizeof(*e)) != PR_OK)
        return PR_E_NOMEM;
    e = &s->v[s->n];
    e->id = sqlite3_column_int64(q, 0);
    e->off = s->text.len;
    if ((v != NULL && pr_buf_add(&s->text, v, n) != PR_OK) ||
        pr_buf_addc(&s->text, '\0') != PR_OK)
        return PR_E_LIMIT;
    s->n++;
    return PR_OK;
}

static enum pr_status
read_rows(struct pr_sqlite_strings *s, sqlite3 *db, sqlite3_stmt *q,
          struct pr_error *err)
{
    enum pr_status st = PR_OK;
    int rc;

    while (st == PR_OK && (rc = sqlite3_step(q)) == SQLITE_ROW)
        st = add_row(s, q);
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
    else if (sqlite3_prepare_v2(db, sql.data, -1, &q, NULL) != SQLITE_OK)
        st = pr_error_set(err, PR_E_FORMAT, "string table %s: %s", table,
                          sqlite3_errmsg(db));
    else
        st = read_rows(out, db, q, err);
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
