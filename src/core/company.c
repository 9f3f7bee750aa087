/* company.c: companies on the stock chart, shared by both editions: value
 * changes with the chart's cap and floor (edition.c) and the event lines a
 * rising value passes. Which companies can be founded and stock prices are
 * inline in internal.h (company_available, stock_price). */
#include "internal.h"

/* Company value is the number on the chart, tracked and not recomputed
 * (RULINGS.md "Company value"; R-27): clamp to f20..f300; a rise from below a line to
 * the line or above passes it, and any pass makes the turn's one stock event due. */
int set_value(ch_state *st, int c, int v)
{
    const ed_rules *e = ED(st);
    int old = st->co[c].on_chart ? st->co[c].value : 0;
    v = clamp_value(st, v);
    for (int i = 0; i < e->nlines; i++)
        if (old < e->lines[i] && v >= e->lines[i])
            st->event_due = 1;
    st->co[c].value = (int16_t)v;
    st->co[c].on_chart = 1;
    return v;
}
