/* test_sqlite.c - the SQLite helper the database formats share: table and
 * column probes and the string-id table on an in-memory database shaped
 * like msprof's and nsys's, and opening files read-only (a database, a
 * file that is none, one past the size cap, one that is missing). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    assert_non_null(strstr(err.msg, "string table NOPE: no such table"));
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

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_probes),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_open_files),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
