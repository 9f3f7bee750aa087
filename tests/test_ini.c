/* test_ini.c: tests of the configuration file reader (src/server/ini.c, the
 * syntax of docs/configuration.md): what each kind of line gives, the
 * quoted values, and every kind of bad line refused with its line number and
 * a reason, the good lines of the same file kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ini.h"

static int parse(const char *text, ini_file *f)
{
    return ini_parse(text, strlen(text), f);
}

static void test_entries(void **state)
{
    (void)state;
    ini_file f;
    const char *text = "# comment\n"
                       "  ; another comment = not a setting\n"
                       "\n"
                       "port = 8080\n"
                       "host=127.0.0.1   \n"
                       "db = postgresql://u@h/db?x=1#frag ; not a comment\n"
                       "empty =\n"
                       "[cluster]\n"
                       "node = a\r\n"
                       "port = 9\n";
    assert_int_equal(parse(text, &f), 0);
    assert_int_equal(f.n, 6);
    assert_string_equal(f.entries[0].key, "port");
    assert_string_equal(f.entries[0].value, "8080");
    assert_int_equal(f.entries[0].line, 4);
    assert_string_equal(f.entries[1].value, "127.0.0.1");
    /* a '#' or ';' inside a value is the value's */
    assert_string_equal(f.entries[2].value, "postgresql://u@h/db?x=1#frag ; not a comment");
    assert_string_equal(f.entries[3].value, "");
    assert_string_equal(f.entries[4].section, "cluster");
    assert_string_equal(f.entries[4].value, "a");
    assert_int_equal(f.entries[4].line, 9);
    /* the same key in another section is another setting */
    assert_non_null(ini_find(&f, "", "port"));
    assert_string_equal(ini_find(&f, "cluster", "port")->value, "9");
    assert_null(ini_find(&f, "", "node"));
    ini_free(&f);
}

static void test_quoted(void **state)
{
    (void)state;
    ini_file f;
    assert_int_equal(parse("a = \"  two blanks kept  \"\n"
                           "b = \"a \\\"quote\\\" and a \\\\ backslash\"\n"
                           "c = \"\"\n"
                           "d = not \"quoted\" inside\n", &f), 0);
    assert_int_equal(f.n, 4);
    assert_string_equal(f.entries[0].value, "  two blanks kept  ");
    assert_string_equal(f.entries[1].value, "a \"quote\" and a \\ backslash");
    assert_string_equal(f.entries[2].value, "");
    assert_string_equal(f.entries[3].value, "not \"quoted\" inside");
    ini_free(&f);
}

/* every bad line is reported with its number; the good lines are kept */
static void test_errors(void **state)
{
    (void)state;
    ini_file f;
    const char *text = "port = 1\n"                 /* 1: good */
                       "CHARTERED_PORT=8080\n"      /* 2: not a key */
                       "[bad section\n"             /* 3 */
                       "= 5\n"                      /* 4 */
                       "just words\n"               /* 5 */
                       "a = \"open\n"               /* 6 */
                       "b = \"x\" # after\n"        /* 7 */
                       "c = \"\\n\"\n"              /* 8 */
                       "port = 2\n"                 /* 9: twice */
                       "d = \xc3\x28\n"             /* 10: not UTF-8 */
                       "[]\n"                       /* 11 */
                       "host = h\n";                /* 12: good */
    assert_int_equal(parse(text, &f), -1);
    static const struct {
        int line;
        const char *part;
    } want[] = {
        {2, "'CHARTERED_PORT' is not a key"},
        {3, "must end with ']'"},
        {4, "no key before it"},
        {5, "'just words' is not 'key = value'"},
        {6, "no closing quote"},
        {7, "text after the closing quote"},
        {8, "a backslash must come before"},
        {9, "'port' is set twice (first at line 1)"},
        {10, "not UTF-8"},
        {11, "'' is not a section name"},
    };
    assert_int_equal(f.nerrors, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < f.nerrors; i++) {
        assert_int_equal(f.errors[i].line, want[i].line);
        if (!strstr(f.errors[i].why, want[i].part))
            fail_msg("line %d: '%s' does not say '%s'", want[i].line, f.errors[i].why,
                     want[i].part);
    }
    assert_int_equal(f.n, 2);
    assert_string_equal(f.entries[1].key, "host");
    ini_free(&f);
}

static void test_limits(void **state)
{
    (void)state;
    ini_file f;
    /* a NUL byte, a lone carriage return, a line too long */
    const char nul[] = "a = x\0y\nb = 1\n";
    assert_int_equal(ini_parse(nul, sizeof nul - 1, &f), -1);
    assert_int_equal(f.nerrors, 1);
    assert_int_equal(f.errors[0].line, 1);
    assert_non_null(strstr(f.errors[0].why, "NUL"));
    ini_free(&f);
    assert_int_equal(parse("a = x\ry\n", &f), -1);
    assert_non_null(strstr(f.errors[0].why, "carriage return"));
    ini_free(&f);
    size_t n = INI_MAX_LINE + 10;
    char *big = malloc(n + 1);
    assert_non_null(big);
    memset(big, 'x', n);
    memcpy(big, "k = ", 4);
    big[n - 1] = '\n';
    big[n] = 0;
    assert_int_equal(parse(big, &f), -1);
    assert_non_null(strstr(f.errors[0].why, "longer than"));
    ini_free(&f);
    free(big);
    /* a byte order mark, then a key without a final newline */
    assert_int_equal(parse("\xef\xbb\xbfk = v", &f), 0);
    assert_string_equal(f.entries[0].key, "k");
    assert_string_equal(f.entries[0].value, "v");
    ini_free(&f);
    /* more errors than are kept are counted */
    char many[4000] = "";
    for (int i = 0; i < INI_MAX_ERRORS + 7; i++)
        strcat(many, "bad\n");
    assert_int_equal(parse(many, &f), -1);
    assert_int_equal(f.nerrors, INI_MAX_ERRORS);
    assert_int_equal(f.more, 7);
    ini_free(&f);
}

static void test_file(void **state)
{
    (void)state;
    ini_file f;
    assert_int_equal(ini_read_file("/nonexistent/chartered.conf", &f), -1);
    assert_int_equal(f.errors[0].line, 0);
    assert_non_null(strstr(f.errors[0].why, "No such file"));
    ini_free(&f);
    char path[] = "/tmp/test_ini_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *text = "port = 8081\n";
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    assert_int_equal(ini_read_file(path, &f), 0);
    assert_string_equal(ini_find(&f, "", "port")->value, "8081");
    ini_free(&f);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries), cmocka_unit_test(test_quoted),
        cmocka_unit_test(test_errors),  cmocka_unit_test(test_limits),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
