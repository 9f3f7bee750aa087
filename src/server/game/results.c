/* results.c: what a finished game leaves behind in the database, written by
 * the writer thread (committer.c) in the same transaction as the game's last
 * move and its status "over": its result (scores, winners, when it ended),
 * for the lobby's list of finished games and the profiles; and, when the
 * game is rated, the new ratings of its players (Glicko-2, rating.c) and
 * each player's change. Rating updates read and write the database, so they
 * never run on the event loop. See docs/ratings.md.
 *
 * A game is rated when every seat is a person with an account (no bot, no
 * guest, one account per seat), it is not a practice game (chosen seed) nor
 * a variant's (docs/variants.md), and it ended by the rules. A seat that the stand-in bot was playing when the
 * game ended (its person had left and not come back) ranks last.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game/game_impl.h"

int srv_results_loaded(db_conn *db, srv_game *g)
{
    g->rematch[0] = 0;
    if (g->status != GAME_OVER)
        return 0;
    db_rows *r = db_query(db, "SELECT rematch FROM results WHERE game=$1", DB_P(DB_T(g->id)));
    if (!r)
        return -1;
    if (db_next(r) == 1 && db_text(r, 0))
        snprintf(g->rematch, sizeof g->rematch, "%s", db_text(r, 0));
    return db_end(r) == 0 ? 0 : -1;
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
    /* a variant's game (docs/variants.md) is not the game the ratings
       compare */
    if (g->practice || g->abandoned || g->nseats < 2 || g->variant)
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
static int read_rating(db_conn *db, int64_t user, const char *ed, rating_glicko *g, int *games)
{
    rating_settings set;
    rating_settings_default(&set);
    *g = rating_initial(&set);
    *games = 0;
    db_rows *r = db_query(db, "SELECT rating, deviation, volatility, games FROM ratings "
                          "WHERE user_id=$1 AND edition=$2", DB_P(DB_I(user), DB_T(ed)));
    if (!r)
        return -1;
    if (db_next(r) == 1) {
        g->rating = db_real(r, 0);
        g->deviation = db_real(r, 1);
        g->volatility = db_real(r, 2);
        *games = (int)db_int(r, 3);
    }
    return db_end(r) == 0 ? 0 : -1;
}

static int apply_ratings(db_conn *db, const char *game, const srv_result *r)
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
    for (int i = 0; i < r->n; i++) {
        if (db_exec(db, "INSERT INTO ratings(user_id, edition, rating, deviation, volatility, "
                    "games, updated) VALUES($1,$2,$3,$4,$5,$6,$7) ON CONFLICT(user_id, edition) "
                    "DO UPDATE SET rating=excluded.rating, deviation=excluded.deviation, "
                    "volatility=excluded.volatility, games=excluded.games, "
                    "updated=excluded.updated",
                    DB_P(DB_I(r->user[i]), DB_T(ed), DB_D(after[i].rating),
                         DB_D(after[i].deviation), DB_D(after[i].volatility),
                         DB_I(games[i] + 1), DB_I(r->finished))) != 0)
            return -1;
        if (db_exec(db, "INSERT INTO rating_changes(game, user_id, edition, seat, place, "
                    "rating_before, deviation_before, rating_after, deviation_after) "
                    "VALUES($1,$2,$3,$4,$5,$6,$7,$8,$9)",
                    DB_P(DB_T(game), DB_I(r->user[i]), DB_T(ed), DB_I(i), DB_I(r->place[i]),
                         DB_D(before[i].rating), DB_D(before[i].deviation),
                         DB_D(after[i].rating), DB_D(after[i].deviation))) != 0)
            return -1;
    }
    return 0;
}

int srv_result_write(db_conn *db, const char *game, const srv_result *r)
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
    /* once per game: a status written again (a retried commit) changes
       nothing, and ratings move once */
    if (db_exec(db, "INSERT INTO results(game, finished, scores, winners, rated) "
                "VALUES($1,$2,$3,$4,$5) ON CONFLICT DO NOTHING",
                DB_P(DB_T(game), DB_I(r->finished), DB_T(scores), DB_T(winners),
                     DB_I(r->rated))) != 0)
        return -1;
    if (db_changes(db) == 0 || !r->rated)
        return 0;
    return apply_ratings(db, game, r);
}

int srv_players_write(db_conn *db, const char *game, const int64_t *user, int n)
{
    for (int i = 0; i < n; i++)
        if (user[i] && db_exec(db, "INSERT INTO game_players(user_id, game, seat) "
                               "VALUES($1,$2,$3) ON CONFLICT DO NOTHING",
                               DB_P(DB_I(user[i]), DB_T(game), DB_I(i))) != 0)
            return -1;
    return 0;
}

void srv_players_of(const srv_game *g, int64_t *user)
{
    for (int i = 0; i < CH_MAX_PLAYERS; i++)
        user[i] = i < g->nseats ? seat_user(&g->seat[i]) : 0;
}
