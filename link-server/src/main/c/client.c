/*
 * offlink's link client: the program GCC runs as libexec/offlink/lto-wrapper and as
 * libexec/offlink/accel/<target>/mkoffload.
 *
 * It sends the link (argv, the whole environment, the working folder, the umask) to the user's
 * resident link server, a JVM that stays up between links, and relays what comes back: stdout
 * (lto-wrapper's protocol: this client is its only writer), stderr, stdin when the link asks for
 * it, and the exit status. SIGINT, SIGTERM and SIGHUP become a cancel; the server ends the link
 * and answers with 128 + the signal, the status a JVM run for the link gives.
 *
 * The link runs the old way instead, in a JVM of its own started by the shell launcher
 * libexec/offlink/jvm/<tool>, with the same output, when:
 *   - OFFLINK_FLAGS holds --no-server;
 *   - stdin, stdout or stderr is closed;
 *   - MAKEFLAGS passes make's jobserver as file descriptors (--jobserver-auth=R,W): they cannot
 *     reach a server (the fifo: form can);
 *   - OFFLINK_JAVA names another JVM than the one a server runs on;
 *   - the working folder cannot be read, or its name is too long to resolve names against;
 *   - the server folder is missing, not private, or cannot be made;
 *   - the server cannot be started, or closes the connection before it accepts the link.
 * Once the server has accepted a link, the link is never run anywhere else: a server that dies
 * during it gives one line and exit status 1, after this client has ended the link's children and
 * removed the temporary files the server had told it about.
 */
#define _GNU_SOURCE /* pipe2 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "protocol.h"

extern char **environ;

/* ---- signals: handlers only write the number to a pipe; the main loop acts on it ---------- */

static char **link_argv; /* the link's arguments, for early_signal_exit */

static const int FORWARDED[] = {SIGINT, SIGTERM, SIGHUP};
static struct sigaction saved[3], saved_pipe;
static int handlers_installed;
static int sig_pipe[2] = {-1, -1};

static void on_signal(int sig) {
  int e = errno;
  unsigned char c = (unsigned char)sig;
  if (write(sig_pipe[1], &c, 1) < 0) {
    /* the pipe is full: a signal is pending already */
  }
  errno = e;
}

static void install_signals(void) {
  if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0) fatal("cannot create a pipe: %s", strerror(errno));
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (int i = 0; i < 3; i++) sigaction(FORWARDED[i], &sa, &saved[i]);
  /* A stdout whose reader has gone gets EPIPE, as in a JVM, which ignores SIGPIPE too. */
  struct sigaction ign;
  memset(&ign, 0, sizeof ign);
  ign.sa_handler = SIG_IGN;
  sigaction(SIGPIPE, &ign, &saved_pipe);
  handlers_installed = 1;
}

/* Puts back the dispositions this process started with (before an exec). */
void restore_signals(void) {
  if (!handlers_installed) return;
  for (int i = 0; i < 3; i++) sigaction(FORWARDED[i], &saved[i], NULL);
  sigaction(SIGPIPE, &saved_pipe, NULL);
}

void signal_exit(int sig) { early_signal_exit(link_argv, sig); }

/* The first signal received and not yet taken, or 0. */
int pending_signal(void) {
  unsigned char c;
  if (sig_pipe[0] >= 0 && read(sig_pipe[0], &c, 1) == 1) return c;
  return 0;
}

/* ---- the installation ------------------------------------------------------------------- */

static int is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void locate(const char *argv0, struct install *in) {
  char *self = realpath("/proc/self/exe", NULL);
  if (!self && argv0) {
    if (strchr(argv0, '/')) {
      self = realpath(argv0, NULL);
    } else {
      char *found = path_search(argv0);
      self = found ? realpath(found, NULL) : NULL;
      free(found);
    }
  }
  if (!self) fatal("cannot find this program's own path (/proc/self/exe)");
  static const char MARK[] = "/libexec/offlink/";
  char *at = NULL;
  for (char *p = strstr(self, MARK); p; p = strstr(p + 1, MARK)) at = p;
  if (!at) fatal("%s: not inside an offlink installation (no %s)", self, MARK);
  char *rel = at + strlen(MARK);
  if (strcmp(rel, "lto-wrapper") == 0) {
    in->tool_code = OFL_TOOL_LTO_WRAPPER;
  } else if (strcmp(rel, "accel/nvptx-none/mkoffload") == 0) {
    in->tool_code = OFL_TOOL_MKOFFLOAD_NVPTX;
    tool_name = "mkoffload";
  } else if (strcmp(rel, "accel/amdgcn-amdhsa/mkoffload") == 0) {
    in->tool_code = OFL_TOOL_MKOFFLOAD_GCN;
    tool_name = "mkoffload";
  } else {
    fatal("%s: not one of offlink's tools", self);
  }
  in->tool_rel = xstrdup(rel);
  *at = 0;
  in->root = self;
  in->lib = xasprintf("%s/lib/offlink", in->root);
  if (!is_dir(in->lib)) {
    free(in->lib);
    in->lib = xasprintf("%s/lib", in->root);
  }
}

/* ---- the old way: a JVM for this link --------------------------------------------------- */

__attribute__((noreturn)) static void run_in_process(const struct install *in, char **argv,
                                                     const char *reason) {
  /* A signal taken so far ends the link here: the launcher would never see it. */
  int sig = pending_signal();
  if (sig) early_signal_exit(argv, sig);
  restore_signals();
  char *launcher = xasprintf("%s/libexec/offlink/jvm/%s", in->root, in->tool_rel);
  /* The launcher passes these on as system properties and takes them out of the environment. */
  setenv("OFFLINK_CLIENT_ARGV0", argv[0] ? argv[0] : tool_name, 1);
  char *mode = xasprintf("in-process (%s)", reason);
  setenv("OFFLINK_CLIENT_MODE", mode, 1);
  execv(launcher, argv);
  fatal("cannot run %s: %s", launcher, strerror(errno));
}

/* ---- when the server cannot be used ------------------------------------------------------ */

static int has_word(const char *text, const char *word) {
  size_t n = strlen(word);
  for (const char *p = text; (p = strstr(p, word)); p += n) {
    int starts = p == text || p[-1] == ' ' || p[-1] == '\t';
    int ends = p[n] == 0 || p[n] == ' ' || p[n] == '\t';
    if (starts && ends) return 1;
  }
  return 0;
}

/* GCC's rule (opts-common.cc jobserver_info): the last --jobserver-auth= in MAKEFLAGS; R,W with
   both descriptors open is a jobserver that only this process can use. */
static int jobserver_fds(void) {
  const char *flags = getenv("MAKEFLAGS");
  static const char NEEDLE[] = "--jobserver-auth=";
  const char *at = NULL;
  for (const char *p = flags ? strstr(flags, NEEDLE) : NULL; p; p = strstr(p + 1, NEEDLE)) at = p;
  if (!at) return 0;
  at += strlen(NEEDLE);
  if (strncmp(at, "fifo:", 5) == 0) return 0;
  char *end;
  errno = 0;
  long r = strtol(at, &end, 10);
  if (end == at || *end != ',' || errno) return 0;
  const char *w_at = end + 1;
  long w = strtol(w_at, &end, 10);
  if (end == w_at || (*end && *end != ' ' && *end != '\t') || errno) return 0;
  return r > 0 && w > 0 && r < INT_MAX && w < INT_MAX && fcntl((int)r, F_GETFD) != -1 &&
         fcntl((int)w, F_GETFD) != -1;
}

static int stdio_open(void) {
  for (int fd = 0; fd < 3; fd++)
    if (fcntl(fd, F_GETFD) == -1) return 0;
  return 1;
}

/* The working folder, or NULL with *why. Names are resolved against it in the server (a JVM has
   one working folder for all its links), so one near PATH_MAX stays with the old way, where
   names relative to the process's own folder work at any depth. */
static char *working_folder(char **why) {
  char *cwd = getcwd(NULL, 0);
  if (!cwd) {
    *why = xasprintf("the working folder cannot be read (%s)", strerror(errno));
  } else if (strlen(cwd) + 1024 > PATH_MAX) {
    *why = xstrdup("the working folder's name is too long for the server");
    free(cwd);
    cwd = NULL;
  }
  return cwd;
}

/* ---- the request --------------------------------------------------------------------------

   REQUEST payload (every integer big-endian; "bytes" = u32 length + that many bytes, no NUL):
     offset  size   field
     0       4      magic "OFLK"
     4       2      protocol version (OFL_PROTOCOL_VERSION)
     6       bytes  identity text (identity.c)
     .       1      tool (OFL_TOOL_*)
     .       4      client pid
     .       2      umask (0..0777)
     .       1      flags, 0 (reserved)
     .       4      argc (at least 1), then argc x bytes
     .       4      envc, then envc x bytes "NAME=VALUE" (NAME not empty)
     .       bytes  working folder (absolute)
   and nothing after it. */
/* Whether environ entry *e is sent: NAME=VALUE with a name, the first of its name (a JVM reads
   its environment so, and keeps the first of a name). */
static int sent_variable(char **e) {
  const char *eq = strchr(*e, '=');
  if (!eq || eq == *e) return 0;
  size_t n = (size_t)(eq - *e) + 1;
  for (char **before = environ; before < e; before++)
    if (strncmp(*before, *e, n) == 0) return 0;
  return 1;
}

static void request_build(struct buf *b, const struct install *in, const char *identity,
                          char **argv, const char *cwd) {
  buf_add(b, OFL_REQUEST_MAGIC, 4);
  buf_u16(b, OFL_PROTOCOL_VERSION);
  buf_bytes(b, identity, strlen(identity));
  buf_u8(b, (unsigned)in->tool_code);
  buf_u32(b, (uint32_t)getpid());
  mode_t mask = umask(0);
  umask(mask);
  buf_u16(b, (unsigned)mask & 0777);
  buf_u8(b, 0);
  uint32_t argc = 0;
  while (argv[argc]) argc++;
  buf_u32(b, argc);
  for (uint32_t i = 0; i < argc; i++) buf_bytes(b, argv[i], strlen(argv[i]));
  uint32_t envc = 0;
  for (char **e = environ; *e; e++) envc += sent_variable(e);
  buf_u32(b, envc);
  for (char **e = environ; *e; e++)
    if (sent_variable(e)) buf_bytes(b, *e, strlen(*e));
  buf_bytes(b, cwd, strlen(cwd));
}

/* ---- after ACCEPTED: relaying ----------------------------------------------------------- */

struct link {
  int sock;
  pid_t server;
  pid_t session; /* the server's session (start_server makes one), or 0 */
  const struct rundir *dir;
  const char *hash;
  int relay_stdin;
  int out_ok, err_ok;
  pid_t *groups;
  size_t ngroups;
  char **temps;
  size_t ntemps;
};

static void write_out(int fd, int *ok, const unsigned char *p, size_t n) {
  while (*ok && n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      *ok = 0; /* as a JVM's PrintStream: the error is noted, the link goes on */
      return;
    }
    p += w;
    n -= (size_t)w;
  }
}

static uint32_t u32_at(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void note_group(struct link *l, const unsigned char *p, size_t n, int add) {
  if (n != 4) return;
  pid_t g = (pid_t)u32_at(p);
  if (g <= 1) return;
  for (size_t i = 0; i < l->ngroups; i++) {
    if (l->groups[i] == g) {
      if (!add) l->groups[i] = l->groups[--l->ngroups];
      return;
    }
  }
  if (!add) return;
  pid_t *grown = realloc(l->groups, (l->ngroups + 1) * sizeof *grown);
  if (!grown) fatal("out of memory");
  l->groups = grown;
  l->groups[l->ngroups++] = g;
}

static void note_temp(struct link *l, const unsigned char *p, size_t n, int add) {
  if (n == 0 || memchr(p, 0, n)) return;
  for (size_t i = 0; i < l->ntemps; i++) {
    if (strlen(l->temps[i]) == n && memcmp(l->temps[i], p, n) == 0) {
      if (!add) {
        free(l->temps[i]);
        l->temps[i] = l->temps[--l->ntemps];
      }
      return;
    }
  }
  if (!add) return;
  char **grown = realloc(l->temps, (l->ntemps + 1) * sizeof *grown);
  if (!grown) fatal("out of memory");
  l->temps = grown;
  char *s = xmalloc(n + 1);
  memcpy(s, p, n);
  s[n] = 0;
  l->temps[l->ntemps++] = s;
}

/* The session a server started by a client runs in: its leader, start_server's first child, has
   exited, so every process in it is the server or a descendant it started for a link. 0 when the
   session is not such a one (a server run by hand from a shell, or this client's own session). */
static pid_t server_session(pid_t server) {
  pid_t sid = getsid(server);
  if (sid <= 1 || sid == getsid(0) || kill(sid, 0) == 0 || errno != ESRCH) return 0;
  return sid;
}

/* Reads state and session of pid from /proc/PID/stat; 0 on success. */
static int proc_stat(long pid, char *state, long *session) {
  char path[64], stat[512];
  snprintf(path, sizeof path, "/proc/%ld/stat", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, stat, sizeof stat - 1);
  close(fd);
  if (n <= 0) return -1;
  stat[n] = 0;
  /* pid (comm) state ppid pgrp session ...: comm may hold anything, so from its last ')' */
  char *rp = strrchr(stat, ')');
  long ppid, pgrp;
  return rp && sscanf(rp + 1, " %c %ld %ld %ld", state, &ppid, &pgrp, session) == 4 ? 0 : -1;
}

/* Whether pid has exited (gone, or a zombie); waits up to a second, as a socket closes while its
   process is still exiting. */
static int exited(pid_t pid) {
  for (int waited = 0; waited < 1000; waited += 10) {
    char state;
    long session;
    if (proc_stat(pid, &state, &session) != 0 || state == 'Z' || state == 'X') return 1;
    struct timespec t = {0, 10000000};
    nanosleep(&t, NULL);
  }
  return 0;
}

/* Sends sig to every live process of session sid; returns how many there were. A child the server
   started but had not yet reported (CHILD_GROUP) when it died is found only this way. */
static int signal_session(pid_t sid, int sig) {
  if (sid <= 0) return 0;
  DIR *d = opendir("/proc");
  if (!d) return 0;
  int found = 0;
  struct dirent *e;
  while ((e = readdir(d)) != NULL) {
    char *end;
    long pid = strtol(e->d_name, &end, 10);
    char state;
    long session;
    if (pid <= 0 || *end || proc_stat(pid, &state, &session) != 0) continue;
    if (session != sid || state == 'Z' || state == 'X') continue;
    found++;
    kill((pid_t)pid, sig);
  }
  closedir(d);
  return found;
}

/* A child makes itself a group's leader first thing (offlink-exec); one the server had only just
   started may not have yet, so the pid itself is signalled then. */
static void signal_groups(const struct link *l, int sig) {
  for (size_t i = 0; i < l->ngroups; i++)
    if (kill(-l->groups[i], sig) != 0 && errno == ESRCH) kill(l->groups[i], sig);
}

/* Whether any of the link's groups, or (sid > 0) of the dead server's session, still has a
   process. */
static int any_left(const struct link *l, pid_t sid) {
  int alive = signal_session(sid, 0) > 0;
  for (size_t i = 0; i < l->ngroups; i++)
    alive |= kill(-l->groups[i], 0) == 0 || kill(l->groups[i], 0) == 0;
  return alive;
}

/* Freezes the link's groups and the session, sends sig, thaws them, and waits up to ms for them
   to end; returns whether any still runs. */
static int end_round(const struct link *l, pid_t sid, int sig, int ms) {
  signal_groups(l, SIGSTOP);
  /* stopped, the session's processes start no more; a few passes catch those started meanwhile */
  for (int pass = 0; pass < 5; pass++) signal_session(sid, SIGSTOP);
  signal_groups(l, sig);
  signal_session(sid, sig);
  signal_groups(l, SIGCONT);
  signal_session(sid, SIGCONT);
  for (int waited = 0; waited < ms; waited += 10) {
    if (!any_left(l, sid)) return 0;
    struct timespec t = {0, 10000000};
    nanosleep(&t, NULL);
  }
  return any_left(l, sid);
}

static int remove_entry(const char *path, const struct stat *st, int kind, struct FTW *at) {
  (void)st;
  (void)kind;
  (void)at;
  remove(path);
  return 0;
}

/* Removes a temporary the server reported: a file, or a folder of the link's own (its children's
   TMPDIR) with what they left in it, following no symbolic link. */
static void remove_temp(const char *path) {
  if (unlink(path) != 0 && errno == EISDIR) nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The server is gone mid-link: end the link's children as the server would have (ChildEnding:
   SIGHUP, on which GCC's driver and collect2 remove their temporaries, then SIGTERM for whatever
   still runs, since collect2 has none for SIGTERM), then remove its files. */
static void clean_up_after_server(const struct link *l) {
  /* Its session only once the server has surely exited: a live one's holds other links too. */
  pid_t sid = l->session && exited(l->server) ? l->session : 0;
  if (end_round(l, sid, SIGHUP, 250) && end_round(l, sid, SIGTERM, 1750)) {
    signal_groups(l, SIGKILL);
    signal_session(sid, SIGKILL);
  }
  for (size_t i = 0; i < l->ntemps; i++) remove_temp(l->temps[i]);
  /* The server tracks the list only once the link is under way: one that died before told
     nothing of it. */
  drop_offload_list(link_argv);
}

static void server_died(const struct link *l) {
  clean_up_after_server(l);
  fatal("the offlink link server (pid %ld) ended during the link; its log: %s/%s.log",
        (long)l->server, l->dir->path, l->hash);
}

/* Handles one frame; returns the exit status on EXIT, else -1. */
static int on_frame(struct link *l, int type, const unsigned char *p, size_t n) {
  switch (type) {
    case OFL_OUT:
      write_out(1, &l->out_ok, p, n);
      return -1;
    case OFL_ERR:
      write_out(2, &l->err_ok, p, n);
      return -1;
    case OFL_WANT_STDIN:
      l->relay_stdin = 1;
      return -1;
    case OFL_CHILD_GROUP:
      note_group(l, p, n, 1);
      return -1;
    case OFL_CHILD_DONE:
      note_group(l, p, n, 0);
      return -1;
    case OFL_TEMP_FILE:
      note_temp(l, p, n, 1);
      return -1;
    case OFL_TEMP_DONE:
      note_temp(l, p, n, 0);
      return -1;
    case OFL_LISTENING:
      start_lock_release();
      return -1;
    case OFL_EXIT:
      if (n != 1) break;
      return p[0];
    default:
      break;
  }
  clean_up_after_server(l);
  fatal("the offlink link server (pid %ld) broke the protocol (frame '%c', %zu bytes)",
        (long)l->server, type >= 32 && type < 127 ? type : '?', n);
}

static void relay_stdin(struct link *l) {
  unsigned char chunk[OFL_DATA_CHUNK];
  ssize_t got;
  do {
    got = read(0, chunk, sizeof chunk);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) {
    got = 0;
    l->relay_stdin = 0; /* end of file (or an error, which a reader sees as one) */
  }
  if (frame_send(l->sock, OFL_STDIN, chunk, (size_t)got) != 0) {
    l->relay_stdin = 0;
  }
}

static int relay(struct link *l, struct reader *r) {
  int cancelled = 0;
  for (;;) {
    int type;
    const unsigned char *p;
    size_t n;
    int got;
    while ((got = reader_next(r, &type, &p, &n)) == 1) {
      int status = on_frame(l, type, p, n);
      if (status >= 0) return status;
    }
    if (got < 0) {
      clean_up_after_server(l);
      fatal("the offlink link server (pid %ld) sent a malformed frame", (long)l->server);
    }
    struct pollfd fds[3] = {{l->sock, POLLIN, 0}, {sig_pipe[0], POLLIN, 0}, {0, POLLIN, 0}};
    int nfds = l->relay_stdin ? 3 : 2;
    if (poll(fds, (nfds_t)nfds, -1) < 0) {
      if (errno == EINTR) continue;
      fatal("poll: %s", strerror(errno));
    }
    if (fds[1].revents) {
      int sig = pending_signal();
      /* The same signal again is someone insisting: stop waiting. Another one leaves the cancel
         to finish, since the server answers only once the link's children are ended and its files
         removed: offlink's own ending of a link's children sends SIGHUP, then SIGTERM to what
         still runs, and a mkoffload run by a server link is such a child, its own link's cancel
         still under way at the SIGTERM. */
      if (sig && sig == cancelled) exit(128 + cancelled);
      if (sig && !cancelled) {
        unsigned char s = (unsigned char)sig;
        cancelled = sig;
        /* A send that fails is a server that has just ended the link and closed: its EXIT is still
           to be read (exiting 128 + sig here reported a link that had handed its output to the
           linker as cancelled, and left that output behind); a connection that ends without one
           is handled below. */
        (void)frame_send(l->sock, OFL_CANCEL, &s, 1);
      }
    }
    if (nfds == 3 && fds[2].revents) relay_stdin(l);
    if (fds[0].revents) {
      int filled = reader_fill(r, l->sock);
      if (filled <= 0) {
        /* The server sends EXIT before it closes, also after a cancel: an end without one is a
           server that died, maybe while it was ending the link; what it told us is ours. */
        if (cancelled) {
          clean_up_after_server(l);
          exit(128 + cancelled);
        }
        server_died(l);
      }
    }
  }
}

/* ---- the server way ----------------------------------------------------------------------- */

/* Waits for ACCEPTED or REFUSED: the server pid (> 0), or 0 with *why when the link did not
   start (refused, or the connection closed first), and the link can run here. */
static long await_acceptance(int sock, struct reader *r, char **why) {
  for (;;) {
    int type;
    const unsigned char *p;
    size_t n;
    int got = reader_next(r, &type, &p, &n);
    if (got == 1 && type == OFL_ACCEPTED && n == 4) return (long)u32_at(p);
    if (got == 1 && type == OFL_LISTENING) {
      start_lock_release();
      continue;
    }
    if (got == 1 && type == OFL_REFUSED && n >= 1) {
      *why = xasprintf("the server refused the link: %.*s", (int)(n - 1 > 300 ? 300 : n - 1),
                       (const char *)p + 1);
      return 0;
    }
    if (got != 0) {
      *why = xstrdup("the server answered outside the protocol");
      return 0;
    }
    struct pollfd fds[2] = {{sock, POLLIN, 0}, {sig_pipe[0], POLLIN, 0}};
    if (poll(fds, 2, -1) < 0 && errno != EINTR) fatal("poll: %s", strerror(errno));
    if (fds[1].revents) {
      int sig = pending_signal();
      /* nothing has run for this link: there is nothing to end but the plugin's list */
      if (sig) early_signal_exit(link_argv, sig);
    }
    if (fds[0].revents && reader_fill(r, sock) <= 0) {
      *why = xstrdup("the server closed the connection before it accepted the link");
      warn("the offlink link server closed the connection before it accepted the link; "
           "linking in this process");
      return 0;
    }
  }
}

/* Runs the link in the server; returns only when it did not start there (*why says why).
   What the link needs until the client exits is static: the client exits from inside the relay. */
static void run_in_server(const struct install *in, char **argv, const char *java,
                          const char *identity, const char *cwd, char **why) {
  static struct rundir dir;
  static struct reader r;
  static struct link l;
  int insecure;
  if (rundir_open(&dir, why, &insecure) != 0) {
    if (insecure) warn("%s; linking in this process", *why);
    return;
  }
  char *hash = identity_hash(identity);
  int sock = server_connect(&dir, in, java, hash, &r, why);
  if (sock < 0) {
    free(hash);
    return;
  }
  struct buf request = {0};
  request_build(&request, in, identity, argv, cwd);
  int sent = frame_send(sock, OFL_REQUEST, request.data, request.len);
  buf_free(&request);
  if (sent != 0) {
    *why = xasprintf("the server closed the connection before it accepted the link (%s)",
                     strerror(errno));
    warn("the offlink link server closed the connection before it accepted the link; "
         "linking in this process");
  } else {
    long pid = await_acceptance(sock, &r, why);
    if (pid > 0) {
      l = (struct link){sock, (pid_t)pid, server_session((pid_t)pid), &dir, hash, 0, 1, 1, NULL, 0, NULL, 0};
      exit(relay(&l, &r));
    }
  }
  close(sock);
  buf_free(&r.in);
  free(hash);
}

/* What the run keeps until it exits (static: the client exits from deep inside the relay). */
static struct {
  struct install in;
  char *java, *cwd, *identity, *why;
} run;

int main(int argc, char **argv) {
  (void)argc;
  if (!argv[0]) fatal("no argv[0]");
  struct install *in = &run.in;
  locate(argv[0], in);
  link_argv = argv;
  /* Looked at before the signal pipe is made, which would take a closed descriptor's number. */
  int stdio_ok = stdio_open();
  /* From the start: a signal before the link reaches a JVM or the server is handled here. */
  install_signals();
  const char *flags = getenv("OFFLINK_FLAGS");
  if (flags && has_word(flags, "--no-server"))
    run_in_process(in, argv, "OFFLINK_FLAGS has --no-server");
  if (!stdio_ok) run_in_process(in, argv, "stdin, stdout or stderr is closed");
  if (jobserver_fds())
    run_in_process(in, argv, "MAKEFLAGS passes make's jobserver as file descriptors");
  run.java = jvm_default(in);
  if (!run.java) run_in_process(in, argv, "no Java runtime found for a server");
  const char *named = getenv("OFFLINK_JAVA");
  if (named && *named) {
    char *real = jvm_named(named);
    int other = !real || strcmp(real, run.java) != 0;
    free(real);
    if (other) run_in_process(in, argv, "OFFLINK_JAVA names another JVM than the server's");
  }
  run.cwd = working_folder(&run.why);
  if (!run.cwd) run_in_process(in, argv, run.why);
  run.identity = identity_text(in, run.java);
  if (!run.identity) run_in_process(in, argv, "the installation has no lib/classpath");
  run_in_server(in, argv, run.java, run.identity, run.cwd, &run.why);
  run_in_process(in, argv, run.why ? run.why : "the server could not be used");
}
