/* backup.c: `chartered backup` and `chartered restore` (issue 35, item 5):
 * a copy of a server's SQLite database taken while the server runs, with
 * SQLite's online backup API (store/db_sqlite.c: db_sqlite_copy, one
 * consistent moment of the database, the server's writes going on), and the
 * way back. PostgreSQL has its own tools: docs/deploy.md "Backups" gives the
 * pg_dump and pg_restore steps, and the commands say so.
 *
 * A backup holds every account's password hash and every session's token
 * hash: it is written with mode 0600. Where it goes follows the program's
 * other outputs: a new or regular file is replaced at once (a temporary
 * file in its folder, renamed), a symbolic link is followed to its target,
 * a device or a FIFO (or "-", standard output) is written in place. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "serve.h"

static void backup_usage(FILE *f)
{
    fprintf(f, "usage: chartered backup --db FILE OUT\n"
               "       chartered restore BACKUP --db FILE [--replace]\n"
               "\n"
               "backup:  a copy of the server's SQLite database FILE, taken while the server\n"
               "         runs (SQLite's online backup: one consistent moment), checked, and\n"
               "         written to OUT with mode 0600 (a file, a link to one, a device, a\n"
               "         FIFO, or - for standard output)\n"
               "restore: BACKUP checked and copied to FILE, which must not exist, or with\n"
               "         --replace must not be open by a server (stop it first)\n"
               "PostgreSQL: pg_dump and pg_restore (docs/deploy.md, \"Backups\").\n");
}

/* Stream the file at from into fd (in place: a device, a FIFO, stdout). */
static int stream(const char *from, int fd, const char *shown)
{
    int in = open(from, O_RDONLY);
    if (in < 0) {
        fprintf(stderr, "error: backup: %s: %s\n", from, strerror(errno));
        return -1;
    }
    char buf[1 << 16];
    ssize_t got;
    int rc = 0;
    while ((got = read(in, buf, sizeof buf)) > 0) {
        for (ssize_t off = 0; off < got;) {
            ssize_t w = write(fd, buf + off, (size_t)(got - off));
            if (w < 0) {
                if (errno == EINTR)
                    continue;
                fprintf(stderr, "error: backup: cannot write %s: %s\n", shown, strerror(errno));
                rc = -1;
                goto done;
            }
            off += w;
        }
    }
    if (got < 0) {
        fprintf(stderr, "error: backup: %s: %s\n", from, strerror(errno));
        rc = -1;
    }
done:
    close(in);
    return rc;
}

/* A new temporary file of mode 0600 in dir, its path in out. */
static int temp_in(const char *dir, const char *base, char *out, size_t n)
{
    snprintf(out, n, "%s/.%s.XXXXXX", dir, base);
    int fd = mkstemp(out);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static void remove_temp(const char *path)
{
    char j[4200];
    unlink(path);
    snprintf(j, sizeof j, "%s-journal", path);
    unlink(j);
}

/* The copy of db (a checked chartered database) into a new 0600 file at
 * final's folder, renamed to final. */
static int copy_replacing(const char *db, const char *final, const char *shown)
{
    char *d = strdup(final), *b = strdup(final);
    if (!d || !b) {
        free(d);
        free(b);
        return -1;
    }
    char tmp[4096], why[400];
    int rc = -1;
    if (temp_in(dirname(d), basename(b), tmp, sizeof tmp) != 0) {
        fprintf(stderr, "error: backup: cannot write in the folder of %s: %s\n", shown,
                strerror(errno));
    } else if (db_sqlite_copy(db, tmp, why, sizeof why) != 0) {
        fprintf(stderr, "error: backup: %s\n", why);
        remove_temp(tmp);
    } else if (chmod(tmp, 0600) != 0 || rename(tmp, final) != 0) {
        fprintf(stderr, "error: backup: cannot write %s: %s\n", shown, strerror(errno));
        remove_temp(tmp);
    } else {
        rc = 0;
    }
    free(d);
    free(b);
    return rc;
}

/* The copy into a temporary file, then streamed into fd (in place). */
static int copy_streamed(const char *db, int fd, const char *shown)
{
    const char *t = getenv("TMPDIR");
    char tmp[4096], why[400];
    if (temp_in(t && *t ? t : "/tmp", "chartered-backup", tmp, sizeof tmp) != 0) {
        fprintf(stderr, "error: backup: cannot make a temporary file: %s\n", strerror(errno));
        return -1;
    }
    int rc = db_sqlite_copy(db, tmp, why, sizeof why);
    if (rc != 0)
        fprintf(stderr, "error: backup: %s\n", why);
    else
        rc = stream(tmp, fd, shown);
    remove_temp(tmp);
    return rc;
}

static int backup_to(const char *db, const char *out)
{
    if (!strcmp(out, "-"))
        return copy_streamed(db, STDOUT_FILENO, "standard output");
    struct stat lsb, sb;
    if (lstat(out, &lsb) != 0) {
        if (errno == ENOENT)
            return copy_replacing(db, out, out);
        fprintf(stderr, "error: backup: cannot write %s: %s\n", out, strerror(errno));
        return -1;
    }
    if (S_ISREG(lsb.st_mode))
        return copy_replacing(db, out, out);
    if (S_ISDIR(lsb.st_mode)) {
        fprintf(stderr, "error: backup: %s is a folder: name the backup's file\n", out);
        return -1;
    }
    if (S_ISLNK(lsb.st_mode)) {
        /* followed to the end of its chain; a dangling link is refused
           (a link planted in a shared folder must not steer the write) */
        char *real = realpath(out, NULL);
        if (!real || stat(real, &sb) != 0) {
            fprintf(stderr, "error: backup: %s is a symbolic link to nothing (%s): nothing was "
                    "written\n", out, strerror(errno));
            free(real);
            return -1;
        }
        int rc;
        if (S_ISREG(sb.st_mode)) {
            rc = copy_replacing(db, real, out);
        } else if (S_ISDIR(sb.st_mode)) {
            fprintf(stderr, "error: backup: %s leads to the folder %s\n", out, real);
            rc = -1;
        } else {
            int fd = open(real, O_WRONLY | O_TRUNC);
            rc = fd < 0 ? -1 : copy_streamed(db, fd, out);
            if (fd < 0)
                fprintf(stderr, "error: backup: cannot write %s: %s\n", out, strerror(errno));
            else if (close(fd) != 0)
                rc = -1;
        }
        free(real);
        return rc;
    }
    /* a device or a FIFO: written in place */
    int fd = open(out, O_WRONLY | O_TRUNC);
    if (fd < 0) {
        fprintf(stderr, "error: backup: cannot write %s: %s\n", out, strerror(errno));
        return -1;
    }
    int rc = copy_streamed(db, fd, out);
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

/* 1 when a process holds SQLite's lock on path's WAL index: a server (or
 * any connection) has the database open. SQLite's unix VFS keeps a shared
 * lock on the "dead man switch" byte of the -shm file (offset 128) while a
 * connection uses the WAL index. */
static int in_use(const char *path)
{
    char shm[4200];
    snprintf(shm, sizeof shm, "%s-shm", path);
    int fd = open(shm, O_RDWR);
    if (fd < 0)
        return 0;
    struct flock fl = {0};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = 128;
    fl.l_len = 1;
    int busy = fcntl(fd, F_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
    close(fd);
    return busy;
}

int cmd_backup(int argc, char **argv)
{
    const char *db = NULL, *out = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            backup_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--db") && i + 1 < argc) {
            db = argv[++i];
        } else if (!strncmp(argv[i], "--db=", 5)) {
            db = argv[i] + 5;
        } else if (!out && (argv[i][0] != '-' || !strcmp(argv[i], "-"))) {
            out = argv[i];
        } else {
            fprintf(stderr, "error: backup: unexpected '%s'\n", argv[i]);
            backup_usage(stderr);
            return 2;
        }
    }
    if (!db || !out) {
        backup_usage(stderr);
        return 2;
    }
    if (db_is_pg_target(db)) {
        fprintf(stderr, "error: backup: a PostgreSQL database is backed up with pg_dump: "
                "pg_dump -Fc -f OUT 'URL' (docs/deploy.md, \"Backups\")\n");
        return 2;
    }
    if (backup_to(db, out) != 0)
        return 1;
    if (strcmp(out, "-"))
        fprintf(stderr, "chartered: backup of %s written to %s\n", db, out);
    return 0;
}

int cmd_restore(int argc, char **argv)
{
    const char *db = NULL, *from = NULL;
    int replace = 0;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            backup_usage(stdout);
            return 0;
        } else if (!strcmp(argv[i], "--db") && i + 1 < argc) {
            db = argv[++i];
        } else if (!strncmp(argv[i], "--db=", 5)) {
            db = argv[i] + 5;
        } else if (!strcmp(argv[i], "--replace")) {
            replace = 1;
        } else if (!from && argv[i][0] != '-') {
            from = argv[i];
        } else {
            fprintf(stderr, "error: restore: unexpected '%s'\n", argv[i]);
            backup_usage(stderr);
            return 2;
        }
    }
    if (!db || !from) {
        backup_usage(stderr);
        return 2;
    }
    if (db_is_pg_target(db)) {
        fprintf(stderr, "error: restore: a PostgreSQL database is restored with pg_restore: "
                "pg_restore --clean --if-exists -d 'URL' BACKUP (docs/deploy.md, \"Backups\")\n");
        return 2;
    }
    struct stat sb;
    if (lstat(db, &sb) == 0) {
        if (!replace) {
            fprintf(stderr, "error: restore: %s exists: stop its server, then restore with "
                    "--replace (nothing was changed)\n", db);
            return 1;
        }
        if (!S_ISREG(sb.st_mode)) {
            fprintf(stderr, "error: restore: %s is not a regular file (nothing was changed)\n",
                    db);
            return 1;
        }
        if (in_use(db)) {
            fprintf(stderr, "error: restore: %s is open (a server runs on it): stop it first "
                    "(nothing was changed)\n", db);
            return 1;
        }
    }
    /* the copy beside the database, checked, then renamed over it: the old
       database stays whole until the new one is complete */
    if (copy_replacing(from, db, db) != 0)
        return 1;
    char side[4200];
    snprintf(side, sizeof side, "%s-wal", db);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", db);
    unlink(side);
    fprintf(stderr, "chartered: %s restored from %s\n", db, from);
    return 0;
}
