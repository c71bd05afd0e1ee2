/*
 * A server's identity: everything that decides what a link run in it does, as text. The client
 * names the socket after its hash, so that another build, JDK or JVM option set never reaches this
 * server, and sends the text with every request, which the server compares with its own
 * (org.offlink.server.ServerIdentity writes the same lines):
 *
 *   offlink-link-server <protocol version>
 *   client <version of this client>
 *   root <install root>
 *   java <real path of the JVM> <size> <mtime>
 *   modules <size> <mtime>             the JDK's class image (lib/modules), or "modules -"
 *   launcher <size> <mtime>            libexec/offlink/jvm/offlink-server
 *   jar <name> <size> <mtime>          each jar of lib/classpath, in its order
 *   env <NAME>=<value>                 JAVA_TOOL_OPTIONS, _JAVA_OPTIONS, JDK_JAVA_OPTIONS and
 *                                      OFFLINK_SERVER_HEAP, when set
 *
 * An mtime is <seconds>.<nanoseconds, 9 digits>; a file that cannot be examined is "-". In names
 * and values a newline is written \n and a backslash \\, so that no value can forge a line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "client.h"
#include "protocol.h"

#ifndef OFL_CLIENT_STAMP
#define OFL_CLIENT_STAMP "dev"
#endif

static const char *const JVM_ENV[] = {"JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS",
                                      "OFFLINK_SERVER_HEAP"};

static void escaped(struct buf *b, const char *s) {
  for (const char *p = s; *p; p++) {
    if (*p == '\n') buf_str(b, "\\n");
    else if (*p == '\\') buf_str(b, "\\\\");
    else buf_u8(b, (unsigned char)*p);
  }
}

static void stamp(struct buf *b, const char *path) {
  struct stat st;
  char text[80];
  if (stat(path, &st) != 0) {
    buf_str(b, " -\n");
    return;
  }
  snprintf(text, sizeof text, " %lld %lld.%09ld\n", (long long)st.st_size,
           (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
  buf_str(b, text);
}

/* The first line of lib/classpath (colon-separated jar names), or NULL. */
static char *classpath(const struct install *in) {
  char *name = xasprintf("%s/classpath", in->lib);
  FILE *f = fopen(name, "re");
  free(name);
  if (!f) return NULL;
  struct buf line = {0};
  int c;
  while ((c = getc(f)) != EOF && c != '\n') buf_u8(&line, (unsigned)c);
  fclose(f);
  return buf_cstr(&line);
}

char *identity_text(const struct install *in, const char *java) {
  char *jars = classpath(in);
  if (!jars || !*jars) {
    free(jars);
    return NULL;
  }
  struct buf b = {0};
  char *head = xasprintf("offlink-link-server %d\nclient ", OFL_PROTOCOL_VERSION);
  buf_str(&b, head);
  free(head);
  escaped(&b, OFL_CLIENT_STAMP);
  buf_str(&b, "\nroot ");
  escaped(&b, in->root);
  buf_str(&b, "\njava ");
  escaped(&b, java);
  stamp(&b, java);
  size_t n = strlen(java);
  if (n >= 9 && strcmp(java + n - 9, "/bin/java") == 0) {
    char *modules = xasprintf("%.*s/lib/modules", (int)(n - 9), java);
    buf_str(&b, "modules");
    stamp(&b, modules);
    free(modules);
  } else {
    buf_str(&b, "modules -\n");
  }
  char *launcher = xasprintf("%s/libexec/offlink/jvm/offlink-server", in->root);
  buf_str(&b, "launcher");
  stamp(&b, launcher);
  free(launcher);
  for (char *jar = jars, *next; jar; jar = next) {
    next = strchr(jar, ':');
    if (next) *next++ = 0;
    if (!*jar) continue;
    char *path = xasprintf("%s/%s", in->lib, jar);
    buf_str(&b, "jar ");
    escaped(&b, jar);
    stamp(&b, path);
    free(path);
  }
  free(jars);
  for (size_t i = 0; i < sizeof JVM_ENV / sizeof *JVM_ENV; i++) {
    const char *v = getenv(JVM_ENV[i]);
    if (!v) continue;
    buf_str(&b, "env ");
    buf_str(&b, JVM_ENV[i]);
    buf_str(&b, "=");
    escaped(&b, v);
    buf_str(&b, "\n");
  }
  return buf_cstr(&b);
}

/* FNV-1a, 64 bits: a name, not a defence (the folder is private; the server compares the text). */
char *identity_hash(const char *text) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    h ^= *p;
    h *= 0x100000001b3ULL;
  }
  return xasprintf("%016llx", (unsigned long long)h);
}
