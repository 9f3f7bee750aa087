/* test_board.c: tests of the board and arrangement format (src/core/board.c,
 * docs/formats.md "Board and arrangement files"): the four built-in Building
 * Amsterdam arrangements (plot and edge counts, named neighbours, drawing
 * positions, numbering), plot names both ways, the embedded files, the
 * general features of the format (holes, bridges in rows, links, one-board
 * files) and malformed inputs, each of which must fail with CH_EFORMAT and
 * "file:line: reason". */
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

static int kind_of(const ch_board *b, const char *x, const char *y)
{
    return tb_link_kind(b, tb_plot(b, x), tb_plot(b, y));
}

static int count_edges(const ch_board *b)
{
    int sum = 0;
    for (int p = 0; p < b->nplots; p++)
        sum += b->deg[p];
    return sum / 2;
}

static void load(ch_board *b, const char *name)
{
    ch_msg err;
    int rc = ch_board_builtin(b, CH_ED_AMSTERDAM, name, &err);
    if (rc != CH_OK)
        fail_msg("%s: %s", name, err.text);
    assert_string_equal(b->name, name);
}

/* Checks that hold for every board: sorted, symmetric adjacency, valid
 * districts and labels, distinct drawing cells. */
static void check_shape(const ch_board *b)
{
    for (int p = 0; p < b->nplots; p++) {
        assert_true(b->deg[p] <= CH_MAX_NEIGH);
        assert_true(b->plot_district[p] < b->ndistricts);
        assert_true(strlen(b->plot_label[p]) > 0);
        for (int i = 0; i < b->deg[p]; i++) {
            assert_true(b->adj[p][i] < b->nplots);
            assert_int_not_equal(b->adj[p][i], p);
            if (i > 0)
                assert_true(b->adj[p][i - 1] < b->adj[p][i]);
            assert_int_not_equal(tb_link_kind(b, p, b->adj[p][i]), 0);
        }
        assert_int_equal(b->bridge[p] >> b->deg[p], 0);
        assert_true(b->gx[p] >= 0 && b->gy[p] >= 0);
        for (int q = 0; q < p; q++)
            assert_false(b->gx[p] == b->gx[q] && b->gy[p] == b->gy[q]);
    }
}

/* ---- the built-in arrangements ----------------------------------------------- */
static void test_names(void **state)
{
    (void)state;
    const char *const *n = ch_board_builtin_names(CH_ED_AMSTERDAM);
    const char *want[] = {"standard", "quick-battle", "crossroads", "outliers"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(n[i], want[i]);
    assert_null(n[4]);
    const char *const *g = ch_board_builtin_names(CH_ED_GOLDEN_AGE);
    assert_string_equal(g[0], "harbour");
    assert_string_equal(g[1], "centre");
    assert_null(g[2]);

    ch_board b;
    ch_msg err;
    assert_int_equal(ch_board_builtin(&b, CH_ED_GOLDEN_AGE, "standard", &err), CH_EINVAL);
    assert_non_null(strstr(err.text, "Golden Age"));
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "nowhere", &err), CH_EINVAL);
    assert_non_null(strstr(err.text, "nowhere"));
    assert_int_equal(ch_board_builtin(&b, 7, "standard", &err), CH_EINVAL);
    assert_int_equal(ch_board_builtin(NULL, CH_ED_AMSTERDAM, "standard", &err), CH_EINVAL);
}

static void test_counts(void **state)
{
    (void)state;
    /* Per board: 5*4 = 20 across, 6 + 6 between rows 1-2 and 3-4, 2 bridges over
     * the canal = 34 (RULINGS.md, Boards). Seams: standard 4 x 2 bridges;
     * quick battle 4 + 4 + 6 + 6 open; crossroads 4 x 1; outliers 3 x 1. */
    struct { const char *name; int edges, bridges; } want[] = {
        {"standard", 4 * 34 + 8, 4 * 2 + 8},
        {"quick-battle", 4 * 34 + 20, 4 * 2},
        {"crossroads", 4 * 34 + 4, 4 * 2 + 4},
        {"outliers", 4 * 34 + 3, 4 * 2 + 3},
    };
    for (int i = 0; i < 4; i++) {
        ch_board b;
        load(&b, want[i].name);
        assert_int_equal(b.nplots, 96);
        assert_int_equal(b.ndistricts, 4);
        assert_string_equal(b.district[0], "Harbour");
        assert_string_equal(b.district[1], "Jordaan");
        assert_string_equal(b.district[2], "Canal Ring");
        assert_string_equal(b.district[3], "Old Side");
        check_shape(&b);
        assert_int_equal(count_edges(&b), want[i].edges);
        int bridges = 0;
        for (int p = 0; p < b.nplots; p++)
            bridges += __builtin_popcount(b.bridge[p]);
        assert_int_equal(bridges / 2, want[i].bridges);
    }
}

static void test_numbering(void **state)
{
    (void)state;
    ch_board b;
    load(&b, "standard");
    /* District by district in arrangement order, row by row, column by column. */
    assert_int_equal(tb_plot(&b, "Harbour A1"), 0);
    assert_int_equal(tb_plot(&b, "Harbour B1"), 1);
    assert_int_equal(tb_plot(&b, "Harbour A2"), 6);
    assert_int_equal(tb_plot(&b, "Harbour F4"), 23);
    assert_int_equal(tb_plot(&b, "Jordaan A1"), 24);
    assert_int_equal(tb_plot(&b, "Canal Ring A1"), 48);
    assert_int_equal(tb_plot(&b, "Old Side F4"), 95);
    assert_string_equal(b.plot_label[8], "C2");
    assert_int_equal(b.plot_district[30], 1);
}

static void test_neighbours(void **state)
{
    (void)state;
    ch_board b;
    load(&b, "standard");
    /* Within a board (RULINGS.md, Boards): bridges at B and E over the canal. */
    assert_int_equal(kind_of(&b, "Harbour B2", "Harbour B3"), 2);
    assert_int_equal(kind_of(&b, "Harbour E2", "Harbour E3"), 2);
    assert_int_equal(kind_of(&b, "Harbour A2", "Harbour A3"), 0);
    assert_int_equal(kind_of(&b, "Harbour C2", "Harbour C3"), 0);
    assert_int_equal(kind_of(&b, "Harbour A1", "Harbour A2"), 1);
    assert_int_equal(kind_of(&b, "Harbour A1", "Harbour B1"), 1);
    assert_int_equal(kind_of(&b, "Harbour A1", "Harbour B2"), 0); /* never diagonal */
    assert_int_equal(kind_of(&b, "Old Side C3", "Old Side C4"), 1);
    int c3 = tb_plot(&b, "Harbour C3");
    assert_int_equal(b.deg[c3], 3);
    assert_int_equal(b.deg[tb_plot(&b, "Harbour B2")], 4);
    /* Standard seams: bridges at 1 and 4 (side by side), 2 and 5 (stacked). */
    assert_int_equal(kind_of(&b, "Harbour F1", "Jordaan A1"), 2);
    assert_int_equal(kind_of(&b, "Harbour F4", "Jordaan A4"), 2);
    assert_int_equal(kind_of(&b, "Harbour F2", "Jordaan A2"), 0);
    assert_int_equal(kind_of(&b, "Harbour B4", "Canal Ring B1"), 2);
    assert_int_equal(kind_of(&b, "Harbour E4", "Canal Ring E1"), 2);
    assert_int_equal(kind_of(&b, "Harbour A4", "Canal Ring A1"), 0);
    assert_int_equal(kind_of(&b, "Jordaan B4", "Old Side B1"), 2);
    assert_int_equal(kind_of(&b, "Canal Ring F4", "Old Side A4"), 2);
    assert_int_equal(kind_of(&b, "Harbour F4", "Old Side A1"), 0);

    load(&b, "quick-battle");
    assert_int_equal(kind_of(&b, "Harbour F2", "Jordaan A2"), 1);
    assert_int_equal(kind_of(&b, "Harbour C4", "Canal Ring C1"), 1);
    assert_int_equal(kind_of(&b, "Jordaan A4", "Old Side A1"), 1);
    assert_int_equal(b.deg[tb_plot(&b, "Harbour F4")], 4);

    load(&b, "crossroads");
    assert_int_equal(kind_of(&b, "Harbour F2", "Jordaan A2"), 2);
    assert_int_equal(kind_of(&b, "Harbour F1", "Jordaan A1"), 0);
    assert_int_equal(kind_of(&b, "Harbour C4", "Canal Ring C1"), 2);
    assert_int_equal(kind_of(&b, "Jordaan C4", "Old Side C1"), 2);
    assert_int_equal(kind_of(&b, "Canal Ring F2", "Old Side A2"), 2);

    load(&b, "outliers");
    assert_int_equal(kind_of(&b, "Harbour F2", "Jordaan A2"), 2);
    assert_int_equal(kind_of(&b, "Jordaan F2", "Canal Ring A2"), 2);
    assert_int_equal(kind_of(&b, "Canal Ring F2", "Old Side A2"), 2);
    assert_int_equal(kind_of(&b, "Canal Ring F3", "Old Side A3"), 0);
    assert_int_equal(kind_of(&b, "Harbour A4", "Canal Ring A1"), 0);
}

static void test_drawing(void **state)
{
    (void)state;
    ch_board b;
    load(&b, "standard"); /* canal seams: one blank cell between boards */
    int p = tb_plot(&b, "Harbour A1");
    assert_int_equal(b.gx[p], 0);
    assert_int_equal(b.gy[p], 0);
    p = tb_plot(&b, "Harbour F4");
    assert_int_equal(b.gx[p], 5);
    assert_int_equal(b.gy[p], 3);
    p = tb_plot(&b, "Jordaan A1");
    assert_int_equal(b.gx[p], 7);
    assert_int_equal(b.gy[p], 0);
    p = tb_plot(&b, "Canal Ring A1");
    assert_int_equal(b.gx[p], 0);
    assert_int_equal(b.gy[p], 5);
    p = tb_plot(&b, "Old Side F4");
    assert_int_equal(b.gx[p], 12);
    assert_int_equal(b.gy[p], 8);

    load(&b, "quick-battle"); /* open seams: boards touch */
    assert_int_equal(b.gx[tb_plot(&b, "Jordaan A1")], 6);
    assert_int_equal(b.gy[tb_plot(&b, "Old Side A1")], 4);

    load(&b, "outliers");
    p = tb_plot(&b, "Old Side A1");
    assert_int_equal(b.gx[p], 21);
    assert_int_equal(b.gy[p], 0);
}

/* ---- names ---------------------------------------------------------------- */
static void test_name_round_trip(void **state)
{
    (void)state;
    const char *const *names = ch_board_builtin_names(CH_ED_AMSTERDAM);
    for (int a = 0; names[a]; a++) {
        ch_board b;
        load(&b, names[a]);
        for (int p = 0; p < b.nplots; p++) {
            char buf[64], low[64];
            int n = ch_plot_name(&b, p, buf, sizeof buf);
            assert_int_equal(n, (int)strlen(buf));
            int used = -1;
            assert_int_equal(ch_board_find(&b, buf, &used), p);
            assert_int_equal(used, n);
            for (int i = 0; i <= n; i++)
                low[i] = (char)(buf[i] >= 'A' && buf[i] <= 'Z' ? buf[i] + 32 : buf[i]);
            assert_int_equal(ch_board_find(&b, low, &used), p);
            assert_int_equal(used, n);
        }
    }
}

static void test_find(void **state)
{
    (void)state;
    ch_board b;
    load(&b, "standard");
    int used = -1;
    assert_int_equal(ch_board_find(&b, "harbour c1", &used), 2);
    assert_int_equal(used, 10);
    assert_int_equal(ch_board_find(&b, "HARBOUR C1 and more", &used), 2);
    assert_int_equal(used, 10);
    assert_int_equal(ch_board_find(&b, "Harbour C1,", &used), 2);
    assert_int_equal(used, 10);
    assert_int_equal(ch_board_find(&b, "canal   ring\tb2 x", &used), 48 + 7);
    assert_int_equal(used, 15);
    assert_int_equal(ch_board_find(&b, "  Old Side A1", &used), 72);
    assert_int_equal(used, 13);
    used = 99;
    assert_int_equal(ch_board_find(&b, "Harbour C12", &used), -1);
    assert_int_equal(used, 0);
    assert_int_equal(ch_board_find(&b, "Harbour G1", &used), -1);
    assert_int_equal(ch_board_find(&b, "HarbourC1", &used), -1);
    assert_int_equal(ch_board_find(&b, "Harbour", &used), -1);
    assert_int_equal(ch_board_find(&b, "C1", &used), -1); /* several districts */
    assert_int_equal(ch_board_find(&b, "", &used), -1);
    assert_int_equal(ch_board_find(&b, NULL, &used), -1);
    assert_int_equal(ch_board_find(&b, "Canal C1", &used), -1);
    assert_int_equal(ch_board_find(&b, "Harbour C1", NULL), 2);

    char buf[8];
    assert_int_equal(ch_plot_name(&b, 95, buf, sizeof buf), 11); /* "Old Side F4" */
    assert_string_equal(buf, "Old Sid");
    assert_int_equal(ch_plot_name(&b, 96, buf, sizeof buf), -1);
    assert_string_equal(buf, "");
    assert_int_equal(ch_plot_name(&b, -1, buf, sizeof buf), -1);
}

/* ---- embedded files ------------------------------------------------------- */
static void test_embedded(void **state)
{
    (void)state;
    const char *paths[] = {"boards/harbour.board", "boards/jordaan.board",
                           "boards/canal-ring.board", "boards/old-side.board",
                           "arrangements/standard.arr", "arrangements/quick-battle.arr",
                           "arrangements/crossroads.arr", "arrangements/outliers.arr"};
    const char *dir = getenv("CH_DATA_DIR"); /* set by CTest: compare with the files */
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        const char *text = ch_builtin_text(paths[i]);
        assert_non_null(text);
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
    assert_null(ch_builtin_text("boards/nowhere.board"));
    assert_null(ch_builtin_text(NULL));
    assert_non_null(strstr(ch_builtin_text("boards/harbour.board"), "board Harbour"));
}

/* ---- user files through a resolver ------------------------------------------ */
typedef struct tfile { const char *name, *file, *text; } tfile;

static const char *resolve(void *ctx, const char *name, const char **file)
{
    for (const tfile *t = ctx; t->name; t++)
        if (!strcmp(t->name, name)) {
            *file = t->file;
            return t->text;
        }
    return NULL;
}

static const char *SMALL_A = "board Alpha\nrow A1 A2\nrow B1 B2\n";
static const char *SMALL_B = "board Beta\nrow A1 A2\nrow B1 B2\n";
static const char *SMALL_C = "board Gamma\nrow A1 A2\nrow B1 B2\n";

static void test_features(void **state)
{
    (void)state;
    /* A board using every feature: holes, a canal and a bridge inside rows,
     * a partial canal line, a link. */
    const char *odd =
        "# an invented board\n"
        "board \"Odd  Corner\"   # quotes, spaces collapse\n"
        "row  1  2 | 3 = 4  .\n"
        "row  5  .   6   7  8\n"
        "canal ~ ~ = + ~\n"
        "row  9 10  11 12 13\n"
        "link 1 13 bridge\n";
    tfile files[] = {{"Odd Corner", "odd.board", odd}, {"Alpha", "a.board", SMALL_A},
                     {NULL, NULL, NULL}};
    ch_board b;
    ch_msg err;
    int rc = ch_board_parse(&b, odd, "odd.board", resolve, files, &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_string_equal(b.name, "Odd Corner");
    assert_int_equal(b.nplots, 13);
    check_shape(&b);
    assert_int_equal(kind_of(&b, "Odd Corner 1", "Odd Corner 2"), 1);
    assert_int_equal(kind_of(&b, "Odd Corner 2", "Odd Corner 3"), 0);
    assert_int_equal(kind_of(&b, "Odd Corner 3", "Odd Corner 4"), 2);
    assert_int_equal(kind_of(&b, "Odd Corner 1", "Odd Corner 5"), 1);
    assert_int_equal(kind_of(&b, "Odd Corner 5", "Odd Corner 6"), 0); /* hole between */
    assert_int_equal(kind_of(&b, "Odd Corner 6", "Odd Corner 7"), 1);
    assert_int_equal(kind_of(&b, "Odd Corner 6", "Odd Corner 11"), 2);
    assert_int_equal(kind_of(&b, "Odd Corner 7", "Odd Corner 12"), 1);
    assert_int_equal(kind_of(&b, "Odd Corner 5", "Odd Corner 9"), 0);
    assert_int_equal(kind_of(&b, "Odd Corner 1", "Odd Corner 13"), 2);
    /* One district: a bare label is enough. */
    int used;
    assert_int_equal(ch_board_find(&b, "12", &used), 11);
    assert_int_equal(used, 2);
    assert_int_equal(b.gx[11], 3);
    assert_int_equal(b.gy[11], 2);

    /* Two boards one above the other, with an arrangement link. */
    const char *arr =
        "arrangement two-up\n"
        "place odd corner 0 0   # bare words, any case\n"
        "place \"Alpha\" 0 1\n"
        "seam Alpha \"odd corner\" closed\n"
        "link Odd Corner 9 Alpha B\n";
    const char *alpha5 = "board Alpha\nrow A B C D E\n";
    tfile files2[] = {{"odd corner", "odd.board", odd}, {"Alpha", "a.board", alpha5},
                      {NULL, NULL, NULL}};
    rc = ch_board_parse(&b, arr, "two.arr", resolve, files2, &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_int_equal(b.nplots, 18);
    assert_string_equal(b.district[0], "Odd Corner");
    assert_int_equal(kind_of(&b, "Odd Corner 9", "Alpha B"), 1);
    assert_int_equal(kind_of(&b, "Odd Corner 10", "Alpha B"), 0);
    assert_int_equal(b.gy[tb_plot(&b, "Alpha A")], 3); /* closed: no gap */

    /* NULL resolver: the built-in boards. */
    rc = ch_board_parse(&b, "arrangement solo\nplace Jordaan 3 5\n", "solo.arr", NULL, NULL,
                        &err);
    if (rc)
        fail_msg("%s", err.text);
    assert_int_equal(b.nplots, 24);
    assert_int_equal(count_edges(&b), 34);
    assert_int_equal(b.gx[0], 0); /* positions start at the first used column */
}

/* ---- malformed input ----------------------------------------------------------- */
static void expect_format(const char *arr, const char *want_prefix, const char *want_text)
{
    tfile files[] = {
        {"Alpha", "a.board", SMALL_A},
        {"Beta", "b.board", SMALL_B},
        {"Gamma", "c.board", SMALL_C},
        {"Dup", "dup.board", "board Dup\nrow A1 B1\nrow C1 a1\n"},
        {"Wide", "wide.board", "# wide\nboard Wide\nrow A1 B1 C1\n\nrow A2 B2\n"},
        {"Hole", "hole.board", "board Hole\nrow A1 A2\ncanal ~ =\nrow B1 .\n"},
        {"Star", "star.board",
         "board Star\nrow A B C\nrow D E F\nrow G H I\nlink E A\nlink E C\nlink E G\n"},
        {"Liar", "liar.board", "board Somebody Else\nrow A1\n"},
        {"Long", "long.board", "board Long\nrow A1 ABCD\n"},
        {"Tail", "tail.board", "board Tail\nrow A1\ncanal ~\n"},
        {"Kw", "kw.board", "board Kw\nrow A1\ncolumn A2\n"},
        {"Big", "big.board",
         "board Big\nrow a b c d e f g h\nrow i j k l m n o p\nrow q r s t u v w x\n"
         "row y z 1 2 3 4 5 6\n"},
        {NULL, NULL, NULL}};
    ch_board b;
    memset(&b, 0x5a, sizeof b);
    ch_msg err;
    err.text[0] = '\0';
    int rc = ch_board_parse(&b, arr, "t.arr", resolve, files, &err);
    if (rc != CH_EFORMAT)
        fail_msg("expected CH_EFORMAT for [%s], got %d (%s)", arr, rc, err.text);
    if (strncmp(err.text, want_prefix, strlen(want_prefix)) != 0)
        fail_msg("message '%s' should start with '%s'", err.text, want_prefix);
    if (!strstr(err.text, want_text))
        fail_msg("message '%s' should mention '%s'", err.text, want_text);
    for (size_t i = 0; i < sizeof b; i++) /* *out untouched */
        assert_int_equal(((unsigned char *)&b)[i], 0x5a);
}

#define HEAD "arrangement t\n"
#define AB HEAD "place Alpha 0 0\nplace Beta 1 0\n"

static void test_malformed(void **state)
{
    (void)state;
    expect_format("", "t.arr:1:", "empty");
    expect_format("# nothing\n\n", "t.arr:2:", "empty");
    expect_format("place Alpha 0 0\n", "t.arr:1:", "arrangement <name>");
    expect_format(HEAD "place Nobody 0 0\n", "t.arr:2:", "unknown board 'Nobody'");
    expect_format(HEAD "\nplace Dup 0 0\n", "dup.board:3:", "duplicate plot label 'a1'");
    expect_format(HEAD "place Wide 0 0\n", "wide.board:5:", "row width mismatch");
    expect_format(HEAD "place Hole 0 0\n", "hole.board:3:", "hole");
    expect_format(HEAD "place Star 0 0\n", "star.board:7:", "too many neighbours");
    expect_format(HEAD "place Liar 0 0\n", "t.arr:2:", "Somebody Else");
    expect_format(HEAD "place Long 0 0\n", "long.board:2:", "ABCD");
    expect_format(HEAD "place Tail 0 0\n", "tail.board:3:", "between two rows");
    expect_format(HEAD "place Kw 0 0\n", "kw.board:3:", "unknown keyword 'column'");
    expect_format(AB "seam Alpha Beta canal bridges 3\n", "t.arr:4:", "bad seam position");
    expect_format(AB "seam Alpha Beta canal bridges 0\n", "t.arr:4:", "bad seam position");
    expect_format(AB "seam Alpha Beta canal bridges 1 1\n", "t.arr:4:", "twice");
    expect_format(AB "seam Alpha Beta open bridges 1\n", "t.arr:4:", "only a canal");
    expect_format(AB "seam Alpha Beta wall\n", "t.arr:4:", "unknown seam kind");
    expect_format(AB "seam Alpha Beta open\nseam Beta Alpha open\n", "t.arr:5:", "second seam");
    expect_format(AB "seam Alpha Gamma open\n", "t.arr:4:", "no placed board");
    expect_format(AB "\n\n", "t.arr:3:", "no seam between Alpha and Beta");
    expect_format(HEAD "place Alpha 0 0\nplace Beta 1 1\nseam Alpha Beta open\n", "t.arr:4:",
                  "not adjacent");
    expect_format(HEAD "place Alpha 0 0\nplace Beta 0 0\n", "t.arr:3:", "already holds");
    expect_format(HEAD "place Alpha 0 0\nplace alpha 1 0\n", "t.arr:3:", "placed twice");
    expect_format(HEAD "place Alpha 0 8\n", "t.arr:2:", "whole numbers");
    expect_format(HEAD "place Alpha zero 0\n", "t.arr:2:", "whole numbers");
    expect_format(HEAD "place Alpha 0 0\nplace Wide 1 0\n", "wide.board:5:", "row width");
    expect_format(HEAD "place \"Alpha 0 0\n", "t.arr:2:", "unterminated quote");
    expect_format(HEAD "place Alpha 0 0\nfrobnicate\n", "t.arr:3:", "unknown keyword");
    expect_format(HEAD "arrangement again\n", "t.arr:2:", "second 'arrangement'");
    expect_format("arrangement a-name-that-is-far-too-long-to-fit\n", "t.arr:1:", "too long");
    expect_format(HEAD "place A-board-name-too-long 0 0\n", "t.arr:2:", "too long");
    expect_format(AB "seam Alpha Beta open\nlink Alpha A1 Beta Z9\n", "t.arr:5:", "no plot");
    expect_format(AB "seam Alpha Beta open\nlink Alpha A2 Beta A1\n", "t.arr:5:",
                  "already connected");
}

/* The valid counterpart of the inputs above: a lone board needs no seam. */
static void test_valid_lone(void **state)
{
    (void)state;
    ch_board b;
    ch_msg err;
    tfile files[] = {{"Alpha", "a.board", SMALL_A}, {NULL, NULL, NULL}};
    assert_int_equal(ch_board_parse(&b, HEAD "place Alpha 0 0\n", "t.arr", resolve, files, &err),
                     CH_OK);
    assert_int_equal(b.nplots, 4);
    assert_int_equal(count_edges(&b), 4);
}

static void test_limits(void **state)
{
    (void)state;
    /* 128 plots at most: five 24-plot boards fit (120), a sixth does not. */
    char arr[2048];
    tfile files[] = {{"Big", "big.board",
                      "board Big\nrow a b c d e f g h\nrow i j k l m n o p\n"
                      "row q r s t u v w x\n"},
                     {"B1", "1.board", "board B1\nrow a b c d e f g h\nrow i j k l m n o p\n"
                                       "row q r s t u v w x\n"},
                     {"B2", "2.board", "board B2\nrow a b c d e f g h\nrow i j k l m n o p\n"
                                       "row q r s t u v w x\n"},
                     {"B3", "3.board", "board B3\nrow a b c d e f g h\nrow i j k l m n o p\n"
                                       "row q r s t u v w x\n"},
                     {"B4", "4.board", "board B4\nrow a b c d e f g h\nrow i j k l m n o p\n"
                                       "row q r s t u v w x\n"},
                     {"B5", "5.board", "board B5\nrow a b c d e f g h\nrow i j k l m n o p\n"
                                       "row q r s t u v w x\n"},
                     {NULL, NULL, NULL}};
    snprintf(arr, sizeof arr,
             "arrangement many\nplace Big 0 0\nplace B1 2 0\nplace B2 4 0\nplace B3 6 0\n"
             "place B4 0 2\nplace B5 2 2\n");
    ch_board b;
    ch_msg err;
    assert_int_equal(ch_board_parse(&b, arr, "many.arr", resolve, files, &err), CH_EFORMAT);
    assert_non_null(strstr(err.text, "many.arr:7:"));
    assert_non_null(strstr(err.text, "too many plots"));

    /* 8 districts at most. */
    char files_text[9][64];
    char names[9][8];
    tfile many[10];
    size_t n = (size_t)snprintf(arr, sizeof arr, "arrangement nine\n");
    for (int i = 0; i < 9; i++) {
        snprintf(names[i], sizeof names[i], "D%d", i);
        snprintf(files_text[i], sizeof files_text[i], "board D%d\nrow a\n", i);
        many[i] = (tfile){names[i], names[i], files_text[i]};
        n += (size_t)snprintf(arr + n, sizeof arr - n, "place D%d %d %d\n", i, (i % 4) * 2,
                              (i / 4) * 2);
    }
    many[9] = (tfile){NULL, NULL, NULL};
    assert_int_equal(ch_board_parse(&b, arr, "nine.arr", resolve, many, &err), CH_EFORMAT);
    assert_non_null(strstr(err.text, "nine.arr:10:"));
    assert_non_null(strstr(err.text, "too many boards"));

    /* A line longer than the format allows. */
    static char longline[3000];
    memset(longline, 'x', sizeof longline - 1);
    memcpy(longline, "arrangement ", 12);
    assert_int_equal(ch_board_parse(&b, longline, "long.arr", resolve, many, &err), CH_EFORMAT);
    assert_non_null(strstr(err.text, "long.arr:1:"));

    /* Bad arguments are not format errors. */
    assert_int_equal(ch_board_parse(NULL, "x", "f", NULL, NULL, &err), CH_EINVAL);
    assert_int_equal(ch_board_parse(&b, NULL, "f", NULL, NULL, NULL), CH_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),         cmocka_unit_test(test_counts),
        cmocka_unit_test(test_numbering),     cmocka_unit_test(test_neighbours),
        cmocka_unit_test(test_drawing),       cmocka_unit_test(test_name_round_trip),
        cmocka_unit_test(test_find),          cmocka_unit_test(test_embedded),
        cmocka_unit_test(test_features),      cmocka_unit_test(test_malformed),
        cmocka_unit_test(test_valid_lone),    cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
