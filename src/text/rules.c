/* rules.c: the rules of each edition in the project's own words, for every
 * front end (issue 31): data/rules/<edition>.<lang>.md, built into the
 * library like the message catalogues (cmake/embed_data.cmake), read here
 * into sections with stable ids, and turned into terminal text. The format
 * is a small subset of Markdown that a browser page can render as it is
 * (data/rules/README.md): "# " the title, "## Title {#id}" a section,
 * "### " a subheading, paragraphs, "- " and "1. " list items, **bold** and
 * *italic*. data/rules/cites.txt names the section each decision cites, so
 * that the terminal's `rules` and a browser page open the section behind a
 * decision's "Rules: ..." line; tests/test_rules_text.c checks that every
 * decision of both editions lands on a section in every language.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "text.h"

static const char *const edition_words[] = {"amsterdam", "golden-age"};

const char *chx_rules_edition_word(int edition)
{
    return edition >= 0 && edition < 2 ? edition_words[edition] : NULL;
}

/* The end of the line at s (its '\n' or NUL). */
static const char *line_end(const char *s)
{
    const char *e = strchr(s, '\n');
    return e ? e : s + strlen(s);
}

static const char *next_line(const char *s)
{
    const char *e = line_end(s);
    return *e ? e + 1 : e;
}

/* "## Title {#id}": the title without the id, and the id. 0, or -1 when the
 * heading has no well-formed id (lower-case letters, digits, '-'). */
static int heading_id(const char *s, const char *e, chx_rules_section *sec)
{
    const char *open = NULL;
    for (const char *p = s; p + 1 < e; p++)
        if (p[0] == '{' && p[1] == '#')
            open = p;
    if (!open || e[-1] != '}')
        return -1;
    size_t idlen = (size_t)(e - 1 - (open + 2));
    if (idlen == 0 || idlen >= sizeof sec->id)
        return -1;
    for (size_t i = 0; i < idlen; i++) {
        char c = open[2 + i];
        if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '-'))
            return -1;
    }
    memcpy(sec->id, open + 2, idlen);
    sec->id[idlen] = '\0';
    const char *t = s + 3, *te = open;
    while (te > t && te[-1] == ' ')
        te--;
    sec->title = t;
    sec->title_len = (size_t)(te - t);
    return 0;
}

int chx_rules_load(int edition, int lang, chx_rules *r, char *why, size_t n)
{
    memset(r, 0, sizeof *r);
    const char *ed = chx_rules_edition_word(edition);
    const char *code = lang >= 0 && lang < CHX_NLANGS ? chx_lang_code(lang) : NULL;
    if (!ed || !code) {
        snprintf(why, n, "no such edition or language");
        return -1;
    }
    char path[64];
    snprintf(path, sizeof path, "rules/%s.%s.md", ed, code);
    const char *text = ch_builtin_text(path);
    if (!text) {
        snprintf(why, n, "%s is not built into the library", path);
        return -1;
    }
    int line = 0;
    for (const char *s = text; *s; s = next_line(s)) {
        const char *e = line_end(s);
        line++;
        if (!strncmp(s, "# ", 2) && !r->title) {
            r->title = s + 2;
            r->title_len = (size_t)(e - s - 2);
        } else if (!strncmp(s, "## ", 3)) {
            if (r->n == CHX_RULES_MAX) {
                snprintf(why, n, "%s:%d: more than %d sections", path, line, CHX_RULES_MAX);
                return -1;
            }
            chx_rules_section *sec = &r->s[r->n];
            if (heading_id(s, e, sec)) {
                snprintf(why, n, "%s:%d: a section heading needs an id: \"## Title {#id}\"",
                         path, line);
                return -1;
            }
            for (int i = 0; i < r->n; i++)
                if (!strcmp(r->s[i].id, sec->id)) {
                    snprintf(why, n, "%s:%d: section id '%s' twice", path, line, sec->id);
                    return -1;
                }
            sec->body = next_line(s);
            if (r->n > 0)
                r->s[r->n - 1].body_len = (size_t)(s - r->s[r->n - 1].body);
            r->n++;
        } else if (r->n == 0 && *s != '\n' && strncmp(s, "# ", 2)) {
            snprintf(why, n, "%s:%d: text before the first section", path, line);
            return -1;
        }
    }
    if (!r->title || r->n == 0) {
        snprintf(why, n, "%s: no title or no section", path);
        return -1;
    }
    r->s[r->n - 1].body_len = strlen(r->s[r->n - 1].body);
    return 0;
}

int chx_rules_cite(int edition, int phase, char *id, size_t n)
{
    const char *ed = chx_rules_edition_word(edition);
    const char *ph = ch_phase_name(phase);
    const char *text = ch_builtin_text("rules/cites.txt");
    if (!ed || !ph || !text || n == 0)
        return -1;
    for (const char *s = text; *s; s = next_line(s)) {
        const char *e = line_end(s);
        if (*s == '#')
            continue;
        /* three words: edition, phase, section */
        char w[3][40];
        int k = 0;
        const char *p = s;
        while (k < 3) {
            while (p < e && (*p == ' ' || *p == '\t'))
                p++;
            const char *b = p;
            while (p < e && *p != ' ' && *p != '\t')
                p++;
            if (p == b || (size_t)(p - b) >= sizeof w[k])
                break;
            memcpy(w[k], b, (size_t)(p - b));
            w[k][p - b] = '\0';
            k++;
        }
        if (k == 3 && !strcmp(w[0], ed) && !strcmp(w[1], ph)) {
            snprintf(id, n, "%s", w[2]);
            return 0;
        }
    }
    return -1;
}

int chx_rules_find(const chx_rules *r, const char *what)
{
    while (*what == ' ')
        what++;
    size_t len = strlen(what);
    while (len > 0 && what[len - 1] == ' ')
        len--;
    if (len == 0)
        return -1;
    /* a number from the contents */
    size_t d = 0;
    while (d < len && isdigit((unsigned char)what[d]))
        d++;
    if (d == len) {
        long k = d < 4 ? strtol(what, NULL, 10) : 0;
        return k >= 1 && k <= r->n ? (int)k - 1 : -1;
    }
    for (int i = 0; i < r->n; i++)
        if (strlen(r->s[i].id) == len && !strncasecmp(r->s[i].id, what, len))
            return i;
    /* words of a title, as a decision cites it ('Trading stocks'), in any
     * case (ASCII); the first section whose title holds them */
    for (int i = 0; i < r->n; i++)
        for (size_t k = 0; k + len <= r->s[i].title_len; k++)
            if (!strncasecmp(r->s[i].title + k, what, len))
                return i;
    return -1;
}

/* ---- terminal text ------------------------------------------------------------- */

/* Text with the emphasis marks (*, **) removed. */
static void add_plain(chx_buf *b, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] != '*')
            chx_buf_add(b, &s[i], 1);
}

/* One block (a paragraph or a list item) wrapped at width, its first line
 * after `first`, the others after as many spaces. */
static void flush(chx_buf *out, chx_buf *para, const char *first, int width)
{
    if (!para->s || !para->len)
        return;
    size_t ind = chx_width(first);
    chx_buf w = {0};
    chx_wrap(para->s, width - (int)ind, &w);
    const char *s = w.s ? w.s : "";
    int firstline = 1;
    while (*s) {
        const char *e = line_end(s);
        if (firstline)
            chx_buf_puts(out, first);
        else
            for (size_t i = 0; i < ind; i++)
                chx_buf_add(out, " ", 1);
        chx_buf_add(out, s, (size_t)(e - s));
        chx_buf_add(out, "\n", 1);
        firstline = 0;
        s = *e ? e + 1 : e;
    }
    free(w.s);
    free(para->s);
    memset(para, 0, sizeof *para);
}

/* A list item's marker: "- " or "12. "; its length, or 0. */
static size_t item_marker(const char *s, const char *e)
{
    if (e - s >= 2 && s[0] == '-' && s[1] == ' ')
        return 2;
    const char *p = s;
    while (p < e && isdigit((unsigned char)*p))
        p++;
    if (p > s && p + 1 < e && p[0] == '.' && p[1] == ' ')
        return (size_t)(p + 2 - s);
    return 0;
}

void chx_rules_render(const char *md, size_t len, int width, const char *bold,
                      const char *plain, chx_buf *out)
{
    if (width < 20)
        width = 20;
    chx_buf para = {0};
    char first[24] = "";
    int blank_before = 0; /* a blank line goes before the next block */
    const char *end = md + len;
    for (const char *s = md; s < end;) {
        const char *e = line_end(s);
        if (e > end)
            e = end;
        const char *next = *e ? e + 1 : e;
        const char *t = s;
        while (t < e && *t == ' ')
            t++;
        size_t m;
        if (t == e) {
            flush(out, &para, first, width);
            first[0] = '\0';
            blank_before = out->len > 0;
        } else if (!strncmp(t, "### ", 4)) {
            flush(out, &para, first, width);
            if (out->len > 0)
                chx_buf_puts(out, "\n");
            chx_buf_puts(out, bold ? bold : "");
            add_plain(out, t + 4, (size_t)(e - t - 4));
            chx_buf_puts(out, plain ? plain : "");
            chx_buf_puts(out, "\n");
            first[0] = '\0';
            blank_before = 0;
        } else if (t == s && (m = item_marker(t, e)) > 0) {
            /* a new item: "  - " or "  1. " hangs the text after it */
            flush(out, &para, first, width);
            if (blank_before)
                chx_buf_puts(out, "\n");
            blank_before = 0;
            snprintf(first, sizeof first, "  %.*s", (int)m, t);
            add_plain(&para, t + m, (size_t)(e - t - m));
        } else {
            /* a paragraph's line, or an item's continuation */
            if (para.len) {
                chx_buf_add(&para, " ", 1);
            } else {
                if (blank_before)
                    chx_buf_puts(out, "\n");
                blank_before = 0;
                first[0] = '\0';
            }
            add_plain(&para, t, (size_t)(e - t));
        }
        s = next;
    }
    flush(out, &para, first, width);
}
