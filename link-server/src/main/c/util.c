/* Buffers and messages for the link client. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client.h"

const char *tool_name = "lto-wrapper";

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) fatal("out of memory");
  return p;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

char *xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) fatal("out of memory");
  char *s = xmalloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(s, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return s;
}

static void message(const char *kind, const char *fmt, va_list ap) {
  /* One write, so that the line is not interleaved with other processes' output. */
  char line[4096];
  int n = snprintf(line, sizeof line, "%s: %s: ", tool_name, kind);
  if (n < 0 || (size_t)n >= sizeof line) n = 0;
  int m = vsnprintf(line + n, sizeof line - (size_t)n - 1, fmt, ap);
  if (m < 0) m = 0;
  size_t len = (size_t)n + (size_t)m;
  if (len > sizeof line - 2) len = sizeof line - 2;
  line[len++] = '\n';
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(2, line + off, len - off);
    if (w <= 0) break;
    off += (size_t)w;
  }
}

void fatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message("fatal error", fmt, ap);
  va_end(ap);
  exit(1);
}

void warn(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  message("warning", fmt, ap);
  va_end(ap);
}

void buf_add(struct buf *b, const void *bytes, size_t n) {
  if (n > SIZE_MAX / 2 - b->len) fatal("out of memory");
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n) cap *= 2;
    unsigned char *d = realloc(b->data, cap);
    if (!d) fatal("out of memory");
    b->data = d;
    b->cap = cap;
  }
  if (n) memcpy(b->data + b->len, bytes, n);
  b->len += n;
}

void buf_u8(struct buf *b, unsigned v) {
  unsigned char c = (unsigned char)v;
  buf_add(b, &c, 1);
}

void buf_u16(struct buf *b, unsigned v) {
  unsigned char c[2] = {(unsigned char)(v >> 8), (unsigned char)v};
  buf_add(b, c, 2);
}

void buf_u32(struct buf *b, uint32_t v) {
  unsigned char c[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16), (unsigned char)(v >> 8),
                        (unsigned char)v};
  buf_add(b, c, 4);
}

void buf_bytes(struct buf *b, const void *bytes, size_t n) {
  if (n > UINT32_MAX) fatal("a request field is too long");
  buf_u32(b, (uint32_t)n);
  buf_add(b, bytes, n);
}

void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

void buf_free(struct buf *b) {
  free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

char *buf_cstr(struct buf *b) {
  buf_u8(b, 0);
  char *s = (char *)b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}
