/*
 * The JVM, chosen as the launchers choose it (integration-tests/src/launcher/launcher.sh.in):
 * $JAVA_HOME/bin/java, else the JDK recorded at build time in lib/java.conf, else java on PATH.
 * OFFLINK_JAVA, the launchers' override, is a per-run choice: jvm_named resolves it.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"

static int executable_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The real path of an executable, or NULL. */
static char *real_executable(const char *path) {
  if (!executable_file(path)) return NULL;
  return realpath(path, NULL);
}

/* `command -v name` for a name without a slash: the first executable along PATH. */
char *path_search(const char *name) {
  const char *path = getenv("PATH");
  if (!path) return NULL;
  for (const char *p = path;; ) {
    const char *end = strchr(p, ':');
    size_t n = end ? (size_t)(end - p) : strlen(p);
    /* An empty entry is the working folder, as in the shell. */
    char *cand = n ? xasprintf("%.*s/%s", (int)n, p, name) : xasprintf("./%s", name);
    if (executable_file(cand)) return cand;
    free(cand);
    if (!end) return NULL;
    p = end + 1;
  }
}

char *jvm_named(const char *name) {
  if (strchr(name, '/')) return real_executable(name);
  char *found = path_search(name);
  char *real = found ? real_executable(found) : NULL;
  free(found);
  return real;
}

char *jvm_default(const struct install *in) {
  const char *home = getenv("JAVA_HOME");
  if (home && *home) {
    char *java = xasprintf("%s/bin/java", home);
    char *real = real_executable(java);
    free(java);
    if (real) return real;
  }
  char *conf = xasprintf("%s/java.conf", in->lib);
  FILE *f = fopen(conf, "re");
  free(conf);
  if (f) {
    char line[PATH_MAX + 2];
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (got) {
      line[strcspn(line, "\n")] = 0;
      char *real = *line ? real_executable(line) : NULL;
      if (real) return real;
    }
  }
  return jvm_named("java");
}
