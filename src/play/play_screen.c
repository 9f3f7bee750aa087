/* play_screen.c: the screen of `chartered play` as one seat may see it: the
 * board (districts, canals, bridges; each warehouse's company by letter and
 * colour, its height, HQs, broken roofs, placeholders, free warehouses), the
 * stock chart with the event lines, every player (cash, stocks where the
 * viewer may see them, action cards, roofs, flags, hand size), the viewer's
 * hand, the open market and stock events, the state of a bid, auction or
 * offer, and the last moves in words. 80 columns suffice; on a wide terminal
 * the board and the tables stand side by side; on a short one (80x24) the
 * compact layout keeps the board and the prompt on the screen and shows as
 * much of the rest as fits, in short forms. The board grid follows the
 * drawing positions of ch_board (docs/formats.md) like render.c's grid, with
 * water and bridges drawn between cells. What a seat may see comes from the
 * library (ch_view_to_json for offers and bids); nothing here is a rule.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "play.h"

/* ---- text helpers ------------------------------------------------------------ */

const char *play_fmt(const play_game *g, char *buf, size_t n, const char *key,
                     ...)
{
    va_list ap;
    va_start(ap, key);
    chx_vformat(g->lang, buf, n, key, ap);
    va_end(ap);
    return buf;
}

void play_say(play_game *g, const char *key)
{
    fprintf(g->out, "%s\n", chx_msg(g->lang, key));
}

const char *play_sgr(const play_game *g, const char *code)
{
    if (!g->color)
        return "";
    return code;
}

#define SGR_RESET "\033[0m"
#define SGR_BOLD "\033[1m"
#define SGR_DIM "\033[2m"
#define SGR_WATER "\033[34m"
#define SGR_BRIDGE "\033[33m"

static const char *const company_sgr[CH_MAX_COMPANIES] = {
    "\033[1;31m", "\033[1;32m", "\033[1;33m", "\033[1;34m", "\033[1;35m",
    "\033[1;36m", "\033[1;91m", "\033[1;92m", "\033[1;94m"};

void play_clear(play_game *g)
{
    struct winsize ws;
    /* the terminal may have been resized since the last screen */
    if (g->auto_size && ioctl(fileno(g->out), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 40) {
        g->width = ws.ws_col > 400 ? 400 : ws.ws_col;
        g->height = ws.ws_row;
    }
    if (g->plain)
        fprintf(g->out, "\n%s\n", "----------------------------------------");
    else
        fprintf(g->out, "\033[H\033[2J\033[3J");
}

/* ---- lines ------------------------------------------------------------------------ */

typedef struct lines {
    char **l;
    int n, cap;
} lines;

static void add(lines *L, const char *fmt, ...) CLI_PRINTF(2, 3);
static void add(lines *L, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (L->n == L->cap) {
        int nc = L->cap ? L->cap * 2 : 32;
        char **nl = realloc(L->l, (size_t)nc * sizeof *nl);
        if (!nl)
            return;
        L->l = nl;
        L->cap = nc;
    }
    L->l[L->n] = strdup(buf);
    if (L->l[L->n])
        L->n++;
}

static void lines_free(lines *L)
{
    for (int i = 0; i < L->n; i++)
        free(L->l[i]);
    free(L->l);
    L->l = NULL;
    L->n = L->cap = 0;
}

static size_t lines_width(const lines *L)
{
    size_t w = 0;
    for (int i = 0; i < L->n; i++) {
        size_t x = chx_width(L->l[i]);
        if (x > w)
            w = x;
    }
    return w;
}

/* Print a line cut to the screen width (at a character boundary). */
static void put_line(play_game *g, const char *s, size_t pad_to)
{
    size_t cut = chx_cut(s, (size_t)g->width);
    fwrite(s, 1, cut, g->out);
    if (cut < strlen(s) && g->color)
        fputs(SGR_RESET, g->out);
    if (pad_to) {
        size_t w = chx_width_n(s, cut);
        for (; w < pad_to; w++)
            fputc(' ', g->out);
    }
}

/* Append words to a line, wrapping at the screen width with an indent. */
static void add_wrapped(lines *L, int width, const char *head, const char *const *items,
                        int nitems, const char *indent)
{
    char line[2048];
    snprintf(line, sizeof line, "%s", head);
    size_t w = chx_width(line);
    for (int i = 0; i < nitems; i++) {
        const char *sep = i ? ", " : " ";
        size_t iw = chx_width(items[i]) + 2;
        if (w + iw > (size_t)width && i > 0) {
            strncat(line, ",", sizeof line - strlen(line) - 1);
            add(L, "%s", line);
            snprintf(line, sizeof line, "%s%s", indent, items[i]);
            w = chx_width(line);
            continue;
        }
        strncat(line, sep, sizeof line - strlen(line) - 1);
        strncat(line, items[i], sizeof line - strlen(line) - 1);
        w += iw;
    }
    add(L, "%s", line);
}

/* A text as lines of at most width columns, broken at spaces. */
static void add_text(lines *L, int width, const char *t, const char *first,
                     const char *rest)
{
    int isfirst = 1;
    while (*t) {
        const char *ind = isfirst ? first : rest;
        size_t room = (size_t)width > chx_width(ind) + 10 ? (size_t)width - chx_width(ind) : 10;
        size_t cut = chx_cut(t, room);
        if (cut < strlen(t)) {
            size_t sp = cut;
            while (sp > 0 && t[sp] != ' ')
                sp--;
            if (sp > cut / 2)
                cut = sp;
        }
        if (cut == 0)
            cut = strlen(t);
        add(L, "%s%.*s", ind, (int)cut, t);
        t += cut;
        while (*t == ' ')
            t++;
        isfirst = 0;
    }
}

static int has_card(const uint64_t set[2], int c)
{
    return (int)((set[c >> 6] >> (c & 63)) & 1u);
}

/* ---- the board ---------------------------------------------------------------------- */

#define CELL 4

static int plot_at[128][128];

static int adjacent(const ch_board *b, int p, int q, int *bridge)
{
    for (int i = 0; i < b->deg[p]; i++)
        if (b->adj[p][i] == q) {
            if (bridge)
                *bridge = (b->bridge[p] >> i) & 1;
            return 1;
        }
    return 0;
}

static void cell_text(const play_game *g, int plot, char *out, size_t n)
{
    const ch_state *st = &g->st;
    char content[8];
    size_t k = 0;
    int h = st->height[plot];
    uint8_t fl = st->pflags[plot];
    if (h == 0 && st->owner[plot] == CH_NONE && !fl) {
        /* an empty plot shows its label after a dot, lower case, so that
         * it never reads as a company letter and height ("C1") */
        char lab[4];
        size_t i = 0;
        for (; i < 3 && ch_state_board(st)->plot_label[plot][i]; i++)
            lab[i] = (char)tolower((unsigned char)ch_state_board(st)->plot_label[plot][i]);
        lab[i] = '\0';
        snprintf(content, sizeof content, ".%s", lab);
        snprintf(out, n, "%s%-*s%s", play_sgr(g, SGR_DIM), CELL, content,
                 play_sgr(g, SGR_RESET));
        return;
    }
    content[k++] = st->owner[plot] != CH_NONE ? (char)('A' + st->owner[plot]) : '*';
    if (h > 0 && h < 10)
        content[k++] = (char)('0' + h);
    if ((fl & CH_PF_HQ) && k < 4)
        content[k++] = 'h';
    if ((fl & CH_PF_ROOF) && k < 4)
        content[k++] = 'r';
    if ((fl & CH_PF_UPSIDE) && k < 4)
        content[k++] = 'u';
    if ((fl & CH_PF_FREE) && k < 4)
        content[k++] = 'f';
    content[k] = '\0';
    const char *sgr = st->owner[plot] != CH_NONE && st->owner[plot] < CH_MAX_COMPANIES
                          ? company_sgr[st->owner[plot]]
                          : SGR_BOLD;
    snprintf(out, n, "%s%-*s%s", play_sgr(g, sgr), CELL, content,
             play_sgr(g, SGR_RESET));
}

/* The board grid: every plot of district d (all plots when d < 0) at its
 * drawing position (shifted to the district's corner for one district),
 * with water and bridges between the cells. */
static void grid_lines(const play_game *g, lines *L, int d)
{
    const ch_board *b = ch_state_board(&g->st);
    int maxx = 0, maxy = 0, minx = 127, miny = 127;
    for (int x = 0; x < 128; x++)
        for (int y = 0; y < 128; y++)
            plot_at[x][y] = -1;
    for (int p = 0; p < b->nplots; p++)
        if ((d < 0 || b->plot_district[p] == d) && b->gx[p] >= 0 && b->gy[p] >= 0) {
            if (b->gx[p] < minx)
                minx = b->gx[p];
            if (b->gy[p] < miny)
                miny = b->gy[p];
        }
    if (d < 0)
        minx = miny = 0;
    int colfull[128] = {0}, rowfull[128] = {0};
    for (int p = 0; p < b->nplots; p++) {
        if (b->gx[p] < 0 || b->gy[p] < 0 || (d >= 0 && b->plot_district[p] != d))
            continue;
        int x = b->gx[p] - minx, y = b->gy[p] - miny;
        plot_at[x][y] = p;
        colfull[x] = rowfull[y] = 1;
        if (x > maxx)
            maxx = x;
        if (y > maxy)
            maxy = y;
    }
    char line[4096], cell[64];
    const char *water = "~";
    /* district names over their top-left cells */
    for (int y = 0; y <= maxy; y++) {
        /* district names on the first row of each district, in the
         * player's language (chx_place), placed by display column */
        int at_col[CH_MAX_DISTRICTS], which[CH_MAX_DISTRICTS], k = 0;
        for (int dd = 0; d < 0 && dd < b->ndistricts && k < CH_MAX_DISTRICTS; dd++) {
            int dx = 127, dy = 127;
            for (int p = 0; p < b->nplots; p++)
                if (b->plot_district[p] == dd) {
                    if (b->gx[p] < dx) dx = b->gx[p];
                    if (b->gy[p] < dy) dy = b->gy[p];
                }
            if (dy != y || b->ndistricts < 2)
                continue;
            int i = k++;
            while (i > 0 && at_col[i - 1] > dx * (CELL + 1) + 1) {
                at_col[i] = at_col[i - 1];
                which[i] = which[i - 1];
                i--;
            }
            at_col[i] = dx * (CELL + 1) + 1;
            which[i] = dd;
        }
        if (k > 0) {
            char names[1024] = "";
            size_t cols = 0;
            for (int i = 0; i < k; i++) {
                char nm[64];
                chx_place(g->lang, b->district[which[i]], nm, sizeof nm);
                while (cols < (size_t)at_col[i] && strlen(names) + 1 < sizeof names) {
                    strcat(names, " ");
                    cols++;
                }
                if (strlen(names) + strlen(nm) + 1 < sizeof names) {
                    strcat(names, nm);
                    cols += chx_width(nm) + 1;
                    strcat(names, " ");
                }
            }
            size_t nl = strlen(names);
            while (nl > 0 && names[nl - 1] == ' ')
                names[--nl] = '\0';
            add(L, "%s%s%s", play_sgr(g, SGR_BOLD), names, play_sgr(g, SGR_RESET));
        }
        if (!rowfull[y]) {
            /* a canal between grid rows: water, with the bridges across */
            line[0] = '\0';
            for (int x = 0; x <= maxx; x++) {
                int up = y > 0 ? plot_at[x][y - 1] : -1;
                int dn = y < maxy ? plot_at[x][y + 1] : -1;
                int br = 0;
                const char *seg;
                if (up >= 0 && dn >= 0 && adjacent(b, up, dn, &br))
                    seg = " || ";
                else if (up >= 0 || dn >= 0)
                    seg = "~~~~";
                else
                    seg = "    ";
                snprintf(cell, sizeof cell, "%s%s%s%s", play_sgr(g, SGR_WATER),
                         up >= 0 || dn >= 0 ? water : " ", seg,
                         play_sgr(g, SGR_RESET));
                if (up >= 0 && dn >= 0 && adjacent(b, up, dn, &br))
                    snprintf(cell, sizeof cell, "%s~%s ||%s~%s",
                             play_sgr(g, SGR_WATER), play_sgr(g, SGR_BRIDGE),
                             play_sgr(g, SGR_WATER), play_sgr(g, SGR_RESET));
                strncat(line, cell, sizeof line - strlen(line) - 1);
            }
            add(L, "%s", line);
            continue;
        }
        line[0] = '\0';
        for (int x = 0; x <= maxx; x++) {
            int p = plot_at[x][y];
            int left = x > 0 ? plot_at[x - 1][y] : -1;
            /* the separator before this cell */
            const char *sep = " ";
            int br = 0;
            if (p >= 0 && left >= 0)
                sep = adjacent(b, p, left, &br) ? (br ? "=" : " ") : "|";
            else if (!colfull[x] || (x > 0 && !colfull[x - 1]))
                sep = " ";
            if (p < 0 && !colfull[x]) {
                /* a canal between grid columns */
                int l2 = x > 0 ? plot_at[x - 1][y] : -1;
                int r2 = x < maxx ? plot_at[x + 1][y] : -1;
                if (l2 >= 0 && r2 >= 0 && adjacent(b, l2, r2, &br))
                    snprintf(cell, sizeof cell, "%s=====%s", play_sgr(g, SGR_BRIDGE),
                             play_sgr(g, SGR_RESET));
                else
                    snprintf(cell, sizeof cell, "%s~~~~~%s", play_sgr(g, SGR_WATER),
                             play_sgr(g, SGR_RESET));
                strncat(line, cell, sizeof line - strlen(line) - 1);
                continue;
            }
            if (!strcmp(sep, "|"))
                snprintf(cell, sizeof cell, "%s|%s", play_sgr(g, SGR_WATER),
                         play_sgr(g, SGR_RESET));
            else if (!strcmp(sep, "="))
                snprintf(cell, sizeof cell, "%s=%s", play_sgr(g, SGR_BRIDGE),
                         play_sgr(g, SGR_RESET));
            else
                snprintf(cell, sizeof cell, "%s", sep);
            strncat(line, cell, sizeof line - strlen(line) - 1);
            if (p >= 0)
                cell_text(g, p, cell, sizeof cell);
            else
                snprintf(cell, sizeof cell, "%*s", CELL, "");
            strncat(line, cell, sizeof line - strlen(line) - 1);
        }
        size_t ll = strlen(line);
        while (ll && line[ll - 1] == ' ')
            line[--ll] = '\0';
        add(L, "%s", line);
        /* water or bridges between this row and the next within a board */
        if (y < maxy && rowfull[y + 1]) {
            int any = 0, br = 0;
            line[0] = '\0';
            for (int x = 0; x <= maxx; x++) {
                int p = plot_at[x][y], q = plot_at[x][y + 1];
                const char *seg = "     ";
                if (p >= 0 && q >= 0) {
                    if (!adjacent(b, p, q, &br)) {
                        seg = "~~~~~";
                        any = 1;
                    } else if (br) {
                        seg = "  || ";
                        any = 1;
                    }
                } else if (!colfull[x]) {
                    seg = "~~~~~";
                }
                snprintf(cell, sizeof cell, "%s%s%s",
                         play_sgr(g, seg[0] == '~' ? SGR_WATER : SGR_BRIDGE), seg,
                         play_sgr(g, SGR_RESET));
                strncat(line, cell, sizeof line - strlen(line) - 1);
            }
            if (any)
                add(L, "%s", line);
        }
    }
}

/* Append src's lines side by side to dst: column k padded to w[k] columns,
 * two spaces between columns. */
static void add_columns(lines *dst, lines *cols, const size_t *w, int ncols)
{
    int rows = 0;
    for (int k = 0; k < ncols; k++)
        if (cols[k].n > rows)
            rows = cols[k].n;
    for (int r = 0; r < rows; r++) {
        char line[4096] = "";
        size_t len = 0;
        for (int k = 0; k < ncols; k++) {
            const char *t = r < cols[k].n ? cols[k].l[r] : "";
            size_t tw = chx_width(t), tl = strlen(t);
            int last = k == ncols - 1;
            size_t pad = last ? 0 : w[k] + 2 - (tw < w[k] + 2 ? tw : w[k] + 2);
            if (len + tl + pad + 1 >= sizeof line)
                break;
            memcpy(line + len, t, tl);
            len += tl;
            memset(line + len, ' ', pad);
            len += pad;
            line[len] = '\0';
        }
        while (len && line[len - 1] == ' ')
            line[--len] = '\0';
        add(dst, "%s", line);
    }
}

/* The board. pack (the compact layout): when the districts must be drawn
 * one by one, put as many side by side as the width allows, so that the
 * board takes fewer rows. */
static void board_lines(const play_game *g, lines *L, int pack)
{
    const ch_board *b = ch_state_board(&g->st);
    int maxx = 0;
    for (int p = 0; p < b->nplots; p++)
        if (b->gx[p] > maxx)
            maxx = b->gx[p];
    if ((maxx + 1) * (CELL + 1) + 1 <= g->width) {
        grid_lines(g, L, -1);
        return;
    }
    /* too wide for the screen: one district after another (the seams
     * between districts are then not drawn) */
    if (!pack) {
        for (int d = 0; d < b->ndistricts; d++) {
            add(L, "%s%s%s", play_sgr(g, SGR_BOLD), b->district[d],
                play_sgr(g, SGR_RESET));
            grid_lines(g, L, d);
        }
        return;
    }
    lines dl[CH_MAX_DISTRICTS] = {{0}};
    size_t w[CH_MAX_DISTRICTS];
    int nd = b->ndistricts < CH_MAX_DISTRICTS ? b->ndistricts : CH_MAX_DISTRICTS;
    for (int d = 0; d < nd; d++) {
        add(&dl[d], "%s%s%s", play_sgr(g, SGR_BOLD), b->district[d], play_sgr(g, SGR_RESET));
        grid_lines(g, &dl[d], d);
        w[d] = lines_width(&dl[d]);
    }
    for (int d = 0; d < nd;) {
        int k = 1;
        size_t used = w[d];
        while (d + k < nd && used + 2 + w[d + k] <= (size_t)g->width)
            used += 2 + w[d + k++];
        add_columns(L, &dl[d], &w[d], k);
        d += k;
    }
    for (int d = 0; d < nd; d++)
        lines_free(&dl[d]);
}

/* ---- the stock chart ------------------------------------------------------------------ */

static void chart_lines(const play_game *g, lines *L, int width)
{
    const ch_state *st = &g->st;
    char head[256];
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    add(L, "%s%s%s%s", play_sgr(g, SGR_BOLD),
        play_fmt(g, head, sizeof head, "screen.chart", NULL),
        play_sgr(g, SGR_RESET), ga ? "" : chx_msg(g->lang, "screen.chart_lines"));
    int bar = width - 36;
    if (bar > 30)
        bar = 30;
    if (bar < 10)
        bar = 10;
    for (int c = 0; c < st->ncompanies; c++) {
        const ch_company *co = &st->co[c];
        const char *name = chx_company(g->lang, st, c);
        char nm[64];
        size_t cut = chx_cut(name, 11);
        snprintf(nm, sizeof nm, "%.*s", (int)cut, name);
        size_t w = chx_width(nm);
        char pad[16];
        snprintf(pad, sizeof pad, "%*s", (int)(11 - w), "");
        char val[16], bars[256];
        if (co->on_chart)
            snprintf(val, sizeof val, "f%-3d", co->value);
        else
            snprintf(val, sizeof val, "%s", " -  ");
        size_t k = 0;
        int filled = co->on_chart ? (co->value * bar + 150) / 300 : 0;
        for (int i = 1; i <= bar && k + 8 < sizeof bars; i++) {
            int v = i * 300 / bar;
            int line = 0;
            if (!ga)
                for (int e = 100; e <= 300; e += 50)
                    if (v >= e && (i - 1) * 300 / bar < e)
                        line = 1;
            if (line)
                bars[k++] = '|';
            else if (i <= filled)
                bars[k++] = '#';
            else
                bars[k++] = '.';
        }
        bars[k] = '\0';
        char extra[128] = "";
        char num[16];
        snprintf(num, sizeof num, "%u", co->bank);
        play_fmt(g, extra, sizeof extra, "screen.bank", "n", num, NULL);
        if (ga && co->flag && co->flag <= st->nplayers) {
            char fl[96];
            play_fmt(g, fl, sizeof fl, "screen.flag_of", "player",
                     play_name(g, co->flag - 1), NULL);
            strncat(extra, " ", sizeof extra - strlen(extra) - 1);
            strncat(extra, fl, sizeof extra - strlen(extra) - 1);
        }
        add(L, "%s%c%s %s%s %s %s %s", play_sgr(g, company_sgr[c]), 'A' + c,
            play_sgr(g, SGR_RESET), nm, pad, val, bars, extra);
    }
}

/* ---- players --------------------------------------------------------------------------- */

static void player_lines(const play_game *g, lines *L, int viewer, int width)
{
    const ch_state *st = &g->st;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    char buf[512], t[256], num[32], num2[32];
    char sup[160], n1[16], n2[16];
    snprintf(n1, sizeof n1, "%u", st->supply);
    snprintf(n2, sizeof n2, "%u", st->roofs_left);
    play_fmt(g, sup, sizeof sup, ga ? "screen.supply_ga" : "screen.supply", "n", n1,
             "roofs", n2, NULL);
    add(L, "%s%s%s  %s", play_sgr(g, SGR_BOLD), chx_msg(g->lang, "screen.players"),
        play_sgr(g, SGR_RESET), sup);
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        snprintf(buf, sizeof buf, "%s%s%s", p == st->active ? ">" : " ",
                 play_sgr(g, SGR_BOLD), play_name(g, p));
        if (p == viewer)
            strncat(buf, chx_msg(g->lang, "screen.you"), sizeof buf - strlen(buf) - 1);
        strncat(buf, play_sgr(g, SGR_RESET), sizeof buf - strlen(buf) - 1);
        snprintf(num, sizeof num, "f%" PRId32, pl->cash);
        snprintf(t, sizeof t, "  %s", num);
        strncat(buf, t, sizeof buf - strlen(buf) - 1);
        /* stocks: public in Building Amsterdam, private in The Golden Age */
        char stocks[128] = "";
        if (ga && p != viewer) {
            snprintf(stocks, sizeof stocks, "%s", chx_msg(g->lang, "screen.stocks_hidden"));
        } else {
            for (int c = 0; c < st->ncompanies; c++)
                if (pl->stock[c]) {
                    size_t sl0 = strlen(stocks);
                    snprintf(stocks + sl0, sizeof stocks - sl0, "%c%u ", 'A' + c,
                             pl->stock[c]);
                }
            if (!stocks[0])
                snprintf(stocks, sizeof stocks, "%s", chx_msg(g->lang, "screen.no_stocks"));
        }
        size_t sl = strlen(stocks);
        while (sl && stocks[sl - 1] == ' ')
            stocks[--sl] = '\0';
        snprintf(t, sizeof t, "  %s", play_fmt(g, (char[128]){0}, 128,
                                               "screen.stocks", "list", stocks, NULL));
        strncat(buf, t, sizeof buf - strlen(buf) - 1);
        snprintf(num, sizeof num, "%d", ch_hand_count(st, p));
        snprintf(t, sizeof t, "  %s",
                 play_fmt(g, (char[128]){0}, 128, "screen.hand_size", "n", num, NULL));
        strncat(buf, t, sizeof buf - strlen(buf) - 1);
        if (ga) {
            snprintf(num, sizeof num, "%u", pl->flags);
            snprintf(t, sizeof t, "  %s",
                     play_fmt(g, (char[128]){0}, 128, "screen.flags", "n", num, NULL));
        } else {
            snprintf(num, sizeof num, "%u", pl->actions);
            snprintf(num2, sizeof num2, "%u", pl->roofs);
            snprintf(t, sizeof t, "  %s",
                     play_fmt(g, (char[128]){0}, 128, "screen.actions", "n", num,
                              "roofs", num2, NULL));
        }
        strncat(buf, t, sizeof buf - strlen(buf) - 1);
        if (pl->extra_pending || pl->extra_armed) {
            strncat(buf, "  ", sizeof buf - strlen(buf) - 1);
            strncat(buf, chx_msg(g->lang, "screen.extra_turn"), sizeof buf - strlen(buf) - 1);
        }
        if (!g->seat[p].human) {
            char bot[64];
            snprintf(bot, sizeof bot, "  [%s%s%s]", g->seat[p].bot,
                     strcmp(g->seat[p].bot, "ismcts") ? "" : ":",
                     strcmp(g->seat[p].bot, "ismcts") ? ""
                     : (char[4]){(char)('0' + g->seat[p].strength), 0, 0, 0});
            strncat(buf, bot, sizeof buf - strlen(buf) - 1);
        }
        (void)width;
        add(L, "%s", buf);
    }
}

/* ---- cards, events, bids, offers ------------------------------------------------------ */

static json_t *view_json(const play_game *g, int viewer)
{
    char *v = ch_view_to_json(&g->st, viewer);
    if (!v)
        return NULL;
    json_t *root = json_loads(v, 0, NULL);
    ch_free(v);
    return root;
}

static void offer_side(const play_game *g, json_t *side, char *out, size_t n)
{
    char t[128];
    out[0] = '\0';
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(side, "cards"), i, c) {
        snprintf(t, sizeof t, "%s%s", out[0] ? ", " : "", json_string_value(c));
        strncat(out, t, n - strlen(out) - 1);
    }
    json_int_t hidden = json_integer_value(json_object_get(side, "hidden_cards"));
    if (hidden > 0) {
        char num[32];
        snprintf(num, sizeof num, "%lld", (long long)hidden);
        snprintf(t, sizeof t, "%s%s", out[0] ? ", " : "",
                 play_fmt(g, (char[96]){0}, 96, "screen.hidden_cards", "n", num, NULL));
        strncat(out, t, n - strlen(out) - 1);
    }
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(side, "stocks"), key, v) {
        json_int_t k = json_integer_value(v);
        if (k <= 0)
            continue;
        int co = ch_company_find(&g->st, key, NULL);
        snprintf(t, sizeof t, "%s%lld %s", out[0] ? ", " : "", (long long)k,
                 co >= 0 ? chx_company(g->lang, &g->st, co) : key);
        strncat(out, t, n - strlen(out) - 1);
    }
    json_int_t money = json_integer_value(json_object_get(side, "money"));
    if (money > 0) {
        snprintf(t, sizeof t, "%sf%lld", out[0] ? ", " : "", (long long)money);
        strncat(out, t, n - strlen(out) - 1);
    }
    if (!out[0])
        snprintf(out, n, "%s", chx_msg(g->lang, "screen.nothing"));
}

enum { CARDS_HAND = 1, CARDS_OPEN = 2, CARDS_STATE = 4, CARDS_ALL = 7 };
static void open_lines(const play_game *g, lines *L, int width);
static void state_lines(const play_game *g, lines *L, int viewer);

/* The cards: the viewer's hand (CARDS_HAND), the open market and events
 * (CARDS_OPEN), a bid, auction or offer in progress (CARDS_STATE). */
static void card_lines(const play_game *g, lines *L, int viewer, int width, int parts)
{
    const ch_state *st = &g->st;
    char names[CH_MAX_CARDS][48];
    const char *items[CH_MAX_CARDS];
    int k = 0;
    char head[256], num[32];
    if ((parts & CARDS_HAND) && viewer >= 0 && viewer < st->nplayers) {
        for (int c = 0; c < st->ncards; c++)
            if (has_card(st->pl[viewer].hand, c)) {
                chx_card(g->lang, st, c, names[k], sizeof names[k]);
                items[k] = names[k];
                k++;
            }
        snprintf(num, sizeof num, "%d", k);
        play_fmt(g, head, sizeof head, "screen.your_hand", "n", num, NULL);
        add_wrapped(L, width, head, items, k, "  ");
    }
    if (parts & CARDS_OPEN)
        open_lines(g, L, width);
    if (parts & CARDS_STATE)
        state_lines(g, L, viewer);
}

static void open_lines(const play_game *g, lines *L, int width)
{
    const ch_state *st = &g->st;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    char names[CH_MAX_CARDS][48];
    const char *items[CH_MAX_CARDS];
    int k = 0;
    char head[256], num[32];
    for (int i = 0; i < st->market_size && i < CH_MARKET_MAX; i++)
        if (st->market[i] != CH_NONE) {
            chx_card(g->lang, st, st->market[i], names[k], sizeof names[k]);
            items[k] = names[k];
            k++;
        }
    snprintf(num, sizeof num, "%u", st->ndeck);
    /* the printed Golden Age's event backs: whether the top card of the
       closed stack is an event is seen by all (Ruling G-07) */
    int top = ch_deck_top_event(st);
    play_fmt(g, head, sizeof head,
             !ga         ? "screen.market"
             : top == 1  ? "screen.open_cards_event_top"
             : top == 0  ? "screen.open_cards_building_top"
                         : "screen.open_cards",
             "deck", num, NULL);
    add_wrapped(L, width, head, items, k, "  ");
    if (!ga) {
        k = 0;
        for (int i = 0; i < st->nevent_open && i < CH_EVENT_OPEN_MAX; i++)
            if (st->ev_open[i] != CH_NONE) {
                const char *e = ch_event_name(st->ev_open[i]);
                snprintf(names[k], sizeof names[k], "%s", e ? e : "?");
                items[k] = names[k];
                k++;
            }
        snprintf(num, sizeof num, "%u", st->nev_deck);
        play_fmt(g, head, sizeof head, "screen.events", "deck", num, NULL);
        add_wrapped(L, width, head, items, k, "  ");
    } else {
        k = 0;
        for (int i = 0; i < st->ndiscard; i++) {
            int c = st->discard[i];
            if (st->card_event[c] && k < CH_MAX_CARDS) {
                chx_card(g->lang, st, c, names[k], sizeof names[k]);
                items[k] = names[k];
                k++;
            }
        }
        if (st->events_on) {
            play_fmt(g, head, sizeof head, "screen.ga_events", NULL);
            add_wrapped(L, width, head, items, k, "  ");
        }

    }
}

/* Bids, auctions and offers in progress, as the viewer may see them. */
static void state_lines(const play_game *g, lines *L, int viewer)
{
    const ch_state *st = &g->st;
    char num[32];
    json_t *view = NULL;
    if (st->phase == CH_PH_BID || st->phase == CH_PH_AUCTION ||
        st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND)
        view = view_json(g, viewer);
    json_t *ev = json_object_get(view, "event");
    if (st->phase == CH_PH_BID && ev) {
        char buf[512];
        snprintf(buf, sizeof buf, "%s", chx_msg(g->lang, "screen.sealed_bids"));
        json_t *bids = json_object_get(ev, "bids");
        for (int p = 0; p < st->nplayers; p++) {
            if (!(st->bid_mask & (1u << p)))
                continue;
            char t[160];
            json_t *b = json_array_get(bids, (size_t)p);
            int in = (st->bid_in >> p) & 1;
            if (in && json_is_integer(b))
                snprintf(num, sizeof num, "f%lld", (long long)json_integer_value(b));
            play_fmt(g, t, sizeof t,
                     in ? (json_is_integer(b) ? "screen.bid_in_amount" : "screen.bid_in")
                        : "screen.bid_waiting",
                     "player", play_name(g, p), "amount", num, NULL);
            strncat(buf, " ", sizeof buf - strlen(buf) - 1);
            strncat(buf, t, sizeof buf - strlen(buf) - 1);
        }
        add(L, "%s", buf);
    }
    if (st->phase == CH_PH_AUCTION) {
        char buf[256];
        if (st->au_high_bidder != CH_NONE) {
            snprintf(num, sizeof num, "f%" PRId32, st->au_high);
            add(L, "%s", play_fmt(g, buf, sizeof buf, "screen.auction_high",
                                  "player", play_name(g, st->au_high_bidder),
                                  "amount", num, NULL));
        } else {
            add(L, "%s", chx_msg(g->lang, "screen.auction_none"));
        }
    }
    if ((st->phase == CH_PH_OFFER || st->phase == CH_PH_RESPOND) && ev) {
        json_t *off = json_object_get(ev, "offer");
        char give[256], ask[256], buf[700];
        offer_side(g, json_object_get(off, "give"), give, sizeof give);
        offer_side(g, json_object_get(off, "ask"), ask, sizeof ask);
        add(L, "%s", play_fmt(g, buf, sizeof buf, "screen.offer", "player",
                              play_name(g, st->active), "other",
                              play_name(g, st->offer.to), "give", give, "ask",
                              ask, NULL));
    }
    json_decref(view);
}

static void log_lines(const play_game *g, lines *L, int viewer, int max)
{
    if (!g->nlog)
        return;
    add(L, "%s%s%s", play_sgr(g, SGR_BOLD), chx_msg(g->lang, "screen.last_moves"),
        play_sgr(g, SGR_RESET));
    int shown = 0;
    int idx[PLAY_LOG];
    for (int i = g->nlog - 1; i >= 0 && shown < max; i--) {
        int slot = i % PLAY_LOG;
        if (i < g->nlog - PLAY_LOG)
            break;
        idx[shown++] = slot;
    }
    for (int i = shown - 1; i >= 0; i--) {
        int s = idx[i];
        const char *t = g->logp[s] == viewer && g->logown[s][0] ? g->logown[s]
                                                                 : g->log[s];
        /* long lines wrap under themselves rather than being cut */
        add_text(L, g->width, t, "  ", "    ");
    }
}

/* ---- the compact layout ------------------------------------------------------------------ */

/* Items joined by sep after head, wrapped at width with indent. */
static void add_joined(lines *L, int width, const char *head, const char *const *items,
                       int n, const char *sep, const char *indent)
{
    char line[2048];
    snprintf(line, sizeof line, "%s", head);
    for (int i = 0; i < n; i++) {
        const char *s = line[0] && i ? sep : line[0] ? " " : "";
        if (i > 0 && chx_width(line) + chx_width(s) + chx_width(items[i]) > (size_t)width) {
            add(L, "%s", line);
            snprintf(line, sizeof line, "%s%s", indent, items[i]);
            continue;
        }
        strncat(line, s, sizeof line - strlen(line) - 1);
        strncat(line, items[i], sizeof line - strlen(line) - 1);
    }
    add(L, "%s", line);
}

/* The stock chart in a line or two: each company's letter, value and bank
 * stocks ("C f120/7"; "-" off the chart), and in The Golden Age the flag's
 * player ("P2"). */
static void chart_compact(const play_game *g, lines *L)
{
    const ch_state *st = &g->st;
    char it[CH_MAX_COMPANIES][64];
    const char *items[CH_MAX_COMPANIES];
    int n = 0;
    for (int c = 0; c < st->ncompanies && c < CH_MAX_COMPANIES; c++) {
        const ch_company *co = &st->co[c];
        char val[32] = "-", flag[16] = "";
        if (co->on_chart)
            snprintf(val, sizeof val, "f%d/%u", co->value, co->bank);
        if (st->edition == CH_ED_GOLDEN_AGE && co->flag && co->flag <= st->nplayers)
            snprintf(flag, sizeof flag, " P%d", co->flag);
        snprintf(it[n], sizeof it[n], "%s%c%s %s%s", play_sgr(g, company_sgr[c]), 'A' + c,
                 play_sgr(g, SGR_RESET), val, flag);
        items[n] = it[n];
        n++;
    }
    char head[128];
    snprintf(head, sizeof head, "%s%s%s", play_sgr(g, SGR_BOLD),
             chx_msg(g->lang, "screen.chart_compact"), play_sgr(g, SGR_RESET));
    add_joined(L, g->width, head, items, n, "  ", "  ");
}

/* Every player in a line or two: who moves, name, cash, stocks (where the
 * viewer may see them), hand size. */
static void players_compact(const play_game *g, lines *L, int viewer)
{
    const ch_state *st = &g->st;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    char it[CH_MAX_PLAYERS][256];
    const char *items[CH_MAX_PLAYERS];
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        char stocks[128] = "", num[16], hand[64];
        if (ga && p != viewer) {
            char hidden[96];
            snprintf(stocks, sizeof stocks, " %s",
                     play_fmt(g, hidden, sizeof hidden, "screen.stocks", "list",
                              chx_msg(g->lang, "screen.stocks_hidden"), NULL));
        } else {
            for (int c = 0; c < st->ncompanies; c++)
                if (pl->stock[c]) {
                    size_t l = strlen(stocks);
                    snprintf(stocks + l, sizeof stocks - l, " %c%u", 'A' + c, pl->stock[c]);
                }
        }
        snprintf(num, sizeof num, "%d", ch_hand_count(st, p));
        play_fmt(g, hand, sizeof hand, "screen.hand_size", "n", num, NULL);
        snprintf(it[p], sizeof it[p], "%s%s%s%s%s f%" PRId32 "%s %s%s",
                 p == st->active ? ">" : "", play_sgr(g, SGR_BOLD), play_name(g, p),
                 p == viewer ? chx_msg(g->lang, "screen.you") : "", play_sgr(g, SGR_RESET),
                 pl->cash, stocks, hand,
                 pl->extra_pending || pl->extra_armed ? " +1" : "");
        items[p] = it[p];
    }
    add_joined(L, g->width, "", items, st->nplayers, " | ", "");
}

/* Move the lines of src to the end of dst. */
static void lines_move(lines *dst, lines *src)
{
    for (int i = 0; i < src->n; i++)
        add(dst, "%s", src->l[i]);
    lines_free(src);
}

/* The compact layout, for a terminal too short for the usual one: the
 * title, the board (districts side by side when they are drawn one by one),
 * then in this order what fits above the rows the prompt needs: a bid,
 * auction or offer in progress, the viewer's hand, the players, the stock
 * chart, the market and events, the last move. The list of moves gets at
 * least a few rows (g->list_max; the rest is "... N more"). Appends the
 * lines under the title to out. */
static void compact_lines(play_game *g, lines *out, int viewer)
{
    lines board = {0};
    board_lines(g, &board, 1);
    unsigned dmask;
    int below = g->reserve + (ch_decider(&g->st, &dmask) == CH_DEC_TERMINAL
                                  ? 2 + g->st.nplayers /* the final scores */
                                  : 0);
    int room = g->height - 1 - board.n - below; /* for the list and the rest */
    int list_min = g->list_need < 4 ? g->list_need : 4;
    int avail = room - list_min;
    lines info = {0};
    for (int part = 0; part < 6; part++) {
        lines t = {0};
        switch (part) {
        case 0: card_lines(g, &t, viewer, g->width, CARDS_STATE); break;
        case 1: card_lines(g, &t, viewer, g->width, CARDS_HAND); break;
        case 2: players_compact(g, &t, viewer); break;
        case 3: chart_compact(g, &t); break;
        case 4: card_lines(g, &t, viewer, g->width, CARDS_OPEN); break;
        default:
            /* the last moves: as many as the rows the list does not
             * need allow (a long move wraps to more rows) */
            for (int k = avail - (g->list_need - list_min) - 1; k >= 1; k--) {
                log_lines(g, &t, viewer, k);
                if (t.n <= avail - (g->list_need - list_min))
                    break;
                lines_free(&t);
            }
            break;
        }
        if (t.n <= avail) {
            avail -= t.n;
            lines_move(&info, &t);
        } else {
            lines_free(&t);
        }
    }
    /* the list: all of it when it fits, else the rows left with a last
     * row saying how many more there are */
    int list_room = room - info.n;
    g->list_max = g->list_need <= list_room ? 0 : (list_room > 2 ? list_room - 1 : 1);
    lines_move(out, &board);
    lines_move(out, &info);
}

/* ---- chart, players and log on demand ------------------------------------------------
 * The commands `chart`, `players` and `log` (play_input.c) show what the
 * compact layout may leave out, whole, at the screen's width, on any size
 * of terminal (issue 31). */

static void lines_to_buf(const lines *L, chx_buf *b)
{
    for (int i = 0; i < L->n; i++) {
        chx_buf_puts(b, L->l[i]);
        chx_buf_puts(b, "\n");
    }
}

void play_chart_text(play_game *g, chx_buf *b)
{
    lines L = {0};
    chart_lines(g, &L, g->width);
    lines_to_buf(&L, b);
    lines_free(&L);
}

void play_players_text(play_game *g, int viewer, chx_buf *b)
{
    const ch_state *st = &g->st;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    char sup[160], n1[16], n2[16];
    snprintf(n1, sizeof n1, "%u", st->supply);
    snprintf(n2, sizeof n2, "%u", st->roofs_left);
    play_fmt(g, sup, sizeof sup, ga ? "screen.supply_ga" : "screen.supply", "n", n1,
             "roofs", n2, NULL);
    chx_buf_puts(b, play_sgr(g, SGR_BOLD));
    chx_buf_puts(b, chx_msg(g->lang, "screen.players"));
    chx_buf_puts(b, play_sgr(g, SGR_RESET));
    chx_buf_puts(b, "  ");
    chx_buf_puts(b, sup);
    chx_buf_puts(b, "\n");
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        char line[1024], t[640], num[32], num2[32];
        /* the name line: who moves, the name, a bot's kind */
        snprintf(line, sizeof line, "%s%s%s%s%s", p == st->active ? "> " : "  ",
                 play_sgr(g, SGR_BOLD), play_name(g, p),
                 p == viewer ? chx_msg(g->lang, "screen.you") : "", play_sgr(g, SGR_RESET));
        if (!g->seat[p].human) {
            snprintf(t, sizeof t, "  [%s", g->seat[p].bot);
            strncat(line, t, sizeof line - strlen(line) - 1);
            if (!strcmp(g->seat[p].bot, "ismcts")) {
                snprintf(t, sizeof t, ":%d", g->seat[p].strength);
                strncat(line, t, sizeof line - strlen(line) - 1);
            }
            strncat(line, "]", sizeof line - strlen(line) - 1);
        }
        chx_buf_puts(b, line);
        chx_buf_puts(b, "\n");
        /* the details, wrapped under the name: cash, hand, actions or flags,
         * stocks with their companies' names (hidden in The Golden Age but
         * the viewer's own) */
        snprintf(line, sizeof line, "f%" PRId32, pl->cash);
        snprintf(num, sizeof num, "%d", ch_hand_count(st, p));
        snprintf(t, sizeof t, ", %s", play_fmt(g, (char[128]){0}, 128, "screen.hand_size",
                                                "n", num, NULL));
        strncat(line, t, sizeof line - strlen(line) - 1);
        if (ga) {
            snprintf(num, sizeof num, "%u", pl->flags);
            snprintf(t, sizeof t, ", %s", play_fmt(g, (char[128]){0}, 128, "screen.flags",
                                                    "n", num, NULL));
        } else {
            snprintf(num, sizeof num, "%u", pl->actions);
            snprintf(num2, sizeof num2, "%u", pl->roofs);
            snprintf(t, sizeof t, ", %s", play_fmt(g, (char[128]){0}, 128, "screen.actions",
                                                    "n", num, "roofs", num2, NULL));
        }
        strncat(line, t, sizeof line - strlen(line) - 1);
        if (pl->extra_pending || pl->extra_armed) {
            strncat(line, ", ", sizeof line - strlen(line) - 1);
            strncat(line, chx_msg(g->lang, "screen.extra_turn"), sizeof line - strlen(line) - 1);
        }
        char stocks[512] = "";
        if (ga && p != viewer) {
            snprintf(stocks, sizeof stocks, "%s", chx_msg(g->lang, "screen.stocks_hidden"));
        } else {
            for (int c = 0; c < st->ncompanies; c++)
                if (pl->stock[c]) {
                    size_t l = strlen(stocks);
                    snprintf(stocks + l, sizeof stocks - l, "%s%c %s %u", l ? ", " : "",
                             'A' + c, chx_company(g->lang, st, c), pl->stock[c]);
                }
            if (!stocks[0])
                snprintf(stocks, sizeof stocks, "%s", chx_msg(g->lang, "screen.no_stocks"));
        }
        snprintf(t, sizeof t, "; %s", play_fmt(g, (char[512]){0}, 512, "screen.stocks",
                                                "list", stocks, NULL));
        strncat(line, t, sizeof line - strlen(line) - 1);
        chx_buf w = {0};
        chx_wrap(line, (g->width > 0 ? g->width - 1 : 79) - 4, &w);
        for (const char *s0 = w.s ? w.s : ""; *s0;) {
            const char *e = strchr(s0, '\n');
            size_t n = e ? (size_t)(e - s0) : strlen(s0);
            chx_buf_puts(b, "    ");
            chx_buf_add(b, s0, n);
            chx_buf_puts(b, "\n");
            s0 += n + (e ? 1 : 0);
        }
        free(w.s);
    }
}

/* ---- the whole screen ------------------------------------------------------------------ */

static void final_scores(play_game *g);

void play_screen(play_game *g, int viewer)
{
    const ch_state *st = &g->st;
    char head[512], num[16], num2[16];
    lines board = {0}, right = {0}, bottom = {0};
    snprintf(num, sizeof num, "%u", st->turn_no);
    snprintf(num2, sizeof num2, "%u", st->nplayers);
    play_fmt(g, head, sizeof head,
             st->edition == CH_ED_GOLDEN_AGE ? "screen.title_ga" : "screen.title",
             "turn", num, "players", num2, "board", ch_state_board(st)->name, NULL);
    g->list_max = 0;
    board_lines(g, &board, 0);
    size_t bw = lines_width(&board);
    char legend[256];
    play_fmt(g, legend, sizeof legend,
             st->edition == CH_ED_GOLDEN_AGE ? "screen.legend_ga" : "screen.legend",
             NULL);
    int side = (size_t)g->width >= bw + 4 + 60;
    int rw = side ? g->width - (int)bw - 4 : g->width;
    int nlegend = 0;
    {
        /* the legend under the board; beside a wide screen it goes under
         * both columns */
        lines *dst = side ? &bottom : &board;
        int before = dst->n;
        add_text(dst, side ? g->width : g->width, legend, "", "  ");
        nlegend = dst->n - before;
    }
    chart_lines(g, &right, rw);
    player_lines(g, &right, viewer, rw);
    lines *cards = side ? &right : &bottom;
    card_lines(g, cards, viewer, side ? rw : g->width, CARDS_ALL);
    /* fit the height of the terminal when it is known: fewer last moves,
     * then no legend, before anything scrolls off the top; when even that
     * is too tall, the compact layout */
    int used = 1 + (side ? (board.n > right.n ? board.n : right.n)
                         : board.n + right.n) + bottom.n;
    unsigned dmask;
    int below = g->reserve + g->list_need +
                (ch_decider(st, &dmask) == CH_DEC_TERMINAL ? 2 + st->nplayers : 0);
    if (g->height > 0 && used - nlegend + below > g->height) {
        lines all = {0};
        compact_lines(g, &all, viewer);
        fprintf(g->out, "%s%s%s\n", play_sgr(g, SGR_BOLD), head, play_sgr(g, SGR_RESET));
        for (int i = 0; i < all.n; i++) {
            put_line(g, all.l[i], 0);
            fputc('\n', g->out);
        }
        lines_free(&all);
        lines_free(&board);
        lines_free(&right);
        lines_free(&bottom);
        final_scores(g);
        return;
    }
    int room = g->height > 0 ? g->height - below - used : 7;
    int nlog = room - 1 > 6 ? 6 : room - 1;
    if (nlog < 1 && !side && board.n >= nlegend && g->height > 0) {
        for (int i = 0; i < nlegend; i++)
            free(board.l[--board.n]); /* the legend */
        nlog += nlegend;
    }
    if (nlog >= 1)
        log_lines(g, &bottom, viewer, nlog);

    fprintf(g->out, "%s%s%s\n", play_sgr(g, SGR_BOLD), head, play_sgr(g, SGR_RESET));
    if (side) {
        int n = board.n > right.n ? board.n : right.n;
        for (int i = 0; i < n; i++) {
            if (i < board.n)
                put_line(g, board.l[i], bw + 4);
            else
                fprintf(g->out, "%*s", (int)bw + 4, "");
            if (i < right.n)
                put_line(g, right.l[i], 0);
            fputc('\n', g->out);
        }
    } else {
        for (int i = 0; i < board.n; i++) {
            put_line(g, board.l[i], 0);
            fputc('\n', g->out);
        }
        for (int i = 0; i < right.n; i++) {
            put_line(g, right.l[i], 0);
            fputc('\n', g->out);
        }
    }
    for (int i = 0; i < bottom.n; i++) {
        put_line(g, bottom.l[i], 0);
        fputc('\n', g->out);
    }
    lines_free(&board);
    lines_free(&right);
    lines_free(&bottom);
    final_scores(g);
}

/* At the end of the game: the final scores under the screen. */
static void final_scores(play_game *g)
{
    const ch_state *st = &g->st;
    unsigned mask;
    if (ch_decider(st, &mask) == CH_DEC_TERMINAL) {
        int32_t scores[CH_MAX_PLAYERS] = {0};
        unsigned winners = 0;
        if (ch_scores(st, scores, &winners) == CH_OK) {
            fprintf(g->out, "\n%s\n", chx_msg(g->lang, "screen.final"));
            for (int p = 0; p < st->nplayers; p++) {
                char sc[32], line[256];
                snprintf(sc, sizeof sc, "f%" PRId32, scores[p]);
                play_fmt(g, line, sizeof line,
                         winners & (1u << p) ? "screen.score_winner" : "screen.score",
                         "player", play_name(g, p), "score", sc, NULL);
                fprintf(g->out, "  %s\n", line);
            }
        }
    }
    fflush(g->out);
}
