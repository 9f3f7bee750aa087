/* db.h: the one interface every SQL statement of the server goes through
 * (issue 17 item 1; docs/storage.md). Two back ends sit behind it: SQLite
 * (db_sqlite.c, the default: a file path) and PostgreSQL through libpq
 * (db_pg.c: a postgresql:// URL or a libpq connection string such as
 * "host=/run/pg dbname=chartered"). db.c picks one from the target's form.
 *
 * One SQL text serves both: parameters are written $1, $2, ... (SQLite's
 * back end turns them into ?1, ?2), upserts use ON CONFLICT, inserts that
 * need the new id use RETURNING. Where the dialects differ (table
 * definitions, the schema version, the file check) the back ends translate
 * or answer themselves, and nothing else knows which one runs.
 *
 * A connection belongs to one thread at a time: the event loop has one, the
 * writer thread (committer.c) another.
 */
#ifndef CHARTERED_DB_H
#define CHARTERED_DB_H

#include <stddef.h>
#include <stdint.h>

typedef struct db_conn db_conn;
typedef struct db_rows db_rows;

enum { DB_SQLITE = 1, DB_PG = 2 };

/* What a call returns: 0, or the class of its failure. DB_CONFLICT is a
 * unique or primary-key violation (a second writer of move N of a game, a
 * name taken); DB_LOST says the link to the server went away (PostgreSQL:
 * the next call tries to connect again). */
enum { DB_OK = 0, DB_ERR = -1, DB_CONFLICT = -2, DB_LOST = -3 };

/* A parameter: 'i' integer, 'd' real, 't' text (s NULL: SQL NULL), 'n' NULL. */
typedef struct db_val {
    char type;
    int64_t i;
    double d;
    const char *s;
} db_val;
#define DB_I(x) ((db_val){'i', (int64_t)(x), 0.0, NULL})
#define DB_D(x) ((db_val){'d', 0, (double)(x), NULL})
#define DB_T(x) ((db_val){'t', 0, 0.0, (x)})
#define DB_NULL ((db_val){'n', 0, 0.0, NULL})
/* The count and array of a parameter list: db_exec(c, sql, DB_P(DB_T(id), DB_I(n))). */
#define DB_P(...) (int)(sizeof((db_val[]){__VA_ARGS__}) / sizeof(db_val)), (db_val[]){__VA_ARGS__}

/* Open target: a postgresql:// (or postgres://) URL or a libpq connection
 * string (it has '=' in it) is PostgreSQL, anything else an SQLite file.
 * sync_full: SQLite syncs at every commit (PostgreSQL: synchronous_commit
 * stays the server's). NULL with the reason in why. */
db_conn *db_open(const char *target, int sync_full, char *why, size_t n);
void db_close(db_conn *c);
int db_kind(const db_conn *c);
/* SQLite: c's commits no longer checkpoint the WAL themselves; a thread
 * with a connection of its own does it beside them once the WAL holds
 * 1,000 pages (db_sqlite.c). For the writer thread (committer.c), whose
 * commits the moves' acknowledgements wait for. 0 done (PostgreSQL:
 * nothing to do), -1 not started (c checkpoints itself, as before). */
int db_checkpoint_aside(db_conn *c);
/* SQLite's online backup: the chartered database file from copied into the
 * file to (created, or overwritten page by page), as one consistent moment
 * of it while a server may be writing (WAL), then checked (quick_check) and
 * left as a single file (no WAL). 0, or -1 with why. backup.c's commands. */
int db_sqlite_copy(const char *from, const char *to, char *why, size_t n);
/* A PostgreSQL server's notice (its non-localized severity, its message),
 * through the one log (net/log.c) as one line: WARNING, FATAL and PANIC as
 * warnings, the rest ("relation already exists, skipping": the migrations
 * are meant to be repeated) as debug lines; link, when not NULL, names the
 * connection ("lease"). The notice receivers of db_pg.c and cluster/lease.c. */
void db_pg_notice(const char *severity, const char *message, const char *link);
/* 1 when target names a PostgreSQL database. */
int db_is_pg_target(const char *target);
/* target as it may be printed: a password in it is shown as ***. */
const char *db_target_shown(const char *target, char *out, size_t n);
/* The reason of the last failure on c (with the system's reason for I/O
 * errors), and its class (DB_ERR, DB_CONFLICT, DB_LOST). */
const char *db_errmsg(const db_conn *c);
int db_errclass(const db_conn *c);

/* Run one statement; 0 or the failure's class. */
int db_exec(db_conn *c, const char *sql, int n, const db_val *p);
/* Rows changed by the last db_exec. */
int64_t db_changes(db_conn *c);
/* Several statements without parameters (schema definitions), in the
 * SQLite dialect: PostgreSQL's back end translates the column types
 * (INTEGER -> BIGINT, REAL -> DOUBLE PRECISION, INTEGER PRIMARY KEY -> an
 * identity column) and drops WITHOUT ROWID. */
int db_script(db_conn *c, const char *sql);

/* A query: NULL on failure (db_errmsg). Read with db_next until it says 0
 * (done) or below 0 (failure class), then db_end, which frees it and says
 * 0 or the class of a failure met while reading. Queries may nest. */
db_rows *db_query(db_conn *c, const char *sql, int n, const db_val *p);
int db_next(db_rows *r);
int db_end(db_rows *r);
/* Columns of the current row, from 0: text (NULL for SQL NULL), integer
 * and real (0 for NULL), and whether it is NULL. */
const char *db_text(db_rows *r, int col);
int64_t db_int(db_rows *r, int col);
double db_real(db_rows *r, int col);
int db_null(db_rows *r, int col);
/* The first column of the first row as an integer (dflt when no row or
 * NULL); -1 in *rc (when not NULL) on failure. */
int64_t db_one_int(db_conn *c, const char *sql, int n, const db_val *p, int64_t dflt, int *rc);

/* Transactions. db_begin takes the write lock at once (SQLite BEGIN
 * IMMEDIATE); on failure the caller calls db_rollback. */
int db_begin(db_conn *c);
int db_commit(db_conn *c);
int db_rollback(db_conn *c);

/* The schema version (SQLite: PRAGMA user_version; PostgreSQL: the table
 * schema_version), read and written inside the migration's transaction.
 * db_migration_begin opens that transaction and, on PostgreSQL, takes an
 * advisory lock so that two servers starting at once migrate one after the
 * other. -1 on failure. */
int db_migration_begin(db_conn *c);
int db_schema_version(db_conn *c);
int db_set_schema_version(db_conn *c, int v);
/* 1 when table has that column (old databases' upgrades). */
int db_has_column(db_conn *c, const char *table, const char *column);

/* The start's check of the database: SQLite reads every page (PRAGMA
 * quick_check), each problem printed on standard error; PostgreSQL checks
 * its own pages. The count of problems. */
int db_check(db_conn *c);
/* 0 when the database can be written, else -1 with the reason. */
int db_writable(db_conn *c, char *why, size_t n);

#endif
