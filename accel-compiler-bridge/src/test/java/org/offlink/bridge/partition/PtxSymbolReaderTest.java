package org.offlink.bridge.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.partition.PartitionSymbols.Linkage;

class PtxSymbolReaderTest {
  /** Trimmed from GCC 12's nvptx -c output of a unit (markers, entries, maps as GCC writes). */
  private static final String PTX =
      """
      // BEGIN PREAMBLE
      .version 6.0
      .target sm_30
      .address_size 64
      // BEGIN FUNCTION DECL: run_a$_omp_fn$0$impl
      .func run_a$_omp_fn$0$impl (.param .u64 %in_ar0);
      //:FUNC_MAP "run_a$_omp_fn$0"
      //:VAR_MAP "cnt"
      //:FUNC_MAP "acc$_omp_fn$1", 0x1, 0x20, 0x40
      // BEGIN GLOBAL FUNCTION DECL: gomp_nvptx_main
      .extern .func gomp_nvptx_main (.param .u64 %in_ar1, .param .u64 %in_ar2);
      // BEGIN GLOBAL FUNCTION DECL: shared_fn
      .extern .func (.param .u32 %value_out) shared_fn (.param .u32 %in_ar0);
      // BEGIN VAR DEF: cnt
      .global .align 4 .u32 cnt[1] = { 1 };
      // BEGIN GLOBAL VAR DEF: gvar
      .visible .global .align 4 .u32 gvar[1] = { 7 };
      // BEGIN GLOBAL FUNCTION DEF: _Z3maxii
      .weak .func (.param .u32 %value_out) _Z3maxii (.param .u32 %in_ar0, .param .u32 %in_ar1)
      {
      }
      .visible .entry run_a$_omp_fn$0 (.param .u64 %arg, .param .u64 %stack, .param .u64 %sz)
      {
      }
      // BEGIN FUNCTION DEF: run_a$_omp_fn$0$impl
      .func run_a$_omp_fn$0$impl (.param .u64 %in_ar0)
      {
      }
      """;

  @Test
  void readsDefinitionsMentionsAndRegisteredNames() {
    PartitionSymbols s = PtxSymbolReader.read(PTX.getBytes(StandardCharsets.ISO_8859_1));
    assertEquals(
        Map.of(
            "cnt", Linkage.LOCAL,
            "gvar", Linkage.GLOBAL,
            "_Z3maxii", Linkage.WEAK,
            "run_a$_omp_fn$0", Linkage.GLOBAL,
            "run_a$_omp_fn$0$impl", Linkage.LOCAL),
        s.defined());
    assertEquals(Set.of("gomp_nvptx_main", "shared_fn"), s.mentioned());
    assertEquals(Set.of("run_a$_omp_fn$0", "cnt", "acc$_omp_fn$1"), s.registered());
  }
}
