/* test_limits.c: the server's per-address limit on game creations
 * (src/server/game/limits.c), a token bucket of creates-per-minute. With one
 * a minute, a new address's first creation is allowed and its second refused
 * with a wait, even when the caller's clock reading comes a millisecond
 * before the one the new record is made with (the HTTP handler reads the
 * clock, then the limiter makes the record: cli_config once saw the first
 * creation refused on a loaded machine). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "game/game_impl.h"
#include "net/net.h"

static void test_first_creation(void **state)
{
    (void)state;
    char why[200];
    int retry = -1;
    /* a reading of the clock made before the record exists: 5 ms earlier */
    int64_t before = srv_now_ms() - 5;
    assert_int_equal(srv_limit_create("192.0.2.1", before, why, sizeof why, &retry), 0);
    assert_int_equal(retry, 0);
    int64_t now = srv_now_ms();
    assert_int_equal(srv_limit_create("192.0.2.1", now, why, sizeof why, &retry), 429);
    assert_true(retry >= 1 && retry <= 61);
    assert_non_null(strstr(why, "at most 1 a minute"));
    /* another address has its own bucket */
    assert_int_equal(srv_limit_create("192.0.2.2", now - 1, why, sizeof why, &retry), 0);
    /* a minute later the first address may create again */
    assert_int_equal(srv_limit_create("192.0.2.1", now + 60001, why, sizeof why, &retry), 0);
    /* an hour on, the sweep frees the records of addresses whose buckets are
       full again and hold nothing (and a leak check finds none left) */
    srv_limits_tick(now + 3600000);
    assert_int_equal(srv_limit_create("192.0.2.1", now + 3600001, why, sizeof why, &retry), 0);
    srv_limits_tick(now + 7200000);
}

int main(void)
{
    /* read once, at the first use (limits.c): one creation a minute */
    setenv("CHARTERED_CREATES_PER_MINUTE", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_creation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
