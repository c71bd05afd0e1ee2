/* Frames on the server socket (layout in protocol.h). */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "client.h"
#include "protocol.h"

static int send_all(int fd, const unsigned char *p, size_t n) {
  while (n) {
    /* MSG_NOSIGNAL: a server gone away is an error to handle, not a SIGPIPE. */
    ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
    if (w < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

int frame_send(int fd, int type, const void *payload, size_t n) {
  if (n >= OFL_MAX_REQUEST) {
    errno = EMSGSIZE;
    return -1;
  }
  unsigned char head[5];
  uint32_t len = (uint32_t)n + 1;
  head[0] = (unsigned char)(len >> 24);
  head[1] = (unsigned char)(len >> 16);
  head[2] = (unsigned char)(len >> 8);
  head[3] = (unsigned char)len;
  head[4] = (unsigned char)type;
  if (send_all(fd, head, sizeof head) < 0) return -1;
  return send_all(fd, payload, n);
}

int reader_fill(struct reader *r, int fd) {
  /* Drop what has been consumed before reading more. */
  if (r->start > 0) {
    memmove(r->in.data, r->in.data + r->start, r->in.len - r->start);
    r->in.len -= r->start;
    r->start = 0;
  }
  unsigned char chunk[OFL_DATA_CHUNK];
  for (;;) {
    ssize_t got = read(fd, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return -1;
    if (got == 0) return 0;
    buf_add(&r->in, chunk, (size_t)got);
    return 1;
  }
}

int reader_next(struct reader *r, int *type, const unsigned char **payload, size_t *n) {
  size_t have = r->in.len - r->start;
  if (have < 4) return 0;
  const unsigned char *p = r->in.data + r->start;
  uint32_t len = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
  if (len < 1 || len > OFL_MAX_FRAME) return -1;
  if (have < 4 + (size_t)len) return 0;
  *type = p[4];
  *payload = p + 5;
  *n = len - 1;
  r->start += 4 + (size_t)len;
  return 1;
}
