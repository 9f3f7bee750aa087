/* fuzz_board.c: libFuzzer harness of the board and arrangement parser
 * (ch_board_parse, src/core/board.c). Input: an arrangement text,
 * optionally followed by a form feed (\f) and a board text. The resolver
 * gives that board for every board name starting with "Fuzz" and the
 * built-in boards for the others, so an input may mix both. Checks, beyond
 * "no crash, no sanitizer report": a refused text has a reason; an accepted
 * board is consistent (plot count, districts, neighbours in range and
 * mutual, labels terminated). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fuzz_common.h"

static const char *const paths[] = {"boards/harbour.board", "boards/jordaan.board",
                                    "boards/canal-ring.board", "boards/old-side.board",
                                    "boards/ga-centre.board", "boards/ga-harbour.board"};
static const char *const names[] = {"Harbour", "Jordaan", "Canal Ring", "Old Side",
                                    "City Centre", "Harbour"};

static const char *resolve(void *ctx, const char *name, const char **file)
{
    if (strncasecmp(name, "fuzz", 4) == 0) {
        *file = "fuzz.board";
        return ctx; /* NULL when the input has no board part: unknown */
    }
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
        if (strcasecmp(name, names[i]) == 0) {
            *file = paths[i];
            return ch_builtin_text(paths[i]);
        }
    return NULL;
}

static void check_board(const ch_board *b)
{
    if (b->nplots == 0 || b->nplots > CH_MAX_PLOTS || b->ndistricts == 0 ||
        b->ndistricts > CH_MAX_DISTRICTS)
        fz_fail("an accepted board has counts out of range", b->name);
    for (int p = 0; p < b->nplots; p++) {
        if (b->plot_district[p] >= b->ndistricts || b->deg[p] > CH_MAX_NEIGH ||
            !memchr(b->plot_label[p], 0, CH_LABEL_LEN))
            fz_fail("an accepted board has a bad plot", b->name);
        for (int k = 0; k < b->deg[p]; k++) {
            int q = b->adj[p][k], back = 0;
            if (q >= b->nplots || q == p)
                fz_fail("an accepted board has a neighbour out of range", b->name);
            for (int j = 0; j < b->deg[q]; j++)
                back |= b->adj[q][j] == p;
            if (!back)
                fz_fail("an accepted board has a one-way neighbour", b->name);
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fz_strndup(data, size);
    char *board = strchr(text, '\f');
    if (board)
        *board++ = '\0';
    static ch_board b;
    ch_msg why = {{0}};
    int rc = ch_board_parse(&b, text, "fuzz.arr", resolve, board, &why);
    if (rc != CH_OK && !why.text[0])
        fz_fail("a refused arrangement has no reason", text);
    if (rc == CH_OK)
        check_board(&b);
    free(text);
    return 0;
}
