static const int gcn_num_vars = 0;

static const int gcn_num_ind_funcs = 0;

static const struct hsa_kernel_description {
  const char *name;
  int oacc_dims[3];
  int sgpr_count;
  int vgpr_count;
} gcn_kernels[] = {
  {"_init_array", {0, 0, 0}, 0, 0},
  {"_fini_array", {0, 0, 0}, 0, 0},
  {"main._omp_fn.0", {0, 0, 0}, 62, 48}
};

static void
mkoffload_setup (void)
{}

static unsigned char gcn_code[] = {
#embed "./prog.xamdgcn-amdhsa.mkoffload.hsaco" if_empty (error_file_is_empty)
};

static const struct gcn_image {
  __SIZE_TYPE__ size;
  void *image;
} gcn_image = {
  sizeof(gcn_code),
  gcn_code
};

static const struct gcn_data {
  __UINTPTR_TYPE__ omp_requires_mask;
  const struct gcn_image *gcn_image;
  unsigned kernel_count;
  const struct hsa_kernel_description *kernel_infos;
  unsigned ind_func_count;
  unsigned global_variable_count;
} gcn_data = {
  512,
  &gcn_image,
  sizeof (gcn_kernels) / sizeof (gcn_kernels[0]),
  gcn_kernels,
  gcn_num_ind_funcs,
  gcn_num_vars
};

#ifdef __cplusplus
extern "C" {
#endif
extern void GOMP_offload_register_ver (unsigned, const void *, int, const void *);
extern void GOMP_offload_unregister_ver (unsigned, const void *, int, const void *);
#ifdef __cplusplus
}
#endif

extern const void *const __OFFLOAD_TABLE__[];

static __attribute__((constructor)) void init (void)
{
  mkoffload_setup ();
  GOMP_offload_register_ver (0x30003, __OFFLOAD_TABLE__, 8/*GCN*/, &gcn_data);
};
static __attribute__((destructor)) void fini (void)
{
  GOMP_offload_unregister_ver (0x30003, __OFFLOAD_TABLE__, 8/*GCN*/, &gcn_data);
};
