/*
 * A signal that comes before the link has reached the JVM or the server (issue 27): nothing else
 * can remove the linker plugin's -foffload-objects= list then, which is lto-wrapper's to remove
 * from the start (GCC's tool_cleanup), unless -save-temps keeps it. The list is named on the
 * command line or in an @file (libiberty's writeargv form: whitespace between arguments,
 * backslash escapes, single and double quotes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

static const char OPTION[] = "-foffload-objects=";

static void drop_if_list(const char *arg) {
  size_t n = sizeof OPTION - 1;
  if (strncmp(arg, OPTION, n) == 0 && arg[n]) unlink(arg + n);
}

/* Each argument of the @file at path, as libiberty's buildargv reads it. */
static void drop_in_file(const char *path) {
  FILE *f = fopen(path, "re");
  if (!f) return;
  struct buf word = {0};
  int c, quote = 0, in_word = 0;
  while ((c = fgetc(f)) != EOF) {
    if (!quote && (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')) {
      if (in_word) {
        char *w = buf_cstr(&word);
        drop_if_list(w);
        free(w);
        word = (struct buf){0};
        in_word = 0;
      }
      continue;
    }
    in_word = 1;
    if (c == '\\') {
      int next = fgetc(f);
      if (next == EOF) break;
      unsigned char ch = (unsigned char)next;
      buf_add(&word, &ch, 1);
    } else if (quote && c == quote) {
      quote = 0;
    } else if (!quote && (c == '\'' || c == '"')) {
      quote = c;
    } else {
      unsigned char ch = (unsigned char)c;
      buf_add(&word, &ch, 1);
    }
  }
  if (in_word) {
    char *w = buf_cstr(&word);
    drop_if_list(w);
    free(w);
  } else {
    buf_free(&word);
  }
  fclose(f);
}

void drop_offload_list(char **argv) {
  const char *opts = getenv("COLLECT_GCC_OPTIONS");
  int keep = opts && strstr(opts, "'-save-temps") != NULL;
  if (keep || !argv || !argv[0] || strcmp(tool_name, "lto-wrapper") != 0) return;
  for (char **a = argv + 1; *a; a++) {
    if ((*a)[0] == '@' && (*a)[1]) {
      drop_in_file(*a + 1);
    } else {
      drop_if_list(*a);
    }
  }
}

void early_signal_exit(char **argv, int sig) {
  drop_offload_list(argv);
  _exit(128 + sig);
}
