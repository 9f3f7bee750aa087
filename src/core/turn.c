/* turn.c: the decision loop of Building Amsterdam. Who decides now, the legal
 * moves of each phase, checking and applying a move, and the turn's skeleton:
 * option 1 purchase, option 2 build (build.c, merger.c) then trading or an
 * action card, option 3 selling, and the end of the turn (market refill, the
 * turn's stock event, game end, Verlappen extra turns, the stall rule). */
#include "internal.h"

/* ---- cards --------------------------------------------------------------- */

/* A card enters a hand. Cards taken in sight of everyone (market, trades, the
 * discard pile) are known to all; a hidden card may be a level card, which
 * determinize must respect (hidden_levels is an upper bound). */
void card_to_hand(ch_state *st, int p, int card, int known)
{
    bs_set(st->pl[p].hand, card);
    st->loc[card] = (uint8_t)(CH_LOC_HAND + p);
    if (known) {
        bs_set(st->pl[p].known, card);
    } else {
        bs_clr(st->pl[p].known, card);
        if (st->pl[p].hidden_levels < 255)
            st->pl[p].hidden_levels++;
    }
}

void card_from_hand(ch_state *st, int p, int card)
{
    if (st->card_level[card] && !bs_has(st->pl[p].known, card) && st->pl[p].hidden_levels)
        st->pl[p].hidden_levels--;
    bs_clr(st->pl[p].hand, card);
    bs_clr(st->pl[p].known, card);
}

int deck_pop(ch_state *st)
{
    assert(st->ndeck > 0);
    return st->deck[--st->ndeck];
}

/* The market refills from the deck; when the deck is empty it shrinks
 * (RULINGS.md "Purchase"; R-11). */
void draw_market_refill(ch_state *st)
{
    for (int i = 0; i < st->market_size; i++) {
        if (st->market[i] != CH_NONE || st->ndeck == 0)
            continue;
        int c = deck_pop(st);
        st->market[i] = (uint8_t)c;
        st->loc[c] = CH_LOC_MARKET;
    }
}

/* Refresh (both editions): the open cards go back into the deck, which is
 * shuffled (R-12; The Golden Age: "Refresh"). The caller refills the market. */
void market_to_deck(ch_state *st)
{
    for (int i = 0; i < st->market_size; i++) {
        if (st->market[i] == CH_NONE)
            continue;
        st->deck[st->ndeck++] = st->market[i];
        st->loc[st->market[i]] = CH_LOC_DECK;
        st->market[i] = CH_NONE;
    }
    rng_shuffle(st->rng, st->deck, st->ndeck);
}

/* Player p takes an open card, in sight of everyone; its slot stays empty. */
void take_from_market(ch_state *st, int p, int card)
{
    for (int i = 0; i < st->market_size; i++)
        if (st->market[i] == card)
            st->market[i] = CH_NONE;
    card_to_hand(st, p, card, 1);
}

/* The stock trades of player p in a trading phase (both editions): buy from
 * the bank what p can pay for, sell what p holds, companies on the chart. */
int gen_stock_trades(const ch_state *st, int p, ch_move *buf, int cap, int n)
{
    /* stock_price, with what it reads taken once (a move store could alias
     * the state, which would reload it for every company) */
    const ch_player *pl = &st->pl[p];
    const int cash = pl->cash, nc = st->ncompanies, floor = st->prices.stock_min;
    const int discounted = st->discount_left > 0 ? st->founded : -1;
    if (n >= 0 && cap - n >= 2 * CH_MAX_COMPANIES) {
        /* room for every trade: straight stores, no count against cap, and
         * no branch on the company (random states mispredict them): each
         * move is written, and kept by moving past it when it is legal */
        ch_move *out = buf + n;
        /* every company slot, those past the game's count masked out: a
         * loop of fixed length unrolls without a test of the count */
        for (int c = 0; c < CH_MAX_COMPANIES; c++) {
            const ch_company *co = &st->co[c];
            int v = co->value, price = c == discounted || v >= floor ? v : floor;
            int on = (co->on_chart != 0) & (c < nc);
            move_put(out, CH_M_BUY, (unsigned)c, 0, 0, 0);
            out += on & (co->bank > 0) & (cash >= price);
            move_put(out, CH_M_SELL, (unsigned)c, 0, 0, 1);
            out += on & (pl->stock[c] > 0);
        }
        return (int)(out - buf);
    }
    for (int c = 0; c < nc; c++) {
        const ch_company *co = &st->co[c];
        if (!co->on_chart)
            continue;
        int v = co->value, price = c == discounted || v >= floor ? v : floor;
        if (co->bank > 0 && cash >= price)
            emit(buf, cap, &n, CH_M_BUY, c, 0, 0, 0);
        if (pl->stock[c])
            emit(buf, cap, &n, CH_M_SELL, c, 0, 0, 1);
    }
    return n;
}

/* A trade is made: the second one ends the turn (R-29, R-30; G-18). */
void count_trade(ch_state *st)
{
    if (++st->trades >= 2)
        end_turn(st);
}

/* The turn is passed (the stall rule counts the players who passed: R-50,
 * R-51; G-27). */
void pass_turn(ch_state *st)
{
    st->passed = 1;
    end_turn(st);
}

/* ---- turn skeleton ------------------------------------------------------------ */

static void game_over(ch_state *st)
{
    st->phase = CH_PH_OVER;
    st->over = 1;
    st->actor = CH_NONE;
}

static void start_turn(ch_state *st, int p, int extra)
{
    st->active = st->actor = (uint8_t)p;
    st->phase = CH_PH_TURN;
    st->founded = CH_NONE;
    st->discount_left = 0;
    st->trades = st->taken = st->built = st->passed = 0;
    st->extra_turn = (uint8_t)extra;
    st->b_card = st->b_card2 = st->b_plot = st->b_plot2 = st->b_hq = CH_NONE;
    st->b_roof = 0;
    st->ev_from_action = 0;
    st->ga_built = CH_NONE;
    st->ga_dest = CH_NONE;
    st->turn_no++;
}

void end_turn(ch_state *st)
{
    /* The market is refilled first, then the turn's event. The
     * Golden Age refills its open cards at once instead, and has no chart events. */
    if (st->edition == CH_ED_AMSTERDAM)
        draw_market_refill(st);
    if (st->event_due) {
        st->event_due = 0;
        if (event_choosable(st)) {
            enter_event(st, 0);
            return;
        }
    }
    /* Stall rule (RULINGS.md "Stall": "If a whole round passes with every
     * player passing, the game ends"; ): passes counts the players
     * who have passed since the last turn that was not a pass, and the game
     * ends when that is every player. Turns go clockwise, and the only turn
     * that repeats a player is a Verlappen extra turn, right after that
     * player's own turn: a pass there, after a passed turn, is the
     * same player passing again and adds nobody (issue 29). The last
     * warehouse ends the game after this turn. */
    if (!st->passed)
        st->passes = 0;
    else if (!(st->extra_turn && st->passes > 0))
        st->passes = (uint8_t)(st->passes + 1);
    /* A variant may end the game sooner: after a given turn, or once a
       company's value reaches a given amount (docs/variants.md, "end"); as
       the last warehouse does, at the end of the turn (R-49, G-25). */
    if (st->passes >= st->nplayers || st->end_triggered || variant_end_reached(st)) {
        game_over(st);
        return;
    }
    int p = st->active;
    if (st->pl[p].extra_armed) {
        /* Verlappen: a second turn right after the winner's next turn. */
        st->pl[p].extra_armed = 0;
        start_turn(st, p, 1);
        return;
    }
    int q = next_player(st, p);
    if (st->pl[q].extra_pending) {
        st->pl[q].extra_pending = 0;
        st->pl[q].extra_armed = 1;
    }
    start_turn(st, q, 0);
}

void enter_trade(ch_state *st)
{
    /* The Golden Age's first rules (preset golden-age-first), "End of the
     * Game": "When the last warehouse is place on the board, the game
     * ends." (the Japanese translation agrees). The build that placed it is
     * resolved, its payout and a merger's sales, and the game ends with no
     * trade or flag after it. The printed rulebook (seed 003) ends it "at
     * the end of that player's turn" instead, after the trade (G-25). */
    if (st->edition == CH_ED_GOLDEN_AGE && st->preset == CH_GA_FIRST && st->end_triggered) {
        end_turn(st);
        return;
    }
    st->phase = CH_PH_TRADE;
    st->actor = st->active;
    st->trades = 0;
}

/* ---- option 1: purchase (Rulebook "Turn option 1"; RULINGS.md "Purchase"; R-11) */

/* Level cards are interchangeable: of the market's cards of one level only the
 * lowest id is listed (the text "take L2" names that one). */
static int market_level_canonical(const ch_state *st, int i)
{
    int c = st->market[i];
    if (!st->card_level[c])
        return 1;
    for (int j = 0; j < st->market_size; j++)
        if (j != i && st->market[j] != CH_NONE && st->card_level[st->market[j]] == st->card_level[c] &&
            st->market[j] < c)
            return 0;
    return 1;
}

static int gen_take(const ch_state *st, ch_move *buf, int cap, int n, int levels_ok)
{
    if (st->ndeck > 0)
        emit(buf, cap, &n, CH_M_DRAW, 0, 0, 0, 0);
    /* As The Golden Age's gen_purchase_moves: the lowest id of each level in
     * the market first (low[k]; levels of 16 and more, which only a hand-made
     * state could hold, by market_level_canonical), then, when the buffer has
     * room, every slot's move written and kept by moving past it, without a
     * branch per slot (random states mispredict them). An empty slot
     * (CH_NONE) reads the card table at 127 and is dropped. */
    const int ms = st->market_size;
    uint8_t low[16 + CH_MARKET_MAX];
    market_level_low(st, low);
    if (n >= 0 && cap - n >= ms) {
        ch_move *out = buf + n;
        for (int i = 0; i < ms; i++) {
            int c = st->market[i], k = st->card_level[c & (CH_MAX_CARDS - 1)];
            int keep = (c != CH_NONE) & ((k == 0) | ((levels_ok != 0) & (low[k & 15] == c)));
            if (__builtin_expect(k >= 16, 0) && c != CH_NONE)
                keep = levels_ok && market_level_canonical(st, i);
            move_put(out, CH_M_TAKE, (unsigned)c, 0, 0, 0);
            out += keep;
        }
        return (int)(out - buf);
    }
    for (int i = 0; i < ms; i++) {
        int c = st->market[i];
        if (c == CH_NONE || (st->card_level[c] && !levels_ok) || !market_level_canonical(st, i))
            continue;
        emit(buf, cap, &n, CH_M_TAKE, c, 0, 0, 0);
    }
    return n;
}

/* The sales of player p's stocks of companies on the chart (turn option 3),
 * in company order: the companies as a mask (no branch per company). */
static inline int gen_sales(const ch_state *st, const ch_player *pl, ch_move *buf, int cap, int n)
{
    /* byte by byte: the selling phase follows a sale, whose store to the
     * stock counts a wider load would wait for */
    unsigned m = 0;
    for (int c = 0; c < CH_MAX_COMPANIES; c++)
        m |= (unsigned)((pl->stock[c] != 0) & (st->co[c].on_chart != 0)) << c;
    m &= (1u << st->ncompanies) - 1;
    for (; m; m &= m - 1)
        emit(buf, cap, &n, CH_M_SELL, __builtin_ctz(m), 0, 0, 1);
    return n;
}

static int market_count(const ch_state *st)
{
    int k = 0;
    for (int i = 0; i < st->market_size; i++)
        k += st->market[i] != CH_NONE;
    return k;
}

static int gen_turn(const ch_state *st, ch_move *buf, int cap)
{
    int n = 0, p = st->active;
    const ch_player *pl = &st->pl[p];
    if (hand_count(st, p) < st->max_hand) {
        if (pl->cash >= st->prices.purchase)
            n = gen_take(st, buf, cap, n, 1);
        if (pl->cash >= st->prices.refresh && st->ndeck + market_count(st) > 0)
            emit(buf, cap, &n, CH_M_REFRESH, 0, 0, 0, 0);
    }
    n = gen_plays(st, buf, cap, n);
    n = gen_sales(st, pl, buf, cap, n);
    emit(buf, cap, &n, CH_M_PASS, 0, 0, 0, 0);
    return n;
}

static int gen_purchase(const ch_state *st, ch_move *buf, int cap)
{
    int n = gen_take(st, buf, cap, 0, st->taken == 0);
    if (st->taken > 0)
        emit(buf, cap, &n, CH_M_DONE, 0, 0, 0, 0);
    return n;
}

/* After a card is taken: the purchase goes on while a second card may be taken. */
static void purchase_continue(ch_state *st, int took_market_level)
{
    int p = st->active;
    st->taken++;
    if (took_market_level || st->taken >= 2 || hand_count(st, p) >= st->max_hand) {
        end_turn(st);
        return;
    }
    int plots = st->ndeck > 0;
    for (int i = 0; i < st->market_size && !plots; i++)
        plots = st->market[i] != CH_NONE && !st->card_level[st->market[i]];
    if (!plots) {
        end_turn(st);
        return;
    }
    st->phase = CH_PH_PURCHASE;
}

static void apply_purchase(ch_state *st, ch_move m)
{
    int p = st->active;
    if (st->phase == CH_PH_TURN && m.type != CH_M_REFRESH)
        pay_bank(st, p, st->prices.purchase);
    switch (m.type) {
    case CH_M_REFRESH:
        /* Refresh: f100, the market is shuffled back and redrawn; then the
         * purchase proceeds without further payment. */
        pay_bank(st, p, st->prices.refresh);
        market_to_deck(st);
        draw_market_refill(st);
        st->taken = 0;
        st->phase = CH_PH_PURCHASE;
        return;
    case CH_M_DRAW:
        card_to_hand(st, p, deck_pop(st), 0);
        purchase_continue(st, 0);
        return;
    case CH_M_TAKE:
        take_from_market(st, p, m.a);
        purchase_continue(st, st->card_level[m.a] != 0);
        return;
    case CH_M_DONE:
        end_turn(st);
        return;
    default:
        assert(0);
    }
}

/* ---- trading after a build, action cards, option 3 --------------------------- */

static int gen_trade(const ch_state *st, ch_move *buf, int cap)
{
    int p = st->active;
    const ch_player *pl = &st->pl[p];
    int n = gen_stock_trades(st, p, buf, cap, 0);
    if (st->trades == 0 && pl->actions > 0 && pl->cash >= st->prices.action) {
        if (st->roofs_left > 0)
            emit(buf, cap, &n, CH_M_ACTION, 0, 0, 0, 0);
        if (event_choosable(st))
            emit(buf, cap, &n, CH_M_ACTION, 1, 0, 0, 0);
    }
    emit(buf, cap, &n, CH_M_DONE, 0, 0, 0, 0);
    return n;
}

static int gen_sell(const ch_state *st, ch_move *buf, int cap)
{
    int n = gen_sales(st, &st->pl[st->active], buf, cap, 0);
    emit(buf, cap, &n, CH_M_DONE, 0, 0, 0, 0);
    return n;
}

void sell_one(ch_state *st, int p, int c)
{
    st->pl[p].stock[c]--;
    st->co[c].bank++;
    bank_pays(st, p, st->co[c].value);
}

static void apply_trade(ch_state *st, ch_move m)
{
    int p = st->active;
    switch (m.type) {
    case CH_M_BUY: {
        int c = m.a;
        pay_bank(st, p, stock_price(st, c));
        if (st->founded == c && st->discount_left)
            st->discount_left--;
        st->pl[p].stock[c]++;
        st->co[c].bank--;
        break;
    }
    case CH_M_SELL:
        sell_one(st, p, m.a);
        break;
    case CH_M_ACTION:
        /* Action cards: f100 instead of trading, for a broken roof or an
         * immediate stock event (Rulebook "Action cards"; R-30). */
        pay_bank(st, p, st->prices.action);
        st->pl[p].actions--;
        if (m.a == 0) {
            st->pl[p].roofs++;
            st->roofs_left--;
            end_turn(st);
        } else {
            enter_event(st, 1);
        }
        return;
    case CH_M_DONE:
        end_turn(st);
        return;
    default:
        assert(0);
    }
    count_trade(st);
}

/* ---- dispatch ------------------------------------------------------------------- */

/* Who decides now, as a mask of players (0 when the game is over). */
static inline unsigned decider_mask(const ch_state *st)
{
    if (st->over || st->phase == CH_PH_OVER)
        return 0;
    if (st->phase == CH_PH_BID)
        return (unsigned)(st->bid_mask & ~st->bid_in);
    return 1u << st->actor;
}

ch_decider_kind ch_decider(const ch_state *st, unsigned *mask)
{
    if (mask)
        *mask = decider_mask(st);
    if (st->over || st->phase == CH_PH_OVER)
        return CH_DEC_TERMINAL;
    return st->phase == CH_PH_BID ? CH_DEC_SIMULTANEOUS : CH_DEC_PLAYER;
}

static int decides(const ch_state *st, int p)
{
    if (p < 0 || p >= st->nplayers)
        return 0;
    return (decider_mask(st) >> p) & 1;
}

int ch_legal(const ch_state *st, int p, ch_move *buf, int cap)
{
    if (!decides(st, p))
        return 0;
    if (st->edition == CH_ED_GOLDEN_AGE)
        return ga_legal(st, p, buf, cap);
    switch (st->phase) {
    case CH_PH_TURN:
        return gen_turn(st, buf, cap);
    case CH_PH_PURCHASE:
        return gen_purchase(st, buf, cap);
    case CH_PH_HQ:
    case CH_PH_FOUND:
    case CH_PH_CREDIT:
        return gen_build_phase(st, buf, cap);
    case CH_PH_MERGE:
        return gen_merge(st, buf, cap);
    case CH_PH_MERGE_SELL:
        return gen_merge_sell(st, buf, cap);
    case CH_PH_TRADE:
        return gen_trade(st, buf, cap);
    case CH_PH_SELL:
        return gen_sell(st, buf, cap);
    default:
        return gen_event_phase(st, p, buf, cap);
    }
}

void ch_apply_fast(ch_state *st, int p, ch_move m)
{
    if (st->edition == CH_ED_GOLDEN_AGE) {
        ga_apply(st, p, m);
        st->ndecisions++;
        return;
    }
    /* Only plays, the build phases and mergers move pieces (and the event
     * that takes a warehouse away, which syncs itself): the board caches are
     * brought up to date after those alone. */
    int board_move = m.type == CH_M_PLAY || (st->phase >= CH_PH_HQ && st->phase <= CH_PH_MERGE_SELL);
    /* A play changes the board on its plots alone (the card's plot, a
     * two-card founding's second plot, a level card's stack) and, when it
     * expands a company, the owner of lone warehouses next to it: the caches
     * read those plots and the lone warehouses again (board_sync_plots, byte
     * by byte; board_sync's wide loads over the bytes the play has just
     * written waited for those stores). */
    uint64_t touched[2] = {0, 0};
    int play = m.type == CH_M_PLAY && st->phase == CH_PH_TURN;
    if (play) {
        /* the played plots and the lone warehouses connected to them
         * through lone warehouses (what an expansion takes over: build.c's
         * lone_component), as bitsets */
        bs_set(touched, m.b);
        if (m.c != CH_NONE)
            bs_set(touched, st->card_plot[m.c]);
        const ch_board *b = BRD(st);
        uint64_t fresh[2] = {touched[0], touched[1]};
        while (fresh[0] | fresh[1]) {
            uint64_t grow[2] = {0, 0};
            for (int w = 0; w < 2; w++)
                for (uint64_t bits = fresh[w]; bits; bits &= bits - 1) {
                    int y = w * 64 + __builtin_ctzll(bits);
                    grow[0] |= b->nbmask[y][0];
                    grow[1] |= b->nbmask[y][1];
                }
            fresh[0] = grow[0] & st->lone[0] & ~touched[0];
            fresh[1] = grow[1] & st->lone[1] & ~touched[1];
            touched[0] |= fresh[0];
            touched[1] |= fresh[1];
        }
    }
    switch (st->phase) {
    case CH_PH_TURN:
        switch (m.type) {
        case CH_M_DRAW:
        case CH_M_TAKE:
        case CH_M_REFRESH:
            apply_purchase(st, m);
            break;
        case CH_M_PLAY:
            apply_play(st, m);
            break;
        case CH_M_SELL:
            /* Turn option 3: sell up to two stocks. */
            sell_one(st, st->active, m.a);
            st->trades = 1;
            st->phase = CH_PH_SELL;
            break;
        case CH_M_PASS:
            pass_turn(st);
            break;
        default:
            assert(0);
        }
        break;
    case CH_PH_PURCHASE:
        apply_purchase(st, m);
        break;
    case CH_PH_HQ:
    case CH_PH_FOUND:
    case CH_PH_CREDIT:
        apply_build_phase(st, m);
        break;
    case CH_PH_MERGE:
        apply_merge(st, m);
        break;
    case CH_PH_MERGE_SELL:
        apply_merge_sell(st, m);
        break;
    case CH_PH_TRADE:
        apply_trade(st, m);
        break;
    case CH_PH_SELL:
        if (m.type == CH_M_SELL) {
            sell_one(st, st->active, m.a);
            count_trade(st);
        } else {
            end_turn(st);
        }
        break;
    default:
        apply_event_phase(st, p, m);
        break;
    }
    if (play)
        board_sync_plots(st, touched[0], touched[1]);
    else if (board_move)
        board_sync(st);
    st->ndecisions++;
}

/* ---- checking ------------------------------------------------------------------- */

static const char *phase_task(int phase)
{
    switch (phase) {
    case CH_PH_TURN: return "choose purchase, a building card, or selling";
    case CH_PH_PURCHASE: return "take cards for your purchase or say done";
    case CH_PH_HQ: return "choose the plot for the HQ placeholder";
    case CH_PH_FOUND: return "choose the company to found";
    case CH_PH_CREDIT: return "choose the company that receives the new warehouse";
    case CH_PH_MERGE: return "choose which companies merge next";
    case CH_PH_MERGE_SELL: return "sell or keep stocks of the absorbed company";
    case CH_PH_TRADE: return "trade up to two stocks, use an action card, or say done";
    case CH_PH_SELL: return "sell another stock or say done";
    case CH_PH_EVENT: return "choose a stock event";
    case CH_PH_BID: return "make a sealed bid";
    case CH_PH_LOSE: return "choose a stock to lose";
    case CH_PH_COOP: return "make a trade offer or say done";
    case CH_PH_OFFER: return "build your offer, propose or withdraw it";
    case CH_PH_RESPOND: return "accept or decline the offer";
    case CH_PH_VEILINGE: return "choose what to auction";
    case CH_PH_AUCTION: return "bid or pass";
    case CH_PH_PICK: return "pick a card";
    case CH_PH_FREE: return "choose the two lots for the free warehouses";
    case CH_PH_FORCED: return "sell another stock, then buy a card if you can";
    case CH_PH_EVSELL: return "choose a stock to sell for the event";
    default: return "nothing";
    }
}

static int explain(const ch_state *st, int p, ch_move m, ch_msg *why)
{
    const ch_player *pl = &st->pl[p];
    char txt[96];
    int phase = st->phase;
    if (m.type == CH_M_PLAY && phase == CH_PH_TURN && st->edition == CH_ED_AMSTERDAM)
        return play_legal_reason(st, p, m, why);
    if (m.type == CH_M_PLAY && phase == CH_PH_TURN && m.a < st->ncards && !bs_has(pl->hand, m.a)) {
        char name[48];
        ch_card_name(st, m.a, name, sizeof name);
        return fail(why, CH_EILLEGAL, "%s is not in your hand", name);
    }
    if ((m.type == CH_M_DRAW || m.type == CH_M_TAKE || m.type == CH_M_REFRESH) &&
        (phase == CH_PH_TURN || phase == CH_PH_PURCHASE)) {
        if (hand_count(st, p) >= st->max_hand)
            return fail(why, CH_EILLEGAL, "you cannot purchase: your hand holds %d cards, the maximum", st->max_hand);
        if (phase == CH_PH_TURN && pl->cash < (m.type == CH_M_REFRESH ? st->prices.refresh : st->prices.purchase))
            return fail(why, CH_EILLEGAL, "you cannot purchase: it costs f%d and you have f%d",
                        m.type == CH_M_REFRESH ? st->prices.refresh : st->prices.purchase, pl->cash);
        if (m.type == CH_M_DRAW && st->ndeck == 0)
            return fail(why, CH_EILLEGAL, "the deck is empty");
        if (m.type == CH_M_REFRESH)
            return fail(why, CH_EILLEGAL, "refresh is only possible as a turn's purchase, with cards to draw");
        if (m.type == CH_M_TAKE) {
            int in_market = 0;
            for (int i = 0; i < st->market_size; i++)
                in_market |= st->market[i] == m.a;
            if (m.a >= st->ncards || !in_market)
                return fail(why, CH_EILLEGAL, "that card is not in the market");
            if (st->card_level[m.a])
                return fail(why, CH_EILLEGAL, "a level card from the market may only be taken as the single card of a purchase");
        }
    }
    if (m.type == CH_M_BUY && phase == CH_PH_TRADE && m.a < st->ncompanies) {
        const char *name = ch_company_name(st, m.a);
        if (!st->co[m.a].on_chart)
            return fail(why, CH_EILLEGAL, "you cannot buy: %s is not on the stock chart", name);
        if (st->co[m.a].bank == 0)
            return fail(why, CH_EILLEGAL, "you cannot buy: the bank has no %s stock left", name);
        if (pl->cash < stock_price(st, m.a))
            return fail(why, CH_EILLEGAL, "you cannot buy: %s costs f%d and you have f%d", name,
                        stock_price(st, m.a), pl->cash);
    }
    if (m.type == CH_M_SELL && m.a < st->ncompanies &&
        (phase == CH_PH_TURN || phase == CH_PH_TRADE || phase == CH_PH_SELL)) {
        const char *name = ch_company_name(st, m.a);
        if (!pl->stock[m.a])
            return fail(why, CH_EILLEGAL, "you hold no %s stock", name);
        if (!st->co[m.a].on_chart)
            return fail(why, CH_EILLEGAL, "%s is not on the stock chart: its stocks cannot be sold", name);
    }
    if (m.type == CH_M_FLAG && phase == CH_PH_TRADE && st->edition == CH_ED_GOLDEN_AGE) {
        if (!pl->flags)
            return fail(why, CH_EILLEGAL, "you have no flag left");
        if (st->trades)
            return fail(why, CH_EILLEGAL, "a flag is bought instead of trading, and you have traded");
        if (m.a != st->ga_built)
            return fail(why, CH_EILLEGAL, "a flag goes only on the enterprise you just built on");
        if (m.a < st->ncompanies && st->co[m.a].flag)
            return fail(why, CH_EILLEGAL, "%s already carries a flag", ch_company_name(st, m.a));
        return fail(why, CH_EILLEGAL, "a flag costs f%d and you have f%d",
                    pl->flags == 2 ? st->prices.flag[0] : st->prices.flag[1], pl->cash);
    }
    if (m.type == CH_M_FREE && phase == CH_PH_FREE)
        return fail(why, CH_EILLEGAL, "the free warehouses need two empty lots that form a connected group of three with the HQ, at least four lots from every other enterprise");
    if (m.type == CH_M_ACTION && phase == CH_PH_TRADE) {
        if (!pl->actions)
            return fail(why, CH_EILLEGAL, "you have used both action cards");
        if (pl->cash < st->prices.action)
            return fail(why, CH_EILLEGAL, "an action costs f%d and you have f%d", st->prices.action, pl->cash);
        if (st->trades)
            return fail(why, CH_EILLEGAL, "an action card is used instead of trading, and you have traded");
        if (m.a == 0 && !st->roofs_left)
            return fail(why, CH_EILLEGAL, "no broken roof is left");
    }
    ch_move_str(st, m, txt, sizeof txt);
    return fail(why, CH_EILLEGAL, "'%s' is not legal now: %s", txt, phase_task(phase));
}

int ch_check(const ch_state *st, int p, ch_move m, ch_msg *why)
{
    if (!st || st->magic != CH_STATE_MAGIC)
        return fail(why, CH_EINVAL, "not a game state");
    if (st->over)
        return fail(why, CH_EOVER, "the game is over");
    if (p < 0 || p >= st->nplayers)
        return fail(why, CH_EINVAL, "there is no player %d in this %d-player game", p + 1, st->nplayers);
    if (!decides(st, p)) {
        unsigned mask;
        ch_decider(st, &mask);
        if (st->phase == CH_PH_BID && (st->bid_in >> p & 1))
            return fail(why, CH_ETURN, "you have already made your sealed bid");
        return fail(why, CH_ETURN, "it is not your decision: P%d must %s", __builtin_ctz(mask) + 1,
                    phase_task(st->phase));
    }
    int r = check_event_range(st, p, m, why);
    if (r >= 0)
        return r;
    enum { CAP = 4096 };
    ch_move buf[CAP];
    int n = ch_legal(st, p, buf, CAP);
    if (n > CAP)
        n = CAP;
    for (int i = 0; i < n; i++)
        if (buf[i].type == m.type && buf[i].a == m.a && buf[i].b == m.b && buf[i].c == m.c && buf[i].n == m.n)
            return CH_OK;
    return explain(st, p, m, why);
}

int ch_apply(ch_state *st, int p, ch_move m, ch_msg *why)
{
    int r = ch_check(st, p, m, why);
    if (r != CH_OK)
        return r;
    ch_apply_fast(st, p, m);
#ifdef CH_DEBUG_CHECKS
    {
        ch_msg v;
        int ok = ch_validate(st, &v);
        if (ok != CH_OK) {
            fprintf(stderr, "chartered: state check failed after a move: %s\n", v.text);
            assert(ok == CH_OK);
        }
    }
#endif
    return CH_OK;
}
