/* test_log.c: the server's one log (src/server/net/log.c; issue 35,
 * item 3) without a server: each format writes one whole line per call
 * whatever the values hold (newlines, quotes, backslashes, control
 * characters, bad UTF-8), a JSON line parses back to the values given
 * (numbers as numbers), a logfmt line quotes what must be quoted, a line
 * too long keeps every quote closed, the level filter holds, and
 * libpq-style multi-line messages become one line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "net/log.h"

/* What fn writes to standard error (the log), as text. */
static char *captured(void (*fn)(void))
{
    fflush(stderr);
    char path[] = "/tmp/test_log_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    int saved = dup(2);
    dup2(fd, 2);
    fn();
    dup2(saved, 2);
    close(saved);
    off_t n = lseek(fd, 0, SEEK_END);
    char *out = calloc(1, (size_t)n + 1);
    assert_non_null(out);
    assert_int_equal(pread(fd, out, (size_t)n, 0), n);
    close(fd);
    unlink(path);
    return out;
}

static int lines_of(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static const char *const nasty = "two\nlines \"quoted\" back\\slash\ttab\x01 bell= eq \xff bad";

static void write_nasty(void)
{
    srv_logf(SRV_LOG_WARN, "test.nasty", "who=%s n=%d ms=%.1f s=%s a message with %s inside",
             nasty, -42, 1.5, "12", nasty);
}

static void json_line(void **state)
{
    (void)state;
    srv_log_setup(SRV_LOG_JSON, SRV_LOG_INFO, 0);
    char *out = captured(write_nasty);
    assert_int_equal(lines_of(out), 1);
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "level")), "warn");
    assert_string_equal(json_string_value(json_object_get(j, "event")), "test.nasty");
    /* the bad byte is U+FFFD, everything else as given */
    const char *who = json_string_value(json_object_get(j, "who"));
    assert_non_null(who);
    assert_non_null(strstr(who, "two\nlines \"quoted\" back\\slash\ttab\x01 bell= eq "));
    assert_non_null(strstr(who, "\xEF\xBF\xBD bad"));
    assert_true(json_is_integer(json_object_get(j, "n")));
    assert_int_equal(json_integer_value(json_object_get(j, "n")), -42);
    assert_true(json_is_real(json_object_get(j, "ms")));
    assert_true(json_is_string(json_object_get(j, "s"))); /* %s of "12": text */
    const char *msg = json_string_value(json_object_get(j, "msg"));
    assert_non_null(msg);
    assert_true(!strncmp(msg, "a message with two\nlines", 24));
    const char *t = json_string_value(json_object_get(j, "time"));
    assert_non_null(t);
    assert_int_equal(strlen(t), 24); /* 2026-11-28T04:52:21.091Z */
    assert_int_equal(t[10], 'T');
    assert_int_equal(t[19], '.');
    assert_int_equal(t[23], 'Z');
    json_decref(j);
    free(out);
}

static void logfmt_line(void **state)
{
    (void)state;
    srv_log_setup(SRV_LOG_LOGFMT, SRV_LOG_INFO, 0);
    char *out = captured(write_nasty);
    assert_int_equal(lines_of(out), 1);
    assert_true(!strncmp(out, "time=", 5));
    assert_non_null(strstr(out, " level=warn event=test.nasty msg=\"a message with two\\nlines"));
    assert_non_null(strstr(out, " who=\"two\\nlines \\\"quoted\\\" back\\\\slash\\ttab\\u0001 "
                                "bell= eq \xEF\xBF\xBD bad\""));
    assert_non_null(strstr(out, " n=-42 ms=1.5 s=12"));
    free(out);
}

static void text_line(void **state)
{
    (void)state;
    srv_log_setup(SRV_LOG_TEXT, SRV_LOG_INFO, 0);
    char *out = captured(write_nasty);
    assert_int_equal(lines_of(out), 1);
    assert_int_equal(out[23], 'Z');
    assert_non_null(strstr(out, "Z warn test.nasty: a message with two\\nlines"));
    assert_non_null(strstr(out, " n=-42 ms=1.5 s=12"));
    free(out);
}

static void write_long(void)
{
    char *v = malloc(1001);
    assert_non_null(v);
    memset(v, 1, 1000); /* each byte escaped as \u0001: six bytes */
    v[1000] = 0;
    srv_logf(SRV_LOG_ERROR, "test.long", "a=%s b=%s c=%s d=%s e=%s f=%s g=%s h=%s i=%s "
             "j=%s k=%s l=%s m=%s n=%s o=%s p=%s and %s", v, v, v, v, v, v, v, v, v, v, v, v,
             v, v, v, v, v);
    free(v);
}

static void too_long(void **state)
{
    (void)state;
    srv_log_setup(SRV_LOG_JSON, SRV_LOG_INFO, 0);
    char *out = captured(write_long);
    assert_int_equal(lines_of(out), 1);
    assert_true(strlen(out) <= 8192);
    json_error_t e;
    json_t *j = json_loads(out, 0, &e);
    assert_non_null(j); /* every value cut, every quote closed */
    const char *p = json_string_value(json_object_get(j, "p"));
    assert_non_null(p);
    assert_true(strlen(p) > 10 && !strcmp(p + strlen(p) - 3, "..."));
    json_decref(j);
    free(out);
    srv_log_setup(SRV_LOG_LOGFMT, SRV_LOG_INFO, 0);
    out = captured(write_long);
    assert_int_equal(lines_of(out), 1);
    assert_true(strlen(out) <= 8192);
    assert_non_null(strstr(out, " p=\"\\u0001"));
    assert_non_null(strstr(out, "...\"\n"));
    free(out);
}

static void write_levels(void)
{
    srv_logf(SRV_LOG_INFO, "test.info", "x=%d", 1);
    srv_logf(SRV_LOG_WARN, "test.warn", "x=%d", 2);
    srv_log_access("method=%s path=%s status=%u", "GET", "/", 200u);
}

static void levels(void **state)
{
    (void)state;
    srv_log_setup(SRV_LOG_TEXT, SRV_LOG_WARN, 0); /* --quiet */
    char *out = captured(write_levels);
    assert_null(strstr(out, "test.info"));
    assert_non_null(strstr(out, "test.warn"));
    assert_null(strstr(out, "http.request")); /* no --access-log */
    assert_int_equal(lines_of(out), 1);
    free(out);
    srv_log_setup(SRV_LOG_TEXT, SRV_LOG_WARN, 1); /* --quiet --access-log */
    out = captured(write_levels);
    assert_non_null(strstr(out, "http.request method=GET path=/ status=200"));
    assert_int_equal(lines_of(out), 2);
    free(out);
}

static void one_line(void **state)
{
    (void)state;
    char a[200] = "FATAL:  password authentication failed for user \"x\"\nDETAIL:  none\n";
    srv_log_one_line(a, sizeof a);
    assert_string_equal(a, "FATAL:  password authentication failed for user \"x\"; DETAIL:  none");
    char b[200] = "server closed the connection unexpectedly\n\tThis probably means the server "
                  "terminated abnormally\n\tbefore or while processing the request.\n";
    srv_log_one_line(b, sizeof b);
    assert_string_equal(b, "server closed the connection unexpectedly; This probably means the "
                           "server terminated abnormally before or while processing the "
                           "request.");
    char c[8] = "ab\n\ncd\n";
    srv_log_one_line(c, sizeof c);
    assert_string_equal(c, "ab; cd");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(json_line), cmocka_unit_test(logfmt_line), cmocka_unit_test(text_line),
        cmocka_unit_test(too_long), cmocka_unit_test(levels), cmocka_unit_test(one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
