/* db_sqlite.c: the SQLite back end of db.h (the default: a file, nothing to
 * set up). WAL mode; synchronous FULL or NORMAL (--sync); a write waits
 * SRV_DB_BUSY_MS for another process's lock. Statements are prepared once
 * and kept (a small cache keyed by their text), so the commit's insert of
 * each move costs a bind and a step, as before the interface existed; so
 * do BEGIN and COMMIT (sq_begin, sq_commit).
 * Parameters written $1, $2 (the PostgreSQL form both back ends share) are
 * turned into SQLite's ?1, ?2 when a statement is prepared. */
#define _GNU_SOURCE /* pthread_setname_np */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db_impl.h"
#include "net/log.h"
#include "net/metrics.h" /* database errors, reconnects */

/* How long a write waits for another process's lock on the database
 * (sqlite3_busy_timeout) before it fails with SQLITE_BUSY. Commits run on
 * the writer thread, but a game's creation and the loop's reads wait this
 * long on the event loop, and every connection with them: the only
 * writer is this server, a lock held by another process (an administrator's
 * sqlite3 shell, a backup) is the exception, and then the moves of that loop
 * turn are refused with a "storage" error rather than stall everyone. */
#define SRV_DB_BUSY_MS 250
#define CACHE_MAX 96

typedef struct cached {
    const char *key;            /* the caller's text: a hint checked first, then the text */
    char *sql;                  /* its copy */
    sqlite3_stmt *st;
    int busy;                   /* in use by a query not yet ended */
} cached;

/* The WAL checkpoint beside a connection's commits (db_checkpoint_aside):
 * SQLite's own checkpoint runs inside the commit that crosses 1,000 pages
 * of WAL, copying the pages back into the database file and syncing it,
 * and every commit queued behind it waits (measured at 8,000 connections,
 * 5,000 moves/s: the writer's own time p99 10.6 ms with it, 1.7 ms
 * without; docs/performance.md). Here the commit only says the WAL is
 * long (a WAL hook) and this thread, on a connection of its own, runs a
 * PASSIVE checkpoint, which never blocks the writer: WAL mode lets a
 * checkpoint and a write go on at once, and the writer starts the WAL
 * from its beginning again once a checkpoint has copied all of it. */
#define CKPT_PAGES 1000
typedef struct sq_ckpt {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int due, stop;
    int pages; /* the WAL's length that asks for a checkpoint (ckpt_pages) */
    sqlite3 *db;
} sq_ckpt;

typedef struct sq_conn {
    db_conn h;
    sqlite3 *db;
    cached cache[CACHE_MAX];
    int ncache;
    sq_ckpt *ck;                /* checkpoints on a thread of their own, or NULL */
} sq_conn;

typedef struct sq_rows {
    db_rows h;
    sqlite3_stmt *st;
    cached *ce;                 /* NULL: a statement of its own, finalized at the end */
    int rc;
} sq_rows;

static sq_conn *SQ(db_conn *c)
{
    return (sq_conn *)c;
}

/* Keep the reason of a failure: SQLite's message and, for an I/O error, the
 * system's (EFBIG, EROFS, ENOSPC); and its class. */
static int note_err(sq_conn *s, int rc)
{
    int sys = sqlite3_system_errno(s->db);
    if (sys)
        snprintf(s->h.err, sizeof s->h.err, "%s: %s", sqlite3_errmsg(s->db), strerror(sys));
    else
        snprintf(s->h.err, sizeof s->h.err, "%s", sqlite3_errmsg(s->db));
    int ext = sqlite3_extended_errcode(s->db);
    s->h.errclass = (rc & 0xff) == SQLITE_CONSTRAINT &&
                    (ext == SQLITE_CONSTRAINT_PRIMARYKEY || ext == SQLITE_CONSTRAINT_UNIQUE)
                    ? DB_CONFLICT : DB_ERR;
    srv_metrics_inc(s->h.errclass == DB_CONFLICT ? SRV_M_DB_ERRORS_CONFLICT
                    : SRV_M_DB_ERRORS_ERROR, 1);
    return s->h.errclass;
}

/* $N -> ?N outside quoted text. */
static char *translate(const char *sql)
{
    char *out = strdup(sql);
    if (!out)
        return NULL;
    int quote = 0;
    for (char *p = out; *p; p++) {
        if (*p == '\'')
            quote = !quote;
        else if (!quote && *p == '$' && p[1] >= '0' && p[1] <= '9')
            *p = '?';
    }
    return out;
}

static sqlite3_stmt *prepare(sq_conn *s, const char *sql)
{
    char *t = translate(sql);
    sqlite3_stmt *st = NULL;
    if (!t) {
        snprintf(s->h.err, sizeof s->h.err, "out of memory");
        s->h.errclass = DB_ERR;
        return NULL;
    }
    int rc = sqlite3_prepare_v2(s->db, t, -1, &st, NULL);
    free(t);
    if (rc != SQLITE_OK) {
        note_err(s, rc);
        return NULL;
    }
    return st;
}

/* A prepared statement for sql, from the cache when free there; *ce is its
 * entry (NULL: the caller finalizes it). */
static sqlite3_stmt *get(sq_conn *s, const char *sql, cached **ce)
{
    *ce = NULL;
    for (int i = 0; i < s->ncache; i++) {
        cached *e = &s->cache[i];
        /* the address is a hint, never the proof: a caller may write
           another text into the same buffer (test_db) */
        if ((e->key == sql || e->sql[0] == sql[0]) && strcmp(e->sql, sql) == 0) {
            if (e->busy)
                break; /* nested use of the same text: a statement of its own */
            e->busy = 1;
            *ce = e;
            return e->st;
        }
    }
    sqlite3_stmt *st = prepare(s, sql);
    if (st && s->ncache < CACHE_MAX) {
        int known = 0;
        for (int i = 0; i < s->ncache; i++)
            if (strcmp(s->cache[i].sql, sql) == 0)
                known = 1;
        char *copy = known ? NULL : strdup(sql);
        if (copy) {
            cached *e = &s->cache[s->ncache++];
            e->key = sql;
            e->sql = copy;
            e->st = st;
            e->busy = 1;
            *ce = e;
        }
    }
    return st;
}

static void release(sqlite3_stmt *st, cached *ce)
{
    if (ce) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        ce->busy = 0;
    } else {
        sqlite3_finalize(st);
    }
}

static void bind(sqlite3_stmt *st, int n, const db_val *p)
{
    for (int i = 0; i < n; i++) {
        switch (p[i].type) {
        case 'i':
            sqlite3_bind_int64(st, i + 1, p[i].i);
            break;
        case 'd':
            sqlite3_bind_double(st, i + 1, p[i].d);
            break;
        case 't': /* a NULL text is SQL NULL */
            if (p[i].s)
                sqlite3_bind_text(st, i + 1, p[i].s, -1, SQLITE_TRANSIENT);
            else
                sqlite3_bind_null(st, i + 1);
            break;
        default:
            sqlite3_bind_null(st, i + 1);
        }
    }
}

static int sq_exec(db_conn *c, const char *sql, int n, const db_val *p)
{
    sq_conn *s = SQ(c);
    cached *ce;
    sqlite3_stmt *st = get(s, sql, &ce);
    if (!st)
        return c->errclass;
    bind(st, n, p);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        ;
    int out = rc == SQLITE_DONE ? DB_OK : note_err(s, rc);
    /* reset at once: a statement left unreset after an error (SQLITE_BUSY
       while another process holds the lock) counts as still running, and
       then every later COMMIT of this connection fails with "SQL
       statements in progress", long after the lock is gone */
    release(st, ce);
    return out;
}

static int64_t sq_changes(db_conn *c)
{
    return sqlite3_changes(SQ(c)->db);
}

static int sq_script(db_conn *c, const char *sql)
{
    int rc = sqlite3_exec(SQ(c)->db, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? DB_OK : note_err(SQ(c), rc);
}

static db_rows *sq_query(db_conn *c, const char *sql, int n, const db_val *p)
{
    sq_conn *s = SQ(c);
    sq_rows *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(c->err, sizeof c->err, "out of memory");
        c->errclass = DB_ERR;
        return NULL;
    }
    r->st = get(s, sql, &r->ce);
    if (!r->st) {
        free(r);
        return NULL;
    }
    bind(r->st, n, p);
    r->h.c = c;
    r->rc = SQLITE_ROW;
    return &r->h;
}

static int sq_next(db_rows *h)
{
    sq_rows *r = (sq_rows *)h;
    if (r->rc != SQLITE_ROW)
        return r->rc == SQLITE_DONE ? 0 : h->c->errclass;
    r->rc = sqlite3_step(r->st);
    if (r->rc == SQLITE_ROW)
        return 1;
    if (r->rc == SQLITE_DONE)
        return 0;
    return note_err(SQ(h->c), r->rc);
}

static int sq_end(db_rows *h)
{
    sq_rows *r = (sq_rows *)h;
    int out = r->rc == SQLITE_ROW || r->rc == SQLITE_DONE ? DB_OK : h->c->errclass;
    release(r->st, r->ce);
    free(r);
    return out;
}

static const char *sq_text(db_rows *h, int col)
{
    return (const char *)sqlite3_column_text(((sq_rows *)h)->st, col);
}

static int sq_null(db_rows *h, int col)
{
    return sqlite3_column_type(((sq_rows *)h)->st, col) == SQLITE_NULL;
}

static int64_t sq_int(db_rows *h, int col)
{
    return sqlite3_column_int64(((sq_rows *)h)->st, col);
}

static double sq_real(db_rows *h, int col)
{
    return sqlite3_column_double(((sq_rows *)h)->st, col);
}

/* BEGIN and COMMIT as kept statements (sq_exec), like every other: the
 * writer thread runs them at every transaction (some 600 a second at 5,000
 * moves/s), and sqlite3_exec parsed and prepared each anew (a third of the
 * writer's instructions outside the B-tree; docs/performance.md). */
static int sq_begin(db_conn *c)
{
    return sq_exec(c, "BEGIN IMMEDIATE", 0, NULL);
}

static int sq_commit(db_conn *c)
{
    return sq_exec(c, "COMMIT", 0, NULL);
}

static int sq_rollback(db_conn *c)
{
    /* keeps the first failure's reason: that is the one to report */
    return sqlite3_exec(SQ(c)->db, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK ? DB_OK : DB_ERR;
}

static int sq_schema_version(db_conn *c)
{
    int rc;
    int64_t v = db_one_int(c, "PRAGMA user_version", 0, NULL, -1, &rc);
    return rc == DB_OK ? (int)v : -1;
}

static int sq_set_schema_version(db_conn *c, int v)
{
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", v);
    return sq_script(c, sql);
}

static int sq_has_column(db_conn *c, const char *table, const char *column)
{
    int rc;
    return db_one_int(c, "SELECT count(*) FROM pragma_table_info($1) WHERE name = $2",
                      DB_P(DB_T(table), DB_T(column)), 0, &rc) > 0;
}

/* PRAGMA quick_check: every page, every index, no row lost. */
static int sq_check(db_conn *c)
{
    sq_conn *s = SQ(c);
    sqlite3_stmt *st;
    int problems = 0;
    if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check(20)", -1, &st, NULL) != SQLITE_OK) {
        srv_logf(SRV_LOG_ERROR, "db.check", "db=sqlite the database check cannot run: %s",
                sqlite3_errmsg(s->db));
        return 1;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const char *line = (const char *)sqlite3_column_text(st, 0);
        if (line && strcmp(line, "ok") != 0) {
            srv_logf(SRV_LOG_ERROR, "db.check", "db=sqlite database check: %s", line);
            problems++;
        }
    }
    if (rc != SQLITE_DONE) {
        srv_logf(SRV_LOG_ERROR, "db.check", "db=sqlite the database check stopped: %s",
                sqlite3_errmsg(s->db));
        problems++;
    }
    sqlite3_finalize(st);
    return problems;
}

static int sq_writable(db_conn *c, char *why, size_t n)
{
    sq_conn *s = SQ(c);
    /* a file the server may read but not write: SQLite opens it read-only
       without a word, and every creation and move would fail later */
    if (sqlite3_db_readonly(s->db, "main") == 1) {
        snprintf(why, n, "the database is read-only (its file or folder cannot be written)");
        return -1;
    }
    int rc = sqlite3_exec(s->db, "BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS write_probe(x); "
                          "DROP TABLE write_probe; ROLLBACK", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        note_err(s, rc);
        sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
        snprintf(why, n, "the database cannot be written: %s", c->err);
        return -1;
    }
    return 0;
}

static void ckpt_stop(sq_ckpt *k)
{
    pthread_mutex_lock(&k->mu);
    k->stop = 1;
    pthread_cond_signal(&k->cv);
    pthread_mutex_unlock(&k->mu);
    pthread_join(k->th, NULL);
    sqlite3_close(k->db);
    pthread_mutex_destroy(&k->mu);
    pthread_cond_destroy(&k->cv);
    free(k);
}

static void sq_close(db_conn *c)
{
    sq_conn *s = SQ(c);
    if (s->ck) { /* first: its connection goes before the last one closes */
        sqlite3_wal_hook(s->db, NULL, NULL);
        ckpt_stop(s->ck);
        s->ck = NULL;
    }
    for (int i = 0; i < s->ncache; i++) {
        sqlite3_finalize(s->cache[i].st);
        free(s->cache[i].sql);
    }
    sqlite3_close(s->db);
    free(s);
}

static const db_ops sq_ops = {
    sq_close, sq_exec, sq_changes, sq_script, sq_query, sq_next, sq_end, sq_text, sq_null,
    sq_int, sq_real, sq_begin, sq_commit, sq_rollback, sq_begin, sq_schema_version,
    sq_set_schema_version, sq_has_column, sq_check, sq_writable,
};

static void *ckpt_thread(void *arg)
{
    sq_ckpt *k = arg;
    pthread_mutex_lock(&k->mu);
    for (;;) {
        while (!k->due && !k->stop)
            pthread_cond_wait(&k->cv, &k->mu);
        if (k->stop)
            break;
        k->due = 0;
        pthread_mutex_unlock(&k->mu);
        /* a failure (SQLITE_BUSY: another checkpoint) leaves it for the
           next time the WAL is long */
        sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&k->mu);
    }
    pthread_mutex_unlock(&k->mu);
    return NULL;
}

/* After each commit of the connection (its thread): the WAL holds pages. */
static int ckpt_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
    (void)db;
    (void)name;
    sq_ckpt *k = arg;
    if (pages >= k->pages) {
        pthread_mutex_lock(&k->mu);
        k->due = 1;
        pthread_cond_signal(&k->cv);
        pthread_mutex_unlock(&k->mu);
    }
    return SQLITE_OK;
}

/* The WAL's length in pages that asks for a checkpoint: CKPT_PAGES (SQLite's
 * own default), or CHARTERED_WAL_PAGES (1 to 1,000,000; tests/server_loadgen.py
 * sets a short one so that a checkpoint is due after a few dozen moves however
 * slow the machine is). A value that is not such a number is said on stderr
 * and the default used. */
static int ckpt_pages(void)
{
    const char *e = getenv("CHARTERED_WAL_PAGES");
    if (!e || !*e)
        return CKPT_PAGES;
    char *end = NULL;
    errno = 0;
    long v = strtol(e, &end, 10);
    if (errno || *end || v < 1 || v > 1000000) {
        srv_logf(SRV_LOG_WARN, "config.ignored", "variable=CHARTERED_WAL_PAGES value=%s not a "
                "whole number of pages from 1 to 1000000; checkpoints at %d pages", e,
                CKPT_PAGES);
        return CKPT_PAGES;
    }
    return (int)v;
}

static int sq_checkpoint_aside(sq_conn *s)
{
    const char *path = sqlite3_db_filename(s->db, "main");
    if (s->ck || !path || !*path)
        return -1; /* already, or an in-memory database */
    sq_ckpt *k = calloc(1, sizeof *k);
    if (!k)
        return -1;
    k->pages = ckpt_pages();
    /* the checkpoint syncs the database file as the writer's commits sync
       the WAL (--sync) */
    int sync = 2; /* FULL */
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, "PRAGMA synchronous", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        sync = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA synchronous=%d", sync);
    if (sqlite3_open_v2(path, &k->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_exec(k->db, sql, NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(k->db);
        free(k);
        return -1;
    }
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    if (pthread_create(&k->th, NULL, ckpt_thread, k) != 0) {
        sqlite3_close(k->db);
        pthread_mutex_destroy(&k->mu);
        pthread_cond_destroy(&k->cv);
        free(k);
        return -1;
    }
    pthread_setname_np(k->th, "chartered-ckpt"); /* seen in ps, tests/server_loadgen.py */
    s->ck = k;
    sqlite3_wal_hook(s->db, ckpt_hook, k); /* replaces the automatic checkpoint */
    return 0;
}

int db_checkpoint_aside(db_conn *c)
{
    if (!c || db_kind(c) != DB_SQLITE)
        return 0;
    return sq_checkpoint_aside(SQ(c));
}

db_conn *db_sqlite_open(const char *path, int sync_full, char *why, size_t n)
{
    sq_conn *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(why, n, "out of memory");
        return NULL;
    }
    s->h.ops = &sq_ops;
    s->h.kind = DB_SQLITE;
    if (sqlite3_open(path, &s->db) != SQLITE_OK) {
        snprintf(why, n, "cannot open database %s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sq_close(&s->h);
        return NULL;
    }
    char sql[128];
    snprintf(sql, sizeof sql, "PRAGMA journal_mode=WAL; PRAGMA synchronous=%s;",
             sync_full ? "FULL" : "NORMAL");
    char *err = NULL;
    if (sqlite3_exec(s->db, sql, NULL, NULL, &err) != SQLITE_OK) {
        snprintf(why, n, "database %s: %s", path, err ? err : "error");
        sqlite3_free(err);
        sq_close(&s->h);
        return NULL;
    }
    sqlite3_busy_timeout(s->db, SRV_DB_BUSY_MS);
    return &s->h;
}

/* ---- online backup (chartered backup / restore, src/server/backup.c) ------ */

/* 0 when db is a chartered database (its schema version, PRAGMA
 * user_version, set, and the games and moves tables there), else -1. */
static int sq_is_chartered(sqlite3 *db, const char *path, char *why, size_t n)
{
    sqlite3_stmt *st = NULL;
    int found = 0;
    if (sqlite3_prepare_v2(db, "SELECT (SELECT count(*) FROM sqlite_master WHERE type = "
                           "'table' AND name IN ('games', 'moves')) + (SELECT user_version > 0 "
                           "FROM pragma_user_version)", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        found = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (found != 3) {
        snprintf(why, n, "%s is not a chartered database (no schema version, games and moves)",
                 path);
        return -1;
    }
    return 0;
}

int db_sqlite_copy(const char *from, const char *to, char *why, size_t n)
{
    sqlite3 *src = NULL, *dst = NULL;
    int rc = -1;
    /* read-write without create: a missing source is an error, and a WAL
       database's reader may need to write its -shm */
    if (sqlite3_open_v2(from, &src, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        snprintf(why, n, "cannot open %s: %s", from, src ? sqlite3_errmsg(src) : "out of memory");
        goto out;
    }
    sqlite3_busy_timeout(src, 5000);
    if (sq_is_chartered(src, from, why, n) != 0)
        goto out;
    if (sqlite3_open_v2(to, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        snprintf(why, n, "cannot open %s: %s", to, dst ? sqlite3_errmsg(dst) : "out of memory");
        goto out;
    }
    /* every page in one step: one read transaction on the source, so the
       copy is one consistent moment of it; in WAL mode the server's writer
       goes on meanwhile (a step in pieces would start again at each of its
       commits) */
    sqlite3_backup *b = sqlite3_backup_init(dst, "main", src, "main");
    if (!b) {
        snprintf(why, n, "cannot copy %s: %s", from, sqlite3_errmsg(dst));
        goto out;
    }
    int st;
    int tries = 0;
    while ((st = sqlite3_backup_step(b, -1)) == SQLITE_BUSY || st == SQLITE_LOCKED) {
        if (++tries > 500)
            break;
        sqlite3_sleep(10);
    }
    sqlite3_backup_finish(b);
    if (st != SQLITE_DONE) {
        snprintf(why, n, "copying %s failed: %s", from, sqlite3_errstr(st));
        goto out;
    }
    /* the copy keeps the source's WAL mode in its header; a single file is
       what a backup should be */
    char *err = NULL;
    if (sqlite3_exec(dst, "PRAGMA journal_mode=DELETE", NULL, NULL, &err) != SQLITE_OK) {
        snprintf(why, n, "%s: %s", to, err ? err : "error");
        sqlite3_free(err);
        goto out;
    }
    sqlite3_stmt *q = NULL;
    const char *ok = NULL;
    if (sqlite3_prepare_v2(dst, "PRAGMA quick_check", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        ok = (const char *)sqlite3_column_text(q, 0);
    if (!ok || strcmp(ok, "ok")) {
        snprintf(why, n, "the copy %s fails its check: %s", to, ok ? ok : sqlite3_errmsg(dst));
        sqlite3_finalize(q);
        goto out;
    }
    sqlite3_finalize(q);
    rc = 0;
out:
    sqlite3_close(src);
    if (dst && sqlite3_close(dst) != SQLITE_OK && rc == 0) {
        snprintf(why, n, "%s: cannot close it", to);
        rc = -1;
    }
    return rc;
}
