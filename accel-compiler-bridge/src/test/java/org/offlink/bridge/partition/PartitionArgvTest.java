package org.offlink.bridge.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionArgvTest {
  /** GCC 12 nvptx mkoffload's accel argv (reference §3.3), three inputs. */
  private static final List<String> WHOLE =
      List.of(
          "x86_64-linux-gnu-accel-nvptx-none-gcc-12",
          "-xlto",
          "-m64",
          "-mgomp",
          "a.o",
          "lib.a@0x53c",
          "c.o",
          "-fno-openacc",
          "-foffload-abi=lp64",
          "-fopenmp",
          "-dumpbase",
          "./p.xnvptx-none",
          "-lm",
          "-dumpdir",
          "",
          "-dumpbase",
          "./p.xnvptx-none.mkoffload",
          "-dumpbase-ext",
          "",
          "-o",
          "/tmp/ccA.mkoffload");

  @Test
  void aPartitionCompileKeepsEveryOptionAndTakesItsOwnInputs() {
    assertEquals(
        List.of(
            "x86_64-linux-gnu-accel-nvptx-none-gcc-12",
            "-c",
            "-xlto",
            "-m64",
            "-mgomp",
            "lib.a@0x53c",
            "c.o",
            "-fno-openacc",
            "-foffload-abi=lp64",
            "-fopenmp",
            "-dumpbase",
            "D",
            "-lm",
            "-dumpdir",
            "",
            "-dumpbase",
            "D",
            "-dumpbase-ext",
            "",
            "-o",
            "OUT"),
        PartitionArgv.compile(WHOLE, "-c", List.of("lib.a@0x53c", "c.o"), "D", "OUT"));
  }

  @Test
  void theLinkTakesTheObjectsAsObjects() {
    List<String> link = PartitionArgv.link(WHOLE, List.of("p0.o", "p1.o"));
    assertEquals(
        List.of(
            "x86_64-linux-gnu-accel-nvptx-none-gcc-12",
            "-m64",
            "-mgomp",
            "p0.o",
            "p1.o",
            "-fno-openacc",
            "-foffload-abi=lp64",
            "-fopenmp",
            "-dumpbase",
            "./p.xnvptx-none",
            "-lm",
            "-dumpdir",
            "",
            "-dumpbase",
            "./p.xnvptx-none.mkoffload",
            "-dumpbase-ext",
            "",
            "-o",
            "/tmp/ccA.mkoffload"),
        link);
    assertEquals("label", PartitionArgv.labelled("label", link).get(0));
  }
}
