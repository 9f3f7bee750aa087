/* setup.c: a new game of Chartered: Building Amsterdam (Rulebook "Setup";
 * RULINGS.md "Components", "Stock events", "Player order"). */
#include "internal.h"

/* Rulebook setup table: starting hand and capital by player count. */
static const int ba_hand[6] = {0, 0, 10, 9, 9, 8};
static const int ba_capital[6] = {0, 0, 350, 300, 300, 250};

void ch_setup_default(ch_setup *s, int edition)
{
    memset(s, 0, sizeof *s);
    s->edition = edition;
    s->nplayers = 4;
    s->seed = 1;
    s->preset = CH_GA_PRINTED;
    s->events = edition == CH_ED_GOLDEN_AGE ? 0 : 1;
}

/* The variant settings of a setup (docs/variants.md) that do not depend on
 * the edition's tables: the starting money of each seat (rulebook capital
 * cap, then cash[] and cash_add[]) into cash_out, and the supply's bounds.
 * The state counts warehouses in a byte (warehouses_total, supply). */
int setup_variant_common(const ch_setup *setup, int cap, int32_t cash_out[CH_MAX_PLAYERS],
                         ch_msg *err)
{
    if (setup->warehouses && (setup->warehouses < 2 || setup->warehouses > 255))
        return fail(err, CH_EINVAL, "the warehouse supply is 2 to 255 warehouses, not %d",
                    setup->warehouses);
    if (setup->open && (setup->open < 1 || setup->open > CH_MARKET_MAX))
        return fail(err, CH_EINVAL, "a game has 1 to %d open cards, not %d", CH_MARKET_MAX,
                    setup->open);
    if (setup->hand < 0 || setup->hand >= CH_MAX_CARDS)
        return fail(err, CH_EINVAL, "a starting hand holds 1 to %d cards, not %d",
                    CH_MAX_CARDS - 1, setup->hand);
    for (int p = 0; p < CH_MAX_PLAYERS; p++) {
        if (p >= setup->nplayers) {
            if (setup->cash[p] || setup->cash_add[p])
                return fail(err, CH_EINVAL, "the setup gives seat %d money, but the game has %d players",
                            p + 1, setup->nplayers);
            cash_out[p] = 0;
            continue;
        }
        if (setup->cash[p] < 0 || setup->cash[p] > CH_VARIANT_CASH_MAX ||
            setup->cash_add[p] < -CH_VARIANT_CASH_MAX || setup->cash_add[p] > CH_VARIANT_CASH_MAX)
            return fail(err, CH_EINVAL, "seat %d's starting money is out of range (f1 to f%d)", p + 1,
                        CH_VARIANT_CASH_MAX);
        int32_t c = (setup->cash[p] ? setup->cash[p] : cap) + setup->cash_add[p];
        if (c < 1 || c > CH_VARIANT_CASH_MAX)
            return fail(err, CH_EINVAL, "seat %d would start with f%d: starting money is f1 to f%d",
                        p + 1, (int)c, CH_VARIANT_CASH_MAX);
        cash_out[p] = c;
    }
    return CH_OK;
}

void ch_prices_rulebook(int edition, ch_prices *out)
{
    memset(out, 0, sizeof *out);
    out->purchase = BA_PURCHASE_COST; /* both editions: f50 (R-11; G-21) */
    out->stock_min = (int16_t)ed_table[edition == CH_ED_GOLDEN_AGE].min_stock_price;
    if (edition == CH_ED_GOLDEN_AGE) {
        out->refresh = 50;             /* the printed rulebook, "Purchase"  */
        out->flag[0] = 200;            /* "Flags": the first f200, then f400 */
        out->flag[1] = 400;
    } else {
        out->refresh = BA_REFRESH_COST;
        out->action = BA_ACTION_COST;
    }
}

int setup_prices_end(const ch_setup *setup, ch_state *s, ch_msg *err)
{
    int ga = s->edition == CH_ED_GOLDEN_AGE;
    ch_prices_rulebook(s->edition, &s->prices);
    const int16_t *want = &setup->prices.purchase;
    int16_t *have = &s->prices.purchase;
    for (int i = 0; i < 6; i++) {
        if (!want[i])
            continue;
        if (want[i] < 1 || want[i] > CH_PRICE_MAX)
            return fail(err, CH_EINVAL, "a price is f1 to f%d, not f%d", CH_PRICE_MAX, want[i]);
        if (!have[i]) /* the edition has no such price */
            return ga ? fail(err, CH_EINVAL, "The Golden Age has no action cards to price")
                      : fail(err, CH_EINVAL, "Building Amsterdam has no flags to price");
        have[i] = want[i];
    }
    if (setup->end_turns < 0 || setup->end_turns > 65535)
        return fail(err, CH_EINVAL, "a game ends after turn 1 to 65535, not %d", setup->end_turns);
    const ed_rules *ed = &ed_table[ga];
    if (setup->end_value && (setup->end_value <= ed->min_value || setup->end_value > ed->max_value))
        return fail(err, CH_EINVAL, "an ending value is f%d to f%d on this edition's chart, not f%d",
                    ed->min_value + 1, ed->max_value, setup->end_value);
    s->end_turns = (uint16_t)setup->end_turns;
    s->end_value = (int16_t)setup->end_value;
    return CH_OK;
}

int variant_end_reached(const ch_state *st)
{
    if (st->end_turns && st->turn_no >= st->end_turns)
        return 1;
    if (st->end_value)
        for (int c = 0; c < st->ncompanies; c++)
            if (st->co[c].on_chart && st->co[c].value >= st->end_value)
                return 1;
    return 0;
}

void setup_rulebook(int edition, int preset, int nplayers, int *open, int *warehouses,
                    int *hand_limit, int *capital)
{
    if (nplayers < 2 || nplayers > CH_MAX_PLAYERS)
        nplayers = 4;
    if (edition == CH_ED_GOLDEN_AGE) {
        ga_rulebook(preset, nplayers, open, warehouses, capital);
        *hand_limit = 255;
        return;
    }
    *open = BA_MARKET;
    *warehouses = BA_WAREHOUSES;
    *hand_limit = BA_HAND_MAX;
    *capital = ba_capital[nplayers < 6 ? nplayers : 5];
}

int ch_new(ch_state *st, const ch_setup *setup, const ch_board *board, ch_msg *err)
{
    if (!st || !setup || !board)
        return fail(err, CH_EINVAL, "ch_new needs a state, a setup and a board");
    if (setup->edition == CH_ED_GOLDEN_AGE)
        return ga_new(st, setup, board, err);
    if (setup->edition != CH_ED_AMSTERDAM)
        return fail(err, CH_EINVAL, "unknown edition %d", setup->edition);
    if (setup->nplayers < 2 || setup->nplayers > 5)
        return fail(err, CH_EINVAL, "Building Amsterdam is for 2 to 5 players, not %d", setup->nplayers);
    int nlevels = BA_LEVEL2 + BA_LEVEL3 + BA_LEVEL4;
    if (board->nplots < 8 || board->nplots + nlevels > CH_MAX_CARDS)
        return fail(err, CH_EINVAL, "a board needs 8 to %d plots, this one has %d",
                    CH_MAX_CARDS - nlevels, board->nplots);
    int32_t cash[CH_MAX_PLAYERS];
    if (setup_variant_common(setup, ba_capital[setup->nplayers], cash, err) != CH_OK)
        return CH_EINVAL;
    int hand = setup->hand ? setup->hand : ba_hand[setup->nplayers];
    int open = setup->open ? setup->open : BA_MARKET;
    int limit = setup->hand_limit ? setup->hand_limit : BA_HAND_MAX;
    int supply = setup->warehouses ? setup->warehouses : BA_WAREHOUSES;
    if (limit < hand || limit >= CH_MAX_CARDS)
        return fail(err, CH_EINVAL, "the hand limit is %d to %d cards (no less than the starting hand), not %d",
                    hand, CH_MAX_CARDS - 1, limit);
    if (setup->no_stock_events != 0 && setup->no_stock_events != 1)
        return fail(err, CH_EINVAL, "no_stock_events is 0 or 1, not %d", setup->no_stock_events);
    if (board->nplots < hand * setup->nplayers + open)
        return fail(err, CH_EINVAL, "the board has too few plots (%d) to deal %d hands of %d",
                    board->nplots, setup->nplayers, hand);

    ch_state s;
    memset(&s, 0, sizeof s);
    s.magic = CH_STATE_MAGIC;
    s.edition = CH_ED_AMSTERDAM;
    s.nplayers = (uint8_t)setup->nplayers;
    s.ncompanies = CH_MAX_COMPANIES;
    s.seed = setup->seed;
    s.market_size = (uint8_t)open;
    /* without stock events (a variant) no card lies open and none is dealt */
    s.nevent_open = setup->no_stock_events ? 0 : setup->nplayers == 2 ? 2 : 3;
    s.max_hand = (uint8_t)limit;
    s.warehouses_total = (uint8_t)supply;
    s.roofs_total = BA_ROOFS;
    s.supply = (uint8_t)supply;
    s.roofs_left = BA_ROOFS;
    if (setup_prices_end(setup, &s, err) != CH_OK)
        return CH_EINVAL;
    if (board_intern(board, &s.board_id, err) != CH_OK)
        return CH_EINVAL;
    rng_seed(s.rng, setup->seed);

    /* Cards: one plot card per plot, then the 18 level cards (RULINGS.md
     * "Building cards": 9 second, 6 third, 3 fourth level; R-02). */
    int n = 0;
    memset(s.plot_card, CH_NONE, sizeof s.plot_card);
    for (int x = 0; x < board->nplots; x++, n++) {
        s.card_plot[n] = (uint8_t)x;
        s.card_level[n] = 0;
        s.plot_card[x] = (uint8_t)n;
    }
    int first_level = n;
    for (int i = 0; i < nlevels; i++, n++) {
        s.card_plot[n] = CH_NONE;
        s.card_level[n] = (uint8_t)(i < BA_LEVEL2 ? 2 : i < BA_LEVEL2 + BA_LEVEL3 ? 3 : 4);
    }
    s.ncards = (uint8_t)n;
    for (int c = n; c < CH_MAX_CARDS; c++) {
        s.card_plot[c] = CH_NONE;
        s.loc[c] = CH_LOC_UNUSED;
    }
    for (int x = board->nplots; x < CH_MAX_PLOTS; x++)
        s.owner[x] = CH_NONE;
    for (int x = 0; x < board->nplots; x++)
        s.owner[x] = CH_NONE;

    /* The level reserve: one fourth, one third and two second level cards,
     * shuffled face down (Rulebook "Setup"). */
    uint8_t reserve[4] = {(uint8_t)(first_level + BA_LEVEL2 + BA_LEVEL3), /* L4 */
                          (uint8_t)(first_level + BA_LEVEL2),             /* L3 */
                          (uint8_t)first_level, (uint8_t)(first_level + 1)}; /* L2 L2 */
    rng_shuffle(s.rng, reserve, 4);
    for (int i = 0; i < 4; i++) {
        s.reserve[i] = reserve[i];
        s.loc[reserve[i]] = CH_LOC_RESERVE;
    }
    s.nreserve = 4;

    /* Starting hands are dealt from the plot cards only. */
    uint8_t plots[CH_MAX_CARDS];
    for (int i = 0; i < board->nplots; i++)
        plots[i] = (uint8_t)i;
    rng_shuffle(s.rng, plots, board->nplots);
    int k = 0;
    for (int p = 0; p < s.nplayers; p++) {
        for (int i = 0; i < hand; i++) {
            int c = plots[k++];
            bs_set(s.pl[p].hand, c);
            s.loc[c] = (uint8_t)(CH_LOC_HAND + p);
        }
        s.pl[p].cash = cash[p];
        s.pl[p].actions = 2;
        s.total_money += s.pl[p].cash;
    }
    /* The deck: the undealt plot cards and the level cards not in the reserve. */
    for (; k < board->nplots; k++)
        s.deck[s.ndeck++] = plots[k];
    for (int c = first_level; c < n; c++)
        if (s.loc[c] != CH_LOC_RESERVE)
            s.deck[s.ndeck++] = (uint8_t)c;
    rng_shuffle(s.rng, s.deck, s.ndeck);
    for (int i = 0; i < s.ndeck; i++)
        s.loc[s.deck[i]] = CH_LOC_DECK;
    for (int i = 0; i < CH_MARKET_MAX; i++)
        s.market[i] = CH_NONE;
    draw_market_refill(&s);

    /* Stock events: 15 cards, 3 of each kind; 2 open with 2 players, else 3. */
    for (int i = 0; i < CH_EVENT_CARDS; i++)
        s.ev_deck[i] = (uint8_t)(i / 3);
    s.nev_deck = setup->no_stock_events ? 0 : CH_EVENT_CARDS;
    rng_shuffle(s.rng, s.ev_deck, s.nev_deck);
    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        s.ev_open[i] = i < s.nevent_open ? s.ev_deck[--s.nev_deck] : CH_NONE;

    start_game(&s);
    *st = s;
    return CH_OK;
}

/* Common to both editions once the cards are dealt: every company in the box
 * with its stock cards in the bank, the starting player drawn from the seed
 * and the first turn with no decision context. */
void start_game(ch_state *s)
{
    for (int c = 0; c < CH_MAX_COMPANIES; c++) {
        s->co[c].hq = CH_NONE;
        s->co[c].bank = (uint8_t)(c < s->ncompanies ? ED(s)->stocks : 0);
    }
    s->first_player = (uint8_t)rng_below(s->rng, s->nplayers);
    s->active = s->actor = s->first_player;
    s->phase = CH_PH_TURN;
    s->founded = CH_NONE;
    s->ev_slot = CH_NONE;
    s->ev_kind = CH_NONE;
    s->m_absorbed = s->m_absorber = s->m_seller = CH_NONE;
    s->au_item = s->au_high_bidder = s->au_turn = CH_NONE;
    s->b_card = s->b_card2 = s->b_plot = s->b_plot2 = s->b_hq = CH_NONE;
    s->offer.to = CH_NONE;
    s->ga_dest = s->ga_seller = s->ga_built = CH_NONE;
    s->turn_no = 1;
    board_rebuild(s);
}
