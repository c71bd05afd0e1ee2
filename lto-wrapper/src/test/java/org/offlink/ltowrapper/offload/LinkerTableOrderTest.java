package org.offlink.ltowrapper.offload;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.OptionDecoder;
import org.offlink.ltowrapper.run.LtoWrapperException;

class LinkerTableOrderTest {
  /** COLLECT_GCC_OPTIONS as lto-wrapper decodes them (after the driver name). */
  private static List<DecodedOption> link(String... options) {
    List<String> argv = new java.util.ArrayList<>(List.of("gcc"));
    argv.addAll(List.of(options));
    return OptionDecoder.decode(argv);
  }

  /** ltrans 0 holds 2 functions and 1 variable (8-byte entries, 16 per variable); 1 holds none. */
  private static final Map<String, ObjectScan.TableSections> TABLES =
      Map.of(
          "p.ltrans0.ltrans.o", new ObjectScan.TableSections(16, 16, true),
          "p.ltrans1.ltrans.o", new ObjectScan.TableSections(0, 0, true));

  private static void check(List<DecodedOption> options, List<String> ltrans) {
    LinkerTableOrder.check(options, ltrans, n -> Optional.ofNullable(TABLES.get(n)));
  }

  @Test
  void theLastFuseLdOrLdPathNamesTheLinker() {
    assertEquals(Optional.empty(), LinkerTableOrder.linker(link("-O2", "-fopenmp")));
    assertEquals(
        Optional.of("mold"), LinkerTableOrder.linker(link("-fuse-ld=gold", "-fuse-ld=mold")));
    assertEquals(
        Optional.of("ld.mold"),
        LinkerTableOrder.linker(link("-fuse-ld=bfd", "--ld-path=/opt/mold/bin/ld.mold")));
    assertTrue(LinkerTableOrder.isMold("ld.mold"));
    assertTrue(LinkerTableOrder.isMold("x86_64-linux-gnu-mold"));
  }

  @Test
  void moldWithLtransTableEntriesFailsNamingTheWorkarounds() {
    List<String> ltrans = List.of("p.ltrans0.ltrans.o", "p.ltrans1.ltrans.o");
    LtoWrapperException e =
        assertThrows(LtoWrapperException.class, () -> check(link("-fuse-ld=mold"), ltrans));
    assertTrue(
        e.getMessage()
            .startsWith(
                "-fuse-ld=mold breaks the offload tables of this -flto link: mold places the 1"
                    + " LTRANS object(s)"),
        e.getMessage());
    assertTrue(e.getMessage().contains("-fuse-ld=bfd or -fuse-ld=gold"), e.getMessage());
  }

  @Test
  void otherLinkersAndTablesOutsideLtransArePassed() {
    List<String> ltrans = List.of("p.ltrans0.ltrans.o");
    for (String linker : List.of("-fuse-ld=bfd", "-fuse-ld=gold", "-O2")) {
      assertDoesNotThrow(() -> check(link(linker), ltrans), linker);
    }
    // mold without host LTO, or LTRANS objects without table entries: nothing to break.
    assertDoesNotThrow(() -> check(link("-fuse-ld=mold"), List.of()));
    assertDoesNotThrow(() -> check(link("-fuse-ld=mold"), List.of("p.ltrans1.ltrans.o")));
    assertDoesNotThrow(() -> check(link("-fuse-ld=mold"), List.of("missing.o")));
  }
}
