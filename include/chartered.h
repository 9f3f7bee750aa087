/* chartered.h: the one public header of libchartered, the rules engine of
 * Chartered: Building Amsterdam (and, beside it, later editions).
 *
 * Shape (see docs/formats.md and docs/rules.md):
 *   - ch_state is a fixed-size plain struct with no pointers: a copy is a memcpy.
 *   - ch_legal fills a caller-owned buffer; nothing allocates while generating,
 *     applying or playing out (only the JSON functions allocate).
 *   - Every decision is explicit: ch_decider says who decides now (one player,
 *     several players at once for sealed bids, or nobody because the game is over)
 *     and ch_legal lists every legal choice of a given player.
 *   - A game is reproducible from its setup (seed included) and its move list:
 *     shuffles draw from the RNG held inside the state.
 *   - Functions return status codes (CH_OK == 0); ch_strerror names a code, and a
 *     ch_msg filled by the call says in words what was wrong. The library never
 *     exits or aborts on input.
 */
#ifndef CHARTERED_H
#define CHARTERED_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CH_VERSION "0.1.0"

/* ---- limits (fixed sizes of the state) ---------------------------------- */
#define CH_MAX_PLAYERS 6
#define CH_MAX_PLOTS 128     /* plots (lots) on the whole arranged board */
#define CH_MAX_CARDS 128     /* building cards: BA 96 plots + 18 levels */
#define CH_MAX_COMPANIES 9
#define CH_MAX_NEIGH 6       /* neighbours of one plot (orthogonal + bridges) */
#define CH_MAX_DISTRICTS 8   /* district boards in one arrangement */
#define CH_NAME_LEN 16
#define CH_LABEL_LEN 4       /* "C1", "60" */
#define CH_MARKET_MAX 5
#define CH_RESERVE_MAX 4
#define CH_EVENT_CARDS 15
#define CH_EVENT_OPEN_MAX 3
#define CH_NONE 0xFF         /* "no plot / no card / no company / no player" */

/* ---- status codes ------------------------------------------------------- */
enum {
    CH_OK = 0,
    CH_EINVAL,   /* an argument is out of range (player count, seat, buffer) */
    CH_ESYNTAX,  /* a move text could not be read */
    CH_EILLEGAL, /* a well-formed move that the rules do not allow now */
    CH_ETURN,    /* it is not that player's decision */
    CH_EOVER,    /* the game is over */
    CH_EFORMAT,  /* a board, arrangement, position or variant text is malformed */
    CH_EJSON,    /* a JSON document is malformed or inconsistent */
    CH_ENOMEM,   /* allocation failed (JSON only) */
    CH_EINVARIANT, /* a state check failed */
    CH_NCODES
};
const char *ch_strerror(int code);

/* A message that says what was wrong and why ("Harbour C1 is not in your hand").
 * text is the message in English, fully formatted. The other members record
 * the same message for front ends that translate it (chx_reason in
 * src/text): fmt is the English printf format text was written from (a
 * string literal of the library, the key of its translations; NULL when text
 * was not written from one), args its nargs arguments already turned into
 * text, in order ("%.*s" is one argument; cut at CH_MSG_ARGLEN - 1 bytes on
 * a UTF-8 boundary), and seal ties them to this text: a text written or
 * changed by other code no longer matches, and is then shown as it is
 * (ch_msg_recorded). It is a union whose first member is text, so that the
 * initializers written for the text alone ({{0}}, {"..."}) stay complete. */
#define CH_MSG_NARGS 6     /* arguments recorded for translation             */
#define CH_MSG_ARGLEN 64   /* bytes per recorded argument, NUL included      */
typedef union ch_msg {
    char text[256];
    struct {
        char text_space_[256]; /* text: the record follows it */
        const char *fmt;
        int nargs;
        char args[CH_MSG_NARGS][CH_MSG_ARGLEN];
        uint32_t seal;
    };
} ch_msg;
/* 1 when m's fmt and args were recorded by the library for its text (and
 * may be used to translate it), else 0. */
int ch_msg_recorded(const ch_msg *m);

/* ---- editions ----------------------------------------------------------- */
enum { CH_ED_AMSTERDAM = 0, CH_ED_GOLDEN_AGE = 1 };

/* ---- the board: topology and names, filled from board/arrangement files -- */
typedef struct ch_board {
    char name[32];                        /* arrangement name, e.g. "standard" */
    uint8_t nplots, ndistricts;
    char district[CH_MAX_DISTRICTS][CH_NAME_LEN]; /* "Harbour", "Canal Ring" */
    uint8_t plot_district[CH_MAX_PLOTS];
    char plot_label[CH_MAX_PLOTS][CH_LABEL_LEN];  /* "C1" */
    int8_t gx[CH_MAX_PLOTS], gy[CH_MAX_PLOTS];    /* drawing position (cells) */
    uint8_t deg[CH_MAX_PLOTS];
    uint8_t adj[CH_MAX_PLOTS][CH_MAX_NEIGH];      /* neighbours, sorted */
    uint8_t bridge[CH_MAX_PLOTS];  /* bit i: edge to adj[i] crosses a bridge */
    uint64_t nbmask[CH_MAX_PLOTS][2]; /* neighbours as a bitset, derived from adj
                                         (filled by ch_board_parse and ch_new) */
} ch_board;

/* Resolves a board name used in an arrangement to that board's text.
 * Returns NULL when unknown. *file receives a name used in error messages. */
typedef const char *(*ch_board_resolver)(void *ctx, const char *board_name,
                                         const char **file);

/* Parse an arrangement text (which names boards) into *out. file names the
 * arrangement in messages. On error returns CH_EFORMAT with "file:line: reason". */
int ch_board_parse(ch_board *out, const char *arr_text, const char *arr_file,
                   ch_board_resolver resolve, void *ctx, ch_msg *err);
/* The arrangements built into the library from data/ (no files needed). */
int ch_board_builtin(ch_board *out, int edition, const char *arrangement,
                     ch_msg *err);
/* Names of built-in arrangements of an edition, NULL-terminated. */
const char *const *ch_board_builtin_names(int edition);
/* The built-in text of a board or arrangement file ("boards/harbour.board"). */
const char *ch_builtin_text(const char *path);
/* Plot index of "Harbour C1" (district then label; case-insensitive), or -1. */
int ch_board_find(const ch_board *b, const char *text, int *consumed);
/* "Harbour C1" */
int ch_plot_name(const ch_board *b, int plot, char *buf, size_t n);

/* ---- setup --------------------------------------------------------------- */
/* The prices a game charges (docs/variants.md, "price"): the rulebook's
 * unless a variant sets them. Building Amsterdam: a purchase f50, a refresh
 * f100, an action card f100, stocks at least f50 (R-11, R-28, "Action
 * cards"); The Golden Age: a purchase f50, a refresh f50, stocks at least
 * f50, the first flag f200 and the second f400 (G-21, "Flags"). */
typedef struct ch_prices {
    int16_t purchase;     /* up to two cards bought in a purchase              */
    int16_t refresh;      /* a new market before a purchase                    */
    int16_t action;       /* Building Amsterdam: using an action card          */
    int16_t stock_min;    /* a stock costs its value, at least this            */
    int16_t flag[2];      /* The Golden Age: the first flag, the second        */
} ch_prices;
#define CH_PRICE_MAX 10000
/* The rulebook's prices of an edition. */
void ch_prices_rulebook(int edition, ch_prices *out);

typedef struct ch_setup {
    int edition;          /* CH_ED_* */
    int nplayers;         /* 2..5 for Building Amsterdam */
    uint64_t seed;        /* shuffles, starting player */
    int preset;           /* Golden Age: CH_GA_PRINTED (default) or CH_GA_FIRST */
    int events;           /* Golden Age: shuffle the event cards in (0 or 1) */
    /* Variant settings (docs/variants.md; a variant file sets them with
     * ch_variant_apply). 0 keeps the rulebook's value for the edition,
     * preset and player count; ch_new refuses a value beyond the state's
     * fixed bounds with CH_EINVAL and the reason. */
    int32_t cash[CH_MAX_PLAYERS];     /* starting money of each seat, f1 to
                                         CH_VARIANT_CASH_MAX               */
    int32_t cash_add[CH_MAX_PLAYERS]; /* added to each seat's starting money
                                         (the rulebook's or cash[]), +-     */
    int hand;             /* cards dealt to each player at the start          */
    int hand_limit;       /* Building Amsterdam's hand limit (15); at least hand,
                             at most CH_MAX_CARDS - 1                         */
    int open;             /* open cards (the market), 1 to CH_MARKET_MAX       */
    int warehouses;       /* the warehouse supply, 2 to 255; the game ends when
                             the last one is placed (R-49, G-27)              */
    int no_stock_events;  /* Building Amsterdam: 1 plays without the 15 stock
                             event cards (a chart line then does nothing)     */
    ch_prices prices;     /* each price f1 to CH_PRICE_MAX; 0 keeps the
                             rulebook's                                       */
    int end_turns;        /* the game also ends after this turn (1 to 65535;
                             0: no such end)                                  */
    int end_value;        /* ... or after the turn in which a company reaches
                             this value (within the edition's chart; 0: no)  */
} ch_setup;
#define CH_VARIANT_CASH_MAX 100000
void ch_setup_default(ch_setup *s, int edition);
/* Golden Age presets: the printed rulebook (seed 003) and the first rules (002). */
enum { CH_GA_PRINTED = 0, CH_GA_FIRST = 1 };
/* The board side a Golden Age game is played on: "harbour" or "centre". */
const char *ch_ga_side(int preset, int nplayers);

/* ---- variants (docs/variants.md) ---------------------------------------------
 * A variant file sets up a game unlike the rulebook's: one setting a line
 * ("cash 1 +f100", "hand 7", "events off", "warehouses 40"). ch_variant_parse
 * reads its text (no I/O: the caller reads the file, and reads the
 * arrangement file the variant names, relative to the variant's folder).
 * Unset settings keep what the command or the rulebook chooses. */
#define CH_VARIANT_NAME_LEN 32
#define CH_VARIANT_PATH_LEN 256
typedef struct ch_variant {
    char name[CH_VARIANT_NAME_LEN];   /* from the "variant NAME" line         */
    int edition;          /* CH_ED_*, or -1 when the file does not say         */
    int nplayers;         /* 2..6, or 0                                        */
    int preset;           /* CH_GA_*, or -1                                    */
    int events;           /* 1 on, 0 off, -1 not said                          */
    char arrangement[CH_VARIANT_PATH_LEN]; /* a built-in arrangement's name or
                             a file's path as written, "" when not said        */
    int arrangement_line; /* its line, for messages                            */
    int32_t cash_all, cash_add_all;          /* every seat (0: not said)       */
    int32_t cash[CH_MAX_PLAYERS], cash_add[CH_MAX_PLAYERS]; /* one seat each   */
    int cash_line;        /* the first cash line, for messages                 */
    int hand, hand_limit, open, warehouses; /* 0: not said                     */
    ch_prices prices;     /* 0: not said                                       */
    int prices_line;      /* the first price line, for messages                */
    int end_turns, end_value; /* 0: not said                                   */
} ch_variant;
/* Read a variant text into *out. file names the text in messages. On error
 * returns CH_EFORMAT with "file:line: reason" in err and leaves *out
 * unchanged. */
int ch_variant_parse(ch_variant *out, const char *text, size_t len, const char *file,
                     ch_msg *err);
/* Put the variant's settings into *setup (edition, players, preset and
 * events where it says them; the money, hand, limit, open cards, supply),
 * checked against the edition and the player count with ch_new's reasons:
 * CH_EINVAL and err when the game it asks for cannot be set up (no state is
 * made; the board is checked by ch_new). *setup is unchanged on error. */
int ch_variant_apply(const ch_variant *v, ch_setup *setup, ch_msg *err);

/* ---- moves ---------------------------------------------------------------- */
typedef enum ch_move_type {
    CH_M_NONE = 0,
    CH_M_DRAW,     /* purchase: the top card of the deck                       */
    CH_M_TAKE,     /* purchase: market card a                                   */
    CH_M_REFRESH,  /* purchase: pay f100, new market                            */
    CH_M_DONE,     /* end the current sub-phase (purchase, trading, selling,
                      trade offers)                                             */
    CH_M_PLAY,     /* build: card a on plot b; c = second card (two-card
                      founding) or CH_NONE; n&1 = put a broken roof on it       */
    CH_M_PASS,     /* turn option 3 selling nothing; auction: drop out          */
    CH_M_SELL,     /* sell n stocks of company a (n = 1 except merger sales,
                      where 0 means keep)                                        */
    CH_M_BUY,      /* buy one stock of company a from the bank                 */
    CH_M_HQ,       /* diagonal founding: HQ placeholder on plot a              */
    CH_M_LONE,     /* diagonal founding declined: the warehouse stays lone     */
    CH_M_FOUND,    /* found company a                                          */
    CH_M_CREDIT,   /* merger: the new warehouse's value goes to company a      */
    CH_M_MERGE,    /* merger: company b absorbs company a                       */
    CH_M_ACTION,   /* action card: a = 0 broken roof, 1 stock event            */
    CH_M_EVENT,    /* choose a stock event: a = kind of an open card, or
                      CH_NONE for the top of the event deck                     */
    CH_M_BID,      /* sealed bid or auction bid of n florins                   */
    CH_M_LOSE,     /* Dreighinghe: lose one stock of company a                 */
    CH_M_OFFER,    /* Coopmanscappen: start an offer to player a               */
    CH_M_GIVE,     /* offer item given: b = 0 card a, 1 stock of a, 2 n florins */
    CH_M_ASK,      /* offer item asked: same fields                             */
    CH_M_PROPOSE,  /* send the offer                                           */
    CH_M_WITHDRAW, /* drop the offer being built                               */
    CH_M_ACCEPT,
    CH_M_DECLINE,
    CH_M_AUCTION,  /* Veilinge option b (1..4); a = company for options 1, 2   */
    CH_M_PICK,     /* Veilinge 3/4: take card a                                */
    CH_M_FREE,     /* Golden Age founding: the free warehouses on plots a, b   */
    CH_M_FLAG,     /* Golden Age: buy a flag for company a                     */
    CH_M_NTYPES
} ch_move_type;

typedef struct ch_move {
    uint8_t type, a, b, c;
    int32_t n;
} ch_move;

/* ---- decisions ------------------------------------------------------------ */
typedef enum ch_decider_kind {
    CH_DEC_PLAYER = 0,       /* exactly one player decides                     */
    CH_DEC_SIMULTANEOUS = 1, /* several players each submit privately (bids)   */
    CH_DEC_TERMINAL = 2      /* game over                                     */
} ch_decider_kind;

/* Phases of the turn (ch_state.phase). */
enum {
    CH_PH_TURN = 0,    /* choose turn option 1, 2 or 3                        */
    CH_PH_PURCHASE,    /* take cards of a paid purchase                        */
    CH_PH_HQ,          /* diagonal founding: choose the HQ placeholder plot    */
    CH_PH_FOUND,       /* choose the company to found                          */
    CH_PH_CREDIT,      /* merger: which company gets the new warehouse         */
    CH_PH_MERGE,       /* merger: choose the next pair (ties)                  */
    CH_PH_MERGE_SELL,  /* merger: a player sells or keeps absorbed stocks      */
    CH_PH_TRADE,       /* after building: trade, action card, or done          */
    CH_PH_SELL,        /* turn option 3 in progress                            */
    CH_PH_EVENT,       /* choose a stock event (open card or deck)             */
    CH_PH_BID,         /* sealed bids (simultaneous)                           */
    CH_PH_LOSE,        /* Dreighinghe: the loser gives up stocks               */
    CH_PH_COOP,        /* Coopmanscappen: offer to someone or end              */
    CH_PH_OFFER,       /* Coopmanscappen: build the offer                      */
    CH_PH_RESPOND,     /* Coopmanscappen: the other player answers             */
    CH_PH_VEILINGE,    /* Veilinge: choose the auction option                  */
    CH_PH_AUCTION,     /* Veilinge: open bidding                               */
    CH_PH_PICK,        /* Veilinge 3/4: the winner picks a card                */
    CH_PH_OVER,
    CH_PH_FREE,        /* Golden Age founding: choose the two free lots         */
    CH_PH_FORCED,      /* Golden Age forced option: sell, then purchase         */
    CH_PH_EVSELL,      /* Golden Age stock-sale event: a player sells           */
    CH_PH_COUNT
};

/* Stock event kinds (Building Amsterdam). */
enum { CH_EV_VERLAPPEN = 0, CH_EV_AENLEGGEN, CH_EV_DREIGHINGHE,
       CH_EV_COOPMANSCAPPEN, CH_EV_VEILINGE, CH_EV_KINDS };

/* Golden Age event cards (RULINGS.md "Events"): money +-f50 for every player,
 * all enterprises +-f30, stock sales of 1 or 2, and three named enterprises
 * +-f30 (triples: Gold Coffee Pepper, Gems Opium Silver, Tea Silk Gunpowder). */
enum { CH_GE_MONEY_UP = 0, CH_GE_MONEY_DOWN, CH_GE_ALL_UP, CH_GE_ALL_DOWN, CH_GE_SELL1,
       CH_GE_SELL2, CH_GE_THREE_UP_1, CH_GE_THREE_UP_2, CH_GE_THREE_UP_3, CH_GE_THREE_DOWN_1,
       CH_GE_THREE_DOWN_2, CH_GE_THREE_DOWN_3, CH_GE_KINDS };

/* Card locations (ch_state.loc). */
enum { CH_LOC_DECK = 0, CH_LOC_MARKET, CH_LOC_DISCARD, CH_LOC_RESERVE,
       CH_LOC_LOOK, /* Veilinge 3: the ten cards being looked at */
       CH_LOC_UNUSED, /* not part of this game's card set */
       CH_LOC_HAND = 8 /* + player */ };

/* Plot flags (ch_state.pflags). */
enum {
    CH_PF_HQ = 1,        /* the owner's HQ piece stands here                    */
    CH_PF_UPSIDE = 2,    /* an upside-down warehouse placeholder (no value)     */
    CH_PF_ROOF = 4,      /* a broken roof lies on this stack                     */
    CH_PF_NOPIECE = 8,   /* with UPSIDE: supply was empty, no piece was taken    */
    CH_PF_FREE = 16      /* Golden Age: a free warehouse of a founding           */
};

/* ---- the state ------------------------------------------------------------ */
typedef struct ch_player {
    int32_t cash;
    uint8_t stock[CH_MAX_COMPANIES];
    uint8_t actions;        /* action cards left (2 at the start)               */
    uint8_t roofs;          /* broken roofs held                                */
    uint8_t extra_pending;  /* Verlappen won: an extra turn after the next turn */
    uint8_t extra_armed;    /* this turn is "the next turn": extra turn follows */
    uint8_t hidden_levels;  /* how many hidden hand cards may be level cards
                               (public bookkeeping for determinize)            */
    uint8_t flags;          /* Golden Age: flags left (reserved)                */
    uint8_t reserve_took;   /* private: level cards this player took from the
                               level reserve (Aenleggen): bits 0-1 count the
                               second levels, bit 2 a third, bit 3 a fourth     */
    uint64_t hand[2];       /* bitset of card ids in hand                       */
    uint64_t known[2];      /* hand cards every player knows of (from the
                               market, trades, the discard pile)                */
} ch_player;

typedef struct ch_company {
    int16_t value;          /* chart value in florins; 0 when off the chart    */
    uint8_t on_chart;
    uint8_t hq;             /* plot of the HQ piece, CH_NONE when in the box   */
    uint8_t bank;           /* stock cards in the bank                          */
    uint8_t flag;           /* Golden Age: 1 + the player whose flag is on it    */
    uint8_t pad[2];
} ch_company;

typedef struct ch_offer {   /* Coopmanscappen offer being built or answered   */
    uint8_t to;
    uint8_t give_stock[CH_MAX_COMPANIES], ask_stock[CH_MAX_COMPANIES];
    int32_t give_money, ask_money;
    uint64_t give_cards[2], ask_cards[2];
} ch_offer;

typedef struct ch_state {
    /* game definition */
    uint32_t magic;             /* CH_STATE_MAGIC                              */
    uint8_t edition, nplayers, ncompanies, ncards;
    uint8_t market_size, nevent_open, max_hand, first_player;
    uint64_t seed;
    int32_t total_money;        /* cash ever given to players at setup        */
    uint8_t warehouses_total;   /* 62                                          */
    uint8_t roofs_total;        /* 10                                           */
    ch_prices prices;           /* the rulebook's, or a variant's               */
    uint16_t end_turns;         /* a variant's last turn (0: none)              */
    int16_t end_value;          /* a variant's ending company value (0: none)   */
    uint8_t card_plot[CH_MAX_CARDS];  /* plot of a plot card, CH_NONE for levels */
    uint8_t card_level[CH_MAX_CARDS]; /* 2..5 for level cards, 0 for plots      */
    uint8_t card_event[CH_MAX_CARDS]; /* Golden Age: 1 + event kind, 0 otherwise */
    uint8_t preset, events_on;        /* Golden Age setup                       */
    uint8_t plot_card[CH_MAX_PLOTS];  /* card of a plot                          */
    uint16_t board_id;  /* the board, in the library's shared read-only table of
                           boards (ch_state_board): the topology is not copied
                           with the state. Built-in arrangements have the same
                           id in every process; JSON and positions carry the
                           board itself, never this number */

    /* the table */
    uint8_t height[CH_MAX_PLOTS];  /* warehouses stacked on the plot            */
    uint8_t owner[CH_MAX_PLOTS];   /* company owning the piece(s), CH_NONE      */
    uint8_t pflags[CH_MAX_PLOTS];  /* CH_PF_*                                    */
    uint8_t supply;                /* warehouses not on the board               */
    uint8_t roofs_left;
    ch_company co[CH_MAX_COMPANIES];
    ch_player pl[CH_MAX_PLAYERS];
    int64_t bank_net;              /* paid to the bank minus paid by the bank  */

    /* cards */
    uint8_t loc[CH_MAX_CARDS];     /* CH_LOC_*                                  */
    uint8_t deck[CH_MAX_CARDS];    /* draw pile, top at deck[ndeck-1]           */
    uint8_t ndeck;
    uint8_t market[CH_MARKET_MAX]; /* CH_NONE for an empty slot                 */
    uint8_t reserve[CH_RESERVE_MAX]; /* level reserve, top at [nreserve-1]     */
    uint8_t nreserve;
    uint8_t discard[CH_MAX_CARDS]; /* discard pile, top at [ndiscard-1]         */
    uint8_t ndiscard;
    uint8_t look[10], nlook;       /* Veilinge 3: cards being looked at         */

    /* stock events */
    uint8_t ev_deck[CH_EVENT_CARDS], nev_deck;   /* top at [nev_deck-1]         */
    uint8_t ev_open[CH_EVENT_OPEN_MAX];          /* CH_NONE: empty slot        */
    uint8_t ev_discard[CH_EVENT_CARDS], nev_discard;

    /* turn */
    uint8_t phase;             /* CH_PH_*                                       */
    uint8_t active;            /* whose turn it is                              */
    uint8_t actor;             /* who decides now (single-decider phases)       */
    uint8_t over;
    uint8_t end_triggered;     /* the last warehouse has been placed            */
    uint8_t passes;            /* players who passed since the last turn that
                                  was not a pass (stall rule, R-51)             */
    uint8_t event_due;         /* an event line was passed this turn            */
    uint8_t founded;           /* company founded this turn, CH_NONE            */
    uint8_t discount_left;     /* founder's discount buys left                  */
    uint8_t trades;            /* transactions made in this trading phase       */
    uint8_t taken;             /* cards taken in this purchase                  */
    uint8_t built;             /* this turn built (for "pass" bookkeeping)      */
    uint8_t extra_turn;        /* the current turn is a Verlappen extra turn    */
    uint8_t passed;            /* this turn was a pass (stall rule)             */
    uint8_t ev_slot;           /* open slot of the event being resolved, or
                                  CH_NONE when it came from the event deck     */
    uint8_t bid_round;         /* 0 = first sealed round, 1+ = rebids           */
    uint8_t ga_dest;           /* Golden Age: who gets the card after an event:
                                  0x80 | player (a purchase), or an open slot   */
    uint8_t ga_seller;         /* Golden Age stock-sale event: the first seller */
    uint8_t ga_built;          /* Golden Age: the company built on this turn    */
    uint16_t turn_no;
    uint32_t ndecisions;

    /* The board as bitsets over plots, kept up to date by every move that
       moves a piece (both editions; a pure function of height, owner and
       pflags, so replays and JSON loads agree byte for byte): piece = plots
       holding a piece, lone = those holding lone warehouses, zone = the plots
       closer than the edition's spacing to a company piece (R-17, G-11),
       near = the plots with a company piece among their neighbours.
       Move generation reads them instead of scanning the board; debug builds
       recompute them after every decision (ch_validate). Code that edits the
       board by hand must bring them up to date (board_sync in src/core). */
    uint64_t piece[2], lone[2], zone[2], near[2];

    /* build context */
    uint8_t b_card, b_card2, b_plot, b_plot2, b_roof, b_hq;
    uint16_t m_set;            /* merger: companies still to merge (bitmask)   */
    uint8_t m_absorbed, m_absorber; /* merger pair in progress                 */
    uint8_t m_seller;          /* merger sales: player deciding now             */
    uint8_t m_sold_left;       /* players still to decide in this sale round    */

    /* event context */
    uint8_t ev_kind;           /* event being resolved                           */
    uint8_t ev_from_action;    /* 1: activated by an action card mid-turn       */
    uint8_t bid_mask;          /* players bidding in this round                 */
    uint8_t bid_in;            /* players whose sealed bid is in                */
    uint8_t bid_revealed;      /* last round's bids are public                  */
    int32_t bid[CH_MAX_PLAYERS];
    uint8_t lose_left;         /* Dreighinghe: stocks still to lose             */
    uint8_t offers;            /* Coopmanscappen: offers made                   */
    ch_offer offer;
    /* Coopmanscappen: what the offer being built may ask for, worked out when
       it starts (hands, known cards and the public piles do not change while
       it is built): the askable plot cards, and the card naming each level
       with an askable card (CH_NONE: none). A pure function of the state,
       valid when offer_cached is 1 (only in the offer phase; 0 in a state
       built by hand, which then works it out at every decision). Debug
       builds compare it with a fresh computation (ch_validate). */
    uint64_t offer_ask[2];
    uint8_t offer_lvl[3], offer_cached;
    uint8_t au_option, au_item, au_high_bidder, au_turn, au_out;
    int32_t au_high;           /* Veilinge: the highest bid; sealed rebids: the
                                  tied amount a rebid must beat          */

    uint64_t rng[4];           /* xoshiro256** state                            */
} ch_state;

#define CH_STATE_MAGIC 0x43484131u /* "CHA1" */

/* The board st is played on: an entry of the library's shared table of
 * boards, read-only and alive until the process ends (never NULL; the empty
 * board, with 0 plots, for a zeroed state). Safe from any thread. */
const ch_board *ch_state_board(const ch_state *st);
/* Put st on board b (added to the shared table when new: at most 511
 * different boards per process) and recompute the board caches. For tools
 * and tests that build states by hand; ch_new and the loaders do it. */
int ch_state_set_board(ch_state *st, const ch_board *b, ch_msg *err);

/* ---- life cycle ------------------------------------------------------------- */
/* Start a game on a board. Deals from the seed; the starting player is drawn. */
int ch_new(ch_state *st, const ch_setup *setup, const ch_board *board, ch_msg *err);

/* Who decides now. *mask receives the bitmask of players who must decide. */
ch_decider_kind ch_decider(const ch_state *st, unsigned *mask);

/* Every legal move of player p now, written into buf (at most cap of them).
 * Returns the total number of legal moves (which may exceed cap, like
 * snprintf); 0 when p has no decision to make. */
int ch_legal(const ch_state *st, int p, ch_move *buf, int cap);

/* The lowest sealed bid player p may make now: 0, or in a rebid after a tie
 * (bid_round > 0) one more than the tied amount while p's cash reaches it
 * (docs/rules.md, Ruling R-36). 0 outside sealed bids. */
int32_t ch_bid_min(const ch_state *st, int p);

/* Would move m by player p be legal? CH_OK, or a code and the reason in *why. */
int ch_check(const ch_state *st, int p, ch_move m, ch_msg *why);

/* Apply a move. Illegal moves are rejected with the reason; the state is then
 * left unchanged. */
int ch_apply(ch_state *st, int p, ch_move m, ch_msg *why);

/* Apply a move known to be legal (from ch_legal): no checking, for playouts. */
void ch_apply_fast(ch_state *st, int p, ch_move m);

/* Full consistency check: money, warehouses, stocks, values, connectivity. */
int ch_validate(const ch_state *st, ch_msg *why);

/* Final scores (cash + stocks at value) and the winners' bitmask (ties on
 * money broken by fewest building cards, then shared). */
int ch_scores(const ch_state *st, int32_t *scores, unsigned *winners);
/* The final score of each player in parts: cash, the worth of each company's
 * stocks (0 off the chart), The Golden Age's flags (four stocks each) and
 * fine (f20 per card in hand), the total (as ch_scores) and the rank (1 =
 * winner; tied players share a rank). For end-of-game screens. */
typedef struct ch_score_part {
    int32_t cash, total, fine;
    int32_t stocks[CH_MAX_COMPANIES], flags[CH_MAX_COMPANIES];
    int hand, rank;
} ch_score_part;
int ch_score_parts(const ch_state *st, ch_score_part parts[CH_MAX_PLAYERS]);

/* ---- what a merger will do (src/core/merger.c; docs/protocol.md "previews")
 * For the dialogs that decide a merger (issue 31): the merger a credit or
 * merge choice starts (m, one of the builder's legal moves in the credit or
 * merge decision), or the merger as it stands (m NULL, while its stocks are
 * sold or kept or a pair is chosen), worked out by the engine's own rules
 * as seat p (-1: a spectator) may see it: in The Golden Age the others'
 * holdings are -1 (hidden), so the preview is the same for every re-deal of
 * ch_determinize(st, p, ...). Sales and keeps change no value, so the walk
 * goes on until the builder must choose the next pair (a tie, or The Golden
 * Age's choice in a merger of three or more: `choose`). */
typedef struct ch_merge_step {
    int8_t absorbed, absorber;       /* companies: the second absorbs the first  */
    int16_t absorbed_value;          /* what each of its stocks sells for; a flag
                                        sells as four (The Golden Age)           */
    int16_t absorber_value;          /* the absorber's value before the pair      */
    int16_t value_after;             /* the survivor's value after it (capped)    */
    int8_t flag;                     /* the seat holding the absorbed one's flag,
                                        -1 none (The Golden Age)                  */
    int32_t flag_sale;               /* what that flag is sold for (0: none)      */
    int8_t stocks[CH_MAX_PLAYERS];   /* each seat's stocks of the absorbed one,
                                        -1 where p may not see them              */
} ch_merge_step;
typedef struct ch_merger_plan {
    int credited;          /* the company credited by m, else -1                  */
    int credited_from, credited_value; /* its value before and with the warehouse */
    int nsteps;            /* pairs known before any choice, in order             */
    ch_merge_step step[CH_MAX_COMPANIES];
    unsigned choose;       /* companies among which the builder then picks the
                              next pair (0: none, the walk reached the survivor) */
    int npairs;            /* the pairs the builder then picks from: */
    int8_t pair_absorbed[CH_MAX_NEIGH * (CH_MAX_NEIGH - 1)], pair_absorber[CH_MAX_NEIGH * (CH_MAX_NEIGH - 1)];
    int survivor;          /* the last company standing, -1 while choose is set  */
    int survivor_flag;     /* the seat holding the survivor's flag, -1 none       */
    int survivor_flag_worth; /* what that flag scores at final_value (0: none)    */
    int final_value;       /* the survivor's final value (whatever the choices)   */
    int builder;           /* who is paid final_value, once, when the last pair is
                              done (Rulebook "C. Merging" step 8; R-24; G-15)      */
    int sold_at_once;      /* 1: The Golden Age sells every absorbed stock and flag
                              to the bank at once; 0: each holder sells or keeps  */
} ch_merger_plan;
/* CH_OK, or CH_EINVAL (not a merger's decision, m not a legal credit or
 * merge move, bad seat; *out unchanged) or CH_ENOMEM. */
int ch_merger_preview(const ch_state *st, int p, const ch_move *m, ch_merger_plan *out);

/* Re-deal what player p cannot see (other hands' hidden cards, deck order,
 * level reserve, other players' unrevealed bids) consistently with p's view. */
void ch_determinize(ch_state *st, int p, uint64_t seed);
/* What every player sees of the top card of the closed stack: 1 an event
 * card, 0 a building card, -1 nothing (an empty stack, Building Amsterdam,
 * no event cards, or the first-rules preset). With The Golden Age's printed
 * rules the event cards have "a different back than the building and level
 * cards, allowing you to know if the next card on the closed stack is an
 * event card" (seed 003, "Event cards"); the first rules' backs are
 * "indistinguishable" (seed 002). docs/rules.md, Ruling G-07. */
int ch_deck_top_event(const ch_state *st);

/* ---- the library itself ------------------------------------------------------
 * For bindings that declare the structs themselves (the Python package): the
 * version the library was built as (CH_VERSION) and sizeof(ch_state), to be
 * compared with what the binding read from its copy of this header. */
const char *ch_version(void);
size_t ch_state_size(void);

/* ---- random numbers ---------------------------------------------------------
 * The library's one generator, xoshiro256** seeded through splitmix64: the
 * same one that ch_state holds for its shuffles, for callers that need
 * reproducible random choices of their own (self-play, benchmarks, bots). */
typedef struct ch_rng {
    uint64_t s[4];
} ch_rng;
void ch_rng_seed(ch_rng *r, uint64_t seed);
uint64_t ch_rng_next(ch_rng *r);
/* Uniform in [0, n) without bias (Lemire's method); 0 when n is 0. */
uint32_t ch_rng_below(ch_rng *r, uint32_t n);

/* ---- notation --------------------------------------------------------------- */
/* Canonical text of a move ("play Harbour C1", "bid f120"). Returns length. */
int ch_move_str(const ch_state *st, ch_move m, char *buf, size_t n);
/* Read a move of player p from text. CH_ESYNTAX with the reason on failure. */
int ch_move_parse(const ch_state *st, int p, const char *text, ch_move *m, ch_msg *why);
/* Parse, check and apply in one call. */
int ch_play(ch_state *st, int p, const char *text, ch_msg *why);

/* ---- a fixed action space (src/core/action.c; docs/python.md "Actions") -----
 * Every move of an edition gets an action id, 0 <= id < ch_num_distinct_actions,
 * that means the same move in every state of every game of that edition and
 * player count: the move type and its arguments (plots, cards, companies,
 * players; bids and amounts as their value in florins). Level cards, which are
 * interchangeable, are named by their level, not by which card of the level.
 * The ids are laid out in sections, one per kind of move (the table in
 * docs/python.md). Amounts above CH_ACTION_MONEY_MAX florins and plots past an
 * edition's largest built-in board have no id (a hand-made board or a player
 * richer than that): ch_action_encode returns -1 for them and
 * ch_action_mask leaves them out and counts them. */
#define CH_ACTION_MONEY_MAX 3000
/* The number of action ids of a game of this edition and player count (2..5
 * Building Amsterdam, 2..6 The Golden Age), or -1 for bad arguments. */
int32_t ch_num_distinct_actions(int edition, int nplayers);
/* The id of move m in a game like st (its edition and player count), or -1
 * when m has none (a malformed move, an amount above CH_ACTION_MONEY_MAX). */
int32_t ch_action_encode(const ch_state *st, ch_move m);
/* The move of id for player p in st: CH_OK, or CH_EINVAL (id out of range,
 * p not a seat), *m then unchanged. A level card is the card of that level
 * that ch_legal names (p's lowest of the level in hand when building or
 * giving; the level's lowest card when asking). The move need not be legal. */
int ch_action_decode(const ch_state *st, int p, int32_t id, ch_move *m);
/* The legal-action mask of player p: mask[id] = 1 for each legal move's id,
 * 0 elsewhere; size must be ch_num_distinct_actions of st's game. Returns the
 * number of ids set (0 when p does not decide now), or -CH_EINVAL (mask left
 * as it was). *unmapped (may be NULL) receives the number of legal moves
 * that have no id. Allocates only when p has more than 4096 legal moves. */
int ch_action_mask(const ch_state *st, int p, uint8_t *mask, int32_t size, int *unmapped);
/* The move of id in the engine's notation (ch_move_str of ch_action_decode):
 * its length, or -1 (bad id or player). */
int ch_action_str(const ch_state *st, int p, int32_t id, char *buf, size_t n);
/* The id of a move in notation (ch_move_parse, then ch_action_encode):
 * CH_OK, CH_ESYNTAX with the reason, or CH_EINVAL when the move has no id. */
int ch_action_parse(const ch_state *st, int p, const char *text, int32_t *id, ch_msg *why);

/* ---- observation tensors (src/core/obs.c; docs/python.md "Observation tensor")
 * What seat p may see of st, as floats scaled to about [0, 1], written into
 * the caller's buffer: blocks of rows and columns (plots, companies, players
 * in seat order from p, cards, piles, turn, event), their sizes fixed by the
 * game (edition, players, board, cards). Nothing p cannot see is read: the
 * tensor is the same for every re-deal of ch_determinize(st, p, ...). */
/* The number of floats, or -1 for a state that is not one. */
int ch_observation_size(const ch_state *st);
/* Write p's tensor into buf (n floats, at least ch_observation_size): CH_OK,
 * or CH_EINVAL (bad state, seat or size; buf unchanged). */
int ch_observation(const ch_state *st, int p, float *buf, size_t n);
/* Block i of the layout (0, 1, ... until NULL): its name, and its first
 * float, rows and columns in *offset, *rows, *cols (each may be NULL). */
const char *ch_observation_block(const ch_state *st, int i, int *offset, int *rows, int *cols);

/* ---- many games at once (src/core/vec.c; docs/python.md "Vector environment")
 * A vector of n games of one setup, stepped by one call: ch_vec_step applies
 * one action id (the fixed action space above) per game, restarts each game
 * that ended, and writes for every game the seat deciding now, its legal ids,
 * mask and observation, the rewards and the end flags into the caller's
 * buffers (ch_vec_out, given once to ch_vec_new and written at every reset
 * and step: they must outlive the vector). Sealed bids are taken one bidder
 * at a time, in seat order, none seeing the others' bids. The games are
 * dealt from consecutive seeds: ch_vec_reset(v, s) deals game i from s + i,
 * and each restart takes the next seed (s + n, s + n + 1, ... in the order
 * the games end, lower slots first within a step), so a run is reproducible
 * from its seed and actions. Nothing allocates after ch_vec_new, except once
 * when a game first lists more than 512 legal moves (a long run of bids). */
typedef struct ch_vec ch_vec;
typedef struct ch_vec_out {
    int32_t *player;      /* n: the seat deciding now in game i (required)       */
    float *rewards;       /* n x nplayers: the returns (1 each winner) of a game
                             that ended at this step, else 0 (required)          */
    uint8_t *terminated;  /* n: game i ended at this step and was dealt anew      */
    uint8_t *truncated;   /* n: game i reached max_length (or its decider had no
                             move with an id) and was dealt anew                  */
    float *obs;           /* n x ch_observation_size: the decider's tensor, or NULL.
                             Its plot and card rows are written only where they
                             changed: the caller must not write into it
                             (ch_vec_reset writes it whole)                      */
    uint8_t *mask;        /* n x ch_num_distinct_actions: the decider's legal ids,
                             or NULL. Written only where it changed: the caller
                             must not write into it (ch_vec_reset clears it whole) */
    int32_t *legal;       /* n x legal_cap: the legal ids in the engine's order
                             (the first legal_cap of them), or NULL               */
    int32_t legal_cap;
    int32_t *nlegal;      /* n: the number of legal ids (may pass legal_cap), or NULL */
    uint64_t *seed;       /* n: the seed game i was dealt from, or NULL          */
    int32_t *length;      /* n: decisions made so far in game i, or NULL         */
} ch_vec_out;
/* n games (1 to 2^20) of setup on board; max_length: a game is truncated after
 * that many decisions (0: never); flags: 0 or CH_VEC_NO_AUTORESET (a game that
 * ends stays as it ended, with player -1, no legal ids, a zero observation,
 * its later actions not read, until ch_vec_reset_game deals it). CH_OK, or a
 * code with the reason (a setup ch_new refuses, a missing required buffer, no
 * memory); *out NULL then. */
enum { CH_VEC_NO_AUTORESET = 1 };
int ch_vec_new(ch_vec **out, const ch_setup *setup, const ch_board *board, int n, int32_t max_length,
               unsigned flags, const ch_vec_out *bufs, ch_msg *err);
void ch_vec_free(ch_vec *v);
/* Its games, players, action ids and observation floats (each may be NULL). */
int ch_vec_info(const ch_vec *v, int *n, int *nplayers, int32_t *nactions, int *obs_size);
/* Deal every game anew from seed (game i from seed + i) and write the outputs. */
int ch_vec_reset(ch_vec *v, uint64_t seed, ch_msg *err);
/* Apply actions[i] (an id legal for game i's decider) in every game. Every id
 * is checked first: an illegal one gets CH_EILLEGAL or CH_EINVAL with the game
 * and the reason, and nothing changes. */
int ch_vec_step(ch_vec *v, const int32_t *actions, ch_msg *err);
/* A uniformly random legal id of each game's decider into actions (n ids),
 * drawn from seed (the same seed and games give the same ids): the random
 * policy without a round trip through the caller's language. A game that
 * ended and waits for its deal (CH_VEC_NO_AUTORESET) gets -1. CH_OK, or
 * CH_EINVAL (NULL, or no reset yet). */
int ch_vec_sample(ch_vec *v, uint64_t seed, int32_t *actions, ch_msg *err);
/* Deal game i alone anew from seed (after ch_vec_reset) and write its outputs. */
int ch_vec_reset_game(ch_vec *v, int i, uint64_t seed, ch_msg *err);
/* Game i now (NULL before the first reset or out of range): for bots, views,
 * copies. It changes at the next step. */
const ch_state *ch_vec_state(const ch_vec *v, int i);

/* ---- names ------------------------------------------------------------------ */
const char *ch_company_name(const ch_state *st, int company);
int ch_company_find(const ch_state *st, const char *name, int *consumed);
const char *ch_event_name(int kind);
const char *ch_ga_event_name(int kind); /* The Golden Age event cards */
const char *ch_phase_name(int phase);
int ch_card_name(const ch_state *st, int card, char *buf, size_t n);
int ch_hand_count(const ch_state *st, int p);

/* ---- JSON (these allocate; free the text with ch_free) ------------------------ */
char *ch_state_to_json(const ch_state *st);
char *ch_view_to_json(const ch_state *st, int p);  /* p = -1: spectator */
/* A view with options (ch_view_to_json is flags 0):
 *   CH_JSON_COMPACT  no whitespace at all (for the wire; the default layout
 *                    is for people reading it);
 *   CH_JSON_DYNAMIC  without "board" and "cards", the members that stay the
 *                    same from move to move (a server sends them once);
 *   CH_JSON_STATIC   only those two: {"board": ..., "cards": ...}.
 * NULL for an unknown flag or DYNAMIC with STATIC. */
enum { CH_JSON_COMPACT = 1, CH_JSON_DYNAMIC = 2, CH_JSON_STATIC = 4 };
char *ch_view_json(const ch_state *st, int p, unsigned flags);
/* ch_view_json (flags must have CH_JSON_COMPACT) and the index of its
 * brackets, which the writer knows for free: (*ix)[i] for the i-th '{' or '['
 * of the text: {its offset, the offset just past its closing bracket, the
 * index of the next entry not inside it}. *ix is freed with ch_free (NULL
 * with the text on failure). For diffs of views (the server's patches). */
char *ch_view_json_ix(const ch_state *st, int p, unsigned flags, uint32_t (**ix)[3],
                      size_t *nix);
/* ch_view_json_ix of several perspectives of one state at once: entry k of
 * text, ix and nix (k = 0 the spectator, k = p + 1 seat p; arrays of
 * CH_MAX_PLAYERS + 1) for each bit k of mask, the others NULL. The members
 * that show the same to every viewer (game, companies, plots, table, turn,
 * build, merger: most of a view's bytes) are written once and copied.
 * flags: CH_JSON_COMPACT, with or without CH_JSON_DYNAMIC. 0, or -1 (then
 * nothing is allocated). */
int ch_views_json_ix(const ch_state *st, unsigned mask, unsigned flags, char **text,
                     uint32_t (**ix)[3], size_t *nix);
/* ch_views_json_ix into buffers the caller keeps from call to call (a
 * server's view worker writes views at every move): for each bit k of mask,
 * buf[k] (an array of CH_MAX_PLAYERS + 1, zeroed before the first call) gets
 * the text (len bytes and a NUL) and its bracket index (nix entries), each
 * buffer grown as needed and never shrunk; the other entries are left as they
 * are. 0, or -1 (then the texts are not valid). Free each text and ix with
 * ch_free when done. */
typedef struct ch_view_buf {
    char *text;
    size_t len, cap;
    uint32_t (*ix)[3];
    size_t nix, capix;
} ch_view_buf;
int ch_views_json_buf(const ch_state *st, unsigned mask, unsigned flags, ch_view_buf *buf);
/* ch_views_json_buf that copies from earlier views what did not change:
 * prev[k] (an array like buf; an entry with st NULL: none) is perspective
 * k's view written by this library with the same flags (its text, len
 * bytes, and its index, nix entries) from the state prev[k].st, of the same
 * game. The members and elements whose inputs are the same in both states
 * are copied from it instead of written again (a server writes views at
 * every move, and most of a view stays as it was); the texts and indexes are
 * the same as ch_views_json_buf's. An entry that is no such view (another
 * game's, not compact) is not used. */
typedef struct ch_view_prev {
    const ch_state *st;
    const char *text;
    size_t len;
    const uint32_t (*ix)[3];
    size_t nix;
} ch_view_prev;
int ch_views_json_since(const ch_state *st, unsigned mask, unsigned flags, ch_view_buf *buf,
                        const ch_view_prev *prev);
/* Changes whenever p's CH_JSON_STATIC part does (in The Golden Age, an event
 * card is named in the card table once discarded); never 0. */
uint32_t ch_view_static_stamp(const ch_state *st, int p);
int ch_state_from_json(ch_state *st, const char *json, ch_msg *why);
void ch_free(void *p);

/* ---- positions (docs/formats.md "Positions") ---------------------------------
 * A position is short text a person can write and read, one fact a line:
 * the edition, arrangement and players, the warehouses on the board, the
 * companies, each player's cash, stocks and hand, the market, the piles, the
 * stock events and whose turn it is. What is not written is dealt at random
 * (from the seed) or worked out (the bank, the supply, the money ledger). */
/* Build *st from the text (len bytes; need not be NUL-terminated). file names
 * the text in messages. The position is checked as ch_validate checks a
 * state; an impossible or malformed one gets CH_EFORMAT and "file:line:
 * reason" (with "did you mean" for a misspelt name), and *st is unchanged. */
int ch_position_read(ch_state *st, const char *text, size_t len, const char *file, ch_msg *err);
/* The position of st as text (free with ch_free), or NULL (bad arguments,
 * out of memory). viewer = -1: the full state, read back exactly; viewer =
 * p: player p's copy, with what p cannot see (other hands' unknown cards,
 * the deck's order, the level reserve, the seed, sealed bids, cards looked
 * at or offered that p may not see, and in The Golden Age the others'
 * holdings) left out or written as random; viewer = CH_POSITION_SPECTATOR:
 * the same for someone who holds no seat (every hand hidden). */
#define CH_POSITION_SPECTATOR (-2)
char *ch_position_write(const ch_state *st, int viewer);

/* ---- bots (src/ai; the library libchartered_ai) -------------------------------
 * A bot decides from one player's view only: ch_bot_choose determinizes a copy
 * of the state for that player before any bot logic reads it. Bots allocate
 * when created (ISMCTS: its node arena), never while choosing. Every bot is
 * deterministic given its seed (and, for time budgets, given its iterations). */
typedef struct ch_bot ch_bot;
/* name: "random", "greedy" or "ismcts"; options: "key=value,key=value", e.g.
 * "iterations=2000", "time=1.0" (seconds per move), "threads=2",
 * "playout=greedy|random", "memory=64" (MiB for the node arena). */
int ch_bot_new(ch_bot **out, const char *name, const char *options, uint64_t seed, ch_msg *err);
void ch_bot_free(ch_bot *b);
/* The bot's move for player p (who must be deciding now). */
int ch_bot_choose(ch_bot *b, const ch_state *st, int p, ch_move *out, ch_msg *err);
/* Names of the built-in bots, NULL-terminated. */
const char *const *ch_bot_names(void);
/* The bot's name and options as given, e.g. "ismcts:iterations=2000". */
const char *ch_bot_describe(const ch_bot *b);

/* ---- reviewing a game (src/ai/review.c; docs/bots.md "Review") ----------------
 * Each player's chance of winning at one decision of a game, as the deciding
 * player p could know it: every sample re-deals what p cannot see
 * (ch_determinize for p) and plays the game out with the bots' fast playout
 * policy; the true hidden cards of st are never read. The move played and the
 * best `width` moves the bot considers are compared on the same re-deals, the
 * budget spread by sequential halving (the played move is kept to the end).
 * With an iteration budget the result depends only on the seed and p's view
 * (a re-deal of what p cannot see gives the same result); with a CPU budget
 * (seconds of the calling thread's CPU time) on the machine's speed too. */
typedef struct ch_review_opts {
    long iterations;   /* playouts for the decision; 0: use cpu               */
    double cpu;        /* CPU seconds for the decision when iterations is 0    */
    int width;         /* the bot's best moves compared besides the played one,
                          1..16                                                */
    uint64_t seed;
} ch_review_opts;
typedef struct ch_review {
    int player;                         /* who decided (p)                     */
    double played_win[CH_MAX_PLAYERS];  /* each player's chance after the move
                                           played, 0..1                         */
    double best_win[CH_MAX_PLAYERS];    /* the same after the bot's best move   */
    ch_move best;                       /* the bot's best move (the played one
                                           when none measured better)           */
    int narms;                          /* moves compared                       */
    long played_n, best_n, playouts;    /* samples of each, all of them          */
    double cpu;                         /* CPU seconds used                      */
} ch_review;
/* cpu 0.2 (60 s for a game of 300 decisions), width 6, seed 1. */
void ch_review_opts_default(ch_review_opts *o);
/* Review p's decision at st, where p played `played` (which must be legal).
 * CH_OK; CH_EINVAL (bad options), CH_ETURN (p does not decide), the code of
 * ch_check for an illegal move, CH_ENOMEM; the reason in *err. Allocates. */
int ch_review_decision(const ch_state *st, int p, ch_move played, const ch_review_opts *o,
                       ch_review *out, ch_msg *err);

#ifdef __cplusplus
}
#endif
#endif
