/* render.c: the human-readable summary of a game state printed by
 * `chartered show` (everything) and `chartered view` (what one player may
 * see): players, companies, the board as a text grid per district, cards,
 * events and whose decision it is. Presentation only. The Golden Age gets
 * its own lines: flags (left per player, placed per enterprise), free
 * warehouses on the board, the open cards and its event cards, and stock
 * holdings shown only to their owner in a view.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static int has_card(const uint64_t set[2], int c)
{
    return (int)((set[c >> 6] >> (c & 63)) & 1u);
}

static void card_name(const ch_state *st, int c, char *buf, size_t n)
{
    if (ch_card_name(st, c, buf, n) < 0 || buf[0] == '\0')
        snprintf(buf, n, "card %d", c);
}

static void company_label(const ch_state *st, int c, char *buf, size_t n)
{
    const char *name = ch_company_name(st, c);
    snprintf(buf, n, "%c %s", 'A' + c, name ? name : "?");
}

static int golden(const ch_state *st)
{
    return st->edition == CH_ED_GOLDEN_AGE;
}

static void print_players(FILE *f, const ch_state *st, int viewer)
{
    fprintf(f, "players:\n");
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        fprintf(f, "  player %d%s%s  cash f%" PRId32, p + 1,
                p == st->active ? " (turn)" : "", p == viewer ? " (you)" : "",
                pl->cash);
        if (golden(st)) {
            fprintf(f, "  flags left %u", pl->flags);
            int placed = 0;
            for (int c = 0; c < st->ncompanies; c++)
                if (st->co[c].flag == p + 1)
                    fprintf(f, "%s%c", placed++ ? "," : "  flag on ", 'A' + c);
        } else {
            fprintf(f, "  actions %u  roofs %u", pl->actions, pl->roofs);
        }
        if (pl->extra_pending || pl->extra_armed)
            fprintf(f, "  extra turn due");
        fprintf(f, "\n    stocks:");
        /* The Golden Age: holdings are private (only the bank's counts are
         * public) */
        if (golden(st) && viewer != RENDER_ALL && viewer != p) {
            fprintf(f, " hidden\n");
        } else {
            int any = 0;
            for (int c = 0; c < st->ncompanies; c++)
                if (pl->stock[c]) {
                    fprintf(f, " %c %u", 'A' + c, pl->stock[c]);
                    any = 1;
                }
            fprintf(f, "%s\n", any ? "" : " none");
        }
        int total = ch_hand_count(st, p);
        int see_all = viewer == RENDER_ALL || viewer == p;
        fprintf(f, "    hand (%d):", total);
        int shown = 0;
        for (int c = 0; c < st->ncards; c++) {
            if (!has_card(pl->hand, c))
                continue;
            if (!see_all && !has_card(pl->known, c))
                continue;
            char name[48];
            card_name(st, c, name, sizeof name);
            fprintf(f, "%s %s", shown ? "," : "", name);
            shown++;
        }
        if (!see_all && total > shown)
            fprintf(f, "%s %d hidden", shown ? "," : "", total - shown);
        else if (total == 0)
            fprintf(f, " empty");
        fprintf(f, "\n");
    }
}

static void print_companies(FILE *f, const ch_state *st)
{
    char pname[48];
    fprintf(f, "companies:\n");
    for (int c = 0; c < st->ncompanies; c++) {
        const ch_company *co = &st->co[c];
        char label[48];
        company_label(st, c, label, sizeof label);
        fprintf(f, "  %-22s ", label);
        if (co->on_chart)
            fprintf(f, "value f%-4d", co->value);
        else
            fprintf(f, "off chart  ");
        fprintf(f, "  bank %u stocks", co->bank);
        if (co->hq != CH_NONE && co->hq < ch_state_board(st)->nplots) {
            ch_plot_name(ch_state_board(st), co->hq, pname, sizeof pname);
            fprintf(f, "  HQ %s", pname);
        }
        if (golden(st) && co->flag)
            fprintf(f, "  flag of player %u", co->flag);
        fprintf(f, "\n");
    }
}

/* One district as a grid of cells "C1:B2h": label, company letter, height,
 * h = HQ, r = broken roof, u = upside-down placeholder. */
static void print_district(FILE *f, const ch_state *st, int d)
{
    const ch_board *b = ch_state_board(st);
    int minx = 127, maxx = -128, miny = 127, maxy = -128, count = 0;
    for (int p = 0; p < b->nplots; p++) {
        if (b->plot_district[p] != d)
            continue;
        count++;
        if (b->gx[p] < minx) minx = b->gx[p];
        if (b->gx[p] > maxx) maxx = b->gx[p];
        if (b->gy[p] < miny) miny = b->gy[p];
        if (b->gy[p] > maxy) maxy = b->gy[p];
    }
    fprintf(f, "  %.*s\n", CH_NAME_LEN, b->district[d]);
    if (count == 0)
        return;
    for (int y = miny; y <= maxy; y++) {
        char line[1024];
        size_t off = 0;
        off += (size_t)snprintf(line, sizeof line, "   ");
        for (int x = minx; x <= maxx && off < sizeof line - 16; x++) {
            int plot = -1;
            for (int p = 0; p < b->nplots; p++)
                if (b->plot_district[p] == d && b->gx[p] == x && b->gy[p] == y) {
                    plot = p;
                    break;
                }
            char cell[16];
            if (plot < 0) {
                snprintf(cell, sizeof cell, "%s", "");
            } else {
                char content[8] = ".";
                int h = st->height[plot];
                uint8_t fl = st->pflags[plot];
                if (h > 0 || st->owner[plot] != CH_NONE || fl) {
                    size_t k = 0;
                    content[k++] = st->owner[plot] != CH_NONE
                                       ? (char)('A' + st->owner[plot])
                                       : '-';
                    if (h > 0 && h < 10)
                        content[k++] = (char)('0' + h);
                    if (fl & CH_PF_HQ)
                        content[k++] = 'h';
                    if (fl & CH_PF_ROOF)
                        content[k++] = 'r';
                    if (fl & CH_PF_UPSIDE)
                        content[k++] = 'u';
                    if (fl & CH_PF_FREE)
                        content[k++] = 'f';
                    content[k] = '\0';
                }
                snprintf(cell, sizeof cell, "%.3s:%.5s", b->plot_label[plot],
                         content);
            }
            off += (size_t)snprintf(line + off, sizeof line - off, " %-9s",
                                    cell);
        }
        while (off > 0 && line[off - 1] == ' ')
            line[--off] = '\0';
        fprintf(f, "%s\n", line);
    }
}

static void print_board(FILE *f, const ch_state *st)
{
    if (golden(st))
        fprintf(f, "board %s (cell = lot:enterprise letter, height (HQ "
                   "included), h HQ, f free warehouse; . empty):\n",
                ch_state_board(st)->name);
    else
        fprintf(f, "board %s (cell = plot:company letter, warehouses, h HQ, "
                   "r roof, u placeholder; . empty):\n", ch_state_board(st)->name);
    for (int d = 0; d < ch_state_board(st)->ndistricts; d++)
        print_district(f, st, d);
    if (golden(st)) {
        int nfree = 0;
        for (int x = 0; x < ch_state_board(st)->nplots; x++)
            if (st->pflags[x] & CH_PF_FREE)
                nfree++;
        fprintf(f, "  warehouses in supply %u of %u, free warehouses not yet "
                   "built over %d\n", st->supply, st->warehouses_total, nfree);
    } else {
        fprintf(f, "  warehouses in supply %u, broken roofs left %u\n",
                st->supply, st->roofs_left);
    }
}

/* The Golden Age: event cards of the game, drawn (in the discard pile) and
 * still in the deck. */
static void event_counts(const ch_state *st, int *total, int *drawn,
                         int *in_deck)
{
    *total = *drawn = *in_deck = 0;
    for (int c = 0; c < st->ncards && c < CH_MAX_CARDS; c++)
        if (st->card_event[c]) {
            (*total)++;
            if (st->loc[c] == CH_LOC_DECK)
                (*in_deck)++;
            else if (st->loc[c] == CH_LOC_DISCARD)
                (*drawn)++;
        }
}

static void print_cards_ga(FILE *f, const ch_state *st)
{
    char name[48];
    fprintf(f, "open cards:");
    int any = 0;
    for (int i = 0; i < st->market_size && i < CH_MARKET_MAX; i++) {
        if (st->market[i] == CH_NONE)
            continue;
        card_name(st, st->market[i], name, sizeof name);
        fprintf(f, "%s %s", any ? "," : "", name);
        any = 1;
    }
    fprintf(f, "%s\n", any ? "" : " none");
    int total, drawn, in_deck;
    event_counts(st, &total, &drawn, &in_deck);
    fprintf(f, "deck %u cards", st->ndeck);
    if (total)
        fprintf(f, " (including %d event card%s, where unknown)", in_deck,
                in_deck == 1 ? "" : "s");
    /* the printed rules' event backs show what the top card is (G-07) */
    if (ch_deck_top_event(st) >= 0)
        fprintf(f, ", %s on top", ch_deck_top_event(st) ? "an event card" : "a building card");
    fprintf(f, ", discard %u", st->ndiscard);
    if (st->ndiscard) {
        card_name(st, st->discard[st->ndiscard - 1], name, sizeof name);
        fprintf(f, " (top %s)", name);
    }
    fprintf(f, "\n");
    if (!st->events_on) {
        fprintf(f, "event cards: off\n");
        return;
    }
    fprintf(f, "event cards: on, %d in the game, %d drawn", total, drawn);
    int first = 1;
    for (int i = 0; i < st->ndiscard; i++) {
        int c = st->discard[i];
        if (!st->card_event[c])
            continue;
        fprintf(f, "%s%s", first ? ": " : ", ",
                ch_ga_event_name(st->card_event[c] - 1));
        first = 0;
    }
    fprintf(f, "\n");
    if (st->phase == CH_PH_EVSELL && st->m_seller < st->nplayers)
        fprintf(f, "stock sale event: player %u sells %u more stock%s\n",
                st->m_seller + 1, st->lose_left, st->lose_left == 1 ? "" : "s");
}

static void print_cards(FILE *f, const ch_state *st, int viewer)
{
    char name[48];
    fprintf(f, "market:");
    int any = 0;
    for (int i = 0; i < st->market_size && i < CH_MARKET_MAX; i++) {
        if (st->market[i] == CH_NONE)
            continue;
        card_name(st, st->market[i], name, sizeof name);
        fprintf(f, "%s %s", any ? "," : "", name);
        any = 1;
    }
    fprintf(f, "%s\n", any ? "" : " empty");
    fprintf(f, "deck %u cards, level reserve %u, discard %u", st->ndeck,
            st->nreserve, st->ndiscard);
    if (st->ndiscard) {
        card_name(st, st->discard[st->ndiscard - 1], name, sizeof name);
        fprintf(f, " (top %s)", name);
    }
    fprintf(f, "\n");
    if (st->nlook) {
        fprintf(f, "cards being looked at (%u)", st->nlook);
        if (viewer == RENDER_ALL) {
            fprintf(f, ":");
            for (int i = 0; i < st->nlook && i < 10; i++) {
                card_name(st, st->look[i], name, sizeof name);
                fprintf(f, "%s %s", i ? "," : "", name);
            }
        }
        fprintf(f, "\n");
    }
}

static void print_events(FILE *f, const ch_state *st)
{
    fprintf(f, "stock events open:");
    int any = 0;
    for (int i = 0; i < st->nevent_open && i < CH_EVENT_OPEN_MAX; i++) {
        if (st->ev_open[i] == CH_NONE)
            continue;
        const char *n = ch_event_name(st->ev_open[i]);
        fprintf(f, "%s %s", any ? "," : "", n ? n : "?");
        any = 1;
    }
    fprintf(f, "%s; event deck %u, discarded %u\n", any ? "" : " none",
            st->nev_deck, st->nev_discard);
}

static void print_bids(FILE *f, const ch_state *st, int viewer)
{
    if (st->phase == CH_PH_BID) {
        fprintf(f, "sealed bids:");
        for (int p = 0; p < st->nplayers; p++) {
            if (!(st->bid_mask & (1u << p)))
                continue;
            int in = (st->bid_in >> p) & 1;
            if (in && (viewer == RENDER_ALL || viewer == p))
                fprintf(f, " player %d bid f%" PRId32 ";", p + 1, st->bid[p]);
            else if (in)
                fprintf(f, " player %d has bid;", p + 1);
            else if (st->bid_revealed)
                fprintf(f, " player %d to bid (last round f%" PRId32 ");",
                        p + 1, st->bid[p]);
            else
                fprintf(f, " player %d to bid;", p + 1);
        }
        fprintf(f, "\n");
    }
    if (st->phase == CH_PH_AUCTION && st->au_high_bidder != CH_NONE)
        fprintf(f, "auction: high bid f%" PRId32 " by player %d\n", st->au_high,
                st->au_high_bidder + 1);
}

void render_state(FILE *f, const ch_state *st, int viewer)
{
    fprintf(f, "Chartered (%s), %u players", cli_edition_name(st->edition),
            st->nplayers);
    if (golden(st))
        fprintf(f, ", preset %s, events %s", cli_preset_name(st->preset),
                st->events_on ? "on" : "off");
    fprintf(f, ", board %s", ch_state_board(st)->name);
    if (viewer == RENDER_ALL)
        fprintf(f, ", seed %" PRIu64, st->seed);
    fprintf(f, ", turn %u, %" PRIu32 " decisions\n", st->turn_no,
            st->ndecisions);
    if (viewer >= 0)
        fprintf(f, "as seen by player %d\n", viewer + 1);
    else if (viewer != RENDER_ALL)
        fprintf(f, "as seen by a spectator\n");
    char who[160];
    cli_decider_text(st, who, sizeof who);
    fprintf(f, "%s\n\n", who);
    print_players(f, st, viewer);
    fprintf(f, "\n");
    print_companies(f, st);
    fprintf(f, "\n");
    print_board(f, st);
    fprintf(f, "\n");
    if (golden(st)) {
        print_cards_ga(f, st);
    } else {
        print_cards(f, st, viewer);
        print_events(f, st);
        print_bids(f, st, viewer);
    }
    unsigned mask = 0;
    if (ch_decider(st, &mask) == CH_DEC_TERMINAL) {
        int32_t scores[CH_MAX_PLAYERS] = {0};
        unsigned winners = 0;
        if (ch_scores(st, scores, &winners) == CH_OK) {
            fprintf(f, "final scores:");
            for (int i = 0; i < st->nplayers; i++)
                fprintf(f, "%s player %d f%" PRId32 "%s", i ? "," : "", i + 1,
                        scores[i], winners & (1u << i) ? " (winner)" : "");
            fprintf(f, "\n");
        }
    }
}
