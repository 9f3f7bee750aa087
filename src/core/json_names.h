/* json_names.h: the words and names shared by the JSON writer (json_write.c)
 * and reader (json.c) of states and views, so both sides spell every plot,
 * card, edition and flag the same way. Not public. */
#ifndef CH_JSON_NAMES_H
#define CH_JSON_NAMES_H

#include "chartered.h"

#include <stdint.h>

#define STATE_FORMAT "chartered-state"
#define VIEW_FORMAT "chartered-view"
#define FORMAT_VERSION 1

/* Names of plots and cards are at most "District label#id". */
#define JNAME_LEN (CH_NAME_LEN + CH_LABEL_LEN + 16)

extern const char *const json_edition_words[2];
#define N_EDITIONS 2

extern const char *const json_pflag_words[8];

/* Plot names ("Harbour C1") of the state's board, index by plot. */
typedef struct plot_names {
    char n[CH_MAX_PLOTS][JNAME_LEN];
    uint8_t len[CH_MAX_PLOTS]; /* strlen of each */
} plot_names;

/* Card names: ch_card_name's name, followed by "#id" when several cards of
 * the game share that name (the level cards "L2#97"), so every card has a
 * name of its own and ids survive a round trip. */
typedef struct card_names {
    char n[CH_MAX_CARDS][JNAME_LEN];
    uint8_t len[CH_MAX_CARDS]; /* strlen of each */
} card_names;

/* Fill the names of the first b->nplots plots (at most CH_MAX_PLOTS). */
void json_plot_names(const ch_board *b, plot_names *pn);
/* Fill the names of the first st->ncards cards (at most CH_MAX_CARDS). pn:
 * the names of st's board's plots (json_plot_names), or NULL. */
void json_card_names(const ch_state *st, const plot_names *pn, card_names *cn);

#endif
