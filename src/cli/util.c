/* util.c: small helpers of the chartered command line: diagnostics, reading
 * and atomically writing files, the clock, edition names, and reading a move
 * argument ("#N" or notation). Random numbers: ch_rng (chartered.h).
 */
/* realpath() is XSI: _POSIX_C_SOURCE (the build's default) does not declare it */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("warning: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

char *cli_read_file(const char *path)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        cli_error("cannot open '%s': %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    if (!buf) {
        cli_error("reading '%s': out of memory", path);
        if (f != stdin)
            fclose(f);
        return NULL;
    }
    for (;;) {
        if (len + 1 >= cap) {
            if (cap > ((size_t)1 << 30)) {
                cli_error("'%s' is too large (over 1 GiB)", path);
                free(buf);
                if (f != stdin)
                    fclose(f);
                return NULL;
            }
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                cli_error("reading '%s': out of memory", path);
                free(buf);
                if (f != stdin)
                    fclose(f);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, f);
        len += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    int saved = errno;
    if (f != stdin)
        fclose(f);
    if (bad) {
        cli_error("cannot read '%s': %s", path, strerror(saved));
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    if (strlen(buf) != len) {
        cli_error("'%s' is not a text file (it contains a NUL byte)", path);
        free(buf);
        return NULL;
    }
    return buf;
}

/* Write len bytes to fd, through short writes and EINTR. 0, or -1 with errno. */
static int write_all(int fd, const char *p, size_t left)
{
    while (left > 0) {
        ssize_t w = write(fd, p, left);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        left -= (size_t)w;
    }
    return 0;
}

/* Output to something that is not a regular file (a character or block
 * device, a FIFO, a socket): written into it as it is, the way a shell's
 * redirection does. Renaming a temporary file over it would replace the
 * node itself: `chartered new -o /dev/null` run as root used to leave a
 * regular file at /dev/null (issue 28, item 9). A FIFO blocks until a
 * reader opens it. */
static int write_in_place(const char *path, const char *target,
                          const char *text, size_t len)
{
    int fd = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        cli_error("cannot open '%s' for writing: %s", path, strerror(errno));
        return -1;
    }
    if (write_all(fd, text, len) != 0) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (close(fd) != 0) {
        cli_error("cannot close '%s': %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

/* A regular file (or a new one): a temporary file in target's directory,
 * fsync, rename over target, so that target is always either the old text
 * or the new one. path is the name the user gave (for messages); target is
 * path itself or, for a symbolic link, the file it leads to. */
static int replace_atomically(const char *path, const char *target,
                              const char *text, size_t len)
{
    size_t plen = strlen(target);
    char *tmp = malloc(plen + 16);
    if (!tmp) {
        cli_error("writing '%s': out of memory", path);
        return -1;
    }
    memcpy(tmp, target, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", 12);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        cli_error("cannot create a temporary file next to '%s': %s", target,
                  strerror(errno));
        free(tmp);
        return -1;
    }
    struct stat sb;
    mode_t mode = 0644;
    if (stat(target, &sb) == 0)
        mode = sb.st_mode & 07777;
    if (write_all(fd, text, len) != 0) {
        cli_error("cannot write '%s': %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (fchmod(fd, mode) != 0 || fsync(fd) != 0) {
        cli_error("cannot finish writing '%s': %s", tmp, strerror(errno));
        close(fd);
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (close(fd) != 0) {
        cli_error("cannot close '%s': %s", tmp, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    if (rename(tmp, target) != 0) {
        cli_error("cannot replace '%s': %s", target, strerror(errno));
        unlink(tmp);
        free(tmp);
        return -1;
    }
    free(tmp);
    return 0;
}

int cli_write_file_atomic(const char *path, const char *text)
{
    return cli_write_bytes_atomic(path, text, strlen(text));
}

int cli_write_bytes_atomic(const char *path, const void *data, size_t len)
{
    const char *text = data;
    if (strcmp(path, "-") == 0) {
        if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
            cli_error("cannot write standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    struct stat lsb;
    if (lstat(path, &lsb) != 0) {
        if (errno == ENOENT) /* a new file */
            return replace_atomically(path, path, text, len);
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return -1;
    }
    if (S_ISLNK(lsb.st_mode)) {
        /* A symbolic link is followed to the end of its chain, and the
         * file there is written (a link to a game file keeps being a link
         * to the one game file, not a copy). The replace happens on the
         * target's own path, in the target's directory, where a rename is
         * atomic. A dangling link is refused: creating a file wherever it
         * points would let a link planted in a shared directory steer a
         * write, and a dangling link is more often a mistake. */
        char *real = realpath(path, NULL);
        if (!real) {
            if (errno == ENOENT)
                cli_error("'%s' is a symbolic link to a file that does not "
                          "exist; nothing was written (write to the link's "
                          "target, or remove the link)", path);
            else
                cli_error("cannot follow the symbolic link '%s': %s", path,
                          strerror(errno));
            return -1;
        }
        struct stat sb;
        int rc;
        if (stat(real, &sb) != 0) {
            cli_error("cannot follow the symbolic link '%s': %s", path,
                      strerror(errno));
            rc = -1;
        } else if (S_ISDIR(sb.st_mode)) {
            cli_error("cannot write '%s': it leads to the directory '%s'",
                      path, real);
            rc = -1;
        } else if (S_ISREG(sb.st_mode)) {
            rc = replace_atomically(path, real, text, len);
        } else {
            rc = write_in_place(path, real, text, len);
        }
        free(real);
        return rc;
    }
    if (S_ISREG(lsb.st_mode))
        return replace_atomically(path, path, text, len);
    if (S_ISDIR(lsb.st_mode)) {
        cli_error("cannot write '%s': it is a directory", path);
        return -1;
    }
    return write_in_place(path, path, text, len);
}

double cli_cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *const edition_names[] = {"amsterdam", "golden-age"};

int cli_edition_find(const char *name)
{
    for (int i = 0; i < 2; i++)
        if (strcmp(name, edition_names[i]) == 0)
            return i;
    return -1;
}

const char *cli_edition_name(int edition)
{
    if (edition >= 0 && edition < 2)
        return edition_names[edition];
    return "unknown";
}

static const char *const preset_names[] = {"golden-age", "golden-age-first"};

int cli_preset_find(const char *name)
{
    if (strcmp(name, preset_names[0]) == 0)
        return CH_GA_PRINTED;
    if (strcmp(name, preset_names[1]) == 0)
        return CH_GA_FIRST;
    return -1;
}

const char *cli_preset_name(int preset)
{
    if (preset == CH_GA_PRINTED)
        return preset_names[0];
    if (preset == CH_GA_FIRST)
        return preset_names[1];
    return "unknown";
}

int cli_onoff_find(const char *s)
{
    if (strcmp(s, "on") == 0)
        return 1;
    if (strcmp(s, "off") == 0)
        return 0;
    return -1;
}

void cli_decider_text(const ch_state *st, char *buf, size_t n)
{
    unsigned mask = 0;
    ch_decider_kind k = ch_decider(st, &mask);
    const char *ph = ch_phase_name(st->phase);
    if (!ph)
        ph = "?";
    if (k == CH_DEC_TERMINAL) {
        snprintf(buf, n, "the game is over");
        return;
    }
    if (k == CH_DEC_PLAYER || (mask && (mask & (mask - 1)) == 0)) {
        int p = -1;
        for (int i = 0; i < CH_MAX_PLAYERS; i++)
            if (mask & (1u << i)) {
                p = i;
                break;
            }
        snprintf(buf, n, "player %d decides (%s)", p + 1, ph);
        return;
    }
    size_t off = (size_t)snprintf(buf, n, "players");
    int first = 1;
    for (int i = 0; i < CH_MAX_PLAYERS && off < n; i++)
        if (mask & (1u << i)) {
            off += (size_t)snprintf(buf + off, n - off, "%s %d",
                                    first ? "" : ",", i + 1);
            first = 0;
        }
    if (off < n)
        snprintf(buf + off, n - off, " decide at once (%s)", ph);
}

int cli_sole_decider(const ch_state *st)
{
    unsigned mask = 0;
    ch_decider_kind k = ch_decider(st, &mask);
    if (k == CH_DEC_TERMINAL || mask == 0 || (mask & (mask - 1)) != 0)
        return -1;
    for (int i = 0; i < CH_MAX_PLAYERS; i++)
        if (mask & (1u << i))
            return i;
    return -1;
}

int cli_move_read(const ch_state *st, int p, const char *text, ch_move *m,
                  ch_msg *why)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (text[0] == '#') {
        char *end;
        errno = 0;
        long k = strtol(text + 1, &end, 10);
        while (*end == ' ' || *end == '\t')
            end++;
        if (text[1] == '\0' || *end != '\0' || errno == ERANGE || k < 1) {
            snprintf(why->text, sizeof why->text,
                     "'#' must be followed by the number of a legal move "
                     "(1, 2, ...) as listed by 'chartered legal'");
            return CH_ESYNTAX;
        }
        ch_move *buf = NULL;
        int total = chx_legal_alloc(st, p, &buf);
        if (total < 0) {
            snprintf(why->text, sizeof why->text, "out of memory");
            return CH_ENOMEM;
        }
        if (total == 0) {
            snprintf(why->text, sizeof why->text,
                     "player %d has no decision to make now", p + 1);
            return CH_ETURN;
        }
        if (k > total) {
            snprintf(why->text, sizeof why->text,
                     "there are only %d legal moves for player %d", total,
                     p + 1);
            free(buf);
            return CH_EILLEGAL;
        }
        *m = buf[k - 1];
        free(buf);
        return CH_OK;
    }
    return ch_move_parse(st, p, text, m, why);
}

void cli_state_where(size_t off, char *buf, size_t n)
{
#define F(f) {#f, offsetof(ch_state, f)}
    static const struct {
        const char *name;
        size_t off;
    } anchors[] = {F(magic), F(seed), F(card_plot), F(card_level),
                   F(plot_card), F(board_id), F(height), F(owner), F(pflags),
                   F(supply), F(co), F(pl), F(bank_net), F(loc), F(deck),
                   F(market), F(reserve), F(discard), F(look), F(ev_deck),
                   F(ev_open), F(ev_discard), F(phase), F(turn_no),
                   F(ndecisions), F(bid), F(offer), F(rng)};
#undef F
    const char *best = "start";
    size_t bo = 0;
    for (size_t i = 0; i < sizeof anchors / sizeof anchors[0]; i++)
        if (anchors[i].off <= off && anchors[i].off >= bo) {
            best = anchors[i].name;
            bo = anchors[i].off;
        }
    if (off >= sizeof(ch_state))
        snprintf(buf, n, "no byte");
    else if (off == bo)
        snprintf(buf, n, "byte %zu of %zu (ch_state.%s)", off,
                 sizeof(ch_state), best);
    else
        snprintf(buf, n, "byte %zu of %zu (ch_state.%s + %zu)", off,
                 sizeof(ch_state), best, off - bo);
}

size_t cli_state_diff(const ch_state *a, const ch_state *b)
{
    const unsigned char *x = (const void *)a, *y = (const void *)b;
    size_t k = 0;
    while (k < sizeof *a && x[k] == y[k])
        k++;
    return k;
}
