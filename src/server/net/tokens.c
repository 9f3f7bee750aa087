/* tokens.c: secrets of the server: seat tokens (128 bits) and game ids
 * (64 bits) drawn from the OS random source (getrandom, falling back to
 * /dev/urandom), written as lower-case hex, and compared in constant time so
 * that response timing says nothing about how much of a guess was right;
 * the hashes under which tokens are stored.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include <sodium.h>

#include "net/net.h"

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

/* Tokens are kept only as hashes (issue 19): a copy of the database gives
 * no seat and no session. A token has 128 or 256 random bits, so a fast
 * hash without salt is enough (no dictionary to try). */
void srv_token_hash(const char *token, char out[SRV_HASH_HEX + 1])
{
    unsigned char h[32];
    crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), NULL, 0);
    sodium_bin2hex(out, SRV_HASH_HEX + 1, h, sizeof h);
}

int srv_token_matches(const char *token, const char *hash)
{
    if (!token || !hash || strlen(hash) != SRV_HASH_HEX)
        return 0;
    char h[SRV_HASH_HEX + 1];
    srv_token_hash(token, h);
    return sodium_memcmp(h, hash, SRV_HASH_HEX) == 0;
}
