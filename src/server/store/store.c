/* store.c: persistence, through the database interface of db.h (SQLite by
 * default, or PostgreSQL; docs/storage.md). A game is stored as its setup,
 * its seats (seat tokens as hashes, the sessions they are bound to) and its move list; the state is never stored
 * but rebuilt by replaying the moves (the engine is deterministic), which is
 * how every game resumes after a restart or a kill -9. All the moves made
 * during one turn of the event loop are written in one transaction (by the
 * writer thread, committer.c, from copies: srv_batch_fill and
 * srv_store_write), and no client hears of a move before that transaction
 * has committed.
 *
 * Finished games (and turn-based games in play, turnbased.c) are not loaded at start: they are read back one at a time
 * when someone asks for one (srv_store_load_over), and listed from here
 * (srv_store_list_over), so memory holds only the games in play and the
 * finished ones looked at lately (lobby.c drops them again).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "people/people.h"
#include "game/game.h"

/* The moves of a batch go up to MOVES_PER_INSERT to a statement: a round
 * trip per statement matters on PostgreSQL (a socket away), and SQLite
 * takes them as fast. */
#define MOVES_PER_INSERT 16

struct srv_store {
    db_conn *db;
    char *ins_moves[MOVES_PER_INSERT + 1]; /* [k]: the insert of k moves */
    char err[300];              /* the last failed write's reason (backoff.c logs it,
                                   rate-limited: not here, once per failure) */
    int errclass;               /* its class: DB_ERR, DB_CONFLICT, DB_LOST */
};

srv_storage g_storage;

static char *moves_insert(int k);

const char *srv_store_errmsg(srv_store *s)
{
    return s->err;
}

int srv_store_errclass(srv_store *s)
{
    return s->errclass;
}

/* Keep the reason of a failed write (db.h: with the system's reason for an
 * I/O error: EFBIG, EROFS, ENOSPC). */
static void note_err(srv_store *s)
{
    snprintf(s->err, sizeof s->err, "%s", db_errmsg(s->db));
    s->errclass = db_errclass(s->db);
}

db_conn *srv_store_db(srv_store *s)
{
    return s->db;
}

#define GAME_COLUMNS "id, setup, seats, status, turn_timer, created"

/* The schema is versioned (db_schema_version: SQLite's PRAGMA user_version,
 * PostgreSQL's schema_version table) and upgraded in place by the
 * migrations below, in order, in one transaction: a database made by an
 * older chartered opens and is brought up to date; one made by a newer
 * chartered is refused rather than misread. The tables are written once, in
 * SQLite's dialect; db_script translates them for PostgreSQL.
 *
 * Version 1: games and moves (databases from before versioning say 0 and
 * have exactly these tables). The moves' primary key (game, n) refuses a
 * second writer of move n of a game (DB_CONFLICT): two servers on one
 * PostgreSQL can never both write it. */
static const char *schema_v1 =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, setup TEXT NOT NULL, seats TEXT NOT NULL,"
    " status TEXT NOT NULL, turn_timer INTEGER NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, player INTEGER NOT NULL, move TEXT NOT NULL,"
    " PRIMARY KEY (game, n)) WITHOUT ROWID;"
    /* finished games are listed newest first from the database */
    "CREATE INDEX IF NOT EXISTS games_status ON games(status, created);";

/* Version 2: accounts and sessions (session.c); seat tokens kept as hashes
 * (hash_seat_tokens). */
static const char *schema_v2 =
    "CREATE TABLE IF NOT EXISTS accounts ("
    " id INTEGER PRIMARY KEY, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,"
    " pwhash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS sessions ("
    " hash TEXT PRIMARY KEY, sid TEXT NOT NULL UNIQUE, user_id INTEGER REFERENCES accounts(id),"
    " guest_name TEXT, created INTEGER NOT NULL);";

/* Version 4: the chat of each table (chat.c), kept with the game. */
static const char *schema_v4 =
    "CREATE TABLE IF NOT EXISTS chat ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, decision INTEGER NOT NULL,"
    " channel INTEGER NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, text TEXT NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY (game, n)) WITHOUT ROWID;";

/* Version 6: e-mail (people/mail.c, issue 32): an account's address, the
 * tokens of its links (stored hashed), the queue of messages (kept until
 * sent, so a relay that is down delays mail and loses none), and when each
 * person was last told of their turn in each game. */
static const char *schema_v6 =
    "CREATE TABLE IF NOT EXISTS emails ("
    " user_id INTEGER NOT NULL PRIMARY KEY, address TEXT NOT NULL, confirmed INTEGER NOT NULL,"
    " lang TEXT NOT NULL, turn_mail INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS mail_tokens ("
    " hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL, kind TEXT NOT NULL, address TEXT NOT NULL,"
    " expires INTEGER NOT NULL, used INTEGER NOT NULL) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS mail_queue ("
    " id INTEGER PRIMARY KEY, to_addr TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL,"
    " unsub TEXT, created INTEGER NOT NULL, next_try INTEGER NOT NULL, attempts INTEGER NOT NULL,"
    " sent INTEGER, last_error TEXT);"
    "CREATE INDEX IF NOT EXISTS mail_queue_due ON mail_queue(sent, next_try);"
    "CREATE TABLE IF NOT EXISTS turn_mails ("
    " user_id INTEGER NOT NULL, game TEXT NOT NULL, at INTEGER NOT NULL,"
    " PRIMARY KEY (user_id, game)) WITHOUT ROWID;";

/* Version 2: every stored seat token becomes its hash (tokens.c). */
static int hash_seat_tokens(db_conn *db)
{
    db_rows *r = db_query(db, "SELECT id, seats FROM games", 0, NULL);
    if (!r)
        return -1;
    int st, rc = 0;
    while (rc == 0 && (st = db_next(r)) == 1) {
        const char *text = db_text(r, 1);
        json_t *seats = text ? json_loads(text, 0, NULL) : NULL;
        size_t i;
        json_t *o;
        int changed = 0;
        json_array_foreach(seats, i, o) {
            const char *tok = json_string_value(json_object_get(o, "token"));
            if (tok) {
                char h[SRV_HASH_HEX + 1];
                srv_token_hash(tok, h);
                json_object_set_new(o, "token_hash", json_string(h));
                json_object_del(o, "token");
                changed = 1;
            }
        }
        char *out = changed ? json_dumps(seats, JSON_COMPACT) : NULL;
        json_decref(seats);
        if (!out)
            continue;
        rc = db_exec(db, "UPDATE games SET seats = $1 WHERE id = $2",
                     DB_P(DB_T(out), DB_T(db_text(r, 0))));
        free(out);
    }
    int e = db_end(r);
    return rc == 0 && e == 0 ? 0 : -1;
}

static int migrate(db_conn *db, char *why, size_t n)
{
    if (db_migration_begin(db) != 0) {
        snprintf(why, n, "%s", db_errmsg(db));
        db_rollback(db);
        return -1;
    }
    int v = db_schema_version(db);
    const char *step = "reading the schema version";
    if (v < 0)
        goto fail;
    if (v > SRV_SCHEMA_VERSION) {
        db_rollback(db);
        snprintf(why, n, "the database has schema version %d, made by a newer chartered "
                 "(this one knows up to %d)", v, SRV_SCHEMA_VERSION);
        return -1;
    }
    step = "migration to version 1";
    if (v < 1 && db_script(db, schema_v1) != 0)
        goto fail;
    step = "migration to version 2";
    if (v < 2 && (db_script(db, schema_v2) != 0 || hash_seat_tokens(db) != 0))
        goto fail;
    /* Version 3: turn-based clocks (turnbased.c), results, ratings and who
       played which game (results.c) */
    step = "migration to version 3";
    if (v < 3 && (srv_turn_schema(db) != 0 || srv_players_schema(db) != 0))
        goto fail;
    step = "migration to version 4";
    if (v < 4 && db_script(db, schema_v4) != 0)
        goto fail;
    /* Version 5: sessions' last use and origin, accounts' name skeletons
       (session.c, names.c; issue 28) */
    step = "migration to version 5";
    if (v < 5 && srv_accounts_schema_v5(db) != 0)
        goto fail;
    step = "migration to version 6";
    if (v < 6 && db_script(db, schema_v6) != 0)
        goto fail;
    step = "setting the schema version";
    if (v != SRV_SCHEMA_VERSION && db_set_schema_version(db, SRV_SCHEMA_VERSION) != 0)
        goto fail;
    if (db_commit(db) == 0)
        return 0;
    step = "committing the migration";
fail:
    snprintf(why, n, "%s: %s", step, db_errmsg(db));
    db_rollback(db);
    return -1;
}

srv_store *srv_store_open(const char *path, int sync_full, char *why, size_t n)
{
    srv_store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    s->db = db_open(path, sync_full, why, n);
    if (!s->db) {
        free(s);
        return NULL;
    }
    for (int k = 1; k <= MOVES_PER_INSERT; k++)
        if (!(s->ins_moves[k] = moves_insert(k))) {
            snprintf(why, n, "out of memory");
            srv_store_close(s);
            return NULL;
        }
    char mwhy[300];
    if (migrate(s->db, mwhy, sizeof mwhy) != 0) {
        /* a migration that failed because nothing can be written (a
           read-only PostgreSQL database or standby; a read-only file) says
           so, rather than which statement was refused */
        char wwhy[300];
        if (db_writable(s->db, wwhy, sizeof wwhy) != 0)
            snprintf(mwhy, sizeof mwhy, "%s", wwhy);
        snprintf(why, n, "database %s: %s", db_kind(s->db) == DB_PG ? "(PostgreSQL)" : path,
                 mwhy);
        srv_store_close(s);
        return NULL;
    }
    return s;
}

void srv_store_close(srv_store *s)
{
    if (!s)
        return;
    db_close(s->db);
    for (int k = 0; k <= MOVES_PER_INSERT; k++)
        free(s->ins_moves[k]);
    free(s);
}

/* Compact text of j, which is released. */
static char *dump_free(json_t *j)
{
    char *s = j ? json_dumps(j, JSON_COMPACT) : NULL;
    json_decref(j);
    return s;
}

static const char *sql_upd_meta = "UPDATE games SET seats=$1, status=$2 WHERE id=$3";

static int bind_meta(srv_store *s, srv_game *g)
{
    char *seats = dump_free(srv_seats_store_json(g));
    if (!seats)
        return -1;
    int rc = db_exec(s->db, sql_upd_meta,
                     DB_P(DB_T(seats), DB_T(srv_game_status(g)), DB_T(g->id)));
    free(seats);
    if (rc)
        note_err(s);
    return rc ? -1 : 0;
}

int srv_store_create_game(srv_store *s, srv_game *g)
{
    g->away_stored = 0;
    char *setup = dump_free(srv_setup_json(g));
    char *seats = dump_free(srv_seats_store_json(g));
    int rc = -1;
    /* the game and its rows in game_players and turn_clock: one transaction,
       one sync (the writer thread waits for the lock meanwhile) */
    if (setup && seats && db_begin(s->db) == 0) {
        rc = db_exec(s->db, "INSERT INTO games(id,setup,seats,status,turn_timer,created) "
                     "VALUES($1,$2,$3,$4,$5,$6)",
                     DB_P(DB_T(g->id), DB_T(setup), DB_T(seats), DB_T(srv_game_status(g)),
                          DB_I(g->turn_timer), DB_I(g->created)));
        if (rc == 0) { /* the creator's seat, for profiles and "My games" */
            int64_t users[CH_MAX_PLAYERS];
            srv_players_of(g, users);
            rc = srv_players_write(s->db, g->id, users, CH_MAX_PLAYERS);
        }
        if (rc == 0 && g->days > 0) { /* a turn-based game in play at once */
            srv_batch_item it;
            memset(&it, 0, sizeof it);
            memcpy(it.id, g->id, sizeof it.id);
            srv_turn_batch(&it, g);
            rc = it.clock == 1 ? srv_turn_write(s->db, &it) : 0;
        }
        if (rc == 0 && db_commit(s->db) != 0)
            rc = -1;
        if (rc) {
            note_err(s);
            db_rollback(s->db);
        }
    } else if (setup && seats) {
        note_err(s);
        db_rollback(s->db);
    }
    free(setup);
    free(seats);
    return rc ? -1 : 0;
}

int srv_store_delete_game(srv_store *s, const char *id)
{
    /* only a game that never started (waiting, no move), with what refers
       to it: its seats' accounts (game_players) and its chat */
    static const char *const sql[] = {
        "DELETE FROM chat WHERE game=$1 AND EXISTS (SELECT 1 FROM games WHERE id=$1 AND "
        "status='waiting') AND NOT EXISTS (SELECT 1 FROM moves WHERE game=$1)",
        "DELETE FROM game_players WHERE game=$1 AND EXISTS (SELECT 1 FROM games WHERE id=$1 AND "
        "status='waiting') AND NOT EXISTS (SELECT 1 FROM moves WHERE game=$1)",
        "DELETE FROM games WHERE id=$1 AND status='waiting' AND "
        "NOT EXISTS (SELECT 1 FROM moves WHERE game=$1)"};
    if (db_begin(s->db) != 0)
        goto fail;
    for (size_t i = 0; i < sizeof sql / sizeof *sql; i++)
        if (db_exec(s->db, sql[i], DB_P(DB_T(id))) != 0)
            goto fail;
    if (db_commit(s->db) == 0)
        return 0;
fail:
    note_err(s);
    db_rollback(s->db);
    return -1;
}

int srv_store_update_meta(srv_store *s, srv_game *g)
{
    return bind_meta(s, g);
}

static unsigned away_mask(const srv_game *g)
{
    unsigned m = 0;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && g->seat[i].away)
            m |= 1u << i;
    return m;
}

int srv_batch_fill(srv_batch_item *it, srv_game *g)
{
    memset(it, 0, sizeof *it);
    memcpy(it->id, g->id, sizeof it->id);
    it->away = away_mask(g);
    if (g->npending) {
        it->moves = malloc((size_t)g->npending * sizeof *it->moves);
        if (!it->moves)
            return -1;
        memcpy(it->moves, g->pending, (size_t)g->npending * sizeof *it->moves);
        it->nmoves = g->npending;
    }
    /* a seat handed to a stand-in bot (turn timer) or taken back: the seats
       are written again with the moves, so a restart keeps the stand-in
       playing */
    if (g->meta_dirty || it->away != g->away_stored) {
        it->seats = dump_free(srv_seats_store_json(g));
        if (!it->seats) {
            free(it->moves);
            it->moves = NULL;
            return -1;
        }
        snprintf(it->status, sizeof it->status, "%s", srv_game_status(g));
    }
    srv_turn_batch(it, g);
    if (it->seats) { /* who sits where (profiles), and the result once over */
        srv_players_of(g, it->users);
        /* a game ended as abandoned (limits.c) has no result and no rating */
        if (g->status == GAME_OVER && !g->abandoned && !(it->result = srv_result_make(g))) {
            srv_batch_free(it);
            return -1;
        }
    }
    return 0;
}

void srv_batch_free(srv_batch_item *it)
{
    free(it->moves);
    free(it->seats);
    free(it->result);
    it->moves = NULL;
    it->seats = NULL;
    it->result = NULL;
}

/* The text of an insert of k moves (the store's, made at its open). */
static char *moves_insert(int k)
{
    size_t cap = 64 + (size_t)k * 40;
    char *t = malloc(cap);
    if (!t)
        return NULL;
    size_t l = (size_t)snprintf(t, cap, "INSERT INTO moves(game,n,player,move) VALUES");
    for (int i = 0; i < k; i++)
        l += (size_t)snprintf(t + l, cap - l, "%s($%d,$%d,$%d,$%d)", i ? "," : "", 4 * i + 1,
                              4 * i + 2, 4 * i + 3, 4 * i + 4);
    return t;
}

static int write_moves(srv_store *s, const srv_batch_item *it)
{
    for (int i = 0; i < it->nmoves; i += MOVES_PER_INSERT) {
        int k = it->nmoves - i < MOVES_PER_INSERT ? it->nmoves - i : MOVES_PER_INSERT;
        db_val v[4 * MOVES_PER_INSERT];
        for (int j = 0; j < k; j++) {
            const srv_pending *p = &it->moves[i + j];
            v[4 * j] = DB_T(it->id);
            v[4 * j + 1] = DB_I(p->n);
            v[4 * j + 2] = DB_I(p->player);
            v[4 * j + 3] = DB_T(p->move);
        }
        if (db_exec(s->db, s->ins_moves[k], 4 * k, v) != 0)
            return -1;
    }
    return 0;
}

int srv_store_write(srv_store *s, const srv_batch_item *items, int n)
{
    if (db_begin(s->db) != 0)
        goto fail;
    for (int k = 0; k < n; k++) {
        const srv_batch_item *it = &items[k];
        if (write_moves(s, it) != 0)
            goto fail;
        if (it->seats && db_exec(s->db, sql_upd_meta,
                                 DB_P(DB_T(it->seats), DB_T(it->status), DB_T(it->id))) != 0)
            goto fail;
        if (srv_turn_write(s->db, it) != 0)
            goto fail;
        if (it->seats && srv_players_write(s->db, it->id, it->users, CH_MAX_PLAYERS) != 0)
            goto fail;
        if (srv_result_write(s->db, it->id, it->result) != 0)
            goto fail;
    }
    if (db_commit(s->db) != 0)
        goto fail;
    return 0;
fail:
    note_err(s);
    db_rollback(s->db);
    return s->errclass == DB_CONFLICT ? SRV_STORE_CONFLICT : -1;
}

int srv_store_commit(srv_store *s, srv_game *list)
{
    int n = 0;
    for (srv_game *g = list; g; g = g->next_commit)
        n++;
    srv_batch_item *items = calloc((size_t)(n ? n : 1), sizeof *items);
    if (!items)
        return -1;
    int k = 0, rc = 0;
    for (srv_game *g = list; g && rc == 0; g = g->next_commit)
        rc = srv_batch_fill(&items[k++], g);
    if (rc == 0)
        rc = srv_store_write(s, items, n);
    if (rc == 0) {
        k = 0;
        for (srv_game *g = list; g; g = g->next_commit)
            g->away_stored = items[k++].away;
    }
    for (int i = 0; i < n; i++)
        srv_batch_free(&items[i]);
    free(items);
    return rc;
}

json_t *srv_store_moves(srv_store *s, const char *id)
{
    json_t *a = json_array();
    db_rows *r = db_query(s->db, "SELECT player, move FROM moves WHERE game=$1 ORDER BY n",
                          DB_P(DB_T(id)));
    if (!r) {
        json_decref(a);
        return NULL;
    }
    while (db_next(r) == 1)
        json_array_append_new(a, json_pack("{s:i,s:s}", "player", (int)db_int(r, 0), "move",
                                           db_text(r, 1) ? db_text(r, 1) : ""));
    if (db_end(r) != 0) {
        json_decref(a);
        return NULL;
    }
    return a;
}

/* A game from a row of GAME_COLUMNS (setup and seats only: no moves), or
 * NULL with the reason in why. */
static srv_game *game_from_row(db_rows *st, char *why, size_t n)
{
    srv_game *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    g->vcache_decision = -1;
    const char *id = db_text(st, 0);
    const char *st_setup = db_text(st, 1);
    const char *st_seats = db_text(st, 2);
    json_t *setup = st_setup ? json_loads(st_setup, 0, NULL) : NULL;
    json_t *seats = st_seats ? json_loads(st_seats, 0, NULL) : NULL;
    int ok = 0;
    if (!id || !setup || !seats)
        snprintf(why, n, "unreadable setup or seats");
    else if (srv_setup_from_json(g, setup, why, n) == 0 &&
             srv_seats_from_store(g, seats, why, n) == 0)
        ok = 1;
    json_decref(setup);
    json_decref(seats);
    if (!ok) {
        srv_game_free(g);
        return NULL;
    }
    snprintf(g->id, sizeof g->id, "%s", id);
    g->turn_timer = (int)db_int(st, 4);
    g->created = db_int(st, 5);
    return g;
}

/* The game of the current row with its moves replayed, or NULL with the
 * reason in err (not logged). */
static srv_game *load_row_why(srv_store *s, db_rows *st, char *err, size_t errn)
{
    json_t *moves = NULL;
    srv_game *g = game_from_row(st, err, errn);
    if (!g)
        goto bad;
    moves = srv_store_moves(s, g->id);
    if (!moves || srv_replay_moves(g, moves, -1, err, errn) != 0) {
        if (!moves)
            snprintf(err, errn, "the moves cannot be read: %s", db_errmsg(s->db));
        goto bad;
    }
    json_decref(moves);
    moves = NULL;
    const char *status = db_text(st, 3);
    unsigned mask;
    int claimed_all = 1;
    for (int i = 0; i < g->nseats; i++)
        if (g->seat[i].kind == SEAT_HUMAN && !g->seat[i].claimed)
            claimed_all = 0;
    g->status = claimed_all || !status || strcmp(status, "waiting") != 0 ? GAME_PLAYING
                                                                         : GAME_WAITING;
    if (ch_decider(&g->st, &mask) == CH_DEC_TERMINAL) {
        ch_scores(&g->st, g->scores, &g->winners);
        g->status = GAME_OVER;
    }
    if (status && strcmp(status, "abandoned") == 0) { /* limits.c */
        g->status = GAME_OVER;
        g->abandoned = 1;
    }
    /* a finished game needs no bots (they are made when needed anyway) */
    for (int i = 0; i < g->nseats && g->status != GAME_OVER; i++)
        if (g->seat[i].kind == SEAT_BOT && srv_seat_make_bot(g, i, err, errn) != 0)
            goto bad;
    g->decide_since_ms = srv_now_ms();
    if (srv_turn_loaded(s->db, g) != 0 || srv_results_loaded(s->db, g) != 0) {
        snprintf(err, errn, "its turn clock or result cannot be read: %s", db_errmsg(s->db));
        goto bad;
    }
    return g;
bad:
    json_decref(moves);
    srv_game_free(g);
    return NULL;
}

/* The game of the current row with its moves replayed, or NULL (logged). */
static srv_game *load_row(srv_store *s, db_rows *st)
{
    const char *id = db_text(st, 0);
    char err[300];
    srv_game *g = load_row_why(s, st, err, sizeof err);
    if (!g)
        fprintf(stderr, "chartered: game %s cannot be loaded: %s\n", id ? id : "?", err);
    return g;
}

int srv_store_writable(srv_store *s, char *why, size_t n)
{
    return db_writable(s->db, why, n);
}

int srv_store_load(srv_store *s, int skip_damaged, char *why, size_t n)
{
    /* The start's check of the whole database (db_check; SQLite: PRAGMA
     * quick_check: every page, every index, no row lost). A damaged file is
     * never silently half-used: the start is refused unless told to skip
     * what cannot be read (--skip-damaged). */
    int problems = db_check(s->db);
    /* finished games stay in the database until asked for, and so do the
       turn-based games in play (turnbased.c) */
    db_rows *st = db_query(s->db, "SELECT " GAME_COLUMNS " FROM games WHERE status NOT IN "
                           "('over','abandoned') AND id NOT IN (SELECT game FROM turn_clock) "
                           "ORDER BY created, id", 0, NULL);
    if (!st) {
        snprintf(why, n, "database: %s", db_errmsg(s->db));
        return -1;
    }
    int count = 0, bad = 0, rc;
    while ((rc = db_next(st)) == 1) {
        const char *id = db_text(st, 0);
        char err[300];
        srv_game *g = load_row_why(s, st, err, sizeof err);
        if (g) {
            srv_game_add(g);
            count++;
        } else {
            fprintf(stderr, "chartered: game %s cannot be loaded: %s\n", id ? id : "?", err);
            bad++;
        }
    }
    /* the loop also stops on an error (a damaged page): then games after
       it were never seen, which must not pass for "no more games" */
    if (rc != 0) {
        fprintf(stderr, "chartered: reading the games stopped after %d: %s\n", count + bad,
                db_errmsg(s->db));
        problems++;
    }
    db_end(st);
    if (problems || bad) {
        if (!skip_damaged) {
            snprintf(why, n, "the database is damaged: %d game%s cannot be loaded, %d "
                     "problem%s in the file (listed above). Restore a backup, or start with "
                     "--skip-damaged to serve the %d game%s that load (the rest stays in "
                     "the file as it is)", bad, bad == 1 ? "" : "s", problems,
                     problems == 1 ? "" : "s", count, count == 1 ? "" : "s");
            return -1;
        }
        fprintf(stderr, "chartered: --skip-damaged: serving %d game%s; %d game%s not loaded, "
                "%d problem%s in the file (listed above)\n", count, count == 1 ? "" : "s", bad,
                bad == 1 ? "" : "s", problems, problems == 1 ? "" : "s");
    }
    return count;
}

srv_game *srv_store_load_over(srv_store *s, const char *id)
{
    srv_game *g = NULL;
    db_rows *st = db_query(s->db, "SELECT " GAME_COLUMNS " FROM games WHERE id=$1",
                           DB_P(DB_T(id)));
    if (st && db_next(st) == 1)
        g = load_row(s, st);
    db_end(st);
    return g;
}

srv_game *srv_store_load_db(db_conn *db, const char *id)
{
    srv_store t;
    memset(&t, 0, sizeof t);
    t.db = db; /* the load reads only the connection */
    return srv_store_load_over(&t, id);
}

json_t *srv_store_list_idle_db(db_conn *db, int limit)
{
    json_t *a = json_array();
    db_rows *st = db_query(db, "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM moves "
                           "WHERE game=games.id), t.days FROM games JOIN turn_clock t ON "
                           "t.game=games.id WHERE status NOT IN ('over','abandoned') "
                           "ORDER BY created DESC, id DESC LIMIT $1", DB_P(DB_I(limit)));
    int rc = st ? 0 : -1;
    while (st && (rc = db_next(st)) == 1) {
        const char *id = db_text(st, 0), *status = db_text(st, 3);
        if (!id)
            continue; /* (games held in memory are dropped by srv_list_held) */
        /* setup, seats and move count: no replay, nothing kept in memory */
        char why[300];
        srv_game *g = game_from_row(st, why, sizeof why);
        if (!g)
            continue;
        g->status = status && !strcmp(status, "waiting") ? GAME_WAITING : GAME_PLAYING;
        g->nmoves = g->ncommitted = (int)db_int(st, 6);
        g->days = (int)db_int(st, 7);
        json_array_append_new(a, srv_game_summary(g));
        srv_game_free(g);
    }
    if (st && db_end(st) != 0)
        rc = -1;
    if (rc != 0) {
        lwsl_err("database: %s\n", db_errmsg(db));
        json_decref(a);
        return NULL;
    }
    return a;
}

json_t *srv_store_list_over_db(db_conn *db, int limit)
{
    json_t *a = json_array();
    db_rows *st = db_query(db, "SELECT " GAME_COLUMNS ", (SELECT count(*) FROM moves "
                           "WHERE game=games.id), r.finished, r.scores, r.winners FROM games "
                           "LEFT JOIN results r ON r.game=games.id "
                           "WHERE status IN ('over','abandoned') "
                           "ORDER BY created DESC, id DESC LIMIT $1", DB_P(DB_I(limit)));
    int rc = st ? 0 : -1;
    while (st && (rc = db_next(st)) == 1) {
        json_t *summary;
        {
            /* the summary needs the setup, the seats and the move count only:
               no replay (a game held in memory takes its place on the loop:
               srv_list_held) */
            char why[300];
            srv_game *g = game_from_row(st, why, sizeof why);
            if (!g)
                continue;
            g->status = GAME_OVER;
            g->nmoves = g->ncommitted = (int)db_int(st, 6);
            summary = srv_game_summary(g);
            srv_game_free(g);
            /* the scores come from the stored result (results.c) */
            json_object_del(summary, "scores");
            json_object_del(summary, "winners");
        }
        if (!db_null(st, 7)) {
            json_t *sc = json_loads(db_text(st, 8), 0, NULL);
            json_t *w = json_loads(db_text(st, 9), 0, NULL);
            json_object_set_new(summary, "finished", json_integer(db_int(st, 7)));
            if (sc)
                json_object_set_new(summary, "scores", sc);
            if (w)
                json_object_set_new(summary, "winners", w);
        }
        json_array_append_new(a, summary);
    }
    if (st && db_end(st) != 0)
        rc = -1;
    if (rc != 0) {
        lwsl_err("database: %s\n", db_errmsg(db));
        json_decref(a);
        return NULL;
    }
    return a;
}

void srv_list_held(json_t *a, int over)
{
    for (size_t i = 0; i < json_array_size(a);) {
        json_t *old = json_array_get(a, i);
        srv_game *held = srv_game_held(json_string_value(json_object_get(old, "id")));
        if (!held) {
            i++;
        } else if (!over) { /* in play and in memory: listed from there */
            json_array_remove(a, i);
        } else { /* in memory: its summary shows who is connected */
            json_t *summary = srv_game_summary(held);
            if (json_object_get(old, "finished")) /* the stored result wins */
                for (const char *const *k = (const char *const[]){"finished", "scores",
                                                                   "winners", NULL};
                     *k; k++)
                    if (json_object_get(old, *k))
                        json_object_set(summary, *k, json_object_get(old, *k));
            json_array_set_new(a, i++, summary);
        }
    }
}

json_t *srv_store_list_over(srv_store *s, int limit)
{
    json_t *a = srv_store_list_over_db(s->db, limit);
    srv_list_held(a, 1);
    return a;
}

json_t *srv_store_list_idle(srv_store *s, int limit)
{
    json_t *a = srv_store_list_idle_db(s->db, limit);
    srv_list_held(a, 0);
    return a;
}
