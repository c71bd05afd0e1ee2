/*
 * offlink-exec: how the link server starts a link's child with that link's umask, in a process
 * group of its own. A JVM has one umask for all its threads and cannot set a child's, nor its
 * process group; so the server runs
 *
 *   offlink-exec UMASK PROGRAM ARGV0 ARG...
 *
 * which sets the umask (octal), makes itself the leader of a new process group (a cancelled
 * link's children are ended as a group, grandchildren included, and a terminal's Ctrl-C, which
 * never reaches the server's children, is forwarded as such a cancel), puts every signal back to
 * its default and execs PROGRAM with ARGV0 ARG... If the exec fails it writes
 * "offlink-exec: error=<errno>" and exits 127, which org.offlink.bridge.process turns into the
 * error a JVM gives for a program it cannot start.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc < 4) {
    fputs("usage: offlink-exec UMASK PROGRAM ARGV0 [ARG...]\n", stderr);
    return 127;
  }
  char *end;
  unsigned long mask = strtoul(argv[1], &end, 8);
  if (*argv[1] == 0 || *end || mask > 0777) {
    fprintf(stderr, "offlink-exec: bad umask '%s'\n", argv[1]);
    return 127;
  }
  umask((mode_t)mask);
  setpgid(0, 0);
  for (int sig = 1; sig < NSIG; sig++) signal(sig, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  execv(argv[2], argv + 3);
  fprintf(stderr, "offlink-exec: error=%d, %s\n", errno, strerror(errno));
  return 127;
}
