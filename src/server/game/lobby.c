/* lobby.c: the games the server holds: finding them by id, creating one from
 * a POST /api/games request (edition, players, arrangement, preset, events,
 * seats with bots), the summaries the lobby lists, the setup and seats as
 * stored in the database, and seat claims (a game starts once every human
 * seat has been claimed).
 *
 * Memory holds the games in play and the finished games looked at lately: a
 * finished game that no client has watched for the eviction delay is
 * dropped (srv_games_evict, from the periodic tick), and read back from the
 * database when someone asks for it again (srv_game_find); each request for
 * a game held starts its delay again. Without that,
 * every game ever played would stay in memory until the server stops.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game_impl.h"

srv_tables g_tables;
srv_table_hooks srv_table_up;

void srv_tables_register(const srv_table_hooks *h)
{
    srv_table_up = *h;
}

int srv_game_playable(const srv_game *g)
{
    if (g->reload_due)
        return 0;
    return srv_table_up.playable ? srv_table_up.playable(g) : 1;
}

static unsigned hash_id(const char *id)
{
    unsigned h = 2166136261u;
    for (; *id; id++)
        h = (h ^ (unsigned char)*id) * 16777619u;
    return h % 4096;
}

srv_game *srv_game_held(const char *id)
{
    if (!id)
        return NULL;
    for (srv_game *g = g_tables.hash[hash_id(id)]; g; g = g->hnext)
        if (strcmp(g->id, id) == 0)
            return g;
    return NULL;
}

srv_game *srv_game_find(const char *id)
{
    srv_game *g = srv_game_held(id);
    if (g) {
        /* asked for: an idle game's delay before eviction starts again, so
           that a summary and then its replay read the game once, not once
           each when the delay happened to run out between them */
        g->idle_since_ms = 0;
        return g;
    }
    if (!id || strlen(id) != SRV_ID_HEX || !g_storage.store)
        return g;
    /* live games in play are always held: only a finished game or a
       turn-based one (turnbased.c) can be in the database alone */
    g = srv_store_load_over(g_storage.store, id);
    if (g) {
        srv_game_add(g);
        g_tables.games_reloaded++;
    }
    return g;
}

/* Default delay before a finished, unwatched game leaves memory. */
#define SRV_EVICT_DEFAULT_S 600

/* The delay in ms: CHARTERED_EVICT_SECONDS (seconds, may have a fraction;
 * tests set it short) or the default. */
static int64_t evict_after_ms(void)
{
    static int64_t ms = -1;
    if (ms >= 0)
        return ms;
    ms = (int64_t)SRV_EVICT_DEFAULT_S * 1000;
    const char *v = getenv("CHARTERED_EVICT_SECONDS");
    if (v && *v) {
        char *end;
        double d = strtod(v, &end);
        if (*end || !(d >= 0 && d <= 1e7))
            srv_logf(SRV_LOG_WARN, "config.ignored", "variable=CHARTERED_EVICT_SECONDS value=%.40s "
                    "must be seconds from 0: using %d", v, SRV_EVICT_DEFAULT_S);
        else
            ms = (int64_t)(d * 1000);
    }
    return ms;
}

/* Nothing refers to the game but the server's list and hash: no client,
 * nothing to write, no bot or view job in flight. */
static int unattended_over(const srv_game *g)
{
    if (g->status != GAME_OVER || g->clients || g->npending || g->queued || g->commit_busy ||
        g->meta_dirty || g->views_job)
        return 0;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].job)
            return 0;
    return 1;
}

void srv_games_evict(int64_t now)
{
    int64_t after = evict_after_ms();
    for (srv_game **pp = &g_tables.games; *pp;) {
        srv_game *g = *pp;
        if (!unattended_over(g) && !srv_turn_idle(g)) {
            g->idle_since_ms = 0;
            pp = &g->lnext;
            continue;
        }
        if (!g->idle_since_ms)
            g->idle_since_ms = now;
        if (now - g->idle_since_ms < after) {
            pp = &g->lnext;
            continue;
        }
        *pp = g->lnext; /* out of the list, then out of its hash chain */
        srv_game_unhash(g);
        g_tables.ngames--;
        g_tables.games_evicted++;
        if (srv_table_up.evicted)
            srv_table_up.evicted(g); /* a cluster node gives its lease back (cluster.c) */
        srv_game_free(g);
    }
}

void srv_game_unhash(srv_game *g)
{
    for (srv_game **hp = &g_tables.hash[hash_id(g->id)]; *hp; hp = &(*hp)->hnext)
        if (*hp == g) {
            *hp = g->hnext;
            break;
        }
}

const char *srv_game_status(const srv_game *g)
{
    if (g->status == GAME_OVER && g->abandoned)
        return g->abandoned == 2 ? "aborted" : "abandoned";
    return srv_status_name(g->status);
}

void srv_game_add(srv_game *g)
{
    unsigned h = hash_id(g->id);
    g->hnext = g_tables.hash[h];
    g_tables.hash[h] = g;
    g->lnext = g_tables.games;
    g_tables.games = g;
    g_tables.ngames++;
}

const char *srv_status_name(int status)
{
    return status == GAME_WAITING ? "waiting" : status == GAME_PLAYING ? "playing" : "over";
}

static const char *edition_id(int ed)
{
    return ed == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam";
}

json_t *srv_options_json(void)
{
    json_t *eds = json_array();
    for (int ed = 0; ed < 2; ed++) {
        json_t *arr = json_array();
        for (const char *const *n = ch_board_builtin_names(ed); n && *n; n++)
            json_array_append_new(arr, json_string(*n));
        json_t *e = json_pack("{s:s,s:[i,i],s:o}", "id", edition_id(ed), "players",
                              2, ed == CH_ED_GOLDEN_AGE ? 6 : 5, "arrangements", arr);
        if (ed == CH_ED_GOLDEN_AGE) {
            json_object_set_new(e, "presets", json_pack("[s,s]", "golden-age", "golden-age-first"));
            json_object_set_new(e, "events", json_true());
        }
        json_array_append_new(eds, e);
    }
    json_t *o = json_pack("{s:o,s:[{s:s},{s:s},{s:s},{s:s,s:[i,i,i]}],s:{s:i,s:i}}", "editions", eds,
                     "bots", "id", "random", "id", "greedy", "id", "rollout", "id", "ismcts", "strengths",
                     1, 2, 3, "limits", "frame_bytes", SRV_FRAME_MAX, "turn_timer_max", 86400);
    /* the limits a client may meet (docs/protocol.md, "Limits") */
    json_t *lim = json_object_get(o, "limits");
    json_object_set_new(lim, "creates_per_minute", json_integer(srv_limit(SRV_LIMIT_CREATES_PER_MIN)));
    json_object_set_new(lim, "waiting_per_address", json_integer(srv_limit(SRV_LIMIT_WAITING_PER_ADDR)));
    json_object_set_new(lim, "waiting_expire_seconds",
                        json_integer(srv_limit(SRV_LIMIT_WAITING_EXPIRE_S)));
    json_object_set_new(lim, "connections_per_address",
                        json_integer(srv_limit(SRV_LIMIT_CONNS_PER_ADDR)));
    json_object_set_new(lim, "abandon_seconds", json_integer(srv_limit(SRV_LIMIT_ABANDON_S)));
    json_object_set_new(lim, "botgames_per_address", json_integer(srv_botgames_limit(0)));
    json_object_set_new(lim, "botgames_max", json_integer(srv_botgames_limit(1)));
    json_object_set_new(lim, "request_seconds", json_integer(srv_limit(SRV_LIMIT_REQUEST_S)));
    json_object_set_new(lim, "frames_per_second", json_integer(20));
    json_object_set_new(lim, "frame_burst", json_integer(40));
    return o;
}

/* A bot's name: its kind and its seat number ("Greedy 2", "ISMCTS 3"), so
 * that bots of one kind differ in the log, the results and the flags, and the
 * name stays the same for the whole game (issue 16; strength is in "strength"). */
static void seat_bot_name(srv_seat *s, int seat)
{
    const char *kind = strcmp(s->bot, "ismcts") == 0    ? "ISMCTS"
                       : strcmp(s->bot, "greedy") == 0  ? "Greedy"
                       : strcmp(s->bot, "rollout") == 0 ? "Rollout"
                                                        : "Random";
    snprintf(s->name, sizeof s->name, "%s %d", kind, seat + 1);
}

json_t *srv_seat_identity_json(const srv_game *g, int i)
{
    const srv_seat *s = &g->seat[i];
    json_t *o = json_pack("{s:i,s:s,s:s}", "seat", i, "kind",
                          s->kind == SEAT_BOT ? "bot" : "human", "name", s->name);
    if (s->kind == SEAT_BOT) {
        json_object_set_new(o, "bot", json_string(s->bot));
        if (strcmp(s->bot, "ismcts") == 0)
            json_object_set_new(o, "strength", json_integer(s->strength));
    }
    if (!strncmp(s->owner, "g:", 2)) /* shown as a guest (issue 28) */
        json_object_set_new(o, "guest", json_true());
    if (s->hints > 0) /* hints were used: shown wherever the seat is (issue 33) */
        json_object_set_new(o, "hints", json_integer(s->hints));
    return o;
}

static json_t *seat_json(const srv_game *g, int i, int with_token)
{
    const srv_seat *s = &g->seat[i];
    json_t *o = srv_seat_identity_json(g, i);
    if (s->kind != SEAT_BOT) {
        json_object_set_new(o, "claimed", json_boolean(s->claimed));
        json_object_set_new(o, "access", json_string(s->open ? "open" : "reserved"));
        if (with_token) { /* stored: the hash, and whose seat it is */
            json_object_set_new(o, "token_hash", json_string(s->token_hash));
            /* the invite token itself is never stored (a copy of the
               database must seat nobody): its creator has the link again
               from memory while the server runs (srv_seat_invite_open);
               after a restart it is "lost" and a new one is made */
            if (i == g->creator_seat)
                json_object_set_new(o, "creator", json_true());
            if (s->owner[0])
                json_object_set_new(o, "owner", json_string(s->owner));
            if (s->muted)
                json_object_set_new(o, "muted", json_integer(s->muted));
        }
        /* stored only while a stand-in bot plays the seat, so that it goes on
           playing after a restart (older databases simply lack it) */
        if (with_token && s->away)
            json_object_set_new(o, "away", json_true());
    }
    return o;
}

json_t *srv_seats_store_json(const srv_game *g)
{
    json_t *a = json_array();
    for (int i = 0; i < g->nseats; i++)
        json_array_append_new(a, seat_json(g, i, 1));
    return a;
}

int srv_seats_from_store(srv_game *g, json_t *seats, char *why, size_t n)
{
    if (!json_is_array(seats) || (int)json_array_size(seats) != g->nseats) {
        snprintf(why, n, "stored seats do not match the player count");
        return -1;
    }
    g->creator_seat = -1; /* games stored before it was kept: none known */
    for (int i = 0; i < g->nseats; i++) {
        json_t *o = json_array_get(seats, (size_t)i);
        srv_seat *s = &g->seat[i];
        const char *kind = json_string_value(json_object_get(o, "kind"));
        const char *name = json_string_value(json_object_get(o, "name"));
        s->kind = kind && strcmp(kind, "bot") == 0 ? SEAT_BOT : SEAT_HUMAN;
        snprintf(s->name, sizeof s->name, "%s", name ? name : "");
        if (s->kind == SEAT_BOT) {
            const char *b = json_string_value(json_object_get(o, "bot"));
            snprintf(s->bot, sizeof s->bot, "%s", b ? b : "random");
            s->strength = (int)json_integer_value(json_object_get(o, "strength"));
        } else {
            const char *t = json_string_value(json_object_get(o, "token_hash"));
            const char *ow = json_string_value(json_object_get(o, "owner"));
            if (!t || strlen(t) != SRV_HASH_HEX) {
                snprintf(why, n, "seat %d has no stored token", i);
                return -1;
            }
            memcpy(s->token_hash, t, SRV_HASH_HEX + 1);
            s->muted = (unsigned)json_integer_value(json_object_get(o, "muted"));
            snprintf(s->owner, sizeof s->owner, "%s", ow && strlen(ow) < SRV_OWNER_MAX ? ow : "");
            s->claimed = json_is_true(json_object_get(o, "claimed"));
            /* databases from before open seats have reserved seats only */
            const char *acc = json_string_value(json_object_get(o, "access"));
            s->open = acc && strcmp(acc, "open") == 0;
            s->away = json_is_true(json_object_get(o, "away"));
            json_int_t hints = json_integer_value(json_object_get(o, "hints"));
            s->hints = hints > 0 && hints < 1000000 ? (int)hints : 0;
            if (s->away)
                g->away_stored |= 1u << i;
            if (json_is_true(json_object_get(o, "creator")))
                g->creator_seat = i;
            memset(s->token, 0, sizeof s->token); /* not stored: see seat_json */
        }
    }
    return 0;
}

json_t *srv_setup_json(const srv_game *g)
{
    json_t *o = json_pack("{s:s,s:i,s:s,s:s}", "edition", edition_id(g->setup.edition),
                          "players", g->setup.nplayers, "seed", "", "arrangement",
                          g->arrangement);
    char seed[24];
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)g->setup.seed);
    json_object_set_new(o, "seed", json_string(seed));
    if (g->practice)
        json_object_set_new(o, "practice", json_true());
    /* saved.c's lists leave out a setup holding "unlisted":true (compact) */
    if (g->unlisted)
        json_object_set_new(o, "unlisted", json_true());
    if (g->position)
        json_object_set_new(o, "position", json_string(g->position));
    if (g->variant)
        json_object_set_new(o, "variant", json_string(g->variant));
    if (g->setup.edition == CH_ED_GOLDEN_AGE) {
        json_object_set_new(o, "preset", json_string(g->setup.preset == CH_GA_FIRST ?
                                                     "golden-age-first" : "golden-age"));
        json_object_set_new(o, "events", json_integer(g->setup.events));
    } else {
        json_object_set_new(o, "events", json_integer(1));
    }
    if (g->days > 0) { /* turn-based (turnbased.c); older rows: live */
        json_object_set_new(o, "mode", json_string("turn-based"));
        json_object_set_new(o, "days", json_integer(g->days));
    }
    return o;
}

/* Read edition/players/arrangement/preset/events (not seats, seed) from a
 * request or a stored setup. */
static int read_setup(srv_game *g, json_t *req, char *why, size_t n)
{
    json_t *v;
    int ed = CH_ED_AMSTERDAM;
    if ((v = json_object_get(req, "edition")) && !json_is_null(v)) {
        const char *e = json_string_value(v);
        if (!e || (strcmp(e, "amsterdam") && strcmp(e, "golden-age"))) {
            snprintf(why, n, "edition must be \"amsterdam\" or \"golden-age\"");
            return -1;
        }
        ed = strcmp(e, "golden-age") == 0 ? CH_ED_GOLDEN_AGE : CH_ED_AMSTERDAM;
    }
    ch_setup_default(&g->setup, ed);
    int maxp = ed == CH_ED_GOLDEN_AGE ? 6 : 5;
    json_t *seats = json_object_get(req, "seats");
    int np = json_is_array(seats) && json_array_size(seats) > 0 ? (int)json_array_size(seats) : 4;
    if ((v = json_object_get(req, "players")) && !json_is_null(v)) {
        if (!json_is_integer(v)) {
            snprintf(why, n, "players must be a whole number");
            return -1;
        }
        np = (int)json_integer_value(v);
    }
    if (np < 2 || np > maxp) {
        snprintf(why, n, "players must be from 2 to %d for %s, not %d", maxp,
                 edition_id(ed), np);
        return -1;
    }
    g->setup.nplayers = np;
    g->nseats = np;
    if ((v = json_object_get(req, "preset")) && !json_is_null(v)) {
        const char *p = json_string_value(v);
        if (ed != CH_ED_GOLDEN_AGE) {
            snprintf(why, n, "preset is for The Golden Age only");
            return -1;
        }
        if (!p || (strcmp(p, "golden-age") && strcmp(p, "golden-age-first"))) {
            snprintf(why, n, "preset must be \"golden-age\" or \"golden-age-first\"");
            return -1;
        }
        g->setup.preset = strcmp(p, "golden-age-first") == 0 ? CH_GA_FIRST : CH_GA_PRINTED;
    }
    if ((v = json_object_get(req, "events")) && !json_is_null(v)) {
        if (!json_is_boolean(v) && !json_is_integer(v)) {
            snprintf(why, n, "events must be true or false");
            return -1;
        }
        int on = json_is_boolean(v) ? json_is_true(v) : json_integer_value(v) != 0;
        if (ed != CH_ED_GOLDEN_AGE) {
            if (!on) {
                snprintf(why, n, "events are always part of Building Amsterdam");
                return -1;
            }
        } else {
            g->setup.events = on;
        }
    }
    const char *arr = ed == CH_ED_GOLDEN_AGE ? ch_ga_side(g->setup.preset, np) : "standard";
    if ((v = json_object_get(req, "arrangement")) && !json_is_null(v)) {
        arr = json_string_value(v);
        int ok = 0;
        for (const char *const *nm = ch_board_builtin_names(ed); arr && nm && *nm; nm++)
            ok |= strcmp(*nm, arr) == 0;
        if (!ok) {
            snprintf(why, n, "unknown arrangement for %s (see /api/options)", edition_id(ed));
            return -1;
        }
    }
    snprintf(g->arrangement, sizeof g->arrangement, "%s", arr ? arr : "standard");
    return 0;
}

int srv_setup_from_json(srv_game *g, json_t *setup, char *why, size_t n)
{
    if (read_setup(g, setup, why, n) != 0)
        return -1;
    const char *seed = json_string_value(json_object_get(setup, "seed"));
    g->setup.seed = seed ? strtoull(seed, NULL, 10) : 0;
    g->practice = json_is_true(json_object_get(setup, "practice"));
    g->unlisted = json_is_true(json_object_get(setup, "unlisted"));
    g->days = (int)json_integer_value(json_object_get(setup, "days"));
    const char *pos = json_string_value(json_object_get(setup, "position"));
    if (pos && !(g->position = strdup(pos))) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    /* a variant's game: its settings again, over the setup stored with them */
    const char *var = json_string_value(json_object_get(setup, "variant"));
    if (var) {
        ch_variant v;
        ch_msg m = {{0}};
        if (ch_variant_parse(&v, var, strlen(var), "variant", &m) != CH_OK ||
            ch_variant_apply(&v, &g->setup, &m) != CH_OK) {
            snprintf(why, n, "stored variant: %s", m.text);
            return -1;
        }
        if (!(g->variant = strdup(var))) {
            snprintf(why, n, "out of memory");
            return -1;
        }
        memcpy(g->variant_name, v.name, sizeof g->variant_name);
    }
    return 0;
}

/* POST /api/games with "variant": the text of a variant file (docs/variants.md),
 * uploaded as a position is. What the variant names (edition, players,
 * arrangement, preset, Golden Age events) sets up the game unless the request
 * says it too, which it must then say alike; its other settings (money,
 * hands, open cards, supply, Building Amsterdam without stock events) go
 * into the setup, whose bounds ch_new checks. A variant's game is unrated
 * (results.c): ratings compare games of the rulebook's setup. The server
 * plays the built-in arrangements only, so a variant naming a file is
 * refused. */
static int read_variant(srv_game *g, json_t *req, json_t *val, char *why, size_t n)
{
    const char *text = json_string_value(val);
    if (!text) {
        snprintf(why, n, "variant must be the text of a variant file");
        return -1;
    }
    ch_variant v;
    ch_msg m = {{0}};
    if (ch_variant_parse(&v, text, strlen(text), "variant", &m) != CH_OK) {
        snprintf(why, n, "%s", m.text);
        return -1;
    }
    json_t *sub = json_deep_copy(req);
    if (!sub) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    int rc = 0;
    const char *ed = v.edition == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam";
    json_t *theirs[5] = {v.edition >= 0 ? json_string(ed) : NULL,
                         v.nplayers ? json_integer(v.nplayers) : NULL,
                         v.arrangement[0] ? json_string(v.arrangement) : NULL,
                         v.preset >= 0 ? json_string(v.preset == CH_GA_FIRST ? "golden-age-first"
                                                                              : "golden-age")
                                       : NULL,
                         NULL};
    /* The Golden Age's events are a setup field; Building Amsterdam's "events
       off" a variant setting (the request's events stay "always on") */
    const char *req_ed = json_string_value(json_object_get(req, "edition"));
    int ga = v.edition == CH_ED_GOLDEN_AGE ||
             (v.edition < 0 && req_ed && strcmp(req_ed, "golden-age") == 0);
    if (v.events >= 0 && ga)
        theirs[4] = json_boolean(v.events);
    static const char *const keys[5] = {"edition", "players", "arrangement", "preset", "events"};
    for (int i = 0; i < 5; i++) {
        if (!theirs[i])
            continue;
        json_t *mine = json_object_get(req, keys[i]);
        if (rc == 0 && mine && !json_is_null(mine) && !json_equal(mine, theirs[i]) &&
            !(json_is_integer(mine) && json_is_boolean(theirs[i]) &&
              (json_integer_value(mine) != 0) == json_is_true(theirs[i]))) {
            snprintf(why, n, "the variant sets %s: leave %s out, or give the same", keys[i],
                     keys[i]);
            rc = -1;
        }
        json_object_set_new(sub, keys[i], theirs[i]);
    }
    if (rc == 0 && v.arrangement[0] &&
        (strchr(v.arrangement, '/') || strstr(v.arrangement, ".arr") || strstr(v.arrangement, ".board"))) {
        snprintf(why, n, "variant:%d: the server plays the built-in arrangements; this variant "
                 "names the file '%.60s'", v.arrangement_line, v.arrangement);
        rc = -1;
    }
    if (rc == 0)
        rc = read_setup(g, sub, why, n);
    json_decref(sub);
    if (rc == 0 && ch_variant_apply(&v, &g->setup, &m) != CH_OK) {
        snprintf(why, n, "%s", m.text);
        rc = -1;
    }
    if (rc == 0)
        g->nseats = g->setup.nplayers;
    if (rc == 0 && !(g->variant = strdup(text))) {
        snprintf(why, n, "out of memory");
        rc = -1;
    }
    if (rc == 0)
        memcpy(g->variant_name, v.name, sizeof g->variant_name);
    return rc;
}

/* POST /api/games with "position": a game that starts from a position
 * (issue 15): edition, players, board and seed come from it; such a game is
 * an unrated practice game (its creator wrote what every hand holds). The
 * setup keeps the position as ch_position_write spells it. */
static int read_position(srv_game *g, json_t *req, json_t *v, char *why, size_t n)
{
    const char *text = json_string_value(v);
    if (!text) {
        snprintf(why, n, "position must be the text of a position");
        return -1;
    }
    ch_state *st = malloc(sizeof *st);
    if (!st) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    ch_msg m = {{0}};
    if (ch_position_read(st, text, strlen(text), "position", &m) != CH_OK) {
        snprintf(why, n, "%s", m.text);
        free(st);
        return -1;
    }
    static const char *const clash[] = {"edition", "players", "arrangement", "preset", "events",
                                        "seed", NULL};
    for (int i = 0; clash[i]; i++)
        if (json_object_get(req, clash[i])) {
            snprintf(why, n, "a position names its own %s: leave %s out", clash[i], clash[i]);
            free(st);
            return -1;
        }
    json_t *sub = json_pack("{s:s,s:i,s:s}", "edition", edition_id(st->edition), "players",
                            st->nplayers, "arrangement", ch_state_board(st)->name);
    if (st->edition == CH_ED_GOLDEN_AGE) {
        json_object_set_new(sub, "preset", json_string(st->preset == CH_GA_FIRST ?
                                                       "golden-age-first" : "golden-age"));
        json_object_set_new(sub, "events", json_boolean(st->events_on));
    }
    int rc = read_setup(g, sub, why, n);
    json_decref(sub);
    g->setup.seed = st->seed;
    g->position = rc == 0 ? ch_position_write(st, -1) : NULL;
    free(st);
    if (rc == 0 && !g->position) {
        snprintf(why, n, "out of memory");
        return -1;
    }
    return rc;
}

int srv_game_start_state(srv_game *g, char *why, size_t n)
{
    ch_board board;
    ch_msg msg;
    /* the decisions start again: stamps kept for them are of another state */
    g->stamp_now = 0;
    if (g->position) {
        if (ch_position_read(&g->st, g->position, strlen(g->position), "position", &msg) != CH_OK) {
            snprintf(why, n, "%s", msg.text);
            return -1;
        }
        g->nmoves = 0;
        return 0;
    }
    if (ch_board_builtin(&board, g->setup.edition, g->arrangement, &msg) != CH_OK ||
        ch_new(&g->st, &g->setup, &board, &msg) != CH_OK) {
        snprintf(why, n, "%s", msg.text);
        return -1;
    }
    g->nmoves = 0;
    return 0;
}

static int all_claimed(const srv_game *g)
{
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && !g->seat[i].claimed)
            return 0;
    return 1;
}

void srv_game_log_created(const srv_game *g, const char *how, const char *by)
{
    int bots = 0;
    for (int i = 0; i < g->nseats; i++)
        bots += g->seat[i].kind == SEAT_BOT;
    srv_logf(SRV_LOG_INFO, "game.created", "game=%s edition=%s seats=%d bots=%d mode=%s "
            "practice=%s how=%s by=%s a game is made", g->id,
            g->setup.edition == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam", g->nseats, bots,
            g->days > 0 ? "turn-based" : "live", g->practice ? "yes" : "no", how,
            by && *by ? by : "-");
}

srv_game *srv_game_create(json_t *req, const srv_ident *creator, char *why, size_t n)
{
    if (!json_is_object(req)) {
        snprintf(why, n, "the body must be a JSON object");
        return NULL;
    }
    static const char *known[] = {"edition", "players", "arrangement", "preset", "events",
                                  "seed", "practice", "turn_timer", "seats", "mode", "days", "seat",
                                  "position", "variant", "listed", NULL};
    const char *key;
    json_t *v;
    json_object_foreach(req, key, v) {
        int ok = 0;
        for (int i = 0; known[i]; i++)
            ok |= strcmp(known[i], key) == 0;
        if (!ok) {
            snprintf(why, n, "unknown field \"%.40s\"", key);
            return NULL;
        }
    }
    srv_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    g->vcache_decision = -1;
    g->creator_seat = -1;
    json_t *position = json_object_get(req, "position");
    json_t *variant = json_object_get(req, "variant");
    if (position && !json_is_null(position) && variant && !json_is_null(variant)) {
        snprintf(why, n, "a position names its own setup: leave variant out");
        goto fail;
    }
    if (position && !json_is_null(position)) {
        if (read_position(g, req, position, why, n) != 0)
            goto fail;
    } else if (variant && !json_is_null(variant)) {
        if (read_variant(g, req, variant, why, n) != 0)
            goto fail;
    } else if (read_setup(g, req, why, n) != 0) {
        goto fail;
    }
    /* The seed decides every deal and draw of the game: one the creator
       chose would let the creator replay the game locally and read every
       hand (issue 19). So the server draws it from the OS generator, and a
       chosen seed makes the game an unrated practice game whose seed every
       seat is shown (summaries and state frames): nobody knows more than
       anyone else. "practice": true asks for that without a chosen seed. */
    json_t *pv = json_object_get(req, "practice");
    if (pv && !json_is_null(pv) && !json_is_boolean(pv)) {
        snprintf(why, n, "practice must be true or false");
        goto fail;
    }
    g->practice = json_is_true(pv);
    if (g->position) {
        if (json_is_false(pv)) {
            snprintf(why, n, "a game from a position is a practice game (unrated): leave "
                     "practice out, or true");
            goto fail;
        }
        g->practice = 1; /* its seed came with the position */
    } else if ((v = json_object_get(req, "seed")) && !json_is_null(v)) {
        if (!json_is_integer(v) || json_integer_value(v) < 0) {
            snprintf(why, n, "seed must be a whole number from 0");
            goto fail;
        }
        if (json_is_false(pv)) {
            snprintf(why, n, "a chosen seed is only for practice games (unrated, the seed "
                     "shown to every seat): leave seed out, or practice true");
            goto fail;
        }
        g->practice = 1;
        g->setup.seed = (uint64_t)json_integer_value(v);
    } else {
        g->setup.seed = srv_random_u64() >> 11;
    }
    /* "listed": false keeps a practice game out of the public lists of games
       in play and finished (a tutorial step's game, ended as abandoned when
       the learner leaves it, is nobody else's business: issue 31); its link
       and its players' "My games" still find it. A rated game is always
       listed: its result is public. */
    if ((v = json_object_get(req, "listed")) && !json_is_null(v)) {
        if (!json_is_boolean(v)) {
            snprintf(why, n, "listed must be true or false");
            goto fail;
        }
        if (json_is_false(v) && !g->practice) {
            snprintf(why, n, "only a practice game (unrated) can be unlisted: add practice true");
            goto fail;
        }
        g->unlisted = json_is_false(v);
    }
    if ((v = json_object_get(req, "turn_timer")) && !json_is_null(v)) {
        if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > 86400) {
            snprintf(why, n, "turn_timer must be seconds from 0 (off) to 86400");
            goto fail;
        }
        g->turn_timer = (int)json_integer_value(v);
    }
    if (srv_turn_read(g, req, why, n) != 0)
        goto fail;
    json_t *seats = json_object_get(req, "seats");
    if (seats && !json_is_array(seats)) {
        snprintf(why, n, "seats must be an array");
        goto fail;
    }
    if (seats && (int)json_array_size(seats) > g->nseats) {
        snprintf(why, n, "%d seats given for %d players", (int)json_array_size(seats), g->nseats);
        goto fail;
    }
    for (int i = 0; i < g->nseats; i++) {
        srv_seat *s = &g->seat[i];
        json_t *o = seats ? json_array_get(seats, (size_t)i) : NULL;
        const char *kind = o ? json_string_value(json_object_get(o, "kind")) : "human";
        if (o && !json_is_object(o)) {
            snprintf(why, n, "seat %d must be an object", i);
            goto fail;
        }
        if (!kind || (strcmp(kind, "human") && strcmp(kind, "bot"))) {
            snprintf(why, n, "seat %d: kind must be \"human\" or \"bot\"", i);
            goto fail;
        }
        if (strcmp(kind, "bot") == 0) {
            const char *b = json_string_value(json_object_get(o, "bot"));
            if (!b || (strcmp(b, "random") && strcmp(b, "greedy") && strcmp(b, "rollout") &&
                       strcmp(b, "ismcts"))) {
                snprintf(why, n, "seat %d: bot must be random, greedy, rollout or ismcts", i);
                goto fail;
            }
            s->kind = SEAT_BOT;
            snprintf(s->bot, sizeof s->bot, "%s", b);
            s->strength = 2;
            json_t *st = json_object_get(o, "strength");
            if (st && !json_is_null(st)) {
                if (!json_is_integer(st) || json_integer_value(st) < 1 || json_integer_value(st) > 3) {
                    snprintf(why, n, "seat %d: strength must be 1, 2 or 3", i);
                    goto fail;
                }
                s->strength = (int)json_integer_value(st);
            }
            seat_bot_name(s, i);
        } else {
            s->kind = SEAT_HUMAN;
            json_t *nm = o ? json_object_get(o, "name") : NULL;
            const char *name = json_string_value(nm);
            if (nm && !json_is_null(nm) && (!name || strlen(name) > 24)) {
                snprintf(why, n, "seat %d: name must be text of at most 24 bytes", i);
                goto fail;
            }
            if (name && *name)
                snprintf(s->name, sizeof s->name, "%s", name);
            else
                snprintf(s->name, sizeof s->name, "Player %d", i + 1);
            json_t *acc = o ? json_object_get(o, "access") : NULL;
            if (acc && !json_is_null(acc)) {
                const char *a = json_string_value(acc);
                if (!a || (strcmp(a, "open") && strcmp(a, "reserved"))) {
                    snprintf(why, n, "seat %d: access must be \"open\" or \"reserved\"", i);
                    goto fail;
                }
                s->open = strcmp(a, "open") == 0;
            }
            if (srv_random_hex(s->token, SRV_TOKEN_HEX) != 0) {
                snprintf(why, n, "no randomness available for the seat token");
                goto fail;
            }
            srv_token_hash(s->token, s->token_hash);
        }
    }
    /* the creator (a session) sits at once in the seat chosen ("seat",
       default the first human seat): nobody can take it before them */
    if (creator && creator->owner[0]) {
        int cs = -1;
        if ((v = json_object_get(req, "seat")) && !json_is_null(v)) {
            if (!json_is_integer(v) || json_integer_value(v) < 0 ||
                json_integer_value(v) >= g->nseats ||
                g->seat[json_integer_value(v)].kind != SEAT_HUMAN) {
                snprintf(why, n, "seat (yours) must be the number of a human seat");
                goto fail;
            }
            cs = (int)json_integer_value(v);
        } else {
            for (int i = 0; i < g->nseats && cs < 0; i++)
                if (g->seat[i].kind == SEAT_HUMAN)
                    cs = i;
        }
        if (cs >= 0) {
            srv_seat *s = &g->seat[cs];
            snprintf(s->owner, sizeof s->owner, "%s", creator->owner);
            snprintf(s->name, sizeof s->name, "%s", creator->name);
            s->claimed = 1;
            s->open = 0;
            memset(s->token, 0, sizeof s->token); /* no invite: it is taken */
            g->creator_seat = cs;
        }
    } else if ((v = json_object_get(req, "seat")) && !json_is_null(v)) {
        snprintf(why, n, "seat (yours) needs a session: log in or play as a guest first");
        goto fail;
    }
    do {
        if (srv_random_hex(g->id, SRV_ID_HEX) != 0) {
            snprintf(why, n, "no randomness available for the game id");
            goto fail;
        }
    } while (srv_game_find(g->id));
    if (srv_game_start_state(g, why, n) != 0)
        goto fail;
    g->created = (int64_t)time(NULL);
    g->status = all_claimed(g) ? GAME_PLAYING : GAME_WAITING;
    g->decide_since_ms = srv_now_ms();
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_BOT && srv_seat_make_bot(g, i, why, n) != 0)
            goto fail;
    return g;
fail:
    srv_game_free(g);
    return NULL;
}

void srv_game_free(srv_game *g)
{
    if (!g)
        return;
    for (int i = 0; i < CH_MAX_PLAYERS; i++)
        if (g->seat[i].bot_inst)
            ch_bot_free(g->seat[i].bot_inst);
    for (int k = 0; k < SRV_LOG_RING; k++)
        srv_log_free(&g->log[k]);
    srv_views_clear(g);
    ch_free(g->static_json);
    free(g->common);
    free(g->pending);
    ch_free(g->position);
    free(g->variant);
    free(g);
}

json_t *srv_game_summary(const srv_game *g)
{
    json_t *seats = json_array();
    for (int i = 0; i < g->nseats; i++) {
        json_t *o = seat_json(g, i, 0);
        json_object_set_new(o, "connected", json_boolean(g->seat[i].kind == SEAT_BOT ||
                                                         g->seat[i].nconn > 0));
        json_object_set_new(o, "away", json_boolean(g->seat[i].away));
        json_array_append_new(seats, o);
    }
    json_t *o = json_pack("{s:s,s:s,s:n,s:s,s:i,s:s,s:i,s:i,s:I,s:o}", "id", g->id, "edition",
                          edition_id(g->setup.edition), "preset", "arrangement",
                          g->arrangement, "players", g->nseats, "status",
                          srv_game_status(g), "turn_timer", g->turn_timer,
                          "decision", g->ncommitted, "created", (json_int_t)g->created,
                          "seats", seats);
    json_object_set_new(o, "mode", json_string(g->days > 0 ? "turn-based" : "live"));
    if (g->status == GAME_OVER) { /* the result (the engine's: ch_scores) */
        json_t *sc = json_array(), *w = json_array();
        for (int s = 0; s < g->nseats; s++) {
            json_array_append_new(sc, json_integer(g->scores[s]));
            if ((g->winners >> s) & 1u)
                json_array_append_new(w, json_integer(s));
        }
        json_object_set_new(o, "scores", sc);
        json_object_set_new(o, "winners", w);
        if (g->rematch[0])
            json_object_set_new(o, "rematch", json_string(g->rematch));
    }
    if (g->days > 0)
        json_object_set_new(o, "days", json_integer(g->days));
    if (g->setup.edition == CH_ED_GOLDEN_AGE) {
        json_object_set_new(o, "preset", json_string(g->setup.preset == CH_GA_FIRST ?
                                                     "golden-age-first" : "golden-age"));
        json_object_set_new(o, "events", json_boolean(g->setup.events));
    }
    json_object_set_new(o, "practice", json_boolean(g->practice));
    if (g->unlisted)
        json_object_set_new(o, "unlisted", json_true());
    if (g->variant) /* a variant's game (docs/variants.md): unrated */
        json_object_set_new(o, "variant", json_string(g->variant_name));
    if (g->practice) /* the chosen seed, for everyone to see */
        json_object_set_new(o, "seed", json_integer((json_int_t)g->setup.seed));
    return o;
}

void srv_seat_claim(srv_game *g, int s)
{
    if (s < 0 || s >= g->nseats || g->seat[s].kind != SEAT_HUMAN || g->seat[s].claimed)
        return;
    g->seat[s].claimed = 1;
    /* the invite link has done its work: no longer kept (seat_json) */
    memset(g->seat[s].token, 0, sizeof g->seat[s].token);
    g->meta_dirty = 1;
    if (g->status == GAME_WAITING && all_claimed(g)) {
        srv_limit_unwait(g);
        g->status = GAME_PLAYING;
        g->decide_since_ms = srv_now_ms();
    }
    srv_commit_schedule(g);
}

int srv_seat_of(const srv_game *g, const char *owner)
{
    for (int i = 0; owner && owner[0] && i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && strcmp(g->seat[i].owner, owner) == 0)
            return i;
    return -1;
}

int srv_seat_bind(srv_game *g, int s, const srv_ident *id, char *why, size_t n)
{
    srv_seat *seat = &g->seat[s];
    if (!id->owner[0]) {
        snprintf(why, n, "a seat needs a session: log in, sign up or play as a guest first");
        return SEAT_NO_SESSION;
    }
    if (seat->owner[0]) {
        if (strcmp(seat->owner, id->owner) == 0)
            return SEAT_BOUND;
        snprintf(why, n, "that seat is someone else's");
        return SEAT_TAKEN;
    }
    int mine = srv_seat_of(g, id->owner);
    if (mine >= 0) {
        snprintf(why, n, "you already sit in seat %d of this game", mine);
        return SEAT_TAKEN;
    }
    if (srv_turn_full(g, id->owner, id->user_id, why, n)) /* turnbased.c */
        return SEAT_TAKEN;
    snprintf(seat->owner, sizeof seat->owner, "%s", id->owner);
    snprintf(seat->name, sizeof seat->name, "%s", id->name);
    g->meta_dirty = 1;
    if (seat->claimed) /* a game from before sessions: the seat is bound now */
        srv_commit_schedule(g);
    else
        srv_seat_claim(g, s);
    return SEAT_BOUND;
}

/* ---- invite links of reserved seats (issue 28 item 7) --------------------- */

int srv_seat_invite_open(const srv_game *g, int i)
{
    const srv_seat *s = &g->seat[i];
    return s->kind == SEAT_HUMAN && !s->open && !s->claimed && !s->owner[0] &&
           g->status == GAME_WAITING && s->token[0];
}

int srv_game_creator_is(const srv_game *g, const char *owner)
{
    return owner && owner[0] && g->creator_seat >= 0 && g->creator_seat < g->nseats &&
           strcmp(g->seat[g->creator_seat].owner, owner) == 0;
}

int srv_seat_new_invite(srv_game *g, int i, char *why, size_t n)
{
    if (i < 0 || i >= g->nseats) {
        snprintf(why, n, "seat must be a seat number of this game");
        return 400;
    }
    srv_seat *s = &g->seat[i];
    if (s->kind != SEAT_HUMAN || s->open) {
        snprintf(why, n, "seat %d has no invite link: only a reserved seat has one", i);
        return 409;
    }
    if (s->claimed || s->owner[0] || g->status != GAME_WAITING) {
        snprintf(why, n, "seat %d is taken: its link seats nobody else", i);
        return 409;
    }
    char tok[SRV_TOKEN_HEX + 1];
    if (srv_random_hex(tok, SRV_TOKEN_HEX) != 0) {
        snprintf(why, n, "no randomness available for the seat token");
        return 503;
    }
    /* the new token's hash replaces the old one: the old link ends now
       (ws_session.c compares a join's token with token_hash only) */
    memcpy(s->token, tok, sizeof s->token);
    srv_token_hash(s->token, s->token_hash);
    g->meta_dirty = 1;
    srv_commit_schedule(g);
    return 0;
}
