/*
 * offlink's link client: what GCC runs as lto-wrapper and accel/<target>/mkoffload. It hands the
 * link to the user's resident link server (a JVM that stays up between links) over a Unix socket,
 * or runs it the old way, one JVM for this link, when the server cannot be used. See client.c.
 */
#ifndef OFFLINK_CLIENT_H
#define OFFLINK_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A growable byte buffer. */
struct buf {
  unsigned char *data;
  size_t len, cap;
};

void buf_add(struct buf *b, const void *bytes, size_t n);
void buf_u8(struct buf *b, unsigned v);
void buf_u16(struct buf *b, unsigned v);
void buf_u32(struct buf *b, uint32_t v);
void buf_bytes(struct buf *b, const void *bytes, size_t n); /* u32 length, then the bytes */
void buf_str(struct buf *b, const char *s);                  /* appends s without its NUL */
void buf_free(struct buf *b);
char *buf_cstr(struct buf *b); /* NUL-terminates and hands the text over */

/* Messages: "<tool>: fatal error: ..." (exit 1) and "<tool>: warning: ...". */
extern const char *tool_name;
void fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void *xmalloc(size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The installation: <root>/libexec/offlink/<tool path>, and its lib folder. */
struct install {
  char *root;     /* install root */
  char *lib;      /* <root>/lib/offlink when present, else <root>/lib */
  char *tool_rel; /* "lto-wrapper" or "accel/<target>/mkoffload" */
  int tool_code;  /* OFL_TOOL_* */
};

/* jvm.c: the JVM the launchers would choose. */
char *jvm_default(const struct install *in);
char *jvm_named(const char *name);
char *path_search(const char *name);

/* rundir.c: the private folder of the user's servers. */
struct rundir {
  int fd;      /* open folder, checked */
  char *path;  /* its path */
};
/* 0 and *dir on success; -1 with *why (and *insecure when the folder is not private). */
int rundir_open(struct rundir *dir, char **why, int *insecure);

/* identity.c: what a server must share with this client; the socket's name comes from its hash. */
char *identity_text(const struct install *in, const char *java);
char *identity_hash(const char *text); /* 16 hex digits */

/* wire.c: frames. */
int frame_send(int fd, int type, const void *payload, size_t n); /* 0, or -1 with errno */
struct reader {
  struct buf in;
  size_t start;
};
/* Reads what the socket has: 1 data read, 0 end of stream, -1 error (errno). */
int reader_fill(struct reader *r, int fd);
/* The next whole frame: 1 (type, payload, n set), 0 none yet, -1 malformed. */
int reader_next(struct reader *r, int *type, const unsigned char **payload, size_t *n);

/* spawn.c: connecting, and starting a server when none answers. */
int sock_connect(const struct rundir *dir, const char *name);
/* A connected socket, or -1 with *why; starts the server if needed (serialised by a lock): the
   socket is then one end of a socket pair, the server's READY read from it (later frames stay in
   r), and the start lock held until start_lock_release. */
int server_connect(const struct rundir *dir, const struct install *in, const char *java,
                   const char *hash, struct reader *r, char **why);
/* Lets in the clients waiting for the server this client started (on its LISTENING). */
void start_lock_release(void);
/* client.c: the signal a handler has noted (0: none), and the dispositions before them. */
int pending_signal(void);
void restore_signals(void);
/* earlyexit.c: a signal came before the link reached a JVM or the server: removes lto-wrapper's
   -foffload-objects= list (unless -save-temps) and exits with 128 + sig. */
void early_signal_exit(char **argv, int sig) __attribute__((noreturn));
/* Removes lto-wrapper's -foffload-objects= list named in argv (unless -save-temps), as GCC's
   tool_cleanup does when lto-wrapper fails: also when the server ends mid-link. */
void drop_offload_list(char **argv);

/* early_signal_exit for this run's own arguments (while the client starts a server, say). */
void signal_exit(int sig) __attribute__((noreturn));

#endif
