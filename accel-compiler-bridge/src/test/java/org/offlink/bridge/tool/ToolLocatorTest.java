package org.offlink.bridge.tool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ToolLocatorTest {
  @TempDir Path dir;

  private Path exe(Path d, String name) throws Exception {
    Files.createDirectories(d);
    Path p = Files.writeString(d.resolve(name), "#!/bin/sh\n");
    p.toFile().setExecutable(true);
    return p;
  }

  @Test
  void accelDriverNextToCollectGccThenCompilerPath() throws Exception {
    Path bin = dir.resolve("bin");
    Path cp = dir.resolve("cp");
    exe(bin, "gcc");
    Path inCp = exe(cp, "x-accel-nvptx-none-gcc-12");
    Map<String, String> env =
        Map.of("COLLECT_GCC", bin.resolve("gcc").toString(), "COMPILER_PATH", cp.toString());
    ResolvedTool t = new ToolLocator(env, dir).findAccelCompiler("x-accel-nvptx-none-gcc-12", "p");
    assertEquals(inCp, t.path());
    Path nextTo = exe(bin, "x-accel-nvptx-none-gcc-12");
    t = new ToolLocator(env, dir).findAccelCompiler("x-accel-nvptx-none-gcc-12", "p");
    assertEquals(nextTo, t.path());
  }

  @Test
  void bareCollectGccKeepsBareNameAndUsesPath() throws Exception {
    Path bin = dir.resolve("bin");
    Path p = exe(bin, "x-accel-amdgcn-amdhsa-gcc-12");
    Map<String, String> env = Map.of("COLLECT_GCC", "gcc", "PATH", "/nonexistent:" + bin);
    ResolvedTool t =
        new ToolLocator(env, dir).findAccelCompiler("x-accel-amdgcn-amdhsa-gcc-12", "");
    assertEquals("x-accel-amdgcn-amdhsa-gcc-12", t.argv0());
    assertEquals(p, t.path());
  }

  @Test
  void missListsDirectoriesAndPackage() {
    Map<String, String> env = Map.of("COLLECT_GCC", "/opt/g/bin/gcc", "COMPILER_PATH", "/a:/b");
    String name = "x86_64-linux-gnu-accel-nvptx-none-gcc-12";
    ToolNotFoundException e =
        assertThrows(
            ToolNotFoundException.class,
            () -> new ToolLocator(env, dir).findAccelCompiler(name, DebianPackages.forTool(name)));
    assertEquals(List.of(Path.of("/opt/g/bin"), Path.of("/a"), Path.of("/b")), e.searched());
    assertEquals(
        "could not find "
            + name
            + " (searched /opt/g/bin:/a:/b); it is in the Debian package"
            + " gcc-12-offload-nvptx",
        e.getMessage());
  }

  @Test
  void missWithoutCompilerPathDoesNotCrash() {
    // GCC 12 dereferences a NULL COMPILER_PATH here (SIGSEGV); we report the miss
    Map<String, String> env = Map.of("COLLECT_GCC", "/opt/g/bin/gcc");
    ToolNotFoundException e =
        assertThrows(
            ToolNotFoundException.class,
            () -> new ToolLocator(env, dir).findAccelCompiler("y-accel-amdgcn-amdhsa-gcc-12", "z"));
    assertEquals(List.of(Path.of("/opt/g/bin")), e.searched());
  }

  @Test
  void generalToolSearchOrderAndPackages() throws Exception {
    Path a = dir.resolve("a");
    Path b = dir.resolve("b");
    exe(b, "nvptx-none-as");
    Path first = exe(a, "nvptx-none-as");
    Map<String, String> env = Map.of("COMPILER_PATH", a.toString(), "PATH", b.toString());
    assertEquals(first, new ToolLocator(env, dir).find("nvptx-none-as").path());
    ToolNotFoundException e =
        assertThrows(ToolNotFoundException.class, () -> new ToolLocator(env, dir).find("llvm-mc"));
    assertTrue(e.getMessage().endsWith("llvm-13"), e.getMessage());
    assertEquals(List.of(a, b), e.searched());
    assertEquals(
        "gcc-12-offload-amdgcn",
        DebianPackages.forTool("x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-12"));
    assertEquals("nvptx-tools", DebianPackages.forTool("nvptx-none-as"));
    assertEquals("", DebianPackages.forTool("frobnicate"));
  }
}
