/* test_position_examples.c: the scenarios of tests/positions/ (issue 15
 * part 5): each NAME.pos is a position (docs/formats.md "Positions") whose
 * comment lines also script a scenario, checked in order:
 *   #> P MOVE    player P makes MOVE (it must be legal)
 *   #! P MOVE    player P may not make MOVE now (refused: unreadable or illegal)
 *   #= TEXT      the position printed now (ch_position_write) has a line
 *                that starts with TEXT
 *   #~ TEXT      ... and no line that starts with TEXT
 *   #? P N       player P has exactly N legal moves now
 *   #$ fA fB ... winners P Q   the final scores (ch_scores) and the winners
 * Every file must load, have at least one check, and pass them all; the
 * state is validated after every move. The folder is found from
 * CH_DATA_DIR (DATA/../tests/positions), which CTest sets. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

static int has_line(const char *text, const char *prefix)
{
    size_t n = strlen(prefix);
    for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
        if (!strncmp(l, prefix, n))
            return 1;
    return 0;
}

/* Run one scenario; returns the number of checks made. */
static int run(const char *path)
{
    char *text = t_slurp(path);
    if (!text)
        fail_msg("%s: cannot read", path);
    ch_state st;
    ch_msg m = {{0}};
    if (ch_position_read(&st, text, strlen(text), path, &m) != CH_OK)
        fail_msg("%s", m.text);
    int checks = 0, line = 0;
    for (char *l = text; l && *l;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = '\0';
        line++;
        if (l[0] == '#' && (l[1] == '>' || l[1] == '!' || l[1] == '=' || l[1] == '~' || l[1] == '?' || l[1] == '$') &&
            l[2] == ' ') {
            char kind = l[1];
            const char *arg = l + 3;
            if (kind == '$') {
                int32_t sc[CH_MAX_PLAYERS];
                unsigned win = 0;
                assert_int_equal(ch_scores(&st, sc, &win), CH_OK);
                char got[200] = "";
                size_t k = 0;
                for (int p = 0; p < st.nplayers; p++)
                    k += (size_t)snprintf(got + k, sizeof got - k, "%sf%d", p ? " " : "", sc[p]);
                k += (size_t)snprintf(got + k, sizeof got - k, " winners");
                for (int p = 0; p < st.nplayers; p++)
                    if (win >> p & 1)
                        k += (size_t)snprintf(got + k, sizeof got - k, " %d", p + 1);
                if (strcmp(got, arg))
                    fail_msg("%s:%d: scores '%s', expected '%s'", path, line, got, arg);
            } else if (kind == '>' || kind == '!' || kind == '?') {
                int p = atoi(arg) - 1;
                const char *mv = strchr(arg, ' ');
                if (p < 0 || p >= st.nplayers || !mv)
                    fail_msg("%s:%d: '#%c P ...' needs a seat", path, line, kind);
                mv++;
                if (kind == '?') {
                    int n = ch_legal(&st, p, NULL, 0);
                    if (n != atoi(mv))
                        fail_msg("%s:%d: player %d has %d legal moves, not %s", path, line, p + 1, n, mv);
                } else {
                    ch_move move;
                    int rc = ch_move_parse(&st, p, mv, &move, &m);
                    if (rc == CH_OK)
                        rc = ch_apply(&st, p, move, &m);
                    if (kind == '>' && rc != CH_OK)
                        fail_msg("%s:%d: '%s' by player %d: %s", path, line, mv, p + 1, m.text);
                    if (kind == '!' && rc == CH_OK)
                        fail_msg("%s:%d: '%s' by player %d was accepted", path, line, mv, p + 1);
                    if (ch_validate(&st, &m) != CH_OK)
                        fail_msg("%s:%d: after '%s': %s", path, line, mv, m.text);
                }
            } else {
                char *now = ch_position_write(&st, -1);
                assert_non_null(now);
                int has = has_line(now, arg);
                if (kind == '=' && !has)
                    fail_msg("%s:%d: no line '%s' in\n%s", path, line, arg, now);
                if (kind == '~' && has)
                    fail_msg("%s:%d: a line '%s' in\n%s", path, line, arg, now);
                ch_free(now);
            }
            checks++;
        }
        l = nl ? nl + 1 : NULL;
    }
    free(text);
    return checks;
}

static void every_example(void **s)
{
    (void)s;
    const char *data = getenv("CH_DATA_DIR");
    assert_non_null(data);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../tests/positions", data);
    DIR *d = opendir(dir);
    assert_non_null(d);
    int files = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n < 5 || strcmp(e->d_name + n - 4, ".pos"))
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        int checks = run(path);
        if (checks < 2)
            fail_msg("%s: a scenario needs moves and expected outcomes", path);
        print_message("ok: %s (%d checks)\n", e->d_name, checks);
        files++;
    }
    closedir(d);
    assert_true(files >= 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_example),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
