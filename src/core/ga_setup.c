/* ga_setup.c: a new game of Chartered: The Golden Age (printed rulebook "Game
 * set up"; first rules "Setup"; RULINGS.md "The Golden Age": presets, cards,
 * events). Both presets: golden-age (printed, default) and golden-age-first. */
#include "internal.h"

/* One row of a preset's setup table (RULINGS.md "Setup presets"). */
typedef struct ga_row {
    int side;       /* 0 harbour side, 1 city centre side          */
    int open;       /* open cards                                  */
    int warehouses; /* supply, excluding the 9 HQ pieces           */
    int maxlevel;   /* level cards up to this level are in the game */
    int hand, capital;
} ga_row;

static const ga_row ga_printed[7] = {
    [2] = {0, 5, 70, 3, 14, 600},
    [3] = {0, 4, 70, 4, 12, 500},
    [4] = {1, 3, 95, 5, 10, 400},
    [5] = {1, 3, 95, 5, 10, 400},
    [6] = {1, 3, 95, 5, 10, 400},
};
static const ga_row ga_first[7] = {
    [2] = {0, 5, 65, 3, 11, 600}, /* grey cards: plots 1-60, second and third levels */
    [3] = {0, 4, 65, 4, 10, 500}, /* grey and blue: fourth levels too                 */
    [4] = {1, 3, 96, 5, 9, 400},
    [5] = {1, 3, 96, 5, 9, 400},
    [6] = {1, 3, 96, 5, 8, 350},
};
/* Level cards of the full set: 6 second, 5 third, 4 fourth, 3 fifth. */
static const int ga_levels[6] = {0, 0, 6, 5, 4, 3};
/* Event cards shuffled in, by player count (first rules' table). */
static const int ga_events[7] = {0, 0, 12, 10, 12, 10, 8};

void ga_rulebook(int preset, int nplayers, int *open, int *warehouses, int *capital)
{
    const ga_row *r = preset == CH_GA_FIRST ? &ga_first[nplayers] : &ga_printed[nplayers];
    *open = r->open;
    *warehouses = r->warehouses;
    *capital = r->capital;
}

const char *ch_ga_side(int preset, int nplayers)
{
    if (nplayers < 2 || nplayers > 6)
        return NULL;
    const ga_row *r = preset == CH_GA_FIRST ? &ga_first[nplayers] : &ga_printed[nplayers];
    return r->side ? "centre" : "harbour";
}

int ga_new(ch_state *st, const ch_setup *setup, const ch_board *board, ch_msg *err)
{
    if (setup->nplayers < 2 || setup->nplayers > 6)
        return fail(err, CH_EINVAL, "The Golden Age is for 2 to 6 players, not %d", setup->nplayers);
    if (setup->preset != CH_GA_PRINTED && setup->preset != CH_GA_FIRST)
        return fail(err, CH_EINVAL, "unknown Golden Age preset %d", setup->preset);
    const ga_row *r = setup->preset == CH_GA_FIRST ? &ga_first[setup->nplayers] : &ga_printed[setup->nplayers];
    if (setup->hand_limit)
        return fail(err, CH_EINVAL, "The Golden Age has no hand limit to change");
    if (setup->no_stock_events)
        return fail(err, CH_EINVAL, "The Golden Age's events are cards of the deck: leave them out with events 0");
    int32_t cash[CH_MAX_PLAYERS];
    if (setup_variant_common(setup, r->capital, cash, err) != CH_OK)
        return CH_EINVAL;
    int hand = setup->hand ? setup->hand : r->hand;
    int open = setup->open ? setup->open : r->open;
    int supply = setup->warehouses ? setup->warehouses : r->warehouses;
    int nlev = 0;
    for (int k = 2; k <= r->maxlevel; k++)
        nlev += ga_levels[k];
    int nev = setup->events ? ga_events[setup->nplayers] : 0;
    if (board->nplots < 8 || board->nplots + nlev + nev > CH_MAX_CARDS)
        return fail(err, CH_EINVAL, "a Golden Age board needs 8 to %d lots, this one has %d",
                    CH_MAX_CARDS - nlev - nev, board->nplots);
    if (board->nplots < hand * setup->nplayers + open)
        return fail(err, CH_EINVAL, "the board has too few lots (%d) to deal %d hands of %d",
                    board->nplots, setup->nplayers, hand);

    ch_state s;
    memset(&s, 0, sizeof s);
    s.magic = CH_STATE_MAGIC;
    s.edition = CH_ED_GOLDEN_AGE;
    s.preset = (uint8_t)setup->preset;
    s.events_on = (uint8_t)(setup->events != 0);
    s.nplayers = (uint8_t)setup->nplayers;
    s.ncompanies = CH_MAX_COMPANIES;
    s.seed = setup->seed;
    s.market_size = (uint8_t)open;
    s.nevent_open = 0;
    s.max_hand = 255; /* no hand limit */
    s.warehouses_total = (uint8_t)supply;
    s.supply = (uint8_t)supply;
    if (setup_prices_end(setup, &s, err) != CH_OK)
        return CH_EINVAL;
    if (board_intern(board, &s.board_id, err) != CH_OK)
        return CH_EINVAL;
    rng_seed(s.rng, setup->seed);

    int n = 0;
    memset(s.plot_card, CH_NONE, sizeof s.plot_card);
    for (int x = 0; x < board->nplots; x++, n++) {
        s.card_plot[n] = (uint8_t)x;
        s.plot_card[x] = (uint8_t)n;
    }
    int first_level = n;
    for (int k = 2; k <= r->maxlevel; k++)
        for (int i = 0; i < ga_levels[k]; i++, n++) {
            s.card_plot[n] = CH_NONE;
            s.card_level[n] = (uint8_t)k;
        }
    int first_event = n;
    /* With fewer players than the table's count, that many events at random. */
    uint8_t kinds[CH_GE_KINDS];
    for (int i = 0; i < CH_GE_KINDS; i++)
        kinds[i] = (uint8_t)i;
    rng_shuffle(s.rng, kinds, CH_GE_KINDS);
    for (int i = 0; i < nev; i++, n++) {
        s.card_plot[n] = CH_NONE;
        s.card_event[n] = (uint8_t)(1 + kinds[i]);
    }
    s.ncards = (uint8_t)n;
    for (int c = n; c < CH_MAX_CARDS; c++) {
        s.card_plot[c] = CH_NONE;
        s.loc[c] = CH_LOC_UNUSED;
    }
    for (int x = 0; x < CH_MAX_PLOTS; x++)
        s.owner[x] = CH_NONE;

    /* Starting hands from plot cards only: level cards are never dealt. */
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
        s.pl[p].flags = 2;
        s.total_money += s.pl[p].cash;
    }
    for (; k < board->nplots; k++)
        s.deck[s.ndeck++] = plots[k];
    for (int c = first_level; c < first_event; c++)
        s.deck[s.ndeck++] = (uint8_t)c;
    rng_shuffle(s.rng, s.deck, s.ndeck);
    for (int i = 0; i < s.ndeck; i++)
        s.loc[s.deck[i]] = CH_LOC_DECK;
    /* The open cards are turned up before the events go in, so no event acts
     * during setup (G-22); then the events are shuffled into the deck. */
    for (int i = 0; i < CH_MARKET_MAX; i++)
        s.market[i] = CH_NONE;
    for (int i = 0; i < s.market_size && s.ndeck; i++) {
        int c = s.deck[--s.ndeck];
        s.market[i] = (uint8_t)c;
        s.loc[c] = CH_LOC_MARKET;
    }
    for (int c = first_event; c < n; c++) {
        s.deck[s.ndeck++] = (uint8_t)c;
        s.loc[c] = CH_LOC_DECK;
    }
    rng_shuffle(s.rng, s.deck, s.ndeck);

    for (int i = 0; i < CH_EVENT_OPEN_MAX; i++)
        s.ev_open[i] = CH_NONE;
    start_game(&s);
    *st = s;
    return CH_OK;
}
