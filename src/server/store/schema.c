/* schema.c: the database's schema, versioned, and its migrations: every
 * table of every layer is made here (games and moves, accounts and sessions,
 * chat, turn clocks, results and ratings), so that a database is brought up
 * to date in one place and one transaction when the store opens. Version 5
 * fills the accounts' name skeletons, which the people layer makes
 * (names.c): it registers that function (srv_schema_name_skeleton). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"

static void (*name_skeleton)(const char *name, char *out, size_t n);

void srv_schema_name_skeleton(void (*skel)(const char *name, char *out, size_t n))
{
    name_skeleton = skel;
}

static int turn_schema(db_conn *db)
{
    /* a database of the few builds that made turn_clock before the schema
       had versions lacks to_move: the table held only clocks, which the
       next commit of each game writes again */
    if (db_has_column(db, "turn_clock", "game") && !db_has_column(db, "turn_clock", "to_move") &&
        db_script(db, "ALTER TABLE turn_clock ADD COLUMN to_move INTEGER NOT NULL DEFAULT 0") != 0)
        return -1;
    return db_script(db, "CREATE TABLE IF NOT EXISTS turn_clock ("
                     " game TEXT PRIMARY KEY, since INTEGER NOT NULL, days INTEGER NOT NULL,"
                     " to_move INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;"
                     "CREATE INDEX IF NOT EXISTS turn_clock_since ON turn_clock(since);") == 0
               ? 0 : -1;
}

/* Schema version 3 (store.c's migrations): turn-based clocks, results,
 * ratings, their changes, and which account sat in which game. */
static int players_schema(db_conn *db)
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
        " PRIMARY KEY (user_id, game)) WITHOUT ROWID;";
    if (db_script(db, sql) != 0)
        return -1;
    /* the accounts of the games stored so far (seats JSON: owner "u:ID"),
       read in C so that both back ends fill it (a PostgreSQL database made
       by an older chartered, at version 2, has games and accounts too) */
    db_rows *r = db_query(db, "SELECT id, seats FROM games", 0, NULL);
    if (!r)
        return -1;
    int st, rc = 0;
    while (rc == 0 && (st = db_next(r)) == 1) {
        json_t *seats = db_text(r, 1) ? json_loads(db_text(r, 1), 0, NULL) : NULL;
        size_t i;
        json_t *o;
        json_array_foreach(seats, i, o) {
            const char *ow = json_string_value(json_object_get(o, "owner"));
            char *end = NULL;
            long long uid = ow && !strncmp(ow, "u:", 2) ? strtoll(ow + 2, &end, 10) : 0;
            if (uid <= 0 || !end || *end || i >= CH_MAX_PLAYERS)
                continue;
            if (db_exec(db, "INSERT INTO game_players(user_id, game, seat) VALUES($1,$2,$3) "
                        "ON CONFLICT DO NOTHING",
                        DB_P(DB_I((int64_t)uid), DB_T(db_text(r, 0)), DB_I((int64_t)i))) != 0) {
                rc = -1;
                break;
            }
        }
        json_decref(seats);
    }
    int e = db_end(r);
    return rc == 0 && e == 0 ? 0 : -1;
}

static int accounts_schema_v5(db_conn *c)
{
    if (db_script(c, "ALTER TABLE sessions ADD COLUMN last_seen INTEGER;"
                     "ALTER TABLE sessions ADD COLUMN addr TEXT;"
                     "ALTER TABLE sessions ADD COLUMN agent TEXT;"
                     "ALTER TABLE accounts ADD COLUMN name_skel TEXT;"
                     "ALTER TABLE chat ADD COLUMN guest INTEGER;"
                     "CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);"
                     "CREATE INDEX IF NOT EXISTS sessions_created ON sessions(created);"
                     "CREATE INDEX IF NOT EXISTS accounts_skel ON accounts(name_skel);") != 0)
        return -1;
    /* the skeletons of the accounts there are, made in C by the people
       layer (names.c, registered: srv_schema_name_skeleton) */
    db_rows *r = db_query(c, "SELECT id, name FROM accounts", 0, NULL);
    if (!r)
        return -1;
    struct acc {
        int64_t id;
        char skel[128];
    } *a = NULL;
    size_t n = 0;
    int rc = 0;
    while (db_next(r) == 1) {
        struct acc *na = realloc(a, (n + 1) * sizeof *a);
        if (!na) {
            rc = -1;
            break;
        }
        a = na;
        a[n].id = db_int(r, 0);
        if (!name_skeleton) { /* not registered: the skeletons cannot be made */
            rc = -1;
            break;
        }
        name_skeleton(db_text(r, 1) ? db_text(r, 1) : "", a[n].skel, sizeof a[n].skel);
        n++;
    }
    if (db_end(r) != 0)
        rc = -1;
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = db_exec(c, "UPDATE accounts SET name_skel = $1 WHERE id = $2",
                     DB_P(DB_T(a[i].skel), DB_I(a[i].id))) ? -1 : 0;
    free(a);
    return rc;
}

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

/* Version 7: challenges by name (api/challenge_api.c, issue 32): who
 * challenged whom to which settings, pending until answered; the game made
 * when accepted. */
static const char *schema_v7 =
    "CREATE TABLE IF NOT EXISTS challenges ("
    " id TEXT PRIMARY KEY, from_uid INTEGER NOT NULL, from_name TEXT NOT NULL,"
    " to_uid INTEGER NOT NULL, to_name TEXT NOT NULL, settings TEXT NOT NULL,"
    " status TEXT NOT NULL, created INTEGER NOT NULL, game TEXT, answered INTEGER) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS challenges_to ON challenges(to_uid, status);"
    "CREATE INDEX IF NOT EXISTS challenges_from ON challenges(from_uid, status);";

/* Version 8: the analyses of finished games (game/analysis.c, issue 33): one
 * row a game, queued, running (with its progress and the node computing
 * it), done (with its result, served by every node without computing it
 * again) or failed; who asked and when, for the per-person shares. */
static const char *schema_v8 =
    "CREATE TABLE IF NOT EXISTS analyses ("
    " game TEXT PRIMARY KEY, status TEXT NOT NULL, requester TEXT NOT NULL,"
    " requested INTEGER NOT NULL, updated INTEGER NOT NULL, node TEXT NOT NULL,"
    " done INTEGER NOT NULL, total INTEGER NOT NULL, cpu_ms INTEGER NOT NULL, result TEXT,"
    " error TEXT) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS analyses_requester ON analyses(requester, requested);";

/* Version 9: following players and rematches asked of each person (issue 32
 * item 4). follows: who follows whom (api/follow_api.c; the followed person
 * is not told). rematch_offers: "play again with the same people" proposed
 * after a finished game (api/rematch.c): the new game's request, pending
 * until every person at the table accepts (one row each in rematch_answers:
 * 'ask', 'yes' or 'no'; bots are not asked), then 'started' with its game,
 * or 'declined', 'failed' (why), or past expires. Answers are rows of their
 * own so two people accepting on two nodes at once never overwrite each
 * other; the offer's move from 'pending' to 'starting' is compared and set,
 * so exactly one of them makes the game. */
static const char *schema_v9 =
    "CREATE TABLE IF NOT EXISTS follows ("
    " follower INTEGER NOT NULL, followed INTEGER NOT NULL, created INTEGER NOT NULL,"
    " PRIMARY KEY (follower, followed)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS follows_followed ON follows(followed);"
    "CREATE TABLE IF NOT EXISTS rematch_offers ("
    " id TEXT PRIMARY KEY, old_game TEXT NOT NULL, request TEXT NOT NULL, edition TEXT NOT NULL,"
    " by_name TEXT NOT NULL, status TEXT NOT NULL, created INTEGER NOT NULL,"
    " expires INTEGER NOT NULL, game TEXT, why TEXT) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS rematch_offers_old ON rematch_offers(old_game);"
    "CREATE TABLE IF NOT EXISTS rematch_answers ("
    " offer TEXT NOT NULL, seat INTEGER NOT NULL, owner TEXT NOT NULL, name TEXT NOT NULL,"
    " answer TEXT NOT NULL, PRIMARY KEY (offer, seat)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS rematch_answers_owner ON rematch_answers(owner);";

/* Version 10: an account's tutorial progress (api/tutorial_api.c, issue 31):
 * one row a step done, by its id in web/tutorial/EDITION.json; a guest's
 * stays in the browser. */
static const char *schema_v10 =
    "CREATE TABLE IF NOT EXISTS tutorial_progress ("
    " user_id INTEGER NOT NULL, edition TEXT NOT NULL, step TEXT NOT NULL,"
    " done_at INTEGER NOT NULL, PRIMARY KEY (user_id, edition, step)) WITHOUT ROWID;";

/* Version 11: roles and moderation (people/moderation.c, issue 35 item 1):
 * an account's role ("admin", "moderator", NULL: a player); players'
 * reports of a player or a chat message, kept with the lines around it; the
 * sanctions in force (a ban or a mute per account, with its end; NULL:
 * permanent); and the audit log of every moderation action, which the
 * servers also read to act on what another node or `chartered admin` did. */
static const char *schema_v11 =
    "ALTER TABLE accounts ADD COLUMN role TEXT;"
    "CREATE TABLE IF NOT EXISTS mod_reports ("
    " id INTEGER PRIMARY KEY, created INTEGER NOT NULL, reporter_uid INTEGER NOT NULL,"
    " reporter TEXT NOT NULL, target_uid INTEGER, target TEXT NOT NULL, game TEXT,"
    " chat_n INTEGER, message TEXT, context TEXT, reason TEXT NOT NULL, details TEXT NOT NULL,"
    " status TEXT NOT NULL, handled_by TEXT, handled_at INTEGER, resolution TEXT);"
    "CREATE INDEX IF NOT EXISTS mod_reports_status ON mod_reports(status, created);"
    "CREATE INDEX IF NOT EXISTS mod_reports_reporter ON mod_reports(reporter_uid, created);"
    "CREATE TABLE IF NOT EXISTS mod_sanctions ("
    " user_id INTEGER NOT NULL, kind TEXT NOT NULL, since INTEGER NOT NULL, until INTEGER,"
    " reason TEXT NOT NULL, by_name TEXT NOT NULL, PRIMARY KEY (user_id, kind)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS mod_audit ("
    " id INTEGER PRIMARY KEY, at INTEGER NOT NULL, actor_uid INTEGER, actor TEXT NOT NULL,"
    " action TEXT NOT NULL, target_uid INTEGER, target TEXT, game TEXT, report INTEGER,"
    " reason TEXT NOT NULL, until INTEGER);";

/* Version 12: the network a guest asked for an analysis from (the form of
 * sessions.addr: IPv4 /24, IPv6 /48; NULL for an account), so that all the
 * guest sessions of one network share one person's analysis share
 * (game/analysis.c): a new guest session is no new share. */
static const char *schema_v12 =
    "ALTER TABLE analyses ADD COLUMN origin TEXT;"
    "CREATE INDEX IF NOT EXISTS analyses_origin ON analyses(origin, requested);";

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

int srv_schema_migrate(db_conn *db, char *why, size_t n)
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
    if (v < 3 && (turn_schema(db) != 0 || players_schema(db) != 0))
        goto fail;
    step = "migration to version 4";
    if (v < 4 && db_script(db, schema_v4) != 0)
        goto fail;
    /* Version 5: sessions' last use and origin, accounts' name skeletons
       (session.c, names.c; issue 28) */
    step = "migration to version 5";
    if (v < 5 && accounts_schema_v5(db) != 0)
        goto fail;
    step = "migration to version 6";
    if (v < 6 && db_script(db, schema_v6) != 0)
        goto fail;
    step = "migration to version 7";
    if (v < 7 && db_script(db, schema_v7) != 0)
        goto fail;
    step = "migration to version 8";
    if (v < 8 && db_script(db, schema_v8) != 0)
        goto fail;
    step = "migration to version 9";
    if (v < 9 && db_script(db, schema_v9) != 0)
        goto fail;
    step = "migration to version 10";
    if (v < 10 && db_script(db, schema_v10) != 0)
        goto fail;
    step = "migration to version 11";
    if (v < 11 && db_script(db, schema_v11) != 0)
        goto fail;
    step = "migration to version 12";
    if (v < 12 && db_script(db, schema_v12) != 0)
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

