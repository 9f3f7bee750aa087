/* test_db.c: the server's storage interface (src/server/store/db.h) on its
 * SQLite back end. Statements are cached per connection (db_sqlite.c): a
 * caller that writes its SQL into a buffer it reuses (snprintf into the
 * stack) must get the statement of the text it gives, not of the text that
 * was at that address before (a challenge's "cancel" once ran its "accept"
 * statement this way). Also: the same text from two addresses shares one
 * statement's results, and a statement used while it is open (nested) gets
 * one of its own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "store/db.h"

static db_conn *open_temp(char *path, size_t n)
{
    snprintf(path, n, "/tmp/chartered-test-db-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char why[300];
    db_conn *c = db_open(path, 0, why, sizeof why);
    assert_non_null(c);
    assert_int_equal(db_script(c, "CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL);"), 0);
    assert_int_equal(db_exec(c, "INSERT INTO t VALUES ('a', 1), ('b', 2)", 0, NULL), 0);
    return c;
}

static void drop(db_conn *c, const char *path)
{
    db_close(c);
    char p[300];
    unlink(path);
    snprintf(p, sizeof p, "%s-wal", path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", path);
    unlink(p);
}

/* One query of SQL written into buf (the same address each time). */
static int64_t one(db_conn *c, char *buf, size_t n, const char *sql)
{
    snprintf(buf, n, "%s", sql);
    int rc = 0;
    int64_t v = db_one_int(c, buf, 0, NULL, -1, &rc);
    assert_int_equal(rc, 0);
    return v;
}

static void test_reused_buffer_gets_its_own_text(void **state)
{
    (void)state;
    char path[64], buf[128];
    db_conn *c = open_temp(path, sizeof path);
    assert_int_equal(one(c, buf, sizeof buf, "SELECT v FROM t WHERE k = 'a'"), 1);
    assert_int_equal(one(c, buf, sizeof buf, "SELECT v FROM t WHERE k = 'b'"), 2);
    assert_int_equal(one(c, buf, sizeof buf, "SELECT v + 10 FROM t WHERE k = 'a'"), 11);
    assert_int_equal(one(c, buf, sizeof buf, "SELECT v FROM t WHERE k = 'a'"), 1);
    /* an update through the reused buffer changes what it says, and only that */
    snprintf(buf, sizeof buf, "UPDATE t SET v = 5 WHERE k = 'b'");
    assert_int_equal(db_exec(c, buf, 0, NULL), 0);
    assert_int_equal(db_changes(c), 1);
    assert_int_equal(one(c, buf, sizeof buf, "SELECT v FROM t WHERE k = 'a'"), 1);
    assert_int_equal(one(c, buf, sizeof buf, "SELECT v FROM t WHERE k = 'b'"), 5);
    drop(c, path);
}

static void test_same_text_two_addresses_and_nested(void **state)
{
    (void)state;
    char path[64];
    db_conn *c = open_temp(path, sizeof path);
    static const char q[] = "SELECT k, v FROM t ORDER BY k";
    char copy[64];
    snprintf(copy, sizeof copy, "%s", q);
    db_rows *outer = db_query(c, q, 0, NULL);
    assert_non_null(outer);
    int rows = 0;
    while (db_next(outer) == 1) {
        /* the same text while it is open: a statement of its own */
        db_rows *inner = db_query(c, copy, 0, NULL);
        assert_non_null(inner);
        int n = 0;
        while (db_next(inner) == 1)
            n++;
        assert_int_equal(db_end(inner), 0);
        assert_int_equal(n, 2);
        rows++;
    }
    assert_int_equal(db_end(outer), 0);
    assert_int_equal(rows, 2);
    drop(c, path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reused_buffer_gets_its_own_text),
        cmocka_unit_test(test_same_text_two_addresses_and_nested),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
