/* determinize.c: re-deal what one player cannot see, consistently with what
 * that player knows (for bots that search over hidden information). Hidden:
 * other hands except their publicly known cards, the deck order, the level
 * reserve, cards being looked at in Veilinge 3 by someone else, other players'
 * unrevealed sealed bids (RULINGS.md "Hidden information"; ). Kept:
 * the reserve holds only level cards, at most those it started with (one
 * fourth, one third, two second); a player's hidden cards hold at most
 * hidden_levels level cards (starting hands are plot cards only); event cards
 * (The Golden Age) are never in a hand; under the printed rules whether the
 * top card of the closed stack is an event card is seen by all and kept
 * (ch_deck_top_event). In The Golden Age the other players' stock holdings
 * are hidden too and are re-dealt among them. */
#include "internal.h"

int ch_deck_top_event(const ch_state *st)
{
    if (!st || st->edition != CH_ED_GOLDEN_AGE || !st->events_on || st->preset != CH_GA_PRINTED ||
        st->ndeck == 0)
        return -1;
    return st->card_event[st->deck[st->ndeck - 1]] != 0;
}

/* The Golden Age: total[c] hidden stock cards of each enterprise dealt at
 * random among the players who[0..n), on top of what they hold. In a
 * stock-sale event (CH_PH_EVSELL) the deciding seller, when among them,
 * still holds at least the lose_left cards everyone saw them start to sell
 * (a seller with none is skipped: printed rulebook "Event cards"; G-24),
 * else the state would have a decider without a legal move (issue 28).
 * Deals that break this are drawn again (so the deal is the one conditioned
 * on it); after 64 such, the seller's cards are drawn first. */
void ga_deal_stocks(ch_state *st, const int *who, int n, const int *total, uint64_t rng[4])
{
    if (n <= 0)
        return;
    uint8_t base[CH_MAX_PLAYERS][CH_MAX_COMPANIES];
    for (int i = 0; i < n; i++)
        memcpy(base[i], st->pl[who[i]].stock, sizeof base[i]);
    int seller = -1, want = 0, all = 0;
    for (int c = 0; c < st->ncompanies; c++)
        all += total[c];
    if (st->phase == CH_PH_EVSELL)
        for (int i = 0; i < n; i++)
            if (who[i] == st->m_seller) {
                seller = i;
                want = st->lose_left;
                for (int c = 0; c < st->ncompanies; c++)
                    want -= base[i][c];
            }
    if (want > all)
        want = all; /* an inconsistent state: no deal can meet it */
    for (int tries = 0;; tries++) {
        for (int i = 0; i < n; i++)
            memcpy(st->pl[who[i]].stock, base[i], sizeof base[i]);
        if (seller < 0 || want <= 0 || tries < 64) {
            int got = 0;
            for (int c = 0; c < st->ncompanies; c++)
                for (int k = 0; k < total[c]; k++) {
                    int i = (int)rng_below(rng, (uint32_t)n);
                    st->pl[who[i]].stock[c]++;
                    got += i == seller;
                }
            if (seller < 0 || got >= want)
                return;
            continue;
        }
        /* the seller's `want` cards first, drawn from every hidden card */
        uint8_t cards[CH_MAX_COMPANIES * 16];
        int nc = 0;
        for (int c = 0; c < st->ncompanies; c++)
            for (int k = 0; k < total[c] && nc < (int)sizeof cards; k++)
                cards[nc++] = (uint8_t)c;
        rng_shuffle(rng, cards, nc);
        for (int j = 0; j < nc; j++)
            st->pl[who[j < want ? seller : (int)rng_below(rng, (uint32_t)n)]].stock[cards[j]]++;
        return;
    }
}

void ch_determinize(ch_state *st, int p, uint64_t seed)
{
    if (!st || st->magic != CH_STATE_MAGIC || p < 0 || p >= st->nplayers)
        return;
    /* the printed rules' event backs: whether the top card is an event is
       seen by all, and the new deal keeps it (Ruling G-07) */
    int top_event = ch_deck_top_event(st);
    uint64_t rng[4];
    rng_seed(rng, seed ^ 0xD1CEull);
    uint8_t pool[CH_MAX_CARDS];
    int npool = 0;
    int slots[CH_MAX_PLAYERS] = {0};
    int look_hidden = st->phase == CH_PH_PICK && st->au_option == 3 && st->actor != p;
    for (int c = 0; c < st->ncards; c++) {
        int l = st->loc[c];
        int hidden = l == CH_LOC_DECK || l == CH_LOC_RESERVE || (l == CH_LOC_LOOK && look_hidden);
        if (l >= CH_LOC_HAND) {
            int q = l - CH_LOC_HAND;
            if (q != p && !bs_has(st->pl[q].known, c)) {
                hidden = 1;
                slots[q]++;
                bs_clr(st->pl[q].hand, c);
            }
        }
        if (hidden)
            pool[npool++] = (uint8_t)c;
    }
    rng_shuffle(rng, pool, npool);
    uint8_t used[CH_MAX_CARDS] = {0};
    /* Level reserve first: level cards within the starting composition (one
     * fourth, one third, two second), less what the viewer took from it. */
    int took = st->pl[p].reserve_took;
    int cap[5] = {0, 0, 2 - (took & 3), 1 - (took >> 2 & 1), 1 - (took >> 3 & 1)};
    for (int i = 0; i < st->nreserve; i++) {
        int pick = -1;
        for (int j = 0; j < npool; j++) {
            int c = pool[j], k = st->card_level[c];
            if (!used[j] && k && cap[k] > 0) {
                pick = j;
                cap[k]--;
                break;
            }
        }
        if (pick < 0)
            return; /* cannot happen for a consistent state */
        used[pick] = 1;
        st->reserve[i] = pool[pick];
        st->loc[pool[pick]] = CH_LOC_RESERVE;
    }
    /* Hidden hand cards: first the plot cards each hand must hold, then the
     * remaining slots from anything, level cards within the player's bound. */
    int maxlev[CH_MAX_PLAYERS], levels[CH_MAX_PLAYERS] = {0};
    for (int pass = 0; pass < 2; pass++) {
        for (int q = 0; q < st->nplayers; q++) {
            if (pass == 0)
                maxlev[q] = st->pl[q].hidden_levels < slots[q] ? st->pl[q].hidden_levels : slots[q];
            int want = pass == 0 ? slots[q] - maxlev[q] : slots[q];
            for (int j = 0; j < npool && want > 0; j++) {
                int c = pool[j], lev = st->card_level[c] != 0;
                if (used[j] || st->card_event[c] || (lev && (pass == 0 || levels[q] >= maxlev[q])))
                    continue; /* event cards never stay in a hand */
                used[j] = 1;
                levels[q] += lev;
                want--;
                slots[q]--;
                bs_set(st->pl[q].hand, c);
                st->loc[c] = (uint8_t)(CH_LOC_HAND + q);
            }
        }
    }
    /* Cards looked at by another player in Veilinge 3 */
    if (look_hidden)
        for (int i = 0; i < st->nlook; i++)
            for (int j = 0; j < npool; j++)
                if (!used[j]) {
                    used[j] = 1;
                    st->look[i] = pool[j];
                    st->loc[pool[j]] = CH_LOC_LOOK;
                    break;
                }
    /* The rest is the deck, in a fresh order. */
    int k = 0;
    for (int j = 0; j < npool; j++)
        if (!used[j]) {
            st->deck[k++] = pool[j];
            st->loc[pool[j]] = CH_LOC_DECK;
        }
    st->ndeck = (uint8_t)k;
    if (top_event >= 0 && k > 0) {
        /* the top card: one of the deck's cards of the kind seen, at random
           (the true top card is one, so there is one) */
        int nk = 0, pick;
        for (int i = 0; i < k; i++)
            nk += (st->card_event[st->deck[i]] != 0) == top_event;
        pick = nk ? (int)rng_below(rng, (uint32_t)nk) : -1;
        for (int i = 0; i < k && pick >= 0; i++)
            if ((st->card_event[st->deck[i]] != 0) == top_event && pick-- == 0) {
                uint8_t t = st->deck[i];
                st->deck[i] = st->deck[k - 1];
                st->deck[k - 1] = t;
            }
    }
    /* The Golden Age: other players' stock holdings are private; only the
     * bank's count per enterprise is public (RULINGS.md "Hidden information").
     * Re-deal, per enterprise, the cards the others hold among them. */
    if (st->edition == CH_ED_GOLDEN_AGE && st->nplayers > 2) {
        int total[CH_MAX_COMPANIES] = {0}, others[CH_MAX_PLAYERS], no = 0;
        for (int q = 0; q < st->nplayers; q++)
            if (q != p) {
                for (int c = 0; c < st->ncompanies; c++) {
                    total[c] += st->pl[q].stock[c];
                    st->pl[q].stock[c] = 0;
                }
                others[no++] = q;
            }
        ga_deal_stocks(st, others, no, total, rng);
    }
    /* The Golden Age: which event cards are still in the deck is hidden too
     * (with fewer than 12 in the game, some kinds were left out at random):
     * re-draw their kinds from those not yet seen in the discard pile. */
    if (st->edition == CH_ED_GOLDEN_AGE && st->events_on) {
        uint8_t kinds[CH_GE_KINDS], nk = 0, seen[CH_GE_KINDS] = {0};
        for (int c = 0; c < st->ncards; c++)
            if (st->card_event[c] && st->loc[c] == CH_LOC_DISCARD)
                seen[st->card_event[c] - 1] = 1;
        for (int k = 0; k < CH_GE_KINDS; k++)
            if (!seen[k])
                kinds[nk++] = (uint8_t)k;
        rng_shuffle(rng, kinds, nk);
        int i = 0;
        for (int c = 0; c < st->ncards; c++)
            if (st->card_event[c] && st->loc[c] != CH_LOC_DISCARD && i < nk)
                st->card_event[c] = (uint8_t)(1 + kinds[i++]);
    }
    /* Unrevealed sealed bids of the others, each one they could have made
     * (a rebid beats the tied amount while they can pay it: R-36). */
    if (st->phase == CH_PH_BID)
        for (int q = 0; q < st->nplayers; q++)
            if (q != p && (st->bid_in >> q & 1)) {
                int32_t lo = ch_bid_min(st, q);
                st->bid[q] = lo + (int32_t)rng_below(rng, (uint32_t)(st->pl[q].cash - lo) + 1);
            }
    memcpy(st->rng, rng, sizeof rng);
    /* the active player's hand may have been re-dealt: what an offer being
     * built may ask for follows it */
    if (st->offer_cached)
        offer_cache_sync(st);
}
