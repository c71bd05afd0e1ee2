package org.offlink.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import org.offlink.bridge.doctor.DoctorSettings;
import org.offlink.bridge.doctor.JvmFacts;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.FakeProcessRunner;

/**
 * A fake Debian GCC 12 offload installation under a temporary root: {@code bin/} on PATH with empty
 * executables, the accel library directories with relative {@code as}/{@code ld} links, the libgomp
 * plugins, and a runner answering {@code gcc-12 -v} and ptxas like the real tools.
 */
final class FakeToolchainTree {
  static final String GCC_V =
      """
      Using built-in specs.
      COLLECT_GCC=gcc-12
      OFFLOAD_TARGET_NAMES=nvptx-none:amdgcn-amdhsa
      OFFLOAD_TARGET_DEFAULT=1
      Target: x86_64-linux-gnu
      Configured with: ../src/configure --enable-offload-targets=nvptx-none=/x,amdgcn-amdhsa=/y
      gcc version 12.2.0 (Debian 12.2.0-14+deb12u1)
      """;

  final Path root;
  final Path bin;
  final Path lib;
  boolean ptxasRejects = true;
  String gccV = GCC_V;

  FakeToolchainTree(Path root) throws IOException {
    this.root = root;
    this.bin = Files.createDirectories(root.resolve("usr/bin"));
    this.lib = Files.createDirectories(root.resolve("usr/lib/gcc/x86_64-linux-gnu/12"));
  }

  /** Everything a healthy installation has. */
  FakeToolchainTree complete() throws IOException {
    for (String tool :
        new String[] {
          "gcc-12",
          "x86_64-linux-gnu-accel-nvptx-none-gcc-12",
          "x86_64-linux-gnu-accel-amdgcn-amdhsa-gcc-12",
          "nvptx-none-as",
          "nvptx-none-ld"
        }) {
      executable(bin.resolve(tool));
    }
    Path llvm = Files.createDirectories(root.resolve("usr/lib/llvm-13/bin"));
    executable(llvm.resolve("llvm-mc"));
    executable(llvm.resolve("lld"));
    for (String target : new String[] {"nvptx-none", "amdgcn-amdhsa"}) {
      Path accel = Files.createDirectories(lib.resolve("accel/" + target));
      executable(accel.resolve("mkoffload"));
    }
    Path gcn = lib.resolve("accel/amdgcn-amdhsa");
    Files.createSymbolicLink(gcn.resolve("as"), Path.of("../../../../../llvm-13/bin/llvm-mc"));
    Files.createSymbolicLink(gcn.resolve("ld"), Path.of("../../../../../llvm-13/bin/lld"));
    Path nv = lib.resolve("accel/nvptx-none");
    Files.createSymbolicLink(nv.resolve("as"), Path.of("../../../../../../bin/nvptx-none-as"));
    Path plugins = Files.createDirectories(root.resolve("usr/lib/x86_64-linux-gnu"));
    Files.writeString(plugins.resolve("libgomp-plugin-nvptx.so.1"), "");
    Files.writeString(plugins.resolve("libgomp-plugin-gcn.so.1"), "");
    return this;
  }

  /** Puts a ptxas into {@code <root>/usr/local/bin}, which {@link #path()} lists first. */
  FakeToolchainTree withPtxas(boolean rejects) throws IOException {
    executable(Files.createDirectories(root.resolve("usr/local/bin")).resolve("ptxas"));
    ptxasRejects = rejects;
    return this;
  }

  String path() {
    return root.resolve("usr/local/bin") + ":" + bin;
  }

  Map<String, String> environment() {
    return Map.of("PATH", path(), "TMPDIR", root.toString());
  }

  FakeProcessRunner runner() {
    return new FakeProcessRunner(this::answer);
  }

  private CommandResult answer(Command c) {
    String program = Path.of(c.program()).getFileName().toString();
    if (program.equals("gcc-12")) {
      return new CommandResult(c.argv(), 0, "", gccV, Duration.ZERO);
    }
    if (program.equals("ptxas") && c.argv().contains("--version")) {
      return FakeProcessRunner.ok(c, "Cuda compilation tools, release 13.0, V13.0.88\n");
    }
    if (program.equals("ptxas")) {
      return ptxasRejects
          ? FakeProcessRunner.failed(c, 255, "ptxas fatal   : Value 'sm_30' is not defined")
          : FakeProcessRunner.ok(c, "");
    }
    return FakeProcessRunner.failed(c, 127, "unexpected " + c.argv());
  }

  DoctorSettings settings() {
    return new DoctorSettings(
        root,
        org.offlink.runtime.LinkContext.of(
            environment(),
            root,
            java.io.InputStream.nullInputStream(),
            System.out,
            System.err,
            org.offlink.runtime.LinkScope.withUmask(022)),
        runner(),
        new JvmFacts("/jdk", "17.0.15", "/opt/offlink/lib/cds/jdk.jsa"));
  }

  private static void executable(Path p) throws IOException {
    Files.writeString(p, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
