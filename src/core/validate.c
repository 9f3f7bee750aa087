/* validate.c: the full-state check run after every decision in debug builds,
 * tests and selfplay. Money against the bank's ledger, 62 warehouses, 9 stock
 * cards per company, values within f20..f300, card locations, and: every
 * connected group of pieces with two or more warehouses is exactly one company. */
#include "internal.h"

static int check_cards(const ch_state *st, ch_msg *why)
{
    int count[CH_LOC_HAND + CH_MAX_PLAYERS] = {0};
    for (int c = 0; c < st->ncards; c++) {
        int l = st->loc[c];
        if (l >= CH_LOC_HAND + st->nplayers || l == CH_LOC_UNUSED || (l > CH_LOC_UNUSED && l < CH_LOC_HAND))
            return fail(why, CH_EINVARIANT, "card %d has an invalid location %d", c, l);
        count[l]++;
        for (int p = 0; p < st->nplayers; p++) {
            int in = bs_has(st->pl[p].hand, c);
            if (in != (l == CH_LOC_HAND + p))
                return fail(why, CH_EINVARIANT, "card %d: hand bitset of P%d disagrees with its location", c, p + 1);
            if (bs_has(st->pl[p].known, c) && !in)
                return fail(why, CH_EINVARIANT, "card %d known in P%d's hand but not there", c, p + 1);
        }
    }
    if (count[CH_LOC_DECK] != st->ndeck)
        return fail(why, CH_EINVARIANT, "deck count %d, locations say %d", st->ndeck, count[CH_LOC_DECK]);
    for (int i = 0; i < st->ndeck; i++)
        if (st->loc[st->deck[i]] != CH_LOC_DECK)
            return fail(why, CH_EINVARIANT, "deck holds card %d located elsewhere", st->deck[i]);
    int nm = 0;
    for (int i = 0; i < st->market_size; i++)
        if (st->market[i] != CH_NONE) {
            nm++;
            if (st->loc[st->market[i]] != CH_LOC_MARKET)
                return fail(why, CH_EINVARIANT, "market holds card %d located elsewhere", st->market[i]);
        }
    if (nm != count[CH_LOC_MARKET])
        return fail(why, CH_EINVARIANT, "market count mismatch");
    if (count[CH_LOC_DISCARD] != st->ndiscard || count[CH_LOC_RESERVE] != st->nreserve ||
        count[CH_LOC_LOOK] != st->nlook)
        return fail(why, CH_EINVARIANT, "discard, reserve or look count mismatch");
    for (int i = 0; i < st->ndiscard; i++)
        if (st->loc[st->discard[i]] != CH_LOC_DISCARD)
            return fail(why, CH_EINVARIANT, "discard holds card %d located elsewhere", st->discard[i]);
    for (int i = 0; i < st->nreserve; i++)
        if (st->loc[st->reserve[i]] != CH_LOC_RESERVE || !st->card_level[st->reserve[i]])
            return fail(why, CH_EINVARIANT, "reserve holds a card that is not a level card there");
    for (int p = 0; p < st->nplayers; p++)
        if (hand_count(st, p) > st->max_hand)
            return fail(why, CH_EINVARIANT, "P%d holds %d cards, over the limit of %d", p + 1,
                        hand_count(st, p), st->max_hand);
    /* A built plot's card has been played (or, after Veilinge, taken back);
     * a Golden Age free warehouse covers a lot whose card is still in play. */
    for (int c = 0; c < st->ncards; c++) {
        int x = st->card_plot[c];
        if (x == CH_NONE) {
            if (st->card_event[c] && st->loc[c] != CH_LOC_DECK && st->loc[c] != CH_LOC_DISCARD)
                return fail(why, CH_EINVARIANT, "event card %d is neither in the deck nor discarded", c);
            continue;
        }
        if (st->height[x] > 0 && !(st->pflags[x] & CH_PF_FREE) && st->loc[c] != CH_LOC_DISCARD &&
            st->loc[c] < CH_LOC_HAND)
            return fail(why, CH_EINVARIANT, "plot of card %d is built but the card is not discarded or in a hand", c);
    }
    return CH_OK;
}

static int check_events(const ch_state *st, ch_msg *why)
{
    int kinds[CH_EV_KINDS] = {0};
    for (int i = 0; i < st->nev_deck; i++)
        kinds[st->ev_deck[i] % CH_EV_KINDS]++;
    for (int i = 0; i < st->nev_discard; i++)
        kinds[st->ev_discard[i] % CH_EV_KINDS]++;
    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        if (st->ev_open[i] != CH_NONE)
            kinds[st->ev_open[i] % CH_EV_KINDS]++;
    if (st->ev_kind != CH_NONE)
        kinds[st->ev_kind % CH_EV_KINDS]++;
    /* a variant without stock events (docs/variants.md) has none at all, and
       no open slot for them */
    int total = 0;
    for (int k = 0; k < CH_EV_KINDS; k++)
        total += kinds[k];
    if (total == 0 && st->nevent_open == 0)
        return CH_OK;
    for (int k = 0; k < CH_EV_KINDS; k++)
        if (kinds[k] != 3)
            return fail(why, CH_EINVARIANT, "there are %d %s cards, not 3", kinds[k], ch_event_name(k));
    return CH_OK;
}

/* Every connected group of pieces: at most one company; a company has exactly
 * one group; a group without a company is a single lone warehouse. */
static int check_groups(const ch_state *st, ch_msg *why)
{
    const ch_board *b = BRD(st);
    uint64_t seen[2] = {0, 0};
    int groups_of[CH_MAX_COMPANIES] = {0};
    uint8_t stack[CH_MAX_PLOTS];
    for (int x = 0; x < b->nplots; x++) {
        if (!has_piece(st, x) || bs_has(seen, x))
            continue;
        int top = 0, pieces = 0, ws = 0;
        unsigned comps = 0;
        int lone = 0;
        bs_set(seen, x);
        stack[top++] = (uint8_t)x;
        while (top) {
            int y = stack[--top];
            pieces++;
            ws += st->height[y] > 0;
            if (st->owner[y] == CH_NONE)
                lone++;
            else
                comps |= 1u << st->owner[y];
            for (int i = 0; i < b->deg[y]; i++) {
                int z = b->adj[y][i];
                if (!has_piece(st, z) || bs_has(seen, z))
                    continue;
                bs_set(seen, z);
                stack[top++] = (uint8_t)z;
            }
        }
        char name[48];
        ch_plot_name(b, x, name, sizeof name);
        if (popc(comps) > 1)
            return fail(why, CH_EINVARIANT, "the group at %s holds %d companies", name, popc(comps));
        if (comps == 0 && st->edition == CH_ED_GOLDEN_AGE)
            return fail(why, CH_EINVARIANT, "a warehouse at %s belongs to no enterprise", name);
        if (comps == 0 && pieces != 1)
            return fail(why, CH_EINVARIANT, "the group at %s has %d warehouses but no company", name, ws);
        if (comps && lone)
            return fail(why, CH_EINVARIANT, "the group at %s mixes a company with lone pieces", name);
        if (comps && ws < 2)
            return fail(why, CH_EINVARIANT, "company %s has fewer than two warehouses",
                        ch_company_name(st, __builtin_ctz(comps)));
        if (comps)
            groups_of[__builtin_ctz(comps)]++;
    }
    for (int c = 0; c < st->ncompanies; c++)
        if (st->co[c].on_chart && groups_of[c] != 1)
            return fail(why, CH_EINVARIANT, "company %s is in %d groups", ch_company_name(st, c), groups_of[c]);
    return CH_OK;
}

int ch_validate(const ch_state *st, ch_msg *why)
{
    if (!st || st->magic != CH_STATE_MAGIC)
        return fail(why, CH_EINVARIANT, "not a game state");
    if (st->nplayers < 2 || st->nplayers > CH_MAX_PLAYERS || st->ncompanies > CH_MAX_COMPANIES ||
        st->ncards > CH_MAX_CARDS || BRD(st)->nplots > CH_MAX_PLOTS || st->phase >= CH_PH_COUNT)
        return fail(why, CH_EINVARIANT, "sizes out of range");
    /* Money: cash never below zero, and conserved against the bank's ledger. */
    int64_t cash = 0;
    for (int p = 0; p < st->nplayers; p++) {
        if (st->pl[p].cash < 0)
            return fail(why, CH_EINVARIANT, "P%d has negative cash", p + 1);
        cash += st->pl[p].cash;
    }
    if (cash + st->bank_net != st->total_money)
        return fail(why, CH_EINVARIANT, "money not conserved: players f%lld + bank ledger f%lld != f%d",
                    (long long)cash, (long long)st->bank_net, st->total_money);
    /* Prices: each of the edition's within its bounds, the others none
       (docs/variants.md); a variant's ending value within the chart. */
    {
        const int16_t *pr = &st->prices.purchase;
        int has[6] = {1, 1, !(st->edition == CH_ED_GOLDEN_AGE), 1,
                      st->edition == CH_ED_GOLDEN_AGE, st->edition == CH_ED_GOLDEN_AGE};
        for (int i = 0; i < 6; i++)
            if (has[i] ? pr[i] < 1 || pr[i] > CH_PRICE_MAX : pr[i] != 0)
                return fail(why, CH_EINVARIANT, "a price is f%d, out of its bounds (f1 to f%d)", pr[i], CH_PRICE_MAX);
        if (st->end_value && (st->end_value <= ED(st)->min_value || st->end_value > ED(st)->max_value))
            return fail(why, CH_EINVARIANT, "the ending value f%d is off the chart", st->end_value);
    }
    /* Warehouses: board + supply = 62; placeholders taken from the supply count. */
    int on_board = 0, roofs_on_board = 0;
    int ga = st->edition == CH_ED_GOLDEN_AGE;
    for (int x = 0; x < BRD(st)->nplots; x++) {
        /* a Golden Age HQ is a piece of its own on top of a warehouse */
        on_board += st->height[x] - (ga && (st->pflags[x] & CH_PF_HQ) ? 1 : 0);
        if ((st->pflags[x] & CH_PF_UPSIDE) && !(st->pflags[x] & CH_PF_NOPIECE))
            on_board++;
        if (st->pflags[x] & CH_PF_ROOF) {
            roofs_on_board++;
            if (!st->height[x])
                return fail(why, CH_EINVARIANT, "a roof lies on an empty plot");
        }
        if (!has_piece(st, x) && st->owner[x] != CH_NONE)
            return fail(why, CH_EINVARIANT, "an empty plot has an owner");
        if ((st->pflags[x] & CH_PF_HQ) && (st->owner[x] == CH_NONE || st->co[st->owner[x]].hq != x))
            return fail(why, CH_EINVARIANT, "an HQ stands on a plot its company does not name");
    }
    /* the board caches (piece, lone, spacing zone) match the board */
    int crc = board_cache_check(st, why);
    if (crc != CH_OK)
        return crc;
    /* the offer's askable cards, kept while an offer is built, match */
    if ((crc = offer_cache_check(st, why)) != CH_OK)
        return crc;
    if (on_board + st->supply != st->warehouses_total)
        return fail(why, CH_EINVARIANT, "warehouses: %d on the board + %d in supply != %d", on_board,
                    st->supply, st->warehouses_total);
    int roofs_held = 0;
    for (int p = 0; p < st->nplayers; p++)
        roofs_held += st->pl[p].roofs;
    if (st->roofs_left + roofs_held + roofs_on_board != st->roofs_total)
        return fail(why, CH_EINVARIANT, "broken roofs not conserved");
    /* Stocks: 9 cards per company across the bank and the players. */
    for (int c = 0; c < st->ncompanies; c++) {
        int n = st->co[c].bank;
        for (int p = 0; p < st->nplayers; p++)
            n += st->pl[p].stock[c];
        if (n != ED(st)->stocks)
            return fail(why, CH_EINVARIANT, "%s has %d stock cards, not %d", ch_company_name(st, c), n,
                        ED(st)->stocks);
        const ch_company *co = &st->co[c];
        if (co->on_chart) {
            if (co->value < ED(st)->min_value || co->value > ED(st)->max_value || co->value % 10)
                return fail(why, CH_EINVARIANT, "%s is worth f%d, outside f%d..f%d", ch_company_name(st, c),
                            co->value, ED(st)->min_value, ED(st)->max_value);
            if (co->hq == CH_NONE || !(st->pflags[co->hq] & CH_PF_HQ) || st->owner[co->hq] != c)
                return fail(why, CH_EINVARIANT, "%s is on the chart without its HQ on the board", ch_company_name(st, c));
        } else if (co->value != 0 || (co->hq != CH_NONE && st->phase != CH_PH_FOUND)) {
            return fail(why, CH_EINVARIANT, "%s is off the chart but has a value or an HQ", ch_company_name(st, c));
        }
    }
    int r = check_cards(st, why);
    if (r)
        return r;
    /* the plays listed as bitsets agree with the card-by-card reference */
    if ((r = plays_check(st, why)) != CH_OK)
        return r;
    if (!ga) {
        r = check_events(st, why);
        if (r)
            return r;
    } else {
        int flags[CH_MAX_PLAYERS] = {0};
        for (int c = 0; c < st->ncompanies; c++) {
            int f = st->co[c].flag;
            if (f && (f > st->nplayers || !st->co[c].on_chart))
                return fail(why, CH_EINVARIANT, "a flag stands on %s, which is not on the board", ch_company_name(st, c));
            if (f)
                flags[f - 1]++;
        }
        for (int p = 0; p < st->nplayers; p++)
            if (st->pl[p].flags + flags[p] > 2)
                return fail(why, CH_EINVARIANT, "P%d has more than two flags", p + 1);
    }
    /* Mid-build phases hold a warehouse not yet assigned to its company. */
    int building = st->phase == CH_PH_HQ || st->phase == CH_PH_FOUND || st->phase == CH_PH_CREDIT ||
                   st->phase == CH_PH_MERGE || st->phase == CH_PH_MERGE_SELL || st->phase == CH_PH_FREE;
    if (!building)
        return check_groups(st, why);
    return CH_OK;
}
