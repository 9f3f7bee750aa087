/* ini.h: the reader of chartered's configuration files (ini.c): a plain
 * INI text of `key = value` lines, as docs/configuration.md describes it.
 * The reader knows no keys: it turns the text into entries with their line
 * numbers, or says which lines are bad and why; what a key means (and
 * whether it exists) is the caller's business (the server's option list).
 *
 * The syntax, line by line:
 *   - blank lines, and lines whose first non-blank character is '#' or ';'
 *     (comments: only on a line of their own, so that a value may hold '#');
 *   - `[section]`: the entries below it belong to that section (letters,
 *     digits, '.', '_', '-'; at most 63 characters);
 *   - `key = value`: a key of lower-case letters, digits, '-', '_' and '.'
 *     (at most 63 characters); the value is the rest of the line with the
 *     blanks around it removed; a value in double quotes keeps its blanks,
 *     and there `\"` is a quote and `\\` a backslash; an empty value is
 *     allowed (`key =`);
 *   - a key given twice in one section is an error (the first line named);
 *   - lines end with LF or CR LF; at most INI_MAX_LINE bytes each; no NUL
 *     byte and only valid UTF-8 anywhere; at most INI_MAX_ENTRIES entries. */
#ifndef CHARTERED_INI_H
#define CHARTERED_INI_H
#include <stddef.h>

#define INI_MAX_LINE 4096
#define INI_MAX_ENTRIES 1000
#define INI_MAX_NAME 63
#define INI_MAX_ERRORS 50

typedef struct ini_entry {
    char section[INI_MAX_NAME + 1]; /* "" before any [section] line */
    char key[INI_MAX_NAME + 1];
    char *value;                    /* malloc'd, NUL-terminated, no NUL inside */
    int line;                       /* 1-based */
} ini_entry;

typedef struct ini_error {
    int line;      /* 1-based; 0: the file as a whole */
    char why[160];
} ini_error;

typedef struct ini_file {
    ini_entry *entries;
    size_t n;
    ini_error errors[INI_MAX_ERRORS];
    size_t nerrors;   /* at most INI_MAX_ERRORS are kept ... */
    size_t more;      /* ... and the others counted here */
} ini_file;

/* Read text[0..len). Returns 0 when the text has no error (f->entries holds
 * every entry in order), else -1 with f->errors (f->entries then holds the
 * good lines, for a caller that reports more). Memory: ini_free, always. */
int ini_parse(const char *text, size_t len, ini_file *f);
/* ini_parse of a file's contents; a file that cannot be read is one error
 * at line 0 with the system's reason. */
int ini_read_file(const char *path, ini_file *f);
void ini_free(ini_file *f);
/* The entry of key in section, or NULL. */
const ini_entry *ini_find(const ini_file *f, const char *section, const char *key);
#endif
