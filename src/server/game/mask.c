/* mask.c: what each seat may see of a move in the game log. The views come
 * from ch_view_to_json, which filters the state; the log needs the same care
 * for the moves themselves (RULINGS.md, "Hidden information"): another
 * player's sealed bid amount, the cards of a trade offer for anyone but its
 * parties, the card picked from the looked-at cards, the card drawn blind,
 * and in The Golden Age anyone's stock purchases and sales. Such an entry is
 * kept twice: in full for the seats allowed to see it, and masked (the verb
 * only) for everyone else, spectators included. The words are made once
 * where every reader reads the same (srv_log_texts), and the bytes of the
 * entry a frame wrote last are kept for the next frame that reads it alike
 * (srv_log_write): both on the event loop at every move.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game/game_impl.h"
#include "text.h"

/* A new serial for an entry that changes (any thread: games are also
 * loaded on the writer thread); never 0. */
static void new_serial(srv_log *e)
{
    static atomic_uint next;
    unsigned n;
    do
        n = atomic_fetch_add(&next, 1u) + 1u;
    while (n == 0);
    e->serial = n;
}

void srv_mask_move(const ch_state *before, int p, ch_move m, srv_log *e)
{
    new_serial(e);
    unsigned all = (1u << CH_MAX_PLAYERS) - 1;
    e->player = p;
    if (ch_move_str(before, m, e->full, sizeof e->full) <= 0)
        snprintf(e->full, sizeof e->full, "?");
    e->party = all;
    e->masked[0] = 0;
    unsigned self = 1u << p;
    int ga = before->edition == CH_ED_GOLDEN_AGE;
    switch (m.type) {
    case CH_M_BID:
        /* sealed (open auction bids are public); the bid that completes a
           round reveals every bid of it, its own included */
        if (before->phase == CH_PH_BID &&
            ((unsigned)before->bid_in | self) != (unsigned)before->bid_mask) {
            e->party = self;
            snprintf(e->masked, sizeof e->masked, "bid");
        }
        break;
    case CH_M_GIVE:
    case CH_M_ASK:
        if (m.b == 0) { /* a card: the offer's other side learns of asked
                           cards at once, of given ones from its view once
                           the offer is sent */
            e->party = self;
            if (m.type == CH_M_ASK && before->offer.to < CH_MAX_PLAYERS)
                e->party |= 1u << before->offer.to;
            snprintf(e->masked, sizeof e->masked, "%s card",
                     m.type == CH_M_GIVE ? "give" : "ask");
        } else if (m.b == 1 && ga) {
            e->party = self;
            if (before->offer.to < CH_MAX_PLAYERS)
                e->party |= 1u << before->offer.to;
            snprintf(e->masked, sizeof e->masked, "%s stock",
                     m.type == CH_M_GIVE ? "give" : "ask");
        }
        break;
    case CH_M_PICK:
        e->party = self;
        snprintf(e->masked, sizeof e->masked, "pick");
        break;
    case CH_M_DRAW:
        /* the notation names no card; kept private so that a description
           in words may name the card drawn for the drawer only */
        e->party = self;
        snprintf(e->masked, sizeof e->masked, "draw");
        break;
    case CH_M_BUY:
    case CH_M_SELL:
    case CH_M_LOSE:
        if (ga) {
            e->party = self;
            snprintf(e->masked, sizeof e->masked, "%s",
                     m.type == CH_M_BUY ? "buy" : m.type == CH_M_SELL ? "sell" : "lose");
        }
        break;
    default:
        break;
    }
}

void srv_log_free(srv_log *e)
{
    new_serial(e);
    free(e->words);
    e->words = NULL;
    for (int l = 0; l < 3; l++)
        for (int k = 0; k < 2; k++)
            e->text[l][k] = NULL;
}

/* The texts are written side by side into one buffer and kept in one block
 * (a strdup of each was six calls to malloc per move, and six to free).
 * Where every viewer reads the same words (chx_describe_viewer_matters: all
 * moves but blind draws, sealed bids, offered cards and picks from looked-at
 * cards) they are made once per language and both entries point at them:
 * half the calls to chx_describe_for, the loop's largest part of a move. */
void srv_log_texts(srv_log *e, const ch_state *before, int p, ch_move m,
                   const ch_state *after, const char *const *names, unsigned langmask)
{
    char all_texts[3][2][512];
    size_t len[3][2] = {{0}};
    char *buf;
    srv_log_free(e); /* a new serial */
    unsigned all = (1u << CH_MAX_PLAYERS) - 1;
    size_t total = 0;
    /* the words of most moves do not depend on who reads them: made once
       per language instead of twice (chx_describe_viewer_matters) */
    int same_words = !chx_describe_viewer_matters(before, p, m);
    int same[3] = {0};
    for (int l = 0; l < CHX_NLANGS && l < 3; l++) {
        if (!((langmask >> l) & 1u))
            continue;
        buf = all_texts[l][1];
        if (chx_describe_for(l, p, names, before, p, m, after, buf, sizeof all_texts[l][1]) >= 0 &&
            buf[0])
            total += (len[l][1] = strlen(buf) + 1);
        /* what the others read: the words for everyone where the catalogue
           knows how to leave the secret out (a blind draw, a sealed bid);
           for the other masked moves only the name and the verb */
        int public_words = e->party == all || m.type == CH_M_DRAW ||
                           (m.type == CH_M_BID && e->party != all);
        buf = all_texts[l][0];
        if (public_words && same_words) {
            /* the same words for everyone (most moves): kept once, [0]
               points at [1]'s (below) */
            same[l] = 1;
        } else if (public_words &&
            chx_describe_for(l, -1, names, before, p, m, after, buf, sizeof all_texts[l][0]) >= 0 &&
            buf[0])
            total += (len[l][0] = strlen(buf) + 1);
        else if (!public_words) {
            snprintf(buf, sizeof all_texts[l][0], "%s: %s",
                     names && names[p] && names[p][0] ? names[p] : "?", e->masked);
            total += (len[l][0] = strlen(buf) + 1);
        }
    }
    if (!total || !(e->words = malloc(total)))
        return;
    char *at = e->words;
    for (int l = 0; l < 3; l++)
        for (int k = 0; k < 2; k++)
            if (len[l][k]) {
                memcpy(at, all_texts[l][k], len[l][k]);
                e->text[l][k] = at;
                at += len[l][k];
            }
    for (int l = 0; l < 3; l++)
        if (same[l])
            e->text[l][0] = e->text[l][1];
}

void srv_log_write(chx_buf *b, const srv_log *e, int viewer, const char *lang)
{
    int full = viewer >= 0 && viewer < CH_MAX_PLAYERS && ((e->party >> viewer) & 1u);
    if (e->party == (1u << CH_MAX_PLAYERS) - 1)
        full = 1;
    const char *move = full ? e->full : e->masked;
    int l = chx_lang_find(lang);
    if (l < 0 || l >= 3)
        l = CHX_LANG_EN;
    /* the mover's own words (its drawn card, its bid) go to the mover only */
    int k = viewer == e->player || (full && e->party != (1u << CH_MAX_PLAYERS) - 1) ? 1 : 0;
    const char *text = e->text[l][k] ? e->text[l][k] : e->text[CHX_LANG_EN][k];
    if (!text)
        text = move;
    int hidden = !full && strcmp(e->masked, e->full) != 0;
    /* the frames of a decision are written one client after the other, and
       most read the new entry as the same bytes (the same move, words and
       mark): those of the last entry written are kept and copied instead of
       escaped again. Event loop thread only (and tests). */
    static struct {
        unsigned serial;
        const char *move, *text;
        int hidden;
        char *s;
        size_t len, cap;
    } last;
    if (e->serial && last.serial == e->serial && last.move == move && last.text == text &&
        last.hidden == hidden) {
        chx_buf_add(b, last.s, last.len);
        return;
    }
    size_t at = b->len;
    chx_buf_add(b, "{\"n\":", 5);
    chx_buf_int(b, e->n);
    chx_buf_add(b, ",\"player\":", 10);
    chx_buf_int(b, e->player);
    chx_buf_add(b, ",\"move\":", 8);
    chx_buf_json_str(b, move);
    chx_buf_add(b, ",\"text\":", 8);
    chx_buf_json_str(b, text);
    if (hidden)
        chx_buf_add(b, ",\"hidden\":true", 14);
    chx_buf_add(b, "}", 1);
    if (b->oom || !e->serial)
        return;
    size_t len = b->len - at;
    if (len > last.cap) {
        char *ns = realloc(last.s, len + 64);
        if (!ns) {
            last.serial = 0;
            return;
        }
        last.s = ns;
        last.cap = len + 64;
    }
    memcpy(last.s, b->s + at, len);
    last.len = len;
    last.serial = e->serial;
    last.move = move;
    last.text = text;
    last.hidden = hidden;
}
