/* game/game_impl.h: what the files of game/ share among themselves (and the
 * unit tests of masks, deltas and views): not part of the game layer's API
 * (game.h), which the layers above use.
 */
#ifndef CHARTERED_SERVER_GAME_IMPL_H
#define CHARTERED_SERVER_GAME_IMPL_H

#include "game/game.h"

/* How a state frame carries its view: compact, without the board and the
 * card table, which go in a frame's "static" member only when the client
 * does not have them yet (docs/protocol.md). */
#define SRV_VIEW_FLAGS (CH_JSON_COMPACT | CH_JSON_DYNAMIC)
const char *srv_status_name(int status);
int srv_play_move(srv_game *g, int s, ch_move m, char *why, size_t n);
/* A seat's "legal" items and "prices" (malloc'd; any thread), and their
 * making on the view workers (play.c): the seats a job wants, made there,
 * installed on the loop when the game is still at that state. */
char *srv_legal_json(const ch_state *st, int seat);
unsigned srv_legal_wanted(const srv_game *g, unsigned mask);
void srv_legal_make(const ch_state *st, unsigned want, char **legal);
void srv_legal_install(srv_game *g, int d, const ch_state *st, char **legal);
void srv_legal_free(char **legal);
/* The game has ended: fill scores. */
void srv_game_finish(srv_game *g);
/* Fill a log entry for move m of player p made in state `before`. */
void srv_mask_move(const ch_state *before, int p, ch_move m, srv_log *e);
/* Its words in the languages of langmask (bit = CHX_LANG_*). */
void srv_log_texts(srv_log *e, const ch_state *before, int p, ch_move m,
                   const ch_state *after, const char *const *names, unsigned langmask);
void srv_log_free(srv_log *e);
/* Entry e as seat `viewer` (-1 spectator) may see it, as a JSON object {n, player, move, text[,
 * hidden]} appended to b. */
void srv_log_write(chx_buf *b, const srv_log *e, int viewer, const char *lang);
/* "mode" and "days" of a POST /api/games request (after turn_timer). */
int srv_turn_read(srv_game *g, json_t *req, char *why, size_t n);
/* 1 when g is a turn-based game that may leave memory: nobody attached,
 * nothing in flight, a person to move. */
int srv_turn_idle(const srv_game *g);
/* 1 (why set) when owner may not take a seat of turn-based game g: it has
 * SRV_TURN_GAMES_MAX already (and no seat in g yet). */
int srv_turn_full(const srv_game *g, const char *owner, int64_t user_id, char *why, size_t n);
/* 1 when the game counts for ratings: people with accounts only, one
 * account per seat, no practice game. */
int srv_game_rated(const srv_game *g);
/* Ask for a move of seat s (its bot_inst) in the current state. */
int srv_bots_submit(srv_bots *b, srv_game *g, int s);
/* 1 when every seat of g is a bot. */
int srv_game_bots_only(const srv_game *g);
/* Games of bots only running at once (bots.c; docs/protocol.md "Limits"):
 * per creating address (CHARTERED_BOTGAMES_PER_ADDRESS; loopback exempt
 * unless CHARTERED_LIMIT_LOOPBACK) and in all (CHARTERED_BOTGAMES_MAX). */
#define SRV_BOTGAMES_PER_ADDR 4
#define SRV_BOTGAMES_MAX 32
/* Those two limits in force (all 0: per address; 1: in all). */
long srv_botgames_limit(int all);
/* Build the views of the game's current decision for its clients' seats. */
int srv_views_request(srv_views *v, srv_game *g);
void srv_views_clear(srv_game *g);
/* Make the view of perspective k (0 spectator, s+1 seat s) at the game's
 * decision current on the event loop (when no worker built it), with its
 * patch from the view before. 0, or -1 when out of memory. */
int srv_view_here(srv_game *g, int k);
/* The JSON Patch (RFC 6902) that turns JSON text a into b, as a JSON array
 * text (malloc'd); NULL when out of memory (jsondiff.c). */
char *srv_json_diff(const char *a, const char *b);
/* The brackets of a JSON text ({open offset, offset past the close}, by
 * offset), made while diffing it; kept with a view for its next diff. */
typedef struct srv_jidx {
    uint32_t (*pair)[3];        /* {offset of a '{' or '[', offset past its end,
                                   the next entry not inside it} */
    size_t n, cap;
} srv_jidx;
/* srv_json_diff with a's index if known (ai NULL or empty: made here), and
 * b's: taken from *bi when it has one (ch_view_json_ix made it with the
 * text), else made here and put in *bi (when bi is not NULL and a patch is
 * returned). */
char *srv_json_diff_ix(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi);
/* srv_json_diff_ix for several perspectives of one move: the first diff
 * with an empty memo notes the operations of the root's members; the next
 * ones reuse them for members whose old and new texts are the same bytes.
 * The memo points into that first diff's two documents: keep them until the
 * memo is reset or freed. */
typedef struct srv_jmemo srv_jmemo;
srv_jmemo *srv_jmemo_new(void);
/* Empty again, its buffer kept (a view worker's, from job to job): the
 * documents the last fill pointed into may go. */
void srv_jmemo_reset(srv_jmemo *m);
void srv_jmemo_free(srv_jmemo *m);
char *srv_json_diff_memo(const char *a, const srv_jidx *ai, const char *b, srv_jidx *bi,
                         srv_jmemo *memo);
/* srv_json_diff_memo of texts whose lengths and indexes are known, the
 * patch appended to out (a buffer the caller keeps: no allocation once it
 * has grown): 0, or -1 (out as it was). */
int srv_json_diff_into(chx_buf *out, const char *a, size_t an, const srv_jidx *ai, const char *b,
                       size_t bn, const srv_jidx *bi, srv_jmemo *memo);
void srv_jidx_free(srv_jidx *x);
/* A view's text as a state frame carries it, and its brackets' index;
 * immutable once made, shared by the game and the view jobs, freed with its
 * last reference (views.c). */
typedef struct srv_view {
    _Atomic int refs;
    const char *text;
    size_t len;                 /* strlen(text) */
    srv_jidx ix;
    /* the JSON Patch to it from the view its job started from, or NULL */
    const char *patch;
    size_t patch_len;
    /* one block: the text, the index and the patch follow the struct; its
       size, for its reuse once the view is dropped (views.c) */
    size_t cap;
    struct srv_view *pool_next;
    /* the state it was written from: the next view of its perspective
       copies from it what did not change (ch_views_json_since) */
    ch_state st;
} srv_view;
srv_view *srv_view_ref(srv_view *v);
void srv_view_unref(srv_view *v);

/* ---- used by game/ files only ---- */
/* The commit runs once the current loop turn is done: the moves of one turn
 * share a transaction. (A longer window, 1 ms, measured worse: p50 3 -> 9 ms
 * and p99 up at 5,000 moves/s.) */
#define SRV_COMMIT_WINDOW_US 1
/* 1 when addr is exempt from the per-address limits (loopback). */
int srv_addr_exempt(const char *addr);
/* The status as clients and the database see it: "abandoned" for an
 * abandoned game, else srv_status_name. */
const char *srv_game_status(const srv_game *g);
/* The seats as stored in the database (tokens included). */
json_t *srv_seats_store_json(const srv_game *g);
/* A failed commit: every pending move is taken back, the game is again at
 * its last stored state (g->durable), its views and legal moves dropped. */
void srv_game_rollback(srv_game *g);
/* k pending moves were stored: the stored state moves forward by them. */
void srv_game_durable_forward(srv_game *g, int k);
/* The turn_clock part of a commit (on the loop), and its write (writer). */
void srv_turn_batch(srv_batch_item *it, const srv_game *g);
int srv_turn_write(db_conn *db, const srv_batch_item *it);
/* A turn-based game read back: its clock from turn_clock. */
int srv_turn_loaded(db_conn *db, srv_game *g);
/* The result of a finished game (malloc'd), on the loop. */
srv_result *srv_result_make(const srv_game *g);
/* On the writer: store the result once and, for a rated game, the new
 * ratings; inside the commit's transaction. */
int srv_result_write(db_conn *db, const char *game, const srv_result *r);
/* The accounts of the seats (0: none), and their rows in game_players. */
void srv_players_of(const srv_game *g, int64_t *user);
int srv_players_write(db_conn *db, const char *game, const int64_t *user, int n);
/* A finished game read back: its rematch link. */
int srv_results_loaded(db_conn *db, srv_game *g);
/* Create the bot instance of a seat ("greedy" stand-in for away humans). */
int srv_seat_make_bot(srv_game *g, int s, char *why, size_t n);
int srv_store_update_meta(srv_store *s, srv_game *g);
/* One transaction: every pending move and meta change of the listed games. */
int srv_store_commit(srv_store *s, srv_game *list);
/* A game's share of a commit, copied from it on the loop (store.h). */
int srv_batch_fill(srv_batch_item *it, srv_game *g);
extern srv_table_hooks srv_table_up; /* the hooks registered (lobby.c) */

#endif
