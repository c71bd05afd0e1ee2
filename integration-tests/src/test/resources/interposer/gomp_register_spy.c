/*
 * gomp_register_spy: an LD_PRELOAD interposer for libgomp's offload image registration.
 *
 * Defines GOMP_offload_register_ver, GOMP_offload_unregister_ver and the legacy
 * GOMP_offload_register / GOMP_offload_unregister. Each call appends a deterministic text record of
 * what it was given to the file named by $OFFLINK_SPY_OUT (nothing is written when it is unset),
 * then forwards to the next definition (libgomp) so the program runs on (host fallback without a
 * GPU).
 *
 * Record layout (one item per line, no addresses, so two links of the same program compare equal):
 *
 *   register version=0x10001 lib=1 dev=1 type=5 target=nvptx module=prog
 *    host funcs=2 vars=1
 *    host func main._omp_fn.0            symbol of each host table entry (ELF .symtab lookup)
 *    host var gvar size=16 link=0        size and "declare target link" bit (size MSB)
 *    nvptx ptx=3 vars=1 funcs=2          GCC 12 struct nvptx_tdata
 *    nvptx ptx[0] size=1234 sha256=...   each NUL-terminated PTX chunk, size includes the NUL
 *    nvptx var gvar
 *    nvptx func main$_omp_fn$0 dims=32,4,32
 *    gcn image size=N sha256=... e_flags=0x62f                  GCC 12 struct gcn_image_desc
 *    gcn kernels=4 vars=1
 *    gcn kernel main._omp_fn.0 dims=32,4,32 sgpr=62 vgpr=24
 *    gcn env HSA_XNACK=0 GCN_STACK_SIZE=-    the variables the wrapper's constructor may set
 *   end                                      before registering ("-": unset)
 *
 * An unregister record has the header and host table lines only.
 *
 * Data layouts are those of GCC 12 on x86-64 (GOMP_VERSION 1). From GCC 13 on (library version
 * >= 2) the target data starts with a pointer-sized OpenMP "requires" mask, printed as
 * "requires=0x..", and the rest is read at the next word. Library version >= 3 (GCC 14, 15) has a
 * six-pointer host table (entries 4-5: indirect functions, printed as "host ind_funcs=N" and
 * "host ind_func NAME"), an nvptx ind_fn_num after fn_num ("nvptx ind_funcs=N") and, for gcn,
 * ind_func_count inserted before global_variable_count ("gcn ind_funcs=N").
 *
 * Written for offlink's integration tests; built at test time with gcc -shared -fPIC -ldl.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- SHA-256 (FIPS 180-4) */

struct sha256 {
  uint32_t h[8];
  uint64_t length;
  unsigned char block[64];
  size_t used;
};

static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t ror32(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

static void sha256_block(struct sha256 *s, const unsigned char *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
           (uint32_t)p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = ror32(w[i - 15], 7) ^ ror32(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = ror32(w[i - 2], 17) ^ ror32(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = s->h[0], b = s->h[1], c = s->h[2], d = s->h[3];
  uint32_t e = s->h[4], f = s->h[5], g = s->h[6], h = s->h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 = h + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) +
                  sha256_k[i] + w[i];
    uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  s->h[0] += a; s->h[1] += b; s->h[2] += c; s->h[3] += d;
  s->h[4] += e; s->h[5] += f; s->h[6] += g; s->h[7] += h;
}

static void sha256_hex(const void *data, size_t len, char out[65]) {
  static const uint32_t init[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  struct sha256 s;
  memcpy(s.h, init, sizeof init);
  s.length = len;
  s.used = 0;
  const unsigned char *p = data;
  for (; len >= 64; p += 64, len -= 64) sha256_block(&s, p);
  unsigned char tail[128];
  memset(tail, 0, sizeof tail);
  memcpy(tail, p, len);
  tail[len] = 0x80;
  size_t total = len + 9 <= 64 ? 64 : 128;
  uint64_t bits = s.length * 8;
  for (int i = 0; i < 8; i++) tail[total - 1 - i] = (unsigned char)(bits >> (8 * i));
  sha256_block(&s, tail);
  if (total == 128) sha256_block(&s, tail + 64);
  for (int i = 0; i < 8; i++) sprintf(out + 8 * i, "%08x", s.h[i]);
  out[64] = '\0';
}

/* ---------------------------------------------------------------- host symbol names */

/* The name of the symbol defined exactly at ADDR, read from the .symtab (or .dynsym) of the module
   containing it, since the outlined target functions are local symbols that dladdr cannot see. */
static void symbol_name(const void *addr, char *out, size_t outlen) {
  Dl_info info;
  snprintf(out, outlen, "?");
  if (!dladdr(addr, &info)) return;
  const char *path = info.dli_fname;
  if (path == NULL || path[0] == '\0' || strchr(path, '/') == NULL) path = "/proc/self/exe";
  int fd = open(path, O_RDONLY);
  if (fd < 0) return;
  struct stat st;
  void *map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof(Elf64_Ehdr))
    map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return;
  const unsigned char *base = map;
  size_t size = st.st_size;
  const Elf64_Ehdr *eh = map;
  uintptr_t want = (uintptr_t)addr - (eh->e_type == ET_DYN ? (uintptr_t)info.dli_fbase : 0);
  int found = 0;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) == 0 && eh->e_ident[EI_CLASS] == ELFCLASS64 &&
      eh->e_shoff + (size_t)eh->e_shnum * sizeof(Elf64_Shdr) <= size) {
    const Elf64_Shdr *sh = (const Elf64_Shdr *)(base + eh->e_shoff);
    for (int pass = 0; pass < 2 && !found; pass++) {
      unsigned kind = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;
      for (int i = 0; i < eh->e_shnum && !found; i++) {
        if (sh[i].sh_type != kind || sh[i].sh_link >= eh->e_shnum) continue;
        const Elf64_Shdr *strs = &sh[sh[i].sh_link];
        if (sh[i].sh_offset + sh[i].sh_size > size || strs->sh_offset + strs->sh_size > size)
          continue;
        const Elf64_Sym *sym = (const Elf64_Sym *)(base + sh[i].sh_offset);
        size_t n = sh[i].sh_size / sizeof(Elf64_Sym);
        for (size_t j = 0; j < n; j++) {
          int type = ELF64_ST_TYPE(sym[j].st_info);
          if (sym[j].st_value != want || sym[j].st_shndx == SHN_UNDEF ||
              (type != STT_FUNC && type != STT_OBJECT) || sym[j].st_name >= strs->sh_size)
            continue;
          snprintf(out, outlen, "%s", (const char *)(base + strs->sh_offset + sym[j].st_name));
          found = 1;
          break;
        }
      }
    }
  }
  munmap(map, size);
}

static void module_name(const void *addr, char *out, size_t outlen) {
  Dl_info info;
  const char *path = NULL;
  char self[4096];
  if (dladdr(addr, &info) && info.dli_fname != NULL && strchr(info.dli_fname, '/') != NULL)
    path = info.dli_fname;
  if (path == NULL) {
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    path = self;
  }
  const char *slash = strrchr(path, '/');
  snprintf(out, outlen, "%s", slash ? slash + 1 : path);
}

/* ---------------------------------------------------------------- target data (GCC 12 layouts) */

struct ptx_obj {
  const char *code;
  size_t size;
};
struct nvptx_fn {
  const char *name;
  unsigned short dim[3];
};
struct nvptx_tdata {
  const struct ptx_obj *ptx_objs;
  unsigned ptx_num;
  const char *const *var_names;
  unsigned var_num;
  const struct nvptx_fn *fn_names;
  unsigned fn_num;
  unsigned ind_fn_num; /* library version >= 3 only */
};

struct gcn_image {
  size_t size;
  void *image;
};
struct hsa_kernel_description {
  const char *name;
  int oacc_dims[3];
  int sgpr_count;
  int vgpr_count;
};
struct gcn_image_desc {
  const struct gcn_image *gcn_image;
  unsigned kernel_count;
  const struct hsa_kernel_description *kernel_infos;
  unsigned global_variable_count;
};
/* Library version >= 3: ind_func_count takes the place of global_variable_count, which moves. */
struct gcn_image_desc_v3 {
  const struct gcn_image *gcn_image;
  unsigned kernel_count;
  const struct hsa_kernel_description *kernel_infos;
  unsigned ind_func_count;
  unsigned global_variable_count;
};

static void dump_nvptx(FILE *f, const struct nvptx_tdata *d, unsigned lib) {
  char hex[65];
  fprintf(f, " nvptx ptx=%u vars=%u funcs=%u\n", d->ptx_num, d->var_num, d->fn_num);
  if (lib >= 3) fprintf(f, " nvptx ind_funcs=%u\n", d->ind_fn_num);
  for (unsigned i = 0; i < d->ptx_num; i++) {
    sha256_hex(d->ptx_objs[i].code, d->ptx_objs[i].size, hex);
    fprintf(f, " nvptx ptx[%u] size=%zu sha256=%s\n", i, d->ptx_objs[i].size, hex);
  }
  for (unsigned i = 0; i < d->var_num; i++) fprintf(f, " nvptx var %s\n", d->var_names[i]);
  for (unsigned i = 0; i < d->fn_num; i++)
    fprintf(f, " nvptx func %s dims=%u,%u,%u\n", d->fn_names[i].name, d->fn_names[i].dim[0],
            d->fn_names[i].dim[1], d->fn_names[i].dim[2]);
}

static void dump_gcn(FILE *f, const struct gcn_image_desc *d, unsigned lib) {
  char hex[65];
  const struct gcn_image *img = d->gcn_image;
  unsigned vars = d->global_variable_count;
  if (lib >= 3) {
    const struct gcn_image_desc_v3 *d3 = (const struct gcn_image_desc_v3 *)d;
    vars = d3->global_variable_count;
    fprintf(f, " gcn ind_funcs=%u\n", d3->ind_func_count);
  }
  sha256_hex(img->image, img->size, hex);
  unsigned flags = 0;
  if (img->size >= sizeof(Elf64_Ehdr)) flags = ((const Elf64_Ehdr *)img->image)->e_flags;
  fprintf(f, " gcn image size=%zu sha256=%s e_flags=%#x\n", img->size, hex, flags);
  fprintf(f, " gcn kernels=%u vars=%u\n", d->kernel_count, vars);
  for (unsigned i = 0; i < d->kernel_count; i++) {
    const struct hsa_kernel_description *k = &d->kernel_infos[i];
    fprintf(f, " gcn kernel %s dims=%d,%d,%d sgpr=%d vgpr=%d\n", k->name, k->oacc_dims[0],
            k->oacc_dims[1], k->oacc_dims[2], k->sgpr_count, k->vgpr_count);
  }
  /* GCC 13+ sets GCN_STACK_SIZE (-mstack-size), 16 also HSA_XNACK, before registering. */
  const char *xnack = getenv("HSA_XNACK"), *stack = getenv("GCN_STACK_SIZE");
  fprintf(f, " gcn env HSA_XNACK=%s GCN_STACK_SIZE=%s\n", xnack ? xnack : "-", stack ? stack : "-");
}

static void dump(const char *what, unsigned version, const void *host_table, int type,
                 const void *data) {
  const char *out = getenv("OFFLINK_SPY_OUT");
  if (out == NULL || out[0] == '\0') return;
  FILE *f = fopen(out, "a");
  if (f == NULL) return;
  unsigned lib = version >> 16, dev = version & 0xffff;
  const char *target = type == 5 ? "nvptx" : type == 8 ? "gcn" : "other";
  char name[4096];
  module_name(host_table, name, sizeof name);
  fprintf(f, "%s version=%#x lib=%u dev=%u type=%d target=%s module=%s\n", what, version, lib, dev,
          type, target, name);
  const void *const *table = host_table;
  const void *const *funcs = table[0], *const *funcs_end = table[1];
  const void *const *vars = table[2], *const *vars_end = table[3];
  fprintf(f, " host funcs=%td vars=%td\n", funcs_end - funcs, (vars_end - vars) / 2);
  for (const void *const *p = funcs; p < funcs_end; p++) {
    symbol_name(*p, name, sizeof name);
    fprintf(f, " host func %s\n", name);
  }
  for (const void *const *p = vars; p + 1 < vars_end; p += 2) {
    uint64_t size = (uint64_t)(uintptr_t)p[1];
    symbol_name(p[0], name, sizeof name);
    fprintf(f, " host var %s size=%llu link=%d\n", name,
            (unsigned long long)(size & ~(1ULL << 63)), (int)(size >> 63));
  }
  if (lib >= 3) {
    const void *const *ind = table[4], *const *ind_end = table[5];
    fprintf(f, " host ind_funcs=%td\n", ind_end - ind);
    for (const void *const *p = ind; p < ind_end; p++) {
      symbol_name(*p, name, sizeof name);
      fprintf(f, " host ind_func %s\n", name);
    }
  }
  if (strcmp(what, "unregister") == 0) {
    /* The data was recorded at registration; only the pairing is of interest here. */
  } else if (lib > 3) {
    fprintf(f, " data layout of library version %u not decoded\n", lib);
  } else {
    if (lib >= 2) {
      fprintf(f, " requires=%#llx\n", (unsigned long long)*(const uintptr_t *)data);
      data = (const uintptr_t *)data + 1;
    }
    if (type == 5) dump_nvptx(f, data, lib);
    if (type == 8) dump_gcn(f, data, lib);
  }
  fprintf(f, "end\n");
  fclose(f);
}

/* ---------------------------------------------------------------- the interposed entry points */

typedef void (*register_ver_fn)(unsigned, const void *, int, const void *);
typedef void (*register_fn)(const void *, int, const void *);

static void *next(const char *name, const char *version) {
  void *fn = dlvsym(RTLD_NEXT, name, version);
  if (fn == NULL) fn = dlsym(RTLD_NEXT, name);
  if (fn == NULL) {
    fprintf(stderr, "gomp_register_spy: %s not found after the spy\n", name);
    abort();
  }
  return fn;
}

void GOMP_offload_register_ver(unsigned version, const void *host_table, int type,
                               const void *data) {
  dump("register", version, host_table, type, data);
  ((register_ver_fn)next("GOMP_offload_register_ver", "GOMP_4.5"))(version, host_table, type,
                                                                    data);
}

void GOMP_offload_unregister_ver(unsigned version, const void *host_table, int type,
                                 const void *data) {
  dump("unregister", version, host_table, type, data);
  ((register_ver_fn)next("GOMP_offload_unregister_ver", "GOMP_4.5"))(version, host_table, type,
                                                                      data);
}

void GOMP_offload_register(const void *host_table, int type, const void *data) {
  dump("register", 0, host_table, type, data);
  ((register_fn)next("GOMP_offload_register", "GOMP_4.0.1"))(host_table, type, data);
}

void GOMP_offload_unregister(const void *host_table, int type, const void *data) {
  dump("unregister", 0, host_table, type, data);
  ((register_fn)next("GOMP_offload_unregister", "GOMP_4.0.1"))(host_table, type, data);
}
