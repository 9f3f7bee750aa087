/* fuzz_replay.c: a plain main() for the libFuzzer harnesses of tests/fuzz,
 * for builds without libFuzzer (gcc, or clang without CH_FUZZ): it runs
 * LLVMFuzzerTestOneInput once on each file named, and on each file of each
 * folder named (in name order, so a failure names the same file each run),
 * as the fuzzer replays a corpus. The checked-in corpora (corpus/NAME/),
 * with the inputs that once crashed a harness (regress-*), thus run in
 * every build as the CTest tests fuzz_replay_NAME: a harness's property that
 * fails aborts, as it does under the fuzzer (tests/fuzz/README.md).
 * usage: fuzz_replay_NAME FILE-OR-FOLDER... */
#define _DEFAULT_SOURCE /* DT_DIR, scandir, alphasort */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_replay: cannot open %s\n", path);
        return -1;
    }
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb)
                free(buf);
            buf = nb;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "fuzz_replay: out of memory reading %s\n", path);
        return -1;
    }
    /* an exact copy of the file's length, as libFuzzer hands it: reading
       one byte past the end is then an ASan report in sanitizer builds */
    uint8_t *data = malloc(n ? n : 1);
    if (!data) {
        free(buf);
        return -1;
    }
    memcpy(data, buf, n);
    free(buf);
    fprintf(stderr, "fuzz_replay: %s (%zu bytes)\n", path, n);
    LLVMFuzzerTestOneInput(data, n);
    free(data);
    return 0;
}

static int skip(const struct dirent *e) { return e->d_name[0] != '.'; }

int main(int argc, char **argv)
{
    int files = 0;
    for (int i = 1; i < argc; i++) {
        struct stat sb;
        if (stat(argv[i], &sb) != 0) {
            fprintf(stderr, "fuzz_replay: no such file or folder: %s\n", argv[i]);
            return 1;
        }
        if (!S_ISDIR(sb.st_mode)) {
            if (run_file(argv[i]) != 0)
                return 1;
            files++;
            continue;
        }
        struct dirent **names;
        int n = scandir(argv[i], &names, skip, alphasort);
        if (n < 0) {
            fprintf(stderr, "fuzz_replay: cannot read the folder %s\n", argv[i]);
            return 1;
        }
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]->d_name);
            if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
                if (run_file(path) != 0)
                    return 1;
                files++;
            }
            free(names[k]);
        }
        free(names);
    }
    if (!files) {
        fprintf(stderr, "fuzz_replay: no input files\n");
        return 1;
    }
    printf("fuzz_replay: %d inputs, no failure\n", files);
    return 0;
}
