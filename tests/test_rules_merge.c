/* test_rules_merge.c: merging two or more companies (docs/rules.md "C. Merging
 * two or more companies"; Rulebook "Turn option 2, C." and "Merging more than
 * two companies at once", "Exceptional situation"; Rulings,
 * Two-way mergers happen on Harbour C1 between A1-B1 and D1-E1; the
 * 3- and 4-way mergers on Harbour E4 of the standard arrangement, whose four
 * neighbours are E3 (bridge to E2 above), D4, F4 (bridge to Jordaan A4) and
 * Canal Ring E1 (bridge): arms going straight out never touch each other. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "play.h"

enum { GUNPOWDER, COAL, PORCELAIN, SILK, SPICES, SUGAR, HERRING, TEA, TOBACCO };

static int P(const ch_state *st, const char *name) { return t_plot(st, name); }

static void table(ch_state *st, int np)
{
    t_new(st, np, "standard", 55);
    t_clear(st);
    t_turn(st, 0);
}

/* Gunpowder on A1-B1 and Coal on D1-E1 at the given values; the builder
 * holds C1 and is to move. */
static void two_way_by(ch_state *st, int np, int gun, int coal, int builder)
{
    table(st, np);
    t_company2(st, GUNPOWDER, gun, "Harbour A1", "Harbour B1");
    t_company2(st, COAL, coal, "Harbour E1", "Harbour D1");
    t_give(st, builder, "Harbour C1");
    t_turn(st, builder);
    t_valid(st);
}

static void two_way(ch_state *st, int np, int gun, int coal) { two_way_by(st, np, gun, coal, 0); }

/* Arms around Harbour E4: N = E3+E2, W = D4+C4, E = F4+Jordaan A4,
 * S = Canal Ring E1+E2. Companies for the arms given (CH_NONE: no arm). */
static void star(ch_state *st, int n, int nv, int w, int wv, int e, int ev, int so, int sv)
{
    table(st, 3);
    if (n != CH_NONE)
        t_company2(st, n, nv, "Harbour E3", "Harbour E2");
    if (w != CH_NONE)
        t_company2(st, w, wv, "Harbour D4", "Harbour C4");
    if (e != CH_NONE)
        t_company2(st, e, ev, "Harbour F4", "Jordaan A4");
    if (so != CH_NONE)
        t_company2(st, so, sv, "Canal Ring E1", "Canal Ring E2");
    t_give(st, 0, "Harbour E4");
    t_valid(st);
}

/* Rulebook "C." steps 3-8; R-24: the builder credits the new warehouse to a
 * company of their choice (Gunpowder f40 -> f50); the higher (Coal f70)
 * absorbs the lower: f120; Gunpowder's HQ and token leave; one payout f120. */
static void merge_two_higher_absorbs_R24(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 40, 70);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    assert_int_equal(st.phase, CH_PH_CREDIT);
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 2);
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[COAL].value, 120);
    assert_int_equal(st.co[GUNPOWDER].on_chart, 0);
    assert_int_equal(st.co[GUNPOWDER].value, 0);
    assert_int_equal(st.co[GUNPOWDER].hq, CH_NONE);
    assert_false(st.pflags[P(&st, "Harbour A1")] & CH_PF_HQ);
    const char *all[] = {"Harbour A1", "Harbour B1", "Harbour C1", "Harbour D1", "Harbour E1"};
    for (int i = 0; i < 5; i++)
        assert_int_equal(st.owner[P(&st, all[i])], COAL);
    assert_int_equal(st.pl[0].cash, cash + 120);
    assert_int_equal(st.event_due, 1);
}

/* the credit decides the survivor when the values are close: at f50
 * each, the credited company (f60) absorbs the other, f110. */
static void merge_credit_choice_R24(void **s)
{
    (void)s;
    ch_state a, b;
    two_way(&a, 3, 50, 50);
    b = a;
    t_play(&a, 0, "play Harbour C1");
    t_play(&a, 0, "credit Coal");
    assert_int_equal(a.co[COAL].value, 110);
    assert_int_equal(a.co[GUNPOWDER].on_chart, 0);
    t_play(&b, 0, "play Harbour C1");
    t_play(&b, 0, "credit Gunpowder");
    assert_int_equal(b.co[GUNPOWDER].value, 110);
    assert_int_equal(b.co[COAL].on_chart, 0);
    assert_int_equal(b.owner[P(&b, "Harbour E1")], GUNPOWDER);
}

/* Rulebook "C." step 4 ("Should there be a tie, the player that caused the
 * merger decides"); R-24: f40 + f10 ties Coal's f50: the builder chooses. */
static void merge_tie_builder_decides_R24(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 40, 50);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.phase, CH_PH_MERGE);
    assert_int_equal(st.actor, 0);
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 2);
    assert_true(t_legal(&st, 0, "merge Gunpowder into Coal"));
    t_play(&st, 0, "merge Coal into Gunpowder");
    assert_int_equal(st.co[GUNPOWDER].value, 100);
    assert_int_equal(st.co[COAL].on_chart, 0);
    assert_int_equal(st.pl[0].cash, cash + 100);
}

/* Rulebook "C." step 5; R-24: every player, in turn order from the builder
 * (P3, P4, P1, P2), sells any number of absorbed stocks at the absorbed
 * company's value (f40) before it is added; the builder is paid once. */
static void merge_sales_in_turn_order_R24(void **s)
{
    (void)s;
    ch_state st;
    two_way_by(&st, 4, 40, 70, 2);
    t_stock(&st, 0, GUNPOWDER, 1);
    t_stock(&st, 1, GUNPOWDER, 2);
    t_stock(&st, 2, GUNPOWDER, 1);
    t_stock(&st, 3, GUNPOWDER, 3);
    t_valid(&st);
    int32_t c[4];
    for (int p = 0; p < 4; p++)
        c[p] = st.pl[p].cash;
    t_play(&st, 2, "play Harbour C1");
    t_play(&st, 2, "credit Coal");
    assert_int_equal(st.phase, CH_PH_MERGE_SELL);
    assert_int_equal(t_decider(&st), 2);
    assert_false(t_legal(&st, 3, "keep Gunpowder"));
    t_play(&st, 2, "sell Gunpowder");
    assert_int_equal(t_decider(&st), 3);
    t_play(&st, 3, "keep Gunpowder");
    assert_int_equal(t_decider(&st), 0);
    t_play(&st, 0, "sell Gunpowder");
    assert_int_equal(t_decider(&st), 1);
    assert_false(t_legal(&st, 1, "sell 3 Gunpowder"));
    t_play(&st, 1, "sell 2 Gunpowder");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[COAL].value, 120);
    assert_int_equal(st.pl[2].cash, c[2] + 40 + 120);
    assert_int_equal(st.pl[3].cash, c[3]);
    assert_int_equal(st.pl[0].cash, c[0] + 40);
    assert_int_equal(st.pl[1].cash, c[1] + 80);
    assert_int_equal(st.pl[3].stock[GUNPOWDER], 3);
    assert_int_equal(st.co[GUNPOWDER].bank, 6);
}

/* players who hold no stock of the absorbed company are not asked. */
static void merge_sales_skip_nonholders_R24(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 4, 40, 70);
    t_stock(&st, 3, GUNPOWDER, 1);
    t_stock(&st, 1, GUNPOWDER, 1);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Coal");
    assert_int_equal(t_decider(&st), 1);
    t_play(&st, 1, "keep Gunpowder");
    assert_int_equal(t_decider(&st), 3);
    t_play(&st, 3, "keep Gunpowder");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(t_decider(&st), 0);
}

/* Rulebook "C." ("Players may choose to hold onto their stocks ... they will
 * have no value if the company is not founded again"): kept stocks score f0
 * and cannot be sold while the company is off the chart. */
static void merge_kept_stocks_worthless(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 30, 40); /* Coal f80 after: no event line */
    t_stock(&st, 1, GUNPOWDER, 2);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Coal");
    t_play(&st, 1, "keep Gunpowder");
    t_play(&st, 0, "done");
    assert_int_equal(st.active, 1);
    assert_int_equal(st.pl[1].stock[GUNPOWDER], 2);
    int32_t sc[3];
    unsigned w;
    assert_int_equal(ch_scores(&st, sc, &w), CH_OK);
    assert_int_equal(sc[1], st.pl[1].cash);
    assert_false(t_legal(&st, 1, "sell Gunpowder"));
}

/* Rulebook "C." ("if they think someone will found that same company again");
 * once the absorbed company is founded again, kept stocks count
 * at its new value and may be sold. */
static void merge_refounded_kept_stocks_count(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 30, 40); /* Coal f80 after: no event line */
    t_stock(&st, 1, GUNPOWDER, 2);
    t_put(&st, "Canal Ring D3", 1);
    t_give(&st, 1, "Canal Ring E3");
    t_valid(&st);
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Coal");
    t_play(&st, 1, "keep Gunpowder");
    t_play(&st, 0, "done");
    int32_t cash = st.pl[1].cash;
    t_play(&st, 1, "play Canal Ring E3");
    assert_true(t_legal(&st, 1, "found Gunpowder"));
    t_play(&st, 1, "found Gunpowder");
    assert_int_equal(st.co[GUNPOWDER].value, 20);
    int32_t sc[3];
    unsigned w;
    ch_scores(&st, sc, &w);
    assert_int_equal(sc[1], cash + 20 + 2 * 20);
    t_play(&st, 1, "sell Gunpowder");
    assert_int_equal(st.pl[1].cash, cash + 20 + 20);
    assert_int_equal(st.pl[1].stock[GUNPOWDER], 1);
}

/* Rulebook "Merging more than two companies at once"; R-24: the two lowest
 * merge first; tied (Silk f30, Spices f30) the builder picks the pair's
 * absorber; then the survivor (f60) is absorbed by Tea (f90 + f10 = f100):
 * f160, one payout. */
static void merge_three_way_tied_lowest_R24(void **s)
{
    (void)s;
    ch_state st;
    star(&st, SILK, 30, SPICES, 30, TEA, 90, CH_NONE, 0);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour E4");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 3);
    t_play(&st, 0, "credit Tea");
    assert_int_equal(st.co[TEA].value, 100);
    assert_int_equal(st.phase, CH_PH_MERGE);
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 2);
    assert_false(t_legal(&st, 0, "merge Silk into Tea"));
    t_play(&st, 0, "merge Spices into Silk");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[TEA].value, 160);
    assert_int_equal(st.co[SILK].on_chart, 0);
    assert_int_equal(st.co[SPICES].on_chart, 0);
    assert_int_equal(st.owner[P(&st, "Harbour C4")], TEA);
    assert_int_equal(st.owner[P(&st, "Harbour E2")], TEA);
    assert_int_equal(st.pl[0].cash, cash + 160);
}

/* R-24 ("the two lowest first (ties: the builder decides)"): Silk f30 is the
 * lowest, Spices and Tea tie at f50 for second: the builder picks which of
 * them absorbs Silk. Tea f80 then absorbs Spices f50: f130. */
static void merge_three_way_tied_second_R24(void **s)
{
    (void)s;
    ch_state st;
    star(&st, SILK, 30, SPICES, 50, TEA, 40, CH_NONE, 0);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour E4");
    t_play(&st, 0, "credit Tea");
    assert_int_equal(st.phase, CH_PH_MERGE);
    assert_int_equal(t_count_type(&st, 0, CH_M_MERGE), 2);
    assert_true(t_legal(&st, 0, "merge Silk into Spices"));
    assert_false(t_legal(&st, 0, "merge Spices into Tea"));
    t_play(&st, 0, "merge Silk into Tea");
    assert_int_equal(st.co[TEA].value, 130);
    assert_int_equal(st.co[SPICES].on_chart, 0);
    assert_int_equal(st.pl[0].cash, cash + 130);
}

/* Rulebook "Merging more than two" ("Then the remaining two (or next two
 * lowest) merge"); R-24: four companies f20, f40, f60, f100 (credited: f110).
 * Silk into Spices (f60); Spices and Tea tie at f60 (builder: Tea into
 * Spices, f120); Spices f120 absorbs the credited Sugar f110: f230. */
static void merge_four_way_R24(void **s)
{
    (void)s;
    ch_state st;
    star(&st, SILK, 20, SPICES, 40, TEA, 60, SUGAR, 100);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour E4");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 4);
    t_play(&st, 0, "credit Sugar");
    assert_int_equal(st.phase, CH_PH_MERGE);
    assert_int_equal(st.co[SILK].on_chart, 0);
    assert_int_equal(st.co[SPICES].value, 60);
    t_play(&st, 0, "merge Tea into Spices");
    assert_int_equal(st.phase, CH_PH_TRADE);
    assert_int_equal(st.co[SPICES].value, 230);
    assert_int_equal(st.co[SUGAR].on_chart, 0);
    assert_int_equal(st.co[TEA].on_chart, 0);
    assert_int_equal(st.owner[P(&st, "Canal Ring E2")], SPICES);
    assert_int_equal(st.owner[P(&st, "Harbour E4")], SPICES);
    assert_int_equal(st.pl[0].cash, cash + 230);
}

/* R-24 ("sales in turn order from the builder" for each absorbed company):
 * in a three-way merger the stocks of the first absorbed company are sold at
 * its value before the second pair merges. */
static void merge_three_way_sales_per_pair_R24(void **s)
{
    (void)s;
    ch_state st;
    star(&st, SILK, 30, SPICES, 40, TEA, 90, CH_NONE, 0);
    t_stock(&st, 1, SILK, 1);
    t_stock(&st, 1, SPICES, 1);
    int32_t cash = st.pl[1].cash;
    t_play(&st, 0, "play Harbour E4");
    t_play(&st, 0, "credit Tea");
    assert_int_equal(st.m_absorbed, SILK);
    t_play(&st, 1, "sell Silk");
    assert_int_equal(st.pl[1].cash, cash + 30);
    assert_int_equal(st.m_absorbed, SPICES);
    assert_int_equal(st.co[SPICES].value, 70);
    t_play(&st, 1, "sell Spices");
    assert_int_equal(st.pl[1].cash, cash + 30 + 70);
    assert_int_equal(st.co[TEA].value, 170);
}

/* Gunpowder founded diagonally: A1 + B2, HQ placeholder on B1 (f20); extra
 * Gunpowder warehouse on A2 when `joined`; Coal f50 on D2-E2; P1 holds C2. */
static void placeholder_position(ch_state *st, int joined)
{
    table(st, 3);
    t_put(st, "Harbour A1", 1);
    t_put(st, "Harbour B2", 1);
    if (joined)
        t_put(st, "Harbour A2", 1);
    const char *g[] = {"Harbour A1", "Harbour B2", "Harbour A2"};
    t_company(st, GUNPOWDER, joined ? 30 : 20, "Harbour B1", g, joined ? 3 : 2);
    t_company2(st, COAL, 50, "Harbour E2", "Harbour D2");
    t_give(st, 0, "Harbour C2");
    t_valid(st);
}

/* Rulebook "C.", Exceptional situation; R-25: the absorbed company's HQ
 * placeholder on B1 is all that joins A1 to the survivor: an upside-down
 * warehouse from the supply replaces it, of no value (Coal f60 + f20 = f80). */
static void merge_placeholder_upside_down_R25(void **s)
{
    (void)s;
    ch_state st;
    placeholder_position(&st, 0);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C2");
    t_play(&st, 0, "credit Coal");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.co[COAL].value, 80);
    assert_int_equal(st.pflags[b1] & (CH_PF_UPSIDE | CH_PF_HQ | CH_PF_NOPIECE), CH_PF_UPSIDE);
    assert_int_equal(st.height[b1], 0);
    assert_int_equal(st.owner[b1], COAL);
    assert_int_equal(st.owner[P(&st, "Harbour A1")], COAL);
    assert_int_equal(st.supply, 62 - 4 - 1 - 1);
    assert_int_equal(st.pl[0].cash, cash + 80);
}

/* building the upside-down warehouse's plot turns it over: no new
 * piece from the supply, +f10 like any warehouse. */
static void upside_down_turned_over_R22(void **s)
{
    (void)s;
    ch_state st;
    placeholder_position(&st, 0);
    t_play(&st, 0, "play Harbour C2");
    t_play(&st, 0, "credit Coal");
    t_play(&st, 0, "done");
    t_give(&st, 1, "Harbour B1");
    int supply = st.supply;
    int32_t cash = st.pl[1].cash;
    t_play(&st, 1, "play Harbour B1");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.supply, supply);
    assert_int_equal(st.height[b1], 1);
    assert_false(st.pflags[b1] & CH_PF_UPSIDE);
    assert_int_equal(st.co[COAL].value, 90);
    assert_int_equal(st.pl[1].cash, cash + 90);
}

/* R-25 (only "if removing ... would split the survivor"): with A2 joining A1
 * to B2, the absorbed placeholder HQ simply leaves and B1 is empty again. */
static void merge_placeholder_removed_when_not_needed_R25(void **s)
{
    (void)s;
    ch_state st;
    placeholder_position(&st, 1);
    t_play(&st, 0, "play Harbour C2");
    t_play(&st, 0, "credit Coal");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.co[COAL].value, 90);
    assert_int_equal(st.pflags[b1], 0);
    assert_int_equal(st.owner[b1], CH_NONE);
    assert_int_equal(st.supply, 62 - 5 - 1);
}

/* the upside-down placeholder is needed but the new warehouse took the
 * last one from the supply: it is marked without a piece and still connects;
 * the end of the game is triggered. */
static void merge_placeholder_empty_supply_R26(void **s)
{
    (void)s;
    ch_state st;
    placeholder_position(&st, 0);
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Canal Ring", 1);
    t_valid(&st);
    assert_int_equal(st.supply, 1);
    t_play(&st, 0, "play Harbour C2");
    t_play(&st, 0, "credit Coal");
    int b1 = P(&st, "Harbour B1");
    assert_int_equal(st.supply, 0);
    assert_int_equal(st.pflags[b1] & (CH_PF_UPSIDE | CH_PF_NOPIECE), CH_PF_UPSIDE | CH_PF_NOPIECE);
    assert_int_equal(st.owner[b1], COAL);
    assert_int_equal(st.co[COAL].value, 80);
    assert_int_equal(st.end_triggered, 1);
}

/* R-49 ("Levels and upside-down placeholders use warehouses from the supply
 * too"): with two warehouses left, the build takes one and the upside-down
 * placeholder the last: the end of the game is triggered. */
static void merge_upside_down_takes_last_R49(void **s)
{
    (void)s;
    ch_state st;
    placeholder_position(&st, 0);
    t_fill_supply(&st, "Old Side", 20);
    t_fill_supply(&st, "Canal Ring", 2);
    t_play(&st, 0, "play Harbour C2");
    assert_int_equal(st.end_triggered, 0);
    t_play(&st, 0, "credit Coal");
    assert_int_equal(st.supply, 0);
    assert_int_equal(st.pflags[P(&st, "Harbour B1")] & (CH_PF_UPSIDE | CH_PF_NOPIECE), CH_PF_UPSIDE);
    assert_int_equal(st.end_triggered, 1);
    t_play(&st, 0, "done");
    assert_int_equal(st.phase, CH_PH_OVER);
}

/* R-31 ("on a merger, where its -f50 goes to the company the builder
 * credits"): Gunpowder f100 credited with a roof drops to f50, then Coal f70
 * absorbs it: f120. */
static void merge_roof_on_credited_R31(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 100, 70);
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 roof");
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.co[COAL].value, 120);
    assert_int_equal(st.co[GUNPOWDER].on_chart, 0);
    assert_true(st.pflags[P(&st, "Harbour C1")] & CH_PF_ROOF);
    assert_int_equal(st.pl[0].cash, cash + 120);
}

/* RULINGS.md "Action cards" ("A roof may only be put on a build that
 * changes a company's value"); R-31 (issue 29): a merger changes the
 * survivor's value, so with a roof either company may be credited, even
 * one at the f20 floor: Gunpowder f20 stays f20, then Coal f70 absorbs it
 * (f90). */
static void merge_roof_credit_at_floor_R31(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 20, 70);
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1 roof");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 2);
    assert_true(t_legal(&st, 0, "credit Coal"));
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.co[COAL].value, 90);
    assert_int_equal(st.co[GUNPOWDER].on_chart, 0);
    assert_int_equal(st.pl[0].cash, cash + 90);
}

/* R-31 (issue 29): a warehouse with a roof that joins two f20 companies is
 * legal: whichever is credited stays at the f20 floor, and the survivor
 * goes from f20 to f40, paid f40. */
static void merge_roof_two_at_floor_R31(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 20, 20);
    t_roofs(&st, 0, 1);
    int32_t cash = st.pl[0].cash;
    assert_true(t_legal(&st, 0, "play Harbour C1 roof"));
    t_play(&st, 0, "play Harbour C1 roof");
    assert_int_equal(t_count_type(&st, 0, CH_M_CREDIT), 2);
    t_play(&st, 0, "credit Coal");
    assert_int_equal(st.phase, CH_PH_MERGE); /* f20 and f20: the builder decides */
    t_play(&st, 0, "merge Gunpowder into Coal");
    assert_int_equal(st.co[COAL].value, 40);
    assert_int_equal(st.pl[0].roofs, 0);
    assert_true(st.pflags[P(&st, "Harbour C1")] & CH_PF_ROOF);
    assert_int_equal(st.pl[0].cash, cash + 40);
}

/* R-24 ("and the value of any lone warehouses it connects"): lone C2 with a
 * second level (f30) joins the credited company: Gunpowder f40 + f10 + f30 =
 * f80 absorbs Coal f70: f150. */
static void merge_lone_joins_credited_R24(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 40, 70);
    t_put(&st, "Harbour C2", 2);
    t_valid(&st);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Gunpowder");
    assert_int_equal(st.co[GUNPOWDER].value, 150);
    assert_int_equal(st.co[COAL].on_chart, 0);
    assert_int_equal(st.owner[P(&st, "Harbour C2")], GUNPOWDER);
    assert_int_equal(st.pl[0].cash, cash + 150);
}

/* Rulebook "C." step 6 ("again: not beyond f300"); R-27: f200 + f160 = f300,
 * paid f300. */
static void merge_capped_300(void **s)
{
    (void)s;
    ch_state st;
    two_way(&st, 3, 200, 150);
    int32_t cash = st.pl[0].cash;
    t_play(&st, 0, "play Harbour C1");
    t_play(&st, 0, "credit Coal");
    assert_int_equal(st.co[GUNPOWDER].value, 300);
    assert_int_equal(st.pl[0].cash, cash + 300);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(merge_two_higher_absorbs_R24),
        cmocka_unit_test(merge_credit_choice_R24),
        cmocka_unit_test(merge_tie_builder_decides_R24),
        cmocka_unit_test(merge_sales_in_turn_order_R24),
        cmocka_unit_test(merge_sales_skip_nonholders_R24),
        cmocka_unit_test(merge_kept_stocks_worthless),
        cmocka_unit_test(merge_refounded_kept_stocks_count),
        cmocka_unit_test(merge_three_way_tied_lowest_R24),
        cmocka_unit_test(merge_three_way_tied_second_R24),
        cmocka_unit_test(merge_four_way_R24),
        cmocka_unit_test(merge_three_way_sales_per_pair_R24),
        cmocka_unit_test(merge_placeholder_upside_down_R25),
        cmocka_unit_test(upside_down_turned_over_R22),
        cmocka_unit_test(merge_placeholder_removed_when_not_needed_R25),
        cmocka_unit_test(merge_placeholder_empty_supply_R26),
        cmocka_unit_test(merge_upside_down_takes_last_R49),
        cmocka_unit_test(merge_roof_on_credited_R31),
        cmocka_unit_test(merge_roof_credit_at_floor_R31),
        cmocka_unit_test(merge_roof_two_at_floor_R31),
        cmocka_unit_test(merge_lone_joins_credited_R24),
        cmocka_unit_test(merge_capped_300),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
