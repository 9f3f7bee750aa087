/* test_core_masks.c: the company and stock masks of src/core/internal.h that
 * move generation reads (company_available: each company's on_chart and hq
 * as one 16-bit word; stock_gt_mask: eight companies at a time with SSE2)
 * against the plain loops over the companies that they replace: every
 * combination of the bytes they read for every company count, with random
 * bytes in the rest of each company (value, bank, flag) and beyond the
 * arrays; and the table of bit positions (bitpos.h) that offers' askable
 * cards are written from. */
#include "internal.h" /* before cmocka.h, which defines fail() */
#include "bitpos.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static int available_loop(const ch_state *st)
{
    int m = 0;
    for (int c = 0; c < st->ncompanies; c++)
        m |= (st->co[c].on_chart == 0 && st->co[c].hq == CH_NONE) << c;
    return m;
}

static void test_company_masks(void **s)
{
    (void)s;
    static ch_state st;
    uint64_t r = 12345;
    int checked = 0;
    for (int nc = 1; nc <= CH_MAX_COMPANIES; nc++)
        for (int pattern = 0; pattern < (1 << (2 * CH_MAX_COMPANIES)); pattern += 1 + (int)(rnd(&r) % 61)) {
            memset(&st, (int)(rnd(&r) & 255), sizeof st);
            st.ncompanies = (uint8_t)nc;
            for (int c = 0; c < CH_MAX_COMPANIES; c++) {
                int bits = pattern >> (2 * c) & 3;
                st.co[c].value = (int16_t)(rnd(&r) % 600);
                st.co[c].bank = (uint8_t)rnd(&r);
                st.co[c].flag = (uint8_t)rnd(&r);
                /* on_chart 0 or any other byte; hq CH_NONE or a plot */
                st.co[c].on_chart = (bits & 1) ? (uint8_t)(1 + rnd(&r) % 255) : 0;
                st.co[c].hq = (bits & 2) ? (uint8_t)(rnd(&r) % 255) : CH_NONE;
            }
            assert_int_equal(company_available(&st), available_loop(&st));
            checked++;
        }
    assert_true(checked > 1000);
}

static void test_stock_gt_mask(void **s)
{
    (void)s;
    uint64_t r = 777;
    for (int i = 0; i < 20000; i++) {
        uint8_t a[16], b[16];
        for (int k = 0; k < 16; k++) {
            /* small counts (equal ones often) and, now and then, bytes above 127 */
            a[k] = (uint8_t)(rnd(&r) % 4 + ((rnd(&r) & 31) == 0 ? 200 : 0));
            b[k] = (uint8_t)(rnd(&r) % 4 + ((rnd(&r) & 31) == 0 ? 200 : 0));
        }
        int nc = 1 + (int)(rnd(&r) % CH_MAX_COMPANIES);
        unsigned want = 0;
        for (int c = 0; c < nc; c++)
            want |= (unsigned)(a[c] > b[c]) << c;
        assert_int_equal(stock_gt_mask(a, b, nc), want);
    }
}

static void test_bitpos_table(void **s)
{
    (void)s;
    for (int v = 0; v < 256; v++) {
        uint64_t want = 0;
        int k = 0;
        for (int i = 0; i < 8; i++)
            if (v >> i & 1)
                want |= (uint64_t)i << (8 * k++);
        assert_true(ch_bitpos[v] == want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_company_masks),
        cmocka_unit_test(test_stock_gt_mask),
        cmocka_unit_test(test_bitpos_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
