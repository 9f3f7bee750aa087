/* company.c: companies on the stock chart, shared by both editions: which can
 * be founded, value changes with the chart's cap and floor (edition.c), the event lines a
 * rising value passes, and stock prices. */
#include "internal.h"

int company_available(const ch_state *st)
{
    int mask = 0;
    for (int c = 0; c < st->ncompanies; c++)
        if (!st->co[c].on_chart && st->co[c].hq == CH_NONE)
            mask |= 1 << c;
    return mask;
}

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

/* Buys cost max(f50, value), except the founder's discount: in the turn a
 * player founds a company they buy up to two of its stocks at its true value
 * (Rulebook "Stock trading"; RULINGS.md "Trading"; R-28). */
int stock_price(const ch_state *st, int c)
{
    int v = st->co[c].value;
    if (st->founded == c && st->discount_left > 0)
        return v;
    int floor = ED(st)->min_stock_price;
    return v < floor ? floor : v;
}
