/* cmd_selfplay.c: `chartered selfplay`, the randomized whole-game checker.
 * Plays G games of uniformly random legal moves and checks every invariant
 * after every decision (ch_validate, termination) and at the end of each game
 * (replay from setup and notation gives a byte-identical state, the JSON
 * round trip is exact, no player's view shows another player's hidden hand
 * cards, the deck order or, in The Golden Age, another player's stocks).
 * Games cycle editions, player counts, Golden Age presets and event settings
 * (mix.c). Prints one JSON line of totals.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_DECISIONS 100000
#define MAX_REPORTS 20

typedef struct rec {
    uint8_t p;
    ch_move m;
} rec;

typedef struct sp_cfg {
    cli_mix mix;       /* which games (mix.c) */
    int games;
    uint64_t seed;
    int full;          /* --check full */
} sp_cfg;

/* Totals of one edition. */
typedef struct sp_ed_totals {
    uint64_t games, decisions, turns, violations;
    uint64_t stalled;                /* games ended by a round of passes     */
    uint64_t events;                 /* event cards drawn (The Golden Age)   */
    uint64_t phase[CH_PH_COUNT];     /* decisions made in each phase         */
    uint64_t mtype[CH_M_NTYPES];     /* moves of each type                   */
} sp_ed_totals;

typedef struct sp_totals {
    uint64_t games, decisions, violations, turns;
    uint64_t wins[CH_MAX_PLAYERS];
    int max_players;
    sp_ed_totals ed[2];
} sp_totals;

typedef struct worker {
    const sp_cfg *cfg;
    sp_totals tot;
    ch_move *buf;
    int cap;
    rec *log;
    ch_state *st, *prev, *tmp, *tmp2;
    /* the game being played, for messages */
    uint64_t seed;
    int game, nplayers;
    cli_game g;
    char cname[CH_MAX_CARDS][64]; /* JSON card names of this game */
    uint8_t cdup[CH_MAX_CARDS];
} worker;

static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;
static int reports_printed;
static int next_game;

/* Report a violation: game seed, decision number, move text and reason. */
static void violation(worker *w, uint64_t decision, const ch_state *before,
                      int p, const ch_move *m, const char *fmt, ...)
    CLI_PRINTF(6, 7);

static void violation(worker *w, uint64_t decision, const ch_state *before,
                      int p, const ch_move *m, const char *fmt, ...)
{
    w->tot.violations++;
    w->tot.ed[w->g.set.edition ? 1 : 0].violations++;
    char reason[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    char mv[160] = "(end of game)";
    if (m && before) {
        char t[128];
        if (ch_move_str(before, *m, t, sizeof t) < 0)
            snprintf(t, sizeof t, "?");
        snprintf(mv, sizeof mv, "player %d '%s'", p + 1, t);
    }
    char what[160], flags[200];
    if (w->g.set.edition == CH_ED_GOLDEN_AGE)
        snprintf(what, sizeof what, "golden-age, %d players, preset %s, "
                 "events %s, arrangement %s", w->nplayers,
                 cli_preset_name(w->g.set.preset),
                 w->g.set.events ? "on" : "off", w->g.arr);
    else
        snprintf(what, sizeof what, "amsterdam, %d players, arrangement %s",
                 w->nplayers, w->g.arr);
    cli_mix_flags(&w->cfg->mix, &w->g, flags, sizeof flags);
    pthread_mutex_lock(&report_lock);
    if (reports_printed < MAX_REPORTS)
        fprintf(stderr,
                "violation: game seed %" PRIu64 " (game %d, %s): decision %"
                PRIu64 ": %s: %s\n"
                "  rerun alone: chartered selfplay --games 1 --seed %" PRIu64
                " %s --check full\n",
                w->seed, w->game, what, decision, mv, reason, w->seed, flags);
    else if (reports_printed == MAX_REPORTS)
        fprintf(stderr, "violation: (more violations not shown)\n");
    reports_printed++;
    pthread_mutex_unlock(&report_lock);
}

/* JSON round trip: to_json, from_json, memcmp. 0 when exact. */
static int check_roundtrip(worker *w, const ch_state *st, char *why, size_t n)
{
    char *text = ch_state_to_json(st);
    if (!text) {
        snprintf(why, n, "ch_state_to_json failed");
        return -1;
    }
    ch_msg msg = {{0}};
    memset(w->tmp, 0, sizeof *w->tmp);
    int rc = ch_state_from_json(w->tmp, text, &msg);
    if (rc != CH_OK) {
        snprintf(why, n, "JSON round trip: ch_state_from_json refused "
                         "ch_state_to_json's text: %s", msg.text);
        ch_free(text);
        return -1;
    }
    if (memcmp(w->tmp, st, sizeof *st) != 0) {
        char *again = ch_state_to_json(w->tmp);
        char where[96];
        cli_state_where(cli_state_diff(w->tmp, st), where, sizeof where);
        if (again && strcmp(again, text) != 0) {
            size_t i = 0;
            while (again[i] && again[i] == text[i])
                i++;
            size_t from = i > 30 ? i - 30 : 0;
            snprintf(why, n, "JSON round trip: the state read back differs "
                     "(%s); texts differ at %zu: '%.60s' vs '%.60s'", where, i,
                     text + from, again + from);
        } else {
            snprintf(why, n, "JSON round trip: the state read back differs at "
                     "%s (the JSON texts agree)", where);
        }
        if (again)
            ch_free(again);
        ch_free(text);
        return -1;
    }
    ch_free(text);
    return 0;
}

/* The JSON names of the cards (json.c adds "#id" when several cards share a
 * name, as level cards do), computed once per game. */
static void card_names(worker *w, const ch_state *st)
{
    for (int c = 0; c < st->ncards; c++)
        if (ch_card_name(st, c, w->cname[c], sizeof w->cname[c]) < 0)
            w->cname[c][0] = '\0';
    for (int c = 0; c < st->ncards; c++) {
        int dup = 0;
        for (int k = 0; k < st->ncards && !dup; k++)
            dup = k != c && strcmp(w->cname[k], w->cname[c]) == 0;
        w->cdup[c] = (uint8_t)dup;
    }
    for (int c = 0; c < st->ncards; c++)
        if (w->cdup[c]) {
            size_t l = strlen(w->cname[c]);
            snprintf(w->cname[c] + l, sizeof w->cname[c] - l, "#%d", c);
        }
}

/* Player p's view leaks nothing (viewcheck.c). */
static int check_view(worker *w, const ch_state *st, int p, char *why,
                      size_t n)
{
    char *text = ch_view_to_json(st, p);
    if (!text) {
        snprintf(why, n, "ch_view_to_json(player %d) failed", p + 1);
        return -1;
    }
    int rc = viewcheck(st, p, text, (const char (*)[64])w->cname, why, n);
    ch_free(text);
    return rc;
}

/* Replay the recorded moves from the setup through their notation. */
static int check_replay(worker *w, const ch_setup *set, const ch_board *board,
                        uint64_t nrec, char *why, size_t n, uint64_t *at)
{
    ch_state *r = w->tmp2;
    ch_msg msg = {{0}};
    *at = 0;
    int rc = ch_new(r, set, board, &msg);
    if (rc != CH_OK) {
        snprintf(why, n, "replay: ch_new failed: %s", msg.text);
        return -1;
    }
    for (uint64_t i = 0; i < nrec; i++) {
        char text[128];
        ch_move m;
        *at = i + 1;
        int p = w->log[i].p;
        if (ch_move_str(r, w->log[i].m, text, sizeof text) <= 0) {
            snprintf(why, n, "replay: ch_move_str gave no text for the move");
            return -1;
        }
        rc = ch_move_parse(r, p, text, &m, &msg);
        if (rc != CH_OK) {
            snprintf(why, n, "replay: ch_move_parse refused '%s' (from "
                     "ch_move_str): %s", text, msg.text);
            return -1;
        }
        rc = ch_apply(r, p, m, &msg);
        if (rc != CH_OK) {
            snprintf(why, n, "replay: ch_apply refused '%s': %s", text,
                     msg.text);
            return -1;
        }
    }
    if (memcmp(r, w->st, sizeof *r) != 0) {
        char where[96];
        cli_state_where(cli_state_diff(r, w->st), where, sizeof where);
        *at = nrec;
        snprintf(why, n, "replay from setup and notation gives a different "
                 "state (first difference at %s)", where);
        return -1;
    }
    return 0;
}

static int popcount(unsigned x)
{
    int k = 0;
    for (; x; x &= x - 1)
        k++;
    return k;
}

static int lowest(unsigned x)
{
    for (int i = 0; i < 32; i++)
        if (x & (1u << i))
            return i;
    return -1;
}

static void play_game_body(worker *w, int gi)
{
    const sp_cfg *cfg = w->cfg;
    w->game = gi;
    w->seed = cfg->seed + (uint64_t)gi;
    cli_mix_game(&cfg->mix, (uint64_t)gi, w->seed, &w->g);
    w->nplayers = w->g.set.nplayers;
    if (w->nplayers > w->tot.max_players)
        w->tot.max_players = w->nplayers;
    const ch_board *board = w->g.board;
    const ch_setup set = w->g.set;
    sp_ed_totals *et = &w->tot.ed[set.edition == CH_ED_GOLDEN_AGE ? 1 : 0];
    ch_state *st = w->st;
    ch_msg msg = {{0}};
    char why[700];
    w->tot.games++;
    et->games++;
    int rc = ch_new(st, &set, board, &msg);
    if (rc != CH_OK) {
        violation(w, 0, NULL, 0, NULL, "ch_new failed: %s", msg.text);
        return;
    }
    if ((rc = ch_validate(st, &msg)) != CH_OK) {
        violation(w, 0, NULL, 0, NULL, "ch_validate after ch_new: %s",
                  msg.text);
        return;
    }
    card_names(w, st);
    ch_rng rng;
    ch_rng_seed(&rng, w->seed ^ 0x5eedc0ffee123457ull);
    uint64_t nd = 0;
    for (;;) {
        unsigned mask = 0;
        ch_decider_kind kind = ch_decider(st, &mask);
        if (kind == CH_DEC_TERMINAL)
            break;
        if (nd >= MAX_DECISIONS) {
            violation(w, nd, NULL, 0, NULL,
                      "no end after %d decisions (termination)", MAX_DECISIONS);
            w->tot.decisions += nd;
            return;
        }
        unsigned all = (1u << st->nplayers) - 1;
        if (mask == 0 || (mask & ~all) ||
            (kind == CH_DEC_PLAYER && popcount(mask) != 1)) {
            violation(w, nd, NULL, 0, NULL,
                      "ch_decider gives kind %d with player mask 0x%x", kind,
                      mask);
            w->tot.decisions += nd;
            return;
        }
        int p = lowest(mask);
        int cnt = ch_legal(st, p, w->buf, w->cap);
        if (cnt > w->cap) {
            int nc = cnt * 2;
            ch_move *nb = realloc(w->buf, (size_t)nc * sizeof *nb);
            if (!nb) {
                violation(w, nd, NULL, 0, NULL, "out of memory for %d moves",
                          cnt);
                w->tot.decisions += nd;
                return;
            }
            w->buf = nb;
            w->cap = nc;
            cnt = ch_legal(st, p, w->buf, w->cap);
        }
        if (cnt <= 0) {
            violation(w, nd, NULL, 0, NULL,
                      "player %d must decide (phase %s) but has no legal move",
                      p + 1, ch_phase_name(st->phase));
            w->tot.decisions += nd;
            return;
        }
        ch_move m = w->buf[ch_rng_below(&rng, (uint32_t)cnt)];
        memcpy(w->prev, st, sizeof *st);
        if (cfg->full && (rc = ch_check(st, p, m, &msg)) != CH_OK) {
            violation(w, nd + 1, w->prev, p, &m,
                      "ch_check refuses a move listed by ch_legal: %s",
                      msg.text);
            w->tot.decisions += nd;
            return;
        }
        w->log[nd].p = (uint8_t)p;
        w->log[nd].m = m;
        if (st->phase < CH_PH_COUNT)
            et->phase[st->phase]++;
        if (m.type < CH_M_NTYPES)
            et->mtype[m.type]++;
        ch_apply_fast(st, p, m);
        nd++;
        if ((rc = ch_validate(st, &msg)) != CH_OK) {
            violation(w, nd, w->prev, p, &m, "ch_validate: %s", msg.text);
            w->tot.decisions += nd;
            return;
        }
        if (cfg->full) {
            if (check_roundtrip(w, st, why, sizeof why)) {
                violation(w, nd, w->prev, p, &m, "%s", why);
                w->tot.decisions += nd;
                return;
            }
            for (int q = 0; q < st->nplayers; q++)
                if (check_view(w, st, q, why, sizeof why)) {
                    violation(w, nd, w->prev, p, &m, "%s", why);
                    w->tot.decisions += nd;
                    return;
                }
        }
    }
    w->tot.decisions += nd;
    w->tot.turns += st->turn_no;
    et->turns += st->turn_no;
    if (!st->end_triggered)
        et->stalled++;
    for (int i = 0; i < st->ndiscard; i++)
        if (st->card_event[st->discard[i]])
            et->events++;
    int32_t scores[CH_MAX_PLAYERS];
    unsigned winners = 0;
    if ((rc = ch_scores(st, scores, &winners)) != CH_OK) {
        violation(w, nd, NULL, 0, NULL, "ch_scores failed: %s",
                  ch_strerror(rc));
        return;
    }
    if (winners == 0 || (winners >> st->nplayers)) {
        violation(w, nd, NULL, 0, NULL, "ch_scores names winners 0x%x",
                  winners);
        return;
    }
    for (int q = 0; q < st->nplayers; q++)
        if (winners & (1u << q))
            w->tot.wins[q]++;
    uint64_t at = 0;
    if (check_replay(w, &set, board, nd, why, sizeof why, &at)) {
        violation(w, at, NULL, 0, NULL, "%s", why);
        return;
    }
    if (check_roundtrip(w, st, why, sizeof why)) {
        violation(w, nd, NULL, 0, NULL, "%s", why);
        return;
    }
    for (int q = 0; q < st->nplayers; q++)
        if (check_view(w, st, q, why, sizeof why)) {
            violation(w, nd, NULL, 0, NULL, "%s", why);
            return;
        }
}

static void play_game(worker *w, int gi)
{
    uint64_t before = w->tot.decisions;
    play_game_body(w, gi);
    w->tot.ed[w->g.set.edition == CH_ED_GOLDEN_AGE ? 1 : 0].decisions +=
        w->tot.decisions - before;
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    for (;;) {
        pthread_mutex_lock(&report_lock);
        int gi = next_game < w->cfg->games ? next_game++ : -1;
        pthread_mutex_unlock(&report_lock);
        if (gi < 0)
            break;
        play_game(w, gi);
    }
    return NULL;
}

static int worker_init(worker *w, const sp_cfg *cfg)
{
    memset(w, 0, sizeof *w);
    w->cfg = cfg;
    w->cap = 1024;
    w->buf = malloc((size_t)w->cap * sizeof *w->buf);
    w->log = malloc((size_t)(MAX_DECISIONS + 1) * sizeof *w->log);
    w->st = malloc(sizeof *w->st);
    w->prev = malloc(sizeof *w->prev);
    w->tmp = malloc(sizeof *w->tmp);
    w->tmp2 = malloc(sizeof *w->tmp2);
    return w->buf && w->log && w->st && w->prev && w->tmp && w->tmp2 ? 0 : -1;
}

static void worker_free(worker *w)
{
    free(w->buf);
    free(w->log);
    free(w->st);
    free(w->prev);
    free(w->tmp);
    free(w->tmp2);
}

/* The totals of one edition as a JSON object (no trailing text). */
static void print_edition(const sp_ed_totals *e, int golden)
{
    printf("{\"games\":%" PRIu64 ",\"decisions\":%" PRIu64
           ",\"violations\":%" PRIu64 ",\"avg_decisions\":%.1f"
           ",\"avg_turns\":%.1f,\"stalled\":%" PRIu64,
           e->games, e->decisions, e->violations,
           e->games ? (double)e->decisions / (double)e->games : 0.0,
           e->games ? (double)e->turns / (double)e->games : 0.0, e->stalled);
    if (golden)
        printf(",\"events_drawn\":%" PRIu64, e->events);
    printf(",\"phases\":{");
    int first = 1;
    for (int ph = 0; ph < CH_PH_COUNT; ph++)
        if (e->phase[ph]) {
            printf("%s\"%s\":%" PRIu64, first ? "" : ",", ch_phase_name(ph),
                   e->phase[ph]);
            first = 0;
        }
    /* moves that show the edition's features were played */
    static const struct {
        int type;
        const char *name;
    } kinds[] = {{CH_M_FOUND, "found"}, {CH_M_FREE, "free"},
                 {CH_M_MERGE, "merge"}, {CH_M_FLAG, "flag"},
                 {CH_M_BUY, "buy"},     {CH_M_SELL, "sell"},
                 {CH_M_PASS, "pass"},   {CH_M_REFRESH, "refresh"}};
    printf("},\"moves\":{");
    first = 1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        if (!golden && (kinds[k].type == CH_M_FREE || kinds[k].type == CH_M_FLAG))
            continue;
        printf("%s\"%s\":%" PRIu64, first ? "" : ",", kinds[k].name,
               e->mtype[kinds[k].type]);
        first = 0;
    }
    printf("}}");
}

int cmd_selfplay(int argc, char **argv)
{
    int players = 0, games = 100, jobs = 1;
    uint64_t seed = 1;
    const char *arrangement = NULL, *check = "basic", *edition = "amsterdam";
    const char *preset = NULL, *events = NULL, *variant = NULL;
    int edition_seen = 0;
    const opt_spec specs[] = {
        {"edition", 'e', OPT_STR, &edition, "NAME", 0, 0,
         "amsterdam (default), golden-age, or all to alternate them", &edition_seen},
        {"variant", 0, OPT_STR, &variant, "FILE", 0, 0,
         "a variant file (docs/variants.md) for every game", NULL},
        {"players", 'p', OPT_INT, &players, "N", 0, CH_MAX_PLAYERS,
         "players per game (Building Amsterdam 2-5, The Golden Age 2-6); 0 "
         "(default) cycles them", NULL},
        {"preset", 0, OPT_STR, &preset, "NAME", 0, 0,
         "Golden Age preset: golden-age, golden-age-first or both (default "
         "both, cycled)", NULL},
        {"events", 0, OPT_STR, &events, "on|off|both", 0, 0,
         "Golden Age event cards (default both, cycled)", NULL},
        {"games", 'g', OPT_INT, &games, "G", 1, 100000000,
         "number of games (default 100)", NULL},
        {"seed", 's', OPT_U64, &seed, "S", 0, 0,
         "game i uses seed S+i (default 1)", NULL},
        {"arrangement", 'a', OPT_STR, &arrangement, "NAME|all", 0, 0,
         "built-in arrangement, or all to cycle Building Amsterdam's (default: "
         "its first; The Golden Age: the side of the preset)", NULL},
        {"check", 0, OPT_STR, &check, "full|basic", 0, 0,
         "basic (default): JSON and views checked at game end; full: after "
         "every decision", NULL},
        {"jobs", 'j', OPT_INT, &jobs, "J", 1, 256,
         "worker threads (default 1); totals do not depend on it", NULL},
        {NULL, 0, 0, NULL, NULL, 0, 0, NULL, NULL}};
    static const opt_cmd cmd = {"selfplay",
                                "chartered selfplay [--edition amsterdam|golden-age|all] "
                                "[--players N] [--preset NAME|both] [--events on|off|both] "
                                "[--games G] [--seed S] [--arrangement NAME|all] "
                                "[--variant FILE] [--check full|basic] [--jobs J]",
                                "Play random games (a uniformly random legal move of the "
                                "deciding player; when\nseveral decide at once, each in seat "
                                "order) and check every invariant. Game i\nuses seed S+i; "
                                "editions alternate game by game, then player counts, then\n"
                                "arrangements (Building Amsterdam) or presets and event "
                                "settings (The Golden\nAge) cycle. Prints one JSON line of "
                                "totals; exits 1 on any violation, naming\non stderr the game "
                                "seed, the decision number, the move and the flags that\n"
                                "rerun that game alone.",
                                0, NULL};
    char *pos[argc + 1];
    int npos, rc;
    if (!opts_start(&cmd, argc, argv, specs, pos, &npos, &rc))
        return rc;
    if (players == 1) {
        cli_error("chartered selfplay: --players expects 2 to 6, or 0 to cycle "
                  "the counts, got 1");
        return EXIT_USAGE;
    }
    sp_cfg cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.games = games;
    cfg.seed = seed;
    if (strcmp(check, "full") == 0)
        cfg.full = 1;
    else if (strcmp(check, "basic") != 0) {
        cli_error("chartered selfplay: --check expects full or basic, got "
                  "'%s'", check);
        return EXIT_USAGE;
    }
    if ((rc = cli_mix_init_variant(&cfg.mix, "selfplay", variant, edition, edition_seen, players,
                                   players != 0, preset, events, arrangement, "both", "both")))
        return rc;

    if (jobs > games)
        jobs = games;
    json_object_seed(1); /* before any thread creates JSON objects */
    worker *ws = calloc((size_t)jobs, sizeof *ws);
    pthread_t *th = calloc((size_t)jobs, sizeof *th);
    if (!ws || !th) {
        cli_error("out of memory");
        free(ws);
        free(th);
        cli_mix_free(&cfg.mix);
        return EXIT_FAIL;
    }
    int ok = 1;
    for (int j = 0; j < jobs; j++)
        if (worker_init(&ws[j], &cfg))
            ok = 0;
    if (!ok) {
        cli_error("out of memory");
        for (int j = 0; j < jobs; j++)
            worker_free(&ws[j]);
        free(ws);
        free(th);
        cli_mix_free(&cfg.mix);
        return EXIT_FAIL;
    }
    double t0 = cli_now();
    next_game = 0;
    if (jobs == 1) {
        worker_main(&ws[0]);
    } else {
        int started = 0;
        for (int j = 0; j < jobs; j++) {
            if (pthread_create(&th[j], NULL, worker_main, &ws[j]) != 0)
                break;
            started++;
        }
        if (started == 0)
            worker_main(&ws[0]);
        for (int j = 0; j < started; j++)
            pthread_join(th[j], NULL);
    }
    double secs = cli_now() - t0;

    sp_totals t;
    memset(&t, 0, sizeof t);
    for (int j = 0; j < jobs; j++) {
        const sp_totals *x = &ws[j].tot;
        t.games += x->games;
        t.decisions += x->decisions;
        t.violations += x->violations;
        t.turns += x->turns;
        for (int q = 0; q < CH_MAX_PLAYERS; q++)
            t.wins[q] += x->wins[q];
        if (x->max_players > t.max_players)
            t.max_players = x->max_players;
        for (int e = 0; e < 2; e++) {
            sp_ed_totals *d = &t.ed[e];
            const sp_ed_totals *s = &x->ed[e];
            d->games += s->games;
            d->decisions += s->decisions;
            d->turns += s->turns;
            d->violations += s->violations;
            d->stalled += s->stalled;
            d->events += s->events;
            for (int k = 0; k < CH_PH_COUNT; k++)
                d->phase[k] += s->phase[k];
            for (int k = 0; k < CH_M_NTYPES; k++)
                d->mtype[k] += s->mtype[k];
        }
        worker_free(&ws[j]);
    }
    free(ws);
    free(th);

    printf("{\"games\":%" PRIu64 ",\"decisions\":%" PRIu64
           ",\"violations\":%" PRIu64 ",\"avg_decisions\":%.1f"
           ",\"avg_turns\":%.1f,\"wins_by_seat\":[",
           t.games, t.decisions, t.violations,
           t.games ? (double)t.decisions / (double)t.games : 0.0,
           t.games ? (double)t.turns / (double)t.games : 0.0);
    for (int q = 0; q < t.max_players; q++)
        printf("%s%" PRIu64, q ? "," : "", t.wins[q]);
    printf("],\"seconds\":%.2f,\"seed\":%" PRIu64 ",\"check\":\"%s\""
           ",\"edition\":\"%s\",\"by_edition\":{",
           secs, seed, cfg.full ? "full" : "basic",
           cli_mix_edition_text(&cfg.mix));
    int first = 1;
    for (int e = 0; e < 2; e++) {
        if (!t.ed[e].games)
            continue;
        printf("%s\"%s\":", first ? "" : ",", cli_edition_name(e));
        print_edition(&t.ed[e], e == CH_ED_GOLDEN_AGE);
        first = 0;
    }
    printf("}}\n");
    fflush(stdout);
    cli_mix_free(&cfg.mix);
    if (t.violations) {
        cli_error("selfplay: %" PRIu64 " violation%s in %" PRIu64 " game%s "
                  "(see above)", t.violations, t.violations == 1 ? "" : "s",
                  t.games, t.games == 1 ? "" : "s");
        return EXIT_FAIL;
    }
    return 0;
}
