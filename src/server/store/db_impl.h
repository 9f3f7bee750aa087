/* db_impl.h: what the two back ends of db.h (db_sqlite.c, db_pg.c) share
 * with db.c, which dispatches every call through a connection's table of
 * operations. Nothing outside these three files includes it. */
#ifndef CHARTERED_DB_IMPL_H
#define CHARTERED_DB_IMPL_H

#include "db.h"

typedef struct db_ops {
    void (*close)(db_conn *c);
    int (*exec)(db_conn *c, const char *sql, int n, const db_val *p);
    int64_t (*changes)(db_conn *c);
    int (*script)(db_conn *c, const char *sql);
    db_rows *(*query)(db_conn *c, const char *sql, int n, const db_val *p);
    int (*next)(db_rows *r);
    int (*end)(db_rows *r);
    const char *(*text)(db_rows *r, int col);
    int (*null)(db_rows *r, int col);
    int64_t (*int_)(db_rows *r, int col);
    double (*real)(db_rows *r, int col);
    int (*begin)(db_conn *c);
    int (*commit)(db_conn *c);
    int (*rollback)(db_conn *c);
    int (*migration_begin)(db_conn *c);
    int (*schema_version)(db_conn *c);
    int (*set_schema_version)(db_conn *c, int v);
    int (*has_column)(db_conn *c, const char *table, const char *column);
    int (*check)(db_conn *c);
    int (*writable)(db_conn *c, char *why, size_t n);
} db_ops;

/* The head of every back end's connection and query. */
struct db_conn {
    const db_ops *ops;
    int kind;                   /* DB_SQLITE, DB_PG */
    int errclass;
    char err[300];
};
struct db_rows {
    db_conn *c;
};

/* Each back end's open (NULL with why). */
db_conn *db_sqlite_open(const char *path, int sync_full, char *why, size_t n);
db_conn *db_pg_open(const char *conninfo, char *why, size_t n);

#endif
