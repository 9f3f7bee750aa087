/* test_board_ga.c: tests of the two sides of The Golden Age's board, built in
 * as the arrangements "harbour" (data/boards/ga-harbour.board, lots 1-60) and
 * "centre" (data/boards/ga-centre.board, lots 1-95): reconstructions of
 * RULINGS.md, "Chartered: The Golden Age", Boards; docs/formats.md, "The
 * Golden Age's two sides". Checked here: the built-in names, plot counts and
 * labels, numbering and drawing positions, a connected graph with at most 4
 * neighbours per lot, the canals and bridges of the layout (which pairs are
 * connected, which are not, the quarters the water makes), plot names both
 * ways (with and without the district name), and that Building Amsterdam's
 * own Harbour district is not disturbed by the Golden Age board of the same
 * name. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartered.h"
#include "play.h"

/* ---- helpers ---------------------------------------------------------------- */
static void load(ch_board *b, const char *name)
{
    ch_msg err;
    int rc = ch_board_builtin(b, CH_ED_GOLDEN_AGE, name, &err);
    if (rc != CH_OK)
        fail_msg("%s: %s", name, err.text);
}

/* The plot labelled with the number n (a bare label: one district). */
static int lot(const ch_board *b, int n)
{
    char t[8];
    snprintf(t, sizeof t, "%d", n);
    return tb_plot(b, t);
}

static int kind(const ch_board *b, int x, int y) { return tb_link_kind(b, lot(b, x), lot(b, y)); }

static int count_edges(const ch_board *b, int bridges_only)
{
    int sum = 0;
    for (int p = 0; p < b->nplots; p++)
        sum += bridges_only ? __builtin_popcount(b->bridge[p]) : b->deg[p];
    return sum / 2;
}

/* Breadth-first distances from plot s (-1: unreachable). With land_only,
 * bridges are left out: what remains are the quarters the water makes. */
static void bfs(const ch_board *b, int s, int land_only, int dist[CH_MAX_PLOTS])
{
    int queue[CH_MAX_PLOTS], head = 0, tail = 0;
    for (int p = 0; p < CH_MAX_PLOTS; p++)
        dist[p] = -1;
    dist[s] = 0;
    queue[tail++] = s;
    while (head < tail) {
        int p = queue[head++];
        for (int i = 0; i < b->deg[p]; i++) {
            int q = b->adj[p][i];
            if (land_only && (b->bridge[p] >> i & 1))
                continue;
            if (dist[q] < 0) {
                dist[q] = dist[p] + 1;
                queue[tail++] = q;
            }
        }
    }
}

static int distance(const ch_board *b, int x, int y)
{
    int dist[CH_MAX_PLOTS];
    bfs(b, lot(b, x), 0, dist);
    return dist[lot(b, y)];
}

/* Sizes of the land-only components (quarters), sorted descending. */
static int quarters(const ch_board *b, int sizes[CH_MAX_PLOTS])
{
    int seen[CH_MAX_PLOTS] = {0}, n = 0;
    for (int s = 0; s < b->nplots; s++) {
        if (seen[s])
            continue;
        int dist[CH_MAX_PLOTS], size = 0;
        bfs(b, s, 1, dist);
        for (int p = 0; p < b->nplots; p++)
            if (dist[p] >= 0)
                seen[p] = 1, size++;
        sizes[n++] = size;
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && sizes[j - 1] < sizes[j]; j--) {
            int t = sizes[j];
            sizes[j] = sizes[j - 1], sizes[j - 1] = t;
        }
    return n;
}

/* Checks that hold on both sides: nlots plots labelled 1..nlots, each once,
 * numbered row by row on a grid 10 wide (plot p is lot p+1 at column
 * p % 10, row p / 10), symmetric sorted adjacency of at most 4 neighbours,
 * every lot reachable from every other. */
static void check_side(const ch_board *b, const char *arrangement, const char *district,
                       int nlots)
{
    assert_string_equal(b->name, arrangement);
    assert_int_equal(b->ndistricts, 1);
    assert_string_equal(b->district[0], district);
    assert_int_equal(b->nplots, nlots);
    int count[CH_MAX_PLOTS + 1] = {0};
    for (int p = 0; p < b->nplots; p++) {
        char want[8];
        snprintf(want, sizeof want, "%d", p + 1);
        assert_string_equal(b->plot_label[p], want);
        int n = atoi(b->plot_label[p]);
        assert_true(n >= 1 && n <= nlots);
        count[n]++;
        assert_int_equal(b->plot_district[p], 0);
        assert_int_equal(b->gx[p], p % 10);
        assert_int_equal(b->gy[p], p / 10);
        assert_true(b->deg[p] >= 1 && b->deg[p] <= 4);
        for (int i = 0; i < b->deg[p]; i++) {
            int q = b->adj[p][i];
            assert_true(q < b->nplots);
            if (i > 0)
                assert_true(b->adj[p][i - 1] < q);
            assert_int_not_equal(tb_link_kind(b, p, q), 0);
            /* orthogonal grid neighbours only */
            int dx = b->gx[p] - b->gx[q], dy = b->gy[p] - b->gy[q];
            assert_int_equal(dx * dx + dy * dy, 1);
        }
        assert_int_equal(b->bridge[p] >> b->deg[p], 0);
    }
    for (int n = 1; n <= nlots; n++)
        assert_int_equal(count[n], 1);
    int dist[CH_MAX_PLOTS];
    bfs(b, 0, 0, dist);
    for (int p = 0; p < b->nplots; p++)
        if (dist[p] < 0)
            fail_msg("%s: lot %s cannot be reached from lot 1", arrangement, b->plot_label[p]);
}

/* ---- the built-in names --------------------------------------------------- */
static void test_names(void **state)
{
    (void)state;
    const char *const *n = ch_board_builtin_names(CH_ED_GOLDEN_AGE);
    assert_non_null(n);
    assert_string_equal(n[0], "harbour");
    assert_string_equal(n[1], "centre");
    assert_null(n[2]);
    /* Building Amsterdam's list is unchanged. */
    n = ch_board_builtin_names(CH_ED_AMSTERDAM);
    assert_string_equal(n[0], "standard");
    assert_string_equal(n[3], "outliers");
    assert_null(n[4]);

    ch_board b;
    ch_msg err;
    assert_int_equal(ch_board_builtin(&b, CH_ED_GOLDEN_AGE, "HARBOUR", &err), CH_OK);
    assert_string_equal(b.name, "harbour");
    assert_int_equal(ch_board_builtin(&b, CH_ED_GOLDEN_AGE, "standard", &err), CH_EINVAL);
    assert_non_null(strstr(err.text, "Golden Age"));
    assert_non_null(strstr(err.text, "standard"));
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "harbour", &err), CH_EINVAL);
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "centre", &err), CH_EINVAL);
    assert_int_equal(ch_board_builtin(NULL, CH_ED_GOLDEN_AGE, "centre", &err), CH_EINVAL);
    assert_int_equal(ch_board_builtin(&b, CH_ED_GOLDEN_AGE, NULL, &err), CH_EINVAL);
}

/* ---- the harbour side ------------------------------------------------------ */
static void test_harbour(void **state)
{
    (void)state;
    ch_board b;
    load(&b, "harbour");
    check_side(&b, "harbour", "Harbour", 60);
    /* 6 rows of 9 pairs less the vertical canal = 48, + 2 bridges across it;
     * 5 pairs of rows of 10 less the canal row = 40, + 3 bridges over it. */
    assert_int_equal(count_edges(&b, 0), 50 + 43);
    assert_int_equal(count_edges(&b, 1), 5);

    /* The canal between rows 3 and 4: bridges at columns 2, 6 and 9 only. */
    assert_int_equal(kind(&b, 22, 32), 2);
    assert_int_equal(kind(&b, 26, 36), 2);
    assert_int_equal(kind(&b, 29, 39), 2);
    assert_int_equal(kind(&b, 21, 31), 0);
    assert_int_equal(kind(&b, 23, 33), 0);
    assert_int_equal(kind(&b, 25, 35), 0);
    assert_int_equal(kind(&b, 30, 40), 0);
    /* The canal between columns 5 and 6: bridges in rows 2 and 5 only. */
    assert_int_equal(kind(&b, 15, 16), 2);
    assert_int_equal(kind(&b, 45, 46), 2);
    assert_int_equal(kind(&b, 5, 6), 0);
    assert_int_equal(kind(&b, 25, 26), 0);
    assert_int_equal(kind(&b, 35, 36), 0);
    assert_int_equal(kind(&b, 55, 56), 0);
    /* Land: orthogonal neighbours, never diagonal ones. */
    assert_int_equal(kind(&b, 1, 2), 1);
    assert_int_equal(kind(&b, 1, 11), 1);
    assert_int_equal(kind(&b, 11, 21), 1);
    assert_int_equal(kind(&b, 31, 41), 1);
    assert_int_equal(kind(&b, 59, 60), 1);
    assert_int_equal(kind(&b, 1, 12), 0);
    assert_int_equal(kind(&b, 10, 11), 0); /* the end of one row, the start of the next */
    assert_int_equal(kind(&b, 20, 21), 0);
    /* Degrees: a corner has 2, a bridgehead in the middle 4. */
    assert_int_equal(b.deg[lot(&b, 1)], 2);
    assert_int_equal(b.deg[lot(&b, 60)], 2);
    assert_int_equal(b.deg[lot(&b, 15)], 4);
    assert_int_equal(b.deg[lot(&b, 5)], 2);  /* water to the right */
    assert_int_equal(b.deg[lot(&b, 25)], 2); /* water right and below */
    /* Distances go round the water. */
    assert_int_equal(distance(&b, 5, 6), 3);   /* 5-15=16-6 */
    assert_int_equal(distance(&b, 25, 26), 3); /* 25-15=16-26 */
    assert_int_equal(distance(&b, 25, 35), 7); /* 25-24-23-22=32-33-34-35 */
    assert_int_equal(distance(&b, 1, 60), 14);
    /* Without the bridges, four quarters of 15 lots (5 columns by 3 rows). */
    int sizes[CH_MAX_PLOTS];
    assert_int_equal(quarters(&b, sizes), 4);
    for (int i = 0; i < 4; i++)
        assert_int_equal(sizes[i], 15);
}

/* ---- the city centre side -------------------------------------------------- */
static void test_centre(void **state)
{
    (void)state;
    ch_board b;
    load(&b, "centre");
    check_side(&b, "centre", "City Centre", 95);
    /* Rows 1-9: 9 pairs less the vertical canal = 8 each, + 2 bridges; row 10:
     * 4 pairs. Between rows: 6 land pairs of rows of 10, row 9 to row 10 five,
     * + 3 bridges over each canal. */
    assert_int_equal(count_edges(&b, 0), (9 * 8 + 2 + 4) + (6 * 10 + 5 + 6));
    assert_int_equal(count_edges(&b, 1), 8);

    /* The first canal of the belt, between rows 3 and 4: bridges at columns
     * 2, 4 and 8. */
    assert_int_equal(kind(&b, 22, 32), 2);
    assert_int_equal(kind(&b, 24, 34), 2);
    assert_int_equal(kind(&b, 28, 38), 2);
    assert_int_equal(kind(&b, 21, 31), 0);
    assert_int_equal(kind(&b, 23, 33), 0);
    assert_int_equal(kind(&b, 26, 36), 0);
    assert_int_equal(kind(&b, 29, 39), 0);
    /* The second, between rows 6 and 7: bridges at columns 3, 7 and 9. */
    assert_int_equal(kind(&b, 53, 63), 2);
    assert_int_equal(kind(&b, 57, 67), 2);
    assert_int_equal(kind(&b, 59, 69), 2);
    assert_int_equal(kind(&b, 52, 62), 0);
    assert_int_equal(kind(&b, 54, 64), 0);
    assert_int_equal(kind(&b, 58, 68), 0);
    assert_int_equal(kind(&b, 60, 70), 0);
    /* The canal between columns 5 and 6: bridges in rows 2 and 8 only. */
    assert_int_equal(kind(&b, 15, 16), 2);
    assert_int_equal(kind(&b, 75, 76), 2);
    assert_int_equal(kind(&b, 5, 6), 0);
    assert_int_equal(kind(&b, 45, 46), 0);
    assert_int_equal(kind(&b, 65, 66), 0);
    assert_int_equal(kind(&b, 85, 86), 0);
    /* Land, and the short last row 91-95 under 81-85. */
    assert_int_equal(kind(&b, 31, 41), 1);
    assert_int_equal(kind(&b, 41, 51), 1);
    assert_int_equal(kind(&b, 81, 91), 1);
    assert_int_equal(kind(&b, 85, 95), 1);
    assert_int_equal(kind(&b, 94, 95), 1);
    assert_int_equal(kind(&b, 90, 91), 0);
    assert_int_equal(kind(&b, 86, 95), 0);
    assert_int_equal(b.deg[lot(&b, 95)], 2); /* 85 and 94; holes to the right */
    assert_int_equal(b.deg[lot(&b, 91)], 2);
    assert_int_equal(b.deg[lot(&b, 90)], 2);
    assert_int_equal(b.deg[lot(&b, 75)], 4);
    /* Distances go round the water. */
    /* 45 and 46 face each other across water; the way round goes over three
     * bridges: 45-44-34=24-14-15=16-17-18-28=38-48-47-46. */
    assert_int_equal(distance(&b, 45, 46), 13);
    assert_int_equal(distance(&b, 1, 95), 13);
    /* Without the bridges, six blocks: the two halves of three bands. */
    int sizes[CH_MAX_PLOTS];
    assert_int_equal(quarters(&b, sizes), 6);
    int want[6] = {20, 15, 15, 15, 15, 15};
    for (int i = 0; i < 6; i++)
        assert_int_equal(sizes[i], want[i]);
}

/* ---- names ---------------------------------------------------------------- */
static void test_name_round_trip(void **state)
{
    (void)state;
    const char *const *names = ch_board_builtin_names(CH_ED_GOLDEN_AGE);
    for (int a = 0; names[a]; a++) {
        ch_board b;
        load(&b, names[a]);
        for (int p = 0; p < b.nplots; p++) {
            char buf[64], low[64], want[64];
            int n = ch_plot_name(&b, p, buf, sizeof buf);
            snprintf(want, sizeof want, "%s %d", b.district[0], p + 1);
            assert_string_equal(buf, want);
            assert_int_equal(n, (int)strlen(buf));
            int used = -1;
            assert_int_equal(ch_board_find(&b, buf, &used), p);
            assert_int_equal(used, n);
            for (int i = 0; i <= n; i++)
                low[i] = (char)(buf[i] >= 'A' && buf[i] <= 'Z' ? buf[i] + 32 : buf[i]);
            assert_int_equal(ch_board_find(&b, low, &used), p);
            assert_int_equal(used, n);
            /* One district: the bare label is enough. */
            const char *label = b.plot_label[p];
            assert_int_equal(ch_board_find(&b, label, &used), p);
            assert_int_equal(used, (int)strlen(label));
        }
    }
}

static void test_find(void **state)
{
    (void)state;
    ch_board b;
    char buf[32];
    int used = -1;

    load(&b, "harbour");
    assert_int_equal(ch_plot_name(&b, 11, buf, sizeof buf), 10);
    assert_string_equal(buf, "Harbour 12");
    assert_int_equal(ch_board_find(&b, "Harbour 12", &used), 11);
    assert_int_equal(used, 10);
    assert_int_equal(ch_board_find(&b, "12", &used), 11);
    assert_int_equal(used, 2);
    assert_int_equal(ch_board_find(&b, "  12 and more", &used), 11);
    assert_int_equal(used, 4);
    assert_int_equal(ch_board_find(&b, "harbour\t 1", &used), 0);
    assert_int_equal(used, 10);
    assert_int_equal(ch_board_find(&b, "Harbour 1,", &used), 0);
    assert_int_equal(used, 9);
    assert_int_equal(ch_board_find(&b, "Harbour 60", &used), 59);
    used = 99;
    assert_int_equal(ch_board_find(&b, "Harbour 61", &used), -1);
    assert_int_equal(used, 0);
    assert_int_equal(ch_board_find(&b, "61", &used), -1);
    assert_int_equal(ch_board_find(&b, "0", &used), -1);
    assert_int_equal(ch_board_find(&b, "Harbour 0", &used), -1);
    assert_int_equal(ch_board_find(&b, "Harbour C1", &used), -1); /* Building Amsterdam's */
    assert_int_equal(ch_board_find(&b, "C1", &used), -1);
    assert_int_equal(ch_board_find(&b, "12a", &used), -1);
    assert_int_equal(ch_board_find(&b, "Harbour12", &used), -1);
    assert_int_equal(ch_board_find(&b, "Harbour", &used), -1);
    assert_int_equal(ch_board_find(&b, "", &used), -1);
    assert_int_equal(ch_plot_name(&b, 60, buf, sizeof buf), -1);

    load(&b, "centre");
    assert_int_equal(ch_plot_name(&b, 94, buf, sizeof buf), 14);
    assert_string_equal(buf, "City Centre 95");
    assert_int_equal(ch_board_find(&b, "City Centre 95", &used), 94);
    assert_int_equal(used, 14);
    assert_int_equal(ch_board_find(&b, "city   CENTRE 95 x", &used), 94);
    assert_int_equal(used, 16);
    assert_int_equal(ch_board_find(&b, "95", &used), 94);
    assert_int_equal(used, 2);
    assert_int_equal(ch_board_find(&b, "City Centre 1", &used), 0);
    assert_int_equal(ch_board_find(&b, "7", &used), 6);
    assert_int_equal(ch_board_find(&b, "City Centre 96", &used), -1);
    assert_int_equal(ch_board_find(&b, "96", &used), -1);
    assert_int_equal(ch_board_find(&b, "City 95", &used), -1);
    assert_int_equal(ch_board_find(&b, "Centre 95", &used), -1);
    assert_int_equal(ch_plot_name(&b, 95, buf, sizeof buf), -1);
}

/* ---- the files, and Building Amsterdam's Harbour --------------------------- */
static void test_files(void **state)
{
    (void)state;
    const char *paths[] = {"boards/ga-harbour.board", "boards/ga-centre.board",
                           "arrangements/ga-harbour.arr", "arrangements/ga-centre.arr"};
    const char *dir = getenv("CH_DATA_DIR"); /* set by CTest: compare with the files */
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        const char *text = ch_builtin_text(paths[i]);
        assert_non_null(text);
        assert_non_null(strstr(text, "econstruction")); /* the header says so */
        if (!dir)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, paths[i]);
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        static char disk[65536];
        size_t n = fread(disk, 1, sizeof disk - 1, f);
        fclose(f);
        disk[n] = '\0';
        assert_string_equal(text, disk);
    }

    /* A board file alone is a one-board arrangement named after the board. */
    ch_board b;
    ch_msg err;
    int rc = ch_board_parse(&b, ch_builtin_text("boards/ga-centre.board"), "ga-centre.board",
                            NULL, NULL, &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_string_equal(b.name, "City Centre");
    assert_int_equal(b.nplots, 95);
    rc = ch_board_parse(&b, ch_builtin_text("boards/ga-harbour.board"), "ga-harbour.board",
                        NULL, NULL, &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_string_equal(b.name, "Harbour");
    assert_int_equal(b.nplots, 60);

    /* Both editions have a board called Harbour: Building Amsterdam's
     * arrangements, and a user's arrangement read with the default (NULL)
     * resolver, still get the 24-plot district. */
    rc = ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_int_equal(b.nplots, 96);
    assert_string_equal(b.district[0], "Harbour");
    assert_int_equal(ch_board_find(&b, "Harbour C1", NULL), 2);
    rc = ch_board_parse(&b, "arrangement solo\nplace Harbour 0 0\n", "solo.arr", NULL, NULL,
                        &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_int_equal(b.nplots, 24);
    assert_int_equal(ch_board_find(&b, "Harbour F4", NULL), 23);
    /* ... and the City Centre is no Building Amsterdam district. */
    assert_int_equal(ch_board_parse(&b, "arrangement x\nplace \"City Centre\" 0 0\n", "x.arr",
                                    NULL, NULL, &err),
                     CH_EFORMAT);
    assert_non_null(strstr(err.text, "unknown board"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),           cmocka_unit_test(test_harbour),
        cmocka_unit_test(test_centre),          cmocka_unit_test(test_name_round_trip),
        cmocka_unit_test(test_find),            cmocka_unit_test(test_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
