/*
 * The folder of the user's link servers: $OFFLINK_SERVER_DIR when set, else $XDG_RUNTIME_DIR/offlink
 * when XDG_RUNTIME_DIR is a private folder of this user (as chg checks it: a `sudo -E` shell keeps
 * another user's), else /tmp/offlink-<uid>. Created 0700; on every connection it is opened without
 * following a symlink and must be a folder owned by this user with no group or other access.
 * Anything else means someone else could reach the socket, or put one there: the client refuses
 * it and runs the link in its own JVM.
 */
#define _GNU_SOURCE /* O_PATH */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client.h"

static int private_folder(const char *path) {
  struct stat st;
  return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
         (st.st_mode & 077) == 0;
}

static char *choose(void) {
  const char *explicit = getenv("OFFLINK_SERVER_DIR");
  if (explicit && *explicit) return xstrdup(explicit);
  const char *xdg = getenv("XDG_RUNTIME_DIR");
  if (xdg && xdg[0] == '/' && private_folder(xdg)) return xasprintf("%s/offlink", xdg);
  return xasprintf("/tmp/offlink-%lu", (unsigned long)geteuid());
}

int rundir_open(struct rundir *dir, char **why, int *insecure) {
  *insecure = 0;
  char *path = choose();
  if (path[0] != '/') {
    *why = xasprintf("the server folder '%s' is not an absolute path", path);
    free(path);
    return -1;
  }
  int created = mkdir(path, 0700) == 0;
  if (!created && errno != EEXIST) {
    *why = xasprintf("cannot create the server folder %s: %s", path, strerror(errno));
    free(path);
    return -1;
  }
  if (created) chmod(path, 0700); /* the umask may have taken bits away */
  /* O_PATH: another user's folder opens too (with search permission on its parent only), so
     that the owner check below names what is wrong. */
  int fd = open(path, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    int e = errno;
    *insecure = e == ELOOP || e == ENOTDIR;
    *why = *insecure ? xasprintf("the server folder %s is not a folder (a symlink?)", path)
                     : xasprintf("cannot open the server folder %s: %s", path, strerror(e));
    free(path);
    return -1;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *why = xasprintf("cannot examine the server folder %s: %s", path, strerror(errno));
  } else if (st.st_uid != geteuid()) {
    *insecure = 1;
    *why = xasprintf("the server folder %s belongs to uid %lu, not to uid %lu", path,
                     (unsigned long)st.st_uid, (unsigned long)geteuid());
  } else if ((st.st_mode & 077) != 0) {
    *insecure = 1;
    *why = xasprintf("the server folder %s has mode %03o, not 700", path,
                     (unsigned)(st.st_mode & 0777));
  } else if ((st.st_mode & 0700) != 0700) {
    *why = xasprintf("the server folder %s has mode %03o, not 700", path,
                     (unsigned)(st.st_mode & 0777));
  } else {
    dir->fd = fd;
    dir->path = path;
    return 0;
  }
  close(fd);
  free(path);
  return -1;
}
