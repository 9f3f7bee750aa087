/* test_json.c: tests of the JSON documents (src/core/json.c): the full state
 * round-trips byte for byte (fresh games of 2 to 5 players on every built-in
 * arrangement, and every state along 100 random games), the text is stable
 * under a second round trip, players' views leave out every hidden card of
 * the other players, the deck order, the level reserve, the RNG and the seed,
 * and malformed or inconsistent documents are refused with CH_EJSON, a
 * message naming the JSON path, and the target state left unchanged. The
 * Golden Age: fresh games (2 to 6 players, both presets, event cards on and
 * off) and states along 30 random games round-trip byte for byte, and views
 * hide the other players' hands and stock holdings but show the bank's
 * counts, the flags and the cash.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <jansson.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chartered.h"

/* ---- helpers ---------------------------------------------------------------- */

static uint64_t rnd(uint64_t *s)
{
    uint64_t x = *s += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

static void new_game(ch_state *st, int players, const char *arrangement, uint64_t seed)
{
    ch_setup s;
    ch_board b;
    ch_msg m = {{0}};
    ch_setup_default(&s, CH_ED_AMSTERDAM);
    s.nplayers = players;
    s.seed = seed;
    if (ch_board_builtin(&b, CH_ED_AMSTERDAM, arrangement, &m) != CH_OK)
        fail_msg("ch_board_builtin(%s): %s", arrangement, m.text);
    if (ch_new(st, &s, &b, &m) != CH_OK)
        fail_msg("ch_new: %s", m.text);
}

/* The full state round-trips to the same bytes, and (when asked) its text
 * is stable under a second round trip. */
static void check_roundtrip(const ch_state *st, int text_too)
{
    char *text = ch_state_to_json(st);
    assert_non_null(text);
    ch_state *back = malloc(sizeof *back);
    assert_non_null(back);
    memset(back, 0xA5, sizeof *back);
    ch_msg m = {{0}};
    int rc = ch_state_from_json(back, text, &m);
    if (rc != CH_OK)
        fail_msg("round trip refused: %s", m.text);
    if (memcmp(back, st, sizeof *st) != 0) {
        const unsigned char *a = (const unsigned char *)st, *b = (const unsigned char *)back;
        size_t i = 0;
        while (a[i] == b[i])
            i++;
        fail_msg("round trip differs at byte offset %zu (%u != %u)", i, a[i], b[i]);
    }
    if (text_too) {
        char *again = ch_state_to_json(back);
        assert_non_null(again);
        assert_string_equal(text, again);
        ch_free(again);
    }
    ch_free(text);
    free(back);
}

/* Card names as the documents write them, from the full state's card table. */
typedef struct names {
    char n[CH_MAX_CARDS][48];
} names;

static void card_names_of(const ch_state *st, names *out)
{
    char *text = ch_state_to_json(st);
    assert_non_null(text);
    json_error_t e;
    json_t *root = json_loads(text, 0, &e);
    assert_non_null(root);
    json_t *cards = json_object_get(root, "cards");
    assert_int_equal(json_array_size(cards), st->ncards);
    for (int c = 0; c < st->ncards; c++) {
        const char *n = json_string_value(json_object_get(json_array_get(cards, (size_t)c), "name"));
        assert_non_null(n);
        snprintf(out->n[c], sizeof out->n[c], "%s", n);
    }
    json_decref(root);
    ch_free(text);
}

/* Keys whose strings name plots (which share their names with plot cards), or
 * the static card table: public, and not card positions. */
static int plot_key(const char *key)
{
    static const char *const keys[] = {"board", "cards", "plot", "plot2", "hq", NULL};
    for (int i = 0; keys[i]; i++)
        if (key && strcmp(key, keys[i]) == 0)
            return 1;
    return 0;
}

/* Fails when a string of the tree (outside plot positions) is a forbidden
 * card name (a key of forbid). */
static void walk_forbidden(json_t *v, const char *key, json_t *forbid, int skip_offer,
                           const char *where)
{
    if (plot_key(key))
        return;
    if (skip_offer && key && strcmp(key, "offer") == 0)
        return;
    if (json_is_string(v)) {
        const char *s = json_string_value(v);
        if (json_object_get(forbid, s))
            fail_msg("%s: hidden card %s appears under \"%s\"", where, s, key ? key : "");
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) walk_forbidden(e, key, forbid, skip_offer, where);
    } else if (json_is_object(v)) {
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e) walk_forbidden(e, k, forbid, skip_offer, where);
    }
}

static int card_set_has(const uint64_t s[2], int c) { return (int)(s[c >> 6] >> (c & 63) & 1); }
static void card_set_add(uint64_t s[2], int c) { s[c >> 6] |= (uint64_t)1 << (c & 63); }

/* The view of player p (or -1) shows no hidden card and no hidden order. */
static void check_view(const ch_state *st, int p, const names *nm)
{
    char *text = ch_view_to_json(st, p);
    assert_non_null(text);
    json_error_t e;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    if (!root)
        fail_msg("view of %d is not JSON: line %d: %s", p, e.line, e.text);
    assert_string_equal(json_string_value(json_object_get(root, "format")), "chartered-view");
    assert_int_equal(json_integer_value(json_object_get(root, "viewer")), p);
    assert_null(json_object_get(root, "rng"));
    assert_null(json_object_get(root, "seed"));
    assert_null(json_object_get(root, "leftovers"));
    json_t *piles = json_object_get(root, "piles");
    assert_null(json_object_get(piles, "deck"));
    assert_null(json_object_get(piles, "reserve"));
    assert_null(json_object_get(piles, "event_deck"));
    assert_int_equal(json_integer_value(json_object_get(piles, "deck_count")), st->ndeck);
    assert_int_equal(json_integer_value(json_object_get(piles, "reserve_count")), st->nreserve);
    assert_int_equal(json_integer_value(json_object_get(piles, "event_deck_count")), st->nev_deck);
    assert_null(strstr(text, "\"deck\""));
    assert_null(strstr(text, "\"rng\""));

    /* What p may not see: other players' hidden hand cards, the deck, the
     * reserve, and the Veilinge look cards unless p is picking them. */
    uint64_t forbid[2] = {0, 0};
    for (int q = 0; q < st->nplayers; q++)
        if (q != p)
            for (int c = 0; c < st->ncards; c++)
                if (card_set_has(st->pl[q].hand, c) && !card_set_has(st->pl[q].known, c))
                    card_set_add(forbid, c);
    for (int i = 0; i < st->ndeck; i++)
        card_set_add(forbid, st->deck[i]);
    for (int i = 0; i < st->nreserve; i++)
        card_set_add(forbid, st->reserve[i]);
    int picker = st->phase == CH_PH_PICK && st->au_option == 3 && p >= 0 && p == st->actor;
    if (st->au_option == 3 && !picker)
        for (int i = 0; i < st->nlook; i++)
            card_set_add(forbid, st->look[i]);
    /* The two parties of a Coopmanscappen offer see the whole offer. */
    int party = p >= 0 && (p == st->active || p == st->offer.to) &&
                (st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND);
    char where[64];
    snprintf(where, sizeof where, "view of %d, phase %s", p, ch_phase_name(st->phase));
    json_t *fmap = json_object();
    for (int c = 0; c < st->ncards; c++)
        if (card_set_has(forbid, c))
            json_object_set_new(fmap, nm->n[c], json_true());
    walk_forbidden(root, NULL, fmap, party, where);
    json_decref(fmap);

    /* Players: hand counts for all, hands only for the viewer. */
    json_t *players = json_object_get(root, "players");
    assert_int_equal(json_array_size(players), st->nplayers);
    for (int q = 0; q < st->nplayers; q++) {
        json_t *pl = json_array_get(players, (size_t)q);
        assert_int_equal(json_integer_value(json_object_get(pl, "hand_count")), ch_hand_count(st, q));
        json_t *hand = json_object_get(pl, "hand");
        if (q == p) {
            assert_non_null(hand);
            assert_int_equal(json_array_size(hand), ch_hand_count(st, q));
        } else {
            assert_null(hand);
        }
    }
    /* Sealed bids of others stay hidden until revealed. */
    json_t *bids = json_object_get(json_object_get(root, "event"), "bids");
    for (int q = 0; q < st->nplayers; q++)
        if (q != p && !st->bid_revealed)
            assert_true(json_is_null(json_array_get(bids, (size_t)q)));
    json_decref(root);
    ch_free(text);
}

/* ---- tests -------------------------------------------------------------------- */

static void test_fresh_games(void **state)
{
    (void)state;
    const char *const *arr = ch_board_builtin_names(CH_ED_AMSTERDAM);
    assert_non_null(arr);
    int n = 0;
    for (int a = 0; arr[a]; a++)
        for (int players = 2; players <= 5; players++) {
            ch_state st;
            new_game(&st, players, arr[a], 1000u + (uint64_t)(a * 10 + players));
            check_roundtrip(&st, 1);
            n++;
        }
    assert_true(n >= 4 * 4);
}

static void test_random_games(void **state)
{
    (void)state;
    const char *const *arr = ch_board_builtin_names(CH_ED_AMSTERDAM);
    int narr = 0;
    while (arr[narr])
        narr++;
    enum { CAP = 4096 };
    ch_move *buf = malloc(CAP * sizeof *buf);
    names *nm = malloc(sizeof *nm);
    assert_non_null(buf);
    assert_non_null(nm);
    uint64_t r = 12345;
    long states = 0, views = 0;
    for (int g = 0; g < 100; g++) {
        ch_state st;
        int players = 2 + g % 4;
        new_game(&st, players, arr[g % narr], 7u + (uint64_t)g * 7919u);
        card_names_of(&st, nm);
        int prev = -1, seen[CH_PH_COUNT] = {0};
        for (int step = 0; step < 5000; step++) {
            /* Every 20th state round-trips, and so does the first entry into
             * each phase in each game; every view of the first entry into
             * each event phase is checked, and one view (each viewer in turn)
             * of every 25th state. (All states and views would take minutes
             * in a debug build: a round trip or a view costs about a
             * millisecond.) */
            int entering = st.phase != prev;
            prev = st.phase;
            int nth = entering ? ++seen[st.phase] : 99;
            if (step % 20 == 0 || nth == 1 || st.phase == CH_PH_OVER) {
                check_roundtrip(&st, states % 4 == 0);
                states++;
            }
            if (st.phase >= CH_PH_EVENT && nth == 1) {
                for (int p = -1; p < st.nplayers; p++)
                    check_view(&st, p, nm);
                views += st.nplayers + 1;
            } else if (step % 25 == 0) {
                check_view(&st, (step / 25) % (st.nplayers + 1) - 1, nm);
                views++;
            }
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            assert_true(mask != 0);
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, buf, CAP);
            assert_true(n > 0 && n <= CAP);
            ch_move m = buf[rnd(&r) % (uint64_t)n];
            ch_msg why = {{0}};
            if (ch_apply(&st, p, m, &why) != CH_OK)
                fail_msg("game %d step %d: legal move refused: %s", g, step, why.text);
        }
    }
    assert_true(states > 1000);
    assert_true(views > 1000);
    free(nm);
    free(buf);
}

/* A view during a sealed bid, a Veilinge pick and an offer, built by playing
 * random games until each situation comes up. */
static void test_view_situations(void **state)
{
    (void)state;
    enum { CAP = 4096 };
    ch_move *buf = malloc(CAP * sizeof *buf);
    names *nm = malloc(sizeof *nm);
    assert_non_null(buf);
    assert_non_null(nm);
    uint64_t r = 99;
    int seen_bid = 0, seen_pick = 0, seen_offer = 0;
    for (int g = 0; g < 200 && !(seen_bid && seen_pick && seen_offer); g++) {
        ch_state st;
        new_game(&st, 3 + g % 3, "standard", 500u + (uint64_t)g);
        card_names_of(&st, nm);
        for (int step = 0; step < 5000; step++) {
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            if (st.phase == CH_PH_BID && st.bid_in) {
                seen_bid++;
                /* a bidder's own bid is shown to them, nobody else's */
                int q = __builtin_ctz(st.bid_in);
                char *text = ch_view_to_json(&st, q);
                json_t *root = json_loads(text, 0, NULL);
                json_t *bids = json_object_get(json_object_get(root, "event"), "bids");
                if (!st.bid_revealed)
                    assert_int_equal(json_integer_value(json_array_get(bids, (size_t)q)), st.bid[q]);
                json_decref(root);
                ch_free(text);
            }
            if (st.phase == CH_PH_PICK && st.au_option == 3) {
                seen_pick++;
                for (int p = -1; p < st.nplayers; p++) {
                    char *text = ch_view_to_json(&st, p);
                    json_t *root = json_loads(text, 0, NULL);
                    json_t *piles = json_object_get(root, "piles");
                    if (p == st.actor) {
                        assert_int_equal(json_array_size(json_object_get(piles, "look")), st.nlook);
                    } else {
                        assert_null(json_object_get(piles, "look"));
                        assert_int_equal(json_integer_value(json_object_get(piles, "look_count")),
                                         st.nlook);
                    }
                    json_decref(root);
                    ch_free(text);
                    check_view(&st, p, nm);
                }
            }
            if (st.phase == CH_PH_RESPOND) {
                seen_offer++;
                for (int p = -1; p < st.nplayers; p++)
                    check_view(&st, p, nm);
            }
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, buf, CAP);
            assert_true(n > 0 && n <= CAP);
            /* prefer the events' own moves so that they come up often */
            ch_move m = buf[rnd(&r) % (uint64_t)n];
            for (int i = 0; i < n; i++)
                if (buf[i].type == CH_M_ACTION && buf[i].a == 1 && rnd(&r) % 2 == 0)
                    m = buf[i];
            ch_msg why = {{0}};
            if (ch_apply(&st, p, m, &why) != CH_OK)
                fail_msg("legal move refused: %s", why.text);
        }
    }
    print_message("situations seen: bid %d, pick %d, offer %d\n", seen_bid, seen_pick,
                  seen_offer);
    assert_true(seen_bid);
    free(nm);
    free(buf);
}

/* ---- refused documents ------------------------------------------------------- */

typedef void (*mutator)(json_t *root);

static json_t *at(json_t *root, const char *a, const char *b)
{
    json_t *v = json_object_get(root, a);
    return b ? json_object_get(v, b) : v;
}

static void m_cash_string(json_t *r)
{
    json_object_set_new(json_array_get(at(r, "players", NULL), 2), "cash", json_string("lots"));
}
static void m_missing_supply(json_t *r) { json_object_del(at(r, "table", NULL), "supply"); }
static void m_unknown_card(json_t *r)
{
    json_array_set_new(at(r, "piles", "deck"), 0, json_string("Harbour Z9"));
}
static void m_players_range(json_t *r)
{
    json_object_set_new(at(r, "game", NULL), "player_count", json_integer(9));
}
static void m_companies_short(json_t *r) { json_array_remove(at(r, "companies", NULL), 8); }
static void m_unknown_company(json_t *r)
{
    json_object_set_new(json_object_get(json_array_get(at(r, "players", NULL), 0), "stocks"),
                        "Chocolate", json_integer(1));
}
static void m_card_twice(json_t *r)
{
    json_t *deck = at(r, "piles", "deck");
    json_array_append(deck, json_array_get(deck, 0));
}
static void m_unknown_phase(json_t *r)
{
    json_object_set_new(at(r, "turn", NULL), "phase", json_string("lunch"));
}
static void m_bad_rng(json_t *r) { json_array_set_new(at(r, "rng", NULL), 1, json_string("xyz")); }
static void m_view_format(json_t *r)
{
    json_object_set_new(r, "format", json_string("chartered-view"));
}
static void m_version(json_t *r) { json_object_set_new(r, "version", json_integer(2)); }
static void m_money(json_t *r)
{
    json_t *p0 = json_array_get(at(r, "players", NULL), 0);
    json_object_set_new(p0, "cash",
                        json_integer(json_integer_value(json_object_get(p0, "cash")) + 10));
}
static void m_extra_key(json_t *r) { json_object_set_new(r, "extra", json_true()); }
static void m_bad_adjacent(json_t *r)
{
    json_t *plot0 = json_array_get(at(r, "board", "plots"), 0);
    json_array_set_new(json_object_get(plot0, "adjacent"), 0, json_string("Nowhere A1"));
}
static void m_empty_root(json_t *r) { json_object_clear(r); }
static void m_card_id(json_t *r)
{
    json_object_set_new(json_array_get(at(r, "cards", NULL), 3), "id", json_integer(4));
}
static void m_bidder_twice(json_t *r)
{
    json_t *a = json_array();
    json_array_append_new(a, json_integer(1));
    json_array_append_new(a, json_integer(1));
    json_object_set_new(at(r, "event", NULL), "bidders", a);
}
static void m_seat_range(json_t *r)
{
    json_object_set_new(at(r, "turn", NULL), "active", json_integer(7));
}
static void m_height_negative(json_t *r)
{
    json_object_set_new(json_array_get(at(r, "plots", NULL), 5), "height", json_integer(-1));
}
static void m_market_length(json_t *r) { json_array_append_new(at(r, "piles", "market"), json_null()); }
static void m_bool_type(json_t *r)
{
    json_object_set_new(at(r, "turn", NULL), "over", json_integer(0));
}
static void m_hand_elsewhere(json_t *r)
{
    /* a card of the market also listed in a hand */
    json_t *m0 = json_array_get(at(r, "piles", "market"), 0);
    json_array_append(json_object_get(json_array_get(at(r, "players", NULL), 1), "hand"), m0);
}

typedef struct bad_case {
    const char *name;
    mutator fn;
    const char *expect; /* substring of the message */
} bad_case;

static void expect_refused(const ch_state *st, const char *text, const char *expect, const char *name)
{
    ch_state target = *st, before;
    /* the target is a different state (another seed) so that "unchanged" means something */
    new_game(&target, 3, "standard", 4242);
    memcpy(&before, &target, sizeof before);
    ch_msg m = {{0}};
    int rc = ch_state_from_json(&target, text, &m);
    if (rc != CH_EJSON)
        fail_msg("%s: expected CH_EJSON, got %d (%s)", name, rc, m.text);
    if (!strstr(m.text, expect))
        fail_msg("%s: message \"%s\" does not contain \"%s\"", name, m.text, expect);
    assert_memory_equal(&target, &before, sizeof target);
}

static void test_refused(void **state)
{
    (void)state;
    static const bad_case cases[] = {
        {"cash string", m_cash_string, "players[2].cash: expected an integer, got a string"},
        {"missing key", m_missing_supply, "table.supply: missing key"},
        {"unknown card", m_unknown_card, "piles.deck[0]: unknown card \"Harbour Z9\""},
        {"player count", m_players_range, "game.player_count: 9 is out of range"},
        {"short companies", m_companies_short, "companies: expected 9 entries, got 8"},
        {"unknown company", m_unknown_company, "players[0].stocks.Chocolate: unknown company"},
        {"card twice", m_card_twice, "piles.deck["},
        {"unknown phase", m_unknown_phase, "turn.phase: unknown phase \"lunch\""},
        {"bad rng", m_bad_rng, "rng[1]: "},
        {"view", m_view_format, "format: a player's view cannot be loaded"},
        {"version", m_version, "version: version 2 is not supported"},
        {"money", m_money, "inconsistent state: "},
        {"extra key", m_extra_key, "extra: unexpected key"},
        {"bad adjacent", m_bad_adjacent, "board.plots[0].adjacent[0]: unknown plot \"Nowhere A1\""},
        {"empty root", m_empty_root, "format: missing key"},
        {"card id", m_card_id, "cards[3].id: expected 3"},
        {"bidder twice", m_bidder_twice, "event.bidders[1]: seat 1 is listed twice"},
        {"seat range", m_seat_range, "turn.active: 7 is out of range"},
        {"negative height", m_height_negative, "plots[5].height: -1 is out of range"},
        {"market length", m_market_length, "piles.market: expected 5 entries, got 6"},
        {"bool type", m_bool_type, "turn.over: expected a boolean, got an integer"},
        {"hand and market", m_hand_elsewhere, "players[1].hand["},
    };
    ch_state st;
    new_game(&st, 4, "standard", 77);
    char *text = ch_state_to_json(&st);
    assert_non_null(text);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *root = json_loads(text, 0, NULL);
        assert_non_null(root);
        cases[i].fn(root);
        char *bad = json_dumps(root, 0);
        assert_non_null(bad);
        expect_refused(&st, bad, cases[i].expect, cases[i].name);
        free(bad);
        json_decref(root);
    }
    /* texts that are not JSON, or not an object */
    expect_refused(&st, "{\"format\": ", "line 1, column", "truncated");
    expect_refused(&st, "{\"a\": 1, \"a\": 2}", "line 1", "duplicate key");
    expect_refused(&st, "[1, 2]", "(document): expected an object, got an array", "array");
    expect_refused(&st, "", "line", "empty");
    /* a view is not loadable */
    char *view = ch_view_to_json(&st, 0);
    assert_non_null(view);
    expect_refused(&st, view, "format: a player's view cannot be loaded", "view document");
    ch_free(view);
    ch_free(text);

    /* NULL arguments */
    ch_msg m = {{0}};
    assert_int_equal(ch_state_from_json(NULL, "{}", &m), CH_EINVAL);
    assert_int_equal(ch_state_from_json(&st, NULL, &m), CH_EINVAL);
    assert_null(ch_state_to_json(NULL));
    assert_null(ch_view_to_json(NULL, 0));
    ch_free(NULL);
}

/* Every leaf slot of a document (object member or array entry). */
typedef struct slot {
    json_t *parent;
    const char *key; /* NULL: array entry idx */
    size_t idx;
} slot;

static void collect_slots(json_t *v, slot *out, int *n, int cap)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e) {
            if (*n < cap)
                out[(*n)++] = (slot){v, k, 0};
            collect_slots(e, out, n, cap);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            if (*n < cap)
                out[(*n)++] = (slot){v, NULL, i};
            collect_slots(e, out, n, cap);
        }
    }
}

/* Random damage to documents of states along a few games: every document is
 * either refused with CH_EJSON and the target untouched, or accepted as a
 * state that round-trips and can be played on. Nothing may crash (run under
 * the sanitizers with -DCH_SANITIZE=ON). */
static void test_mutations(void **state)
{
    (void)state;
    enum { CAP = 4096, SLOTS = 20000 };
    ch_move *buf = malloc(CAP * sizeof *buf);
    slot *slots = malloc(SLOTS * sizeof *slots);
    assert_non_null(buf);
    assert_non_null(slots);
    uint64_t r = 4711;
    int accepted = 0, refused = 0;
    for (int it = 0; it < 120; it++) {
        ch_state st;
        new_game(&st, 2 + it % 4, "standard", 900u + (uint64_t)it);
        int steps = (int)(rnd(&r) % 300);
        for (int i = 0; i < steps; i++) {
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, buf, CAP);
            assert_true(n > 0 && n <= CAP);
            ch_msg why = {{0}};
            assert_int_equal(ch_apply(&st, p, buf[rnd(&r) % (uint64_t)n], &why), CH_OK);
        }
        char *text = ch_state_to_json(&st);
        json_t *root = json_loads(text, 0, NULL);
        assert_non_null(root);
        ch_free(text);
        int nmut = 1 + (int)(rnd(&r) % 3);
        for (int k = 0; k < nmut; k++) {
            int ns = 0;
            collect_slots(root, slots, &ns, SLOTS);
            slot *sl = &slots[rnd(&r) % (uint64_t)ns];
            json_t *nv;
            switch (rnd(&r) % 8) {
            case 0: nv = json_integer((json_int_t)(rnd(&r) % 300) - 20); break;
            case 1: nv = json_integer((json_int_t)(rnd(&r) % 3)); break;
            case 2: nv = json_null(); break;
            case 3: nv = json_string("Harbour C1"); break;
            case 4: nv = json_true(); break;
            case 5: nv = json_integer(255); break;
            case 6: nv = json_string("L2#100"); break;
            default: nv = json_array(); break;
            }
            if (sl->key)
                json_object_set_new(sl->parent, sl->key, nv);
            else
                json_array_set_new(sl->parent, sl->idx, nv);
        }
        char *bad = json_dumps(root, 0);
        json_decref(root);
        assert_non_null(bad);
        ch_state target, before;
        memset(&target, 0x5A, sizeof target);
        memcpy(&before, &target, sizeof before);
        ch_msg m = {{0}};
        int rc = ch_state_from_json(&target, bad, &m);
        free(bad);
        if (rc == CH_OK) {
            accepted++;
            check_roundtrip(&target, 1);
            for (int p = -1; p < target.nplayers; p++)
                ch_free(ch_view_to_json(&target, p));
            unsigned mask = 0;
            if (ch_decider(&target, &mask) != CH_DEC_TERMINAL && mask) {
                int p = __builtin_ctz(mask);
                int n = ch_legal(&target, p, buf, CAP);
                if (n > 0 && n <= CAP)
                    ch_apply(&target, p, buf[rnd(&r) % (uint64_t)n], &m);
            }
        } else {
            refused++;
            assert_int_equal(rc, CH_EJSON);
            assert_true(strchr(m.text, ':') != NULL);
            assert_memory_equal(&target, &before, sizeof target);
        }
    }
    assert_true(refused > 0);
    print_message("mutated documents: %d accepted, %d refused\n", accepted, refused);
    free(slots);
    free(buf);
}

/* The documents carry what the brief promises: words, names, hex strings. */
static void test_layout(void **state)
{
    (void)state;
    ch_state st;
    new_game(&st, 4, "standard", 31337);
    char *text = ch_state_to_json(&st);
    json_t *root = json_loads(text, 0, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(at(root, "format", NULL)), "chartered-state");
    assert_int_equal(json_integer_value(at(root, "version", NULL)), 1);
    assert_string_equal(json_string_value(at(root, "edition", NULL)), "amsterdam");
    assert_string_equal(json_string_value(at(root, "seed", NULL)), "0000000000007a69");
    assert_int_equal(json_array_size(at(root, "rng", NULL)), 4);
    assert_string_equal(json_string_value(at(root, "board", "name")), "standard");
    assert_int_equal(json_array_size(at(root, "board", "plots")), ch_state_board(&st)->nplots);
    assert_int_equal(json_array_size(at(root, "piles", "deck")), st.ndeck);
    assert_string_equal(json_string_value(at(root, "turn", "phase")), "turn");
    json_t *co = json_array_get(at(root, "companies", NULL), 0);
    assert_string_equal(json_string_value(json_object_get(co, "name")), "Gunpowder");
    assert_true(json_is_null(json_object_get(co, "hq")));
    /* plot cards are named like their plots, level cards "L2#id" */
    json_t *cards = at(root, "cards", NULL);
    int levels = 0;
    for (int c = 0; c < st.ncards; c++) {
        const char *n = json_string_value(json_object_get(json_array_get(cards, (size_t)c), "name"));
        char plot[64];
        if (st.card_level[c]) {
            char want[16];
            snprintf(want, sizeof want, "L%d#%d", st.card_level[c], c);
            assert_string_equal(n, want);
            levels++;
        } else {
            ch_plot_name(ch_state_board(&st), st.card_plot[c], plot, sizeof plot);
            assert_string_equal(n, plot);
        }
    }
    assert_int_equal(levels, 18);
    json_decref(root);

    /* the spectator's view has no hands at all */
    char *view = ch_view_to_json(&st, -1);
    root = json_loads(view, 0, NULL);
    assert_non_null(root);
    assert_int_equal(json_integer_value(at(root, "viewer", NULL)), -1);
    json_t *players = at(root, "players", NULL);
    for (size_t i = 0; i < json_array_size(players); i++)
        assert_null(json_object_get(json_array_get(players, i), "hand"));
    json_decref(root);
    ch_free(view);
    ch_free(text);
}

/* ---- The Golden Age -------------------------------------------------------------- */

static void new_ga_game(ch_state *st, int players, int preset, int events, uint64_t seed)
{
    ch_setup s;
    ch_board b;
    ch_msg m = {{0}};
    ch_setup_default(&s, CH_ED_GOLDEN_AGE);
    s.nplayers = players;
    s.preset = preset;
    s.events = events;
    s.seed = seed;
    const char *side = ch_ga_side(preset, players);
    assert_non_null(side);
    if (ch_board_builtin(&b, CH_ED_GOLDEN_AGE, side, &m) != CH_OK)
        fail_msg("ch_board_builtin(golden-age, %s): %s", side, m.text);
    if (ch_new(st, &s, &b, &m) != CH_OK)
        fail_msg("ch_new(golden-age, %d players, preset %d, events %d): %s", players, preset,
                 events, m.text);
}

/* The Golden Age view of p on top of check_view: stock holdings only for the
 * viewer (they are private), the bank's count of every enterprise, every
 * flag on the enterprises and every player's flags left (public), and the
 * game's preset and event setting. */
static void check_ga_view(const ch_state *st, int p, const names *nm)
{
    check_view(st, p, nm);
    char *text = ch_view_to_json(st, p);
    assert_non_null(text);
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
    assert_non_null(root);
    assert_string_equal(json_string_value(json_object_get(root, "edition")), "golden-age");
    json_t *game = json_object_get(root, "game");
    assert_int_equal(json_integer_value(json_object_get(game, "preset")), st->preset);
    assert_int_equal(json_is_true(json_object_get(game, "events_on")), st->events_on);
    json_t *players = json_object_get(root, "players");
    for (int q = 0; q < st->nplayers; q++) {
        json_t *pl = json_array_get(players, (size_t)q);
        json_t *stocks = json_object_get(pl, "stocks");
        if (q == p) {
            assert_true(json_is_object(stocks));
            for (int c = 0; c < st->ncompanies; c++)
                assert_int_equal(
                    json_integer_value(json_object_get(stocks, ch_company_name(st, c))),
                    st->pl[q].stock[c]);
        } else if (stocks) {
            fail_msg("view of %d (phase %s) shows player %d's stocks", p,
                     ch_phase_name(st->phase), q);
        }
        assert_int_equal(json_integer_value(json_object_get(pl, "flags")), st->pl[q].flags);
        assert_int_equal(json_integer_value(json_object_get(pl, "cash")), st->pl[q].cash);
    }
    json_t *cos = json_object_get(root, "companies");
    assert_int_equal(json_array_size(cos), st->ncompanies);
    for (int c = 0; c < st->ncompanies; c++) {
        json_t *co = json_array_get(cos, (size_t)c);
        json_t *bank = json_object_get(co, "bank");
        assert_true(json_is_integer(bank));
        assert_int_equal(json_integer_value(bank), st->co[c].bank);
        json_t *flag = json_object_get(co, "flag");
        if (st->co[c].flag)
            assert_int_equal(json_integer_value(flag), st->co[c].flag - 1);
        else
            assert_true(json_is_null(flag));
    }
    /* no stock holding of another player under any key: the merger and
     * event context holds none in The Golden Age either */
    json_decref(root);
    ch_free(text);
}

/* Fresh Golden Age games round-trip byte for byte: 2 to 6 players, both
 * presets, with and without event cards, several seeds. */
static void test_ga_fresh_games(void **state)
{
    (void)state;
    int n = 0;
    for (int players = 2; players <= 6; players++)
        for (int preset = CH_GA_PRINTED; preset <= CH_GA_FIRST; preset++)
            for (int events = 0; events <= 1; events++)
                for (uint64_t seed = 1; seed <= 3; seed++) {
                    ch_state st;
                    new_ga_game(&st, players, preset, events,
                                seed * 1000u + (uint64_t)(players * 4 + preset * 2 + events));
                    assert_int_equal(st.edition, CH_ED_GOLDEN_AGE);
                    assert_int_equal(st.preset, preset);
                    assert_int_equal(st.events_on, events);
                    check_roundtrip(&st, 1);
                    n++;
                }
    assert_int_equal(n, 5 * 2 * 2 * 3);
}

/* States along random Golden Age games round-trip byte for byte, and every
 * player's view (and a spectator's) hides the other players' hands and
 * stocks but shows the bank's counts. Every state of the first game is
 * checked; later games check every 20th state, the first two entries into
 * each phase and the first six into the forced option and stock-sale events,
 * with every view at the first entry into a phase. (A round trip or a view
 * costs about a millisecond.) */
static void test_ga_random_games(void **state)
{
    (void)state;
    enum { CAP = 4096 };
    ch_move *buf = malloc(CAP * sizeof *buf);
    names *nm = malloc(sizeof *nm);
    assert_non_null(buf);
    assert_non_null(nm);
    uint64_t r = 4711;
    long states = 0, views = 0, ga_phase_states = 0;
    int seen[CH_PH_COUNT] = {0};
    for (int g = 0; g < 30; g++) {
        int players = 2 + g % 5, preset = (g / 5) % 2, events = (g / 10) % 2 ? 1 : g % 3 == 0;
        ch_state st;
        new_ga_game(&st, players, preset, events, 31u + (uint64_t)g * 7919u);
        card_names_of(&st, nm);
        int prev = -1, nth_in_game[CH_PH_COUNT] = {0};
        for (int step = 0; step < 5000; step++) {
            int entering = st.phase != prev;
            prev = st.phase;
            int nth = entering ? ++nth_in_game[st.phase] : 99;
            seen[st.phase]++;
            int ga_phase = st.phase == CH_PH_FORCED || st.phase == CH_PH_EVSELL;
            if (g < 1 || step % 20 == 0 || nth <= 2 || (ga_phase && nth <= 6) ||
                st.phase == CH_PH_OVER) {
                check_roundtrip(&st, states % 4 == 0);
                states++;
                ga_phase_states += ga_phase;
            }
            if (nth == 1 || (ga_phase && nth == 2) || st.phase == CH_PH_OVER) {
                for (int p = -1; p < st.nplayers; p++)
                    check_ga_view(&st, p, nm);
                views += st.nplayers + 1;
            } else if (step % 25 == 0) {
                check_ga_view(&st, (step / 25) % (st.nplayers + 1) - 1, nm);
                views++;
            }
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            assert_true(mask != 0);
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, buf, CAP);
            assert_true(n > 0 && n <= CAP);
            ch_move m = buf[rnd(&r) % (uint64_t)n];
            ch_msg why = {{0}};
            if (ch_apply(&st, p, m, &why) != CH_OK)
                fail_msg("golden-age game %d step %d: legal move refused: %s", g, step, why.text);
        }
        assert_int_equal(st.phase, CH_PH_OVER);
    }
    print_message("golden-age: %ld states round-tripped (%ld in forced/event-sell), "
                  "%ld views checked\n",
                  states, ga_phase_states, views);
    assert_true(seen[CH_PH_FREE] > 0);
    assert_true(seen[CH_PH_EVSELL] > 0);
    assert_true(seen[CH_PH_TRADE] > 0);
    assert_true(states > 500);
    assert_true(views > 500);
    free(nm);
    free(buf);
}

/* A view of a Golden Age game in which everybody holds stocks: each player
 * sees their own holdings only, and a spectator nobody's; the text of a
 * view never carries another player's stock counts. */
static void test_ga_view_stocks(void **state)
{
    (void)state;
    enum { CAP = 4096 };
    ch_move *buf = malloc(CAP * sizeof *buf);
    names *nm = malloc(sizeof *nm);
    assert_non_null(buf);
    assert_non_null(nm);
    uint64_t r = 1234;
    int found = 0;
    for (int g = 0; g < 50 && !found; g++) {
        ch_state st;
        new_ga_game(&st, 3 + g % 4, g % 2, 0, 900u + (uint64_t)g);
        card_names_of(&st, nm);
        for (int step = 0; step < 5000; step++) {
            int all_hold = 1;
            for (int q = 0; q < st.nplayers && all_hold; q++) {
                int k = 0;
                for (int c = 0; c < st.ncompanies; c++)
                    k += st.pl[q].stock[c];
                all_hold = k > 0;
            }
            if (all_hold && st.phase == CH_PH_TURN) {
                found = 1;
                for (int p = -1; p < st.nplayers; p++) {
                    check_ga_view(&st, p, nm);
                    char *text = ch_view_to_json(&st, p);
                    json_t *root = json_loads(text, 0, NULL);
                    assert_non_null(root);
                    json_t *players = json_object_get(root, "players");
                    int shown = 0;
                    for (int q = 0; q < st.nplayers; q++)
                        shown += json_object_get(json_array_get(players, (size_t)q), "stocks") != NULL;
                    assert_int_equal(shown, p >= 0 ? 1 : 0);
                    json_decref(root);
                    ch_free(text);
                }
                /* the full state shows every holding */
                char *text = ch_state_to_json(&st);
                json_t *root = json_loads(text, 0, NULL);
                json_t *players = json_object_get(root, "players");
                for (int q = 0; q < st.nplayers; q++)
                    assert_non_null(json_object_get(json_array_get(players, (size_t)q), "stocks"));
                json_decref(root);
                ch_free(text);
                break;
            }
            unsigned mask = 0;
            if (ch_decider(&st, &mask) == CH_DEC_TERMINAL)
                break;
            int p = __builtin_ctz(mask);
            int n = ch_legal(&st, p, buf, CAP);
            assert_true(n > 0 && n <= CAP);
            /* prefer buying, so that every player comes to hold stocks */
            ch_move m = buf[rnd(&r) % (uint64_t)n];
            for (int i = 0; i < n; i++)
                if (buf[i].type == CH_M_BUY && rnd(&r) % 2 == 0)
                    m = buf[i];
            ch_msg why = {{0}};
            if (ch_apply(&st, p, m, &why) != CH_OK)
                fail_msg("legal move refused: %s", why.text);
        }
    }
    assert_true(found);
    free(nm);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_fresh_games),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_view_situations),
        cmocka_unit_test(test_random_games),
        cmocka_unit_test(test_ga_fresh_games),
        cmocka_unit_test(test_ga_view_stocks),
        cmocka_unit_test(test_ga_random_games),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
