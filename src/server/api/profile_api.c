/* profile_api.c: the players' side of the JSON API (docs/protocol.md,
 * "Players"): a player's profile (ratings per edition, games played, the
 * finished games with their replays), the leaderboard of an edition, the
 * games of the session's player ("My games": every game where it is their
 * turn first), the sessions of the session's account (docs/identity.md),
 * and the rematch of a finished game. Profiles and
 * leaderboards are read from the tables results.c and turnbased.c keep.
 * Like the list of finished games they are read off the event loop, on the
 * writer thread (srv_profile_want, srv_profile_read_db, called by
 * http_api.c and reads.c), and the request is answered when the read is
 * back; "My games" adds the games in memory on the loop. Without a read
 * made beforehand (no memory for it) the same functions read on the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"

#define PROFILE_GAMES 100   /* finished games on a profile, newest first */
#define BOARD_PLAYERS 100   /* players on a leaderboard */

static db_conn *db(void)
{
    return srv_store_db(g_storage.store);
}

/* The edition key of a stored setup (read here rather than in SQL: the
 * JSON functions of SQLite and PostgreSQL differ). */
static const char *edition_of(const char *setup_text, char *out, size_t n)
{
    json_t *setup = setup_text ? json_loads(setup_text, 0, NULL) : NULL;
    const char *ed = json_string_value(json_object_get(setup, "edition"));
    snprintf(out, n, "%s", ed ? ed : "amsterdam");
    json_decref(setup);
    return out;
}

static json_t *rating_json(const char *edition, double r, double rd, int games)
{
    rating_settings set;
    rating_settings_default(&set);
    rating_glicko g = {r, rd, 0};
    return json_pack("{s:s,s:i,s:i,s:b,s:i}", "edition", edition, "rating", (int)(r + 0.5),
                     "deviation", (int)(rd + 0.5), "provisional", rating_provisional(&set, &g),
                     "games", games);
}

/* The hints seat s was given (issue 33: "hints" in the stored seats). */
static int seat_hints(const char *seats_text, int s)
{
    json_t *seats = seats_text ? json_loads(seats_text, 0, NULL) : NULL;
    json_int_t n = json_integer_value(json_object_get(json_array_get(seats, (size_t)s), "hints"));
    json_decref(seats);
    return n > 0 && n < 1000000 ? (int)n : 0;
}

/* Names of the seats of a stored seats array. */
static json_t *seat_names(const char *seats_text)
{
    json_t *names = json_array();
    json_t *seats = seats_text ? json_loads(seats_text, 0, NULL) : NULL;
    size_t i;
    json_t *o;
    json_array_foreach(seats, i, o) {
        const char *nm = json_string_value(json_object_get(o, "name"));
        json_array_append_new(names, json_string(nm ? nm : ""));
    }
    json_decref(seats);
    return names;
}

/* A player's profile read on connection c; NULL with *status and *why set
 * when there is none. Any thread (no server state). */
static json_t *player_db(db_conn *c, const char *name, int *status, const char **why)
{
    db_rows *st = db_query(c, "SELECT id, name, created FROM accounts WHERE name_key = "
                           "lower($1)", DB_P(DB_T(name)));
    if (!st) {
        *status = 500;
        *why = "the database cannot read players";
        return NULL;
    }
    if (db_next(st) != 1) {
        db_end(st);
        *status = 404;
        *why = "no player with that name";
        return NULL;
    }
    int64_t uid = db_int(st, 0);
    json_t *out = json_pack("{s:s,s:I}", "name", db_text(st, 1) ? db_text(st, 1) : "",
                            "created", (json_int_t)db_int(st, 2));
    db_end(st);

    json_t *ratings = json_array();
    if ((st = db_query(c, "SELECT edition, rating, deviation, games FROM ratings "
                       "WHERE user_id=$1 ORDER BY edition", DB_P(DB_I(uid))))) {
        while (db_next(st) == 1)
            json_array_append_new(ratings, rating_json(db_text(st, 0), db_real(st, 1),
                                                       db_real(st, 2), (int)db_int(st, 3)));
        db_end(st);
    }
    json_object_set_new(out, "ratings", ratings);

    int played = 0, playing = 0;
    if ((st = db_query(c, "SELECT (SELECT count(*) FROM game_players p JOIN results r "
                       "ON r.game=p.game WHERE p.user_id=$1), (SELECT count(*) FROM "
                       "game_players p JOIN games g ON g.id=p.game WHERE p.user_id=$1 AND "
                       "g.status='playing')", DB_P(DB_I(uid))))) {
        if (db_next(st) == 1) {
            played = (int)db_int(st, 0);
            playing = (int)db_int(st, 1);
        }
        db_end(st);
    }
    json_object_set_new(out, "played", json_integer(played));
    json_object_set_new(out, "playing", json_integer(playing));

    json_t *games = json_array();
    if ((st = db_query(c, "SELECT p.game, p.seat, g.setup, "
                       "g.seats, r.finished, r.scores, r.winners, r.rated, c.place, "
                       "c.rating_before, c.rating_after FROM game_players p "
                       "JOIN results r ON r.game=p.game JOIN games g ON g.id=p.game "
                       "LEFT JOIN rating_changes c ON c.game=p.game AND c.user_id=p.user_id "
                       "WHERE p.user_id=$1 ORDER BY r.finished DESC, p.game LIMIT $2",
                       DB_P(DB_I(uid), DB_I(PROFILE_GAMES))))) {
        while (db_next(st) == 1) {
            const char *id = db_text(st, 0);
            char replay[64], ed[32];
            snprintf(replay, sizeof replay, "/#/replay/%s", id ? id : "");
            edition_of(db_text(st, 2), ed, sizeof ed);
            json_t *sc = json_loads(db_text(st, 5) ? db_text(st, 5) : "", 0, NULL);
            json_t *w = json_loads(db_text(st, 6) ? db_text(st, 6) : "", 0, NULL);
            json_t *gm = json_pack("{s:s,s:s,s:i,s:I,s:o,s:o,s:o,s:b,s:s}", "id", id ? id : "",
                                   "edition", ed, "seat", (int)db_int(st, 1), "finished",
                                   (json_int_t)db_int(st, 4), "names",
                                   seat_names(db_text(st, 3)),
                                   "scores", sc ? sc : json_array(), "winners",
                                   w ? w : json_array(), "rated", (int)db_int(st, 7),
                                   "replay", replay);
            int hints = seat_hints(db_text(st, 3), (int)db_int(st, 1));
            if (hints) /* a game in which hints were used is marked */
                json_object_set_new(gm, "hints", json_integer(hints));
            if (!db_null(st, 8)) {
                json_object_set_new(gm, "place", json_integer(db_int(st, 8)));
                json_object_set_new(gm, "rating_before",
                                    json_integer((int)(db_real(st, 9) + 0.5)));
                json_object_set_new(gm, "rating_after",
                                    json_integer((int)(db_real(st, 10) + 0.5)));
            }
            json_array_append_new(games, gm);
        }
        db_end(st);
    }
    json_object_set_new(out, "games", games);
    *status = 200;
    return out;
}

/* The edition a leaderboard asks for; NULL: none of ours. */
static const char *board_edition(struct lws *wsi, char *buf, size_t n)
{
    const char *ed = lws_get_urlarg_by_name(wsi, "edition=", buf, (int)n);
    if (!ed)
        ed = "amsterdam";
    return strcmp(ed, "amsterdam") && strcmp(ed, "golden-age") ? NULL : ed;
}

/* The leaderboard of edition ed read on connection c. Any thread. */
static json_t *board_db(db_conn *c, const char *ed, int *status, const char **why)
{
    rating_settings set;
    rating_settings_default(&set);
    /* established ratings first (lichess lists only those), then the
       provisional ones, each by rating */
    db_rows *st = db_query(c, "SELECT a.name, r.rating, r.deviation, r.games FROM ratings r "
                           "JOIN accounts a ON a.id=r.user_id WHERE r.edition=$1 ORDER BY "
                           "(r.deviation >= $2), r.rating DESC, a.name LIMIT $3",
                           DB_P(DB_T(ed), DB_D(set.provisional_deviation),
                                DB_I(BOARD_PLAYERS)));
    if (!st) {
        *status = 500;
        *why = "the database cannot read the ratings";
        return NULL;
    }
    json_t *players = json_array();
    int rank = 0;
    while (db_next(st) == 1) {
        json_t *p = rating_json(ed, db_real(st, 1), db_real(st, 2), (int)db_int(st, 3));
        json_object_del(p, "edition");
        json_object_set_new(p, "rank", json_integer(++rank));
        json_object_set_new(p, "name", json_string(db_text(st, 0) ? db_text(st, 0) : ""));
        json_array_append_new(players, p);
    }
    db_end(st);
    *status = 200;
    return json_pack("{s:s,s:o}", "edition", ed, "players", players);
}

/* The table of a "My games" entry, so a row can name the opponents and
 * whose turn it is (issue 32): [{seat, name, bot, deciding}], from the game
 * in memory or from the stored seats (deciding: to_move's bit, people only;
 * -1: none known). */
static json_t *players_mem(const srv_game *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->nseats; i++)
        json_array_append_new(a, json_pack("{s:i,s:s,s:b,s:b}", "seat", i, "name",
                                           g->seat[i].name, "bot", g->seat[i].kind == SEAT_BOT,
                                           "deciding", srv_seat_decides(g, i)));
    return a;
}

static json_t *players_stored(const char *seats_text, int64_t to_move)
{
    json_t *a = json_array(), *seats = seats_text ? json_loads(seats_text, 0, NULL) : NULL;
    size_t i;
    json_t *o;
    json_array_foreach(seats, i, o) {
        const char *name = json_string_value(json_object_get(o, "name"));
        const char *kind = json_string_value(json_object_get(o, "kind"));
        json_array_append_new(a, json_pack("{s:i,s:s,s:b,s:b}", "seat", (int)i, "name",
                                           name ? name : "", "bot", kind && !strcmp(kind, "bot"),
                                           "deciding", i < 63 && ((to_move >> i) & 1)));
    }
    json_decref(seats);
    return a;
}

/* One entry of "My games" (players: stolen, may be NULL). */
static json_t *my_entry(const char *id, const char *edition, int seat, int turn, int days,
                        int64_t deadline_ms, json_t *players)
{
    char link[64];
    snprintf(link, sizeof link, "/#/play/%s", id);
    json_t *o = json_pack("{s:s,s:s,s:i,s:b,s:s,s:s}", "id", id, "edition", edition, "seat", seat,
                          "your_turn", turn, "mode", days > 0 ? "turn-based" : "live", "link",
                          link);
    if (days > 0)
        json_object_set_new(o, "days", json_integer(days));
    json_object_set_new(o, "deadline", deadline_ms > 0 ? json_integer(deadline_ms) : json_null());
    json_object_set_new(o, "players", players ? players : json_array());
    return o;
}

/* The turn-based games of `me` stored in the database, as "My games"
 * entries, read on connection c (any thread); the loop drops those held in
 * memory (listed from there). A failed read lists none, as before. */
static json_t *mine_db(db_conn *c, const srv_ident *me)
{
    json_t *out = json_array();
    /* accounts only: a guest's games are in memory while the guest plays */
    int64_t uid = me->user_id;
    db_rows *st;
    if (uid > 0 && (st = db_query(c, "SELECT p.game, p.seat, g.setup, t.since, t.days, "
                                  "t.to_move, g.seats FROM game_players p JOIN turn_clock t ON "
                                  "t.game=p.game JOIN games g ON g.id=p.game WHERE p.user_id=$1",
                                  DB_P(DB_I(uid))))) {
        while (db_next(st) == 1) {
            const char *id = db_text(st, 0);
            if (!id)
                continue;
            int s = (int)db_int(st, 1), days = (int)db_int(st, 4);
            int mine = (int)((db_int(st, 5) >> s) & 1);
            char ed[32];
            edition_of(db_text(st, 2), ed, sizeof ed);
            int64_t since = db_int(st, 3);
            json_array_append_new(out, my_entry(id, ed, s, mine, days,
                                                mine && since > 0 ? since + days * srv_day_ms()
                                                                  : 0,
                                                players_stored(db_text(st, 6), db_int(st, 5))));
        }
        db_end(st);
    }
    /* a guest's, out of memory (a guest has no row in game_players: its
       seats name its session, "owner":"g:SID", in the stored seats) */
    char like[128];
    if (uid <= 0 && !strncmp(me->owner, "g:", 2) && strlen(me->owner) < 100 &&
        !strpbrk(me->owner, "%_\\\"")) {
        snprintf(like, sizeof like, "%%\"owner\":\"%s\"%%", me->owner);
        st = db_query(c, "SELECT g.id, g.seats, g.setup, t.since, t.days, t.to_move FROM "
                      "games g JOIN turn_clock t ON t.game=g.id WHERE g.seats LIKE $1",
                      DB_P(DB_T(like)));
        while (st && db_next(st) == 1) {
            const char *id = db_text(st, 0);
            json_t *seats = id ? json_loads(db_text(st, 1), 0, NULL) : NULL;
            int s = -1;
            size_t k;
            json_t *o;
            json_array_foreach(seats, k, o) {
                const char *ow = json_string_value(json_object_get(o, "owner"));
                if (ow && !strcmp(ow, me->owner))
                    s = (int)k;
            }
            json_decref(seats);
            if (s < 0)
                continue;
            int days = (int)db_int(st, 4);
            int mine = (int)((db_int(st, 5) >> s) & 1);
            char ed[32];
            edition_of(db_text(st, 2), ed, sizeof ed);
            int64_t since = db_int(st, 3);
            json_array_append_new(out, my_entry(id, ed, s, mine, days,
                                                mine && since > 0 ? since + days * srv_day_ms()
                                                                  : 0,
                                                players_stored(db_text(st, 1), db_int(st, 5))));
        }
        if (st)
            db_end(st);
    }
    return out;
}

static int api_my_games(struct lws *wsi, srv_pss *pss)
{
    srv_ident me;
    srv_ident_of(wsi, &me);
    if (!me.owner[0])
        return srv_http_error(wsi, 401, "\"My games\" needs a session: log in or play as a guest");
    json_t *turn = json_array(), *wait = json_array();
    /* the games in memory */
    for (srv_game *g = g_tables.games; g; g = g->lnext) {
        if (g->status == GAME_OVER)
            continue;
        int s = srv_seat_of(g, me.owner);
        if (s < 0)
            continue;
        int mine = srv_seat_decides(g, s);
        int64_t clock = srv_game_clock_ms(g);
        json_array_append_new(mine ? turn : wait,
                              my_entry(g->id, g->setup.edition == CH_ED_GOLDEN_AGE ?
                                       "golden-age" : "amsterdam", s, mine, g->days,
                                       mine && clock > 0 ? g->decide_since_ms + clock : 0,
                                       players_mem(g)));
    }
    /* and the turn-based ones out of memory: read off the loop before
       routing (reads.c), else here */
    json_t *stored;
    if (pss && pss->have_profile) {
        stored = pss->profile;
        pss->profile = NULL;
    } else {
        stored = mine_db(db(), &me);
    }
    size_t i;
    json_t *o;
    json_array_foreach(stored, i, o) {
        if (srv_game_held(json_string_value(json_object_get(o, "id"))))
            continue; /* in memory: listed above */
        json_array_append(json_is_true(json_object_get(o, "your_turn")) ? turn : wait, o);
    }
    json_decref(stored);
    /* your turn first */
    json_array_foreach(wait, i, o) json_array_append(turn, o);
    json_decref(wait);
    return srv_http_respond(wsi, 200, json_pack("{s:o}", "games", turn), NULL);
}

/* A page read beforehand (reads.c) or now, answered. */
static int answer(struct lws *wsi, srv_pss *pss, json_t *now, int status, const char *why)
{
    if (pss && pss->have_profile) {
        now = pss->profile;
        pss->profile = NULL;
        status = pss->profile_status;
        why = pss->profile_why;
    }
    if (!now)
        return srv_http_error(wsi, (unsigned)status, why ? why : "the database failed");
    return srv_http_respond(wsi, 200, now, NULL);
}

/* The name of GET /api/players/NAME, decoded; 0: not a name of ours. */
static int player_name(const char *rest, char *dec, size_t n)
{
    const char *name = rest + 8;
    if (!*name || strlen(name) > 64 || strchr(name, '/'))
        return 0;
    lws_urldecode(dec, name, (int)n);
    return 1;
}

int srv_profile_want(struct lws *wsi, const char *rest, int is_post, srv_read *r)
{
    char buf[32];
    const char *ed;
    if (is_post)
        return 0;
    if (!strncmp(rest, "players/", 8)) {
        if (!player_name(rest, r->profile_arg, sizeof r->profile_arg))
            return 0; /* 404 at once */
        r->profile_kind = SRV_PROFILE_PLAYER;
    } else if (!strcmp(rest, "leaderboard")) {
        if (!(ed = board_edition(wsi, buf, sizeof buf)))
            return 0; /* 400 at once */
        snprintf(r->profile_arg, sizeof r->profile_arg, "%s", ed);
        r->profile_kind = SRV_PROFILE_BOARD;
    } else if (!strcmp(rest, "my-games")) {
        /* the session is read first, in the same job (want_ident); none:
           401 at once */
        if (!r->want_ident)
            return 0;
        srv_day_ms(); /* set once here, on the loop: the writer only reads it */
        r->profile_kind = SRV_PROFILE_MINE;
    } else if (!strcmp(rest, "sessions")) {
        /* one's sessions (docs/identity.md): after the session, in the same
           job; none: 401 at once */
        if (!r->want_ident)
            return 0;
        r->profile_kind = SRV_PROFILE_SESSIONS;
    } else {
        return 0;
    }
    r->want_profile = 1;
    return 1;
}

void srv_profile_read_db(db_conn *c, srv_read *r)
{
    static const srv_ident nobody;
    r->profile_status = 200;
    r->profile_why = NULL;
    switch (r->profile_kind) {
    case SRV_PROFILE_PLAYER:
        r->profile = player_db(c, r->profile_arg, &r->profile_status, &r->profile_why);
        break;
    case SRV_PROFILE_BOARD:
        r->profile = board_db(c, r->profile_arg, &r->profile_status, &r->profile_why);
        break;
    case SRV_PROFILE_MINE:
        r->profile = mine_db(c, r->ident_found ? &r->ident : &nobody);
        break;
    case SRV_PROFILE_SESSIONS:
        r->profile = r->ident_found ? srv_sessions_list_db(c, &r->ident) : NULL;
        r->profile_status = r->ident_found ? 500 : 401;
        r->profile_why = r->ident_found ? "the database cannot read the sessions"
                                        : "log in first";
        if (r->profile) {
            r->profile = json_pack("{s:o}", "sessions", r->profile);
            r->profile_status = 200;
        }
        break;
    default:
        break;
    }
}

int srv_profile_route(struct lws *wsi, const char *rest, int is_post, int *rc, srv_pss *pss)
{
    int status = 500;
    const char *why = NULL;
    if (!strncmp(rest, "players/", 8) && !is_post) {
        char dec[80];
        if (!player_name(rest, dec, sizeof dec)) {
            *rc = srv_http_error(wsi, 404, "no player with that name");
            return 1;
        }
        json_t *now = pss && pss->have_profile ? NULL : player_db(db(), dec, &status, &why);
        *rc = answer(wsi, pss, now, status, why);
        return 1;
    }
    if (!strcmp(rest, "leaderboard") && !is_post) {
        char buf[32];
        const char *ed = board_edition(wsi, buf, sizeof buf);
        if (!ed) {
            *rc = srv_http_error(wsi, 400, "edition must be \"amsterdam\" or \"golden-age\"");
            return 1;
        }
        json_t *now = pss && pss->have_profile ? NULL : board_db(db(), ed, &status, &why);
        *rc = answer(wsi, pss, now, status, why);
        return 1;
    }
    if (!strcmp(rest, "sessions") && !is_post) {
        srv_ident me;
        srv_ident_of(wsi, &me);
        if (!me.owner[0]) {
            *rc = srv_http_error(wsi, 401, "log in first");
            return 1;
        }
        json_t *now = NULL;
        if (!(pss && pss->have_profile)) { /* no read made beforehand: here */
            json_t *list = srv_sessions_list_db(db(), &me);
            now = list ? json_pack("{s:o}", "sessions", list) : NULL;
        }
        *rc = answer(wsi, pss, now, 500, "the database cannot read the sessions");
        return 1;
    }
    if (!strcmp(rest, "my-games") && !is_post) {
        *rc = api_my_games(wsi, pss);
        return 1;
    }
    return 0;
}
