package org.offlink.bridge.mkoffload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperMode;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

class MkoffloadTest {
  @TempDir Path dir;

  @Test
  void hostCompileArgvIsGcc12s() throws Exception {
    // Observed in GCC 12's x_nv.xnvptx-none.gccnative_args (reference §3.5).
    OffloadOptions options =
        OffloadOptions.parse(
            List.of(
                "-save-temps",
                "-v",
                "-o",
                "./x_nv.xnvptx-none.o",
                "x_nv-x.o",
                "-fno-openacc",
                "-fPIC",
                "-foffload-abi=lp64",
                "-fopenmp",
                "-dumpbase",
                "./x_nv.xnvptx-none"));
    Command c =
        Mkoffload.hostCompileCommand(
            "gcc", options, Map.of(), dir, "./x_nv.xnvptx-none.c", "./x_nv.xnvptx-none.o");
    assertEquals(
        List.of(
            "gcc",
            "-fPIC",
            "-save-temps",
            "-v",
            "-dumpdir",
            "",
            "-dumpbase",
            "./x_nv.xnvptx-none.c",
            "-dumpbase-ext",
            ".c",
            "-m64",
            "./x_nv.xnvptx-none.c",
            "-c",
            "-o",
            "./x_nv.xnvptx-none.o"),
        c.argv());
    assertEquals(".gccnative_args", c.responseFileSuffix().orElseThrow());
  }

  @Test
  void atomicWriteLeavesOnlyTheResult() throws IOException {
    Path out = dir.resolve("w.o");
    Mkoffload.writeAtomically(LinkScope.withUmask(022), out, new byte[] {1, 2, 3});
    Mkoffload.writeAtomically(LinkScope.withUmask(022), out, new byte[] {4, 5});
    assertArrayEquals(new byte[] {4, 5}, Files.readAllBytes(out));
    try (var files = Files.list(dir)) {
      assertEquals(List.of(out), files.toList());
    }
  }

  @Test
  void unwritableOutputDirectoryNamesTheFile() throws IOException {
    Path ro = Files.createDirectory(dir.resolve("ro"));
    Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("r-xr-xr-x"));
    Path out = ro.resolve("w.o");
    try {
      if (Files.isWritable(ro)) {
        // root ignores permission bits: a missing directory gives the same error path.
        out = dir.resolve("missing").resolve("w.o");
      }
      Path target = out;
      IOException e =
          assertThrows(
              IOException.class,
              () -> Mkoffload.writeAtomically(LinkScope.withUmask(022), target, new byte[1]));
      assertTrue(e.getMessage().contains(target.toString()), e.getMessage());
      String reason =
          Files.isWritable(ro) ? "No such file or directory" : "Permission denied"; // the OS's
      assertTrue(e.getMessage().endsWith("': " + reason), e.getMessage());
    } finally {
      Files.setPosixFilePermissions(ro, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void missingOutputIsAFatalError() throws Exception {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    LinkContext ctx =
        LinkContext.of(
            Map.of("COLLECT_GCC", "gcc"),
            dir,
            java.io.InputStream.nullInputStream(),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            LinkScope.withUmask(022));
    int status =
        new Mkoffload(ctx)
            .run(
                new MkoffloadRequest(
                    OffloadTarget.NVPTX,
                    OffloadOptions.parse(
                        List.of("-fopenmp", "-foffload-abi=lp64", "-dumpbase", "x", "in.o")),
                    WrapperMode.ELF,
                    false,
                    java.util.Optional.empty(),
                    org.offlink.bridge.nvptx.PtxLinking.NONE))
            .status();
    assertEquals(1, status);
    assertEquals(
        "mkoffload: fatal error: missing output file ('-o')\ncompilation terminated.\n",
        err.toString(StandardCharsets.UTF_8));
  }
}
