package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.offlink.it.RegistrationAssertions.assertBuilt;
import static org.offlink.it.RegistrationAssertions.assertSameBehaviour;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.offlink.bridge.process.CommandResult;

/**
 * {@code offlink mkoffload} without a driver (issue 17): on the objects of a corpus program built
 * by stock GCC 12, {@code offlink mkoffload --target T OBJECTS -o wrapper.o} writes a wrapper
 * object; the program is then linked by stock gcc and stock lto-wrapper with an {@code
 * accel/T/mkoffload} that only copies that object to its {@code -o}, and the spy must see the same
 * registrations, output and exit status as the stock link's, for both targets.
 */
class StandaloneMkoffloadIT {
  @TempDir static Path scratch;
  private static Toolchain toolchain;

  @BeforeAll
  static void setUp() throws IOException {
    toolchain = Toolchain.create(scratch);
  }

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    for (String name : List.of("c_target_scalar", "c_declare_target_tus", "cpp_templates")) {
      cases.add(Arguments.of(name, TargetSet.NVPTX));
      cases.add(Arguments.of(name, TargetSet.gcn("gfx906")));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0} [{1}]")
  @MethodSource("cases")
  void standaloneWrapperRegistersAsTheStockLink(String name, TargetSet targets) throws IOException {
    CorpusProgram program = Corpus.program(name);
    Path stockWork = Files.createDirectories(scratch.resolve(name + "-" + targets + "-stock"));
    BuildResult stock = toolchain.build(program, targets, ToolDir.stock(), stockWork);
    assertBuilt(stock);
    RunResult stockRun = toolchain.run(stock);

    OffloadTarget target = targets.targets().get(0);
    Path wrapper = scratch.resolve(name + "-" + targets + "-wrapper.o");
    List<String> argv =
        new ArrayList<>(
            List.of(
                Toolchain.offlinkDist().resolve("bin/offlink").toString(),
                "mkoffload",
                "--gcc",
                program.language().driver(),
                "--target",
                target.triple()));
    targets.gcnArch().ifPresent(a -> argv.add("-march=" + a));
    argv.addAll(program.model().flags());
    argv.addAll(program.flags());
    for (String s : program.sources()) {
      argv.add(s.substring(0, s.lastIndexOf('.')) + ".o");
    }
    argv.addAll(List.of("-o", wrapper.toString()));
    CommandResult made =
        toolchain.step(
            argv,
            ToolDir.stock()
                .withEnvironment(
                    "OFFLINK_JAVA",
                    Path.of(System.getProperty("java.home"), "bin", "java").toString()),
            stockWork);
    assertEquals(0, made.exitStatus(), made.stderr());
    assertTrue(
        made.stderr().contains("/accel/" + target.triple() + "/mkoffload -o "), made.stderr());
    assertTrue(Files.size(wrapper) > 0);

    Path tools = scratch.resolve(name + "-" + targets + "-tools");
    ToolDir copying =
        new ToolDirBuilder(tools, toolchain.stockLibexec(), "copy standalone wrapper")
            .passThroughLtoWrapper()
            .build();
    Path mkoffload = Files.createDirectories(tools.resolve("accel/" + target.triple()));
    writeCopyingMkoffload(mkoffload.resolve("mkoffload"), wrapper);
    Path ourWork = Files.createDirectories(scratch.resolve(name + "-" + targets + "-standalone"));
    BuildResult ours = toolchain.build(program, targets, copying, ourWork);
    assertBuilt(ours);
    assertSameBehaviour(stockRun, toolchain.run(ours));
  }

  /** An accel/T/mkoffload that copies {@code wrapper} to its {@code -o} argument, nothing else. */
  private static void writeCopyingMkoffload(Path file, Path wrapper) throws IOException {
    String script =
        String.join(
            "\n",
            "#!/bin/sh",
            "# GCC's lto-wrapper passes mkoffload's arguments in a response file (no spaces here).",
            "for a in \"$@\"; do case $a in @*) set -- $(cat \"${a#@}\") ;; esac; done",
            "while [ $# -gt 1 ]; do",
            "  if [ \"$1\" = -o ]; then exec cp '" + wrapper + "' \"$2\"; fi",
            "  shift",
            "done",
            "exit 1",
            "");
    Files.writeString(file, script);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }
}
