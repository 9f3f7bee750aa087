/* render.c: the human-readable summary of a game state printed by
 * `chartered show` (everything) and `chartered view` (what one player may
 * see): players, companies, the board as a text grid per district, cards,
 * events and whose decision it is. Presentation only.
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

static void print_players(FILE *f, const ch_state *st, int viewer)
{
    fprintf(f, "players:\n");
    for (int p = 0; p < st->nplayers; p++) {
        const ch_player *pl = &st->pl[p];
        fprintf(f, "  player %d%s%s  cash f%" PRId32 "  actions %u  roofs %u",
                p + 1, p == st->active ? " (turn)" : "",
                p == viewer ? " (you)" : "", pl->cash, pl->actions, pl->roofs);
        if (pl->extra_pending || pl->extra_armed)
            fprintf(f, "  extra turn due");
        fprintf(f, "\n    stocks:");
        int any = 0;
        for (int c = 0; c < st->ncompanies; c++)
            if (pl->stock[c]) {
                fprintf(f, " %c %u", 'A' + c, pl->stock[c]);
                any = 1;
            }
        fprintf(f, "%s\n", any ? "" : " none");
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
        if (co->hq != CH_NONE && co->hq < st->board.nplots) {
            ch_plot_name(&st->board, co->hq, pname, sizeof pname);
            fprintf(f, "  HQ %s", pname);
        }
        fprintf(f, "\n");
    }
}

/* One district as a grid of cells "C1:B2h": label, company letter, height,
 * h = HQ, r = broken roof, u = upside-down placeholder. */
static void print_district(FILE *f, const ch_state *st, int d)
{
    const ch_board *b = &st->board;
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
    fprintf(f, "board %s (cell = plot:company letter, warehouses, h HQ, "
               "r roof, u placeholder; . empty):\n", st->board.name);
    for (int d = 0; d < st->board.ndistricts; d++)
        print_district(f, st, d);
    fprintf(f, "  warehouses in supply %u, broken roofs left %u\n", st->supply,
            st->roofs_left);
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
    fprintf(f, "Chartered (%s), %u players, board %s",
            cli_edition_name(st->edition), st->nplayers, st->board.name);
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
    print_cards(f, st, viewer);
    print_events(f, st);
    print_bids(f, st, viewer);
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
