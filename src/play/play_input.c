/* play_input.c: one decision of a person in `chartered play`: the legal
 * moves listed with numbers and in notation in the game's language
 * (notation.c: "verkoop Buskruit"; runs of amounts folded into one
 * line), and the answer read back: a number, the notation (checked by the
 * library, whose reason is shown when it is refused), or part of a move,
 * which narrows the list. Also the commands that work at every prompt: help
 * (the current decision and its rule), rules [SECTION] (the rules of the
 * edition in the game's language, section by section: data/rules/, built
 * into the library), chart, players and log (the stock chart, the players
 * and the whole game in words, on any size of terminal), save FILE, undo,
 * moves (the whole list again) and quit. Bad input never changes the game: a message and the same prompt
 * again.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "play.h"

volatile sig_atomic_t play_interrupted;

int play_readline(play_game *g, char *buf, size_t n)
{
    fflush(g->out);
    if (play_interrupted || !fgets(buf, (int)n, g->in) || play_interrupted) {
        buf[0] = '\0';
        return -1;
    }
    size_t len = strlen(buf);
    int whole = len > 0 && buf[len - 1] == '\n';
    if (!whole && len + 1 == n) {
        /* a line longer than the buffer: drop the rest of it */
        int ch;
        while ((ch = fgetc(g->in)) != EOF && ch != '\n')
            ;
    }
    while (len > 0 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
                       buf[len - 1] == ' ' || buf[len - 1] == '\t'))
        buf[--len] = '\0';
    size_t s = 0;
    while (buf[s] == ' ' || buf[s] == '\t')
        s++;
    memmove(buf, buf + s, len - s + 1);
    /* control characters (stray escape sequences) are not input */
    for (char *c = buf; *c; c++)
        if ((unsigned char)*c < 0x20)
            *c = ' ';
    return 0;
}

int play_wait(play_game *g, const char *key, const char *player)
{
    char buf[64], line[PLAY_LINE];
    fprintf(g->out, "%s ", play_fmt(g, line, sizeof line, key, "player",
                                    player ? player : "", NULL));
    return play_readline(g, buf, sizeof buf) < 0 ? PLAY_EOF : 0;
}

/* ---- paging ---------------------------------------------------------------------- */

int play_page(play_game *g, const char *text)
{
    int page = g->height > 6 ? g->height - 2 : 22;
    char buf[64];
    int n = 0;
    for (const char *line = text ? text : ""; *line;) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
        fwrite(line, 1, len, g->out);
        line += len;
        if (++n % page == 0 && *line) {
            fprintf(g->out, "%s ", chx_msg(g->lang, "rules.more"));
            if (play_readline(g, buf, sizeof buf) < 0 || tolower((unsigned char)buf[0]) == 'q')
                return -1;
            if (!g->plain)
                play_clear(g);
        }
    }
    return 0;
}

/* ---- the rules --------------------------------------------------------------------- */

/* The index of the section the current decision cites (data/rules/cites.txt),
 * or -1. */
static int cited_section(const play_game *g, const chx_rules *R)
{
    char id[32];
    if (chx_rules_cite(g->st.edition, g->st.phase, id, sizeof id))
        return -1;
    return chx_rules_find(R, id);
}

/* The contents: the edition's title, then each section with its number and
 * id (what `rules` takes), the one behind the current decision marked. */
static void rules_contents(play_game *g, const chx_rules *R, chx_buf *b)
{
    int here = cited_section(g, R);
    chx_buf_puts(b, play_sgr(g, "\033[1m"));
    chx_buf_add(b, R->title, R->title_len);
    chx_buf_puts(b, play_sgr(g, "\033[0m"));
    chx_buf_puts(b, "\n\n");
    for (int i = 0; i < R->n; i++) {
        char line[256];
        snprintf(line, sizeof line, "%3d  %.*s (%s)%s\n", i + 1, (int)R->s[i].title_len,
                 R->s[i].title, R->s[i].id, i == here ? chx_msg(g->lang, "rules.here") : "");
        chx_buf_puts(b, line);
    }
}

/* One section: its title, underlined, and its text wrapped at the screen's
 * width. */
static void rules_section(play_game *g, const chx_rules *R, int i, chx_buf *b)
{
    const chx_rules_section *s = &R->s[i];
    char head[160];
    snprintf(head, sizeof head, "%.*s (%d/%d)\n", (int)R->title_len, R->title, i + 1, R->n);
    chx_buf_puts(b, head);
    chx_buf_puts(b, play_sgr(g, "\033[1m"));
    chx_buf_add(b, s->title, s->title_len);
    chx_buf_puts(b, play_sgr(g, "\033[0m"));
    chx_buf_puts(b, "\n");
    size_t w = chx_width_n(s->title, s->title_len);
    for (size_t k = 0; k < w && k < 400; k++)
        chx_buf_puts(b, "=");
    chx_buf_puts(b, "\n\n");
    int width = g->width > 0 ? g->width - 1 : 79;
    chx_rules_render(s->body, s->body_len, width, play_sgr(g, "\033[1m"),
                     play_sgr(g, "\033[0m"), b);
}

void play_rules(play_game *g, const char *what)
{
    chx_rules *R = malloc(sizeof *R);
    char why[256];
    if (!R || chx_rules_load(g->st.edition, g->lang, R, why, sizeof why)) {
        play_fmt(g, g->note, sizeof g->note, "rules.missing", "reason",
                 R ? why : "out of memory", NULL);
        free(R);
        return;
    }
    int cur = -1; /* -1: the contents */
    while (what && *what == ' ')
        what++;
    if (what && *what) {
        cur = chx_rules_find(R, what);
        if (cur < 0) {
            play_fmt(g, g->note, sizeof g->note, "rules.unknown", "answer", what, NULL);
            free(R);
            return;
        }
    }
    char note[PLAY_LINE] = "";
    for (;;) {
        chx_buf b = {0};
        if (cur < 0)
            rules_contents(g, R, &b);
        else
            rules_section(g, R, cur, &b);
        play_clear(g);
        int quit = play_page(g, b.s);
        free(b.s);
        if (quit)
            break;
        if (note[0]) {
            fprintf(g->out, "%s%s%s\n", play_sgr(g, "\033[1;31m"), note,
                    play_sgr(g, "\033[0m"));
            note[0] = '\0';
        }
        char ans[PLAY_LINE];
        fprintf(g->out, "\n%s ", chx_msg(g->lang, cur < 0 ? "rules.prompt_contents"
                                                          : "rules.prompt_section"));
        if (play_readline(g, ans, sizeof ans) < 0 || !ans[0] || !strcasecmp(ans, "q"))
            break;
        if (cur >= 0 && !strcasecmp(ans, "n")) {
            cur = cur + 1 < R->n ? cur + 1 : -1;
        } else if (cur >= 0 && !strcasecmp(ans, "p")) {
            cur = cur - 1;
        } else if (!strcasecmp(ans, "c")) {
            cur = -1;
        } else {
            const char *a = ans;
            if (!strncasecmp(a, "rules ", 6))
                a += 6; /* "rules trade", as the help says it */
            int k = chx_rules_find(R, a);
            if (k >= 0)
                cur = k;
            else
                play_fmt(g, note, sizeof note, "rules.unknown", "answer", ans, NULL);
        }
    }
    free(R);
}

/* ---- the list of moves ---------------------------------------------------------------- */

/* Each legal move with its notation in the game's language (shown, and
 * matched when the player types part of a move) and in English (matched
 * too: the notation of the docs works in every language). */
typedef struct movelist {
    ch_move *mv;
    char (*text)[128];
    char (*en)[128];
    int n;
} movelist;

static int list_load(const play_game *g, int p, movelist *L)
{
    L->mv = NULL;
    L->text = NULL;
    L->en = NULL;
    L->n = chx_legal_alloc(&g->st, p, &L->mv);
    if (L->n <= 0)
        return L->n;
    L->text = malloc((size_t)L->n * sizeof *L->text);
    L->en = malloc((size_t)L->n * sizeof *L->en);
    if (!L->text || !L->en) {
        free(L->mv);
        free(L->text);
        free(L->en);
        L->mv = NULL;
        L->text = L->en = NULL;
        return -1;
    }
    for (int i = 0; i < L->n; i++) {
        if (ch_move_str(&g->st, L->mv[i], L->en[i], sizeof L->en[i]) <= 0)
            snprintf(L->en[i], sizeof L->en[i], "?");
        if (chx_move_text(g->lang, &g->st, L->mv[i], L->text[i], sizeof L->text[i]) <= 0)
            snprintf(L->text[i], sizeof L->text[i], "%s", L->en[i]);
    }
    return L->n;
}

static void list_free(movelist *L)
{
    free(L->mv);
    free(L->text);
    free(L->en);
}

static int matches_in(const char *text, const char *filter)
{
    if (!filter[0])
        return 1;
    size_t fl = strlen(filter);
    for (const char *s = text; *s; s++)
        if (strncasecmp(s, filter, fl) == 0)
            return 1;
    return 0;
}

/* Move i of L contains filter, in the game's language or in English. */
static int matches(const movelist *L, int i, const char *filter)
{
    return matches_in(L->text[i], filter) || matches_in(L->en[i], filter);
}

static int trailing_amount(const char *t, long *val, size_t *plen)
{
    const char *sp = strrchr(t, ' ');
    if (!sp || sp[1] != 'f' || !isdigit((unsigned char)sp[2]))
        return 0;
    char *end;
    *val = strtol(sp + 2, &end, 10);
    if (*end)
        return 0;
    *plen = (size_t)(sp - t);
    return 1;
}

/* Print the moves matching filter in columns; returns how many match and
 * the index of the last match in *only. */
static int list_print(play_game *g, const movelist *L, const char *filter, int *only,
                      int dry)
{
    char (*entry)[200] = malloc((size_t)(L->n ? L->n : 1) * sizeof *entry);
    if (!entry)
        return 0;
    int ne = 0, nmatch = 0;
    size_t maxw = 0;
    for (int i = 0; i < L->n;) {
        if (!matches(L, i, filter)) {
            i++;
            continue;
        }
        long v0, v;
        size_t pl0, pl;
        int j = i + 1;
        if (trailing_amount(L->text[i], &v0, &pl0))
            while (j < L->n && trailing_amount(L->text[j], &v, &pl) && pl == pl0 &&
                   !strncmp(L->text[j], L->text[i], pl) && v == v0 + (j - i) &&
                   matches(L, j, filter))
                j++;
        if (j - i >= 3) {
            snprintf(entry[ne], sizeof entry[ne], "%3d-%d  %.*s f%ld..f%ld", i + 1,
                     j, (int)pl0, L->text[i], v0, v0 + (j - i - 1));
            nmatch += j - i;
            *only = i;
            i = j;
        } else {
            snprintf(entry[ne], sizeof entry[ne], "%3d  %s", i + 1, L->text[i]);
            nmatch++;
            *only = i;
            i++;
        }
        size_t w = chx_width(entry[ne]);
        if (w > maxw)
            maxw = w;
        ne++;
    }
    int colw = (int)maxw + 3;
    int cols = g->width / (colw > 0 ? colw : 1);
    if (cols < 1)
        cols = 1;
    int rows = (ne + cols - 1) / cols;
    /* 14 rows, or what the compact layout of a short terminal leaves */
    int maxrows = g->list_max > 0 ? g->list_max : 14;
    if (rows > maxrows) {
        rows = maxrows;
    }
    if (dry) {
        free(entry);
        return rows + (rows * cols < ne);
    }
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            int k = c * rows + r;
            if (k >= ne)
                break;
            int last = c == cols - 1 || (c + 1) * rows + r >= ne;
            fputs(entry[k], g->out);
            for (size_t w = chx_width(entry[k]); !last && w < (size_t)colw; w++)
                fputc(' ', g->out);
        }
        fputc('\n', g->out);
    }
    if (rows * cols < ne) {
        char num[16], buf[256];
        snprintf(num, sizeof num, "%d", ne - rows * cols);
        fprintf(g->out, "%s\n", play_fmt(g, buf, sizeof buf, "prompt.more_moves",
                                         "n", num, NULL));
    }
    free(entry);
    return nmatch;
}

/* ---- help ---------------------------------------------------------------------------------- */

static void show_help(play_game *g)
{
    const ch_state *st = &g->st;
    const char *ph = ch_phase_name(st->phase);
    char key[64];
    const char *text = NULL;
    if (st->edition == CH_ED_GOLDEN_AGE) {
        snprintf(key, sizeof key, "help.ga.%s", ph ? ph : "?");
        text = chx_msg(g->lang, key);
        if (!strcmp(text, key))
            text = NULL;
    }
    if (!text) {
        snprintf(key, sizeof key, "help.%s", ph ? ph : "?");
        text = chx_msg(g->lang, key);
    }
    if (!g->plain)
        play_clear(g);
    /* wrapped between words at the screen's width (not by the terminal) */
    chx_buf b = {0};
    chx_wrap(text, g->width > 0 ? g->width - 1 : 79, &b);
    /* the command that opens the section the help cites */
    char id[32], line[PLAY_LINE];
    if (chx_rules_cite(st->edition, st->phase, id, sizeof id) == 0) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "rules %s", id);
        chx_wrap(play_fmt(g, line, sizeof line, "help.read_rules", "command", cmd, NULL),
                 g->width > 0 ? g->width - 1 : 79, &b);
    }
    chx_buf_puts(&b, "\n");
    chx_wrap(chx_msg(g->lang, "help.commands"), g->width > 0 ? g->width - 1 : 79, &b);
    fprintf(g->out, "\n%s\n", b.s ? b.s : "");
    free(b.s);
}

/* ---- the decision ------------------------------------------------------------------------- */

static const char *head_text(play_game *g, int p, char *buf, size_t n)
{
    const char *ph = ch_phase_name(g->st.phase);
    char key[64];
    /* The Golden Age's own words where its decision differs */
    snprintf(key, sizeof key, "phase.ga.%s", ph ? ph : "?");
    if (g->st.edition != CH_ED_GOLDEN_AGE || !strcmp(chx_msg(g->lang, key), key))
        snprintf(key, sizeof key, "phase.%s", ph ? ph : "?");
    return play_fmt(g, buf, n, "prompt.decide", "player", play_name(g, p), "phase",
                    chx_msg(g->lang, key), NULL);
}

static void decision_head(play_game *g, int p)
{
    char buf[PLAY_LINE];
    fprintf(g->out, "%s%s%s\n", play_sgr(g, "\033[1m"), head_text(g, p, buf, sizeof buf),
            play_sgr(g, "\033[0m"));
}

/* Rows a text takes on the terminal (a long one wraps). */
static int rows_of(const play_game *g, const char *t)
{
    size_t w = chx_width(t);
    return w == 0 ? 1 : (int)((w + (size_t)g->width - 1) / (size_t)g->width);
}

void play_decision_print(play_game *g, int p)
{
    movelist L;
    if (list_load(g, p, &L) > 0) {
        int only = -1;
        decision_head(g, p);
        list_print(g, &L, "", &only, 0);
    }
    list_free(&L);
}

static int all_digits(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

int play_show(play_game *g, int viewer, const char *line)
{
    if (strcasecmp(line, "chart") && strcasecmp(line, "players") && strcasecmp(line, "log") &&
        strncasecmp(line, "log ", 4))
        return 0;
    /* what the compact layout may leave out, whole */
    chx_buf b = {0};
    char buf[PLAY_LINE];
    int bad = 0;
    if (!strcasecmp(line, "chart")) {
        play_chart_text(g, &b);
    } else if (!strcasecmp(line, "players")) {
        play_players_text(g, viewer, &b);
    } else {
        const char *n = line + 3;
        while (*n == ' ')
            n++;
        long last = 0;
        if (*n && (!all_digits(n) || strlen(n) > 6 || (last = strtol(n, NULL, 10)) < 1))
            bad = 1;
        char num[16];
        snprintf(num, sizeof num, "%d", g->nmoves);
        if (!bad) {
            chx_buf_puts(&b, play_sgr(g, "\033[1m"));
            chx_buf_puts(&b, play_fmt(g, buf, sizeof buf, "screen.log_all", "n", num, NULL));
            chx_buf_puts(&b, play_sgr(g, "\033[0m"));
            chx_buf_puts(&b, "\n");
            if (play_log_text(g, viewer, (int)last, &b))
                bad = 1;
        }
    }
    if (bad) {
        free(b.s);
        play_fmt(g, g->note, sizeof g->note, "error.log_count", "answer", line, NULL);
        return -1;
    }
    play_clear(g);
    int quit = play_page(g, b.s);
    free(b.s);
    if (!quit)
        play_wait(g, "prompt.enter", NULL);
    return 1;
}

/* Would one of the listed moves end seat p's part and hand the game to the
 * bots, with no other person at the table? Then the screen says, before the
 * bots move, that undo stops at the first thing they reveal (play_undo
 * refuses to go back past it, docs/play.md "Undo"). */
static int bots_next(const play_game *g, int p, const movelist *L)
{
    for (int q = 0; q < g->set.nplayers; q++)
        if (q != p && g->seat[q].human)
            return 0;
    ch_state *w = malloc(sizeof *w);
    if (!w)
        return 0;
    int yes = 0;
    for (int i = 0; i < L->n && !yes; i++) {
        ch_msg why;
        *w = g->st;
        if (ch_apply(w, p, L->mv[i], &why) != CH_OK)
            continue;
        unsigned mask = 0;
        yes = ch_decider(w, &mask) != CH_DEC_TERMINAL && !(mask & (1u << p)) && mask != 0;
    }
    free(w);
    return yes;
}

int play_ask(play_game *g, int p, ch_move *m)
{
    char filter[PLAY_LINE] = "", line[PLAY_LINE], buf[PLAY_LINE * 2];
    int redraw = 1;
    for (;;) {
        movelist L;
        if (list_load(g, p, &L) <= 0) {
            list_free(&L);
            return PLAY_QUIT;
        }
        if (!g->plain)
            redraw = 1; /* a full screen: the note or the narrowed list on top */
        const char *notice = bots_next(g, p, &L) ? chx_msg(g->lang, "undo.bots_next") : NULL;
        if (redraw) {
            int only = -1;
            /* below the screen: head, list, matches, note and prompt (a
             * long one wraps on the terminal) */
            char head[PLAY_LINE], prompt[PLAY_LINE];
            g->list_max = 0;
            g->list_need = list_print(g, &L, filter, &only, 1);
            g->reserve = rows_of(g, head_text(g, p, head, sizeof head)) +
                         (filter[0] ? 1 : 0) + (g->note[0] ? rows_of(g, g->note) : 0) +
                         (notice ? rows_of(g, notice) : 0) +
                         rows_of(g, play_fmt(g, prompt, sizeof prompt, "prompt.input",
                                             "player", play_name(g, p), NULL));
            play_clear(g);
            play_screen(g, p);
            g->reserve = g->list_need = 0;
        }
        if (redraw || filter[0]) {
            decision_head(g, p);
            int only = -1;
            int nm = list_print(g, &L, filter, &only, 0);
            if (filter[0]) {
                char num[16];
                snprintf(num, sizeof num, "%d", nm);
                fprintf(g->out, "%s\n",
                        play_fmt(g, buf, sizeof buf,
                                 nm == 1 ? "prompt.one_match" : "prompt.matches",
                                 "n", num, "filter", filter, "move",
                                 only >= 0 ? L.text[only] : "", NULL));
            }
        }
        redraw = 0;
        if (notice)
            fprintf(g->out, "%s%s%s\n", play_sgr(g, "\033[33m"), notice,
                    play_sgr(g, "\033[0m"));
        if (g->note[0]) {
            fprintf(g->out, "%s%s%s\n", play_sgr(g, "\033[1;31m"), g->note,
                    play_sgr(g, "\033[0m"));
            g->note[0] = '\0';
        }
        fprintf(g->out, "%s ", play_fmt(g, buf, sizeof buf, "prompt.input",
                                        "player", play_name(g, p), NULL));
        if (play_readline(g, line, sizeof line) < 0) {
            list_free(&L);
            return PLAY_EOF;
        }
        /* a unique match of the filter: Enter plays it */
        if (!line[0]) {
            int count = 0, idx = -1;
            for (int i = 0; filter[0] && i < L.n; i++)
                if (matches(&L, i, filter)) {
                    count++;
                    idx = i;
                }
            if (count == 1) {
                *m = L.mv[idx];
                list_free(&L);
                return PLAY_MOVE;
            }
            filter[0] = '\0';
            redraw = 1;
            list_free(&L);
            continue;
        }
        if (all_digits(line)) {
            long k = strtol(line, NULL, 10);
            if (strlen(line) < 7 && k >= 1 && k <= L.n) {
                *m = L.mv[k - 1];
                list_free(&L);
                return PLAY_MOVE;
            }
            char num[16];
            snprintf(num, sizeof num, "%d", L.n);
            play_fmt(g, g->note, sizeof g->note, "error.number", "answer", line,
                     "n", num, NULL);
            list_free(&L);
            continue;
        }
        if (!strcasecmp(line, "help") || !strcmp(line, "?")) {
            show_help(g);
            play_wait(g, "prompt.enter", NULL);
            redraw = 1;
            list_free(&L);
            continue;
        }
        if (!strcasecmp(line, "rules") || !strncasecmp(line, "rules ", 6)) {
            play_rules(g, line + 5);
            redraw = 1;
            list_free(&L);
            continue;
        }
        int shown = play_show(g, p, line);
        if (shown) {
            list_free(&L);
            redraw = shown > 0;
            continue;
        }
        if (!strcasecmp(line, "moves") || !strcasecmp(line, "list")) {
            filter[0] = '\0';
            redraw = 1;
            list_free(&L);
            continue;
        }
        if (!strcasecmp(line, "quit") || !strcasecmp(line, "exit")) {
            list_free(&L);
            return PLAY_QUIT;
        }
        if (!strcasecmp(line, "undo")) {
            const char *why = NULL;
            list_free(&L);
            if (play_undo(g, p, &why) == 0)
                return PLAY_UNDO_DONE;
            snprintf(g->note, sizeof g->note, "%s", chx_msg(g->lang, why));
            continue;
        }
        if (!strncasecmp(line, "save", 4) && (line[4] == ' ' || line[4] == '\0')) {
            const char *file = line + 4;
            while (*file == ' ')
                file++;
            char why[256];
            if (!*file) {
                play_fmt(g, g->note, sizeof g->note, "error.save_needs_file", NULL);
            } else if (play_save(g, file, why, sizeof why) == 0) {
                play_fmt(g, g->note, sizeof g->note, "note.saved", "file", file, NULL);
            } else {
                play_fmt(g, g->note, sizeof g->note, "error.save_failed", "file", file,
                         "reason", why, NULL);
            }
            list_free(&L);
            continue;
        }
        /* notation first: a whole move, in English or the game's language */
        ch_msg why = {{0}};
        ch_move mv;
        int rc = chx_move_read(g->lang, &g->st, p, line, &mv, &why);
        if (rc == CH_OK) {
            ch_msg reason = {{0}};
            rc = ch_check(&g->st, p, mv, &reason);
            list_free(&L);
            if (rc == CH_OK) {
                *m = mv;
                return PLAY_MOVE;
            }
            /* the engine's reason in the player's language */
            char words[PLAY_LINE];
            chx_reason(g->lang, &reason, words, sizeof words);
            play_fmt(g, g->note, sizeof g->note, "error.illegal", "move", line,
                     "reason", words[0] ? words : ch_strerror(rc), NULL);
            continue;
        }
        /* part of a move: narrow the list */
        int count = 0;
        for (int i = 0; i < L.n; i++)
            count += matches(&L, i, line);
        list_free(&L);
        if (count > 0) {
            snprintf(filter, sizeof filter, "%s", line);
            if (!g->plain) {
                redraw = 1;
            }
            continue;
        }
        char words[PLAY_LINE];
        chx_reason(g->lang, &why, words, sizeof words);
        play_fmt(g, g->note, sizeof g->note, "error.not_a_move", "answer", line,
                 "reason", words, NULL);
    }
}
