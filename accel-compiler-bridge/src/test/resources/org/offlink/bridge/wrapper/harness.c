/* Test stand-in for libgomp: prints every field a wrapper object registers. */
#include <stdio.h>

struct ptx_obj { const char *code; __SIZE_TYPE__ size; };
struct nvptx_fn { const char *name; unsigned short dim[3]; };
struct nvptx_tdata {
  const struct ptx_obj *ptx_objs; unsigned ptx_num;
  const char *const *var_names; unsigned var_num;
  const struct nvptx_fn *fn_names; unsigned fn_num;
};
struct gcn_image { __SIZE_TYPE__ size; void *image; };
struct hsa_kernel_description {
  const char *name; int oacc_dims[3]; int sgpr_count; int vgpr_count;
};
struct gcn_image_desc {
  const struct gcn_image *gcn_image; unsigned kernel_count;
  const struct hsa_kernel_description *kernel_infos; unsigned global_variable_count;
};
/* GCC 14+ (library version 3): ind_func_count inserted before global_variable_count. */
struct gcn_image_desc3 {
  const struct gcn_image *gcn_image; unsigned kernel_count;
  const struct hsa_kernel_description *kernel_infos; unsigned ind_func_count;
  unsigned global_variable_count;
};

static void bytes(const unsigned char *p, unsigned long n) {
  for (unsigned long i = 0; i < n; i++) printf("%02x", p[i]);
  printf("\n");
}

static void dump(const char *what, unsigned version, const void *table, int type,
                 const void *data) {
  const void *const *t = table;
  printf("%s version=%#x type=%d table=%lx,%lx,%lx,%lx\n", what, version, type,
         (unsigned long) t[0], (unsigned long) t[1], (unsigned long) t[2], (unsigned long) t[3]);
  unsigned lib = version >> 16;
  if (lib > 1) {
    /* As libgomp 13+ reads it: the requires mask first, the target data after it. */
    printf("requires_mask=%lu\n", (unsigned long) *(const __UINTPTR_TYPE__ *) data);
    data = (const void *const *) data + 1;
  }
  if (type == 5) {
    const struct nvptx_tdata *d = data;
    printf("ptx_num=%u\n", d->ptx_num);
    for (unsigned i = 0; i < d->ptx_num; i++) {
      printf("ptx %u size=%lu bytes=", i, (unsigned long) d->ptx_objs[i].size);
      bytes((const unsigned char *) d->ptx_objs[i].code, d->ptx_objs[i].size);
    }
    printf("var_num=%u\n", d->var_num);
    for (unsigned i = 0; i < d->var_num; i++) printf("var %u %s\n", i, d->var_names[i]);
    printf("fn_num=%u\n", d->fn_num);
    for (unsigned i = 0; i < d->fn_num; i++)
      printf("fn %u %s %u %u %u\n", i, d->fn_names[i].name, d->fn_names[i].dim[0],
             d->fn_names[i].dim[1], d->fn_names[i].dim[2]);
  } else if (type == 8) {
    const struct gcn_image_desc *d = data;
    printf("image size=%lu bytes=", (unsigned long) d->gcn_image->size);
    bytes(d->gcn_image->image, d->gcn_image->size);
    printf("kernel_count=%u\n", d->kernel_count);
    for (unsigned i = 0; i < d->kernel_count; i++) {
      const struct hsa_kernel_description *k = &d->kernel_infos[i];
      printf("kernel %u %s %d %d %d sgpr=%d vgpr=%d\n", i, k->name, k->oacc_dims[0],
             k->oacc_dims[1], k->oacc_dims[2], k->sgpr_count, k->vgpr_count);
    }
    if (lib >= 3) {
      const struct gcn_image_desc3 *d3 = data;
      printf("ind_func_count=%u\n", d3->ind_func_count);
      printf("global_variable_count=%u\n", d3->global_variable_count);
    } else {
      printf("global_variable_count=%u\n", d->global_variable_count);
    }
  }
  fflush(stdout);
}

void GOMP_offload_register_ver(unsigned v, const void *t, int type, const void *d) {
  dump("register", v, t, type, d);
}

void GOMP_offload_unregister_ver(unsigned v, const void *t, int type, const void *d) {
  dump("unregister", v, t, type, d);
}

int main(void) {
  printf("main\n");
  return 0;
}
