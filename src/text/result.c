/* result.c: the end of a game as JSON for the front ends' end-of-game
 * screens: each player's score broken down by the engine (ch_score_parts:
 * cash, each holding at its final value, The Golden Age's flags and fine,
 * total, rank), so no front end recomputes a rule. docs/protocol.md,
 * "The result".
 */
#include <string.h>

#include "text.h"

int chx_result_json(const ch_state *st, chx_buf *b)
{
    ch_score_part parts[CH_MAX_PLAYERS];
    if (ch_score_parts(st, parts) != CH_OK)
        return -1;
    chx_buf_puts(b, "{\"scores\":[");
    for (int p = 0; p < st->nplayers; p++) {
        if (p)
            chx_buf_add(b, ",", 1);
        chx_buf_int(b, parts[p].total);
    }
    chx_buf_puts(b, "],\"winners\":[");
    for (int p = 0, k = 0; p < st->nplayers; p++)
        if (parts[p].rank == 1) {
            if (k++)
                chx_buf_add(b, ",", 1);
            chx_buf_int(b, p);
        }
    chx_buf_puts(b, "],\"parts\":[");
    for (int p = 0; p < st->nplayers; p++) {
        const ch_score_part *o = &parts[p];
        if (p)
            chx_buf_add(b, ",", 1);
        chx_buf_member_int(b, "{\"cash\":", o->cash);
        chx_buf_member_int(b, ",\"hand\":", o->hand);
        chx_buf_member_int(b, ",\"fine\":", o->fine);
        chx_buf_member_int(b, ",\"total\":", o->total);
        chx_buf_member_int(b, ",\"rank\":", o->rank);
        /* one entry per company the player holds stocks of or has the flag
         * of: count, value per stock (0 off the chart), worth, flag worth */
        chx_buf_puts(b, ",\"holdings\":[");
        int k = 0;
        for (int c = 0; c < st->ncompanies; c++) {
            int n = st->pl[p].stock[c];
            if (n == 0 && o->flags[c] == 0)
                continue;
            if (k++)
                chx_buf_add(b, ",", 1);
            chx_buf_puts(b, "{\"company\":");
            chx_buf_json_str(b, ch_company_name(st, c));
            chx_buf_member_int(b, ",\"stocks\":", n);
            chx_buf_member_int(b, ",\"value\":", st->co[c].on_chart ? st->co[c].value : 0);
            chx_buf_member_int(b, ",\"worth\":", o->stocks[c]);
            chx_buf_member_int(b, ",\"flag\":", o->flags[c]);
            chx_buf_add(b, "}", 1);
        }
        chx_buf_puts(b, "]}");
    }
    chx_buf_puts(b, "]}");
    return b->oom ? -1 : 0;
}
