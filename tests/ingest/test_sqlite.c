/* test_sqlite.c - the SQLite helper the database formats share: table and
 * column probes and the string-id table on an in-memory database shaped
 * like msprof's and nsys's, and opening files read-only (a database, a
 * file that is none, one past the size cap, one that is missing); files
 * that would run their own SQL (generated columns, virtual tables, views),
 * and write-ahead logs read without SQLite's side files (issue #35). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "../../src/ingest/internal.h"

static sqlite3 *
mem_db(const char *sql)
{
    sqlite3 *db = NULL;
    char *msg = NULL;

    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("schema: %s", msg);
    return db;
}

static void
test_probes(void **state)
{
    sqlite3 *db = mem_db(
        "CREATE TABLE COMPUTE_TASK_INFO(name INTEGER, globalTaskId INTEGER,"
        " blockDim INTEGER, inputShapes INTEGER);"
        "CREATE TABLE \"odd \"\"name`\"(x);");

    (void)state;
    assert_int_equal(pr_sqlite_has_table(db, "COMPUTE_TASK_INFO"), 1);
    assert_int_equal(pr_sqlite_has_table(db, "TASK"), 0);
    assert_int_equal(pr_sqlite_has_table(db, "odd \"name`"), 1);
    assert_int_equal(pr_sqlite_has_column(db, "COMPUTE_TASK_INFO", "blockDim"),
                     1);
    /* the 2026 schema's column, absent from the 2025 sample */
    assert_int_equal(
        pr_sqlite_has_column(db, "COMPUTE_TASK_INFO", "hf32Eligible"), 0);
    assert_int_equal(pr_sqlite_has_column(db, "TASK", "startNs"), 0);
    sqlite3_close(db);
}

static void
test_strings(void **state)
{
    sqlite3 *db = mem_db("CREATE TABLE STRING_IDS(id INTEGER, value TEXT);"
                         "INSERT INTO STRING_IDS VALUES (7, 'MatMulV2'),"
                         " (-3, 'neg'), (1099511627776, 'big'), (2, NULL),"
                         " (7, 'second'), (5, 'a\"b`');"
                         "CREATE TABLE StringIds(id INTEGER, value TEXT);"
                         "CREATE TABLE \"s`t\"(\"i`d\" INTEGER, v TEXT);"
                         "INSERT INTO \"s`t\" VALUES (1, 'one');");
    struct pr_sqlite_strings s;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    assert_int_equal(
        pr_sqlite_load_strings(db, "STRING_IDS", "id", "value", &s, &err),
        PR_OK);
    assert_int_equal(s.n, 6);
    assert_string_equal(pr_sqlite_string(&s, 7), "MatMulV2"); /* first row */
    assert_string_equal(pr_sqlite_string(&s, -3), "neg");
    assert_string_equal(pr_sqlite_string(&s, 1099511627776LL), "big");
    assert_string_equal(pr_sqlite_string(&s, 2), "");
    assert_string_equal(pr_sqlite_string(&s, 5), "a\"b`");
    assert_null(pr_sqlite_string(&s, 8));
    pr_sqlite_strings_free(&s);
    /* an empty table, and a missing one */
    assert_int_equal(
        pr_sqlite_load_strings(db, "StringIds", "id", "value", &s, &err),
        PR_OK);
    assert_int_equal(s.n, 0);
    assert_null(pr_sqlite_string(&s, 1));
    pr_sqlite_strings_free(&s);
    /* names are quoted as identifiers, whatever they hold */
    assert_int_equal(pr_sqlite_load_strings(db, "s`t", "i`d", "v", &s, &err),
                     PR_OK);
    assert_string_equal(pr_sqlite_string(&s, 1), "one");
    pr_sqlite_strings_free(&s);
    assert_int_equal(
        pr_sqlite_load_strings(db, "NOPE", "id", "value", &s, &err),
        PR_E_FORMAT);
    assert_non_null(
        strstr(err.msg, "string table NOPE: it has no table NOPE: "));
    pr_error_clear(&err);
    assert_int_equal(
        pr_sqlite_load_strings(db, "STRING_IDS", "id", "text", &s, &err),
        PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "no such column"));
    sqlite3_close(db);
}

static void
test_open_files(void **state)
{
    char dir[] = "/tmp/pr_sqlite_XXXXXX", path[256];
    sqlite3 *db = NULL, *ro = NULL;
    struct pr_error err;
    FILE *f;

    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof(path), "%s/a.db", dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "CREATE TABLE TASK(startNs INTEGER)",
                                  NULL, NULL, NULL),
                     SQLITE_OK);
    sqlite3_close(db);
    pr_error_clear(&err);
    assert_int_equal(pr_sqlite_open(path, UINT64_MAX, &ro, &err), PR_OK);
    assert_int_equal(pr_sqlite_has_column(ro, "TASK", "startNs"), 1);
    /* read-only: the file cannot be changed through the helper's handle */
    assert_int_not_equal(
        sqlite3_exec(ro, "INSERT INTO TASK VALUES (1)", NULL, NULL, NULL),
        SQLITE_OK);
    pr_sqlite_close(ro);
    assert_int_equal(pr_sqlite_open(path, 100, &ro, &err), PR_E_LIMIT);
    assert_null(ro);
    assert_non_null(strstr(err.msg, "larger than the limit of 100 bytes"));
    snprintf(path, sizeof(path), "%s/b.db", dir);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs("Step Id,Name\n1,a\n", f);
    fclose(f);
    pr_error_clear(&err);
    assert_int_equal(pr_sqlite_open(path, UINT64_MAX, &ro, &err), PR_E_FORMAT);
    assert_null(ro);
    assert_non_null(strstr(err.msg, "not a readable SQLite database"));
    unlink(path);
    snprintf(path, sizeof(path), "%s/a.db", dir);
    unlink(path);
    rmdir(dir);
    pr_error_clear(&err);
    assert_int_equal(pr_sqlite_open(path, UINT64_MAX, &ro, &err), PR_E_IO);
    pr_sqlite_close(NULL);
}

/* A database at dir/name made by `sql`; with `wal`, in WAL mode and
 * closed without a checkpoint, so that the rows of `wal_sql` are only in
 * its "-wal" (and its "-shm" removed, as a copied run folder has it). */
static void
make_db(const char *dir, const char *name, const char *sql, const char *wal_sql,
        char *path, size_t cap)
{
    sqlite3 *db = NULL;
    char *msg = NULL, shm[300];

    snprintf(path, cap, "%s/%s", dir, name);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
        fail_msg("schema: %s", msg);
    if (wal_sql != NULL) {
        assert_int_equal(sqlite3_exec(db,
                                      "PRAGMA journal_mode = WAL;"
                                      "PRAGMA wal_autocheckpoint = 0",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
        assert_int_equal(
            sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL),
            SQLITE_OK);
        if (sqlite3_exec(db, wal_sql, NULL, NULL, &msg) != SQLITE_OK)
            fail_msg("rows: %s", msg);
    }
    sqlite3_close(db);
    snprintf(shm, sizeof(shm), "%s-shm", path);
    unlink(shm);
}

/* SELECT count(*) FROM t through the helper's connection; -1 on error. */
static long
count_rows(const char *path, uint64_t max, struct pr_error *err)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    long n = -1;

    pr_error_clear(err);
    if (pr_sqlite_open(path, max, &db, err) != PR_OK ||
        pr_sqlite_allow_rows(db, err) != PR_OK)
        return -1;
    if (sqlite3_prepare_v2(db, "SELECT count(*), sum(x) FROM t", -1, &q,
                           NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        n = (long)sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    pr_sqlite_close(db);
    return n;
}

static int
exists_file(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0;
}

static void
test_wal(void **state)
{
    char dir[] = "/tmp/pr_wal_XXXXXX", path[256], side[300], link[256];
    struct pr_error err;
    struct stat db_st, wal_st;

    (void)state;
    assert_non_null(mkdtemp(dir));
    make_db(dir, "w.db",
            "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1), (2);",
            "INSERT INTO t SELECT x + 2 FROM t; INSERT INTO t SELECT x + 4 "
            "FROM t; DELETE FROM t WHERE x = 1;",
            path, sizeof(path));
    snprintf(side, sizeof(side), "%s-wal", path);
    assert_int_equal(stat(side, &wal_st), 0);
    assert_true(wal_st.st_size > 0);
    assert_int_equal(stat(path, &db_st), 0);
    /* the committed rows of the log count; nothing is made beside it */
    assert_int_equal(count_rows(path, UINT64_MAX, &err), 7);
    snprintf(side, sizeof(side), "%s-shm", path);
    assert_false(exists_file(side));
    /* through a symlink elsewhere: the log beside the real file counts */
    snprintf(link, sizeof(link), "%s/sub", dir);
    assert_int_equal(mkdir(link, 0755), 0);
    snprintf(link, sizeof(link), "%s/sub/l.db", dir);
    assert_int_equal(symlink(path, link), 0);
    assert_int_equal(count_rows(link, UINT64_MAX, &err), 7);
    snprintf(side, sizeof(side), "%s-shm", link);
    assert_false(exists_file(side));
    snprintf(side, sizeof(side), "%s-wal", link);
    assert_false(exists_file(side));
    /* --max-input counts the log */
    assert_int_equal(count_rows(link, (uint64_t)db_st.st_size + 1, &err), -1);
    assert_int_equal(err.code, PR_E_LIMIT);
    assert_non_null(strstr(err.msg, "with its write-ahead log"));
    assert_int_equal(
        count_rows(link, (uint64_t)(db_st.st_size + wal_st.st_size), &err), 7);
    /* a torn last frame: the commits before it stand, as SQLite reads it */
    snprintf(side, sizeof(side), "%s-wal", path);
    assert_int_equal(truncate(side, wal_st.st_size - 100), 0);
    assert_int_equal(count_rows(path, UINT64_MAX, &err), 8);
    /* a log that is not a regular file is refused, not read */
    unlink(side);
    assert_int_equal(mkfifo(side, 0644), 0);
    assert_int_equal(count_rows(path, UINT64_MAX, &err), -1);
    assert_int_equal(err.code, PR_E_IO);
    assert_non_null(strstr(err.msg, "not a regular file"));
    unlink(side);
    assert_int_equal(count_rows(path, UINT64_MAX, &err), 2);
    unlink(link);
    snprintf(link, sizeof(link), "%s/sub", dir);
    rmdir(link);
    unlink(path);
    rmdir(dir);
}

/* The schema's own SQL never runs: tables it computes are refused, views
 * are not read, and until allowed only the catalogue is. */
static void
test_computed(void **state)
{
    static const struct {
        const char *sql, *says;
    } cases[] = {
        {"CREATE TABLE t(x INTEGER, y TEXT GENERATED ALWAYS AS "
         "(printf('%.*c', 100000000, 'x')) VIRTUAL);",
         "column t.y is a generated column"},
        {"CREATE TABLE a(i); CREATE TABLE t(x INTEGER, y AS (x * 2) "
         "STORED);",
         "column t.y is a generated column"},
        {"CREATE TABLE t(x INTEGER); CREATE VIRTUAL TABLE r USING "
         "rtree(id, a, b);",
         "table r is a virtual table"},
    };
    char dir[] = "/tmp/pr_gen_XXXXXX", path[256];
    struct pr_error err;
    sqlite3 *db = NULL;
    size_t i;

    (void)state;
    assert_non_null(mkdtemp(dir));
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        make_db(dir, "g.db", cases[i].sql, NULL, path, sizeof(path));
        pr_error_clear(&err);
        assert_int_equal(pr_sqlite_open(path, UINT64_MAX, &db, &err), PR_OK);
        /* probes see the tables; the rows stay closed */
        assert_int_equal(pr_sqlite_has_column(db, "t", "x"), 1);
        assert_int_not_equal(
            sqlite3_exec(db, "SELECT x FROM t", NULL, NULL, NULL), SQLITE_OK);
        assert_int_equal(pr_sqlite_allow_rows(db, &err), PR_E_FORMAT);
        assert_non_null(strstr(err.msg, cases[i].says));
        pr_sqlite_close(db);
        unlink(path);
    }
    /* a view by the name of a table is not one, and is never evaluated */
    make_db(dir, "v.db",
            "CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (3);"
            "CREATE VIEW v AS SELECT zeroblob(1000000000) AS x FROM t;"
            "CREATE TRIGGER g AFTER INSERT ON t BEGIN DELETE FROM t; END;",
            NULL, path, sizeof(path));
    pr_error_clear(&err);
    assert_int_equal(pr_sqlite_open(path, UINT64_MAX, &db, &err), PR_OK);
    assert_int_equal(pr_sqlite_allow_rows(db, &err), PR_OK);
    assert_int_equal(pr_sqlite_has_table(db, "v"), 0);
    assert_int_equal(sqlite3_exec(db, "SELECT x FROM t", NULL, NULL, NULL),
                     SQLITE_OK);
    assert_int_not_equal(
        sqlite3_exec(db, "SELECT length(x) FROM v", NULL, NULL, NULL),
        SQLITE_OK);
    /* what SQLite builds is bounded, whatever a query asks for */
    assert_int_not_equal(sqlite3_exec(db, "SELECT length(zeroblob(300000000))",
                                      NULL, NULL, NULL),
                         SQLITE_OK);
    assert_true(sqlite3_hard_heap_limit64(-1) > 0);
    assert_true(sqlite3_hard_heap_limit64(-1) <= (sqlite3_int64)1 << 30);
    pr_sqlite_close(db);
    unlink(path);
    rmdir(dir);
}

/* SQLite's errors in the user's words (issue #35): "ambiguous column
 * name" said as what is wrong with the file, SQLite's text kept after. */
static void
test_why(void **state)
{
    sqlite3 *db = mem_db("CREATE TABLE a(start, x); CREATE TABLE b(start);");
    sqlite3_stmt *q = NULL;
    char why[512];

    (void)state;
    assert_int_not_equal(
        sqlite3_prepare_v2(db, "SELECT start FROM a, b", -1, &q, NULL),
        SQLITE_OK);
    assert_string_equal(pr_sqlite_why(db, why, sizeof(why)),
                        "column start is in more than one of the tables "
                        "read together: the database is not as its producer "
                        "writes it (edited, or made by hand) (SQLite: "
                        "ambiguous column name: start)");
    assert_int_not_equal(
        sqlite3_prepare_v2(db, "SELECT y FROM a", -1, &q, NULL), SQLITE_OK);
    assert_non_null(strstr(pr_sqlite_why(db, why, sizeof(why)),
                           "it has no column y: a producer version"));
    assert_int_not_equal(
        sqlite3_prepare_v2(db, "SELECT x FROM TASK", -1, &q, NULL), SQLITE_OK);
    assert_non_null(
        strstr(pr_sqlite_why(db, why, sizeof(why)), "it has no table TASK:"));
    sqlite3_close(db);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probes),     cmocka_unit_test(test_strings),
        cmocka_unit_test(test_open_files), cmocka_unit_test(test_wal),
        cmocka_unit_test(test_computed),   cmocka_unit_test(test_why),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
