/*
 * offlink's stand-in for the nvptx accel linker, installed as
 * libexec/offlink/accel/nvptx-none/linker/real-ld.
 *
 * mkoffload runs the nvptx accel driver with this folder at the end of COMPILER_PATH; collect2
 * looks for "real-ld" along COMPILER_PATH before it looks for "ld", so it runs this program with
 * the command line it would have given nvptx-none-ld. This program only writes that command line
 * down, with the contents of the files it names (the accel driver removes its temporary objects
 * as soon as collect2 returns), to the file named by OFFLINK_NVPTX_LD_ARGV, which mkoffload
 * created empty (still empty, it tells that collect2 ran another linker), and exits 0:
 *
 *   "real-ld" NUL, the number of arguments NUL, each argument NUL,
 *   then for each argument that names a regular file: its index NUL, its size NUL, its bytes
 *
 * (numbers in decimal); mkoffload then links the PTX itself, in the same way
 * (org.offlink.bridge.nvptx.NvptxLinker), or runs the accel driver again without this folder
 * when it cannot. Run any other way it fails with one line.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

static int write_string(int fd, const char *s) { return write_all(fd, s, strlen(s) + 1); }

static int write_number(int fd, long long n) {
  char b[32];
  snprintf(b, sizeof b, "%lld", n);
  return write_string(fd, b);
}

/* Index, size and bytes of the regular file `path` (argument `index`); 0 when it is none. */
static int write_file(int fd, int index, const char *path) {
  int in = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK); /* a FIFO must not block */
  if (in < 0) return 0; /* not a file it can read: the linker's business, not ours */
  struct stat st;
  if (fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(in);
    return 0;
  }
  if (write_number(fd, index) != 0 || write_number(fd, (long long)st.st_size) != 0) {
    close(in);
    return -1;
  }
  char buf[65536];
  long long left = st.st_size;
  while (left > 0) {
    ssize_t r = read(in, buf, left < (long long)sizeof buf ? (size_t)left : sizeof buf);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0 || write_all(fd, buf, (size_t)r) != 0) {
      close(in);
      return -1;
    }
    left -= r;
  }
  close(in);
  return 0;
}

int main(int argc, char **argv) {
  const char *name = getenv("OFFLINK_NVPTX_LD_ARGV");
  if (!name || !*name) {
    fprintf(stderr,
            "%s: error: offlink's nvptx linker stand-in runs only under offlink's mkoffload "
            "(OFFLINK_NVPTX_LD_ARGV is not set)\n",
            argv[0]);
    return 1;
  }
  int fd = open(name, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    fprintf(stderr, "%s: error: cannot open '%s': %s\n", argv[0], name, strerror(errno));
    return 1;
  }
  int bad = write_string(fd, "real-ld") != 0 || write_number(fd, argc - 1) != 0;
  for (int i = 1; !bad && i < argc; i++) bad = write_string(fd, argv[i]) != 0;
  for (int i = 1; !bad && i < argc; i++) bad = write_file(fd, i, argv[i]) != 0;
  if (close(fd) != 0) bad = 1;
  if (bad) {
    fprintf(stderr, "%s: error: cannot write '%s': %s\n", argv[0], name, strerror(errno));
    return 1;
  }
  return 0;
}
