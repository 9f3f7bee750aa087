/* names.c: the names the library shows to people: companies (per edition),
 * stock events, turn phases and building cards, plus the lookup of a company
 * by name (used by the move notation) and the hand-size count.
 * Nothing here allocates; every function tolerates out-of-range input and
 * answers "?" (or -1 / 0) instead of failing.
 */
#include "chartered.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const char *const ba_companies[CH_MAX_COMPANIES] = {
    "Gunpowder", "Coal", "Porcelain", "Silk", "Spices",
    "Sugar", "Herring", "Tea", "Tobacco"};

static const char *const ga_companies[CH_MAX_COMPANIES] = {
    "Gold", "Coffee", "Pepper", "Gems", "Opium",
    "Silver", "Tea", "Silk", "Gunpowder"};

static const char *const event_names[CH_EV_KINDS] = {
    "Verlappen", "Aenleggen", "Dreighinghe", "Coopmanscappen", "Veilinge"};

static const char *const phase_names[CH_PH_COUNT] = {
    [CH_PH_TURN] = "turn",
    [CH_PH_PURCHASE] = "purchase",
    [CH_PH_HQ] = "hq",
    [CH_PH_FOUND] = "found",
    [CH_PH_CREDIT] = "credit",
    [CH_PH_MERGE] = "merge",
    [CH_PH_MERGE_SELL] = "merge-sell",
    [CH_PH_TRADE] = "trade",
    [CH_PH_SELL] = "sell",
    [CH_PH_EVENT] = "event",
    [CH_PH_BID] = "bid",
    [CH_PH_LOSE] = "lose",
    [CH_PH_COOP] = "coop",
    [CH_PH_OFFER] = "offer",
    [CH_PH_RESPOND] = "respond",
    [CH_PH_VEILINGE] = "veilinge",
    [CH_PH_AUCTION] = "auction",
    [CH_PH_PICK] = "pick",
    [CH_PH_OVER] = "over",
    [CH_PH_FREE] = "free",
    [CH_PH_FORCED] = "forced",
    [CH_PH_EVSELL] = "event-sell",
};

/* The company name table of the state's edition (Building Amsterdam when st
 * is NULL or names an unknown edition). */
static const char *const *company_table(const ch_state *st)
{
    if (st && st->edition == CH_ED_GOLDEN_AGE)
        return ga_companies;
    return ba_companies;
}

/* How many companies the game has: st->ncompanies when it is sensible,
 * otherwise the full set. */
static int company_count(const ch_state *st)
{
    if (st && st->ncompanies >= 1 && st->ncompanies <= CH_MAX_COMPANIES)
        return st->ncompanies;
    return CH_MAX_COMPANIES;
}

const char *ch_company_name(const ch_state *st, int company)
{
    if (company < 0 || company >= company_count(st))
        return "?";
    return company_table(st)[company];
}

int ch_company_find(const ch_state *st, const char *text, int *consumed)
{
    if (consumed)
        *consumed = 0;
    if (!text)
        return -1;
    const char *s = text;
    while (*s && isspace((unsigned char)*s))
        s++;
    const char *const *names = company_table(st);
    int best = -1;
    size_t best_len = 0;
    for (int i = 0; i < company_count(st); i++) {
        size_t len = strlen(names[i]);
        size_t k = 0;
        while (k < len && s[k] &&
               tolower((unsigned char)s[k]) == tolower((unsigned char)names[i][k]))
            k++;
        if (k != len)
            continue;
        /* whole word: the name must not run on into more letters or digits */
        unsigned char next = (unsigned char)s[len];
        if (isalnum(next) || next == '_')
            continue;
        if (len > best_len) {
            best = i;
            best_len = len;
        }
    }
    if (best >= 0 && consumed)
        *consumed = (int)((s - text) + (ptrdiff_t)best_len);
    return best;
}

const char *ch_event_name(int kind)
{
    if (kind < 0 || kind >= CH_EV_KINDS)
        return "?";
    return event_names[kind];
}

/* The Golden Age event cards, as printed: "+f50", "all -f30", "sell 2",
 * "Gold Coffee Pepper +f30". */
const char *ch_ga_event_name(int kind)
{
    static const char *const names[CH_GE_KINDS] = {
        [CH_GE_MONEY_UP] = "+f50", [CH_GE_MONEY_DOWN] = "-f50",
        [CH_GE_ALL_UP] = "all +f30", [CH_GE_ALL_DOWN] = "all -f30",
        [CH_GE_SELL1] = "sell 1", [CH_GE_SELL2] = "sell 2",
        [CH_GE_THREE_UP_1] = "Gold Coffee Pepper +f30",
        [CH_GE_THREE_UP_2] = "Gems Opium Silver +f30",
        [CH_GE_THREE_UP_3] = "Tea Silk Gunpowder +f30",
        [CH_GE_THREE_DOWN_1] = "Gold Coffee Pepper -f30",
        [CH_GE_THREE_DOWN_2] = "Gems Opium Silver -f30",
        [CH_GE_THREE_DOWN_3] = "Tea Silk Gunpowder -f30",
    };
    if (kind < 0 || kind >= CH_GE_KINDS)
        return "?";
    return names[kind];
}

const char *ch_phase_name(int phase)
{
    if (phase < 0 || phase >= CH_PH_COUNT || !phase_names[phase])
        return "?";
    return phase_names[phase];
}

/* Writes "Harbour C1" for a plot card and "L2" for a level card. Returns the
 * length of the full name (like snprintf), or -1 when card is not a card of
 * this game (buf then holds "?"). */
int ch_card_name(const ch_state *st, int card, char *buf, size_t n)
{
    if (!st || card < 0 || card >= st->ncards || card >= CH_MAX_CARDS) {
        if (buf && n > 0)
            snprintf(buf, n, "?");
        return -1;
    }
    if (st->card_event[card]) {
        int k = st->card_event[card] - 1;
        return snprintf(buf, buf ? n : 0, "event %s", ch_ga_event_name(k));
    }
    int level = st->card_level[card];
    if (level >= 2 && level <= 5) {
        int len = snprintf(buf, buf ? n : 0, "L%d", level);
        return len;
    }
    int plot = st->card_plot[card];
    if (plot == CH_NONE || plot >= ch_state_board(st)->nplots) {
        if (buf && n > 0)
            snprintf(buf, n, "?");
        return -1;
    }
    char tmp[2 * CH_NAME_LEN + CH_LABEL_LEN + 8];
    int len = ch_plot_name(ch_state_board(st), plot, tmp, sizeof tmp);
    if (len < 0) {
        if (buf && n > 0)
            snprintf(buf, n, "?");
        return -1;
    }
    tmp[sizeof tmp - 1] = '\0';
    return snprintf(buf, buf ? n : 0, "%s", tmp);
}

static int popcount64(uint64_t x)
{
    int c = 0;
    while (x) {
        x &= x - 1;
        c++;
    }
    return c;
}

int ch_hand_count(const ch_state *st, int p)
{
    if (!st || p < 0 || p >= CH_MAX_PLAYERS || p >= st->nplayers)
        return 0;
    return popcount64(st->pl[p].hand[0]) + popcount64(st->pl[p].hand[1]);
}
