/* names.c: which names a guest may take, and when two names look alike
 * (issue 28: guests took an account's name, a bot's, or names with a
 * right-to-left override or zero-width characters, and passed for them).
 *
 * A guest's name is 1 to 24 bytes of valid UTF-8 with no control, format,
 * bidirectional, zero-width, invisible filler, variation selector, tag,
 * private-use or noncharacter code point, no space other than U+0020, no
 * space at either end and none doubled. It may not look like an account's
 * name (checked by the skeletons below, on the writer thread: auth_api.c)
 * nor like a bot's.
 *
 * The skeleton of a name is what is left of it to the eye: upper case
 * folded, fullwidth forms made ASCII, the accents of Latin-1 letters
 * dropped, the Cyrillic and Greek letters that look Latin made Latin,
 * separators and punctuation dropped, and the letters and digits that pass
 * for each other made one (0/o, 1/l/i, 5/s, rn/m, vv/w). It is a small,
 * deliberate subset of Unicode's confusables (UTS #39): the lookalikes of
 * the letters and digits account names are made of, which is what a guest
 * would use to pass for one. Accounts keep theirs (accounts.name_skel).
 */
#include <stdio.h>
#include <string.h>

#include "people/people.h"

/* One code point of s at *i (advanced), or -1 for invalid UTF-8 (overlong,
   surrogate, past U+10FFFF, cut short). */
static long next_cp(const unsigned char *s, size_t *i)
{
    unsigned c = s[*i];
    int n;
    long cp, min;
    if (c < 0x80) {
        (*i)++;
        return c;
    } else if ((c & 0xE0) == 0xC0) {
        n = 1, cp = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 2, cp = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 3, cp = c & 0x07, min = 0x10000;
    } else {
        return -1;
    }
    for (int k = 1; k <= n; k++) {
        if ((s[*i + (size_t)k] & 0xC0) != 0x80)
            return -1;
        cp = (cp << 6) | (s[*i + (size_t)k] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return -1;
    *i += (size_t)n + 1;
    return cp;
}

/* Code points no name may hold: controls, format and bidi controls,
   zero-width and invisible characters, fillers, variation selectors, tags,
   private use, noncharacters, and every space but U+0020. */
static int forbidden(long cp)
{
    static const long ranges[][2] = {
        {0x00, 0x1F},     {0x7F, 0x9F},     {0xA0, 0xA0},     {0xAD, 0xAD},
        {0x034F, 0x034F}, {0x061C, 0x061C}, {0x115F, 0x1160}, {0x1680, 0x1680},
        {0x17B4, 0x17B5}, {0x180B, 0x180F}, {0x2000, 0x200F}, {0x2028, 0x202F},
        {0x205F, 0x206F}, {0x2800, 0x2800}, {0x3000, 0x3000}, {0x3164, 0x3164},
        {0xE000, 0xF8FF}, {0xFDD0, 0xFDEF}, {0xFE00, 0xFE0F}, {0xFEFF, 0xFEFF},
        {0xFFA0, 0xFFA0}, {0xFFF0, 0xFFFF}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A},
        {0xE0000, 0xE0FFF}, {0xF0000, 0x10FFFF},
    };
    if ((cp & 0xFFFE) == 0xFFFE) /* U+xxFFFE, U+xxFFFF: noncharacters */
        return 1;
    for (size_t k = 0; k < sizeof ranges / sizeof *ranges; k++)
        if (cp >= ranges[k][0] && cp <= ranges[k][1])
            return 1;
    return 0;
}

const char *srv_guest_name_problem(const char *name)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t len = strlen(name), i = 0;
    if (len < 1 || len > 24)
        return "a guest's name has 1 to 24 bytes of text";
    if (s[0] == ' ' || s[len - 1] == ' ' || strstr(name, "  "))
        return "a guest's name has no space at either end and no two in a row";
    while (i < len) {
        long cp = next_cp(s, &i);
        if (cp < 0)
            return "a guest's name must be valid UTF-8";
        if (forbidden(cp))
            return "a guest's name may not hold control, invisible, direction or format "
                   "characters";
    }
    return NULL;
}

/* The Latin letter a code point passes for, or 0. */
static int latin_of(long cp)
{
    if (cp < 0x80)
        return (int)cp;
    if (cp >= 0xFF01 && cp <= 0xFF5E) /* fullwidth ASCII */
        return (int)(cp - 0xFEE0);
    if (cp >= 0xC0 && cp <= 0xFF) { /* Latin-1 letters without their accents */
        static const char l1[] = "aaaaaaaceeeeiiii" "dnooooo.ouuuuyts"
                                 "aaaaaaaceeeeiiii" "dnooooo.ouuuuyty";
        char c = l1[cp - 0xC0];
        return c == '.' ? 0 : c;
    }
    static const struct {
        long cp;
        char c;
    } look[] = {
        /* Cyrillic */
        {0x0405, 's'}, {0x0406, 'i'}, {0x0408, 'j'}, {0x0410, 'a'}, {0x0412, 'b'},
        {0x0415, 'e'}, {0x041A, 'k'}, {0x041C, 'm'}, {0x041D, 'h'}, {0x041E, 'o'},
        {0x0420, 'p'}, {0x0421, 'c'}, {0x0422, 't'}, {0x0423, 'y'}, {0x0425, 'x'},
        {0x0430, 'a'}, {0x0435, 'e'}, {0x043E, 'o'}, {0x0440, 'p'}, {0x0441, 'c'},
        {0x0443, 'y'}, {0x0445, 'x'}, {0x0455, 's'}, {0x0456, 'i'}, {0x0458, 'j'},
        {0x04BB, 'h'}, {0x0501, 'd'}, {0x051B, 'q'}, {0x051D, 'w'},
        /* Greek */
        {0x0391, 'a'}, {0x0392, 'b'}, {0x0395, 'e'}, {0x0396, 'z'}, {0x0397, 'h'},
        {0x0399, 'i'}, {0x039A, 'k'}, {0x039C, 'm'}, {0x039D, 'n'}, {0x039F, 'o'},
        {0x03A1, 'p'}, {0x03A4, 't'}, {0x03A5, 'y'}, {0x03A7, 'x'}, {0x03B1, 'a'},
        {0x03B9, 'i'}, {0x03BA, 'k'}, {0x03BD, 'v'}, {0x03BF, 'o'}, {0x03C1, 'p'},
        {0x03C4, 't'}, {0x03C5, 'u'}, {0x03C7, 'x'},
        /* Latin lookalikes: dotless i, long s, small capitals */
        {0x0131, 'i'}, {0x017F, 's'}, {0x0261, 'g'}, {0x026A, 'i'}, {0x1D00, 'a'},
        {0x1D04, 'c'}, {0x1D05, 'd'}, {0x1D07, 'e'}, {0x1D0B, 'k'}, {0x1D0D, 'm'},
        {0x1D0F, 'o'}, {0x1D1B, 't'}, {0x1D1C, 'u'}, {0x1D20, 'v'}, {0x1D21, 'w'},
        {0x1D22, 'z'},
    };
    for (size_t k = 0; k < sizeof look / sizeof *look; k++)
        if (look[k].cp == cp)
            return look[k].c;
    return 0;
}

void srv_name_skeleton(const char *name, char *out, size_t n)
{
    const unsigned char *s = (const unsigned char *)name;
    size_t len = strlen(name), i = 0, k = 0;
    char tmp[256];
    /* fold to the Latin letters they pass for; keep other scripts' letters
       as they are; drop separators, punctuation and marks */
    while (i < len && k + 5 < sizeof tmp) {
        size_t at = i;
        long cp = next_cp(s, &i);
        if (cp < 0)
            break;
        int c = latin_of(cp);
        if (c) {
            if (c >= 'A' && c <= 'Z')
                c += 'a' - 'A';
            if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
                tmp[k++] = (char)c;
            continue;
        }
        if ((cp >= 0x0300 && cp <= 0x036F) || forbidden(cp) || cp == 0x2010 || cp == 0x2011 ||
            cp == 0x2012 || cp == 0x2013 || cp == 0x2014 || cp == 0x2015 || cp == 0x30FB)
            continue; /* combining marks, invisible characters, dashes */
        memcpy(tmp + k, s + at, i - at);
        k += i - at;
    }
    tmp[k] = 0;
    /* the letters and digits that pass for each other made one */
    size_t o = 0;
    for (size_t j = 0; tmp[j] && o + 1 < n; j++) {
        char c = tmp[j];
        if (c == 'r' && tmp[j + 1] == 'n') {
            c = 'm';
            j++;
        } else if (c == 'v' && tmp[j + 1] == 'v') {
            c = 'w';
            j++;
        } else if (c == '0') {
            c = 'o';
        } else if (c == '1' || c == 'i') {
            c = 'l';
        } else if (c == '5') {
            c = 's';
        }
        out[o++] = c;
    }
    out[o] = 0;
}

int srv_name_botlike(const char *name)
{
    /* a number after it says the same ("Greedy 2", "ISMCTS-3", "Random #1") */
    char base[64], sk[256];
    snprintf(base, sizeof base, "%s", name);
    size_t l = strlen(base);
    while (l > 0 && strchr("0123456789 #-_.", base[l - 1]))
        base[--l] = 0;
    srv_name_skeleton(base, sk, sizeof sk);
    static const char *const bots[] = {"random", "greedy", "rollout", "ismcts", "bot", "robot",
                                       "computer", "standin"};
    for (size_t k = 0; k < sizeof bots / sizeof *bots; k++) {
        char b[40];
        srv_name_skeleton(bots[k], b, sizeof b);
        size_t bl = strlen(b);
        /* the word alone, or with "bot" after it ("GreedyBot") */
        if (!strcmp(sk, b) || (!strncmp(sk, b, bl) && !strcmp(sk + bl, "bot")))
            return 1;
    }
    /* "... Bot", "my-bot", "SuperBot": "bot" as a word of its own at the
       end (not "Talbot") */
    size_t sl = strlen(sk);
    if (sl > 3 && !strcmp(sk + sl - 3, "bot") && l >= 4) {
        char before = base[l - 4], b0 = base[l - 3];
        if (strchr(" -_.", before) || (b0 == 'B' && before >= 'a' && before <= 'z'))
            return 1;
    }
    return 0;
}
