/* test_move_frame.c: the server's reading of move frames without jansson
 * (src/server/api/move_frame.c) against jansson's own: every frame it accepts
 * jansson reads as the same three members with the same values, and every
 * plain move frame (the shape the web client and the load generator send,
 * with or without whitespace, in any member order) is accepted. Frames are
 * made from random pieces, many of them wrong on purpose. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "api/api.h"

/* What jansson makes of text: 1 when it is an object of exactly type
 * "move", a string move and an integer decision, with those values. */
static int jansson_reads(const char *text, size_t len, char *move, size_t cap, long long *d)
{
    json_error_t err;
    json_t *j = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    int ok = j && json_is_object(j) && json_object_size(j) == 3;
    json_t *t = ok ? json_object_get(j, "type") : NULL, *m = ok ? json_object_get(j, "move") : NULL,
           *n = ok ? json_object_get(j, "decision") : NULL;
    ok = ok && json_is_string(t) && !strcmp(json_string_value(t), "move") && json_is_string(m) &&
         json_is_integer(n) && strlen(json_string_value(m)) < cap;
    if (ok) {
        snprintf(move, cap, "%s", json_string_value(m));
        *d = json_integer_value(n);
    }
    json_decref(j);
    return ok;
}

static void check(const char *text, int want)
{
    char fm[128] = "", jm[128] = "";
    long long fd = -7, jd = -7;
    int fast = srv_move_frame(text, strlen(text), fm, sizeof fm, &fd);
    int slow = jansson_reads(text, strlen(text), jm, sizeof jm, &jd);
    if (fast) {
        if (!slow)
            fail_msg("accepted, but jansson does not read it so: %s", text);
        assert_string_equal(fm, jm);
        assert_true(fd == jd);
    }
    if (want >= 0 && fast != want)
        fail_msg("%s: %s", want ? "refused" : "accepted", text);
}

static void test_cases(void **state)
{
    (void)state;
    check("{\"type\":\"move\",\"move\":\"P 5C\",\"decision\":12}", 1);
    check("{\"type\":\"move\",\"decision\":12,\"move\":\"P 5C\"}", 1);
    check(" { \"decision\" : 0 ,\n\"move\"\t: \"\", \"type\":\"move\" } ", 1);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":-0}", 1);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":-3}", 1);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":999999999999999999}", 1);
    /* left to jansson: each is read there (or refused there) as before */
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":9999999999999999999}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":012}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":1.0}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":1e3}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":\"1\"}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":-}", 0);
    check("{\"type\":\"move\",\"move\":\"a\\\"b\",\"decision\":1}", 0);
    check("{\"type\":\"move\",\"move\":\"\\u0041\",\"decision\":1}", 0);
    check("{\"type\":\"move\",\"move\":\"\xc3\xa9\",\"decision\":1}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":1,\"x\":1}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"move\":\"y\",\"decision\":1}", 0);
    check("{\"type\":\"move\",\"move\":\"x\"}", 0);
    check("{\"type\":\"ping\",\"move\":\"x\",\"decision\":1}", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":1}x", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":1", 0);
    check("{\"type\":\"move\",\"move\":\"x\",\"decision\":1,}", 0);
    check("[\"type\",\"move\"]", 0);
    check("", 0);
    char long_move[300];
    snprintf(long_move, sizeof long_move, "{\"type\":\"move\",\"move\":\"%0200d\",\"decision\":1}", 0);
    check(long_move, 0);
}

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Random frames: the three members in a random order with random
 * whitespace, values from lists of right and wrong ones, sometimes another
 * member, a member twice or the text cut short. */
static void test_random_frames(void **state)
{
    (void)state;
    static const char *spaces[] = {"", "", "", " ", "\n", " \t", "\r\n"};
    static const char *moves[] = {"\"P 5C\"", "\"bid 300\"", "\"\"", "\"pass\"", "\"a\\\"b\"",
                                  "\"\\n\"", "\"\xc3\xa9\"", "\"\x01\"", "7", "null",
                                  "\"~!@#$%^&*()_+{}|:<>?`-=[];',./\""};
    static const int move_plain[] = {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 1};
    static const char *decisions[] = {"0", "12", "-1", "1000000001", "123456789012345678",
                                      "00", "01", "1.5", "1e2", "-", "\"3\"", "true",
                                      "12345678901234567890", "-0"};
    static const int decision_plain[] = {1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    static const char *types[] = {"\"move\"", "\"Move\"", "\"join\"", "\"mo\\u0076e\"", "1"};
    static const int type_plain[] = {1, 0, 0, 0, 0};
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < 200000; i++) {
        char buf[512];
        size_t n = 0;
        int order[3] = {0, 1, 2};
        for (int k = 2; k > 0; k--) {
            int r = (int)(rnd(&s) % (uint64_t)(k + 1)), t = order[k];
            order[k] = order[r];
            order[r] = t;
        }
        int mi = (int)(rnd(&s) % 11), di = (int)(rnd(&s) % 14), ti = (int)(rnd(&s) % 5);
        int extra = rnd(&s) % 10 == 0, twice = rnd(&s) % 10 == 0, cut = rnd(&s) % 10 == 0;
        int plain = move_plain[mi] && decision_plain[di] && type_plain[ti] && !extra && !twice &&
                    !cut;
#define SP() n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", spaces[rnd(&s) % 7])
        SP();
        buf[n++] = '{';
        for (int k = 0; k < 3 + extra + twice; k++) {
            int which = k < 3 ? order[k] : k == 3 && extra ? 3 : order[0];
            if (k)
                buf[n++] = ',';
            SP();
            const char *key = which == 0 ? "type" : which == 1 ? "move" : which == 2 ? "decision"
                                                                                     : "seq";
            const char *val = which == 0 ? types[ti] : which == 1 ? moves[mi]
                            : which == 2 ? decisions[di] : "1";
            n += (size_t)snprintf(buf + n, sizeof buf - n, "\"%s\"", key);
            SP();
            buf[n++] = ':';
            SP();
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s", val);
            SP();
        }
        buf[n++] = '}';
        SP();
        buf[n] = '\0';
#undef SP
        if (cut)
            buf[rnd(&s) % n] = '\0';
        check(buf, plain ? 1 : -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cases),
        cmocka_unit_test(test_random_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
