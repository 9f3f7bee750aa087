/* test_variant.c: variant files (docs/variants.md): ch_variant_parse reads
 * every setting and refuses a bad one with file:line; ch_variant_apply puts
 * them into a setup; ch_new honours each (money per seat, hand, hand limit,
 * open cards, supply, no stock events, prices, end conditions) and refuses
 * values beyond the state's
 * fixed bounds; games of every shipped variant in data/variants/ play to the
 * end under ch_validate and survive JSON and position round trips. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

static int bs_count_hand(const ch_state *st, int p)
{
    return __builtin_popcountll(st->pl[p].hand[0]) + __builtin_popcountll(st->pl[p].hand[1]);
}

static int parse(ch_variant *v, const char *text, ch_msg *m)
{
    return ch_variant_parse(v, text, strlen(text), "v.variant", m);
}

/* The error of a text: CH_EFORMAT and a message starting "v.variant:LINE: "
 * that holds `why`. */
static void refused(const char *text, int line, const char *why)
{
    ch_variant v;
    memset(&v, 0x5a, sizeof v);
    ch_variant before = v;
    ch_msg m = {{0}};
    assert_int_equal(parse(&v, text, &m), CH_EFORMAT);
    char want[64];
    snprintf(want, sizeof want, "v.variant:%d: ", line);
    if (strncmp(m.text, want, strlen(want)) != 0 || !strstr(m.text, why))
        fail_msg("for %s: got '%s', want '%s...%s'", text, m.text, want, why);
    assert_memory_equal(&v, &before, sizeof v); /* unchanged on error */
}

static void parse_every_setting(void **s)
{
    (void)s;
    ch_variant v;
    ch_msg m = {{0}};
    const char *text = "# a comment\n"
                       "variant \"Rich start\"   # named\n"
                       "\n"
                       "edition amsterdam\r\n"
                       "players 4\n"
                       "events off\n"
                       "arrangement quick-battle\n"
                       "cash f400\n"
                       "cash 1 +f100\n"
                       "cash 2 f250\n"
                       "cash -f10\n"
                       "hand 7\n"
                       "HAND-LIMIT 12\n"
                       "open 4\n"
                       "warehouses 40";
    assert_int_equal(parse(&v, text, &m), CH_OK);
    assert_string_equal(v.name, "Rich start");
    assert_int_equal(v.edition, CH_ED_AMSTERDAM);
    assert_int_equal(v.nplayers, 4);
    assert_int_equal(v.events, 0);
    assert_int_equal(v.preset, -1);
    assert_string_equal(v.arrangement, "quick-battle");
    assert_int_equal(v.arrangement_line, 7);
    assert_int_equal(v.cash_all, 400);
    assert_int_equal(v.cash_add_all, -10);
    assert_int_equal(v.cash_add[0], 100);
    assert_int_equal(v.cash[1], 250);
    assert_int_equal(v.hand, 7);
    assert_int_equal(v.hand_limit, 12);
    assert_int_equal(v.open, 4);
    assert_int_equal(v.warehouses, 40);

    ch_setup set;
    ch_setup_default(&set, CH_ED_AMSTERDAM);
    assert_int_equal(ch_variant_apply(&v, &set, &m), CH_OK);
    assert_int_equal(set.no_stock_events, 1);
    ch_board b;
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "quick-battle", &m), CH_OK);
    ch_state st;
    assert_int_equal(ch_new(&st, &set, &b, &m), CH_OK);
    /* a seat's own line wins over the line for every seat; changes add up */
    assert_int_equal(st.pl[0].cash, 400 + 100);
    assert_int_equal(st.pl[1].cash, 250 - 10);
    assert_int_equal(st.pl[2].cash, 400 - 10);
    assert_int_equal(st.pl[3].cash, 400 - 10);
    assert_int_equal(st.total_money, 500 + 240 + 390 + 390);
    for (int p = 0; p < 4; p++)
        assert_int_equal(bs_count_hand(&st, p), 7);
    assert_int_equal(st.max_hand, 12);
    assert_int_equal(st.market_size, 4);
    int open = 0;
    for (int i = 0; i < CH_MARKET_MAX; i++)
        open += st.market[i] != CH_NONE;
    assert_int_equal(open, 4);
    assert_int_equal(st.supply, 40);
    assert_int_equal(st.warehouses_total, 40);
    assert_int_equal(st.nevent_open, 0);
    assert_int_equal(st.nev_deck, 0);
    t_valid(&st);
}

static void parse_golden_age(void **s)
{
    (void)s;
    ch_variant v;
    ch_msg m = {{0}};
    assert_int_equal(parse(&v, "variant short\nedition golden-age\npreset golden-age-first\n"
                                "events on\nwarehouses 30\nopen 5\nhand 6\n", &m), CH_OK);
    ch_setup set;
    ch_setup_default(&set, CH_ED_AMSTERDAM); /* the variant's edition wins */
    set.nplayers = 3;
    set.seed = 9;
    assert_int_equal(ch_variant_apply(&v, &set, &m), CH_OK);
    assert_int_equal(set.edition, CH_ED_GOLDEN_AGE);
    assert_int_equal(set.nplayers, 3);
    assert_int_equal(set.seed, 9);
    assert_int_equal(set.preset, CH_GA_FIRST);
    assert_int_equal(set.events, 1);
    ch_board b;
    assert_int_equal(ch_board_builtin(&b, CH_ED_GOLDEN_AGE, ch_ga_side(CH_GA_FIRST, 3), &m), CH_OK);
    ch_state st;
    assert_int_equal(ch_new(&st, &set, &b, &m), CH_OK);
    assert_int_equal(st.supply, 30);
    assert_int_equal(st.market_size, 5);
    assert_int_equal(bs_count_hand(&st, 0), 6);
    assert_int_equal(st.pl[0].cash, 500); /* the first rules' capital for 3 */
    t_valid(&st);
}

static void parse_refusals(void **s)
{
    (void)s;
    refused("", 1, "starts with 'variant NAME'");
    refused("# only a comment\n", 1, "starts with 'variant NAME'");
    refused("players 4\n", 1, "starts with 'variant NAME'");
    refused("variant\n", 1, "needs a name");
    refused("variant a name far too long for the thirty one bytes\n", 1, "at most 31 bytes");
    refused("variant x\nvariant y\n", 2, "one variant");
    refused("variant x\nhands 7\n", 2, "unknown setting 'hands' (did you mean 'hand'?)");
    refused("variant x\nzebra 7\n", 2, "unknown setting 'zebra'");
    refused("variant x\nhand 0\n", 2, "a starting hand is 1 to 127, not '0'");
    refused("variant x\nhand seven\n", 2, "not 'seven'");
    refused("variant x\nhand 7 8\n", 2, "unexpected '8'");
    refused("variant x\nhand 7\n\nhand 8\n", 4, "hand is set twice (first on line 2)");
    refused("variant x\nopen 6\n", 2, "1 to 5");
    refused("variant x\nwarehouses 256\n", 2, "2 to 255");
    refused("variant x\nwarehouses 1\n", 2, "2 to 255");
    refused("variant x\nplayers 7\n", 2, "2 to 6");
    refused("variant x\nedition chess\n", 2, "unknown edition 'chess'");
    refused("variant x\nevents maybe\n", 2, "on or off");
    refused("variant x\npreset golden\n", 2, "unknown preset");
    refused("variant x\ncash\n", 2, "needs an amount");
    refused("variant x\ncash 400\n", 2, "money is written with an f: f400");
    refused("variant x\ncash 7 f400\n", 2, "a seat is a number from 1 to 6");
    refused("variant x\ncash f0\n", 2, "at least f1");
    refused("variant x\ncash +f0\n", 2, "changes nothing");
    refused("variant x\ncash f100001\n", 2, "f1 to f100000");
    refused("variant x\ncash 1 f300\ncash 1 f400\n", 3, "seat 1's money is set twice");
    refused("variant x\ncash +f1\ncash +f2\n", 3, "every seat's change of money is set twice");
    refused("variant x\narrangement\n", 2, "needs a built-in arrangement");
    refused("variant x\narrangement a\narrangement b\n", 3, "set twice");
    refused("variant x\nprice purchase 60\n", 2, "a price is f1 to f10000, not '60'");
    refused("variant x\nprice purchase f0\n", 2, "a price is f1 to f10000");
    refused("variant x\nprice fuel f60\n", 2, "unknown price 'fuel'");
    refused("variant x\nprice refresh\n", 2, "needs an amount");
    refused("variant x\nprice flags f200\n", 2, "two amounts");
    refused("variant x\nprice refresh f60 f70\n", 2, "unexpected 'f70'");
    refused("variant x\nprice refresh f60\nprice refresh f70\n", 3, "price refresh is set twice (first on line 2)");
    refused("variant x\nedition amsterdam\nprice flags f1 f2\n", 3, "flags are The Golden Age's");
    refused("variant x\nedition golden-age\nprice action f60\n", 3, "no action cards");
    refused("variant x\nend turn 30\n", 2, "unknown end 'turn'");
    refused("variant x\nend turns 0\n", 2, "turn 1 to 65535");
    refused("variant x\nend turns 30 31\n", 2, "needs one value");
    refused("variant x\nend value 250\n", 2, "written f250");
    refused("variant x\nedition amsterdam\nend value f400\n", 3, "f21 to f300");
    refused("variant x\nend turns 9\nend turns 10\n", 3, "end turns is set twice");
    refused("variant x\nedition amsterdam\npreset golden-age\n", 3, "Building Amsterdam");
    refused("variant x\npreset golden-age\nedition amsterdam\n", 2, "Building Amsterdam");
    refused("variant x\nedition golden-age\nhand-limit 9\n", 3, "no hand limit");
    refused("variant x\nedition amsterdam\nplayers 6\n", 3, "2 to 5 players");
    refused("variant x\nhand 9\nhand-limit 8\n", 3, "over the hand limit");
    refused("variant x\nplayers 3\ncash 4 f100\n", 3, "seat 4's money is set, but the variant is for 3");
    char nul[] = "variant x\nhand 7\0\n";
    ch_variant v;
    ch_msg m = {{0}};
    assert_int_equal(ch_variant_parse(&v, nul, sizeof nul - 1, "v.variant", &m), CH_EFORMAT);
    assert_non_null(strstr(m.text, "v.variant:2: "));
    char *long_line = malloc(2000);
    memcpy(long_line, "variant x\nhand ", 15);
    memset(long_line + 15, '7', 1500);
    long_line[1515] = '\0';
    refused(long_line, 2, "longer than 1023");
    free(long_line);
}

/* What ch_variant_apply and ch_new refuse: the game the setup asks for. */
static void apply_and_new_refusals(void **s)
{
    (void)s;
    ch_variant v;
    ch_msg m = {{0}};
    ch_setup set;
    assert_int_equal(parse(&v, "variant x\ncash 5 f100\n", &m), CH_OK);
    ch_setup_default(&set, CH_ED_AMSTERDAM);
    set.nplayers = 4;
    ch_setup before = set;
    assert_int_equal(ch_variant_apply(&v, &set, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "seat 5's money"));
    assert_memory_equal(&set, &before, sizeof set);

    assert_int_equal(parse(&v, "variant x\ncash -f400\n", &m), CH_OK);
    assert_int_equal(ch_variant_apply(&v, &set, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "would start with f-100"));

    assert_int_equal(parse(&v, "variant x\npreset golden-age\n", &m), CH_OK);
    assert_int_equal(ch_variant_apply(&v, &set, &m), CH_EINVAL);
    assert_int_equal(parse(&v, "variant x\nhand-limit 9\n", &m), CH_OK);
    ch_setup ga;
    ch_setup_default(&ga, CH_ED_GOLDEN_AGE);
    assert_int_equal(ch_variant_apply(&v, &ga, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "has none"));
    assert_int_equal(parse(&v, "variant x\nhand 16\n", &m), CH_OK);
    assert_int_equal(ch_variant_apply(&v, &set, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "over the hand limit of 15"));

    /* ch_new on its own: a setup written by hand */
    ch_board b;
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &m), CH_OK);
    ch_state st;
    memset(&st, 0, sizeof st);
    ch_setup bad = before;
    bad.hand = 30; /* 4 x 30 + 5 > 96 plots */
    bad.hand_limit = 40;
    assert_int_equal(ch_new(&st, &bad, &b, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "too few plots"));
    bad = before;
    bad.warehouses = 300;
    assert_int_equal(ch_new(&st, &bad, &b, &m), CH_EINVAL);
    bad = before;
    bad.open = 6;
    assert_int_equal(ch_new(&st, &bad, &b, &m), CH_EINVAL);
    bad = before;
    bad.cash[0] = CH_VARIANT_CASH_MAX + 1;
    assert_int_equal(ch_new(&st, &bad, &b, &m), CH_EINVAL);
    bad = before;
    bad.hand_limit = 128;
    assert_int_equal(ch_new(&st, &bad, &b, &m), CH_EINVAL);
    bad = before;
    bad.no_stock_events = 2;
    assert_int_equal(ch_new(&st, &bad, &b, &m), CH_EINVAL);
    ch_state zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(&st, &zero, sizeof st); /* nothing written */
}

/* The rulebook's setup is what a setup with no variant setting gives. */
static void defaults_unchanged(void **s)
{
    (void)s;
    ch_variant v;
    ch_msg m = {{0}};
    assert_int_equal(parse(&v, "variant nothing\n", &m), CH_OK);
    for (int n = 2; n <= 5; n++) {
        ch_setup a, b;
        ch_setup_default(&a, CH_ED_AMSTERDAM);
        a.nplayers = n;
        a.seed = 77;
        b = a;
        assert_int_equal(ch_variant_apply(&v, &b, &m), CH_OK);
        assert_memory_equal(&a, &b, sizeof a);
    }
}

/* A state from a variant's text on the edition's usual board. */
static void new_from(ch_state *st, const char *text, int edition, int players, uint64_t seed)
{
    ch_variant v;
    ch_msg m = {{0}};
    if (parse(&v, text, &m) != CH_OK)
        fail_msg("%s", m.text);
    ch_setup set;
    ch_setup_default(&set, edition);
    set.nplayers = players;
    set.seed = seed;
    if (ch_variant_apply(&v, &set, &m) != CH_OK)
        fail_msg("%s", m.text);
    ch_board b;
    const char *arr = edition == CH_ED_GOLDEN_AGE ? ch_ga_side(set.preset, players) : "standard";
    assert_int_equal(ch_board_builtin(&b, edition, arr, &m), CH_OK);
    if (ch_new(st, &set, &b, &m) != CH_OK)
        fail_msg("%s", m.text);
}

/* The cash a legal move of the decider's changes, found by its text's first word. */
static int cost_of(const ch_state *st, const char *first_word)
{
    ch_move mv[512];
    int p = t_decider(st);
    int n = ch_legal(st, p, mv, 512);
    for (int i = 0; i < n; i++) {
        char text[128];
        ch_move_str(st, mv[i], text, sizeof text);
        if (strncmp(text, first_word, strlen(first_word)) == 0) {
            ch_state c = *st;
            ch_msg m;
            assert_int_equal(ch_apply(&c, p, mv[i], &m), CH_OK);
            return st->pl[p].cash - c.pl[p].cash;
        }
    }
    return -1;
}

/* Prices as data (docs/variants.md, "price"): the rulebook's without a
 * line; a variant's are charged by the moves, kept by JSON and positions,
 * and refused where the edition has no such price. */
static void prices_charged(void **s)
{
    (void)s;
    ch_state st;
    new_from(&st, "variant none\n", CH_ED_AMSTERDAM, 4, 5);
    assert_int_equal(st.prices.purchase, 50);
    assert_int_equal(st.prices.refresh, 100);
    assert_int_equal(st.prices.action, 100);
    assert_int_equal(st.prices.stock_min, 50);
    assert_int_equal(cost_of(&st, "draw"), 50);
    assert_int_equal(cost_of(&st, "refresh"), 100);
    new_from(&st, "variant dear\nprice purchase f70\nprice refresh f130\nprice action f20\n"
                  "price stock-min f80\n", CH_ED_AMSTERDAM, 4, 5);
    assert_int_equal(cost_of(&st, "draw"), 70);
    assert_int_equal(cost_of(&st, "refresh"), 130);
    assert_int_equal(st.prices.action, 20);
    assert_int_equal(st.prices.stock_min, 80);
    /* JSON and a position keep them; a rulebook game's JSON has no prices */
    ch_msg m = {{0}};
    char *j = ch_state_to_json(&st);
    assert_non_null(strstr(j, "\"prices\""));
    ch_state back;
    assert_int_equal(ch_state_from_json(&back, j, &m), CH_OK);
    assert_memory_equal(&back, &st, sizeof st);
    ch_free(j);
    char *pos = ch_position_write(&st, -1);
    assert_non_null(strstr(pos, "price purchase f70\n"));
    ch_state again;
    if (ch_position_read(&again, pos, strlen(pos), "p", &m) != CH_OK)
        fail_msg("%s\n%s", m.text, pos);
    assert_memory_equal(&again.prices, &st.prices, sizeof st.prices);
    ch_free(pos);
    ch_state plain;
    new_from(&plain, "variant none\n", CH_ED_AMSTERDAM, 4, 5);
    j = ch_state_to_json(&plain);
    assert_null(strstr(j, "\"prices\""));
    ch_free(j);
    /* a bad price in JSON is refused with its path */
    j = ch_state_to_json(&st);
    char *at = strstr(j, "\"purchase\": 70");
    assert_non_null(at);
    memcpy(at, "\"purchase\": -7", 14);
    assert_int_not_equal(ch_state_from_json(&back, j, &m), CH_OK);
    if (!strstr(m.text, "purchase"))
        fail_msg("%s", m.text);
    ch_free(j);
    /* The Golden Age: its purchase and refresh, its flags */
    new_from(&st, "variant ga\nedition golden-age\nprice flags f150 f250\nprice refresh f10\n",
             CH_ED_GOLDEN_AGE, 4, 3);
    assert_int_equal(st.prices.flag[0], 150);
    assert_int_equal(st.prices.flag[1], 250);
    assert_int_equal(st.prices.action, 0);
    int c = cost_of(&st, "refresh");
    assert_int_equal(c, 10); /* the refresh itself; its purchase follows as a move */
    /* the setup's bounds, for a program without a file */
    ch_setup set;
    ch_setup_default(&set, CH_ED_AMSTERDAM);
    set.prices.flag[0] = 100;
    ch_board b;
    assert_int_equal(ch_board_builtin(&b, CH_ED_AMSTERDAM, "standard", &m), CH_OK);
    assert_int_equal(ch_new(&st, &set, &b, &m), CH_EINVAL);
    assert_non_null(strstr(m.text, "no flags"));
    ch_setup_default(&set, CH_ED_AMSTERDAM);
    set.prices.purchase = CH_PRICE_MAX + 1;
    assert_int_equal(ch_new(&st, &set, &b, &m), CH_EINVAL);
}

/* End conditions as data (docs/variants.md, "end"): after turn N, or after
 * the turn in which a company reaches a value; games end there, and never
 * before the rulebook's own end would have come. */
static void ends_honoured(void **s)
{
    (void)s;
    for (int ed = 0; ed < 2; ed++)
        for (uint64_t seed = 1; seed <= 4; seed++) {
            ch_state st;
            new_from(&st, ed ? "variant t\nedition golden-age\nend turns 12\n" : "variant t\nend turns 12\n",
                     ed ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM, 3, seed);
            assert_int_equal(st.end_turns, 12);
            uint64_t rng = seed * 31;
            int steps = 0;
            while (t_random_step(&st, &rng) && steps < 20000)
                steps++;
            assert_int_equal(t_decider(&st), -1);
            assert_true(st.over);
            assert_true(st.turn_no <= 12);
            /* the game went to turn 12 unless the rulebook ended it sooner */
            if (st.turn_no < 12)
                assert_true(st.end_triggered || st.passes >= st.nplayers);
            t_valid(&st);
        }
    int stopped_by_value = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        ch_state st;
        new_from(&st, "variant v\nend value f100\n", CH_ED_AMSTERDAM, 4, seed);
        uint64_t rng = seed * 17;
        int steps = 0, turn = st.turn_no, reached_at = 0;
        while (!st.over && t_random_step(&st, &rng) && steps < 20000) {
            steps++;
            for (int c = 0; c < st.ncompanies && !reached_at; c++)
                if (st.co[c].on_chart && st.co[c].value >= 100)
                    reached_at = st.turn_no;
            turn = st.turn_no;
        }
        assert_true(st.over);
        if (reached_at) {
            /* over at the end of the turn in which a value reached f100 (or
               of a later one: a value may fall again within that turn) */
            stopped_by_value += turn == reached_at;
        }
        t_valid(&st);
    }
    assert_true(stopped_by_value >= 3);
}

/* Every variant shipped in data/variants/: a whole random game under the
 * debug checks, and the state through JSON and a position unchanged. */
static void shipped_variants_play(void **s)
{
    (void)s;
    const char *names[] = {"rich-start", "small-hand", "no-events", "short-game", "first-seat-bonus",
                           "golden-age-short", "dear-market", "forty-turns"};
    const char *dir = getenv("CH_DATA_DIR");
    assert_non_null(dir);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/variants/%s.variant", dir, names[i]);
        char *text = t_slurp(path);
        if (!text)
            fail_msg("cannot read %s", path);
        ch_variant v;
        ch_msg m = {{0}};
        if (ch_variant_parse(&v, text, strlen(text), path, &m) != CH_OK)
            fail_msg("%s", m.text);
        free(text);
        for (uint64_t seed = 1; seed <= 3; seed++) {
            ch_setup set;
            ch_setup_default(&set, v.edition >= 0 ? v.edition : CH_ED_AMSTERDAM);
            set.nplayers = 3 + (int)seed % 2;
            set.seed = seed;
            if (ch_variant_apply(&v, &set, &m) != CH_OK)
                fail_msg("%s: %s", names[i], m.text);
            ch_board b;
            const char *arr = v.arrangement[0] ? v.arrangement
                              : set.edition == CH_ED_GOLDEN_AGE ? ch_ga_side(set.preset, set.nplayers)
                                                                : "standard";
            assert_int_equal(ch_board_builtin(&b, set.edition, arr, &m), CH_OK);
            ch_state st;
            if (ch_new(&st, &set, &b, &m) != CH_OK)
                fail_msg("%s: %s", names[i], m.text);
            uint64_t rng = seed * 7919;
            int steps = 0;
            while (t_random_step(&st, &rng) && steps < 20000) {
                steps++;
                if (steps % 97 == 0) {
                    char *j = ch_state_to_json(&st);
                    ch_state back;
                    assert_int_equal(ch_state_from_json(&back, j, &m), CH_OK);
                    assert_memory_equal(&back, &st, sizeof st);
                    ch_free(j);
                    char *pos = ch_position_write(&st, -1);
                    assert_non_null(pos);
                    ch_state again;
                    if (ch_position_read(&again, pos, strlen(pos), names[i], &m) != CH_OK)
                        fail_msg("%s: %s\n%s", names[i], m.text, pos);
                    assert_int_equal(again.market_size, st.market_size);
                    assert_int_equal(again.max_hand, st.max_hand);
                    assert_int_equal(again.warehouses_total, st.warehouses_total);
                    assert_int_equal(again.supply, st.supply);
                    assert_int_equal(again.nevent_open, st.nevent_open);
                    ch_free(pos);
                }
            }
            assert_int_equal(t_decider(&st), -1);
            t_valid(&st);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_every_setting), cmocka_unit_test(parse_golden_age),
        cmocka_unit_test(parse_refusals),      cmocka_unit_test(apply_and_new_refusals),
        cmocka_unit_test(defaults_unchanged),  cmocka_unit_test(shipped_variants_play),
        cmocka_unit_test(prices_charged),      cmocka_unit_test(ends_honoured),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
