package org.offlink.cli.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.ltowrapper.report.LinkReportWriter;
import org.offlink.ltowrapper.report.ReportFormat;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.reproduce.TarBundle;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.inspect.Sha256;

/**
 * A replay treats its bundle as data from a stranger (issue 27, items 1-3): the attacks of the
 * issue as bundles, each run through {@link BundleReader} and {@link Replay} with a runner that
 * only records what it was asked to run. A hostile variable or path is refused in one line naming
 * the entry, before anything is written; tools never come from the bundle; every file the link
 * reads or writes is inside the scratch folder.
 */
class ReplayTest {
  @TempDir Path dir;

  private final List<Command> ran = new ArrayList<>();
  private final ProcessRunner runner =
      command -> {
        ran.add(command);
        return new CommandResult(command.argv(), 0, "", "", Duration.ZERO);
      };
  private final Path libexec = Path.of("/new/libexec/offlink");
  private final Map<String, String> base =
      Map.of("PATH", "/usr/bin:/bin", "HOME", "/home/me", "JAVA_HOME", "/usr/lib/jvm/mine");

  /** The bundle of an honest link in /w, as lto-wrapper writes it, with {@code edit} applied. */
  private Path bundle(String name, Consumer<ReproducerManifest.Builder> edit) throws IOException {
    return bundle(name, edit, new TarBundle());
  }

  private Path bundle(String name, Consumer<ReproducerManifest.Builder> edit, TarBundle tar)
      throws IOException {
    ReproducerManifest.Builder m =
        ReproducerManifest.newBuilder()
            .setSchemaVersion(1)
            .setWorkingDirectory("/w")
            .setArgv0("/old/libexec/offlink/lto-wrapper")
            .setOfflinkLibexec("/old/libexec/offlink")
            .addAllExpandedArgs(
                List.of(
                    "-fresolution=/tmp/cc.res",
                    "-flinker-output=pie",
                    "-foffload-objects=/tmp/cc.ofldlist"))
            .addEnvironment(variable("COLLECT_GCC", "gcc"))
            .addEnvironment(
                variable("COLLECT_GCC_OPTIONS", "'-fopenmp' '-B' '/old/libexec/offlink/' '-o' 'p'"))
            .addEnvironment(variable("COMPILER_PATH", "/old/libexec/offlink/:/usr/lib/"))
            .addEnvironment(variable("OFFLOAD_TARGET_NAMES", "nvptx-none"))
            .addEnvironment(variable("PATH", "/usr/sbin:/usr/bin"));
    add(m, tar, name, "/w/x.o", "offload-object", "object bytes");
    add(m, tar, name, "/tmp/cc.ofldlist", "offload-list", "1\n/w/x.o\n");
    add(m, tar, name, "/tmp/cc.res", "resolution", "1\n/w/x.o 0\n");
    edit.accept(m);
    tar.put(name + "/manifest.json", TarBundle.Content.of(LinkReportWriter.json(m.build())));
    tar.put(
        name + "/report.json",
        TarBundle.Content.of(
            LinkReportWriter.encode(LinkReport.getDefaultInstance(), ReportFormat.JSON)));
    Path file = dir.resolve(name + ".tar");
    tar.write(LinkScope.withUmask(022), file);
    return file;
  }

  private static void add(
      ReproducerManifest.Builder m,
      TarBundle tar,
      String name,
      String path,
      String role,
      String text) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    m.addFiles(
        BundledFile.newBuilder()
            .setPath(path)
            .setSize(bytes.length)
            .setSha256(Sha256.hex(bytes))
            .setRole(role));
    tar.put(name + "/files" + path, TarBundle.Content.of(bytes));
  }

  private static EnvironmentVariable variable(String name, String value) {
    return EnvironmentVariable.newBuilder().setName(name).setValue(value).build();
  }

  private static void setVariable(ReproducerManifest.Builder m, String name, String value) {
    for (int i = 0; i < m.getEnvironmentCount(); i++) {
      if (m.getEnvironment(i).getName().equals(name)) {
        m.setEnvironment(i, variable(name, value));
        return;
      }
    }
    m.addEnvironment(variable(name, value));
  }

  private Path scratch() throws IOException {
    return ScratchFolders.create(Files.createDirectories(dir.resolve("tmp")), "offlink-replay-");
  }

  private Replay.Result replay(Path source) throws IOException {
    Path scratch = scratch();
    BundleReader.Bundle b = BundleReader.open(source, scratch.resolve("bundle"));
    return new Replay(runner, libexec, base).run(b, scratch.resolve("run"));
  }

  /** The refusal of {@code source}: one line naming {@code entry}; nothing ran. */
  private String refused(Path source, String entry) {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> replay(source));
    String m = e.getMessage();
    assertTrue(m.startsWith(source.toString()), m);
    assertTrue(m.contains(entry), m);
    assertFalse(m.contains("\n"), m);
    assertTrue(m.length() < 400, m);
    assertTrue(ran.isEmpty(), "nothing ran: " + ran);
    return m;
  }

  private Command only() {
    assertEquals(1, ran.size(), ran.toString());
    return ran.get(0);
  }

  @Test
  void anHonestBundleRunsThisTreesLtoWrapperInsideTheScratchFolder() throws IOException {
    replay(bundle("b", m -> {}));
    Command c = only();
    Path scratch = c.workingDirectory().getParent().getParent().getParent();
    assertEquals("/new/libexec/offlink/lto-wrapper", c.program());
    assertTrue(c.argv().get(3).startsWith("-foffload-objects=" + scratch), c.argv().toString());
    assertEquals("gcc", c.environment().get("COLLECT_GCC"));
    assertEquals(
        "'-fopenmp' '-B' '/new/libexec/offlink/' '-o' 'p'",
        c.environment().get("COLLECT_GCC_OPTIONS"));
    assertEquals("/new/libexec/offlink/:/usr/lib/", c.environment().get("COMPILER_PATH"));
    assertEquals("/usr/bin:/bin", c.environment().get("PATH"), "this machine's PATH");
    assertTrue(c.environment().get("OFFLINK_FLAGS").contains("--no-cache"));
    Path list = Path.of(c.argv().get(3).substring("-foffload-objects=".length()));
    assertEquals("1\n" + scratch.resolve("run/root/w/x.o") + "\n", Files.readString(list));
  }

  // Item 1: LD_PRELOAD and every other variable offlink does not record are refused.

  @Test
  void aLoaderVariableIsRefused() throws IOException {
    for (String name :
        List.of(
            "LD_PRELOAD",
            "LD_LIBRARY_PATH",
            "LD_AUDIT",
            "GCONV_PATH",
            "JAVA_TOOL_OPTIONS",
            "_JAVA_OPTIONS",
            "JDK_JAVA_OPTIONS",
            "MALLOC_CHECK_",
            "LOCPATH",
            "BASH_ENV")) {
      Path b =
          bundle(
              "b-" + name.toLowerCase(java.util.Locale.ROOT),
              m -> m.addEnvironment(variable(name, "/opt/e.so")));
      refused(b, name);
    }
  }

  @Test
  void recordedToolSettingsOfTheOtherMachineAreNotApplied() throws IOException {
    Path b =
        bundle(
            "b",
            m -> {
              setVariable(m, "JAVA_HOME", "/w/jdk");
              setVariable(m, "OFFLINK_JAVA", "/w/jdk/bin/java");
              setVariable(m, "GCC_EXEC_PREFIX", "/w/gcc/");
              setVariable(m, "OFFLINK_CALLER_LOCPATH", "/w/locale");
              setVariable(m, "OFFLINK_REMOTE_CACHE", "http://evil.example/");
              setVariable(m, "OFFLINK_REMOTE_CACHE_CREDENTIALS", "/home/me/.ssh/id_rsa");
              setVariable(m, "OFFLINK_CACHE_DIR", "/home/me/.cache/offlink");
              setVariable(m, "MAKEFLAGS", "-j4 --jobserver-auth=fifo:/tmp/GMfifo1");
            });
    Replay.Result r = replay(b);
    Map<String, String> env = only().environment();
    assertEquals("/usr/lib/jvm/mine", env.get("JAVA_HOME"));
    for (String name :
        List.of(
            "OFFLINK_JAVA",
            "GCC_EXEC_PREFIX",
            "OFFLINK_CALLER_LOCPATH",
            "OFFLINK_REMOTE_CACHE",
            "OFFLINK_REMOTE_CACHE_CREDENTIALS",
            "OFFLINK_CACHE_DIR")) {
      assertFalse(env.containsKey(name), name);
    }
    assertEquals("-j4", env.get("MAKEFLAGS"));
    assertTrue(r.notes().get(0).contains("JAVA_HOME"), r.notes().toString());
  }

  // Item 2: tools are this machine's, bundle files are never executable, in both forms.

  private Path bundleWithTools(String name) throws IOException {
    TarBundle tar = new TarBundle();
    byte[] script = "#!/bin/sh\ntouch PWNED\n".getBytes(StandardCharsets.UTF_8);
    tar.put(
        name + "/files/w/bin/x86_64-linux-gnu-accel-nvptx-none-gcc-12",
        TarBundle.Content.script(script));
    tar.put(name + "/files/w/tools/accel/nvptx-none/mkoffload", TarBundle.Content.script(script));
    return bundle(
        name,
        m -> {
          for (String p :
              List.of(
                  "/w/bin/x86_64-linux-gnu-accel-nvptx-none-gcc-12",
                  "/w/tools/accel/nvptx-none/mkoffload")) {
            m.addFiles(
                BundledFile.newBuilder()
                    .setPath(p)
                    .setSize(script.length)
                    .setSha256(Sha256.hex(script))
                    .setRole("input"));
          }
          setVariable(m, "PATH", "/w/bin:/usr/bin:/bin");
          setVariable(m, "COMPILER_PATH", "/w/tools/:bin/:/old/libexec/offlink/:/usr/");
          setVariable(m, "LIBRARY_PATH", "/w/tools/:/usr/lib/");
        },
        tar);
  }

  private void assertNoToolFromTheBundle(Command c) throws IOException {
    Path scratch = c.workingDirectory().getParent().getParent().getParent();
    assertEquals("/usr/bin:/bin", c.environment().get("PATH"));
    assertEquals("/new/libexec/offlink/:/usr/", c.environment().get("COMPILER_PATH"));
    assertEquals("/usr/lib/", c.environment().get("LIBRARY_PATH"));
    for (String v : c.environment().values()) {
      assertFalse(v.contains(scratch.resolve("run/root").toString()) && !v.endsWith(".json"), v);
    }
    try (Stream<Path> s = Files.walk(scratch)) {
      for (Path p : s.filter(Files::isRegularFile).toList()) {
        assertFalse(Files.isExecutable(p), p + " is executable");
      }
    }
  }

  @Test
  void bundledCompilersOnPathOrCompilerPathNeverRunFromTheTar() throws IOException {
    replay(bundleWithTools("b"));
    assertNoToolFromTheBundle(only());
  }

  @Test
  void bundledCompilersNeverRunFromTheFolderItsReplayScriptPasses() throws IOException {
    Path tar = bundleWithTools("b");
    Path folder = Files.createDirectories(dir.resolve("x"));
    extract(tar, folder);
    Path gcc = folder.resolve("b/files/w/bin/x86_64-linux-gnu-accel-nvptx-none-gcc-12");
    assertTrue(Files.isExecutable(gcc), "tar kept the mode, as the replay script's form does");
    replay(folder.resolve("b"));
    assertNoToolFromTheBundle(only());
  }

  /** Extracts {@code tar} into {@code into} with the modes it records, as tar(1) does. */
  private static void extract(Path tar, Path into) throws IOException {
    try {
      Process p = new ProcessBuilder("tar", "xf", tar.toString()).directory(into.toFile()).start();
      assertEquals(0, p.waitFor());
    } catch (InterruptedException e) {
      throw new IOException(e);
    }
  }

  @Test
  void aToolPathIntoTheBundlesOwnFolderIsNotUsed() throws IOException {
    Path folder = Files.createDirectories(dir.resolve("y"));
    extract(bundleWithTools("b"), folder);
    Path evil = folder.resolve("b/files/w/bin");
    Path source = folder.resolve("b");
    Path scratch = scratch();
    BundleReader.Bundle opened =
        BundleReader.open(source.toAbsolutePath(), scratch.resolve("bundle"));
    ReproducerManifest.Builder m = opened.manifest().toBuilder();
    setVariable(m, "PATH", evil + ":/usr/bin");
    setVariable(m, "COMPILER_PATH", folder.resolve("b/files/w/tools") + "/");
    setVariable(m, "COLLECT_GCC", evil + "/gcc");
    BundleReader.Bundle hostile =
        new BundleReader.Bundle(opened.root(), m.build(), source.toString());
    new Replay(runner, libexec, base)
        .run(hostile, scratch.resolve("run"), java.util.Optional.of(source));
    Map<String, String> env = only().environment();
    assertEquals("", env.get("COMPILER_PATH"));
    assertEquals("gcc", env.get("COLLECT_GCC"), "the bare name, looked up on this machine");
    assertFalse(env.get("PATH").contains(evil.toString()));
  }

  @Test
  void aToolFolderOthersCanWriteIsNotUsed() throws IOException {
    Path shared = Files.createDirectories(dir.resolve("shared/bin"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxr-x"));
    Path mine = Files.createDirectories(dir.resolve("mine/bin"));
    replay(bundle("b", m -> setVariable(m, "COMPILER_PATH", shared + "/:" + mine + "/")));
    assertEquals(mine + "/", only().environment().get("COMPILER_PATH"));
  }

  // Item 3: the four escapes of the issue.

  @Test
  void aFilePathLeavingTheRootIsRefused() throws IOException {
    TarBundle tar = new TarBundle();
    // Stored at b/payload, which the recorded path reaches from b/files/ by climbing.
    tar.put("b/payload", TarBundle.Content.of("payload".getBytes(StandardCharsets.UTF_8)));
    Path b =
        bundle(
            "b",
            m ->
                m.addFiles(
                    BundledFile.newBuilder()
                        .setPath("/../../../bundle/b/payload")
                        .setSize(7)
                        .setSha256(Sha256.hex("payload".getBytes(StandardCharsets.UTF_8)))
                        .setRole("input")),
            tar);
    refused(b, "files[3].path");
    assertFalse(Files.exists(dir.resolve("tmp/bundle")), "nothing written outside the scratch");
  }

  @Test
  void aWorkingDirectoryLeavingTheRootIsRefused() throws IOException {
    Path b = bundle("b", m -> m.setWorkingDirectory("/../../../../../../../../" + dir + "/x"));
    refused(b, "working_directory");
    assertFalse(Files.exists(dir.resolve("x")));
  }

  @Test
  void anOutputVariableOfTheBundleIsNeverApplied() throws IOException {
    Path victim = Files.writeString(dir.resolve("victim"), "important");
    Path b =
        bundle(
            "b",
            m -> {
              setVariable(m, "OFFLINK_REPRODUCE", victim.toString());
              setVariable(m, "OFFLINK_REPRODUCE_ON_FAILURE", dir.toString());
              setVariable(m, "OFFLINK_REPORT", victim.toString());
            });
    replay(b);
    Map<String, String> env = only().environment();
    assertFalse(env.containsKey("OFFLINK_REPRODUCE"));
    assertFalse(env.containsKey("OFFLINK_REPRODUCE_ON_FAILURE"));
    Path scratch = only().workingDirectory().getParent().getParent().getParent();
    assertTrue(Path.of(env.get("OFFLINK_REPORT")).startsWith(scratch), env.get("OFFLINK_REPORT"));
    assertTrue(Path.of(env.get("TMPDIR")).startsWith(scratch), env.get("TMPDIR"));
  }

  @Test
  void everyFileArgumentIsMovedIntoTheScratchFolder() throws IOException {
    Path victim = dir.resolve("victim");
    Path b =
        bundle(
            "b",
            m ->
                m.addExpandedArgs("-foffload-objects=" + victim)
                    .addExpandedArgs(victim + "@0x10")
                    .addExpandedArgs("@" + victim));
    replay(b);
    Command c = only();
    Path scratch = c.workingDirectory().getParent().getParent().getParent();
    assertEquals("-foffload-objects=" + scratch + "/run/root" + victim, c.argv().get(4));
    assertEquals(scratch + "/run/root" + victim + "@0x10", c.argv().get(5));
    assertEquals("@" + scratch + "/run/root" + victim, c.argv().get(6));
  }

  @Test
  void aRelativeArgumentLeavingTheRootIsRefused() throws IOException {
    refused(
        bundle("b", m -> m.addExpandedArgs("-foffload-objects=../../../../../../victim")),
        "expanded_args[3]");
  }

  @Test
  void outputOptionsAreMovedIntoTheScratchFolderOrRefused() throws IOException {
    Path b =
        bundle(
            "b",
            m ->
                setVariable(
                    m,
                    "COLLECT_GCC_OPTIONS",
                    "'-fopenmp' '-save-temps' '-o' '/home/me/.bashrc' '-dumpdir' '/home/me/'"));
    replay(b);
    String opts = only().environment().get("COLLECT_GCC_OPTIONS");
    Path scratch = only().workingDirectory().getParent().getParent().getParent();
    assertEquals(
        "'-fopenmp' '-save-temps' '-o' '"
            + scratch
            + "/run/root/home/me/.bashrc' '-dumpdir' '"
            + scratch
            + "/run/root/home/me/'",
        opts);
    ran.clear();
    refused(
        bundle(
            "c",
            m -> setVariable(m, "COLLECT_GCC_OPTIONS", "'-o' '../../../../../../../home/me/x'")),
        "environment COLLECT_GCC_OPTIONS -o");
  }

  @Test
  void optionsThatRunOrLoadCodeAreRefused() throws IOException {
    for (String options :
        List.of(
            "'-wrapper' 'sh,-c,touch PWNED'",
            "'-fplugin=./evil.so'",
            "'-specs=evil.specs'",
            "'-foffload-options=-fplugin=/tmp/evil.so'",
            "'-foffload-options=nvptx-none=-lm -wrapper sh,-c,id'",
            "'-foffload-options=-B/tmp/evil/'",
            "'-foffload-options=-Wl,--load-pass-plugin,evil.so'",
            "'-foffload-options=-o /home/me/.bashrc'",
            "'-Xassembler' '-o' '-Xassembler' '/home/me/x'")) {
      ran.clear();
      refused(
          bundle(
              "b" + Math.abs(options.hashCode()),
              m -> setVariable(m, "COLLECT_GCC_OPTIONS", options)),
          "COLLECT_GCC_OPTIONS");
    }
  }

  /** An object whose offload options section carries {@code opts} (a real ELF relocatable). */
  private static byte[] objectWithOffloadOptions(String opts) {
    org.offlink.streamer.write.ElfObjectBuilder b =
        new org.offlink.streamer.write.ElfObjectBuilder();
    b.section(
        ".gnu.offload_lto_.opts",
        org.offlink.streamer.elf.SectionType.PROGBITS,
        java.util.Set.of(org.offlink.streamer.write.SectionFlag.EXCLUDE),
        1,
        (opts + "\0").getBytes(StandardCharsets.UTF_8));
    return b.toBytes();
  }

  /**
   * lto-wrapper hands the {@code -foffload-options=} an object recorded to the accel compiler: an
   * object of the bundle may name no more than the command line may.
   */
  @Test
  void optionsAnObjectCarriesForTheAccelCompilerAreVetted() throws IOException {
    for (String opts :
        List.of(
            "'-fopenmp' '-foffload-options=-wrapper sh,-c,touch PWNED'",
            "'-fopenmp' '-Xassembler' '--load-pass-plugin=evil.so'")) {
      byte[] object = objectWithOffloadOptions(opts);
      TarBundle tar = new TarBundle();
      Path b =
          bundle(
              "o" + Math.abs(opts.hashCode()),
              m -> {
                m.setFiles(
                    0,
                    m.getFiles(0).toBuilder().setSize(object.length).setSha256(Sha256.hex(object)));
              },
              tar);
      // The object's bytes replace the placeholder the bundle() helper stored.
      tar.put("o" + Math.abs(opts.hashCode()) + "/files/w/x.o", TarBundle.Content.of(object));
      tar.write(LinkScope.withUmask(022), b);
      ran.clear();
      refused(b, "/w/x.o (.gnu.offload_lto_.opts)");
    }
    ran.clear();
    byte[] honest = objectWithOffloadOptions("'-fopenmp' '-foffload-options=-lm -O3'");
    TarBundle tar = new TarBundle();
    Path b =
        bundle(
            "honest",
            m ->
                m.setFiles(
                    0,
                    m.getFiles(0).toBuilder().setSize(honest.length).setSha256(Sha256.hex(honest))),
            tar);
    tar.put("honest/files/w/x.o", TarBundle.Content.of(honest));
    tar.write(LinkScope.withUmask(022), b);
    replay(b);
    only();
  }

  @Test
  void aTargetNameIsNeverAPath() throws IOException {
    refused(
        bundle("b", m -> setVariable(m, "OFFLOAD_TARGET_NAMES", "nvptx-none:../../../tmp/evil")),
        "OFFLOAD_TARGET_NAMES");
  }

  // Item 12: a malformed manifest is one line naming the file, the expectation and the finding.

  @Test
  void aManifestWithEmptyPathsIsOneLine() throws IOException {
    String m =
        refused(
            bundle("b", m2 -> m2.setFiles(0, m2.getFiles(0).toBuilder().setPath(""))),
            "files[0].path");
    assertTrue(m.contains("expected an absolute path"), m);
  }

  @Test
  void aRelativeFilePathIsOneLine() throws IOException {
    refused(
        bundle("b", m -> m.setFiles(0, m.getFiles(0).toBuilder().setPath("relative/x.o"))),
        "files[0].path: expected an absolute path that stays inside the bundle's root, found"
            + " 'relative/x.o'");
  }

  private Path rawManifest(String name, String json) throws IOException {
    Path file = dir.resolve(name + ".tar");
    new TarBundle()
        .put(name + "/manifest.json", TarBundle.Content.of(json.getBytes(StandardCharsets.UTF_8)))
        .write(LinkScope.withUmask(022), file);
    return file;
  }

  @Test
  void invalidJsonIsOneLine() throws IOException {
    String m = refused(rawManifest("b", "{\"files\": [{\"path\": \"/x\""), "manifest.json");
    assertTrue(m.contains("expected a reproducer manifest (JSON), found a truncated document"), m);
    assertFalse(m.contains("java."), m);
  }

  @Test
  void deeplyNestedJsonIsOneShortLine() throws IOException {
    String m =
        refused(
            rawManifest("b", "{\"files\":" + "[".repeat(5000) + "]".repeat(5000) + "}"),
            "manifest.json");
    assertTrue(m.contains("nested at most 32 levels"), m);
    assertTrue(m.length() < 300, m);
  }
}
