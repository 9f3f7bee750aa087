/* test_hidden_property.c: hidden information as a property, not a list
 * (issue 28, "What to build" 2; docs/rules.md "Open and hidden information",
 * Rulings R-09 and G-07).
 *
 * Along random and greedy games of both editions (Building Amsterdam with 2
 * to 5 players, The Golden Age under both presets, with and without event
 * cards), at each decision the deciding seat and, at some decisions, another
 * seat are taken in turn: everything the seat cannot see is re-dealt
 * (ch_determinize for that seat, several seeds), and everything the project
 * sends or shows that seat must come out byte for byte the same from the
 * re-dealt state as from the true one:
 *   - the view (ch_view_to_json, and the compact view of the state frame),
 *   - the position copy written for that seat (ch_position_write),
 *   - the legal moves in notation and in words in every language
 *     (ch_move_str, chx_move_text, chx_legal_lines),
 *   - the prices of the money moves (chx_prices_json), and what each flag
 *     the seat may buy would score (chx_flag_worth_json),
 *   - what a merger's choices lead to (chx_previews_json, ch_merger_preview),
 *   - what the bot protocol sends for the decision (proto_decision_text),
 *     and the seat's entry for the next move in version 2's "moves" line
 *     (proto_public_move, checked with the log words below),
 *   - the browser's state frame (srv_state_frame of the server's library,
 *     on a game made here: seats, legal moves, prices, view, board and
 *     cards),
 *   - the terminal game's screen and decision list (play_screen,
 *     play_decision_print of src/play), the languages in turn,
 *   - `chartered view --player P`'s text (render_state of src/cli).
 * A spectator's view, position copy, state frame and `chartered view` text
 * are compared too, at the first re-deal for each seat checked: a spectator
 * sees less than any seat.
 * The outputs are compared whole, not field by field, so a new member that
 * leaks is caught without being named here.
 *
 * The log words are checked on the move the game makes next: what the seat
 * reads of it (srv_mask_move, srv_log_texts, srv_log_write, every language)
 * may depend only on what the seat knew before, what it sees after and what
 * the move told everyone. So the move is made again from each re-deal where
 * it is still legal, and where the seat's view after it and the words every
 * reader reads (a spectator's) are the same as after the true move (the move
 * revealed nothing else: no other card drawn, no other sealed bids shown),
 * the seat's words must be the same too. (What the move tells everyone
 * cannot be told apart from a leak in those words by a re-deal: a sealed
 * bid's reveal is public and in no view.)
 *
 * The phases of the decisions checked are counted: every phase of each
 * edition that the games reach must have been checked, and the games must
 * reach the phases listed in `must_see`. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "play.h"
#include "../src/play/play.h"
#include "protocol.h"
#include "api/api.h"
#include "game/game_impl.h"
#include "text.h"

#define REDEALS 2
/* a phase other than the turn, trading and offers is checked whenever it
 * comes until it has been this many times in an edition, then as the rest */
#define RARE_CAP 25

static const char *const names[CH_MAX_PLAYERS] = {"Anke", "Bram", "Chiyo", "Dirk", "Eef", "Fenna"};

/* Decisions checked per edition and phase. */
static int checked[2][CH_PH_COUNT];

/* ---- what a seat is sent or shown ---------------------------------------------- */

static void section(chx_buf *b, const char *name, const char *text)
{
    chx_buf_puts(b, "\n== ");
    chx_buf_puts(b, name);
    chx_buf_puts(b, "\n");
    chx_buf_puts(b, text ? text : "(null)");
}

/* The state frame the server sends seat p's browser for st: a game made
 * here, as the lobby makes one (its seats, playing or over), with no log
 * (the log words are checked on their own, below), and a client that holds
 * nothing yet (whole view, board and cards). */
static void state_frame(const ch_state *st, int p, chx_buf *out)
{
    srv_game *g = calloc(1, sizeof *g);
    srv_client *c = calloc(1, sizeof *c);
    assert_non_null(g);
    assert_non_null(c);
    snprintf(g->id, sizeof g->id, "%s", "0123456789abcdef");
    g->st = *st;
    g->nseats = st->nplayers;
    for (int s = 0; s < st->nplayers; s++) {
        g->seat[s].kind = SEAT_HUMAN;
        snprintf(g->seat[s].name, sizeof g->seat[s].name, "%s", names[s]);
        g->seat[s].nconn = 1;
    }
    unsigned mask;
    g->status = ch_decider(st, &mask) == CH_DEC_TERMINAL ? GAME_OVER : GAME_PLAYING;
    g->creator_seat = -1;
    g->vcache_decision = -1;
    for (int k = 0; k <= CH_MAX_PLAYERS; k++)
        g->vbase[k] = -1;
    c->game = g;
    c->seat = p;
    snprintf(c->lang, sizeof c->lang, "%s", "en");
    c->view_dec = -1;
    c->full_frames = 1;
    srv_out *o = srv_state_frame(g, c);
    assert_non_null(o);
    chx_buf_puts(out, "\n== frame\n");
    chx_buf_add(out, (const char *)o->buf + LWS_PRE, o->len);
    srv_views_clear(g);
    ch_free(g->static_json);
    free(g->common);
    free(g);
    free(c);
}

/* What the terminal game shows seat p in st (src/play): the screen in plain
 * mode, and the decision with its list of moves when p decides, in one
 * language, each in turn (no log: the log words are checked on their own). */
static void terminal(const ch_state *st, int p, int decides, chx_buf *out)
{
    play_game *g = calloc(1, sizeof *g);
    assert_non_null(g);
    g->st = *st;
    g->plain = 1;
    g->width = 100;
    for (int s = 0; s < st->nplayers; s++) {
        g->seat[s].human = 1;
        snprintf(g->seat[s].name, sizeof g->seat[s].name, "%s", names[s]);
    }
    {
        char *text = NULL;
        size_t len = 0;
        g->lang = (int)(st->ndecisions % CHX_NLANGS); /* each language in turn */
        g->out = open_memstream(&text, &len);
        assert_non_null(g->out);
        play_screen(g, p);
        if (decides)
            play_decision_print(g, p);
        fclose(g->out);
        section(out, "terminal", text);
        free(text);
    }
    free(g);
}

/* Everything seat p is sent or shown in st, in one text. */
static char *observe(const ch_state *st, int p)
{
    chx_buf b = {0};
    char *t = ch_view_to_json(st, p);
    section(&b, "view", t);
    ch_free(t);
    t = ch_position_write(st, p);
    section(&b, "position", t);
    ch_free(t);
    unsigned mask = 0;
    int decides = ch_decider(st, &mask) != CH_DEC_TERMINAL && (mask >> p & 1u);
    if (decides) {
        ch_move *mv = NULL;
        int n = chx_legal_alloc(st, p, &mv);
        assert_true(n >= 0);
        chx_buf_puts(&b, "\n== legal\n");
        for (int i = 0; i < n; i++) {
            char text[256];
            assert_true(ch_move_str(st, mv[i], text, sizeof text) > 0);
            chx_buf_puts(&b, text);
            for (int l = 0; l < CHX_NLANGS; l++) {
                assert_true(chx_move_text(l, st, mv[i], text, sizeof text) > 0);
                chx_buf_puts(&b, " | ");
                chx_buf_puts(&b, text);
            }
            chx_buf_puts(&b, "\n");
        }
        free(mv);
        int nl = 0;
        t = chx_legal_lines(st, p, &nl);
        section(&b, "legal lines", t);
        free(t);
        chx_buf_puts(&b, "\n== prices\n");
        assert_int_equal(chx_prices_json(st, p, &b), 0);
        chx_buf_puts(&b, "\n== flag worths\n");
        assert_true(chx_flag_worth_json(st, p, &b) >= 0);
        t = proto_decision_text(st, p);
        section(&b, "bot protocol", t);
        free(t);
    } else {
        t = proto_view_line(st, p);
        section(&b, "bot protocol view", t);
        ch_free(t);
    }
    /* what a merger will do, as the seat's dialogs show it (issue 31) */
    chx_buf_puts(&b, "\n== merger previews\n");
    assert_true(chx_previews_json(st, p, &b) >= 0);
    state_frame(st, p, &b);
    terminal(st, p, decides, &b);
    /* chartered view --player P: the state in words (src/cli/render.c) */
    {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        assert_non_null(f);
        render_state(f, st, p);
        fclose(f);
        section(&b, "cli view", text);
        free(text);
    }
    assert_false(b.oom);
    return b.s;
}

/* What a spectator is sent or shown: the view, the spectator's position
 * copy, the state frame of a watching browser and the text of `chartered
 * view --player 0`. A spectator sees less than any seat, so a re-deal for any
 * seat must leave all of it as it was. */
static char *observe_spectator(const ch_state *st)
{
    chx_buf b = {0};
    char *t = ch_view_to_json(st, -1);
    section(&b, "spectator view", t);
    ch_free(t);
    t = ch_position_write(st, CH_POSITION_SPECTATOR);
    section(&b, "spectator position", t);
    ch_free(t);
    state_frame(st, -1, &b);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    render_state(f, st, -1);
    fclose(f);
    section(&b, "spectator cli view", text);
    free(text);
    assert_false(b.oom);
    return b.s;
}

/* The first line where a and b differ, for the failure message. */
static void first_difference(const char *a, const char *b, char *buf, size_t n)
{
    const char *la = a, *lb = b, *sec = "?";
    size_t seclen = 1;
    while (*a && *a == *b) {
        if (*a == '\n') {
            la = a + 1;
            lb = b + 1;
            if (!strncmp(la, "== ", 3)) {
                sec = la + 3;
                seclen = strcspn(sec, "\n");
            }
        }
        a++;
        b++;
    }
    int ka = (int)strcspn(la, "\n"), kb = (int)strcspn(lb, "\n");
    size_t at = (size_t)(a - la);
    size_t from = at > 120 ? at - 120 : 0;
    snprintf(buf, n, "in \"%.*s\":\n  true    ...%.*s\n  re-dealt ...%.*s", (int)seclen, sec,
             ka - (int)from > 240 ? 240 : ka - (int)from, la + from,
             kb - (int)from > 240 ? 240 : kb - (int)from, lb + from);
}

/* What seat v reads of player q's move m in every language (the server's
 * log entry, as srv_log_write writes it for v). */
static char *log_words(const ch_state *before, int q, ch_move m, const ch_state *after, int v)
{
    srv_log e = {0};
    srv_mask_move(before, q, m, &e);
    srv_log_texts(&e, before, q, m, after, names, (1u << CHX_NLANGS) - 1);
    chx_buf b = {0};
    for (int l = 0; l < CHX_NLANGS; l++) {
        srv_log_write(&b, &e, v, chx_lang_code(l));
        chx_buf_puts(&b, "\n");
    }
    srv_log_free(&e);
    assert_false(b.oom);
    return b.s;
}

static int log_checked, log_skipped;

/* Version 2's "moves" line (proto_public_move): in the re-dealt state d,
 * other moves of q's of the same kind that leave seat p's view as the true
 * move left it, and that a spectator reads of in the log in the same words
 * (another card picked, another sealed bid, another card offered), must be
 * told to p in the same words: what p is told may not name what p cannot
 * see. */
static int line_alternatives;

static char *log_words(const ch_state *before, int q, ch_move m, const ch_state *after, int v);

static void check_line_alternatives(const ch_state *d, int p, int q, ch_move m,
                                    const char *want_after, const char *want_pub,
                                    const char *want_line, const char *game)
{
    static ch_move alt[1 << 14];
    int na = ch_legal(d, q, alt, 1 << 14);
    if (na > 1 << 14)
        na = 1 << 14;
    int tried = 0;
    for (int i = 0; i < na && tried < 4; i++) {
        ch_move a = alt[i];
        if (a.type != m.type || (a.a == m.a && a.b == m.b && a.c == m.c && a.n == m.n))
            continue;
        ch_state da = *d;
        ch_msg why;
        if (ch_apply(&da, q, a, &why) != CH_OK)
            continue;
        char *va = ch_view_to_json(&da, p);
        char *pub = strcmp(va, want_after) == 0 ? log_words(d, q, a, &da, -1) : NULL;
        if (pub && strcmp(pub, want_pub) == 0) {
            char line[300];
            assert_true(proto_public_move(d, q, a, p, line, sizeof line) > 0);
            if (strcmp(line, want_line) != 0)
                fail_msg("%s, decision %u: seat %d's view is the same after seat %d's move as "
                         "after another of the same kind, but the bot protocol's moves line "
                         "tells them apart:\n  true  %s\n  other %s",
                         game, d->ndecisions, p + 1, q + 1, want_line, line);
            tried++;
            line_alternatives++;
        }
        free(pub);
        ch_free(va);
    }
}

/* Seat p at st, whose next move is q's m (st_after the state after it):
 * every re-deal must show p the same, and the words of m must be the same
 * where the move leaves p's view as it does in the game. */
static void check_seat(const ch_state *st, int p, int q, ch_move m, const ch_state *after,
                       uint64_t seed, const char *game)
{
    char *want = observe(st, p);
    char *want_after = ch_view_to_json(after, p);
    char *want_words = log_words(st, q, m, after, p);
    char *want_pub = log_words(st, q, m, after, -1);
    char want_line[300], got_line[300];
    assert_true(proto_public_move(st, q, m, p, want_line, sizeof want_line) > 0);
    for (int k = 0; k < REDEALS; k++) {
        ch_state d = *st;
        ch_determinize(&d, p, seed * 1000003u + (uint64_t)k * 7919u + 1);
        char *got = observe(&d, p);
        if (strcmp(want, got) != 0) {
            char diff[800];
            first_difference(want, got, diff, sizeof diff);
            fail_msg("%s, decision %u (%s), seat %d, re-deal %d: %s", game, st->ndecisions,
                     ch_phase_name(st->phase), p + 1, k, diff);
        }
        free(got);
        if (k == 0) {
            char *sw = observe_spectator(st), *sg = observe_spectator(&d);
            if (strcmp(sw, sg) != 0) {
                char diff[800];
                first_difference(sw, sg, diff, sizeof diff);
                fail_msg("%s, decision %u (%s), a spectator, re-deal for seat %d: %s", game,
                         st->ndecisions, ch_phase_name(st->phase), p + 1, diff);
            }
            free(sw);
            free(sg);
        }
        ch_msg why;
        if (ch_check(&d, q, m, &why) != CH_OK) {
            log_skipped++;
            continue;
        }
        ch_state da = d;
        assert_int_equal(ch_apply(&da, q, m, &why), CH_OK);
        char *got_after = ch_view_to_json(&da, p);
        char *pub = log_words(&d, q, m, &da, -1);
        if (strcmp(got_after, want_after) == 0 && strcmp(pub, want_pub) == 0) {
            char *words = log_words(&d, q, m, &da, p);
            if (strcmp(words, want_words) != 0)
                fail_msg("%s, decision %u, seat %d reads of seat %d's move differently after a "
                         "re-deal:\n  true     %s  re-dealt %s",
                         game, st->ndecisions, p + 1, q + 1, want_words, words);
            assert_true(proto_public_move(&d, q, m, p, got_line, sizeof got_line) > 0);
            if (strcmp(got_line, want_line) != 0)
                fail_msg("%s, decision %u, seat %d is told of seat %d's move differently after "
                         "a re-deal (bot protocol 2):\n  true     %s\n  re-dealt %s",
                         game, st->ndecisions, p + 1, q + 1, want_line, got_line);
            if (p != q)
                check_line_alternatives(&d, p, q, m, want_after, want_pub, want_line, game);
            free(words);
            log_checked++;
        } else {
            log_skipped++;
        }
        ch_free(got_after);
        free(pub);
    }
    free(want);
    ch_free(want_after);
    free(want_words);
    free(want_pub);
}

/* The case of issue 28: with a money event next in the closed stack, the
 * price of a purchase was 0 (+f50 event) or -100 (-f50 event). It is the
 * purchase's own -50 whatever lies there, and a refresh's -50. */
static void prices_hide_the_next_event(void **s)
{
    (void)s;
    const int kinds[] = {CH_GE_MONEY_UP, CH_GE_MONEY_DOWN, CH_GE_ALL_UP};
    for (int preset = CH_GA_PRINTED; preset <= CH_GA_FIRST; preset++)
        for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
            ch_state st;
            t_new_ga(&st, 2, preset, 1, 40 + i);
            t_ga_deck_top(&st, t_ga_event_card(&st, kinds[i]));
            int p = t_decider(&st);
            chx_buf b = {0};
            assert_int_equal(chx_prices_json(&st, p, &b), 0);
            assert_non_null(strstr(b.s, "\"draw\":-50,"));
            assert_non_null(strstr(b.s, "\"refresh\":-50}"));
            assert_null(strstr(b.s, ":0"));
            assert_null(strstr(b.s, ":-100"));
            free(b.s);
        }
}

/* Issue 29 item 4: under the printed rules every seat and a spectator see
 * whether the top card of the closed stack is an event (seed 003, "Event
 * cards": "The event cards have a different back"), in the view, the
 * text of `chartered view` and the position copy, which loads back with a top card of that kind, and a
 * re-deal keeps it; under the first rules (seed 002: "indistinguishable")
 * nothing tells it, and a re-deal may change it. */
static void deck_top_event_printed_rules(void **s)
{
    (void)s;
    for (int preset = CH_GA_PRINTED; preset <= CH_GA_FIRST; preset++)
        for (int ev = 0; ev <= 1; ev++) {
            ch_state st;
            t_new_ga(&st, 3, preset, 1, 60 + (uint64_t)ev);
            int top = -1;
            for (int i = 0; i < st.ndeck && top < 0; i++)
                if ((st.card_event[st.deck[i]] != 0) == ev)
                    top = st.deck[i];
            assert_true(top >= 0);
            t_ga_deck_top(&st, top);
            int want = preset == CH_GA_PRINTED ? ev : -1;
            assert_int_equal(ch_deck_top_event(&st), want);
            char field[40], line[40];
            snprintf(field, sizeof field, "\"deck_top_event\": %s", ev ? "true" : "false");
            snprintf(line, sizeof line, "\ndeck-top %s\n", ev ? "event" : "building");
            for (int v = -1; v < st.nplayers; v++) {
                char *view = ch_view_to_json(&st, v);
                char *copy = ch_position_write(&st, v < 0 ? CH_POSITION_SPECTATOR : v);
                assert_non_null(view);
                assert_non_null(copy);
                if (want >= 0) {
                    assert_non_null(strstr(view, field));
                    assert_non_null(strstr(copy, line));
                } else {
                    assert_null(strstr(view, "deck_top_event"));
                    assert_null(strstr(copy, "deck-top"));
                }
                char *text = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&text, &len);
                assert_non_null(f);
                render_state(f, &st, v); /* chartered view --player */
                fclose(f);
                if (want >= 0)
                    assert_non_null(strstr(text, ev ? ", an event card on top" : ", a building card on top"));
                else
                    assert_null(strstr(text, " on top"));
                free(text);
                ch_state back;
                ch_msg why;
                if (ch_position_read(&back, copy, strlen(copy), "copy", &why) != CH_OK)
                    fail_msg("seat %d's copy does not load: %s", v + 1, why.text);
                if (want >= 0)
                    assert_int_equal(ch_deck_top_event(&back), want);
                ch_free(view);
                ch_free(copy);
            }
            int changed = 0;
            for (uint64_t seed = 1; seed <= 64; seed++) {
                ch_state d = st;
                ch_determinize(&d, (int)(seed % 3), seed);
                t_valid(&d);
                if (want >= 0)
                    assert_int_equal(ch_deck_top_event(&d), want);
                changed |= (d.card_event[d.deck[d.ndeck - 1]] != 0) != ev;
            }
            assert_int_equal(changed, preset == CH_GA_FIRST);
        }
}

/* A position may say what the backs show only where they show it, and only
 * what its deck can hold. */
static void deck_top_line_refused(void **s)
{
    (void)s;
    static const char *const bad[][2] = {
        {"edition golden-age\npreset golden-age-first\nevents on\nplayers 3\ndeck-top event\n",
         "printed"},
        {"edition golden-age\nevents off\nplayers 3\ndeck-top building\n", "printed"},
        {"edition amsterdam\nplayers 3\ndeck-top event\n", "printed"},
        {"edition golden-age\nevents on\nplayers 3\ndeck-top maybe\n", "'event' or"},
        {"edition golden-age\nevents on\nplayers 3\ndeck-top event\ndeck-top event\n",
         "already given"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ch_state st;
        memset(&st, 0x5a, sizeof st);
        ch_state keep = st;
        ch_msg why = {{0}};
        assert_int_not_equal(ch_position_read(&st, bad[i][0], strlen(bad[i][0]), "p", &why),
                             CH_OK);
        if (!strstr(why.text, bad[i][1]))
            fail_msg("'%s': %s", bad[i][0], why.text);
        assert_memory_equal(&st, &keep, sizeof st);
    }
}

/* ---- the games ------------------------------------------------------------------ */

typedef struct gamecfg {
    int edition, players, preset, events;
    int greedy; /* 0: random moves; 1: the greedy bot for every seat */
    uint64_t seed;
    int every;  /* the decider at every every-th decision, another seat at
                   every 2*every-th (0: every decision, both) */
} gamecfg;

/* Check the seats at st, whose next move is q's m, and make it: the decider
 * at every every-th step and another seat at every 2*every-th, both at a
 * rare phase (every phase but the turn, trading and offers) whenever it
 * comes, up to RARE_CAP times. */
static void check_and_apply(ch_state *st, ch_state *after, int q, ch_move m, int step, int every,
                            uint64_t *r, const char *game)
{
    ch_msg msg;
    *after = *st;
    assert_int_equal(ch_apply(after, q, m, &msg), CH_OK);
    int rare = st->phase != CH_PH_TURN && st->phase != CH_PH_TRADE && st->phase != CH_PH_OFFER &&
               checked[st->edition == CH_ED_GOLDEN_AGE][st->phase] < RARE_CAP;
    if (rare || step % every == 0) {
        checked[st->edition == CH_ED_GOLDEN_AGE][st->phase]++;
        check_seat(st, q, q, m, after, *r + (uint64_t)step, game);
    }
    if (st->nplayers > 1 && (rare || step % (2 * every) == 0)) {
        int p = (q + 1 + (int)(t_rand(r) % (uint64_t)(st->nplayers - 1))) % st->nplayers;
        check_seat(st, p, q, m, after, *r + (uint64_t)step * 3, game);
    }
    *st = *after;
}

/* Play st on from where it is, at most `steps` decisions, checking seats
 * along the way. */
static void run(ch_state *st, const gamecfg *g, int steps, const char *game)
{
    ch_state *after = malloc(sizeof *after);
    assert_non_null(after);
    ch_bot *bot = NULL;
    ch_msg msg;
    if (g->greedy)
        assert_int_equal(ch_bot_new(&bot, "greedy", "", g->seed, &msg), CH_OK);
    uint64_t r = g->seed * 2654435761u + 11;
    for (int step = 0; step < steps; step++) {
        unsigned mask;
        if (ch_decider(st, &mask) == CH_DEC_TERMINAL)
            break;
        int q = __builtin_ctz(mask);
        ch_move m;
        if (bot) {
            assert_int_equal(ch_bot_choose(bot, st, q, &m, &msg), CH_OK);
        } else {
            ch_move *mv = NULL;
            int n = chx_legal_alloc(st, q, &mv);
            assert_true(n > 0);
            m = mv[t_rand(&r) % (uint64_t)n];
            free(mv);
        }
        check_and_apply(st, after, q, m, step, g->every > 0 ? g->every : 1, &r, game);
    }
    ch_bot_free(bot);
    free(after);
}

static void play(const gamecfg *g)
{
    ch_state *st = malloc(sizeof *st);
    assert_non_null(st);
    if (g->edition == CH_ED_GOLDEN_AGE)
        t_new_ga(st, g->players, g->preset, g->events, g->seed);
    else
        t_new(st, g->players, "standard", g->seed);
    char game[96];
    snprintf(game, sizeof game, "%s %d players%s%s, %s, seed %llu",
             g->edition == CH_ED_GOLDEN_AGE ? "Golden Age" : "Amsterdam", g->players,
             g->edition != CH_ED_GOLDEN_AGE ? ""
             : g->preset == CH_GA_FIRST     ? " first rules"
                                            : " printed",
             g->edition == CH_ED_GOLDEN_AGE && g->events ? " events" : "",
             g->greedy ? "greedy" : "random", (unsigned long long)g->seed);
    run(st, g, 3000, game);
    free(st);
}

static void amsterdam(void **s)
{
    (void)s;
    const gamecfg games[] = {
        {CH_ED_AMSTERDAM, 2, 0, 0, 0, 3, 5},
        {CH_ED_AMSTERDAM, 3, 0, 0, 1, 5, 6},
        {CH_ED_AMSTERDAM, 4, 0, 0, 0, 7, 6},
        {CH_ED_AMSTERDAM, 5, 0, 0, 1, 9, 7},
    };
    for (size_t i = 0; i < sizeof games / sizeof *games; i++)
        play(&games[i]);
}

static void golden_age(void **s)
{
    (void)s;
    const gamecfg games[] = {
        {CH_ED_GOLDEN_AGE, 2, CH_GA_PRINTED, 1, 0, 21, 4},
        {CH_ED_GOLDEN_AGE, 3, CH_GA_PRINTED, 1, 1, 22, 5},
        {CH_ED_GOLDEN_AGE, 4, CH_GA_FIRST, 1, 0, 23, 6},
        {CH_ED_GOLDEN_AGE, 3, CH_GA_FIRST, 1, 1, 24, 5},
        {CH_ED_GOLDEN_AGE, 5, CH_GA_PRINTED, 0, 0, 25, 7},
        {CH_ED_GOLDEN_AGE, 6, CH_GA_PRINTED, 1, 1, 26, 7},
    };
    for (size_t i = 0; i < sizeof games / sizeof *games; i++)
        play(&games[i]);
}

/* The scenarios of tests/positions (rulebook examples, events, auctions,
 * offers, the forced option): each position's scripted moves (its "#> P
 * move" lines, tests/positions/README.md) and then a few random ones, every
 * decision checked for the decider and another seat. */
static void scenarios(void **s)
{
    (void)s;
    const char *data = getenv("CH_DATA_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/../tests/positions", data ? data : "data");
    DIR *d = opendir(dir);
    assert_non_null(d);
    ch_state *st = malloc(sizeof *st), *after = malloc(sizeof *after);
    assert_non_null(st);
    assert_non_null(after);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".pos") != 0)
            continue;
        t_position(st, e->d_name);
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        char *text = t_slurp(path);
        assert_non_null(text);
        uint64_t r = len * 977;
        int step = 0;
        for (char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
            if (strncmp(l, "#> ", 3) != 0)
                continue;
            char line[256];
            snprintf(line, sizeof line, "%.*s", (int)strcspn(l + 3, "\n"), l + 3);
            int q = atoi(line) - 1;
            const char *mv = strchr(line, ' ');
            ch_move m;
            ch_msg why;
            assert_non_null(mv);
            assert_int_equal(ch_move_parse(st, q, mv + 1, &m, &why), CH_OK);
            check_and_apply(st, after, q, m, step++, 1, &r, e->d_name);
        }
        free(text);
        gamecfg g = {st->edition, st->nplayers, st->preset, st->events_on, 0, len * 31, 1};
        run(st, &g, 3, e->d_name);
        n++;
    }
    closedir(d);
    free(st);
    free(after);
    assert_true(n >= 20);
}

/* Every phase the games reached was checked (a phase is counted when it is
 * checked, so this holds by construction) and the games reached these. */
static void coverage(void **s)
{
    (void)s;
    static const int must_see[2][CH_PH_COUNT + 1] = {
        {CH_PH_TURN, CH_PH_PURCHASE, CH_PH_HQ, CH_PH_FOUND, CH_PH_CREDIT, CH_PH_MERGE,
         CH_PH_MERGE_SELL, CH_PH_TRADE, CH_PH_SELL, CH_PH_EVENT, CH_PH_BID, CH_PH_LOSE,
         CH_PH_COOP, CH_PH_OFFER, CH_PH_RESPOND, CH_PH_VEILINGE, CH_PH_AUCTION, CH_PH_PICK, -1},
        {CH_PH_TURN, CH_PH_PURCHASE, CH_PH_FOUND, CH_PH_CREDIT, CH_PH_MERGE, CH_PH_TRADE,
         CH_PH_FREE, CH_PH_FORCED, CH_PH_EVSELL, -1},
    };
    for (int ed = 0; ed < 2; ed++) {
        char seen[512] = "";
        for (int ph = 0; ph < CH_PH_COUNT; ph++)
            if (checked[ed][ph]) {
                char t[64];
                snprintf(t, sizeof t, " %s %d", ch_phase_name(ph), checked[ed][ph]);
                strncat(seen, t, sizeof seen - strlen(seen) - 1);
            }
        print_message("%s:%s\n", ed ? "Golden Age" : "Amsterdam", seen);
        for (int i = 0; must_see[ed][i] >= 0; i++)
            if (!checked[ed][must_see[ed][i]])
                fail_msg("%s: no decision of phase %s was checked",
                         ed ? "Golden Age" : "Amsterdam", ch_phase_name(must_see[ed][i]));
    }
    print_message("log words compared after %d re-deals, %d re-deals told the seat more\n",
                  log_checked, log_skipped);
    assert_true(log_checked > 0);
    print_message("moves lines of bot protocol 2: %d other moves of the same kind compared\n",
                  line_alternatives);
    assert_true(line_alternatives > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prices_hide_the_next_event),
        cmocka_unit_test(deck_top_event_printed_rules),
        cmocka_unit_test(deck_top_line_refused),
        cmocka_unit_test(amsterdam),
        cmocka_unit_test(golden_age),
        cmocka_unit_test(scenarios),
        cmocka_unit_test(coverage),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
