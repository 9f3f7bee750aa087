/* previews.c: what a merger will do, for the dialogs that decide one (issue
 * 31 item 5): each credit or merge choice of the builder, or the merger as it
 * stands while its stocks are sold or kept, as JSON from the engine's own
 * walk (ch_merger_preview): who absorbs whom, each value after, the
 * builder's payout, each holder's stocks and what their sale brings. No front
 * end repeats a merger rule. Only what seat p may see is written (the
 * preview hides The Golden Age's other holdings as null). docs/protocol.md,
 * "previews". */
#include <stdlib.h>
#include <string.h>

#include "text.h"

static void put_company(chx_buf *b, const ch_state *st, int c)
{
    if (c < 0)
        chx_buf_puts(b, "null");
    else
        chx_buf_json_str(b, ch_company_name(st, c));
}

static void put_seat(chx_buf *b, int s)
{
    if (s < 0)
        chx_buf_puts(b, "null");
    else
        chx_buf_int(b, s);
}

static void put_plan(chx_buf *b, const ch_state *st, const ch_merger_plan *pl)
{
    chx_buf_puts(b, "{\"credited\":");
    put_company(b, st, pl->credited);
    if (pl->credited >= 0) {
        chx_buf_member_int(b, ",\"credited_from\":", pl->credited_from);
        chx_buf_member_int(b, ",\"credited_value\":", pl->credited_value);
    }
    chx_buf_puts(b, ",\"steps\":[");
    for (int i = 0; i < pl->nsteps; i++) {
        const ch_merge_step *s = &pl->step[i];
        if (i)
            chx_buf_add(b, ",", 1);
        chx_buf_puts(b, "{\"absorbed\":");
        put_company(b, st, s->absorbed);
        chx_buf_puts(b, ",\"absorber\":");
        put_company(b, st, s->absorber);
        chx_buf_member_int(b, ",\"absorbed_value\":", s->absorbed_value);
        chx_buf_member_int(b, ",\"absorber_value\":", s->absorber_value);
        chx_buf_member_int(b, ",\"value_after\":", s->value_after);
        chx_buf_puts(b, ",\"flag\":");
        put_seat(b, s->flag);
        chx_buf_member_int(b, ",\"flag_sale\":", s->flag_sale);
        chx_buf_puts(b, ",\"stocks\":[");
        for (int q = 0; q < st->nplayers; q++) {
            if (q)
                chx_buf_add(b, ",", 1);
            put_seat(b, s->stocks[q]);
        }
        chx_buf_puts(b, "]}");
    }
    chx_buf_puts(b, "],\"choose\":[");
    int k = 0;
    for (int c = 0; c < st->ncompanies; c++)
        if (pl->choose >> c & 1) {
            if (k++)
                chx_buf_add(b, ",", 1);
            put_company(b, st, c);
        }
    chx_buf_puts(b, "],\"pairs\":[");
    for (int i = 0; i < pl->npairs; i++) {
        if (i)
            chx_buf_add(b, ",", 1);
        chx_buf_add(b, "[", 1);
        put_company(b, st, pl->pair_absorbed[i]);
        chx_buf_add(b, ",", 1);
        put_company(b, st, pl->pair_absorber[i]);
        chx_buf_add(b, "]", 1);
    }
    chx_buf_puts(b, "],\"survivor\":");
    put_company(b, st, pl->survivor);
    chx_buf_puts(b, ",\"survivor_flag\":");
    put_seat(b, pl->survivor_flag);
    chx_buf_member_int(b, ",\"survivor_flag_worth\":", pl->survivor_flag_worth);
    chx_buf_member_int(b, ",\"final_value\":", pl->final_value);
    chx_buf_member_int(b, ",\"builder\":", pl->builder);
    chx_buf_puts(b, pl->sold_at_once ? ",\"sold_at_once\":true}" : ",\"sold_at_once\":false}");
}

int chx_previews_json(const ch_state *st, int p, chx_buf *b)
{
    int ph = st->phase;
    if (ph != CH_PH_CREDIT && ph != CH_PH_MERGE && ph != CH_PH_MERGE_SELL)
        return 0;
    ch_merger_plan plan;
    chx_buf_add(b, "{", 1);
    int k = 0;
    if (ph == CH_PH_MERGE_SELL || ph == CH_PH_MERGE) {
        /* the merger as it stands: what every seat may see of it */
        if (ch_merger_preview(st, p, NULL, &plan) == CH_OK) {
            chx_buf_puts(b, "\"now\":");
            put_plan(b, st, &plan);
            k++;
        }
    }
    if (ph != CH_PH_MERGE_SELL) {
        ch_move small[64], *mv;
        int n = chx_legal_into(st, st->active, small, 64, &mv);
        if (n < 0)
            return -1;
        for (int i = 0; i < n; i++) {
            char text[128];
            if (ch_merger_preview(st, p, &mv[i], &plan) != CH_OK ||
                ch_move_str(st, mv[i], text, sizeof text) < 0)
                continue;
            if (k++)
                chx_buf_add(b, ",", 1);
            chx_buf_json_str(b, text);
            chx_buf_add(b, ":", 1);
            put_plan(b, st, &plan);
        }
        if (mv != small)
            free(mv);
    }
    chx_buf_add(b, "}", 1);
    return b->oom ? -1 : 1;
}
