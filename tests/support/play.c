/* play.c: test helpers (see play.h). Position building edits the plain state
 * struct directly, keeping the invariants that ch_validate checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "play.h"

static void die(const char *what, const char *msg)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s: %s", what, msg);
    fail_msg("%s", buf);
}

void t_new(ch_state *st, int players, const char *arrangement, uint64_t seed)
{
    ch_board b;
    ch_setup s;
    ch_msg m;
    if (ch_board_builtin(&b, CH_ED_AMSTERDAM, arrangement, &m) != CH_OK)
        die("board", m.text);
    ch_setup_default(&s, CH_ED_AMSTERDAM);
    s.nplayers = players;
    s.seed = seed;
    if (ch_new(st, &s, &b, &m) != CH_OK)
        die("ch_new", m.text);
}

void t_new_ga(ch_state *st, int players, int preset, int events, uint64_t seed)
{
    ch_board b;
    ch_setup s;
    ch_msg m;
    if (ch_board_builtin(&b, CH_ED_GOLDEN_AGE, ch_ga_side(preset, players), &m) != CH_OK)
        die("board", m.text);
    ch_setup_default(&s, CH_ED_GOLDEN_AGE);
    s.nplayers = players;
    s.seed = seed;
    s.preset = preset;
    s.events = events;
    if (ch_new(st, &s, &b, &m) != CH_OK)
        die("ch_new", m.text);
}

uint64_t t_rand(uint64_t *r)
{
    uint64_t x = (*r += 0x9E3779B97F4A7C15ull);
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

int t_decider(const ch_state *st)
{
    unsigned mask;
    if (ch_decider(st, &mask) == CH_DEC_TERMINAL || !mask)
        return -1;
    return __builtin_ctz(mask);
}

int t_random_step(ch_state *st, uint64_t *rng)
{
    static ch_move buf[1 << 16];
    int p = t_decider(st);
    if (p < 0)
        return 0;
    int n = ch_legal(st, p, buf, 1 << 16);
    if (n <= 0)
        die("ch_legal", "no legal move for the deciding player");
    if (n > (1 << 16))
        n = 1 << 16;
    ch_move mv = buf[t_rand(rng) % (uint64_t)n];
    ch_msg m;
    if (ch_apply(st, p, mv, &m) != CH_OK)
        die("ch_apply rejected a listed move", m.text);
    if (ch_validate(st, &m) != CH_OK) {
        char t[96];
        ch_move_str(st, mv, t, sizeof t);
        char buf2[400];
        snprintf(buf2, sizeof buf2, "%s (after '%s', decision %u)", m.text, t, st->ndecisions);
        die("ch_validate", buf2);
    }
    return 1;
}

void t_play(ch_state *st, int p, const char *text)
{
    ch_msg m;
    if (ch_play(st, p, text, &m) != CH_OK) {
        char buf[400];
        snprintf(buf, sizeof buf, "'%s' by P%d: %s", text, p + 1, m.text);
        die("t_play", buf);
    }
    t_valid(st);
}

int t_legal(const ch_state *st, int p, const char *text)
{
    ch_move mv;
    ch_msg m;
    if (ch_move_parse(st, p, text, &mv, &m) != CH_OK)
        return 0;
    return ch_check(st, p, mv, &m) == CH_OK;
}

int t_plot(const ch_state *st, const char *name)
{
    int used;
    int x = ch_board_find(ch_state_board(st), name, &used);
    if (x < 0 || x >= CH_MAX_PLOTS) {
        die("no such plot", name);
        return 0; /* not reached: die fails the test */
    }
    return x;
}

int t_card(const ch_state *st, const char *plot_name)
{
    if (plot_name[0] == 'L' && plot_name[1] >= '2' && plot_name[1] <= '4' && !plot_name[2]) {
        for (int c = 0; c < st->ncards; c++)
            if (st->card_level[c] == plot_name[1] - '0' && st->loc[c] == CH_LOC_DECK)
                return c;
        die("no level card left in the deck", plot_name);
    }
    return st->plot_card[t_plot(st, plot_name)];
}

void t_clear(ch_state *st)
{
    for (int x = 0; x < CH_MAX_PLOTS; x++) {
        st->height[x] = 0;
        st->owner[x] = CH_NONE;
        st->pflags[x] = 0;
    }
    st->supply = st->warehouses_total;
    st->ndeck = 0;
    st->ndiscard = 0;
    st->nreserve = 0;
    for (int c = 0; c < st->ncards; c++) {
        st->deck[st->ndeck++] = (uint8_t)c;
        st->loc[c] = CH_LOC_DECK;
    }
    for (int i = 0; i < CH_MARKET_MAX; i++)
        st->market[i] = CH_NONE;
    for (int p = 0; p < st->nplayers; p++) {
        memset(st->pl[p].hand, 0, sizeof st->pl[p].hand);
        memset(st->pl[p].known, 0, sizeof st->pl[p].known);
        memset(st->pl[p].stock, 0, sizeof st->pl[p].stock);
        st->pl[p].hidden_levels = 0;
    }
    for (int c = 0; c < st->ncompanies; c++) {
        st->co[c].value = 0;
        st->co[c].on_chart = 0;
        st->co[c].hq = CH_NONE;
        st->co[c].bank = 9;
    }
    st->event_due = 0;
    t_sync(st);
}

void t_put(ch_state *st, const char *plot, int h)
{
    int x = t_plot(st, plot);
    st->height[x] = (uint8_t)h;
    st->supply = (uint8_t)(st->supply - h);
    int c = st->plot_card[x];
    /* its plot card has been played: move it from the deck to the discard */
    for (int i = 0; i < st->ndeck; i++)
        if (st->deck[i] == c) {
            memmove(&st->deck[i], &st->deck[i + 1], (size_t)(st->ndeck - i - 1));
            st->ndeck--;
            st->discard[st->ndiscard++] = (uint8_t)c;
            st->loc[c] = CH_LOC_DISCARD;
            break;
        }
    t_sync(st);
}

void t_company(ch_state *st, int c, int value, const char *hq, const char *const *plots, int n)
{
    for (int i = 0; i < n; i++)
        st->owner[t_plot(st, plots[i])] = (uint8_t)c;
    int h = t_plot(st, hq);
    st->pflags[h] |= CH_PF_HQ;
    st->owner[h] = (uint8_t)c;
    st->co[c].hq = (uint8_t)h;
    st->co[c].value = (int16_t)value;
    st->co[c].on_chart = 1;
    t_sync(st);
}

void t_give(ch_state *st, int p, const char *card)
{
    int c = t_card(st, card);
    for (int i = 0; i < st->ndeck; i++)
        if (st->deck[i] == c) {
            memmove(&st->deck[i], &st->deck[i + 1], (size_t)(st->ndeck - i - 1));
            st->ndeck--;
            break;
        }
    st->pl[p].hand[c >> 6] |= (uint64_t)1 << (c & 63);
    st->loc[c] = (uint8_t)(CH_LOC_HAND + p);
}

void t_stock(ch_state *st, int p, int c, int k)
{
    st->pl[p].stock[c] = (uint8_t)(st->pl[p].stock[c] + k);
    st->co[c].bank = (uint8_t)(st->co[c].bank - k);
}

void t_turn(ch_state *st, int p)
{
    st->active = st->actor = (uint8_t)p;
    st->phase = CH_PH_TURN;
}

void t_valid(const ch_state *st)
{
    ch_msg m;
    if (ch_validate(st, &m) != CH_OK)
        die("ch_validate", m.text);
}

/* ---- more position building ---------------------------------------------------- */

void t_cash(ch_state *st, int p, int32_t cash)
{
    st->bank_net += st->pl[p].cash - cash;
    st->pl[p].cash = cash;
}

static void deck_remove(ch_state *st, int c)
{
    for (int i = 0; i < st->ndeck; i++)
        if (st->deck[i] == c) {
            memmove(&st->deck[i], &st->deck[i + 1], (size_t)(st->ndeck - i - 1));
            st->ndeck--;
            return;
        }
    die("card is not in the deck", "");
}

void t_market(ch_state *st, int slot, const char *card)
{
    int c = t_card(st, card);
    if (st->loc[c] != CH_LOC_DECK)
        die("card is not in the deck", card);
    deck_remove(st, c);
    if (st->market[slot] != CH_NONE) {
        st->deck[st->ndeck++] = st->market[slot];
        st->loc[st->market[slot]] = CH_LOC_DECK;
    }
    st->market[slot] = (uint8_t)c;
    st->loc[c] = CH_LOC_MARKET;
}

void t_deck_top(ch_state *st, const char *card)
{
    int c = t_card(st, card);
    if (st->loc[c] != CH_LOC_DECK)
        die("card is not in the deck", card);
    deck_remove(st, c);
    st->deck[st->ndeck++] = (uint8_t)c;
}

void t_deck_keep(ch_state *st, int n)
{
    while (st->ndeck > n) {
        int c = st->deck[0];
        memmove(&st->deck[0], &st->deck[1], (size_t)(st->ndeck - 1));
        st->ndeck--;
        st->discard[st->ndiscard++] = (uint8_t)c;
        st->loc[c] = CH_LOC_DISCARD;
    }
}

void t_reserve(ch_state *st, const char *level)
{
    int c = t_card(st, level);
    if (!st->card_level[c] || st->nreserve >= CH_RESERVE_MAX)
        die("cannot put this card in the level reserve", level);
    deck_remove(st, c);
    st->reserve[st->nreserve++] = (uint8_t)c;
    st->loc[c] = CH_LOC_RESERVE;
}

void t_roofs(ch_state *st, int p, int k)
{
    if (st->roofs_left < k)
        die("t_roofs", "not enough broken roofs in the box");
    st->roofs_left = (uint8_t)(st->roofs_left - k);
    st->pl[p].roofs = (uint8_t)(st->pl[p].roofs + k);
}

void t_event_open(ch_state *st, int slot, int kind)
{
    if (st->ev_open[slot] == CH_NONE)
        die("t_event_open", "that open event slot is not used in this game");
    if (st->ev_open[slot] == kind)
        return;
    for (int i = 0; i < st->nev_deck; i++)
        if (st->ev_deck[i] == kind) {
            st->ev_deck[i] = st->ev_open[slot];
            st->ev_open[slot] = (uint8_t)kind;
            return;
        }
    for (int i = 0; i < st->nev_discard; i++)
        if (st->ev_discard[i] == kind) {
            st->ev_discard[i] = st->ev_open[slot];
            st->ev_open[slot] = (uint8_t)kind;
            return;
        }
    die("t_event_open", "no card of that kind in the event deck or discard");
}

void t_event_top(ch_state *st, int kind)
{
    if (st->nev_deck == 0)
        die("t_event_top", "the event deck is empty");
    uint8_t *top = &st->ev_deck[st->nev_deck - 1];
    if (*top == kind)
        return;
    for (int i = 0; i < st->nev_deck; i++)
        if (st->ev_deck[i] == kind) {
            st->ev_deck[i] = *top;
            *top = (uint8_t)kind;
            return;
        }
    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        if (st->ev_open[i] == kind) {
            st->ev_open[i] = *top;
            *top = (uint8_t)kind;
            return;
        }
    for (int i = 0; i < st->nev_discard; i++)
        if (st->ev_discard[i] == kind) {
            st->ev_discard[i] = *top;
            *top = (uint8_t)kind;
            return;
        }
    die("t_event_top", "no card of that kind");
}

void t_hand_fill(ch_state *st, int p, int n)
{
    for (int c = st->ncards - 1; c >= 0 && ch_hand_count(st, p) < n; c--) {
        if (st->loc[c] != CH_LOC_DECK || st->card_level[c])
            continue;
        deck_remove(st, c);
        st->pl[p].hand[c >> 6] |= (uint64_t)1 << (c & 63);
        st->loc[c] = (uint8_t)(CH_LOC_HAND + p);
    }
    if (ch_hand_count(st, p) < n)
        die("t_hand_fill", "not enough plot cards in the deck");
}

static int occupied(const ch_state *st, int x)
{
    return st->height[x] > 0 || (st->pflags[x] & (CH_PF_HQ | CH_PF_UPSIDE));
}

void t_fill_supply(ch_state *st, const char *district, int keep)
{
    const ch_board *b = ch_state_board(st);
    int d = -1;
    for (int i = 0; i < b->ndistricts; i++)
        if (!strcmp(b->district[i], district))
            d = i;
    if (d < 0)
        die("t_fill_supply: no such district", district);
    for (int x = 0; x < b->nplots && st->supply > keep; x++) {
        if (b->plot_district[x] != d || occupied(st, x) || st->loc[st->plot_card[x]] != CH_LOC_DECK)
            continue;
        int clear = 1;
        for (int i = 0; i < b->deg[x]; i++)
            clear &= !occupied(st, b->adj[x][i]);
        if (!clear)
            continue;
        int h = st->supply - keep;
        if (h > 4)
            h = 4;
        char name[48];
        ch_plot_name(b, x, name, sizeof name);
        t_put(st, name, h);
    }
    if (st->supply > keep)
        die("t_fill_supply", "the district has no room left");
}

/* ---- The Golden Age position building ---------------------------------------- */

void t_ga_clear(ch_state *st)
{
    t_clear(st);
    /* the event cards wait in the discard pile; tests put them on the deck */
    int keep = 0;
    for (int i = 0; i < st->ndeck; i++) {
        int c = st->deck[i];
        if (st->card_event[c]) {
            st->discard[st->ndiscard++] = (uint8_t)c;
            st->loc[c] = CH_LOC_DISCARD;
        } else {
            st->deck[keep++] = (uint8_t)c;
        }
    }
    st->ndeck = (uint8_t)keep;
    for (int c = 0; c < st->ncompanies; c++)
        st->co[c].flag = 0;
    for (int p = 0; p < st->nplayers; p++)
        st->pl[p].flags = 2;
    st->ga_built = CH_NONE;
    st->ga_dest = CH_NONE;
    st->ga_seller = CH_NONE;
    st->ev_kind = CH_NONE;
    st->m_seller = CH_NONE;
    st->end_triggered = 0;
    st->passes = 0;
}

void t_ga_stack(ch_state *st, const char *lot, int c, int h)
{
    int x = t_plot(st, lot);
    if (st->height[x] || st->supply < h)
        die("t_ga_stack: lot taken or supply short", lot);
    t_put(st, lot, h);
    st->owner[x] = (uint8_t)c;
    t_sync(st);
}

void t_ga_free(ch_state *st, const char *lot, int c)
{
    int x = t_plot(st, lot);
    if (st->height[x] || st->supply < 1)
        die("t_ga_free: lot taken or supply empty", lot);
    st->height[x] = 1;
    st->supply--;
    st->owner[x] = (uint8_t)c;
    st->pflags[x] |= CH_PF_FREE;
    t_sync(st);
}

void t_ga_company(ch_state *st, int c, int value, const char *hq, const char *const *plots, int n)
{
    t_ga_stack(st, hq, c, 1);
    int h = t_plot(st, hq);
    st->height[h]++; /* the HQ piece, not from the supply */
    st->pflags[h] |= CH_PF_HQ;
    for (int i = 0; i < n; i++)
        t_ga_stack(st, plots[i], c, 1);
    st->co[c].hq = (uint8_t)h;
    st->co[c].value = (int16_t)value;
    st->co[c].on_chart = 1;
    t_sync(st);
}

void t_ga_flag(ch_state *st, int p, int c)
{
    if (!st->pl[p].flags || st->co[c].flag)
        die("t_ga_flag", "no flag left, or the enterprise has one");
    st->pl[p].flags--;
    st->co[c].flag = (uint8_t)(p + 1);
}

int t_ga_level(const ch_state *st, int k)
{
    for (int c = 0; c < st->ncards; c++)
        if (st->card_level[c] == k && st->loc[c] == CH_LOC_DECK)
            return c;
    die("t_ga_level", "no level card of that level in the deck");
    return 0;
}

void t_ga_give_level(ch_state *st, int p, int k)
{
    int c = t_ga_level(st, k);
    deck_remove(st, c);
    st->pl[p].hand[c >> 6] |= (uint64_t)1 << (c & 63);
    st->loc[c] = (uint8_t)(CH_LOC_HAND + p);
}

int t_ga_event_card(const ch_state *st, int kind)
{
    for (int c = 0; c < st->ncards; c++)
        if (st->card_event[c] == kind + 1)
            return c;
    die("t_ga_event_card", "that event card is not in this game");
    return 0;
}

void t_ga_deck_top(ch_state *st, int card)
{
    if (st->loc[card] == CH_LOC_DECK) {
        deck_remove(st, card);
    } else if (st->loc[card] == CH_LOC_DISCARD) {
        int i = 0;
        while (i < st->ndiscard && st->discard[i] != card)
            i++;
        memmove(&st->discard[i], &st->discard[i + 1], (size_t)(st->ndiscard - i - 1));
        st->ndiscard--;
    } else {
        die("t_ga_deck_top", "the card is neither in the deck nor in the discard pile");
    }
    st->deck[st->ndeck++] = (uint8_t)card;
    st->loc[card] = CH_LOC_DECK;
}

void t_ga_market_fill(ch_state *st)
{
    for (int i = 0; i < st->market_size && st->ndeck; i++) {
        if (st->market[i] != CH_NONE)
            continue;
        int c = st->deck[--st->ndeck];
        st->market[i] = (uint8_t)c;
        st->loc[c] = CH_LOC_MARKET;
    }
}

void t_ga_fill_supply(ch_state *st, int c, int keep)
{
    for (int level = 2; level <= 5 && st->supply > keep; level++)
        for (int x = 0; x < ch_state_board(st)->nplots && st->supply > keep; x++)
            if (st->owner[x] == c && st->height[x] == level - 1 &&
                !(st->pflags[x] & (CH_PF_HQ | CH_PF_FREE))) {
                st->height[x]++;
                st->supply--;
            }
    if (st->supply > keep)
        die("t_ga_fill_supply", "the enterprise has too few stacks");
    t_sync(st);
}

void t_ga_layout(ch_state *st, int c, int value, const char *spec)
{
    char buf[256], lot[32];
    snprintf(buf, sizeof buf, "%s", spec);
    int first = 1;
    for (char *tokp = strtok(buf, " "); tokp; tokp = strtok(NULL, " "), first = 0) {
        int is_free = tokp[0] == 'f';
        char *colon = strchr(tokp, ':');
        int h = colon ? colon[1] - '0' : (first ? 2 : 1);
        if (colon)
            *colon = 0;
        snprintf(lot, sizeof lot, "%s", tokp + is_free);
        if (first) {
            t_ga_company(st, c, value, lot, NULL, 0);
            int x = t_plot(st, lot);
            for (; st->height[x] < h; st->supply--)
                st->height[x]++;
        } else if (is_free) {
            t_ga_free(st, lot, c);
        } else {
            t_ga_stack(st, lot, c, h);
        }
    }
    t_sync(st);
}

void t_company2(ch_state *st, int c, int v, const char *a, const char *b)
{
    t_put(st, a, 1);
    t_put(st, b, 1);
    const char *plots[] = {a, b};
    t_company(st, c, v, a, plots, 2);
}

void t_expect_illegal(const ch_state *st, int p, const char *text, const char *why)
{
    ch_move m;
    ch_msg msg;
    assert_int_equal(ch_move_parse(st, p, text, &m, &msg), CH_OK);
    int r = ch_check(st, p, m, &msg);
    if (r == CH_OK)
        fail_msg("'%s' was accepted", text);
    if (why && !strstr(msg.text, why))
        fail_msg("'%s': reason '%s' does not mention '%s'", text, msg.text, why);
}

int t_count_type(const ch_state *st, int p, int type)
{
    static ch_move buf[1 << 14];
    int n = ch_legal(st, p, buf, 1 << 14), k = 0;
    for (int i = 0; i < n && i < (1 << 14); i++)
        k += buf[i].type == type;
    return k;
}

int t_in_hand(const ch_state *st, int p, int card)
{
    return (int)((st->pl[p].hand[card >> 6] >> (card & 63)) & 1);
}

int t_known(const ch_state *st, int p, int card)
{
    return (int)((st->pl[p].known[card >> 6] >> (card & 63)) & 1);
}

int t_lot(const ch_state *st, int n)
{
    char b[8];
    snprintf(b, sizeof b, "%d", n);
    return t_plot(st, b);
}

void t_give_lot(ch_state *st, int p, int n)
{
    char b[8];
    snprintf(b, sizeof b, "%d", n);
    t_give(st, p, b);
}

int tb_plot(const ch_board *b, const char *name)
{
    int used = 0;
    int p = ch_board_find(b, name, &used);
    if (p < 0)
        fail_msg("no plot %s", name);
    return p;
}

int tb_link_kind(const ch_board *b, int p, int q)
{
    int kp = 0, kq = 0;
    for (int i = 0; i < b->deg[p]; i++)
        if (b->adj[p][i] == q)
            kp = (b->bridge[p] >> i & 1) ? 2 : 1;
    for (int i = 0; i < b->deg[q]; i++)
        if (b->adj[q][i] == p)
            kq = (b->bridge[q] >> i & 1) ? 2 : 1;
    assert_int_equal(kp, kq); /* the graph is symmetric, bridges too */
    return kp;
}

void t_position(ch_state *st, const char *name)
{
    const char *data = getenv("CH_DATA_DIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/../tests/positions/%s", data ? data : "data", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        die(path, "cannot read the position file (is CH_DATA_DIR set?)");
    static char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    ch_msg m = {{0}};
    if (ch_position_read(st, text, n, path, &m) != CH_OK)
        die("position", m.text);
    t_valid(st);
}

char *t_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *t = n < 0 ? NULL : malloc((size_t)n + 1);
    if (t && fread(t, 1, (size_t)n, f) != (size_t)n) {
        free(t);
        t = NULL;
    }
    if (t)
        t[n] = '\0';
    fclose(f);
    return t;
}
