/* play.c: moves and the frames that follow them. A move (from a client or a
 * bot) is read with the library's notation, checked with ch_check against
 * the seat's decision, applied, and kept pending until the next commit
 * (store.c) writes it; only then does every client of the game get a state
 * frame with its own view (ch_view_to_json), its legal moves
 * (chx_legal_lines), and the new log entries masked for it (mask.c). Also
 * here: the turn timer, and rebuilding a game from its stored moves.
 * What is the same for every frame of a decision is made once and kept:
 * the members every client shares (common_part), each deciding seat's legal
 * moves and prices (made on a view worker beside the views when one is
 * asked, srv_legal_make; on the loop only when a frame comes first), and
 * the stamp of the board and card table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"
#include "text.h"

/* chx_buf_puts of a string literal without its strlen (a frame's head has
 * a dozen; only for a literal: sizeof of anything else is wrong) */
#define PUT_LIT(b, lit) chx_buf_add((b), "" lit, sizeof(lit) - 1)

int srv_seat_decides(const srv_game *g, int s)
{
    unsigned mask = 0;
    if (s < 0 || s >= g->nseats || g->status != GAME_PLAYING)
        return 0;
    ch_decider_kind k = ch_decider(&g->st, &mask);
    return k != CH_DEC_TERMINAL && ((mask >> s) & 1u);
}

/* The log entry of the move just applied (g->st is the state after it).
 * Words are made in every language of the catalogue. */
static void log_add(srv_game *g, const ch_state *before, int p, ch_move m, int words)
{
    srv_log *e = &g->log[g->nmoves % SRV_LOG_RING];
    srv_log_free(e);
    e->n = g->nmoves;
    srv_mask_move(before, p, m, e);
    if (!words)
        return;
    /* every language, not only those of the clients attached now: a player
       or spectator who comes later reads the recent log in theirs (issue 16) */
    unsigned langs = (1u << CHX_NLANGS) - 1;
    const char *names[CH_MAX_PLAYERS] = {0};
    for (int i = 0; i < g->nseats; i++)
        names[i] = g->seat[i].name;
    srv_log_texts(e, before, p, m, &g->st, names, langs);
}

static int add_pending(srv_game *g, int p, const char *move, ch_move m)
{
    if (g->npending == g->cap_pending) {
        int cap = g->cap_pending ? g->cap_pending * 2 : 8;
        srv_pending *np = realloc(g->pending, (size_t)cap * sizeof *np);
        if (!np)
            return -1;
        g->pending = np;
        g->cap_pending = cap;
    }
    srv_pending *e = &g->pending[g->npending++];
    e->n = g->nmoves;
    e->player = p;
    e->m = m;
    e->recv_us = srv_metrics_now_us(); /* chartered_commit_latency_seconds (commit.c) */
    /* snprintf(e->move, sizeof e->move, "%s", move) without printf */
    size_t l = strlen(move);
    if (l > sizeof e->move - 1)
        l = sizeof e->move - 1;
    memcpy(e->move, move, l);
    e->move[l] = '\0';
    return 0;
}

void srv_game_finish(srv_game *g)
{
    ch_scores(&g->st, g->scores, &g->winners);
    g->status = GAME_OVER;
    g->meta_dirty = 1;
}

/* srv_play_move with the reason of a refusal in lang (chx_reason) */
static int play_move_in(srv_game *g, int s, ch_move m, int lang, char *why, size_t n)
{
    ch_msg msg;
    if (g_tables.draining) { /* SIGTERM: what is pending is being committed */
        snprintf(why, n, "the server is stopping: this move was not made; reconnect and "
                 "make it again");
        return MOVE_NO_LEASE;
    }
    if (!srv_game_playable(g)) { /* a cluster: only the lease's node plays (lease.c) */
        snprintf(why, n, g->reload_due || g->lease == SRV_LEASE_HELD ?
                 "the database cannot be reached: moves wait until it is back" :
                 "another node plays this game now: reconnect");
        return MOVE_NO_LEASE;
    }
    if (g->npending >= SRV_PENDING_MAX) {
        /* the database is slow: more would not leave the log a failed
           commit takes them back to (game/game.h) */
        snprintf(why, n, "%d moves of this game wait for the database: try again when "
                 "they are stored", g->npending);
        return MOVE_NO_LEASE;
    }
    if (ch_check(&g->st, s, m, &msg) != CH_OK) {
        chx_reason(lang, &msg, why, n);
        return MOVE_ILLEGAL;
    }
    ch_state before = g->st;
    if (ch_apply(&g->st, s, m, &msg) != CH_OK) {
        chx_reason(lang, &msg, why, n);
        return MOVE_ILLEGAL;
    }
    if (g->npending == 0) { /* what a failed commit goes back to */
        g->durable = before;
        g->durable_status = g->status;
    }
    log_add(g, &before, s, m, 1);
    if (add_pending(g, s, g->log[g->nmoves % SRV_LOG_RING].full, m) != 0) {
        g->st = before;
        snprintf(why, n, "out of memory");
        return MOVE_NOMEM;
    }
    g->nmoves++;
    if (srv_ls_on) { /* loop statistics (loopstats.c) */
        g->ls_move_us = srv_ls_now();
        if (!g->ls_pending_us)
            g->ls_pending_us = g->ls_move_us;
    }
    unsigned mask;
    if (ch_decider(&g->st, &mask) == CH_DEC_TERMINAL)
        srv_game_finish(g);
    srv_commit_schedule(g);
    return MOVE_OK;
}

void srv_count_refused(int rc)
{
    static const int by_rc[] = {
        [MOVE_NOT_STARTED] = SRV_M_MOVES_REFUSED_NOT_STARTED,
        [MOVE_NOT_YOUR_TURN] = SRV_M_MOVES_REFUSED_TURN,
        [MOVE_ILLEGAL] = SRV_M_MOVES_REFUSED_ILLEGAL,
        [MOVE_STALE] = SRV_M_MOVES_REFUSED_STALE,
        [MOVE_NOMEM] = SRV_M_MOVES_REFUSED_UNAVAILABLE,
        [MOVE_NO_LEASE] = SRV_M_MOVES_REFUSED_UNAVAILABLE,
    };
    if (rc > MOVE_OK && rc < (int)(sizeof by_rc / sizeof by_rc[0]))
        srv_metrics_inc(by_rc[rc], 1);
}

int srv_play_move(srv_game *g, int s, ch_move m, char *why, size_t n)
{
    return play_move_in(g, s, m, CHX_LANG_EN, why, n);
}

/* A sealed bid made for an earlier decision of the same bidding round still
 * counts: every decision since was another player's sealed bid, which this
 * bidder cannot see and which changes none of their choices (all players bid
 * at once and in secret: rulebook "Stock events"). The bids of the round are
 * its last popcount(bid_in) moves. Without this, of two people bidding at the
 * same moment the second was told that the game had moved on (web_e2e). */
static int same_bid_round(const srv_game *g, int s, int decision)
{
    const ch_state *st = &g->st;
    if (st->phase != CH_PH_BID || decision > g->nmoves || s < 0 || s >= st->nplayers)
        return 0;
    if (!((st->bid_mask >> s) & 1) || ((st->bid_in >> s) & 1))
        return 0;
    return g->nmoves - decision <= __builtin_popcount(st->bid_in);
}

int srv_play(srv_game *g, int s, const char *text, int decision, const char *lang_code,
             char *why, size_t n)
{
    int lang = chx_lang_find(lang_code);
    if (lang < 0)
        lang = CHX_LANG_EN;
    if (!srv_game_playable(g) || g_tables.draining) /* before "stale" */
        return play_move_in(g, s, (ch_move){0}, lang, why, n);
    if (g->status == GAME_WAITING) {
        snprintf(why, n, "the game waits for every seat to be taken");
        return MOVE_NOT_STARTED;
    }
    if (g->status == GAME_OVER) {
        snprintf(why, n, "the game is over");
        return MOVE_NOT_YOUR_TURN;
    }
    if (s < 0) {
        snprintf(why, n, "a spectator cannot move");
        return MOVE_NOT_YOUR_TURN;
    }
    if (decision >= 0 && decision != g->nmoves && !same_bid_round(g, s, decision)) {
        snprintf(why, n, "this move was made for decision %d but the game is at decision %d",
                 decision, g->nmoves);
        return MOVE_STALE;
    }
    if (!srv_seat_decides(g, s)) {
        snprintf(why, n, "it is not your decision (player %d)", s + 1);
        return MOVE_NOT_YOUR_TURN;
    }
    ch_move m;
    ch_msg msg;
    if (ch_move_parse(&g->st, s, text, &m, &msg) != CH_OK) {
        chx_reason(lang, &msg, why, n);
        return MOVE_ILLEGAL;
    }
    return play_move_in(g, s, m, lang, why, n);
}

void srv_commit_schedule(srv_game *g)
{
    if (!g->queued) {
        g->queued = 1;
        g->next_commit = g_tables.commit_list;
        g_tables.commit_list = g;
    }
    if (!g_tables.commit_scheduled && g_net.ctx) {
        g_tables.commit_scheduled = 1;
        lws_sul_schedule(g_net.ctx, 0, &g_tables.commit_sul, srv_commit_now,
                         SRV_COMMIT_WINDOW_US);
    }
}

void srv_game_kick_bots(srv_game *g)
{
    if (g->status != GAME_PLAYING || g->npending || g_tables.draining)
        return;
    if (srv_storage_wait_ms(srv_now_ms()) > 0)
        return; /* the database refuses writes: asked again after the pause */
    if (!srv_game_playable(g))
        return; /* not this node's, or waiting for the database: asked again
                   when it is (cluster.c, lease.c) */
    for (int s = 0; s < g->nseats; s++) {
        srv_seat *seat = &g->seat[s];
        if (seat->job || !(seat->kind == SEAT_BOT || seat->away))
            continue;
        if (!srv_seat_decides(g, s))
            continue;
        char why[256];
        if (!seat->bot_inst && srv_seat_make_bot(g, s, why, sizeof why) != 0) {
            srv_logf(SRV_LOG_ERROR, "game.seat", "game=%s seat=%d %s", g->id, s, why);
            continue;
        }
        if (srv_bots_submit(g_tables.bots, g, s) == 0)
            seat->job = 1;
    }
}

void srv_game_changed(srv_game *g)
{
    srv_game_kick_bots(g);
    if (g->npending)
        return; /* the commit calls again */
    if (g_tables.views && g->clients) {
        int covered = 1;
        for (srv_client *c = g->clients; c && covered; c = c->gnext)
            covered = g->vview[c->seat + 1] && g->vdec[c->seat + 1] == g->nmoves;
        if (!covered) {
            /* the clients become writable when the views are back */
            if (srv_views_request(g_tables.views, g) == 0)
                return;
        }
    }
    for (srv_client *c = g->clients; c; c = c->gnext)
        srv_client_want_state(c);
}

void srv_game_rollback(srv_game *g)
{
    if (!g->npending)
        return;
    /* issue 28 item 3: the state in memory held the refused moves, and any
       frame sent before the game was rebuilt (a resync, a join, another
       client's connection) showed them: a drawn card seen, then taken back.
       The views and legal moves made of that state go too (none is made
       while moves are pending, but a view job's may come back). */
    srv_views_clear(g);
    g->st = g->durable;
    g->nmoves = g->ncommitted;
    g->status = g->durable_status;
    if (g->status != GAME_OVER) {
        memset(g->scores, 0, sizeof g->scores);
        g->winners = 0;
    }
    g->npending = 0;
    for (srv_client *c = g->clients; c; c = c->gnext)
        if (c->log_next > g->nmoves)
            c->log_next = g->nmoves;
}

void srv_game_durable_forward(srv_game *g, int k)
{
    if (k >= g->npending)
        return; /* nothing left pending: the next pending move copies g->st */
    for (int i = 0; i < k; i++) {
        ch_msg msg;
        /* applied to this very state once already: it cannot be refused */
        if (ch_apply(&g->durable, g->pending[i].player, g->pending[i].m, &msg) != CH_OK) {
            srv_logf(SRV_LOG_ERROR, "game.corrupt", "game=%s move=%d a stored move cannot be "
                    "applied again: %s", g->id, g->pending[i].n, msg.text);
            abort();
        }
    }
    unsigned mask;
    g->durable_status = ch_decider(&g->durable, &mask) == CH_DEC_TERMINAL ? GAME_OVER
                                                                           : g->durable_status;
}

void srv_timers_check(int64_t now)
{
    for (srv_game *g = g_tables.games; g; g = g->lnext) {
        int64_t clock = srv_game_clock_ms(g); /* turn timer or days */
        if (g->status != GAME_PLAYING || clock <= 0 || g->npending)
            continue;
        if (now - g->decide_since_ms < clock)
            continue;
        int changed = 0;
        for (int s = 0; s < g->nseats; s++)
            if (g->seat[s].kind == SEAT_HUMAN && !g->seat[s].away && srv_seat_decides(g, s)) {
                g->seat[s].away = 1;
                changed = 1;
            }
        if (changed)
            srv_game_changed(g);
    }
}

/* What every client's state frame of this moment shares (status, decision,
 * deciders, seats, timer, result), as JSON members without braces. It is
 * written once and kept while its key stays: the decision and all that the
 * seats and timer show. */
static uint64_t common_key(const srv_game *g)
{
    uint64_t h = 1469598103934665603ull;
#define MIX(x) (h = (h ^ (uint64_t)(x)) * 1099511628211ull)
    MIX(g->nmoves);
    MIX(g->status);
    MIX(g->turn_timer);
    MIX(g->days);
    for (const char *q = g->rematch; *q; q++)
        MIX((unsigned char)*q);
    MIX(g->decide_since_ms);
    for (int i = 0; i < g->nseats; i++) {
        const srv_seat *s = &g->seat[i];
        MIX(s->kind);
        MIX(s->nconn > 0);
        MIX(s->away);
        MIX(s->strength);
        MIX(s->hints);
        MIX(s->owner[0]); /* 'g': a guest's, 'u': an account's */
        for (const char *q = s->name; *q; q++)
            MIX((unsigned char)*q);
        for (const char *q = s->bot; *q; q++)
            MIX((unsigned char)*q);
    }
#undef MIX
    return h;
}

static void put_seats(chx_buf *b, const srv_game *g)
{
    chx_buf_add(b, "[", 1);
    for (int i = 0; i < g->nseats; i++) {
        const srv_seat *s = &g->seat[i];
        chx_buf_puts(b, i ? ",{\"seat\":" : "{\"seat\":");
        chx_buf_int(b, i);
        chx_buf_puts(b, s->kind == SEAT_BOT ? ",\"kind\":\"bot\",\"name\":"
                                            : ",\"kind\":\"human\",\"name\":");
        chx_buf_json_str(b, s->name);
        if (s->kind == SEAT_BOT) {
            PUT_LIT(b, ",\"bot\":");
            chx_buf_json_str(b, s->bot);
            if (strcmp(s->bot, "ismcts") == 0) {
                PUT_LIT(b, ",\"strength\":");
                chx_buf_int(b, s->strength);
            }
        }
        if (s->owner[0] == 'g') /* shown as a guest (issue 28) */
            PUT_LIT(b, ",\"guest\":true");
        if (s->hints > 0) { /* hints were used (analysis.c, issue 33) */
            PUT_LIT(b, ",\"hints\":");
            chx_buf_int(b, s->hints);
        }
        chx_buf_puts(b, s->kind == SEAT_BOT || s->nconn > 0 ? ",\"connected\":true"
                                                             : ",\"connected\":false");
        chx_buf_puts(b, s->away ? ",\"away\":true}" : ",\"away\":false}");
    }
    chx_buf_add(b, "]", 1);
}

static const char *common_part(srv_game *g)
{
    uint64_t key = common_key(g);
    if (g->common && g->common_key == key)
        return g->common;
    chx_buf b = {0};
    PUT_LIT(&b, "\"status\":");
    chx_buf_json_str(&b, srv_game_status(g));
    PUT_LIT(&b, ",\"decision\":");
    chx_buf_int(&b, g->nmoves);
    PUT_LIT(&b, ",\"deciders\":[");
    unsigned mask = 0;
    int human_deciding = 0;
    if (g->status == GAME_PLAYING && ch_decider(&g->st, &mask) != CH_DEC_TERMINAL)
        for (int s = 0, k = 0; s < g->nseats; s++)
            if ((mask >> s) & 1u) {
                if (k++)
                    chx_buf_add(&b, ",", 1);
                chx_buf_int(&b, s);
                /* the deadline runs only while a person (not a bot, not a
                   stand-in) decides */
                if (g->seat[s].kind == SEAT_HUMAN && !g->seat[s].away)
                    human_deciding = 1;
            }
    PUT_LIT(&b, "]");
    size_t b0 = b.len;
    PUT_LIT(&b, ",\"seats\":");
    put_seats(&b, g);
    PUT_LIT(&b, ",\"timer\":{\"seconds\":");
    chx_buf_int(&b, (int)(srv_game_clock_ms(g) / 1000));
    if (g->days > 0) {
        PUT_LIT(&b, ",\"days\":");
        chx_buf_int(&b, g->days);
    }
    PUT_LIT(&b, ",\"deadline\":");
    if (srv_game_clock_ms(g) > 0 && human_deciding)
        chx_buf_int(&b, g->decide_since_ms + srv_game_clock_ms(g));
    else
        PUT_LIT(&b, "null");
    chx_buf_add(&b, "}", 1);
    if (g->practice) { /* a creator-chosen seed: every seat sees it */
        PUT_LIT(&b, ",\"practice\":{\"seed\":");
        chx_buf_int(&b, (int64_t)g->setup.seed);
        chx_buf_add(&b, "}", 1);
    }
    if (g->variant) { /* set up from a variant file: its name (unrated) */
        PUT_LIT(&b, ",\"variant\":");
        chx_buf_json_str(&b, g->variant_name);
    }
    size_t b1 = b.len;
    if (g->status == GAME_OVER) {
        /* the engine's breakdown of each score, for the end-of-game screen */
        PUT_LIT(&b, ",\"result\":");
        if (chx_result_json(&g->st, &b) != 0)
            PUT_LIT(&b, "null");
        if (g->rematch[0]) { /* proposed by a player (rematch.c) */
            PUT_LIT(&b, ",\"rematch\":");
            chx_buf_json_str(&b, g->rematch);
        }
    }
    free(g->common);
    g->common = b.oom ? NULL : b.s;
    g->common_len = b.oom ? 0 : b.len;
    if (b.oom)
        free(b.s);
    g->common_key = key;
    g->common_b0 = b0;
    g->common_b1 = b1;
    /* the seats, timer and practice members as they are now: a delta frame
       sends them only to a client whose last frame showed others */
    uint64_t h = 1469598103934665603ull;
    for (size_t i = b0; g->common && i < b1; i++)
        h = (h ^ (unsigned char)g->common[i]) * 1099511628211ull;
    g->common_bkey = h ? h : 1;
    return g->common;
}

/* A seat's legal moves and their prices as the state frame carries them:
 * the lines as JSON strings, then `],"prices":` and the prices, and in a
 * merger `,"previews":` and what each choice leads to (the frame
 * writes the brackets around). malloc'd, NULL when out of memory. Any thread:
 * the view workers make it beside each view of a decision (srv_legal_make),
 * so that the event loop finds it made. */
char *srv_legal_json(const ch_state *st, int seat)
{
    chx_buf lb = {0};
    int nl = 0;
    char *lines = chx_legal_lines(st, seat, &nl);
    int k = 0;
    for (char *p = lines; p && *p; k++) {
        char *e = strchr(p, '\n');
        if (e)
            *e = '\0';
        if (k)
            chx_buf_add(&lb, ",", 1);
        chx_buf_json_str(&lb, p);
        p = e ? e + 1 : p + strlen(p);
    }
    free(lines);
    /* what each money move costs or brings, for its button */
    PUT_LIT(&lb, "],\"prices\":");
    if (chx_prices_json(st, seat, &lb) != 0)
        PUT_LIT(&lb, "{}");
    /* The Golden Age: what each flag the seat may buy would score now, from
       the engine's scoring (the browser multiplies nothing itself) */
    size_t at = lb.len;
    PUT_LIT(&lb, ",\"flag_worth\":");
    if (chx_flag_worth_json(st, seat, &lb) != 1 && !lb.oom) {
        lb.len = at;
        lb.s[at] = 0;
    }
    /* in a merger's decision, what each choice leads to (issue 31) */
    if (st->phase == CH_PH_CREDIT || st->phase == CH_PH_MERGE || st->phase == CH_PH_MERGE_SELL) {
        PUT_LIT(&lb, ",\"previews\":");
        if (chx_previews_json(st, seat, &lb) != 1)
            PUT_LIT(&lb, "{}");
    }
    if (lb.oom || !lb.s) {
        free(lb.s);
        return NULL;
    }
    return lb.s;
}

/* The seats of mask (bit s+1: seat s has a client) whose legal moves a
 * view job should make: those deciding now whose moves are not made yet. */
unsigned srv_legal_wanted(const srv_game *g, unsigned mask)
{
    unsigned want = 0;
    for (int s = 0; s < g->nseats; s++)
        if (((mask >> (s + 1)) & 1u) && srv_seat_decides(g, s) &&
            (!g->legal_json[s] || g->legal_dec[s] != g->nmoves))
            want |= 1u << s;
    return want;
}

/* On a view worker: the legal moves of the seats of want in st. */
void srv_legal_make(const ch_state *st, unsigned want, char **legal)
{
    for (int s = 0; s < CH_MAX_PLAYERS; s++)
        legal[s] = (want >> s) & 1u ? srv_legal_json(st, s) : NULL;
}

/* A job's legal moves not installed (a free per seat that has them). */
void srv_legal_free(char **legal)
{
    for (int s = 0; s < CH_MAX_PLAYERS; s++)
        if (legal[s])
            free(legal[s]);
}

/* On the loop, when a view job of decision d made from state st is taken:
 * its legal moves are kept (taken over) where none are made, if the game is
 * still in that state (not rebuilt meanwhile: srv_replay_moves). */
void srv_legal_install(srv_game *g, int d, const ch_state *st, char **legal)
{
    int same = -1;
    for (int s = 0; s < CH_MAX_PLAYERS; s++) {
        if (!legal[s] || d != g->nmoves || (g->legal_json[s] && g->legal_dec[s] == d))
            continue;
        if (same < 0)
            same = memcmp(st, &g->st, sizeof *st) == 0;
        if (!same)
            return;
        free(g->legal_json[s]);
        g->legal_json[s] = legal[s];
        g->legal_dec[s] = d;
        legal[s] = NULL;
    }
}

srv_out *srv_state_frame(srv_game *g, srv_client *c)
{
    int seat = c->seat;
    const char *common = common_part(g);
    /* the members of every frame, then this client's own: its legal moves
       and the log as it may see it; the view and the closing brace follow.
       The buffer is kept from frame to frame (the loop's thread only): a
       buffer per frame was two calls to malloc and one to free. */
    static chx_buf hb_kept;
    chx_buf hb = hb_kept;
    hb.len = 0;
    hb.oom = 0;
    PUT_LIT(&hb, "{\"type\":\"state\",\"game\":");
    chx_buf_json_str(&hb, g->id);
    PUT_LIT(&hb, ",\"seat\":");
    chx_buf_int(&hb, seat);
    PUT_LIT(&hb, ",\"seq\":");
    chx_buf_int(&hb, (long long)c->seq + 1);
    chx_buf_add(&hb, ",", 1);
    /* a delta frame leaves out the seats, timer and practice members when
       the client's last frame showed the same (docs/protocol.md) */
    int delta = !c->full_frames;
    int send_b = !delta || c->bkey_sent != g->common_bkey;
    if (common && send_b) {
        chx_buf_add(&hb, common, g->common_len);
    } else if (common) {
        chx_buf_add(&hb, common, g->common_b0);
        chx_buf_add(&hb, common + g->common_b1, g->common_len - g->common_b1);
    }
    PUT_LIT(&hb, ",\"legal\":[");
    if (seat >= 0 && srv_seat_decides(g, seat)) {
        /* the legal moves and their prices: made once per decision and seat
           (a seat's other connections, frames of the same decision) */
        if (!g->legal_json[seat] || g->legal_dec[seat] != g->nmoves) {
            free(g->legal_json[seat]);
            g->legal_json[seat] = srv_legal_json(&g->st, seat);
            g->legal_dec[seat] = g->nmoves;
        }
#ifdef CH_DEBUG_CHECKS
        else { /* made on a view worker (srv_legal_make): the same as here */
            char *here = srv_legal_json(&g->st, seat);
            if (here && strcmp(here, g->legal_json[seat]) != 0) {
                srv_logf(SRV_LOG_ERROR, "server.bug", "game=%s seat=%d decision=%d the legal "
                        "moves made on a worker differ from the loop's", g->id, seat,
                        g->nmoves);
                abort();
            }
            free(here);
        }
#endif
        if (g->legal_json[seat])
            chx_buf_puts(&hb, g->legal_json[seat]);
        else
            hb.oom = 1;
        PUT_LIT(&hb, ",\"log\":[");
    } else {
        PUT_LIT(&hb, "],\"log\":[");
    }
    int first = g->nmoves - SRV_LOG_FIRST;
    if (c->log_next > first)
        first = c->log_next;
    if (first < 0)
        first = 0;
    size_t last_at = 0, last_end = 0;
    for (int k = first; k < g->nmoves; k++) {
        if (k > first)
            chx_buf_add(&hb, ",", 1);
        last_at = hb.len;
        srv_log_write(&hb, &g->log[k % SRV_LOG_RING], seat, c->lang);
        last_end = hb.len;
    }
    PUT_LIT(&hb, "],\"last\":");
    if (last_end > last_at && !hb.oom) {
        /* the log's last entry again */
        chx_buf_again(&hb, last_at, last_end - last_at);
    } else if (g->nmoves > 0) {
        srv_log_write(&hb, &g->log[(g->nmoves - 1) % SRV_LOG_RING], seat, c->lang);
    } else {
        PUT_LIT(&hb, "null");
    }
    chx_buf_add(&hb, "}", 1);
    hb_kept = hb;
    const char *head = !common || hb.oom ? NULL : hb.s;
    /* the view of this decision (built by a worker, else here): whole, or
       as the patch from the view the client holds */
    int k = seat + 1;
    if (srv_view_here(g, k) != 0)
        return NULL;
    const char *view = g->vview[k]->text;
    const char *patch = NULL;
    char empty[] = "[]";
    if (delta && c->view_dec == g->nmoves)
        patch = empty; /* the view has not changed (seats, timer did) */
    else if (delta && c->view_dec >= 0 && g->vpatch[k] && g->vbase[k] == c->view_dec)
        patch = g->vpatch[k];
    /* the board and card table, when this client lacks them or they changed */
    uint32_t stamp = g->stamp_now;
    if (!stamp || g->stamp_dec != g->nmoves) {
        /* once per decision, not per frame (it reads every card): every
           viewer sees the same table (chartered.h), which debug builds check
           at each frame; never 0 */
        stamp = g->stamp_now = ch_view_static_stamp(&g->st, seat);
        g->stamp_dec = g->nmoves;
    }
#ifdef CH_DEBUG_CHECKS
    if (stamp != ch_view_static_stamp(&g->st, seat)) {
        srv_logf(SRV_LOG_ERROR, "server.bug", "game=%s decision=%d a kept static stamp is not "
                "the state's", g->id, g->nmoves);
        abort();
    }
#endif
    if (!g->static_json || g->static_stamp != stamp) {
        ch_free(g->static_json);
        g->static_json = ch_view_json(&g->st, seat, CH_JSON_STATIC | CH_JSON_COMPACT);
        g->static_stamp = g->static_json ? stamp : 0;
    }
    const char *stat = c->static_stamp != stamp ? g->static_json : NULL;
    if (!head || (c->static_stamp != stamp && !stat))
        return NULL;
    /* ,"patch":{"base":N,"ops": (digits without printf: once per frame) */
    char basebuf[48];
    size_t bl = 0;
    if (patch) {
        static const char pre[] = ",\"patch\":{\"base\":", post[] = ",\"ops\":";
        memcpy(basebuf, pre, sizeof pre - 1);
        bl = sizeof pre - 1;
        char dig[16];
        int nd = 0;
        unsigned u = c->view_dec > 0 ? (unsigned)c->view_dec : 0;
        do {
            dig[nd++] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        while (nd)
            basebuf[bl++] = dig[--nd];
        memcpy(basebuf + bl, post, sizeof post - 1);
        bl += sizeof post - 1;
    }
    size_t hl = hb.len, sl = stat ? strlen(stat) : 0;
    size_t vl = !patch ? g->vview[k]->len : patch == empty ? 2 : g->vview[k]->patch_len;
    /* the frame in a buffer the loop keeps (it is written at once, and
       libwebsockets copies what the kernel does not take): no malloc and
       free per frame on the loop */
    static srv_out *out_kept;
    static size_t out_cap;
    size_t need = sizeof *out_kept + LWS_PRE + hl + bl + vl + sl + 32;
    if (need > out_cap) {
        size_t cap = need + need / 2;
        srv_out *nb = realloc(out_kept, cap);
        if (nb) {
            out_kept = nb;
            out_cap = cap;
        }
    }
    srv_out *out = need <= out_cap ? out_kept : NULL;
    if (out) {
        unsigned char *p = out->buf + LWS_PRE;
        memcpy(p, head, hl - 1); /* without the closing brace */
        size_t len = hl - 1;
        if (patch) {
            memcpy(p + len, basebuf, bl);
            len += bl;
            memcpy(p + len, patch, vl);
            len += vl;
            p[len++] = '}';
        } else {
            memcpy(p + len, ",\"view\":", 8);
            len += 8;
            memcpy(p + len, view, vl);
            len += vl;
        }
        if (stat) {
            memcpy(p + len, ",\"static\":", 10);
            len += 10;
            memcpy(p + len, stat, sl);
            len += sl;
            c->static_stamp = stamp;
        }
        p[len++] = '}';
        out->len = len;
        out->next = NULL;
        c->log_next = g->nmoves;
        c->sent_decision = g->nmoves;
        c->view_dec = g->nmoves;
        c->seq++;
        if (send_b)
            c->bkey_sent = g->common_bkey;
    }
    return out;
}

int srv_replay_moves(srv_game *g, json_t *moves, int upto, char *why, size_t n)
{
    srv_views_clear(g); /* views (and legal moves) of the game before it was rebuilt */
    if (srv_game_start_state(g, why, n) != 0)
        return -1;
    size_t i;
    json_t *mv;
    json_array_foreach(moves, i, mv) {
        if (upto >= 0 && (int)i >= upto)
            break;
        int p = (int)json_integer_value(json_object_get(mv, "player"));
        const char *text = json_string_value(json_object_get(mv, "move"));
        ch_move m;
        ch_msg msg;
        if (!text || ch_move_parse(&g->st, p, text, &m, &msg) != CH_OK) {
            snprintf(why, n, "stored move %zu (%s): %s", i, text ? text : "?",
                     text ? msg.text : "missing");
            return -1;
        }
        ch_state before = g->st;
        if (ch_apply(&g->st, p, m, &msg) != CH_OK) {
            snprintf(why, n, "stored move %zu (%s): %s", i, text, msg.text);
            return -1;
        }
        /* words only for the entries the log can still show */
        log_add(g, &before, p, m, (int)i + SRV_LOG_RING >= (int)json_array_size(moves));
        g->nmoves++;
    }
    g->ncommitted = g->nmoves;
    return 0;
}
