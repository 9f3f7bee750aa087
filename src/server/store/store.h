/* store/store.h: the storage layer of the server (src/server/README.md):
 * the storage interface (db.h) and its back ends, games as rows, the schema
 * and its migrations, the writer thread (committer.c).
 */
#ifndef CHARTERED_SERVER_STORE_H
#define CHARTERED_SERVER_STORE_H

#include "net/net.h"
#include "store/db.h"

/* A game in memory (game.h); here only by pointer. */
typedef struct srv_game srv_game;


#define SRV_ID_HEX 16         /* 64-bit game ids */
typedef struct srv_store srv_store;
typedef struct srv_committer srv_committer;

/* The loop's store and the writer thread (store.c), set by serve.c at the
 * start; committer NULL: commits run on the loop. */
typedef struct srv_storage {
    srv_store *store;
    srv_committer *committer;
} srv_storage;
extern srv_storage g_storage;
/* A move applied in memory but not yet committed to the database. */
typedef struct srv_pending {
    int n, player;
    char move[96];
    ch_move m;                  /* the move itself (to bring `durable` forward) */
    int64_t recv_us;            /* when it was received (srv_metrics_now_us) */
} srv_pending;
/* Delete a game that never started (limits.c: an expired waiting game). */
int srv_store_delete_game(srv_store *s, const char *id);
srv_store *srv_store_open(const char *path, int sync_full, char *why, size_t n);
/* The store's database connection (db.h; the event loop's: session.c). */
db_conn *srv_store_db(srv_store *s);
/* The schema version this code writes (db_schema_version). */
#define SRV_SCHEMA_VERSION 12
/* Bring db's schema up to SRV_SCHEMA_VERSION in one transaction (schema.c;
 * srv_store_open runs it): 0, or -1 with the reason. */
int srv_schema_migrate(db_conn *db, char *why, size_t n);
/* The name skeleton of an account (names.c's srv_name_skeleton), which the
 * migration to version 5 writes for the accounts there are; the people
 * layer's, registered by serve.c before the store opens. */
void srv_schema_name_skeleton(void (*skel)(const char *name, char *out, size_t n));
void srv_store_close(srv_store *s);
/* One game's share of a commit, copied from the game on the event loop so
 * that the writer thread (committer.c) writes it without touching the game:
 * its pending moves, and its seats and status when they changed. */
typedef struct srv_batch_item {
    char id[SRV_ID_HEX + 1];
    srv_pending *moves;
    int nmoves;
    char *seats;                /* seats JSON to store, NULL: unchanged */
    char status[12];
    unsigned away;              /* the away seats stored with it */
    int clock;                  /* turn_clock row: 0 leave, 1 set, 2 drop */
    int64_t since;              /* when the decision began, unix ms; 0: a bot
                                   must move (turnbased.c) */
    int days;
    unsigned to_move;           /* the people to move (bit s: seat s) */
    struct srv_result *result;  /* the game ended: its result (results.c) */
    int64_t users[CH_MAX_PLAYERS]; /* with seats: each seat's account, 0 none */
    /* the item's other rows (turn clock, players, result), written in the
       same transaction after its moves and seats; set by whoever filled it
       (the game layer, saved.c); NULL: none */
    int (*write_rows)(db_conn *db, const struct srv_batch_item *it);
} srv_batch_item;
void srv_batch_free(srv_batch_item *it);
/* Write the items in one transaction; -1 (rolled back) on failure, or
 * SRV_STORE_CONFLICT when a row was there already: another writer (another
 * server on the same PostgreSQL) stored one of these move numbers first,
 * and the whole batch is refused (the moves' primary key (game, n)). */
#define SRV_STORE_CONFLICT (-2)
int srv_store_write(srv_store *s, const srv_batch_item *items, int n);
/* The reason of the connection's last failed write, and its class (db.h:
 * DB_ERR, DB_CONFLICT, DB_LOST). */
const char *srv_store_errmsg(srv_store *s);
int srv_store_errclass(srv_store *s);
/* The writer thread (committer.c): the commits run beside the event loop, on
 * a database connection of their own; a game's moves are acknowledged (its
 * clients get their frames) when its commit is back. */
/* What the writer tells the layer that hands it batches (the game layer,
 * commit.c), on the loop in srv_committer_drain: once per transaction
 * written(ok, err) (ok 1 written, 0 refused with the database's reason,
 * SRV_STORE_CONFLICT), then item_done for each item, in order, with its owner. */
typedef struct srv_commit_hooks {
    void (*written)(int ok, const char *err);
    void (*item_done)(void *owner, const srv_batch_item *it, int ok);
} srv_commit_hooks;
srv_committer *srv_committer_start(const char *db, int sync_full, const srv_commit_hooks *hooks,
                                   char *why, size_t n);
/* Hand n items (filled on the loop, each with its owner) to the writer, in
 * one batch; t_submit: when (srv_ls_now), 0 without loop statistics. On 0
 * the items and owners arrays are the writer's (it frees them); -1 when out
 * of memory (nothing handed, still the caller's). */
int srv_committer_submit(srv_committer *c, srv_batch_item *items, void **owners, int n,
                         int64_t t_submit);
/* On the event loop: finish the commits that are back. */
void srv_committer_drain(srv_committer *c);
/* A write of the loop's (chat, session, account) run on the writer thread,
 * in order with the commits: run(db, arg) there, then done(arg) on the loop.
 * Without a writer thread both run at once on the loop. */
typedef void (*srv_dbjob_fn)(db_conn *db, void *arg);
typedef void (*srv_dbjob_done)(void *arg);
int srv_dbjob_submit(srv_dbjob_fn run, srv_dbjob_done done, void *arg);
/* Write what was handed, finish it, and stop the thread. */
void srv_committer_stop(srv_committer *c);
/* 0 when the database can be written, else -1 with the reason. */
int srv_store_writable(srv_store *s, char *why, size_t n);
/* The move list of a game as [{"player","move"}...]; the same on a
 * connection db (any thread's). */
json_t *srv_store_moves(srv_store *s, const char *id);
json_t *srv_moves_read(db_conn *db, const char *id);
/* Keep the reason of s's failed write (srv_store_errmsg; db.h: with the
 * system's reason for an I/O error: EFBIG, EROFS, ENOSPC). */
void srv_store_note_err(srv_store *s);
/* A finished game's result as the writer stores it (docs/ratings.md). */
typedef struct srv_result {
    int n, edition, rated;
    int64_t finished;           /* unix seconds */
    int32_t scores[CH_MAX_PLAYERS];
    unsigned winners;
    unsigned left;              /* seats the stand-in played at the end: last */
    int64_t user[CH_MAX_PLAYERS]; /* accounts (0: none) */
    int place[CH_MAX_PLAYERS];  /* 0 first; equal: shared */
} srv_result;

#endif
