/* test_position.c: positions as text (docs/formats.md "Positions";
 * ch_position_read, ch_position_write; issue 15 parts 2 and 3).
 * - print, then load gives the same state, over many random states of both
 *   editions, every arrangement and player count (the JSON of the state,
 *   its legal moves, and the text printed again all agree);
 * - a player's copy loads, keeps that player's hand and hides the others';
 * - a position written by hand, with random parts, loads and deals the same
 *   from the same seed;
 * - strict loading: each impossible or malformed position is refused with
 *   "file:line: reason" (and "did you mean" for a misspelt name), and the
 *   state passed in is left unchanged. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

static int bs_has_t(const uint64_t *b, int i) { return (int)((b[i >> 6] >> (i & 63)) & 1u); }

/* The state's JSON without its "leftovers" (the unused tails of the pile
 * arrays, which no rule reads and a position does not keep). */
static char *json_core(const ch_state *st)
{
    char *j = ch_state_to_json(st);
    assert_non_null(j);
    char *cut = strstr(j, "\"leftovers\"");
    if (cut)
        *cut = '\0';
    return j;
}

static int read_text(ch_state *st, const char *text, ch_msg *m)
{
    return ch_position_read(st, text, strlen(text), "test.pos", m);
}

/* The name a position gives card c: its name, with "#ID" when cards share it. */
static void pos_card_name(const ch_state *st, int c, char *out, size_t n)
{
    char a[48], b[48];
    ch_card_name(st, c, a, sizeof a);
    int shared = 0;
    for (int d = 0; d < st->ncards && !shared; d++) {
        ch_card_name(st, d, b, sizeof b);
        shared = d != c && !strcmp(a, b);
    }
    if (shared)
        snprintf(out, n, "%s#%d", a, c);
    else
        snprintf(out, n, "%s", a);
}

/* Is card c named in a card list of text (not as a plot of the board)? */
static int names_card(const ch_state *st, const char *text, int c)
{
    char name[64];
    pos_card_name(st, c, name, sizeof name);
    size_t len = strlen(name);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        /* (cards asked for in an offer may be anywhere: asking reveals nothing) */
        if (!strncmp(line, "warehouse ", 10) || !strncmp(line, "placeholder ", 12) || !strncmp(line, "build-", 6) ||
            !strncmp(line, "offer-ask ", 10) || line[0] == '#')
            continue;
        for (const char *q = line; (q = strstr(q, name)) && q < end; q++)
            if (q > line && q[-1] == ' ' && (q[len] == ',' || q[len] == '\n' || q[len] == '\0'))
                return 1;
    }
    return 0;
}

/* A copy names no hidden card: the others' hands (but the cards everyone
 * knows of), the deck, the level reserve; no seed, no RNG; for a spectator
 * (CH_POSITION_SPECTATOR) no hand at all but the known cards. */
static void copy_hides(const ch_state *a, int viewer, const char *v)
{
    assert_null(strstr(v, "\nrng "));
    assert_null(strstr(v, "\nseed "));
    for (int c = 0; c < a->ncards; c++) {
        int hidden = a->loc[c] == CH_LOC_DECK || a->loc[c] == CH_LOC_RESERVE;
        for (int q = 0; q < a->nplayers; q++)
            if (q != viewer && bs_has_t(a->pl[q].hand, c) && !bs_has_t(a->pl[q].known, c))
                hidden = 1;
        if (a->loc[c] == CH_LOC_LOOK && a->au_option == 3 && !(a->phase == CH_PH_PICK && viewer == a->actor))
            hidden = 1;
        if (hidden && names_card(a, v, c)) {
            char name[64];
            pos_card_name(a, c, name, sizeof name);
            FILE *f = fopen("test_position_failed.txt", "w");
            if (f) {
                fputs(v, f);
                fclose(f);
            }
            fail_msg("viewer %d's copy names the hidden card %s (location %d; the copy: test_position_failed.txt)",
                     viewer, name, a->loc[c]);
        }
    }
}

/* write, read, compare */
static void round_trip(const ch_state *a)
{
    char *text = ch_position_write(a, -1);
    assert_non_null(text);
    ch_state *b = malloc(sizeof *b);
    ch_msg m = {{0}};
    if (read_text(b, text, &m) != CH_OK) {
        FILE *f = fopen("test_position_failed.txt", "w");
        if (f) {
            fputs(text, f);
            fclose(f);
        }
        fail_msg("the printed position does not load: %s", m.text);
    }
    char *ja = json_core(a), *jb = json_core(b);
    if (strcmp(ja, jb)) {
        size_t i = 0;
        while (ja[i] == jb[i])
            i++;
        fail_msg("state differs after print and load at JSON offset %zu: ...%.120s... vs ...%.120s...\n%s", i,
                 ja + (i > 60 ? i - 60 : 0), jb + (i > 60 ? i - 60 : 0), text);
    }
    char *text2 = ch_position_write(b, -1);
    assert_string_equal(text, text2);
    static ch_move ma[1 << 14], mb[1 << 14];
    for (int p = 0; p < a->nplayers; p++) {
        int na = ch_legal(a, p, ma, 1 << 14), nb = ch_legal(b, p, mb, 1 << 14);
        assert_int_equal(na, nb);
        if (na > (1 << 14))
            na = 1 << 14;
        assert_memory_equal(ma, mb, (size_t)na * sizeof *ma);
    }
    /* a spectator's copy loads and hides every hand */
    {
        char *v = ch_position_write(a, CH_POSITION_SPECTATOR);
        assert_non_null(v);
        copy_hides(a, CH_POSITION_SPECTATOR, v);
        if (read_text(b, v, &m) != CH_OK) {
            FILE *f = fopen("test_position_failed.txt", "w");
            if (f) {
                fputs(v, f);
                fclose(f);
            }
            fail_msg("the spectator's copy does not load: %s (the copy: test_position_failed.txt)", m.text);
        }
        for (int q = 0; q < a->nplayers; q++)
            assert_int_equal(ch_hand_count(b, q), ch_hand_count(a, q));
        /* (sealed bids load as f0; an offer keeps only the cards one may see) */
        if (a->edition == CH_ED_AMSTERDAM && a->phase != CH_PH_BID && a->offer.to == CH_NONE) {
            char *va = ch_view_to_json(a, -1), *vb = ch_view_to_json(b, -1);
            if (strcmp(va, vb)) {
                size_t i = 0;
                while (va[i] == vb[i])
                    i++;
                fail_msg("the spectator's view differs at %zu: ...%.100s... vs ...%.100s...", i,
                         va + (i > 50 ? i - 50 : 0), vb + (i > 50 ? i - 50 : 0));
            }
            ch_free(va);
            ch_free(vb);
        }
        ch_free(v);
    }
    /* each player's copy loads too, with that player's hand as it is */
    for (int p = 0; p < a->nplayers; p++) {
        char *v = ch_position_write(a, p);
        assert_non_null(v);
        copy_hides(a, p, v);
        if (read_text(b, v, &m) != CH_OK) {
            print_error("%s\n", v);
            fail_msg("player %d's copy does not load: %s", p + 1, m.text);
        }
        assert_memory_equal(b->pl[p].hand, a->pl[p].hand, sizeof a->pl[p].hand);
        for (int q = 0; q < a->nplayers; q++)
            assert_int_equal(ch_hand_count(b, q), ch_hand_count(a, q));
        assert_int_equal(b->ndeck, a->ndeck);
        if (a->edition == CH_ED_AMSTERDAM) {
            /* everything p sees is the same */
            char *va = ch_view_to_json(a, p), *vb = ch_view_to_json(b, p);
            if (strcmp(va, vb) && a->phase != CH_PH_BID && a->offer.to == CH_NONE) {
                size_t i = 0;
                while (va[i] == vb[i])
                    i++;
                fail_msg("player %d's view differs at %zu: ...%.100s... vs ...%.100s...", p + 1, i,
                         va + (i > 50 ? i - 50 : 0), vb + (i > 50 ? i - 50 : 0));
            }
            ch_free(va);
            ch_free(vb);
        }
        ch_free(v);
    }
    ch_free(text);
    ch_free(text2);
    ch_free(ja);
    ch_free(jb);
    free(b);
}

static void random_states(int edition)
{
    static const char *const arrs[] = {"standard", "quick-battle", "crossroads", "outliers"};
    int checked = 0;
    for (int g = 0; g < 24; g++) {
        ch_state st;
        if (edition == CH_ED_AMSTERDAM)
            t_new(&st, 2 + g % 4, arrs[g % 4], 1000 + (uint64_t)g);
        else
            t_new_ga(&st, 2 + g % 5, g % 2 ? CH_GA_FIRST : CH_GA_PRINTED, g % 3 != 0, 2000 + (uint64_t)g);
        uint64_t rng = 77 + (uint64_t)g;
        round_trip(&st);
        checked++;
        for (int step = 0; step < 3000; step++) {
            if (!t_random_step(&st, &rng))
                break;
            if (step % 97 == 0) {
                round_trip(&st);
                checked++;
            }
        }
        round_trip(&st); /* often the end of the game */
        checked++;
    }
    assert_true(checked > 100);
}

static void round_trip_amsterdam(void **s)
{
    (void)s;
    random_states(CH_ED_AMSTERDAM);
}

static void round_trip_golden_age(void **s)
{
    (void)s;
    random_states(CH_ED_GOLDEN_AGE);
}

/* A position written by a person: the rulebook's founding example (B1 and
 * D1 lone, Bernadette holds C1), the rest dealt at random from the seed. */
static const char *const EXAMPLE =
    "# Rulebook: Turn option 2, example \"Founding a company\"\n"
    "edition amsterdam\n"
    "players 3\n"
    "seed 5\n"
    "turn 1 player 2 phase turn\n"
    "warehouse Harbour B1\n"
    "warehouse Harbour D1\n"
    "player 2 cash f100\n"
    "hand 2 Harbour C1, random 4\n"
    "hand 1 random 5\n"
    "hand 3 random 5\n";

static void hand_written_position(void **s)
{
    (void)s;
    ch_state a, b;
    ch_msg m;
    assert_int_equal(read_text(&a, EXAMPLE, &m), CH_OK);
    assert_int_equal(read_text(&b, EXAMPLE, &m), CH_OK);
    assert_memory_equal(&a, &b, sizeof a); /* the same seed deals the same */
    assert_int_equal(ch_hand_count(&a, 1), 5);
    assert_int_equal(a.supply, 60);
    assert_int_equal(a.loc[t_card(&a, "Harbour B1")], CH_LOC_DISCARD);
    for (int i = 0; i < 5; i++)
        assert_int_not_equal(a.market[i], CH_NONE);
    assert_int_equal(a.nreserve, 4);
    assert_int_equal(a.pl[1].cash, 100);
    t_valid(&a);
    /* the rulebook's outcome: C1 founds Coal with B1 and D1, f30 */
    t_play(&a, 1, "play Harbour C1");
    t_play(&a, 1, "found Coal");
    assert_int_equal(a.co[1].value, 30);
    assert_int_equal(a.pl[1].cash, 130);
    t_play(&a, 1, "buy Coal");
    t_play(&a, 1, "buy Coal");
    assert_int_equal(a.pl[1].cash, 70);
}

/* Levels on the board put their cards on the discard pile, as a built plot
 * does with its card; a random reserve is one setup could have left. */
static void levels_discarded(void **s)
{
    (void)s;
    ch_state a;
    ch_msg m;
    const char *text = "players 3\nseed 4\nwarehouse Harbour B1 height 4\nwarehouse Harbour D1 height 2\n"
                       "discard L2#96\nhand 1 L3, L3, L3, L3, L3\nreserve random 3\n";
    if (read_text(&a, text, &m) != CH_OK)
        fail_msg("%s", m.text);
    int n[6] = {0}, listed = 0, reserve[6] = {0}, l2 = 96; /* "L2#96": a level card by its id */
    assert_int_equal(a.card_level[l2], 2);
    for (int i = 0; i < a.ndiscard; i++) {
        n[a.card_level[a.discard[i]]]++;
        listed += a.discard[i] == l2;
    }
    assert_int_equal(n[2], 2); /* L2#96 as written, and one more */
    assert_int_equal(n[3], 1); /* the only L3 not in the hand */
    assert_int_equal(n[4], 1);
    assert_int_equal(listed, 1);
    assert_int_equal(a.discard[a.ndiscard - 1], l2); /* written on top */
    assert_int_equal(a.nreserve, 3);
    for (int i = 0; i < a.nreserve; i++)
        reserve[a.card_level[a.reserve[i]]]++;
    assert_int_equal(reserve[2], 2);
    assert_int_equal(reserve[3], 0); /* every L3 is held or played: Aenleggen took the reserve's */
    assert_int_equal(reserve[4], 1);
    t_valid(&a);
}

typedef struct bad {
    const char *text;
    const char *reason; /* "test.pos:LINE: ..." prefix expected */
} bad;

static const bad BAD[] = {
    {"players 3\nwarehouse Harbour B1\nwarehouse Harbour C1\n", "test.pos:3: lone warehouses on"},
    {"players 3\nwarehouse Harbour B1 Coal hq\nwarehouse Harbour C1 Coal\n", "test.pos:2: Coal has its HQ on the board but is not on the chart"},
    {"players 3\nwarehouse Harbour B1 Coal hq\nwarehouse Harbour C1 Coal\ncompany Coal f25\n",
     "test.pos:4: Coal is worth f25"},
    {"players 3\nwarehouse Harbour B1 Coal hq\nwarehouse Harbour C1 Coal\ncompany Coal f310\n",
     "test.pos:4: Coal is worth f310"},
    {"players 3\nwarehouse Harbour B1 Coal hq\nwarehouse Harbour C1 Tea hq\ncompany Coal f20\ncompany Tea f20\n",
     "test.pos:3: Harbour B1 and Harbour C1 touch"},
    {"players 3\ncompany Cole f20\n", "did you mean 'Coal'?"},
    {"players 3\nwarehouse Harbor B1\n", "test.pos:2: unknown plot 'Harbor B1' (did you mean 'Harbour B1'?)"},
    {"players 3\nhand 1 Harbour C1, Harbor C2\n", "(did you mean 'Harbour C2'?)"},
    {"players 3\nhand 1 Harbour C1\nhand 2 Harbour C1\n", "test.pos:3: Harbour C1 is already placed on line 2"},
    {"players 3\nstocks 1 Coal 5\nstocks 2 Coal 5\n", "test.pos:3: more than the 9 stock cards of Coal"},
    {"players 3\nplayer 1 cash f-5\n", "test.pos:2: cash is whole florins"},
    {"players 3\nturn 1 player 4 phase turn\n", "test.pos:2: a player is a seat from 1 to 3"},
    {"players 3\nturn 1 player 1 phase trdae\n", "did you mean 'trade'?"},
    {"players 3\nwarehuose Harbour C1\n", "test.pos:2: unknown line 'warehuose' (did you mean 'warehouse'?)"},
    {"players 3\nhand 1 random 16\n", "test.pos:2: player 1 holds 16 cards"},
    {"players 3\nmarket Harbour C1\nwarehouse Harbour C1\n", "test.pos:3: Harbour C1 is built"},
    {"warehouse Harbour C1\n", "test.pos:1: the player count comes first"},
    /* issue 28 item 1: a Golden Age header with a player count outside 2 to 6
       and no arrangement crashed (no board side for it); each edition's
       counts are checked on the 'players' line */
    {"edition golden-age\nplayers 1\n", "test.pos:2: the player count is a whole number from 2 to 6, not '1'"},
    {"edition golden-age\nplayers 0\nwarehouse Harbour 1\n", "test.pos:2: the player count is a whole number"},
    {"players 1\nedition golden-age\n", "test.pos:1: the player count is a whole number from 2 to 6"},
    {"players 6\n", "test.pos:1: Building Amsterdam is for 2 to 5 players, not 6"},
    {"players 6\nedition amsterdam\nwarehouse Harbour C1\n", "test.pos:1: Building Amsterdam is for 2 to 5 players"},
    {"edition golden-age\nplayers 7\n", "test.pos:2: the player count is a whole number from 2 to 6, not '7'"},
    {"players 3\nwarehouse Harbour C1\nplayers 4\n", "test.pos:3: 'players' belongs to the header"},
    {"players 3\narrangement standrad\nwarehouse Harbour C1\n", "did you mean 'standard'?"},
    {"players 3\ndeck Harbour C1\n", "cards are placed nowhere"},
    {"players 3\nevents-open Verlappen, Verlappen\nevents-deck Verlappen, Verlappen\n", "only 3 Verlappen cards"},
    {"players 3\nplayer 1 roofs 6\nplayer 2 roofs 6\n", "broken roofs are held"},
    {"edition golden-age\nplayers 3\nwarehouse Harbour 4\n", "test.pos:3: a warehouse at Harbour 4 belongs to no enterprise"},
    {"players 3\nplaceholder Harbour C1 Coal\n", "test.pos:2: a placeholder is an HQ"},
    {"players 9\n", "test.pos:1: the player count is a whole number from 2 to 6, not '9'"},
    /* level cards: a level on the board was built by playing its card, which
     * stays on the discard pile; the reserve is what setup set aside */
    {"players 3\nhand 1 L4, L4\nwarehouse Harbour B1 height 4\nwarehouse Harbour D1 height 4\n",
     "test.pos:4: Harbour D1 has a fourth level, but 2 stacks carry one and only 1 of the 3 L4 cards"},
    {"players 3\nhand 2 L3, L3, L3, L3, L3, L3, L3\n", "test.pos:2: no L3 card is left"},
    {"players 3\nwarehouse Harbour B1 height 5\n", "test.pos:2: a stack is a warehouse and at most three levels"},
    {"players 3\nreserve L2, L2, L2\n", "test.pos:2: the level reserve holds at most two second-level cards"},
    {"players 3\nreserve L4, L4\n", "test.pos:2: the level reserve holds at most two second-level cards"},
    {"players 3\nhand 1 L4, L4, L4\nreserve random 4\n", "test.pos:3: no level card is left for the level reserve"},
    /* the rest of ch_validate's board checks, at the line that is wrong */
    {"players 3\nwarehouse Harbour B1 Coal hq\ncompany Coal f30\n",
     "test.pos:3: Coal has 1 warehouse on the board: a company has at least two"},
    {"players 3\nwarehouse Harbour B1 Coal hq\nwarehouse Harbour C1 Coal\nwarehouse Harbour A3 Coal\ncompany Coal f30\n",
     "test.pos:5: Coal stands in 2 separate groups (Harbour B1 and Harbour A3)"},
    {"players 3\nwarehouse Harbour B1 roof\n", "test.pos:2: a broken roof lies only on a company's warehouse"},
    {"edition golden-age\nplayers 3\nwarehouse Harbour 1 height 2 Gold hq\nwarehouse Harbour 2 Gold\n"
     "player 1 cash f500\ncompany Gold f50 flag 1\n",
     "test.pos:6: player 1 has 1 flag on enterprises and 2 left"},
};

static void strict_loading(void **s)
{
    (void)s;
    ch_state st, keep;
    t_new(&st, 3, "standard", 3);
    memcpy(&keep, &st, sizeof st);
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        ch_msg m = {{0}};
        int rc = read_text(&st, BAD[i].text, &m);
        if (rc == CH_OK)
            fail_msg("bad position %zu was accepted:\n%s", i, BAD[i].text);
        assert_int_equal(rc, CH_EFORMAT);
        if (!strstr(m.text, BAD[i].reason))
            fail_msg("bad position %zu: '%s' does not say '%s'", i, m.text, BAD[i].reason);
        assert_memory_equal(&st, &keep, sizeof st); /* bad input changes nothing */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hand_written_position),
        cmocka_unit_test(strict_loading),
        cmocka_unit_test(levels_discarded),
        cmocka_unit_test(round_trip_amsterdam),
        cmocka_unit_test(round_trip_golden_age),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
