/* test_password.c: the server's password hashing (src/server/people/auth_hash.c)
 * and token hashes (tokens.c): argon2id with OWASP's minimum parameters
 * (19 MiB, 2 passes) in the stored string, verification of the right and a
 * wrong password, the rehash test for hashes made with other parameters,
 * the worker thread that hashes off the event loop, and the stored form of
 * tokens (BLAKE2b-256, compared in constant time). */
#define _DEFAULT_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>

#include "people/people.h"

static void test_hash_parameters(void **st)
{
    (void)st;
    assert_true(sodium_init() >= 0);
    char h[128];
    assert_int_equal(srv_pw_hash("correct horse", h), 0);
    /* m in KiB: 19 MiB = 19456 KiB; t = passes; p = lanes */
    assert_non_null(strstr(h, "$argon2id$v=19$m=19456,t=2,p=1$"));
    assert_true(h == strstr(h, "$argon2id$"));
    assert_true(srv_pw_verify(h, "correct horse"));
    assert_false(srv_pw_verify(h, "correct horsE"));
    assert_false(srv_pw_verify(h, ""));
    assert_false(srv_pw_needs_rehash(h));
    /* two hashes of one password differ (a random salt each) */
    char h2[128];
    assert_int_equal(srv_pw_hash("correct horse", h2), 0);
    assert_string_not_equal(h, h2);
}

static void test_rehash_old_parameters(void **st)
{
    (void)st;
    char old[crypto_pwhash_STRBYTES];
    /* made with fewer passes and less memory than the server uses now */
    assert_int_equal(crypto_pwhash_str(old, "pw", 2, 1, 8u << 20), 0);
    assert_true(srv_pw_verify(old, "pw"));
    assert_true(srv_pw_needs_rehash(old));
    assert_int_equal(crypto_pwhash_str(old, "pw", 2, 3, 19u << 20), 0);
    assert_true(srv_pw_needs_rehash(old));
}

static int done_calls;
static void on_done(srv_pwjob *j)
{
    done_calls++;
    (void)j;
}

static void test_worker(void **st)
{
    (void)st;
    assert_int_equal(srv_pw_start(), 0);
    static srv_pwjob hash_job, good, bad, unknown;
    snprintf(hash_job.password, sizeof hash_job.password, "s3cret pass");
    hash_job.done = on_done;
    assert_int_equal(srv_pw_submit(&hash_job), 0);
    for (int i = 0; i < 3000 && done_calls < 1; i++) {
        usleep(10000);
        srv_pw_drain();
    }
    assert_int_equal(done_calls, 1);
    assert_true(hash_job.ok);
    assert_int_equal(hash_job.password[0], 0); /* wiped once used */
    good.verify = bad.verify = unknown.verify = 1;
    snprintf(good.stored, sizeof good.stored, "%s", hash_job.hash);
    snprintf(bad.stored, sizeof bad.stored, "%s", hash_job.hash);
    snprintf(good.password, sizeof good.password, "s3cret pass");
    snprintf(bad.password, sizeof bad.password, "s3cret pasS");
    snprintf(unknown.password, sizeof unknown.password, "s3cret pass");
    good.done = bad.done = unknown.done = on_done;
    assert_int_equal(srv_pw_submit(&good), 0);
    assert_int_equal(srv_pw_submit(&bad), 0);
    assert_int_equal(srv_pw_submit(&unknown), 0);
    for (int i = 0; i < 6000 && done_calls < 4; i++) {
        usleep(10000);
        srv_pw_drain();
    }
    assert_int_equal(done_calls, 4);
    assert_true(good.ok);
    assert_false(good.rehash);
    assert_false(bad.ok);
    assert_false(unknown.ok); /* no stored hash: a dummy is checked, and fails */
    srv_pw_stop();
}

static void test_token_hash(void **st)
{
    (void)st;
    char h[SRV_HASH_HEX + 1];
    srv_token_hash("0123456789abcdef0123456789abcdef", h);
    assert_int_equal(strlen(h), SRV_HASH_HEX);
    for (const char *p = h; *p; p++)
        assert_non_null(strchr("0123456789abcdef", *p));
    assert_true(srv_token_matches("0123456789abcdef0123456789abcdef", h));
    assert_false(srv_token_matches("0123456789abcdef0123456789abcdee", h));
    assert_false(srv_token_matches("", h));
    assert_false(srv_token_matches("0123456789abcdef0123456789abcdef", ""));
    /* the token is not in its hash */
    assert_null(strstr(h, "0123456789abcdef"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hash_parameters),
        cmocka_unit_test(test_rehash_old_parameters),
        cmocka_unit_test(test_worker),
        cmocka_unit_test(test_token_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
