/* fuzz_ini.c: libFuzzer harness of the configuration file reader
 * (ini_parse, src/server/ini.c: `chartered serve --config`, `chartered config
 * check`). Input: the file's bytes. Checks, beyond "no crash, no sanitizer
 * report":
 *   - every error names a line of the text (1 to the number of lines) and
 *     says why; the text parses without error exactly when no error is kept;
 *   - every entry's key and section are names as ini.h defines them, its
 *     line is in the text and the lines rise, no two entries share a section
 *     and key, and its value holds no NUL, LF or CR byte;
 *   - round trip: the entries written out again as `[section]` and `key =
 *     "value"` lines (quotes and backslashes escaped) parse without error
 *     to the same sections, keys and values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "ini.h"

static int name_ok(const char *s, int upper_ok, int empty_ok)
{
    size_t n = strlen(s);
    if (n == 0)
        return empty_ok;
    if (n > INI_MAX_NAME)
        return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
              c == '.' || (upper_ok && c >= 'A' && c <= 'Z')))
            return 0;
    }
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ini_file f;
    int rc = ini_parse((const char *)data, size, &f);
    int lines = 0;
    for (size_t i = 0; i < size; i++)
        lines += data[i] == '\n';
    if (size && data[size - 1] != '\n')
        lines++;
    if ((rc == 0) != (f.nerrors == 0 && f.more == 0))
        fz_fail("the result and the errors disagree", NULL);
    for (size_t i = 0; i < f.nerrors; i++) {
        if (f.errors[i].line < 1 || f.errors[i].line > lines)
            fz_fail("an error names a line outside the text", f.errors[i].why);
        if (!f.errors[i].why[0])
            fz_fail("an error says nothing", NULL);
    }
    /* the round trip, written as the reader's syntax */
    size_t cap = 64, n = 0;
    char *out = malloc(cap);
    if (!out)
        abort();
    const char *section = "";
    int toolong = 0;
    for (size_t i = 0; i < f.n; i++) {
        const ini_entry *e = &f.entries[i];
        if (!name_ok(e->key, 0, 0) || !name_ok(e->section, 1, 1))
            fz_fail("an entry has a bad key or section", e->key);
        if (e->line < 1 || e->line > lines || (i && e->line <= f.entries[i - 1].line))
            fz_fail("an entry's line is outside the text or out of order", e->key);
        if (strpbrk(e->value, "\r\n"))
            fz_fail("a value holds a line break", e->value);
        for (size_t j = 0; j < i; j++)
            if (!strcmp(f.entries[j].key, e->key) && !strcmp(f.entries[j].section, e->section))
                fz_fail("a key is kept twice in one section", e->key);
        size_t need = strlen(e->section) + strlen(e->key) + 2 * strlen(e->value) + 16;
        if (need > INI_MAX_LINE)
            toolong = 1; /* escaped, the line may pass the limit: no round trip */
        if (n + need >= cap) {
            while (n + need >= cap)
                cap *= 2;
            char *no = realloc(out, cap);
            if (!no)
                abort();
            out = no;
        }
        if (strcmp(section, e->section)) {
            if (!e->section[0])
                fz_fail("an entry without a section after one with a section", e->key);
            n += (size_t)sprintf(out + n, "[%s]\n", e->section);
            section = e->section;
        }
        n += (size_t)sprintf(out + n, "%s = \"", e->key);
        for (const char *p = e->value; *p; p++) {
            if (*p == '"' || *p == '\\')
                out[n++] = '\\';
            out[n++] = *p;
        }
        out[n++] = '"';
        out[n++] = '\n';
    }
    ini_file g;
    if (toolong) {
        ini_free(&f);
        free(out);
        return 0;
    }
    if (ini_parse(out, n, &g) != 0)
        fz_fail("the entries written out again do not parse", g.nerrors ? g.errors[0].why : "");
    if (g.n != f.n)
        fz_fail("the entries written out again parse to another number of entries", out);
    for (size_t i = 0; i < f.n; i++)
        if (strcmp(f.entries[i].key, g.entries[i].key) ||
            strcmp(f.entries[i].section, g.entries[i].section) ||
            strcmp(f.entries[i].value, g.entries[i].value))
            fz_fail("an entry written out again parses to another one", f.entries[i].key);
    ini_free(&g);
    ini_free(&f);
    free(out);
    return 0;
}
