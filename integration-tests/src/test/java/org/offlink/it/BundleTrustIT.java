package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * A replayed bundle runs nothing of its own and writes nowhere else (issue 27, items 1-3), with a
 * bundle of a real GCC 12 link through offlink, edited as an attacker would: the LD_PRELOAD vector,
 * both execution vectors (a bundled accel gcc through the recorded PATH, a bundled mkoffload
 * through COMPILER_PATH) in the folder form the bundle's own {@code replay} script passes, the four
 * escape vectors ({@code files[].path}, {@code working_directory}, {@code OFFLINK_REPRODUCE},
 * {@code -foffload-objects=}), and a tool folder another user (a second uid, {@code setpriv})
 * planted at a path the bundle names, replayed by a third. Every bundled program and library leaves
 * a marker file when run; none may appear. {@code -Dbundle.dist=DIR} runs the suite against another
 * build (e.g. one from before the fix, where each case fails).
 */
class BundleTrustIT {
  private static final Path DIST =
      OtherUsers.tree(
          Path.of(System.getProperty("bundle.dist", Toolchain.offlinkDist().toString())));

  private static final int ATTACKER = 4242;
  private static final int VICTIM = 4243;

  /** World-searchable, so that the second and third users can work in it. */
  private static Path work;

  private static Path bundle;

  private static Path marker;

  private record Run(int status, String output) {}

  @BeforeAll
  static void linkWithABundle() throws Exception {
    work = OtherUsers.folder(Path.of("target", "bundle-trust"));
    run(Path.of("."), Map.of(), "rm", "-rf", work.toString());
    Files.createDirectories(work.resolve("tmp"));
    ok(work, Map.of(), "chmod", "1777", work.toString(), work.resolve("tmp").toString());
    Path src = Files.createDirectories(work.resolve("src"));
    Files.copy(
        Path.of(System.getProperty("offlink.root", ".."), "examples/saxpy.c"),
        src.resolve("saxpy.c"));
    ok(src, Map.of(), "gcc-12", "-fopenmp", "-c", "saxpy.c");
    bundle = work.resolve("b.tar");
    ok(
        src,
        Map.of("OFFLINK_REPRODUCE", bundle.toString()),
        "gcc-12",
        "-fopenmp",
        "-foffload=nvptx-none",
        "-B",
        DIST.resolve("libexec/offlink") + "/",
        "saxpy.o",
        "-o",
        "saxpy");
    marker = work.resolve("PWNED");
  }

  private static Run run(Path cwd, Map<String, String> extraEnv, String... argv) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.clear();
    env.put("PATH", Toolchain.SAFE_PATH); // no /usr/local/bin: its ptxas rejects GCC 12's PTX
    env.put("LANG", "C");
    env.put("TMPDIR", work.resolve("tmp").toString());
    env.put("OFFLINK_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.putAll(extraEnv);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(300, TimeUnit.SECONDS), "timed out: " + List.of(argv));
    return new Run(p.exitValue(), out);
  }

  private static Run ok(Path cwd, Map<String, String> env, String... argv) throws Exception {
    Run r = run(cwd, env, argv);
    assertEquals(0, r.status(), List.of(argv) + "\n" + r.output());
    return r;
  }

  private static String offlink() {
    return DIST.resolve("bin/offlink").toString();
  }

  /** A fresh folder holding the bundle extracted by tar(1), modes kept; returns its top folder. */
  private static Path extracted(String name) throws Exception {
    Path dir = Files.createDirectories(work.resolve(name));
    ok(dir, Map.of(), "tar", "xf", bundle.toString());
    return dir.resolve("b");
  }

  private static ReproducerManifest.Builder manifest(Path top) throws IOException {
    ReproducerManifest.Builder m = ReproducerManifest.newBuilder();
    JsonFormat.parser().merge(Files.readString(top.resolve("manifest.json")), m);
    return m;
  }

  private static void edit(Path top, Consumer<ReproducerManifest.Builder> change)
      throws IOException {
    ReproducerManifest.Builder m = manifest(top);
    change.accept(m);
    Files.writeString(top.resolve("manifest.json"), JsonFormat.printer().print(m));
  }

  /** Adds {@code bytes} as the recorded file {@code path}, with {@code mode}. */
  private static void addFile(Path top, String path, byte[] bytes, String mode) throws Exception {
    Path stored = top.resolve("files" + path).normalize();
    Files.createDirectories(stored.getParent());
    Files.write(stored, bytes);
    Files.setPosixFilePermissions(stored, PosixFilePermissions.fromString(mode));
    String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    edit(
        top,
        m ->
            m.addFiles(
                BundledFile.newBuilder()
                    .setPath(path)
                    .setSize(bytes.length)
                    .setSha256(sha)
                    .setRole("input")));
  }

  private static void setVariable(Path top, String name, String value) throws IOException {
    edit(
        top,
        m -> {
          List<EnvironmentVariable> vars = new ArrayList<>(m.getEnvironmentList());
          vars.removeIf(v -> v.getName().equals(name));
          vars.add(EnvironmentVariable.newBuilder().setName(name).setValue(value).build());
          m.clearEnvironment().addAllEnvironment(vars);
        });
  }

  private static String workingDirectory(Path top) throws IOException {
    return manifest(top).getWorkingDirectory();
  }

  /** A program that leaves {@code marker}, then does what the real {@code program} does. */
  private static byte[] markingProgram(Path marker, String program) {
    return ("#!/bin/sh\necho \"$0\" >> " + marker + "\nexec " + program + " \"$@\"\n")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** Packs {@code top} into a tar as an attacker sends it. */
  private static Path tar(Path top) throws Exception {
    Path tar = top.getParent().resolve("evil.tar");
    ok(top.getParent(), Map.of(), "tar", "cf", tar.toString(), top.getFileName().toString());
    return tar;
  }

  private static void assertNoMarker(Path marker, Run r) throws IOException {
    assertFalse(
        Files.exists(marker),
        "a file of the bundle ran: "
            + (Files.exists(marker) ? Files.readString(marker) : "")
            + "\n"
            + r.output());
  }

  /** The refusal of a bundle: exit 1 and one line naming {@code entry}. */
  private static void assertRefused(Run r, String entry) {
    assertEquals(1, r.status(), r.output());
    List<String> lines = r.output().lines().toList();
    assertEquals(1, lines.size(), r.output());
    assertTrue(lines.get(0).startsWith("offlink: error: "), r.output());
    assertTrue(lines.get(0).contains(entry), r.output());
  }

  // ---- execution vectors ------------------------------------------------------------------

  @Test
  void ldPreloadOfABundledLibraryLoadsNothing() throws Exception {
    Path top = extracted("preload");
    Path mark = work.resolve("PWNED-preload");
    Path c = top.getParent().resolve("e.c");
    Files.writeString(
        c,
        "#include <fcntl.h>\n#include <unistd.h>\n__attribute__((constructor)) static void f(void)"
            + " { close(open(\""
            + mark
            + "\", O_CREAT | O_WRONLY, 0644)); }\n");
    ok(top.getParent(), Map.of(), "gcc-12", "-shared", "-fPIC", c.toString(), "-o", "e.so");
    addFile(top, "/opt/e.so", Files.readAllBytes(top.getParent().resolve("e.so")), "rwxr-xr-x");
    setVariable(top, "LD_PRELOAD", "/opt/e.so");
    Run r = run(work, Map.of(), offlink(), "replay", tar(top).toString());
    assertNoMarker(mark, r);
    assertRefused(r, "LD_PRELOAD");
  }

  /**
   * The bundle's own {@code replay} script on its extracted folder (modes kept: the bundled
   * programs are executable there), with its PATH naming a bundled accel gcc: this machine's runs.
   */
  @Test
  void aBundledAccelCompilerOnThePathNeverRuns() throws Exception {
    Path top = extracted("path");
    Path mark = work.resolve("PWNED-path");
    String wd = workingDirectory(top);
    String accel = "x86_64-linux-gnu-accel-nvptx-none-gcc-12";
    addFile(top, wd + "/bin/" + accel, markingProgram(mark, "/usr/bin/" + accel), "rwxr-xr-x");
    setVariable(top, "PATH", wd + "/bin:" + Toolchain.SAFE_PATH);
    // An absolute path into the extracted folder itself, which the attacker may guess.
    setVariable(top, "COLLECT_GCC", top.resolve("files" + wd + "/bin/gcc-12").toString());
    Run r = run(work, Map.of("OFFLINK", offlink()), top.resolve("replay").toString());
    assertNoMarker(mark, r);
    assertEquals(0, r.status(), r.output());
    assertTrue(
        r.output().contains("result: the same outcome and byte-identical images"), r.output());
  }

  /**
   * The same with COMPILER_PATH naming a folder of the bundle holding accel/nvptx-none/mkoffload.
   */
  @Test
  void aBundledMkoffloadOnCompilerPathNeverRuns() throws Exception {
    Path top = extracted("compiler-path");
    Path mark = work.resolve("PWNED-mkoffload");
    String wd = workingDirectory(top);
    String gccs = "/usr/lib/gcc/x86_64-linux-gnu/12";
    addFile(
        top,
        wd + "/tools/accel/nvptx-none/mkoffload",
        markingProgram(mark, gccs + "/accel/nvptx-none/mkoffload"),
        "rwxr-xr-x");
    setVariable(
        top,
        "COMPILER_PATH",
        wd + "/tools/:" + top.resolve("files" + wd + "/tools") + "/:tools/:" + gccs + "/");
    Run r = run(work, Map.of("OFFLINK", offlink()), top.resolve("replay").toString());
    assertNoMarker(mark, r);
    assertTrue(r.output().contains("replay: not applied: COMPILER_PATH entry"), r.output());
  }

  /**
   * A tool folder planted by another user (uid 4242) at a path the bundle names, the replay run by
   * a third (uid 4243): the folder is not this user's, so nothing in it runs.
   */
  @Test
  void aToolFolderAnotherUserPlantedNeverRuns() throws Exception {
    Path planted = work.resolve("shared-tools");
    Path mark = work.resolve("PWNED-planted");
    String gccs = "/usr/lib/gcc/x86_64-linux-gnu/12";
    Path script = work.resolve("planted-mkoffload");
    Files.write(script, markingProgram(mark, gccs + "/accel/nvptx-none/mkoffload"));
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    asUser(ATTACKER, "mkdir", "-p", planted + "/accel/nvptx-none");
    asUser(ATTACKER, "cp", script.toString(), planted + "/accel/nvptx-none/mkoffload");
    Path top = extracted("planted");
    setVariable(top, "COMPILER_PATH", planted + "/:" + gccs + "/");
    Path tar = tar(top);
    ok(work, Map.of(), "chmod", "-R", "a+rX", top.getParent().toString());
    Run r =
        run(
            work,
            Map.of("HOME", work.toString()),
            "setpriv",
            "--reuid=" + VICTIM,
            "--regid=" + VICTIM,
            "--clear-groups",
            offlink(),
            "replay",
            tar.toString());
    assertNoMarker(mark, r);
    assertTrue(r.output().contains("COMPILER_PATH entry '" + planted + "/'"), r.output());
  }

  private static void asUser(int uid, String... argv) throws Exception {
    List<String> all =
        new ArrayList<>(List.of("setpriv", "--reuid=" + uid, "--regid=" + uid, "--clear-groups"));
    all.addAll(List.of(argv));
    ok(work, Map.of(), all.toArray(String[]::new));
  }

  // ---- escape vectors -----------------------------------------------------------------------

  @Test
  void aFilePathLeavingTheScratchFolderIsRefused() throws Exception {
    Path top = extracted("escape-file");
    byte[] payload = "payload\n".getBytes(StandardCharsets.UTF_8);
    // Stored at b/payload, recorded as a path that climbs out of the scratch root onto it.
    Files.write(top.resolve("payload"), payload);
    String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(payload));
    edit(
        top,
        m ->
            m.addFiles(
                BundledFile.newBuilder()
                    .setPath("/../../../bundle/b/payload")
                    .setSize(payload.length)
                    .setSha256(sha)
                    .setRole("input")));
    Path tmp = Files.createDirectories(work.resolve("tmp-escape-file"));
    Run r = run(work, Map.of("TMPDIR", tmp.toString()), offlink(), "replay", tar(top).toString());
    assertFalse(Files.exists(tmp.resolve("bundle")), "written outside the scratch folder");
    assertRefused(r, "files[");
    assertTrue(r.output().contains("/../../../bundle/b/payload"), r.output());
  }

  @Test
  void aWorkingDirectoryLeavingTheScratchFolderIsRefused() throws Exception {
    Path top = extracted("escape-cwd");
    Path outside = work.resolve("created-by-replay");
    // Enough '..' to climb from any scratch folder to '/', then down to a folder of its choice.
    edit(top, m -> m.setWorkingDirectory("/" + "../".repeat(40) + outside.toString().substring(1)));
    Run r = run(work, Map.of(), offlink(), "replay", tar(top).toString());
    assertFalse(Files.exists(outside), "created outside the scratch folder");
    assertRefused(r, "working_directory");
  }

  @Test
  void anOffloadReproduceVariableOverwritesNothing() throws Exception {
    Path top = extracted("escape-reproduce");
    Path victim = Files.writeString(work.resolve("victim-reproduce"), "important\n");
    setVariable(top, "OFFLINK_REPRODUCE", victim.toString());
    Run r = run(work, Map.of(), offlink(), "replay", tar(top).toString());
    assertEquals(
        "important\n",
        new String(Files.readAllBytes(victim), StandardCharsets.ISO_8859_1),
        "overwritten: " + r.output());
    assertEquals(0, r.status(), r.output());
    assertTrue(
        r.output()
            .lines()
            .anyMatch(
                l ->
                    l.startsWith("replay: not applied: the bundle's ")
                        && l.contains("OFFLINK_REPRODUCE")),
        r.output());
    assertEquals("important\n", Files.readString(victim));
  }

  @Test
  void anOffloadObjectsArgumentDeletesNothingOutside() throws Exception {
    Path top = extracted("escape-delete");
    Path victim = Files.writeString(work.resolve("victim-delete"), "important\n");
    edit(top, m -> m.addExpandedArgs("-foffload-objects=" + victim));
    Run r = run(work, Map.of(), offlink(), "replay", tar(top).toString());
    assertTrue(Files.exists(victim), r.output());
    assertEquals("important\n", Files.readString(victim));
  }

  @Test
  void anHonestBundleStillReplaysTheSame() throws Exception {
    Run r = run(work, Map.of(), offlink(), "replay", bundle.toString());
    assertEquals(0, r.status(), r.output());
    assertTrue(
        r.output().contains("result: the same outcome and byte-identical images"), r.output());
    assertNoMarker(marker, r);
  }
}
