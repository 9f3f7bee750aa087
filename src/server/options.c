/* options.c: the one list of `chartered serve`'s options (issue 35, items
 * 4 and 7). Each option is a key of the configuration file (`--config
 * FILE`, ini.c's syntax), the flag --KEY of the command line, and, for the
 * settings modules read from the environment, its CHARTERED_* variable.
 * From this list come `serve --help`, `chartered config check` (file:line:
 * reason for every bad line, unknown keys refused), `config list` and
 * `config show`; tests/cli_config.sh checks chartered(1),
 * docs/configuration.md and packaging/chartered.conf against `config list`.
 *
 * Precedence, per option: the command line, then the files (--config, in
 * order: a later one wins), then the environment variable, then the
 * default. A value from a file or the command line that a module reads
 * from the environment is handed to it through that variable (setenv
 * before any thread starts), so the modules below keep one reader each.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ini.h"
#include "serve.h"

enum {
    O_CONFIG, O_PORT, O_HOST, O_DB, O_DB_PASSWORD, O_WEB, O_I18N, O_BOT_THREADS,
    O_VIEW_THREADS, O_SYNC, O_LOOP, O_SEND_THREAD, O_SKIP_DAMAGED, O_TRUST_PROXY, O_QUIET, O_LOG_FORMAT, O_ACCESS_LOG,
    O_NODE, O_CLUSTER, O_LEASE_SECONDS, O_SMTP, O_MAIL_FROM, O_PUBLIC_URL,
    O_METRICS_LISTEN, O_METRICS_TOKEN_FILE,
    O_ENV_FIRST /* from here on: read by a module from its environment variable */
};

typedef enum { K_BOOL, K_INT, K_SECONDS, K_TEXT, K_CHOICE, K_NODE, K_AUTH } kind;

typedef struct opt_def {
    const char *key;     /* the file's key; --key on the command line */
    const char *arg;     /* the value's name in --help (NULL: yes|no) */
    kind k;
    long long lo, hi;    /* K_INT, K_SECONDS */
    const char *choices; /* K_CHOICE: "a|b" */
    const char *env;     /* the CHARTERED_* variable a module reads, or NULL */
    const char *def;     /* the default, as --help and `config list` show it */
    const char *sample;  /* a valid value other than the default (tests) */
    const char *help;
} opt_def;

/* The defaults below are the modules' own (their constants: lobby.c
 * SRV_EVICT_DEFAULT_S, game_impl.h SRV_BOTGAMES_*, backoff.c, turnbased.c,
 * db_sqlite.c CKPT_PAGES, auth_api.c, limits.c, reads.c, sender.c); the
 * ranges are the ones their readers accept. */
static const opt_def opts[] = {
    [O_CONFIG] = {"config", "FILE", K_TEXT, 0, 0, NULL, NULL, "", NULL,
                  "read settings from this file (docs/configuration.md); may be given more "
                  "than once, a later file winning; command line only"},
    [O_PORT] = {"port", "N", K_INT, 0, 65535, NULL, NULL, "8080", "18080",
                "port to listen on (0 picks a free one)"},
    [O_HOST] = {"host", "ADDR", K_TEXT, 0, 0, NULL, NULL, "", "127.0.0.1",
                "listen on exactly this address: an IPv4 or IPv6 literal, a name (its first "
                "address) or an interface (its address); empty: every interface"},
    [O_DB] = {"db", "FILE|URL", K_TEXT, 0, 0, NULL, NULL, "chartered.db", "games.db",
              "SQLite database file, or PostgreSQL: a postgresql://... URL or a libpq "
              "connection string such as \"host=/run/postgresql dbname=chartered\" "
              "(docs/storage.md)"},
    [O_DB_PASSWORD] = {"db-password", "TEXT", K_TEXT, 0, 0, NULL, NULL, "", "s3cret",
                       "the PostgreSQL password (handed to libpq as PGPASSWORD): keep it in "
                       "a file of mode 0600, not on the command line, which `ps` shows"},
    [O_WEB] = {"web", "DIR", K_TEXT, 0, 0, NULL, NULL, "beside the program", "/tmp/web",
               "the browser client"},
    [O_I18N] = {"i18n", "DIR", K_TEXT, 0, 0, NULL, NULL, "beside the program", "/tmp/i18n",
                "message catalogues LANG.json"},
    [O_BOT_THREADS] = {"bot-threads", "N", K_INT, 1, 16, NULL, NULL, "2", "3",
                       "worker threads for bots"},
    [O_VIEW_THREADS] = {"view-threads", "N", K_INT, 0, 16, NULL, NULL,
                        "1 (0 on one core)", "2",
                        "worker threads building the players' views (0: on the event loop)"},
    [O_SYNC] = {"sync", "full|normal", K_CHOICE, 0, 0, "full|normal", NULL, "full", "normal",
                "SQLite synchronous mode: full, a move is on disk before it is acknowledged; "
                "normal survives a crash of the server but not of the machine"},
    [O_LOOP] = {"loop", "libev|poll", K_CHOICE, 0, 0, "libev|poll", NULL, "libev", "poll",
                "the event loop: libev (epoll), or libwebsockets' own poll loop (slow with "
                "thousands of connections)"},
    [O_SEND_THREAD] = {"send-thread", "on|off", K_CHOICE, 0, 0, "on|off", NULL, "off", "on",
                       "WebSocket frames sent by a thread of their own (net/sender.c)"},
    [O_SKIP_DAMAGED] = {"skip-damaged", NULL, K_BOOL, 0, 0, NULL, NULL, "no", "yes",
                        "start even if the database is damaged, serving the games that load "
                        "(each one that does not is listed)"},
    [O_TRUST_PROXY] = {"trust-proxy", NULL, K_BOOL, 0, 0, NULL, NULL, "no", "yes",
                       "a reverse proxy is in front: take the client's address from "
                       "X-Forwarded-For and mark cookies Secure when X-Forwarded-Proto says "
                       "https"},
    [O_QUIET] = {"quiet", NULL, K_BOOL, 0, 0, NULL, NULL, "no", "yes",
                 "log warnings and errors only (the start line is still printed)"},
    [O_LOG_FORMAT] = {"log-format", "text|logfmt|json", K_CHOICE, 0, 0, "text|logfmt|json",
                      NULL, "text", "json",
                      "the log's lines on standard error: text (time, level, event: message, "
                      "fields), logfmt, or json (one object a line); docs/deploy.md, \"Logs\""},
    [O_ACCESS_LOG] = {"access-log", NULL, K_BOOL, 0, 0, NULL, NULL, "no", "yes",
                      "log every HTTP request (method, path without its query, status, bytes, "
                      "time, client address), even with --quiet"},
    [O_NODE] = {"node", "NAME", K_NODE, 0, 0, NULL, NULL, "HOSTNAME-PID", "a",
                "this node's name in a cluster, health and logs (1 to 40 letters, digits, "
                "'.', '_', '-')"},
    [O_CLUSTER] = {"cluster", "on|off|CONN", K_TEXT, 0, 0, NULL, NULL, "off", "on",
                   "play as one node of several (leases, cross-node events): on keeps them in "
                   "the --db database (PostgreSQL), CONN in another PostgreSQL database; off: "
                   "a single node (docs/cluster.md)"},
    [O_LEASE_SECONDS] = {"lease-seconds", "N", K_INT, SRV_LEASE_MIN_S, SRV_LEASE_MAX_S, NULL,
                         NULL, "6", "9",
                         "a game's lease: when a node dies, another takes its games at most "
                         "this long after"},
    [O_SMTP] = {"smtp", "URL", K_TEXT, 0, 0, NULL, NULL, "", "smtp://127.0.0.1:25",
                "send e-mail (address confirmation, password reset, \"your turn\") through "
                "this relay: smtp://HOST:PORT (STARTTLS when offered) or "
                "smtps://USER:PASSWORD@HOST:PORT; empty: no e-mail (docs/protocol.md, "
                "\"E-mail\")"},
    [O_MAIL_FROM] = {"mail-from", "ADDR", K_TEXT, 0, 0, NULL, NULL, "chartered@localhost",
                     "games@example.org", "the sender of that mail"},
    [O_PUBLIC_URL] = {"public-url", "URL", K_TEXT, 0, 0, NULL, NULL, "http://localhost:PORT",
                      "https://chartered.example.org",
                      "the site's address as people reach it, for the links in e-mail"},
    [O_METRICS_LISTEN] = {"metrics-listen", "HOST:PORT", K_TEXT, 0, 0, NULL, NULL, "",
                          "127.0.0.1:9464",
                          "serve GET /metrics (Prometheus text) on this separate address, "
                          "from a thread of its own: HOST:PORT, [IPV6]:PORT or :PORT for "
                          "every interface; empty: not served there (docs/deploy.md, "
                          "\"Metrics\")"},
    [O_METRICS_TOKEN_FILE] = {"metrics-token-file", "FILE", K_TEXT, 0, 0, NULL, NULL, "",
                              "/etc/chartered/metrics.token",
                              "a file holding a bearer token (16 to 1000 visible characters, "
                              "one line; keep it mode 0600): GET /metrics is then served on "
                              "the main port too, and asks for \"Authorization: Bearer "
                              "TOKEN\" on both addresses; empty: /metrics is 404 on the main "
                              "port"},
    {"creates-per-minute", "N", K_INT, 1, 1000000, NULL, "CHARTERED_CREATES_PER_MINUTE", "20",
     "3", "games one address may create a minute"},
    {"waiting-per-address", "N", K_INT, 1, 1000000, NULL, "CHARTERED_WAITING_PER_ADDRESS", "50",
     "7", "waiting games (seats still open) one address may have"},
    {"waiting-games-max", "N", K_INT, 1, 10000000, NULL, "CHARTERED_WAITING_GAMES_MAX", "5000",
     "70", "waiting games on the server"},
    {"waiting-expire-seconds", "N", K_INT, 1, 100000000, NULL,
     "CHARTERED_WAITING_EXPIRE_SECONDS", "86400", "3600",
     "a waiting game nobody joins ends after this long"},
    {"connections-per-address", "N", K_INT, 1, 1000000, NULL,
     "CHARTERED_CONNECTIONS_PER_ADDRESS", "64", "16", "WebSocket connections of one address"},
    {"abandon-seconds", "N", K_INT, 1, 100000000, NULL, "CHARTERED_ABANDON_SECONDS", "86400",
     "7200", "a game in play with no person connected this long ends as abandoned"},
    {"limit-loopback", NULL, K_BOOL, 0, 0, NULL, "CHARTERED_LIMIT_LOOPBACK", "no", "yes",
     "count loopback clients (127.0.0.0/8, ::1) in the per-address limits too"},
    {"request-seconds", "N", K_INT, 1, 3600, NULL, "CHARTERED_REQUEST_SECONDS", "20", "5",
     "a request's headers and body must arrive within this long of its first byte"},
    {"botgames-max", "N", K_INT, 1, 100000, NULL, "CHARTERED_BOTGAMES_MAX", "32", "8",
     "games of bots only running at once on the server"},
    {"botgames-per-address", "N", K_INT, 1, 100000, NULL, "CHARTERED_BOTGAMES_PER_ADDRESS", "4",
     "2", "games of bots only one address may run at once"},
    {"analysis-cpu", "S", K_SECONDS, 1, 3600, NULL, "CHARTERED_ANALYSIS_CPU", "60", "30",
     "seconds of CPU one finished game's analysis may use, spread over its decisions (at most 0.2 s each; docs/analysis.md)"},
    {"analysis-iterations", "N", K_INT, 0, 10000000, NULL, "CHARTERED_ANALYSIS_ITERATIONS", "0", "200",
     "playouts per decision of an analysis instead of the CPU budget (0: the budget; tests)"},
    {"analyses-per-day", "N", K_INT, 1, 1000, NULL, "CHARTERED_ANALYSES_PER_DAY", "5", "3",
     "analyses of finished games one person may ask for a day"},
    {"hint-iterations", "N", K_INT, 10, 1000000, NULL, "CHARTERED_HINT_ITERATIONS", "1500", "500",
     "playouts of a hint in a practice game against bots"},
    {"auth-limits", "U,A,G[,N]", K_AUTH, 0, 0, NULL, "CHARTERED_AUTH_LIMITS", "10,200,200,50",
     "5,100,50,25", "login and sign-up attempts allowed per user name, per address, guest "
     "sessions per address, and attempts per name (0: no limit; docs/identity.md)"},
    {"evict-seconds", "S", K_SECONDS, 0, 10000000, NULL, "CHARTERED_EVICT_SECONDS", "600", "30",
     "a finished or idle turn-based game nobody watches leaves memory after this long"},
    {"day-seconds", "S", K_SECONDS, 0, 10000000, NULL, "CHARTERED_DAY_SECONDS", "86400", "60",
     "the length of a turn-based game's \"day\" (for tests and trials)"},
    {"storage-backoff-max-ms", "MS", K_INT, 100, 3600000, NULL,
     "CHARTERED_STORAGE_BACKOFF_MAX_MS", "30000", "5000",
     "while the database refuses writes, the longest pause between attempts"},
    {"send-direct-us", "US", K_INT, 0, 10000000, NULL, "CHARTERED_SEND_DIRECT_US", "500", "0",
     "with --send-thread on: the first microseconds of a flush written by the loop itself"},
    {"ws-sndbuf", "BYTES", K_INT, 0, 67108864, NULL, "CHARTERED_WS_SNDBUF", "0", "4096",
     "each WebSocket's kernel send buffer (0: the system's)"},
    {"replays-per-second", "N", K_INT, 1, 100000, NULL, "CHARTERED_REPLAYS_PER_SECOND", "20",
     "5", "replays and positions of stored games read from the database a second"},
    {"wal-pages", "N", K_INT, 1, 1000000, NULL, "CHARTERED_WAL_PAGES", "1000", "500",
     "SQLite: checkpoint the write-ahead log at this many pages"},
    {"turn-mail-delay-seconds", "S", K_SECONDS, 0, 10000000, NULL,
     "CHARTERED_TURN_MAIL_DELAY_SECONDS", "600", "60",
     "a \"your turn\" e-mail waits this long for the player to come by first"},
    {"mail-retry-seconds", "S", K_SECONDS, 0, 10000000, NULL, "CHARTERED_MAIL_RETRY_SECONDS",
     "30", "5", "a mail the relay refused is tried again after this long (at least 0.1)"},
    {"mail-scan-seconds", "S", K_SECONDS, 0, 10000000, NULL, "CHARTERED_MAIL_SCAN_SECONDS",
     "30", "5", "how often the mail queue is looked through (at least 0.1)"},
    {"rematch-seconds", "S", K_SECONDS, 1, 10000000, NULL, "CHARTERED_REMATCH_SECONDS", "600",
     "60", "a live game's rematch offer waits this long for every person's answer"},
    {"loop-stats", "FILE", K_TEXT, 0, 0, NULL, "CHARTERED_LOOP_STATS", "", "/tmp/loop.txt",
     "write an account of the event loop's time to FILE at the stop (docs/performance.md)"},
};
#define NOPTS ((int)(sizeof opts / sizeof opts[0]))

typedef enum { SRC_DEFAULT, SRC_ENV, SRC_FILE, SRC_ARG } source;
static const char *const src_name[] = {"default", "environment", "file", "command line"};

typedef struct opt_state {
    const char *val[sizeof opts / sizeof opts[0]];
    source src[sizeof opts / sizeof opts[0]];
    char *where[sizeof opts / sizeof opts[0]]; /* "FILE:LINE" of a file's value */
    ini_file files[8];
    int nfiles;
} opt_state;

static int find(const char *key)
{
    for (int i = 0; i < NOPTS; i++)
        if (!strcmp(opts[i].key, key))
            return i;
    return -1;
}

static int bool_value(const char *v)
{
    if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true") || !strcmp(v, "1"))
        return 1;
    if (!strcmp(v, "no") || !strcmp(v, "off") || !strcmp(v, "false") || !strcmp(v, "0"))
        return 0;
    return -1;
}

/* 0 when v is a valid value of option i, else -1 with why. */
static int check_value(int i, const char *v, char *why, size_t n)
{
    const opt_def *d = &opts[i];
    char *end;
    switch (d->k) {
    case K_BOOL:
        if (bool_value(v) < 0) {
            snprintf(why, n, "%s must be yes or no, not '%.40s'", d->key, v);
            return -1;
        }
        return 0;
    case K_INT: {
        long long x = strtoll(v, &end, 10);
        if (!*v || *end || x < d->lo || x > d->hi) {
            snprintf(why, n, "%s must be a whole number from %lld to %lld, not '%.40s'", d->key,
                     d->lo, d->hi, v);
            return -1;
        }
        return 0;
    }
    case K_SECONDS: {
        double x = strtod(v, &end);
        if (!*v || *end || !(x >= (double)d->lo && x <= (double)d->hi) ||
            (!strcmp(d->key, "day-seconds") && !(x > 0))) {
            snprintf(why, n, "%s must be seconds from %s%lld to %lld, not '%.40s'", d->key,
                     !strcmp(d->key, "day-seconds") ? "above " : "", d->lo, d->hi, v);
            return -1;
        }
        return 0;
    }
    case K_CHOICE: {
        size_t k = strlen(v);
        for (const char *c = d->choices; *c;) {
            const char *bar = strchr(c, '|');
            size_t l = bar ? (size_t)(bar - c) : strlen(c);
            if (l == k && !strncmp(c, v, k))
                return 0;
            c += l + (bar ? 1 : 0);
        }
        snprintf(why, n, "%s must be %s, not '%.40s'", d->key, d->choices, v);
        return -1;
    }
    case K_NODE:
        if (!srv_node_name_ok(v)) {
            snprintf(why, n, "node must be 1 to %d letters, digits, '.', '_' or '-', not '%.40s'",
                     SRV_NODE_MAX, v);
            return -1;
        }
        return 0;
    case K_AUTH: {
        int a[4], used = 0;
        int k = sscanf(v, "%d,%d,%d,%d%n", &a[0], &a[1], &a[2], &a[3], &used);
        if (k != 4) {
            used = 0;
            k = sscanf(v, "%d,%d,%d%n", &a[0], &a[1], &a[2], &used);
        }
        if ((k != 3 && k != 4) || v[used] || a[0] < 0 || a[1] < 0 || a[2] < 0 ||
            (k == 4 && a[3] < 0)) {
            snprintf(why, n, "auth-limits must be USER,ADDRESS,GUEST[,NAME] (whole numbers from "
                     "0), not '%.40s'", v);
            return -1;
        }
        return 0;
    }
    case K_TEXT:
        if (i == O_CLUSTER && !*v) {
            snprintf(why, n, "cluster must be on, off or a PostgreSQL connection string");
            return -1;
        }
        if (i == O_METRICS_LISTEN && *v && !srv_metrics_addr_ok(v)) {
            snprintf(why, n, "metrics-listen must be HOST:PORT, [IPV6]:PORT or :PORT, not "
                     "'%.40s'", v);
            return -1;
        }
        if ((i == O_DB || i == O_WEB || i == O_I18N || i == O_CONFIG) && !*v) {
            snprintf(why, n, "%s must not be empty", d->key);
            return -1;
        }
        return 0;
    }
    return 0;
}

static void say(FILE *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
}

/* A file's complaints, said in the order of their lines. */
typedef struct said {
    int line, order;
    char text[300];
} said;
typedef struct said_list {
    said s[INI_MAX_ERRORS * 2 + 8];
    int n;
} said_list;

static void note(said_list *l, int line, const char *fmt, ...)
{
    if (l->n >= (int)(sizeof l->s / sizeof l->s[0]))
        return;
    said *s = &l->s[l->n++];
    s->line = line;
    s->order = l->n;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->text, sizeof s->text, fmt, ap);
    va_end(ap);
}

static int by_line(const void *a, const void *b)
{
    const said *x = a, *y = b;
    if (x->line != y->line)
        return (x->line > y->line) - (x->line < y->line);
    return (x->order > y->order) - (x->order < y->order);
}

/* Read a configuration file into st (its values, where each came from). A
 * bad line, an unknown key or a bad value: FILE:LINE: reason on err, and
 * the count of them returned. */
static int read_file(opt_state *st, const char *path, FILE *err)
{
    if (st->nfiles >= (int)(sizeof st->files / sizeof st->files[0])) {
        say(err, "%s: more than %d configuration files\n", path,
            (int)(sizeof st->files / sizeof st->files[0]));
        return 1;
    }
    ini_file *f = &st->files[st->nfiles++];
    int bad = 0;
    said_list *l = calloc(1, sizeof *l);
    if (!l) {
        say(err, "%s: out of memory\n", path);
        return 1;
    }
    if (ini_read_file(path, f) != 0) {
        for (size_t i = 0; i < f->nerrors; i++) {
            note(l, f->errors[i].line, "%s", f->errors[i].why);
            if (strstr(f->errors[i].why, "'CHARTERED_"))
                note(l, f->errors[i].line, "(the old NAME=value form of chartered.conf: each "
                     "setting is now `key = value`, docs/configuration.md)");
        }
        if (f->more)
            note(l, INT32_MAX, "%zu more bad lines", f->more);
        bad += (int)(f->nerrors + f->more);
    }
    for (size_t k = 0; k < f->n; k++) {
        const ini_entry *e = &f->entries[k];
        char why[200];
        int i = e->section[0] ? -1 : find(e->key);
        if (e->section[0]) {
            note(l, e->line, "sections are not used: every setting is a key of its own ([%s])",
                 e->section);
            bad++;
        } else if (i < 0 || i == O_CONFIG) {
            note(l, e->line, "'%s' is not a setting of chartered serve%s", e->key,
                 i == O_CONFIG ? " in a file (--config is for the command line)" :
                 " (`chartered config list` lists them)");
            bad++;
        } else if (check_value(i, e->value, why, sizeof why) != 0) {
            note(l, e->line, "%s", why);
            bad++;
        } else {
            st->val[i] = e->value;
            st->src[i] = SRC_FILE;
            free(st->where[i]);
            size_t n = strlen(path) + 16;
            st->where[i] = malloc(n);
            if (st->where[i])
                snprintf(st->where[i], n, "%s:%d", path, e->line);
        }
    }
    qsort(l->s, (size_t)l->n, sizeof l->s[0], by_line);
    for (int i = 0; i < l->n; i++) {
        if (l->s[i].line > 0 && l->s[i].line < INT32_MAX)
            say(err, "%s:%d: %s\n", path, l->s[i].line, l->s[i].text);
        else
            say(err, "%s: %s\n", path, l->s[i].text);
    }
    free(l);
    return bad;
}

static void state_free(opt_state *st)
{
    for (int i = 0; i < st->nfiles; i++)
        ini_free(&st->files[i]);
    for (int i = 0; i < NOPTS; i++)
        free(st->where[i]);
    memset(st, 0, sizeof *st);
}

/* Defaults and environment, then the files named by --config, then the
 * command line (a flag --key VALUE, --key=VALUE, or --key alone for yes).
 * Returns 0, 1 for --help (usage printed), or 2 after saying what is
 * wrong. */
static int gather(opt_state *st, int argc, char **argv, void (*usage)(FILE *), FILE *err)
{
    memset(st, 0, sizeof *st);
    for (int i = 0; i < NOPTS; i++) {
        const char *e = opts[i].env ? getenv(opts[i].env) : NULL;
        if (e && *e) {
            st->val[i] = e;
            st->src[i] = SRC_ENV;
        }
    }
    /* the command line, parsed once for --config and once to apply */
    const char *args[NOPTS];
    memset(args, 0, sizeof args);
    const char *cfg[8];
    int ncfg = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (int j = 0; j < argc; j++) {
            const char *a = argv[j];
            const char *v = j + 1 < argc ? argv[j + 1] : NULL;
            char flag[48];
            int inline_v = 0;
            const char *eq = strchr(a, '=');
            if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
                if (usage)
                    usage(stdout);
                return 1;
            }
            if (strncmp(a, "--", 2) || strlen(a) < 3) {
                if (pass == 0) {
                    say(err, "error: serve: '%s' is not a flag\n", a);
                    if (usage)
                        usage(err);
                }
                return 2;
            }
            if (eq && (size_t)(eq - a) < sizeof flag) {
                snprintf(flag, sizeof flag, "%.*s", (int)(eq - a), a);
                a = flag;
                v = eq + 1;
                inline_v = 1;
            }
            int i = find(a + 2);
            if (i < 0) {
                if (pass == 0) {
                    say(err, "error: serve: unknown flag '%s'\n", a);
                    if (usage)
                        usage(err);
                }
                return 2;
            }
            if (opts[i].k == K_BOOL && !inline_v)
                v = "yes";
            else if (!v) {
                if (pass == 0)
                    say(err, "error: serve: %s needs a value\n", a);
                return 2;
            } else if (!inline_v)
                j++;
            char why[200];
            if (check_value(i, v, why, sizeof why) != 0) {
                if (pass == 0)
                    say(err, "error: serve: --%s\n", why);
                return 2;
            }
            if (pass == 0 && i == O_CONFIG) {
                if (ncfg == (int)(sizeof cfg / sizeof cfg[0])) {
                    say(err, "error: serve: --config at most %d times\n",
                        (int)(sizeof cfg / sizeof cfg[0]));
                    return 2;
                }
                cfg[ncfg++] = v;
            }
            if (pass == 1)
                args[i] = v;
        }
        if (pass == 0) {
            int bad = 0;
            for (int k = 0; k < ncfg; k++)
                bad += read_file(st, cfg[k], err);
            if (bad) {
                say(err, "error: serve: %d bad line%s in the configuration (`chartered config "
                    "check FILE` says the same)\n", bad, bad == 1 ? "" : "s");
                return 2;
            }
        }
    }
    for (int i = 0; i < NOPTS; i++)
        if (args[i]) {
            st->val[i] = args[i];
            st->src[i] = SRC_ARG;
        }
    return 0;
}

/* Hand the gathered values to the server: srv_options, the cluster's
 * settings, and the environment the modules read. Returns 0, or 2 (said). */
static int apply(const opt_state *st, srv_options *o)
{
    for (int i = 0; i < NOPTS; i++) {
        const char *v = st->val[i];
        if (!v || st->src[i] == SRC_DEFAULT)
            continue;
        switch (i) {
        case O_CONFIG:
            break;
        case O_PORT:
            o->port = atoi(v);
            break;
        case O_HOST:
            o->host = *v ? v : NULL;
            break;
        case O_DB:
            o->db = v;
            break;
        case O_DB_PASSWORD:
            if (*v)
                setenv("PGPASSWORD", v, 1);
            break;
        case O_WEB:
            o->web = v;
            break;
        case O_I18N:
            o->i18n = v;
            break;
        case O_BOT_THREADS:
            o->bot_threads = atoi(v);
            break;
        case O_VIEW_THREADS:
            o->view_threads = atoi(v);
            break;
        case O_SYNC:
            o->sync_full = !strcmp(v, "full");
            break;
        case O_LOOP:
            o->libev = !strcmp(v, "libev");
            break;
        case O_SEND_THREAD:
            o->send_thread = !strcmp(v, "on");
            break;
        case O_SKIP_DAMAGED:
            o->skip_damaged = bool_value(v);
            break;
        case O_TRUST_PROXY:
            o->trust_proxy = bool_value(v);
            break;
        case O_QUIET:
            o->quiet = bool_value(v);
            break;
        case O_LOG_FORMAT: {
            srv_log_format f;
            if (srv_log_format_parse(v, &f) == 0)
                o->log_format = (int)f;
            break;
        }
        case O_ACCESS_LOG:
            o->access_log = bool_value(v);
            break;
        case O_SMTP:
            o->smtp = v;
            break;
        case O_MAIL_FROM:
            o->mail_from = v;
            break;
        case O_PUBLIC_URL:
            o->public_url = v;
            break;
        case O_METRICS_LISTEN:
            o->metrics_listen = *v ? v : NULL;
            break;
        case O_METRICS_TOKEN_FILE:
            o->metrics_token_file = *v ? v : NULL;
            break;
        case O_NODE:
        case O_CLUSTER:
        case O_LEASE_SECONDS: {
            char flag[48];
            snprintf(flag, sizeof flag, "--%s", opts[i].key);
            if (srv_cluster_flag(flag, v) < 0)
                return 2;
            break;
        }
        default:
            if (st->src[i] != SRC_ENV)
                setenv(opts[i].env, opts[i].k == K_BOOL ? (bool_value(v) ? "1" : "0") : v, 1);
            break;
        }
    }
    return 0;
}

/* One option's line(s) of --help: the flag padded to a column, the help
 * wrapped at 79 columns, then its default and variable. */
static const char *g_here[2]; /* the folders --web and --i18n default to here */

static void help_line(FILE *f, int i)
{
    const opt_def *d = &opts[i];
    char head[64], text[600];
    if (d->arg)
        snprintf(head, sizeof head, "  --%s %s", d->key, d->arg);
    else
        snprintf(head, sizeof head, "  --%s[=yes|no]", d->key);
    char tail[200] = "";
    if ((i == O_WEB || i == O_I18N) && g_here[i == O_I18N])
        snprintf(tail, sizeof tail, " (default %s)", g_here[i == O_I18N]);
    else if (d->def && *d->def && i != O_CONFIG)
        snprintf(tail, sizeof tail, " (default %s%s%s)", d->def, d->env ? "; " : "",
                 d->env ? d->env : "");
    else if (d->env)
        snprintf(tail, sizeof tail, " (%s)", d->env);
    snprintf(text, sizeof text, "%s%s", d->help, tail);
    const int col = 26, width = 79;
    int pos = (int)strlen(head);
    fputs(head, f);
    if (pos >= col - 1) {
        fputc('\n', f);
        pos = 0;
    }
    const char *p = text;
    while (*p) {
        for (; pos < col; pos++)
            fputc(' ', f);
        int room = width - col;
        int len = (int)strlen(p);
        int take = len;
        /* a folder is not cut (tests/cli_install.sh reads it on the flag's line) */
        if (len > room && !(i == O_WEB || i == O_I18N)) {
            take = room;
            while (take > 0 && p[take] != ' ')
                take--;
            if (take == 0)
                take = room;
        }
        fprintf(f, "%.*s\n", take, p);
        p += take;
        while (*p == ' ')
            p++;
        pos = 0;
    }
}

void srv_options_usage(FILE *f, const char *web_default, const char *i18n_default)
{
    fprintf(f, "usage: chartered serve [--config FILE] [--OPTION VALUE]...\n"
               "\n"
               "Plays both editions online: the browser client, a JSON API and WebSocket\n"
               "games on one port (docs/protocol.md). Games are kept in an SQLite file (or a\n"
               "PostgreSQL database) and resume after a restart.\n"
               "\n"
               "Every option below is also a key of a configuration file (--config FILE:\n"
               "`key = value` lines, docs/configuration.md). The command line wins over the\n"
               "files, the files over the environment variables named.\n"
               "\n");
    g_here[0] = web_default;
    g_here[1] = i18n_default;
    for (int i = 0; i < NOPTS; i++) {
        if (i == O_ENV_FIRST)
            fprintf(f, "\nLimits and tuning:\n");
        help_line(f, i);
    }
}

void srv_options_default(srv_options *o)
{
    /* views on a worker thread where there is a second core: at 5,000
       moves/s on two cores, p99 from 107 ms to 25-35 ms */
    int views_default = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 1 : 0;
    srv_options d = {8080, NULL, "chartered.db", srv_default_web_dir(), srv_default_i18n_dir(),
                     2, views_default, 1, 0, 1, 0, 0, 0, NULL, "chartered@localhost", NULL,
                     SRV_LOG_TEXT, 0, NULL, NULL};
    *o = d;
}

/* The values point into the files' entries, which srv_options keeps
 * pointing at: they live as long as the process (one configuration a
 * process), freed by srv_options_free at the end of cmd_serve. */
static opt_state g_opts;

int srv_options_read(int argc, char **argv, srv_options *o, void (*usage)(FILE *))
{
    state_free(&g_opts);
    int rc = gather(&g_opts, argc, argv, usage, stderr);
    if (rc == 0)
        rc = apply(&g_opts, o);
    if (rc != 0)
        state_free(&g_opts);
    return rc == 1 ? -1 : rc;
}

void srv_options_free(void)
{
    state_free(&g_opts);
}

/* ---- chartered config check|list|show ------------------------------------- */

static void config_usage(FILE *f)
{
    fprintf(f, "usage: chartered config check FILE...\n"
               "       chartered config list [--samples]\n"
               "       chartered config show [--config FILE]... [--OPTION VALUE]...\n"
               "\n"
               "check: every bad line of the configuration files as FILE:LINE: reason (exit 1),\n"
               "       or how many settings they hold (exit 0)\n"
               "list:  every option of chartered serve, tab-separated: key, command-line flag,\n"
               "       environment variable (- for none), default, what it does\n"
               "show:  the settings chartered serve would run with, and where each comes from\n"
               "       (default, environment, file:line, command line)\n");
}

int cmd_config(int argc, char **argv)
{
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        config_usage(argc < 1 ? stderr : stdout);
        return argc < 1 ? 2 : 0;
    }
    if (!strcmp(argv[0], "list")) {
        /* --samples: a sixth column, a valid value other than the default
           (tests/cli_config.sh sets each option to it) */
        int samples = argc == 2 && !strcmp(argv[1], "--samples");
        if (argc != 1 && !samples) {
            config_usage(stderr);
            return 2;
        }
        for (int i = 0; i < NOPTS; i++) {
            const opt_def *d = &opts[i];
            printf("%s\t--%s%s%s\t%s\t%s\t%s", d->key, d->key, d->arg ? " " : "",
                   d->arg ? d->arg : "[=yes|no]", d->env ? d->env : "-",
                   d->def && *d->def ? d->def : "-", d->help);
            if (samples)
                printf("\t%s", d->sample ? d->sample : "-");
            printf("\n");
        }
        return 0;
    }
    if (!strcmp(argv[0], "check")) {
        if (argc < 2) {
            config_usage(stderr);
            return 2;
        }
        opt_state st;
        memset(&st, 0, sizeof st);
        int bad = 0, n = 0;
        for (int k = 1; k < argc; k++) {
            int before = st.nfiles;
            bad += read_file(&st, argv[k], stderr);
            if (st.nfiles > before)
                n += (int)st.files[st.nfiles - 1].n;
        }
        state_free(&st);
        if (bad) {
            fprintf(stderr, "%d bad line%s\n", bad, bad == 1 ? "" : "s");
            return 1;
        }
        printf("ok: %d setting%s, every one valid\n", n, n == 1 ? "" : "s");
        return 0;
    }
    if (!strcmp(argv[0], "show")) {
        /* the same gathering and hand-over as serve's, then each value as
           the server holds it: srv_options, the cluster's settings, the
           environment its modules read */
        opt_state st;
        srv_options o;
        srv_options_default(&o);
        int rc = gather(&st, argc - 1, argv + 1, NULL, stderr);
        if (rc == 0)
            rc = apply(&st, &o);
        if (rc != 0) {
            state_free(&st);
            return 2;
        }
        for (int i = 0; i < NOPTS; i++) {
            char buf[64], shownbuf[600];
            const char *v = NULL;
            switch (i) {
            case O_CONFIG:
                continue;
            case O_PORT:
                snprintf(buf, sizeof buf, "%d", o.port);
                v = buf;
                break;
            case O_HOST:
                v = o.host ? o.host : "";
                break;
            case O_DB:
                v = o.db;
                break;
            case O_DB_PASSWORD: /* never printed */
                v = getenv("PGPASSWORD") && *getenv("PGPASSWORD") ? "(set)" : "";
                break;
            case O_WEB:
                v = o.web;
                break;
            case O_I18N:
                v = o.i18n;
                break;
            case O_BOT_THREADS:
            case O_VIEW_THREADS:
            case O_LEASE_SECONDS:
                snprintf(buf, sizeof buf, "%lld",
                         i == O_BOT_THREADS ? (long long)o.bot_threads :
                         i == O_VIEW_THREADS ? (long long)o.view_threads :
                         (long long)(srv_lease_ms() / 1000));
                v = buf;
                break;
            case O_SYNC:
                v = o.sync_full ? "full" : "normal";
                break;
            case O_LOOP:
                v = o.libev ? "libev" : "poll";
                break;
            case O_SEND_THREAD:
                v = o.send_thread ? "on" : "off";
                break;
            case O_SKIP_DAMAGED:
                v = o.skip_damaged ? "yes" : "no";
                break;
            case O_TRUST_PROXY:
                v = o.trust_proxy ? "yes" : "no";
                break;
            case O_QUIET:
                v = o.quiet ? "yes" : "no";
                break;
            case O_LOG_FORMAT:
                v = o.log_format == SRV_LOG_JSON ? "json" : o.log_format == SRV_LOG_LOGFMT ?
                    "logfmt" : "text";
                break;
            case O_ACCESS_LOG:
                v = o.access_log ? "yes" : "no";
                break;
            case O_NODE:
                v = st.src[i] == SRC_DEFAULT ? opts[i].def : srv_node_name();
                break;
            case O_SMTP: /* a password in the relay's URL is not printed */
                v = o.smtp && *o.smtp ? srv_smtp_shown(o.smtp, shownbuf, sizeof shownbuf) : "";
                break;
            case O_MAIL_FROM:
                v = o.mail_from;
                break;
            case O_PUBLIC_URL:
                v = o.public_url ? o.public_url : opts[i].def;
                break;
            case O_METRICS_LISTEN: /* the token file's name, never its token */
            case O_METRICS_TOKEN_FILE:
                v = i == O_METRICS_LISTEN ? o.metrics_listen : o.metrics_token_file;
                v = v ? v : "";
                break;
            case O_CLUSTER: {
                const char *c = srv_cluster_conninfo(o.db);
                v = !c ? "off" : c == o.db ? "on" : c;
                break;
            }
            default: {
                const char *e = getenv(opts[i].env);
                v = e && *e ? e : opts[i].def;
                if (opts[i].k == K_BOOL)
                    v = bool_value(v) == 1 ? "yes" : "no";
                break;
            }
            }
            printf("%s = %s\t# %s\n", opts[i].key, v,
                   st.src[i] == SRC_FILE && st.where[i] ? st.where[i] : src_name[st.src[i]]);
        }
        state_free(&st);
        return 0;
    }
    fprintf(stderr, "error: config: unknown command '%s'\n", argv[0]);
    config_usage(stderr);
    return 2;
}
