/* wrap.c: a paragraph wrapped at a terminal width between words, for the
 * terminal's help and other long texts (issue 16: the help broke "ca / rd"
 * in the middle of a word). Lines break at spaces; Japanese text, written
 * without spaces, may break before or after any wide character but closing
 * punctuation ("、", "。", "」"), which never begins a line; a word
 * longer than the width is cut where it must be. Widths are display columns
 * (chx_width).
 */
#include <string.h>

#include "text.h"

/* Japanese punctuation that may not begin a line (kinsoku: "、" or "。" at
 * the start of a line reads as a mistake): a line never breaks before it. */
static int no_break_before(const char *s)
{
    static const char *const closing[] = {"、", "。", "，", "．", "）", "」", "』", "】",
                                          "〕", "・", "ー", "！", "？", "：", "；", "〉",
                                          "》", "ぁ", "ぃ", "ぅ", "ぇ", "ぉ", "っ", "ゃ",
                                          "ゅ", "ょ", "ッ", "ャ", "ュ", "ョ", NULL};
    for (int i = 0; closing[i]; i++)
        if (!strncmp(s, closing[i], strlen(closing[i])))
            return 1;
    return 0;
}

/* Bytes of the UTF-8 character at s. */
static size_t char_len(const char *s)
{
    unsigned char c = (unsigned char)*s;
    size_t n = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    for (size_t i = 1; i < n; i++)
        if (!s[i])
            return i;
    return n;
}

void chx_wrap(const char *text, int width, chx_buf *out)
{
    if (!text)
        return;
    if (width < 10)
        width = 10;
    const char *line = text;
    while (*line) {
        /* one line: as many characters as fit, then back to the last break */
        const char *p = line, *brk = NULL, *brk_next = NULL;
        size_t cols = 0;
        while (*p && *p != '\n') {
            size_t k = char_len(p);
            size_t w = chx_width_n(p, k);
            if (cols + w > (size_t)width)
                break;
            if (*p == ' ') {
                brk = p;
                brk_next = p + 1;
            } else if (w == 2) {
                /* a wide character: a break may come before it or after it
                 * (but not before closing punctuation) */
                if (p > line && !no_break_before(p)) {
                    brk = p;
                    brk_next = p;
                }
            }
            cols += w;
            p += k;
            if (w == 2 && *p && *p != ' ' && *p != '\n' && !no_break_before(p)) {
                brk = p;
                brk_next = p;
            }
        }
        const char *end, *next;
        if (!*p || *p == '\n') {
            end = p;
            next = *p ? p + 1 : p;
        } else if (brk && brk > line) {
            end = brk;
            next = brk_next;
        } else {
            end = p; /* a word longer than the line: cut it */
            next = p;
        }
        while (end > line && end[-1] == ' ')
            end--;
        chx_buf_add(out, line, (size_t)(end - line));
        chx_buf_add(out, "\n", 1);
        while (*next == ' ')
            next++;
        line = next;
    }
}
