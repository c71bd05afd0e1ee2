package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.OptsSectionName;

/**
 * With {@code OFFLINK_PARALLEL_OFFLOAD=1} images build concurrently with each other and with host
 * WPA/LTRANS, yet stdout keeps GCC's order.
 */
class ParallelOffloadTest {
  @TempDir Path dir;

  @Test
  void stdoutOrderIsGccsWhateverTheCompletionOrder() throws Exception {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-o' 'x' '-dumpdir' 'x.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none:amdgcn-amdhsa");
    h.mkoffload("gcc", "nvptx-none");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "amdgcn-amdhsa"));
    Files.createDirectories(dir.resolve("lib"));
    Files.writeString(dir.resolve("lib/crtoffloadtable.o"), "table");
    h.env.put("LIBRARY_PATH", dir.resolve("lib").toString());
    h.env.put("OFFLINK_PARALLEL_OFFLOAD", "1");
    h.object("x.o", OptsSectionName.OFFLOAD, "'-fopenmp' '-foffload-abi=lp64'");
    h.object("x.o", OptsSectionName.HOST_LTO, "'-fopenmp' '-flto=2' '-O2'");
    h.write("x.ofldlist", "1\nx.o\n");
    // nvptx waits until both amdgcn and the host LTRANS jobs have finished.
    CountDownLatch others = new CountDownLatch(2);
    FakeProcessRunner.Handler produce = LtoWrapperGoldenTest.produce(1);
    FakeProcessRunner.Handler handler =
        (argv, cwd) -> {
          if (argv.get(0).contains("nvptx-none")) {
            assertTrue(others.await(10, TimeUnit.SECONDS), "amdgcn and LTRANS ran meanwhile");
          }
          int status = produce.handle(argv, cwd);
          if (argv.get(0).contains("amdgcn") || argv.contains("-fltrans")) {
            others.countDown();
          }
          return status;
        };
    assertEquals(0, h.run(handler, "-foffload-objects=x.ofldlist", "x.o"), h.err());
    List<String> lines =
        List.of(h.out.toString(java.nio.charset.StandardCharsets.UTF_8).split("\n"));
    assertEquals(4, lines.size(), h.out());
    assertTrue(lines.get(0).endsWith(".crtoffloadtable.o"));
    assertTrue(lines.get(1).endsWith(".target.o"));
    assertTrue(lines.get(2).endsWith(".target.o"));
    assertEquals("./xl.ltrans0.ltrans.o", lines.get(3)); // named by the fake WPA
    int nv = indexOf(h, "nvptx-none");
    int amd = indexOf(h, "amdgcn-amdhsa");
    assertTrue(nv >= 0 && amd >= 0);
    assertTrue(
        h.runner.commands.get(nv).contains(lines.get(1)), "nvptx image printed first: " + lines);
    assertTrue(h.runner.commands.get(amd).contains(lines.get(2)));
    assertEquals(
        3, dir.resolve("tmp").toFile().list().length, "rsp files removed; table + 2 images left");
  }

  private static int indexOf(Harness h, String target) {
    for (int i = 0; i < h.runner.commands.size(); i++) {
      if (h.runner.commands.get(i).get(0).contains(target)) {
        return i;
      }
    }
    return -1;
  }
}
