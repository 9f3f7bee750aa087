/* protocol.c: the engine side of the chartered bot protocol
 * (docs/bot-protocol.md). A bot program is started with posix_spawn as
 * `/bin/sh -c CMD` in a process group of its own, with pipes on its standard
 * input and output (its standard error is the engine's). Both pipe ends the
 * engine keeps are non-blocking; every write and read waits with poll() up to
 * a deadline, so no bot can stall the engine. Pipes are created close-on-exec
 * under one lock, so that bots started at the same time by other threads do
 * not inherit each other's pipes (which would hide an EOF).
 *
 * The engine offers version 2 ("chartered 2"); a bot that says "protocol 2"
 * before its "bot NAME VERSION" gets version 2's lines, any other bot the
 * version-1 session, byte for byte as before (docs/bot-protocol.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "protocol.h"

extern char **environ;

#define LINE_MAX_BYTES 65536 /* longest line a bot may send */

struct proto_bot {
    pid_t pid;
    int in_fd;   /* the bot's standard input (we write)  */
    int out_fd;  /* the bot's standard output (we read)  */
    int reaped;  /* the exit status has been collected   */
    int gone;    /* the process has exited (status known) */
    int status;  /* its wait status when gone              */
    proto_opts o;
    char tag[64];    /* o.tag points here                       */
    int version;     /* 1 or 2                                  */
    int nopts;
    proto_option opts[PROTO_MAX_OPTIONS];
    int seat;        /* 0-based, of the game being played       */
    chx_buf moves;   /* version 2: "; "-joined public moves since
                        the bot's last decision                 */
    int nmoves;
    double left_ms;  /* version 2 with a game clock: ms left     */
    char id[128];
    unsigned long ninfo;
    char rbuf[LINE_MAX_BYTES + 1];
    size_t rlen;     /* bytes in rbuf                         */
    size_t consume;  /* bytes of the last line to drop first  */
};

static pthread_mutex_t spawn_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t echo_lock = PTHREAD_MUTEX_INITIALIZER;

const char *proto_errname(int code)
{
    switch (code) {
    case PROTO_OK: return "ok";
    case PROTO_ESPAWN: return "cannot start";
    case PROTO_EHANDSHAKE: return "bad handshake";
    case PROTO_EGARBAGE: return "garbage line";
    case PROTO_ESYNTAX: return "unreadable move";
    case PROTO_EILLEGAL: return "illegal move";
    case PROTO_ETIMEOUT: return "timeout";
    case PROTO_EEXIT: return "exited";
    default: return "i/o error";
    }
}

void proto_global_init(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* Milliseconds left until deadline, at least 0, for poll(). */
static int left_ms(double deadline)
{
    double left = deadline - now_ms();
    if (left <= 0)
        return 0;
    if (left > 1e9)
        return 1000000000;
    return (int)left + 1;
}

/* A line quoted for a message: at most 80 characters, control characters
 * as '?'. */
static void quote(const char *s, size_t len, char *buf, size_t n)
{
    size_t o = 0, max = len > 80 ? 80 : len;
    for (size_t i = 0; i < max && o + 4 < n; i++) {
        unsigned char c = (unsigned char)s[i];
        buf[o++] = c < 32 || c == 127 ? '?' : (char)c;
    }
    if (len > max && o + 4 < n) {
        memcpy(buf + o, "...", 3);
        o += 3;
    }
    buf[o] = '\0';
}

/* Every line in full, views too: a decision can be replayed from the
 * transcript alone (issue 36; docs/bot-protocol.md "A transcript"). */
static void log_line(proto_bot *b, char dir, const char *s, size_t len)
{
    if (!b->o.log)
        return;
    fprintf(b->o.log, "%c %.*s\n", dir, (int)len, s);
}

/* Check without reaping whether the process has exited; 1 when it has. */
static int peek_exit(proto_bot *b)
{
    if (b->gone)
        return 1;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    if (waitid(P_PID, (id_t)b->pid, &si, WEXITED | WNOHANG | WNOWAIT) != 0)
        return 0;
    if (si.si_pid != b->pid)
        return 0;
    b->gone = 1;
    if (si.si_code == CLD_EXITED)
        b->status = si.si_status << 8;
    else
        b->status = si.si_status & 0x7f; /* killed or dumped: the signal */
    return 1;
}

/* "exited with status 3", "was killed by signal 11 (Segmentation fault)",
 * or "closed its output" while still running. Waits up to wait_ms for the
 * exit. */
static void describe_end(proto_bot *b, char *buf, size_t n, int wait_ms)
{
    double until = now_ms() + wait_ms;
    while (!peek_exit(b) && now_ms() < until) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (!b->gone) {
        snprintf(buf, n, "closed its output (the process still runs)");
        return;
    }
    if (WIFEXITED(b->status))
        snprintf(buf, n, "exited with status %d", WEXITSTATUS(b->status));
    else if (WIFSIGNALED(b->status))
        snprintf(buf, n, "was killed by signal %d (%s)", WTERMSIG(b->status),
                 strsignal(WTERMSIG(b->status)));
    else
        snprintf(buf, n, "ended (wait status %d)", b->status);
}

/* Write all of s before deadline. */
static int write_all(proto_bot *b, const char *s, size_t len, double deadline)
{
    while (len > 0) {
        ssize_t w = write(b->in_fd, s, len);
        if (w > 0) {
            s += w;
            len -= (size_t)w;
            continue;
        }
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pf = {b->in_fd, POLLOUT, 0};
            int ms = left_ms(deadline);
            if (ms == 0)
                return PROTO_ETIMEOUT;
            int r = poll(&pf, 1, ms);
            if (r < 0 && errno != EINTR)
                return PROTO_EIO;
            if (r == 0)
                return PROTO_ETIMEOUT;
            if (pf.revents & (POLLERR | POLLHUP) && !(pf.revents & POLLOUT))
                return PROTO_EEXIT;
            continue;
        }
        return errno == EPIPE ? PROTO_EEXIT : PROTO_EIO;
    }
    return PROTO_OK;
}

/* Send text, which holds one or more whole lines, logging each line. */
static int send_text(proto_bot *b, const char *text, double deadline)
{
    if (b->o.log) {
        const char *p = text;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t len = e ? (size_t)(e - p) : strlen(p);
            log_line(b, '>', p, len);
            p += len + (e ? 1 : 0);
        }
    }
    return write_all(b, text, strlen(text), deadline);
}

/* Read one line (without its end, '\r' dropped) before deadline; *line points
 * into b->rbuf and stays valid until the next call. */
static int read_line(proto_bot *b, double deadline, char **line, size_t *len)
{
    if (b->consume) {
        memmove(b->rbuf, b->rbuf + b->consume, b->rlen - b->consume);
        b->rlen -= b->consume;
        b->consume = 0;
    }
    for (;;) {
        char *nl = memchr(b->rbuf, '\n', b->rlen);
        if (nl) {
            size_t l = (size_t)(nl - b->rbuf);
            b->consume = l + 1;
            *nl = '\0';
            if (l > 0 && b->rbuf[l - 1] == '\r')
                b->rbuf[--l] = '\0';
            *line = b->rbuf;
            *len = l;
            log_line(b, '<', b->rbuf, l);
            return PROTO_OK;
        }
        if (b->rlen >= LINE_MAX_BYTES) {
            b->rbuf[LINE_MAX_BYTES] = '\0';
            *line = b->rbuf;
            *len = b->rlen;
            b->consume = b->rlen;
            return PROTO_EGARBAGE;
        }
        ssize_t r = read(b->out_fd, b->rbuf + b->rlen, LINE_MAX_BYTES - b->rlen);
        if (r > 0) {
            b->rlen += (size_t)r;
            continue;
        }
        if (r == 0)
            return PROTO_EEXIT;
        if (errno == EINTR)
            continue;
        if (errno != EAGAIN && errno != EWOULDBLOCK)
            return PROTO_EEXIT;
        struct pollfd pf = {b->out_fd, POLLIN, 0};
        int ms = left_ms(deadline);
        if (ms == 0)
            return PROTO_ETIMEOUT;
        int pr = poll(&pf, 1, ms);
        if (pr < 0 && errno != EINTR)
            return PROTO_EIO;
        if (pr == 0)
            return PROTO_ETIMEOUT;
    }
}

static int is_info(const char *line)
{
    return strncmp(line, "info", 4) == 0 && (line[4] == ' ' || line[4] == '\0');
}

static void got_info(proto_bot *b, const char *line)
{
    b->ninfo++;
    if (b->o.echo_info) {
        pthread_mutex_lock(&echo_lock);
        fprintf(stderr, "[%s%s%s] %s\n", b->id, b->tag[0] ? " " : "", b->tag,
                line);
        pthread_mutex_unlock(&echo_lock);
    }
}

/* ---- the lines a bot sends, read without I/O (tests/fuzz/fuzz_protocol.c) */

int proto_hello_line(const char *line, size_t len, char *id, size_t idn,
                     char *err, size_t n)
{
    if (len == 0)
        return PROTO_LINE_SKIP;
    if (is_info(line))
        return PROTO_LINE_INFO;
    if (strncmp(line, "protocol", 8) == 0 && (line[8] == ' ' || line[8] == '\0'))
        return PROTO_LINE_PROTOCOL;
    if (strncmp(line, "option", 6) == 0 && (line[6] == ' ' || line[6] == '\0'))
        return PROTO_LINE_OPTION;
    if (len > 4 && strncmp(line, "bot ", 4) == 0 && line[4] != '\0' &&
        line[4] != ' ') {
        snprintf(id, idn, "%s", line + 4);
        return PROTO_OK;
    }
    char q[100];
    quote(line, len, q, sizeof q);
    snprintf(err, n, "answered the handshake 'chartered %d' with '%s' "
             "(expected 'bot NAME VERSION')", PROTO_VERSION, q);
    return PROTO_EHANDSHAKE;
}

int proto_protocol_line(const char *line, size_t len, int *version, char *err,
                        size_t n)
{
    char q[100];
    if (len == 10 && strncmp(line, "protocol ", 9) == 0 &&
        (line[9] == '1' || line[9] == '2')) {
        *version = line[9] - '0';
        return PROTO_OK;
    }
    quote(line, len, q, sizeof q);
    snprintf(err, n, "asked for '%s', but the engine speaks 'protocol 1' and "
             "'protocol 2'", q);
    return PROTO_EHANDSHAKE;
}

/* The next word of *s (at most n - 1 bytes) into w; 0 when there is none
 * or it is too long. */
static int next_word(const char **s, char *w, size_t n)
{
    const char *p = *s;
    while (*p == ' ')
        p++;
    size_t l = strcspn(p, " ");
    if (l == 0 || l >= n)
        return 0;
    memcpy(w, p, l);
    w[l] = '\0';
    *s = p + l;
    return 1;
}

/* A number of an int or float option; 1 when the whole word is one. */
static int option_number(const char *w, int integer, double *v)
{
    char *end = NULL;
    errno = 0;
    if (integer) {
        long long x = strtoll(w, &end, 10);
        *v = (double)x;
    } else {
        *v = strtod(w, &end);
    }
    return errno == 0 && end != w && *end == '\0' && *v == *v &&
           *v < 1e300 && *v > -1e300;
}

static int in_choices(const char *choices, const char *w)
{
    size_t l = strlen(w);
    for (const char *c = choices; *c;) {
        size_t k = strcspn(c, " ");
        if (k == l && strncmp(c, w, l) == 0)
            return 1;
        c += k;
        while (*c == ' ')
            c++;
    }
    return 0;
}

int proto_option_line(const char *line, size_t len, proto_option *o,
                      char *err, size_t n)
{
    char q[100], w[256];
    memset(o, 0, sizeof *o);
    quote(line, len, q, sizeof q);
    if (strlen(line) != len) {
        snprintf(err, n, "sent an option line with a NUL byte: '%s'", q);
        return PROTO_EHANDSHAKE;
    }
    const char *s = line + 6;
    if (!next_word(&s, o->name, sizeof o->name) || !next_word(&s, o->type, sizeof o->type)) {
        snprintf(err, n, "sent '%s': an option is 'option NAME TYPE ...' with a "
                 "name of at most 63 bytes and a type int, float, bool, choice or "
                 "string", q);
        return PROTO_EHANDSHAKE;
    }
    for (const char *c = o->name; *c; c++)
        if ((unsigned char)*c < 33 || *c == 127) {
            snprintf(err, n, "sent '%s': an option's name is printable", q);
            return PROTO_EHANDSHAKE;
        }
    if (!strcmp(o->type, "string")) {
        while (*s == ' ')
            s++;
        if (strlen(s) >= sizeof o->def) {
            snprintf(err, n, "sent '%s': the default is longer than 255 bytes", q);
            return PROTO_EHANDSHAKE;
        }
        if (strchr(s, '\r')) { /* a value may not hold one (proto_option_value) */
            snprintf(err, n, "sent '%s': the default holds a line break", q);
            return PROTO_EHANDSHAKE;
        }
        snprintf(o->def, sizeof o->def, "%s", s);
        return PROTO_OK;
    }
    if (!next_word(&s, o->def, sizeof o->def)) {
        snprintf(err, n, "sent '%s': option %s has no default", q, o->name);
        return PROTO_EHANDSHAKE;
    }
    /* strtod would skip carriage returns before a number, and a value may
       not hold one (proto_option_value): the default is one of its values
       (fuzz_protocol) */
    if (strchr(o->def, '\r')) {
        snprintf(err, n, "sent '%s': the default holds a line break", q);
        return PROTO_EHANDSHAKE;
    }
    if (!strcmp(o->type, "int") || !strcmp(o->type, "float")) {
        int integer = o->type[0] == 'i';
        double d;
        char lo[64], hi[64];
        if (!next_word(&s, lo, sizeof lo) || !next_word(&s, hi, sizeof hi) ||
            !option_number(lo, integer, &o->min) || !option_number(hi, integer, &o->max) ||
            !option_number(o->def, integer, &d) || o->min > o->max || d < o->min || d > o->max ||
            next_word(&s, w, sizeof w)) {
            snprintf(err, n, "sent '%s': an %s option is 'option NAME %s DEFAULT MIN "
                     "MAX', MIN <= DEFAULT <= MAX", q, o->type, o->type);
            return PROTO_EHANDSHAKE;
        }
        return PROTO_OK;
    }
    if (!strcmp(o->type, "bool")) {
        if ((strcmp(o->def, "true") && strcmp(o->def, "false")) || next_word(&s, w, sizeof w)) {
            snprintf(err, n, "sent '%s': a bool option is 'option NAME bool true|false'", q);
            return PROTO_EHANDSHAKE;
        }
        return PROTO_OK;
    }
    if (!strcmp(o->type, "choice")) {
        size_t at = 0;
        while (next_word(&s, w, sizeof w)) {
            size_t l = strlen(w);
            if (at + l + 2 > sizeof o->choices) {
                snprintf(err, n, "sent '%s': the choices are longer than 511 bytes", q);
                return PROTO_EHANDSHAKE;
            }
            if (at)
                o->choices[at++] = ' ';
            memcpy(o->choices + at, w, l + 1);
            at += l;
        }
        if (*s || !in_choices(o->choices, o->def)) {
            snprintf(err, n, "sent '%s': a choice option is 'option NAME choice DEFAULT "
                     "CHOICE...' with DEFAULT among the choices", q);
            return PROTO_EHANDSHAKE;
        }
        return PROTO_OK;
    }
    snprintf(err, n, "sent '%s': option type '%s' is not int, float, bool, choice "
             "or string", q, o->type);
    return PROTO_EHANDSHAKE;
}

int proto_option_value(const proto_option *o, const char *value, char *err,
                       size_t n)
{
    double v;
    if (strchr(value, '\n') || strchr(value, '\r')) {
        snprintf(err, n, "the value of option %s holds a line break", o->name);
        return PROTO_EHANDSHAKE;
    }
    if (!strcmp(o->type, "string"))
        return PROTO_OK;
    if (!strcmp(o->type, "int") || !strcmp(o->type, "float")) {
        if (!option_number(value, o->type[0] == 'i', &v) || v < o->min || v > o->max) {
            snprintf(err, n, "option %s takes %s from %g to %g, not '%.80s'", o->name,
                     o->type[0] == 'i' ? "a whole number" : "a number", o->min, o->max,
                     value);
            return PROTO_EHANDSHAKE;
        }
        return PROTO_OK;
    }
    if (!strcmp(o->type, "bool")) {
        if (strcmp(value, "true") && strcmp(value, "false")) {
            snprintf(err, n, "option %s is true or false, not '%.80s'", o->name, value);
            return PROTO_EHANDSHAKE;
        }
        return PROTO_OK;
    }
    if (!strchr(value, ' ') && in_choices(o->choices, value))
        return PROTO_OK;
    snprintf(err, n, "option %s is one of %.300s, not '%.80s'", o->name, o->choices, value);
    return PROTO_EHANDSHAKE;
}

int proto_ready_line(const char *line, size_t len, char *err, size_t n)
{
    if (len == 0)
        return PROTO_LINE_SKIP;
    if (is_info(line))
        return PROTO_LINE_INFO;
    if (len == 7 && strcmp(line, "readyok") == 0)
        return PROTO_OK;
    char q[100];
    quote(line, len, q, sizeof q);
    snprintf(err, n, "answered 'isready' with '%s' (expected 'readyok')", q);
    return PROTO_EHANDSHAKE;
}

int proto_move_line(const ch_state *st, int p, const char *line, size_t len,
                    ch_move *out, char *err, size_t n)
{
    if (len == 0)
        return PROTO_LINE_SKIP;
    if (is_info(line))
        return PROTO_LINE_INFO;
    char q[100];
    if (len < 5 || strncmp(line, "move ", 5) != 0) {
        quote(line, len, q, sizeof q);
        snprintf(err, n, "sent '%s', which is not part of the protocol "
                 "(expected 'move TEXT' or 'info TEXT')", q);
        return PROTO_EGARBAGE;
    }
    quote(line + 5, len - 5, q, sizeof q);
    ch_msg why = {{0}};
    ch_move m;
    int r = ch_move_parse(st, p, line + 5, &m, &why);
    if (r != CH_OK) {
        snprintf(err, n, "sent an unreadable move '%s': %s", q,
                 why.text[0] ? why.text : ch_strerror(r));
        return PROTO_ESYNTAX;
    }
    r = ch_check(st, p, m, &why);
    if (r != CH_OK) {
        snprintf(err, n, "sent an illegal move '%s': %s", q,
                 why.text[0] ? why.text : ch_strerror(r));
        return PROTO_EILLEGAL;
    }
    *out = m;
    return PROTO_OK;
}

static void set_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFD);
    if (fl >= 0)
        fcntl(fd, F_SETFD, fl | FD_CLOEXEC);
}

static void set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

/* A close-on-exec pipe whose ends are not 0, 1 or 2 (so that dup2 onto the
 * child's 0 and 1 always makes a fresh, inheritable descriptor). */
static int make_pipe(int fds[2])
{
    if (pipe(fds) != 0)
        return -1;
    for (int i = 0; i < 2; i++) {
        if (fds[i] <= 2) {
            int nfd = fcntl(fds[i], F_DUPFD_CLOEXEC, 3);
            if (nfd < 0) {
                close(fds[0]);
                close(fds[1]);
                return -1;
            }
            close(fds[i]);
            fds[i] = nfd;
        }
        set_cloexec(fds[i]);
    }
    return 0;
}

/* Kill the bot's process group, reap it and close the pipes. */
static void kill_and_reap(proto_bot *b)
{
    if (b->pid > 0 && !b->reaped) {
        /* The process group is killed while its leader is unreaped (alive or
         * a zombie), so the group id cannot have been reused. */
        kill(-b->pid, SIGKILL);
        kill(b->pid, SIGKILL);
        int st;
        while (waitpid(b->pid, &st, 0) < 0 && errno == EINTR)
            ;
        b->reaped = 1;
    }
    if (b->in_fd >= 0)
        close(b->in_fd);
    if (b->out_fd >= 0)
        close(b->out_fd);
    b->in_fd = b->out_fd = -1;
}

void proto_stop(proto_bot *b, int graceful)
{
    if (!b)
        return;
    if (graceful && b->in_fd >= 0 && !peek_exit(b)) {
        send_text(b, "quit\n", now_ms() + 200);
        close(b->in_fd);
        b->in_fd = -1;
        double until = now_ms() + 1000;
        while (!peek_exit(b) && now_ms() < until) {
            struct timespec ts = {0, 2 * 1000 * 1000};
            nanosleep(&ts, NULL);
        }
    }
    kill_and_reap(b);
    free(b->moves.s);
    free(b);
}

int proto_version(const proto_bot *b)
{
    return b ? b->version : 0;
}

const proto_option *proto_options(const proto_bot *b, int *n)
{
    *n = b ? b->nopts : 0;
    return b ? b->opts : NULL;
}

void proto_set_log(proto_bot *b, FILE *log, const char *tag)
{
    b->o.log = log;
    snprintf(b->tag, sizeof b->tag, "%s", tag ? tag : "");
    b->o.tag = b->tag;
}

const char *proto_bot_id(const proto_bot *b)
{
    return b ? b->id : "?";
}

unsigned long proto_info_count(const proto_bot *b)
{
    return b ? b->ninfo : 0;
}

/* The failure of a read, in words, into err. */
static void read_failure(proto_bot *b, int rc, const char *waiting, int ms,
                         const char *line, size_t len, char *err, size_t n)
{
    char q[100], how[160];
    switch (rc) {
    case PROTO_ETIMEOUT:
        snprintf(err, n, "sent nothing valid within %d ms while the engine "
                 "waited for %s (time limit)", ms, waiting);
        break;
    case PROTO_EEXIT:
        describe_end(b, how, sizeof how, 300);
        snprintf(err, n, "%s while the engine waited for %s", how, waiting);
        break;
    case PROTO_EGARBAGE:
        quote(line, len, q, sizeof q);
        snprintf(err, n, "sent a line longer than %d bytes ('%s') while the "
                 "engine waited for %s", LINE_MAX_BYTES, q, waiting);
        break;
    default:
        snprintf(err, n, "could not be read (%s) while the engine waited for "
                 "%s", strerror(errno), waiting);
        break;
    }
}

int proto_start(proto_bot **out, const char *cmd, const proto_opts *o,
                char *err, size_t n)
{
    *out = NULL;
    proto_bot *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, n, "out of memory");
        return PROTO_EIO;
    }
    b->o = *o;
    snprintf(b->tag, sizeof b->tag, "%s", o->tag ? o->tag : "");
    b->o.tag = b->tag;
    b->o.set_names = b->o.set_values = NULL; /* the caller's; read here only */
    b->version = 1;
    b->in_fd = b->out_fd = -1;
    snprintf(b->id, sizeof b->id, "?");

    int in[2] = {-1, -1}, outp[2] = {-1, -1};
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    pthread_mutex_lock(&spawn_lock);
    if (make_pipe(in) != 0 || make_pipe(outp) != 0) {
        int e = errno;
        pthread_mutex_unlock(&spawn_lock);
        if (in[0] >= 0) {
            close(in[0]);
            close(in[1]);
        }
        snprintf(err, n, "cannot create a pipe: %s", strerror(e));
        free(b);
        return PROTO_ESPAWN;
    }
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
    posix_spawnattr_init(&attr);
    sigset_t def, none;
    sigemptyset(&def);
    sigaddset(&def, SIGPIPE);
    sigemptyset(&none);
    posix_spawnattr_setsigdefault(&attr, &def);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setpgroup(&attr, 0);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP |
                                        POSIX_SPAWN_SETSIGDEF |
                                        POSIX_SPAWN_SETSIGMASK);
    char *argv[] = {"/bin/sh", "-c", (char *)cmd, NULL};
    int rc = posix_spawn(&b->pid, "/bin/sh", &fa, &attr, argv, environ);
    pthread_mutex_unlock(&spawn_lock);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    close(in[0]);
    close(outp[1]);
    b->in_fd = in[1];
    b->out_fd = outp[0];
    if (rc != 0) {
        snprintf(err, n, "cannot start /bin/sh -c '%s': %s", cmd, strerror(rc));
        b->pid = 0;
        kill_and_reap(b);
        free(b);
        return PROTO_ESPAWN;
    }
    set_nonblock(b->in_fd);
    set_nonblock(b->out_fd);

    /* handshake */
    char hello[32];
    snprintf(hello, sizeof hello, "chartered %d\n", PROTO_VERSION);
    double deadline = now_ms() + o->start_ms;
    rc = send_text(b, hello, deadline);
    if (rc != PROTO_OK) {
        char how[160];
        describe_end(b, how, sizeof how, 300);
        if (rc != PROTO_ETIMEOUT && b->gone)
            /* it died before reading a byte (a missing program, say): the
             * same words as when it dies while the engine reads its answer,
             * which of the two happens first is a race */
            snprintf(err, n, "%s while the engine waited for its handshake 'bot NAME VERSION'", how);
        else
            snprintf(err, n, "did not read the handshake 'chartered %d' (%s)",
                     PROTO_VERSION, rc == PROTO_ETIMEOUT ? "timeout" : how);
        proto_stop(b, 0);
        return rc == PROTO_ETIMEOUT ? PROTO_ETIMEOUT : PROTO_EHANDSHAKE;
    }
    for (;;) {
        char *line = NULL;
        size_t len = 0;
        rc = read_line(b, deadline, &line, &len);
        if (rc != PROTO_OK) {
            read_failure(b, rc, "its handshake 'bot NAME VERSION'",
                         o->start_ms, line, len, err, n);
            proto_stop(b, 0);
            return rc == PROTO_EGARBAGE ? PROTO_EHANDSHAKE : rc;
        }
        rc = proto_hello_line(line, len, b->id, sizeof b->id, err, n);
        if (rc == PROTO_LINE_INFO)
            got_info(b, line);
        if (rc == PROTO_LINE_PROTOCOL)
            rc = proto_protocol_line(line, len, &b->version, err, n);
        else if (rc == PROTO_LINE_OPTION) {
            if (b->nopts >= PROTO_MAX_OPTIONS) {
                snprintf(err, n, "advertised more than %d options", PROTO_MAX_OPTIONS);
                rc = PROTO_EHANDSHAKE;
            } else {
                rc = proto_option_line(line, len, &b->opts[b->nopts], err, n);
                if (rc == PROTO_OK)
                    b->nopts++;
            }
        } else if (rc == PROTO_OK) {
            break;
        }
        if (rc == PROTO_OK || rc == PROTO_LINE_SKIP || rc == PROTO_LINE_INFO)
            continue;
        proto_stop(b, 0);
        return rc;
    }
    if (b->version < 2 && (o->nset > 0 || o->clock_ms > 0)) {
        snprintf(err, n, "speaks protocol 1, which has %s (it did not answer 'protocol 2')",
                 o->nset > 0 ? "no options to set" : "no game clock");
        proto_stop(b, 0);
        return PROTO_EHANDSHAKE;
    }
    if (b->version >= 2) {
        /* the options asked for, each checked against what the bot advertised */
        chx_buf set = {0};
        for (int i = 0; i < o->nset; i++) {
            const proto_option *op = NULL;
            for (int k = 0; k < b->nopts && !op; k++)
                if (!strcmp(b->opts[k].name, o->set_names[i]))
                    op = &b->opts[k];
            if (!op) {
                chx_buf names = {0};
                for (int k = 0; k < b->nopts; k++) {
                    chx_buf_puts(&names, k ? ", " : "");
                    chx_buf_puts(&names, b->opts[k].name);
                }
                snprintf(err, n, "has no option '%.60s' (its options: %.300s)", o->set_names[i],
                         names.s ? names.s : "none");
                free(names.s);
                free(set.s);
                proto_stop(b, 0);
                return PROTO_EHANDSHAKE;
            }
            char why[600];
            if (proto_option_value(op, o->set_values[i], why, sizeof why) != PROTO_OK) {
                snprintf(err, n, "cannot take --bot-option %.60s=%.80s: %s", op->name,
                         o->set_values[i], why);
                free(set.s);
                proto_stop(b, 0);
                return PROTO_EHANDSHAKE;
            }
            chx_buf_puts(&set, "setoption ");
            chx_buf_puts(&set, op->name);
            chx_buf_puts(&set, " ");
            chx_buf_puts(&set, o->set_values[i]);
            chx_buf_puts(&set, "\n");
        }
        chx_buf_puts(&set, "isready\n");
        rc = set.oom ? PROTO_EIO : send_text(b, set.s, deadline);
        free(set.s);
        for (;;) {
            char *line = NULL;
            size_t len = 0;
            if (rc == PROTO_OK)
                rc = read_line(b, deadline, &line, &len);
            if (rc != PROTO_OK) {
                read_failure(b, rc, "'readyok' (the answer to 'isready')", o->start_ms, line,
                             len, err, n);
                proto_stop(b, 0);
                return rc == PROTO_EGARBAGE ? PROTO_EHANDSHAKE : rc;
            }
            rc = proto_ready_line(line, len, err, n);
            if (rc == PROTO_LINE_INFO)
                got_info(b, line);
            if (rc == PROTO_OK)
                break;
            if (rc != PROTO_LINE_SKIP && rc != PROTO_LINE_INFO) {
                proto_stop(b, 0);
                return rc;
            }
            rc = PROTO_OK;
        }
    }
    *out = b;
    return PROTO_OK;
}

int proto_game(proto_bot *b, const char *setup_json, int seat, uint64_t seed,
               const ch_state *st, char *err, size_t n)
{
    chx_buf text = {0};
    char line[160];
    b->seat = seat;
    free(b->moves.s);
    memset(&b->moves, 0, sizeof b->moves);
    b->nmoves = 0;
    b->left_ms = b->o.clock_ms;
    chx_buf_puts(&text, b->version >= 2 ? "newgame " : "game ");
    chx_buf_puts(&text, setup_json);
    /* version 2 with a game clock: "time" gives the clock's start */
    snprintf(line, sizeof line, "\nseat %d\nseed %" PRIu64 "\ntime %d\n", seat + 1, seed,
             b->version >= 2 && b->o.clock_ms > 0 ? b->o.clock_ms : b->o.move_ms);
    chx_buf_puts(&text, line);
    if (b->version >= 2) {
        char *view = proto_view_line(st, seat);
        if (!view) {
            free(text.s);
            snprintf(err, n, "out of memory");
            return PROTO_EIO;
        }
        chx_buf_puts(&text, "position ");
        chx_buf_puts(&text, view);
        chx_buf_puts(&text, "\n");
        ch_free(view);
    }
    if (text.oom) {
        free(text.s);
        snprintf(err, n, "out of memory");
        return PROTO_EIO;
    }
    int rc = send_text(b, text.s, now_ms() + b->o.start_ms);
    free(text.s);
    if (rc != PROTO_OK) {
        char how[160] = "timeout";
        if (rc != PROTO_ETIMEOUT)
            describe_end(b, how, sizeof how, 300);
        snprintf(err, n, "did not read the start of the game (%s)", how);
        return rc == PROTO_ETIMEOUT ? PROTO_ETIMEOUT : PROTO_EEXIT;
    }
    return PROTO_OK;
}

int proto_public_move(const ch_state *before, int mover, ch_move m, int viewer,
                      char *buf, size_t n)
{
    char full[256];
    if (ch_move_str(before, m, full, sizeof full) <= 0)
        snprintf(full, sizeof full, "?");
    const char *masked = NULL;
    int ga = before->edition == CH_ED_GOLDEN_AGE, self = viewer == mover;
    /* The same rules as the server's game log (src/server/mask.c,
     * srv_mask_move; RULINGS.md "Hidden information"). */
    switch (m.type) {
    case CH_M_BID:
        /* a sealed bid (open auction bids are public); the one that
           completes a round reveals every bid of it, its own included */
        if (before->phase == CH_PH_BID &&
            ((unsigned)before->bid_in | 1u << mover) != (unsigned)before->bid_mask)
            masked = "bid";
        break;
    case CH_M_GIVE:
    case CH_M_ASK:
        if (m.b == 0) /* a card: the offer's other side learns of asked cards
                         at once, of given ones from its view once sent */
            masked = m.type == CH_M_GIVE ? "give card" : "ask card";
        else if (m.b == 1 && ga)
            masked = m.type == CH_M_GIVE ? "give stock" : "ask stock";
        if (masked && m.type == CH_M_ASK && before->offer.to == viewer)
            masked = NULL;
        if (masked && m.b == 1 && before->offer.to == viewer)
            masked = NULL;
        break;
    case CH_M_PICK:
        masked = "pick";
        break;
    case CH_M_BUY:
    case CH_M_SELL:
    case CH_M_LOSE:
        /* The Golden Age's stock holdings are hidden */
        if (ga)
            masked = m.type == CH_M_BUY ? "buy" : m.type == CH_M_SELL ? "sell" : "lose";
        break;
    default:
        break;
    }
    int len = snprintf(buf, n, "P%d %s", mover + 1, masked && !self ? masked : full);
    return len < 0 || (size_t)len >= n ? -1 : len;
}

void proto_observe(proto_bot *b, const ch_state *before, int mover, ch_move m)
{
    if (!b || b->version < 2)
        return;
    char t[300];
    if (proto_public_move(before, mover, m, b->seat, t, sizeof t) < 0)
        return;
    chx_buf_puts(&b->moves, b->nmoves ? "; " : " ");
    chx_buf_puts(&b->moves, t);
    b->nmoves++;
}

char *proto_view_line(const ch_state *st, int p)
{
    char *v = ch_view_to_json(st, p);
    if (!v)
        return NULL;
    /* A JSON string holds no raw newline: every newline and the indentation
     * after it lie between tokens and can go. */
    char *w = v;
    for (const char *r = v; *r;) {
        if (*r == '\n') {
            r++;
            while (*r == ' ')
                r++;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
    return v;
}

/* The decision as the bot reads it (docs/bot-protocol.md "Engine to bot"). */
char *proto_decision_text(const ch_state *st, int p)
{
    char *view = proto_view_line(st, p);
    int nlines = 0;
    char *legal = chx_legal_lines(st, p, &nlines);
    chx_buf msg = {0};
    if (view && legal) {
        char head[32];
        chx_buf_puts(&msg, "view ");
        chx_buf_puts(&msg, view);
        snprintf(head, sizeof head, "\nlegal %d\n", nlines);
        chx_buf_puts(&msg, head);
        chx_buf_puts(&msg, legal);
        chx_buf_puts(&msg, "go\n");
    }
    if (view)
        ch_free(view);
    free(legal);
    if (!view || !legal || msg.oom) {
        free(msg.s);
        return NULL;
    }
    return msg.s;
}

int proto_choose(proto_bot *b, const ch_state *st, int p, ch_move *out,
                 char *err, size_t n)
{
    char *msg = proto_decision_text(st, p);
    if (!msg) {
        snprintf(err, n, "out of memory preparing the decision");
        return PROTO_EIO;
    }
    /* the time for this move: the clock left, or the limit per move */
    int limit = b->o.move_ms;
    if (b->version >= 2 && b->o.clock_ms > 0)
        limit = b->left_ms > 1 ? (int)b->left_ms : 1;
    if (b->version >= 2) {
        /* "moves ..." first, "clock LEFT INC" just before "go" */
        chx_buf t = {0};
        char clock[64];
        chx_buf_puts(&t, "moves");
        if (b->moves.s)
            chx_buf_puts(&t, b->moves.s);
        chx_buf_puts(&t, "\n");
        size_t ml = strlen(msg);
        chx_buf_add(&t, msg, ml - 3); /* without "go\n" */
        snprintf(clock, sizeof clock, "clock %d %d\ngo\n", limit,
                 b->o.clock_ms > 0 ? b->o.inc_ms : 0);
        chx_buf_puts(&t, clock);
        free(msg);
        if (t.oom) {
            free(t.s);
            snprintf(err, n, "out of memory preparing the decision");
            return PROTO_EIO;
        }
        msg = t.s;
        free(b->moves.s);
        memset(&b->moves, 0, sizeof b->moves);
        b->nmoves = 0;
    }
    int rc = send_text(b, msg, now_ms() + limit + 1000);
    free(msg);
    if (rc != PROTO_OK) {
        char how[160] = "";
        if (rc == PROTO_ETIMEOUT)
            snprintf(err, n, "did not read its input within %d ms (the view "
                     "and legal moves of a decision)", limit + 1000);
        else {
            describe_end(b, how, sizeof how, 300);
            snprintf(err, n, "%s before the engine could send the decision",
                     how);
        }
        return rc == PROTO_ETIMEOUT ? PROTO_ETIMEOUT : PROTO_EEXIT;
    }
    double start = now_ms(), deadline = start + limit;
    for (;;) {
        char *line = NULL;
        size_t len = 0;
        rc = read_line(b, deadline, &line, &len);
        if (rc != PROTO_OK) {
            read_failure(b, rc, b->version >= 2 && b->o.clock_ms > 0 ? "its move (its clock ran out)"
                                                                     : "its move",
                         limit, line, len, err, n);
            return rc;
        }
        rc = proto_move_line(st, p, line, len, out, err, n);
        if (rc == PROTO_LINE_INFO)
            got_info(b, line);
        if (rc == PROTO_LINE_SKIP || rc == PROTO_LINE_INFO)
            continue;
        if (rc == PROTO_OK && b->version >= 2 && b->o.clock_ms > 0)
            b->left_ms += b->o.inc_ms - (now_ms() - start);
        return rc;
    }
}

void proto_end(proto_bot *b, const char *result_json)
{
    if (!b || b->in_fd < 0)
        return;
    size_t len = strlen(result_json) + 8;
    char *text = malloc(len);
    if (!text)
        return;
    snprintf(text, len, "end %s\n", result_json);
    send_text(b, text, now_ms() + 500);
    free(text);
}
