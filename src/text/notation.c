/* notation.c: move notation in the player's language, for the terminal game
 * (the list of legal moves, the move echoed back, what may be typed). The
 * library writes and reads notation in English only (docs/formats.md, "Move
 * notation"); here its words ("sell", "into"), the company names of the
 * game's edition and the district names are swapped for the catalogue's
 * ("notation.sell" -> "verkoop", "company.ba.0" -> "Buskruit",
 * "district.harbour" -> "Haven"), so "sell Gunpowder" reads "verkoop
 * Buskruit". Reading goes the other way: a typed text in the language is
 * turned back into English phrase by phrase and read by ch_move_parse, so an
 * illegal move still gets the library's reason; English is always read too.
 * Amounts (f120), seats (P2), plot labels (C1) and level cards (L3) are the
 * same in every language.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

/* Every word the library's notation uses (src/core/notation.c). */
static const char *const words[] = {
    "accept", "action", "ask", "auction", "bid", "buy", "credit", "deck",
    "decline", "discard", "done", "draw", "event", "flag", "found", "free",
    "give", "hq", "into", "keep", "lone", "lose", "merge", "offer", "own",
    "pass", "pick", "play", "propose", "refresh", "roof", "sell", "stock",
    "take", "withdraw"};
#define NWORDS (sizeof words / sizeof words[0])
static const char *const districts[] = {"harbour", "jordaan", "canal_ring", "old_side",
                                        "city_centre"};
#define NDISTRICTS (sizeof districts / sizeof districts[0])
#define NPHRASES (NWORDS + NDISTRICTS + CH_MAX_COMPANIES)

typedef struct phrase {
    const char *en, *tr;
} phrase;

/* The phrases of lang for st's edition; returns the count. */
static int phrases(int lang, const ch_state *st, phrase *ph)
{
    int k = 0;
    char key[64];
    for (size_t i = 0; i < NWORDS; i++) {
        snprintf(key, sizeof key, "notation.%s", words[i]);
        ph[k].en = words[i];
        ph[k++].tr = chx_msg(lang, key);
    }
    for (size_t i = 0; i < NDISTRICTS; i++) {
        snprintf(key, sizeof key, "district.%s", districts[i]);
        ph[k].en = chx_msg(CHX_LANG_EN, key);
        ph[k++].tr = chx_msg(lang, key);
    }
    for (int c = 0; st && c < st->ncompanies && c < CH_MAX_COMPANIES; c++) {
        ph[k].en = chx_company(CHX_LANG_EN, st, c);
        ph[k++].tr = chx_company(lang, st, c);
    }
    return k;
}

/* Rewrite text phrase by phrase: at each start of a word the longest phrase
 * (from, compared without case when fold) that ends at a space or the end is
 * replaced by its other side; everything else is copied. Returns the length
 * of the whole result (like snprintf; cut on a UTF-8 boundary to fit). */
static int rewrite(const phrase *ph, int nph, int to_english, int fold, const char *text,
                   char *buf, size_t n)
{
    chx_buf b = {0};
    chx_buf_puts(&b, "");
    const char *s = text;
    while (*s) {
        if (*s == ' ') {
            chx_buf_add(&b, " ", 1);
            while (*s == ' ')
                s++;
            continue;
        }
        int best = -1;
        size_t bestlen = 0;
        for (int i = 0; i < nph; i++) {
            const char *from = to_english ? ph[i].tr : ph[i].en;
            size_t k = strlen(from);
            if (k <= bestlen || !k)
                continue;
            if ((fold ? strncasecmp(s, from, k) : strncmp(s, from, k)) == 0 &&
                (s[k] == ' ' || s[k] == '\0')) {
                best = i;
                bestlen = k;
            }
        }
        if (best >= 0) {
            chx_buf_puts(&b, to_english ? ph[best].en : ph[best].tr);
            s += bestlen;
        } else {
            size_t w = strcspn(s, " ");
            chx_buf_add(&b, s, w);
            s += w;
        }
    }
    int len = b.oom ? -1 : (int)b.len;
    if (n > 0) {
        if (len < 0) {
            buf[0] = '\0';
        } else {
            size_t cut = b.len < n ? b.len : n - 1;
            while (cut > 0 && cut < b.len && ((unsigned char)b.s[cut] & 0xC0) == 0x80)
                cut--;
            memcpy(buf, b.s, cut);
            buf[cut] = '\0';
        }
    }
    free(b.s);
    return len;
}

int chx_move_text(int lang, const ch_state *st, ch_move m, char *buf, size_t n)
{
    char en[256];
    int len = ch_move_str(st, m, en, sizeof en);
    if (len <= 0 || lang == CHX_LANG_EN || lang < 0 || lang >= CHX_NLANGS) {
        if (len > 0)
            snprintf(buf, n, "%s", en);
        else if (n > 0)
            buf[0] = '\0';
        return len;
    }
    phrase ph[NPHRASES];
    return rewrite(ph, phrases(lang, st, ph), 0, 0, en, buf, n);
}

int chx_move_english(int lang, const ch_state *st, const char *text, char *buf, size_t n)
{
    if (lang == CHX_LANG_EN || lang < 0 || lang >= CHX_NLANGS) {
        snprintf(buf, n, "%s", text);
        return (int)strlen(text);
    }
    phrase ph[NPHRASES];
    return rewrite(ph, phrases(lang, st, ph), 1, 1, text, buf, n);
}

int chx_move_read(int lang, const ch_state *st, int p, const char *text, ch_move *m,
                  ch_msg *why)
{
    /* English first: the notation of the docs is read in every language */
    int rc = ch_move_parse(st, p, text, m, why);
    if (rc == CH_OK || lang == CHX_LANG_EN)
        return rc;
    char en[512];
    if (chx_move_english(lang, st, text, en, sizeof en) < 0 || !strcmp(en, text))
        return rc; /* nothing of the language in it: the English reason */
    return ch_move_parse(st, p, en, m, why);
}
