#include <stdint.h>

static const char ptx_code_0[] =
	"// BEGIN PREAMBLE\n"
	".version 6.0\n"
	".target sm_30\n"
	".address_size 64\n"
	"// END PREAMBLE\n"
	"\n"
	"// BEGIN GLOBAL FUNCTION DECL: foo\n"
	".visible .func (.param .u32 %value_out) foo (.param .u32 %in_ar0);\n"
	"\n"
	"// BEGIN GLOBAL FUNCTION DECL: main$_omp_fn$1$nohost\n"
	".visible .func main$_omp_fn$1$nohost (.param .u64 %in_ar0);\n"
	"\n"
	"// BEGIN GLOBAL FUNCTION DECL: main$_omp_fn$0\n"
	".visible .entry main$_omp_fn$0 (.param .u64 %in_ar0);\n"
	"\n"
	"// BEGIN GLOBAL VAR DEF: gvar\n"
	".visible .global .align 4 .u32 gvar[4];\n"
	"\n"
	"// BEGIN GLOBAL FUNCTION DEF: main$_omp_fn$0\n"
	".visible .entry main$_omp_fn$0 (.param .u64 %in_ar0)\n"
	"{\n"
	"	ret;\n"
	"}\n"
	"";

static const char ptx_code_1[] =
	"// BEGIN PREAMBLE\n"
	".version 6.0\n"
	".target sm_30\n"
	".address_size 64\n"
	"// END PREAMBLE\n"
	"\n"
	"// BEGIN GLOBAL FUNCTION DEF: GOMP_dummy\n"
	".visible .func GOMP_dummy\n"
	"{\n"
	"	ret;\n"
	"}\n"
	"";

static const struct ptx_obj {
  const char *code;
  __SIZE_TYPE__ size;
} ptx_objs[] = {
	{ptx_code_0, sizeof (ptx_code_0)},
	{ptx_code_1, sizeof (ptx_code_1)}
};

static const char *const var_mappings[] = {
	"gvar"
};

static const struct nvptx_fn {
  const char *name;
  unsigned short dim[3];
} func_mappings[] = {

	{"main$_omp_fn$0"},
	{"main$_omp_fn$1$nohost", 0x20, 0x1, 0x40}
};

static const struct nvptx_data {
  uintptr_t omp_requires_mask;
  const struct ptx_obj *ptx_objs;
  unsigned ptx_num;
  const char *const *var_names;
  unsigned var_num;
  const struct nvptx_fn *fn_names;
  unsigned fn_num;
} nvptx_data = {
  0, ptx_objs, sizeof (ptx_objs) / sizeof (ptx_objs[0]),
  var_mappings,  sizeof (var_mappings) / sizeof (var_mappings[0]),
  func_mappings,  sizeof (func_mappings) / sizeof (func_mappings[0])
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
  GOMP_offload_register_ver (0x20001, __OFFLOAD_TABLE__, 5/*NVIDIA_PTX*/, &nvptx_data);
};
static __attribute__((destructor)) void fini (void)
{
  GOMP_offload_unregister_ver (0x20001, __OFFLOAD_TABLE__, 5/*NVIDIA_PTX*/, &nvptx_data);
};
