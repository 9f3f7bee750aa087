/* tokens.c: secrets of the server: seat tokens (128 bits) and game ids
 * (64 bits) drawn from the OS random source (getrandom, falling back to
 * /dev/urandom), written as lower-case hex, and compared in constant time so
 * that response timing says nothing about how much of a guess was right.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "server.h"

static int fill_random(unsigned char *p, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t r = getrandom(p + got, n - got, 0);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        got += (size_t)r;
    }
    if (got == n)
        return 0;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f)
        return -1;
    size_t r = fread(p, 1, n, f);
    fclose(f);
    return r == n ? 0 : -1;
}

int srv_random_hex(char *out, int nhex)
{
    unsigned char raw[64];
    int nbytes = (nhex + 1) / 2;
    if (nbytes > (int)sizeof raw || fill_random(raw, (size_t)nbytes) != 0)
        return -1;
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < nhex; i++)
        out[i] = hex[(raw[i / 2] >> ((i & 1) ? 0 : 4)) & 15];
    out[nhex] = 0;
    return 0;
}

uint64_t srv_random_u64(void)
{
    uint64_t v = 0;
    if (fill_random((unsigned char *)&v, sizeof v) != 0)
        v = (uint64_t)srv_now_ms() * 0x9E3779B97F4A7C15ull;
    return v;
}

int srv_token_equal(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    unsigned char diff = (unsigned char)(la != lb);
    size_t n = la < lb ? la : lb;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0 && la > 0;
}
