/* text.h: the presentation helpers shared by every front end (src/cli, src/play,
 * src/arena, src/server): legal-move lists as text, and (as they are
 * added) the message catalogue and move descriptions in words. Everything
 * here goes through the public API of libchartered only; no rule lives here.
 * Names carry the prefix chx_.
 */
#ifndef CHARTERED_TEXT_H
#define CHARTERED_TEXT_H

#include <stdarg.h>
#include <stddef.h>

#include "chartered.h"

/* A growing text buffer: s is NUL-terminated (NULL until text is added);
 * oom is set, and text dropped, when memory runs out. Free s when done. */
typedef struct chx_buf {
    char *s;
    size_t len, cap;
    int oom;
} chx_buf;
void chx_buf_add(chx_buf *b, const char *t, size_t len);
void chx_buf_puts(chx_buf *b, const char *t);
/* Appends a copy of the buffer's own bytes [at, at + n) (within len): the
 * source stays valid when the buffer grows. */
void chx_buf_again(chx_buf *b, size_t at, size_t n);
/* A JSON string (quotes and RFC 8259 escapes; UTF-8 passes as it is), and a
 * JSON integer. */
void chx_buf_json_str(chx_buf *b, const char *s);
void chx_buf_int(chx_buf *b, long long v);
/* A member of a JSON object: lead (the text before the value, as
 * ",\"total\":") then the integer v. */
void chx_buf_member_int(chx_buf *b, const char *lead, long long v);

/* Every legal move of player p into a malloc'd *out (NULL when none).
 * Returns the count, or -1 when out of memory. */
int chx_legal_alloc(const ch_state *st, int p, ch_move **out);
/* chx_legal_alloc into small (cap moves, on the caller's stack) when they
 * fit, else into a malloc'd buffer: *out is small or that buffer (free it
 * when it is not small). The count, or -1 when out of memory. */
int chx_legal_into(const ch_state *st, int p, ch_move *small, int cap, ch_move **out);

/* The legal moves of player p as a malloc'd text of lines: each move in
 * notation on its own line, runs of 3 or more moves that differ only by a
 * trailing amount written "range PREFIX fLO fHI". *nlines receives the line
 * count. NULL when out of memory. */
char *chx_legal_lines(const ch_state *st, int p, int *nlines);

/* ---- the message catalogue (i18n.c) ---------------------------------------
 * data/i18n/en.json, nl.json, ja.json, built into the library: flat objects
 * key -> text with named placeholders ("{player} took {card}"). */
enum { CHX_LANG_EN = 0, CHX_LANG_NL, CHX_LANG_JA, CHX_NLANGS };
/* "en", "nl", "ja", also locale names ("nl_NL.UTF-8") and "dutch"; -1 when
 * unknown. */
int chx_lang_find(const char *name);
const char *chx_lang_code(int lang);
/* From LANGUAGE, LC_ALL, LC_MESSAGES, LANG; English when none is ours. */
int chx_lang_from_env(void);
/* The text of key in lang (English when that language lacks it; the key
 * itself when no language has it). Never NULL; lives as long as the program. */
const char *chx_msg(int lang, const char *key);
/* A plural entry of the catalogue is an object of CLDR plural categories
 * ({"one": "{n} card", "other": "{n} cards"}); chx_msg_n gives its form for
 * the count n (a plain text entry as it is), chx_msg the "other" form, and
 * chx_format picks the form by its argument "n". chx_plural_category: the
 * CLDR cardinal category of n in lang ("one" or "other"). */
const char *chx_msg_n(int lang, const char *key, long long n);
const char *chx_plural_category(int lang, long long n);
/* Replace "{name}" in tmpl by the values of args, a NULL-terminated list of
 * name, value pairs; unknown placeholders stay as written. UTF-8 safe cut. */
void chx_subst(const char *tmpl, const char *const *args, char *buf, size_t n);
/* chx_msg then chx_subst; the variable arguments are name, value (strings)
 * pairs ending with NULL. Returns the length written. */
int chx_format(int lang, char *buf, size_t n, const char *key, ...);
/* chx_format with the pairs in a va_list. */
int chx_vformat(int lang, char *buf, size_t n, const char *key, va_list ap);
/* A company's name in lang ("Thee"); "?" when out of range. */
const char *chx_company(int lang, const ch_state *st, int c);
/* A plot's or building card's name ("Harbour C1") with its district in lang
 * ("Haven C1", "港 C1"), from the catalogue's district.* entries; a name with
 * no known district (The Golden Age's lot numbers) as it is. */
void chx_place(int lang, const char *name, char *buf, size_t n);
/* 0 when every language has every key of every other and each text has the
 * same placeholders as its English; else -1 with the first problem in why. */
int chx_i18n_check(char *why, size_t n);
/* Number of keys of a language's catalogue (0 when it failed to load). */
int chx_i18n_count(int lang);
/* Columns a UTF-8 text takes on a terminal (East Asian wide characters 2,
 * ANSI escape sequences 0); chx_cut: bytes of s that fit in cols columns. */
size_t chx_width(const char *s);
size_t chx_width_n(const char *s, size_t len);
size_t chx_cut(const char *s, size_t cols);

/* text wrapped at width display columns between words (Japanese: between
 * characters), each line ending with '\n', appended to out (wrap.c). */
void chx_wrap(const char *text, int width, chx_buf *out);

/* ---- the library's reasons in words (reason.c) ------------------------------
 * A reason of the library (a refused move from ch_check/ch_apply, a move text
 * ch_move_parse did not understand; ch_msg in chartered.h) in lang, into
 * buf: the catalogue entry "why.<English format>" (its placeholders {1},
 * {2}, ... are the format's arguments in order, so a translation may reorder
 * them) filled with the recorded arguments; an argument that is a phrase of
 * the library ("why.arg.<phrase>") or a company name is translated too, the
 * player's own text and names typed in notation are not. English, a message
 * not recorded by the library, or one without a translation: why->text as
 * it is. Never longer than n - 1 bytes, cut on a UTF-8 boundary. Returns the
 * length written. */
int chx_reason(int lang, const ch_msg *why, char *buf, size_t n);

/* ---- moves in words (describe.c) -------------------------------------------
 * "Anke merged Tea into Porcelain: Porcelain f190, Anke paid f190": what
 * player p's move m did, from the state before and after it. chx_describe
 * says only what every player may know (no sealed bid amount before the
 * reveal, no drawn card, no hidden card in an offer); chx_describe_for adds
 * what viewer (0-based; -1 spectator) may also see, and takes the players'
 * names (NULL, or an entry NULL: "Player 2" in lang). */
int chx_describe(int lang, const ch_state *before, int p, ch_move m,
                 const ch_state *after, char *buf, size_t n);
int chx_describe_for(int lang, int viewer, const char *const *names,
                     const ch_state *before, int p, ch_move m,
                     const ch_state *after, char *buf, size_t n);
/* 1 when chx_describe_for of player p's move m may say something to some
 * viewer that it does not say to another (a blind draw, a sealed bid, a card
 * in an offer, a pick from the looked-at cards); 0 when every viewer reads
 * the same words, which the server then writes once (mask.c). */
int chx_describe_viewer_matters(const ch_state *before, int p, ch_move m);
/* A card's name in lang ("Harbour C1" keeps its district name; level cards
 * "L3"; Golden Age event cards translated). */
void chx_card(int lang, const ch_state *st, int card, char *buf, size_t n);

/* ---- notation in the player's language (notation.c) -------------------------
 * chx_move_text: move m in notation with its words, company and district
 * names in lang ("verkoop Buskruit", "bouw Haven C1"; English: ch_move_str's
 * text). Returns the length of the whole text (<= 0 when ch_move_str fails),
 * cut on a UTF-8 boundary to fit n. chx_move_english: a typed text in lang's
 * notation turned back into the library's English notation, phrase by phrase,
 * case ignored (what is not a phrase of lang is kept). chx_move_read: player
 * p's typed move, in English or in lang's notation, into *m; CH_OK, or the
 * library's code and reason (for the English reading when the text holds no
 * word of lang). */
int chx_move_text(int lang, const ch_state *st, ch_move m, char *buf, size_t n);
int chx_move_english(int lang, const ch_state *st, const char *text, char *buf, size_t n);
int chx_move_read(int lang, const ch_state *st, int p, const char *text, ch_move *m,
                  ch_msg *why);

/* ---- prices (prices.c) -------------------------------------------------------
 * A JSON object appended to b: each legal move of player p that moves p's own
 * money (draw, take, refresh, buy, sell, credit, merge, flag, action, found)
 * in notation -> the change of p's cash it makes (-50 for a purchase, +180
 * for a sale), found by applying it to a copy. Only what p can know counts:
 * in The Golden Age the copy's closed stack holds no event card, so an event
 * a purchase may turn up is not in its price. 0, or -1 out of memory. */
int chx_prices_json(const ch_state *st, int p, chx_buf *b);
/* The Golden Age: a JSON object appended to b: each legal "flag X" move of
 * player p -> what that flag would score at X's value now (the copy with the
 * flag bought, scored by ch_score_parts). 1 when written, 0 (nothing
 * written) when p may buy no flag or in Building Amsterdam, -1 out of
 * memory. */
int chx_flag_worth_json(const ch_state *st, int p, chx_buf *b);

/* ---- merger previews (previews.c) -----------------------------------------
 * In a merger's decision (credit, merge, sell or keep), a JSON object
 * appended to b: "now" -> the merger as it stands (merge, sell or keep), and
 * each of the builder's credit or merge moves in notation -> what it leads
 * to (ch_merger_preview for seat p: only what p may see). 1 when written, 0
 * (nothing written) outside a merger, -1 out of memory. docs/protocol.md. */
int chx_previews_json(const ch_state *st, int p, chx_buf *b);

/* ---- a game review's advice (review.c) ---------------------------------------
 * At a moment of a review (ch_review_decision): the bot's better move best
 * instead of the move played, gain the rise of the player's chance of
 * winning (0.12: "+12%"), in lang ("“buy Coal” here instead of “done”: +12%
 * to win"); when best is the move played or gain is not above 0, that the
 * bot plays the same. Returns the length, as chx_format. */
int chx_review_advice(int lang, const ch_state *st, ch_move best, ch_move played, double gain,
                      char *buf, size_t n);

/* ---- the end of a game (result.c) -------------------------------------------
 * The result object of docs/protocol.md ("The result") appended to b:
 * {"scores": [...], "winners": [...], "parts": [{cash, hand, fine, total,
 * rank, holdings: [{company, stocks, value, worth, flag}]}]}, every number
 * from ch_score_parts. 0, or -1 on a bad state or when out of memory. */
int chx_result_json(const ch_state *st, chx_buf *b);

/* ---- the rules of each edition (rules.c) ------------------------------------
 * data/rules/<edition>.<lang>.md, built into the library: the rules in the
 * project's words, in sections "## Title {#id}" (data/rules/README.md).
 * chx_rules_load: the sections of an edition (CH_ED_*) in lang, pointing into
 * the built-in text; 0, or -1 with the reason in why. chx_rules_cite: the id
 * of the section that explains a decision (a phase, CH_PH_*) of an edition,
 * from data/rules/cites.txt, into id; 0, or -1 when it cites none.
 * chx_rules_find: a section by its number in the contents (1-based), its id,
 * or words of its title (ASCII case ignored); its index, or -1.
 * chx_rules_render: a section's body as terminal text wrapped at width, the
 * emphasis marks removed, subheadings between bold and plain (NULL: none).
 * chx_rules_edition_word: "amsterdam", "golden-age" (the file names). */
#define CHX_RULES_MAX 32
typedef struct chx_rules_section {
    char id[32];
    const char *title, *body;
    size_t title_len, body_len;
} chx_rules_section;
typedef struct chx_rules {
    const char *title;
    size_t title_len;
    int n;
    chx_rules_section s[CHX_RULES_MAX];
} chx_rules;
int chx_rules_load(int edition, int lang, chx_rules *r, char *why, size_t n);
int chx_rules_cite(int edition, int phase, char *id, size_t n);
int chx_rules_find(const chx_rules *r, const char *what);
void chx_rules_render(const char *md, size_t len, int width, const char *bold,
                      const char *plain, chx_buf *out);
const char *chx_rules_edition_word(int edition);

#endif
