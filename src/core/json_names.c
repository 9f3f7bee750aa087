/* json_names.c: the words and names shared by the JSON writer and reader of
 * states and views (json_names.h): plot names "Harbour C1", card names with
 * "#id" where names repeat, edition and plot-flag words.
 *
 * The names are built for every view the game server writes (one per seat
 * and move), so they are put together by hand rather than with snprintf, and
 * repeated card names are found with a small hash table. They spell exactly
 * what ch_plot_name and ch_card_name spell. */
#include "json_names.h"

#include <stdint.h>
#include <string.h>

const char *const json_edition_words[N_EDITIONS] = {"amsterdam", "golden-age"};

const char *const json_pflag_words[8] = {"hq", "upside", "roof", "nopiece",
                                         "free", "bit5", "bit6", "bit7"};

/* Copies at most max characters of s (stopping at its end) to out; returns
 * the number copied. */
static size_t copy_max(char *out, const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    memcpy(out, s, n);
    return n;
}

/* ch_plot_name's "%.*s %.*s" of district and label, NUL-terminated in out
 * (JNAME_LEN bytes; the longest name is 15 + 1 + 3); -1 where ch_plot_name
 * fails. */
static int plot_name(const ch_board *b, int plot, char *out)
{
    if (plot < 0 || plot >= b->nplots || plot >= CH_MAX_PLOTS ||
        b->plot_district[plot] >= CH_MAX_DISTRICTS) {
        out[0] = '\0';
        return -1;
    }
    size_t n = copy_max(out, b->district[b->plot_district[plot]], CH_NAME_LEN - 1);
    out[n++] = ' ';
    n += copy_max(out + n, b->plot_label[plot], CH_LABEL_LEN - 1);
    out[n] = '\0';
    return (int)n;
}

void json_plot_names(const ch_board *b, plot_names *pn)
{
    for (int i = 0; i < b->nplots && i < CH_MAX_PLOTS; i++) {
        int len = plot_name(b, i, pn->n[i]);
        pn->len[i] = (uint8_t)len;
        if (len < 0) {
            /* "plot#%d" */
            char digits[4];
            int nd = 0;
            for (int x = i; nd == 0 || x; x /= 10)
                digits[nd++] = (char)('0' + x % 10);
            memcpy(pn->n[i], "plot#", 5);
            for (int k = 0; k < nd; k++)
                pn->n[i][5 + k] = digits[nd - 1 - k];
            pn->n[i][5 + nd] = '\0';
            pn->len[i] = (uint8_t)(5 + nd);
        }
    }
}

/* "L" and the level, NUL-terminated; returns the length. */
static size_t level_name(char *out, unsigned level)
{
    size_t n = 0;
    out[n++] = 'L';
    if (level >= 100)
        out[n++] = (char)('0' + level / 100);
    if (level >= 10)
        out[n++] = (char)('0' + level / 10 % 10);
    out[n++] = (char)('0' + level % 10);
    out[n] = '\0';
    return n;
}

/* A card's name before repeats are told apart: ch_card_name's name ("event
 * sell 2", "L2", "Harbour C1", at most JNAME_LEN - 6 characters), or where
 * ch_card_name has none, "L<level>" for a card with a level and "card"
 * otherwise. pn: the plot names, or NULL. Returns the length. */
static size_t card_base(const ch_state *st, const plot_names *pn, int c, char *out)
{
    if (st->card_event[c]) {
        size_t n = copy_max(out, "event ", JNAME_LEN - 6);
        n += copy_max(out + n, ch_ga_event_name(st->card_event[c] - 1), JNAME_LEN - 6 - n);
        out[n] = '\0';
        return n;
    }
    unsigned level = st->card_level[c];
    if (level < 2 || level > 5) {
        int plot = st->card_plot[c];
        if (plot != CH_NONE && plot < ch_state_board(st)->nplots && plot < CH_MAX_PLOTS) {
            const ch_board *b = ch_state_board(st);
            if (pn && b->plot_district[plot] < CH_MAX_DISTRICTS) {
                /* the plot's name, as plot_name spells it */
                memcpy(out, pn->n[plot], (size_t)pn->len[plot] + 1);
                return pn->len[plot];
            }
            int len = plot_name(b, plot, out);
            if (len >= 0)
                return (size_t)len;
        }
        if (level == 0) {
            memcpy(out, "card", 5);
            return 4;
        }
    }
    return level_name(out, level);
}

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

void json_card_names(const ch_state *st, const plot_names *pn, card_names *cn)
{
    int n = st->ncards <= CH_MAX_CARDS ? st->ncards : CH_MAX_CARDS;
    /* open addressing over twice as many slots as cards: slot_card + 1, 0 free */
    uint8_t slot_card[2 * CH_MAX_CARDS] = {0};
    uint8_t shared[CH_MAX_CARDS] = {0};
    for (int c = 0; c < n; c++) {
        char *base = cn->n[c];
        cn->len[c] = (uint8_t)card_base(st, pn, c, base);
        uint32_t h = name_hash(base) % (2 * CH_MAX_CARDS);
        while (slot_card[h]) {
            int d = slot_card[h] - 1;
            if (cn->len[d] == cn->len[c] && memcmp(cn->n[d], base, cn->len[c]) == 0) {
                shared[c] = shared[d] = 1;
                break;
            }
            h = (h + 1) % (2 * CH_MAX_CARDS);
        }
        if (!slot_card[h])
            slot_card[h] = (uint8_t)(c + 1);
    }
    for (int c = 0; c < n; c++) {
        size_t len = cn->len[c];
        if (shared[c]) {
            /* "%s#%d" */
            char digits[4];
            int nd = 0;
            for (int x = c; nd == 0 || x; x /= 10)
                digits[nd++] = (char)('0' + x % 10);
            cn->n[c][len++] = '#';
            while (nd)
                cn->n[c][len++] = digits[--nd];
            cn->n[c][len] = '\0';
            cn->len[c] = (uint8_t)len;
        }
    }
}
