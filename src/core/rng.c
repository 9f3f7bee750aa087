/* rng.c: the deterministic random generator held inside ch_state (xoshiro256**,
 * seeded through splitmix64). Every shuffle of a game draws from it, so a game
 * is reproducible from its setup, seed and move list. The public
 * ch_rng_* functions give callers the same generator. */
#include "internal.h"

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

void rng_seed(uint64_t *s, uint64_t seed)
{
    uint64_t x = seed;
    for (int i = 0; i < 4; i++)
        s[i] = splitmix64(&x);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_next(uint64_t *s)
{
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Lemire's multiply-shift with rejection: unbiased. */
uint32_t rng_below(uint64_t *s, uint32_t n)
{
    assert(n > 0);
    uint64_t m = (uint64_t)(uint32_t)(rng_next(s) >> 32) * n;
    uint32_t l = (uint32_t)m;
    if (l < n) {
        uint32_t t = (uint32_t)(-n) % n;
        while (l < t) {
            m = (uint64_t)(uint32_t)(rng_next(s) >> 32) * n;
            l = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

void rng_shuffle(uint64_t *s, uint8_t *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)rng_below(s, (uint32_t)i + 1);
        uint8_t t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

void ch_rng_seed(ch_rng *r, uint64_t seed)
{
    rng_seed(r->s, seed);
}

uint64_t ch_rng_next(ch_rng *r)
{
    return rng_next(r->s);
}

uint32_t ch_rng_below(ch_rng *r, uint32_t n)
{
    return n ? rng_below(r->s, n) : 0; /* the library never aborts on input */
}
