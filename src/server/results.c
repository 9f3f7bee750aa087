/* results.c: what a finished game leaves behind in the database, written by
 * the writer thread (committer.c) in the same transaction as the game's last
 * move and its status "over": its result (scores, winners, when it ended),
 * for the lobby's list of finished games and the profiles; and, when the
 * game is rated, the new ratings of its players (Glicko-2, rating.c) and
 * each player's change. Rating updates read and write the database, so they
 * never run on the event loop. See docs/ratings.md.
 *
 * A game is rated when every seat is a person with an account (no bot, no
 * guest, one account per seat), it is not a practice game (chosen seed), and
 * it ended by the rules. A seat that the stand-in bot was playing when the
 * game ended (its person had left and not come back) ranks last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "rating.h"
#include "server.h"

/* Schema version 3 (store.c's migrations): turn-based clocks, results,
 * ratings, their changes, and which account sat in which game. */
int srv_players_schema(sqlite3 *db)
{
    static const char *sql =
        "CREATE TABLE IF NOT EXISTS results ("
        " game TEXT PRIMARY KEY, finished INTEGER NOT NULL, scores TEXT NOT NULL,"
        " winners TEXT NOT NULL, rated INTEGER NOT NULL, rematch TEXT) WITHOUT ROWID;"
        "CREATE INDEX IF NOT EXISTS results_finished ON results(finished);"
        "CREATE TABLE IF NOT EXISTS ratings ("
        " user_id INTEGER NOT NULL, edition TEXT NOT NULL, rating REAL NOT NULL,"
        " deviation REAL NOT NULL, volatility REAL NOT NULL, games INTEGER NOT NULL,"
        " updated INTEGER NOT NULL, PRIMARY KEY (user_id, edition)) WITHOUT ROWID;"
        "CREATE INDEX IF NOT EXISTS ratings_board ON ratings(edition, rating);"
        "CREATE TABLE IF NOT EXISTS rating_changes ("
        " game TEXT NOT NULL, user_id INTEGER NOT NULL, edition TEXT NOT NULL,"
        " seat INTEGER NOT NULL, place INTEGER NOT NULL, rating_before REAL NOT NULL,"
        " deviation_before REAL NOT NULL, rating_after REAL NOT NULL,"
        " deviation_after REAL NOT NULL, PRIMARY KEY (game, user_id)) WITHOUT ROWID;"
        "CREATE TABLE IF NOT EXISTS game_players ("
        " user_id INTEGER NOT NULL, game TEXT NOT NULL, seat INTEGER NOT NULL,"
        " PRIMARY KEY (user_id, game)) WITHOUT ROWID;"
        /* the accounts of the games stored so far (seats JSON: owner "u:ID") */
        "INSERT OR IGNORE INTO game_players(user_id, game, seat)"
        " SELECT CAST(substr(json_extract(j.value, '$.owner'), 3) AS INTEGER), g.id, j.key"
        " FROM games g, json_each(g.seats) j"
        " WHERE json_extract(j.value, '$.owner') LIKE 'u:%';";
    return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int srv_results_loaded(sqlite3 *db, srv_game *g)
{
    g->rematch[0] = 0;
    if (g->status != GAME_OVER)
        return 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT rematch FROM results WHERE game=?", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
        snprintf(g->rematch, sizeof g->rematch, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return 0;
}

static const char *edition_key(int ed)
{
    return ed == CH_ED_GOLDEN_AGE ? "golden-age" : "amsterdam";
}

/* The account of a seat ("u:ID"), 0 for a guest, a bot, or nobody. */
static int64_t seat_user(const srv_seat *s)
{
    if (s->kind != SEAT_HUMAN || strncmp(s->owner, "u:", 2) != 0)
        return 0;
    char *end;
    long long id = strtoll(s->owner + 2, &end, 10);
    return *end == 0 && id > 0 ? (int64_t)id : 0;
}

int srv_game_rated(const srv_game *g)
{
    if (g->practice || g->abandoned || g->nseats < 2)
        return 0;
    for (int i = 0; i < g->nseats; i++) {
        int64_t u = seat_user(&g->seat[i]);
        if (!u)
            return 0;
        for (int j = 0; j < i; j++)
            if (seat_user(&g->seat[j]) == u)
                return 0; /* one account in two seats: no rating */
    }
    return 1;
}

srv_result *srv_result_make(const srv_game *g)
{
    srv_result *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->n = g->nseats;
    r->edition = g->setup.edition;
    r->finished = (int64_t)time(NULL);
    r->winners = g->winners;
    r->rated = srv_game_rated(g);
    for (int i = 0; i < g->nseats; i++) {
        r->scores[i] = g->scores[i];
        r->user[i] = seat_user(&g->seat[i]);
        if (g->seat[i].kind == SEAT_HUMAN && g->seat[i].away)
            r->left |= 1u << i;
    }
    rating_places(r->n, r->scores, r->winners, r->left, r->place);
    return r;
}

/* The player's rating in that edition before this game: the stored one, or
 * a new player's. */
static int read_rating(sqlite3 *db, int64_t user, const char *ed, rating_glicko *g, int *games)
{
    rating_settings set;
    rating_settings_default(&set);
    *g = rating_initial(&set);
    *games = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT rating, deviation, volatility, games FROM ratings "
                           "WHERE user_id=? AND edition=?", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, user);
    sqlite3_bind_text(st, 2, ed, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        g->rating = sqlite3_column_double(st, 0);
        g->deviation = sqlite3_column_double(st, 1);
        g->volatility = sqlite3_column_double(st, 2);
        *games = sqlite3_column_int(st, 3);
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

static int apply_ratings(sqlite3 *db, const char *game, const srv_result *r)
{
    const char *ed = edition_key(r->edition);
    rating_settings set;
    rating_settings_default(&set);
    rating_glicko before[CH_MAX_PLAYERS], after[CH_MAX_PLAYERS];
    int games[CH_MAX_PLAYERS];
    for (int i = 0; i < r->n; i++)
        if (read_rating(db, r->user[i], ed, &before[i], &games[i]) != 0)
            return -1;
    if (rating_game(&set, r->n, before, r->place, after) != 0)
        return -1;
    sqlite3_stmt *up = NULL, *ch = NULL;
    int rc = -1;
    if (sqlite3_prepare_v2(db, "INSERT INTO ratings(user_id, edition, rating, deviation, "
                           "volatility, games, updated) VALUES(?1,?2,?3,?4,?5,?6,?7) "
                           "ON CONFLICT(user_id, edition) DO UPDATE SET rating=?3, "
                           "deviation=?4, volatility=?5, games=?6, updated=?7", -1, &up,
                           NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT INTO rating_changes(game, user_id, edition, seat, "
                           "place, rating_before, deviation_before, rating_after, "
                           "deviation_after) VALUES(?,?,?,?,?,?,?,?,?)", -1, &ch,
                           NULL) != SQLITE_OK)
        goto done;
    for (int i = 0; i < r->n; i++) {
        sqlite3_reset(up);
        sqlite3_bind_int64(up, 1, r->user[i]);
        sqlite3_bind_text(up, 2, ed, -1, SQLITE_STATIC);
        sqlite3_bind_double(up, 3, after[i].rating);
        sqlite3_bind_double(up, 4, after[i].deviation);
        sqlite3_bind_double(up, 5, after[i].volatility);
        sqlite3_bind_int(up, 6, games[i] + 1);
        sqlite3_bind_int64(up, 7, r->finished);
        if (sqlite3_step(up) != SQLITE_DONE)
            goto done;
        sqlite3_reset(ch);
        sqlite3_bind_text(ch, 1, game, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ch, 2, r->user[i]);
        sqlite3_bind_text(ch, 3, ed, -1, SQLITE_STATIC);
        sqlite3_bind_int(ch, 4, i);
        sqlite3_bind_int(ch, 5, r->place[i]);
        sqlite3_bind_double(ch, 6, before[i].rating);
        sqlite3_bind_double(ch, 7, before[i].deviation);
        sqlite3_bind_double(ch, 8, after[i].rating);
        sqlite3_bind_double(ch, 9, after[i].deviation);
        if (sqlite3_step(ch) != SQLITE_DONE)
            goto done;
    }
    rc = 0;
done:
    sqlite3_finalize(up);
    sqlite3_finalize(ch);
    return rc;
}

int srv_result_write(sqlite3 *db, const char *game, const srv_result *r)
{
    if (!r)
        return 0;
    char scores[128] = "[", winners[64] = "[";
    for (int i = 0; i < r->n; i++) {
        size_t l = strlen(scores);
        snprintf(scores + l, sizeof scores - l, "%s%d", i ? "," : "", (int)r->scores[i]);
    }
    strcat(scores, "]");
    for (int i = 0, k = 0; i < r->n; i++)
        if ((r->winners >> i) & 1u) {
            size_t l = strlen(winners);
            snprintf(winners + l, sizeof winners - l, "%s%d", k++ ? "," : "", i);
        }
    strcat(winners, "]");
    sqlite3_stmt *st;
    /* once per game: a status written again (a retried commit) changes
       nothing, and ratings move once */
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO results(game, finished, scores, winners, "
                           "rated) VALUES(?,?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, r->finished);
    sqlite3_bind_text(st, 3, scores, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, winners, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 5, r->rated);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE)
        return -1;
    if (sqlite3_changes(db) == 0 || !r->rated)
        return 0;
    return apply_ratings(db, game, r);
}

int srv_players_write(sqlite3 *db, const char *game, const int64_t *user, int n)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO game_players(user_id, game, seat) "
                           "VALUES(?,?,?)", -1, &st, NULL) != SQLITE_OK)
        return -1;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        if (!user[i])
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, user[i]);
        sqlite3_bind_text(st, 2, game, -1, SQLITE_STATIC);
        sqlite3_bind_int(st, 3, i);
        rc = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
    }
    sqlite3_finalize(st);
    return rc;
}

void srv_players_of(const srv_game *g, int64_t *user)
{
    for (int i = 0; i < CH_MAX_PLAYERS; i++)
        user[i] = i < g->nseats ? seat_user(&g->seat[i]) : 0;
}
