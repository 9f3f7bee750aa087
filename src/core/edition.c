/* edition.c: the numbers that differ between the editions, in one table, so
 * that the shared board, company, merger and stock code reads them instead of
 * hard-coding one edition (RULINGS.md gives every number here). Building
 * Amsterdam. The Golden Age: its RULINGS.md section
 * (enterprises f30..f500, a buffer of three lots, no event lines on the chart). */
#include "internal.h"

const ed_rules ed_table[2] = {
    [CH_ED_AMSTERDAM] = {
        .name = "amsterdam",
        .spacing = 3,          /* a buffer of two plots                        */
        .min_value = 20,
        .max_value = 300,
        .min_stock_price = 50,
        .stocks = 9,
        .nlines = 5,
        .lines = {100, 150, 200, 250, 300},
    },
    [CH_ED_GOLDEN_AGE] = {
        .name = "golden-age",
        .spacing = 4,          /* a buffer of three lots                       */
        .min_value = 30,
        .max_value = 500,
        .min_stock_price = 50,
        .stocks = 9,
        .nlines = 0,           /* events are cards, not chart lines            */
        .lines = {0},
    },
};
