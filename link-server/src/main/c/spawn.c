/*
 * Connecting to the user's link server, and starting one when none answers.
 *
 * Start-up is serialised per identity by a lock on <hash>.start, so that sixteen links of a
 * `make -j16` that find no server start one JVM, not sixteen: the first client to hold the lock
 * starts the server; the others, once they hold it, find the socket answering. The server itself
 * holds <hash>.lock while it owns the socket name (org.offlink.server.LinkServer), so that two
 * servers of one identity never accept at the same time even if a client misbehaves.
 *
 * The client that starts a server does not wait for its socket: it makes a socket pair and hands
 * the server one end as its stdin; the server answers READY on it as soon as its main runs, takes
 * the link, and runs it while it sets up its socket (a JVM's first Unix socket costs it tens of
 * milliseconds). That client holds the start lock until the server says LISTENING (its socket is
 * in place) or the client exits, so that the others connect to this server rather than start
 * their own.
 *
 * The server is started like a daemon (chg, Bazel): a new session, the server folder as working
 * folder, umask 077, stdout and stderr to <hash>.log (the previous log kept as <hash>.log.old;
 * a start that finds a live server holding <hash>.lock appends to that server's log instead),
 * every other descriptor closed (a server holding make's jobserver or the linker plugin's pipes
 * would keep them from seeing end of file). A start that fails (the socket pair closes before
 * READY, or no READY in START_TIMEOUT_MS) leaves <hash>.failed, and for a minute after it clients
 * run links in their own JVM without trying again.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"
#include "protocol.h"

/* How long a client waits for the start lock and for a new server to answer. */
#define START_TIMEOUT_MS 30000
#define FAILED_QUIET_S 60


int sock_connect(const struct rundir *dir, const char *name) {
  struct sockaddr_un a;
  memset(&a, 0, sizeof a);
  a.sun_family = AF_UNIX;
  char *path = xasprintf("%s/%s", dir->path, name);
  if (strlen(path) >= sizeof a.sun_path) {
    /* A long folder name: reach it through the open folder instead. */
    free(path);
    path = xasprintf("/proc/self/fd/%d/%s", dir->fd, name);
  }
  if (strlen(path) >= sizeof a.sun_path) {
    free(path);
    errno = ENAMETOOLONG;
    return -1;
  }
  strcpy(a.sun_path, path);
  free(path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  while (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
    if (errno == EINTR) continue;
    int e = errno;
    close(fd);
    errno = e;
    return -1;
  }
  return fd;
}

static long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000};
  nanosleep(&t, NULL);
}

/* A signal while the server starts: the link has reached nobody yet, so the client ends it
   (the plugin's list included) as a JVM that is not ready would. */
static void exit_on_signal(void) {
  int sig = pending_signal();
  if (sig) signal_exit(sig);
}

/* Whether a start failed less than FAILED_QUIET_S seconds ago. */
static int failed_recently(const struct rundir *dir, const char *hash) {
  char *name = xasprintf("%s.failed", hash);
  struct stat st;
  int r = fstatat(dir->fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          time(NULL) - st.st_mtim.tv_sec < FAILED_QUIET_S;
  free(name);
  return r;
}

static void mark_failed(const struct rundir *dir, const char *hash, int failed) {
  char *name = xasprintf("%s.failed", hash);
  if (failed) {
    int fd = openat(dir->fd, name, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd >= 0) close(fd);
  } else {
    unlinkat(dir->fd, name, 0);
  }
  free(name);
}

static void close_from(int lowest) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) {
    long max = sysconf(_SC_OPEN_MAX);
    for (int fd = lowest; fd < (max > 0 && max < 65536 ? max : 65536); fd++) close(fd);
    return;
  }
  int self = dirfd(d);
  int fds[1024], n = 0;
  struct dirent *e;
  while ((e = readdir(d)) && n < 1024) {
    int fd = atoi(e->d_name);
    if (e->d_name[0] != '.' && fd >= lowest && fd != self) fds[n++] = fd;
  }
  closedir(d);
  for (int i = 0; i < n; i++) close(fds[i]);
}

/* The server's environment: nothing of the caller's but what the identity names. */
static char **server_environment(const char *java, const char *dir) {
  static const char *const kept[] = {"HOME", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
                                     "JDK_JAVA_OPTIONS", "OFFLINK_SERVER_HEAP",
                                     "OFFLINK_SERVER_IDLE"};
  size_t n = sizeof kept / sizeof *kept;
  char **env = xmalloc((n + 4) * sizeof *env);
  size_t k = 0;
  env[k++] = "PATH=/usr/bin:/bin";
  env[k++] = xasprintf("OFFLINK_JAVA=%s", java);
  /* The server's own temporary files (zstd-jni's library) stay in its folder. */
  env[k++] = xasprintf("TMPDIR=%s", dir);
  for (size_t i = 0; i < n; i++) {
    const char *v = getenv(kept[i]);
    if (v) env[k++] = xasprintf("%s=%s", kept[i], v);
  }
  env[k] = NULL;
  return env;
}

/* Whether a server process holds <hash>.lock (org.offlink.server.LinkServer takes it with
   FileChannel.lock, a POSIX record lock, which F_GETLK sees). */
static int server_lock_held(const struct rundir *dir, const char *hash) {
  char *name = xasprintf("%s.lock", hash);
  int fd = openat(dir->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  free(name);
  if (fd < 0) return 0;
  struct flock probe;
  memset(&probe, 0, sizeof probe);
  probe.l_type = F_WRLCK;
  probe.l_whence = SEEK_SET;
  int held = fcntl(fd, F_GETLK, &probe) == 0 && probe.l_type != F_UNLCK;
  close(fd);
  return held;
}

static void become_server(const struct rundir *dir, const struct install *in, const char *java,
                          const char *hash, int conn) {
  if (fchdir(dir->fd) != 0) _exit(127);
  umask(077);
  char *log = xasprintf("%s.log", hash);
  char *old = xasprintf("%s.log.old", hash);
  /* <hash>.log is the log of the server that holds the lock: a start that will find it held (its
     starter lost a race, or was ended before the server said LISTENING) adds to that log rather
     than moving it to .old, where the client's "its log:" messages would not find it. Every
     server writes with O_APPEND, so that such lines are not written over. */
  int live = server_lock_held(dir, hash);
  if (!live) renameat(dir->fd, log, dir->fd, old);
  int flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | (live ? 0 : O_TRUNC);
  int logfd = openat(dir->fd, log, flags, 0600);
  if (logfd < 0) _exit(127);
  /* conn and logfd are above 2: stdio is open in a client that uses a server (client.c). dup2
     clears close-on-exec. */
  if (dup2(conn, 0) < 0 || dup2(logfd, 1) < 0 || dup2(logfd, 2) < 0) _exit(127);
  close_from(3);
  /* Every signal as a fresh process has it: the links' children inherit the server's. */
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  char *launcher = xasprintf("%s/libexec/offlink/jvm/offlink-server", in->root);
  char *argv[] = {launcher, "--dir", dir->path, "--hash", (char *)hash, "--first-link", NULL};
  execve(launcher, argv, server_environment(java, dir->path));
  _exit(127);
}

/* Starts a server; returns this client's end of the socket pair whose other end is the server's
   stdin, or -1. */
static int start_server(const struct rundir *dir, const struct install *in, const char *java,
                        const char *hash) {
  int p[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p) != 0) return -1;
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return -1;
  }
  if (pid == 0) {
    close(p[0]);
    setsid();
    pid_t grandchild = fork();
    if (grandchild != 0) _exit(grandchild < 0 ? 127 : 0);
    become_server(dir, in, java, hash, p[1]);
  }
  close(p[1]);
  while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
  }
  return p[0];
}

/* Waits for the new server's READY on sock (frames after it stay in r): 1, or 0 when the server
   closed its end first, answered something else, or took until the deadline. */
static int await_ready(int sock, struct reader *r, long deadline) {
  for (;;) {
    int type;
    const unsigned char *p;
    size_t n;
    int got = reader_next(r, &type, &p, &n);
    if (got == 1) return type == OFL_READY && n == 4;
    if (got < 0) return 0;
    exit_on_signal();
    long left = deadline - now_ms();
    if (left <= 0) return 0;
    struct pollfd w = {sock, POLLIN, 0};
    /* at most 50 ms at a time: a signal is looked at between waits */
    if (poll(&w, 1, left < 50 ? (int)left : 50) > 0 && reader_fill(r, sock) <= 0) return 0;
  }
}

/* The start lock while a server this client started has not said LISTENING; -1 otherwise. */
static int held_start_lock = -1;

void start_lock_release(void) {
  if (held_start_lock >= 0) close(held_start_lock);
  held_start_lock = -1;
}

static int lock_start(const struct rundir *dir, const char *hash, long deadline) {
  char *name = xasprintf("%s.start", hash);
  int fd = openat(dir->fd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  free(name);
  if (fd < 0) return -1;
  while (flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK && errno != EINTR) break;
    if (now_ms() > deadline) break;
    exit_on_signal();
    sleep_ms(2);
  }
  return fd; /* locked, or not: either way the caller goes on; the server's own lock decides */
}

int server_connect(const struct rundir *dir, const struct install *in, const char *java,
                   const char *hash, struct reader *r, char **why) {
  char *name = xasprintf("%s.sock", hash);
  int fd = sock_connect(dir, name);
  if (fd >= 0 || (errno != ENOENT && errno != ECONNREFUSED)) {
    if (fd < 0) *why = xasprintf("cannot connect to %s/%s: %s", dir->path, name, strerror(errno));
    free(name);
    return fd;
  }
  if (failed_recently(dir, hash)) {
    *why = xasprintf("the server failed to start less than a minute ago (its log: %s/%s.log)",
                     dir->path, hash);
    free(name);
    return -1;
  }
  long deadline = now_ms() + START_TIMEOUT_MS;
  int lock = lock_start(dir, hash, deadline);
  fd = sock_connect(dir, name);
  free(name);
  if (fd >= 0) {
    if (lock >= 0) close(lock);
    return fd;
  }
  fd = start_server(dir, in, java, hash);
  if (fd >= 0 && !await_ready(fd, r, deadline)) {
    close(fd);
    fd = -1;
  }
  if (fd < 0) {
    warn("the offlink link server did not start (its log: %s/%s.log); linking in this process",
         dir->path, hash);
    *why = xasprintf("the server did not start (its log: %s/%s.log)", dir->path, hash);
    mark_failed(dir, hash, 1);
    if (lock >= 0) close(lock);
    return -1;
  }
  mark_failed(dir, hash, 0);
  held_start_lock = lock; /* until LISTENING, or this client's exit */
  return fd;
}
