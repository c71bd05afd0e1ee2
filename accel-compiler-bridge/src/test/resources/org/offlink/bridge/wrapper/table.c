/* Stand-in for crtoffloadtable.o: a hidden table with recognisable entries. */
__attribute__((visibility("hidden"))) const void *const __OFFLOAD_TABLE__[] = {
  (const void *) 0x1111, (const void *) 0x2222, (const void *) 0x3333, (const void *) 0x4444
};
