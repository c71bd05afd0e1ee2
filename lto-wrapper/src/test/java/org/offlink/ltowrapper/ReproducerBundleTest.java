package org.offlink.ltowrapper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * Reproducer bundles of whole fake runs: what goes in (inputs, the offload list the run deletes,
 * response files, the environment without the request itself), when one is written ({@code
 * OFFLINK_REPRODUCE} always, {@code OFFLINK_REPRODUCE_ON_FAILURE} only on failure), and that a
 * bundle that cannot be written changes neither the exit status nor stdout.
 */
class ReproducerBundleTest {
  @TempDir Path dir;

  private Harness harness() throws IOException {
    Harness h = new Harness(dir);
    h.env.put("COLLECT_GCC_OPTIONS", "'-fopenmp' '-o' 'x' '-dumpdir' 'x.'");
    h.env.put("OFFLOAD_TARGET_NAMES", "nvptx-none");
    h.env.put("COMPILER_PATH", h.mkoffload("gcc", "nvptx-none"));
    h.env.put("HOME", "/home/nobody");
    h.env.put("AWS_SECRET_ACCESS_KEY", "do-not-copy");
    h.object("x.o", OptsSectionName.OFFLOAD, LtoWrapperGoldenTest.OFFLOAD_OPTS);
    h.object("libx.a@0x53c", OptsSectionName.HOST_LTO, "'-fno-openmp' '-O2' '-flto'");
    h.write("x.ofldlist", "1\nx.o\n");
    h.write("x.res", "1\nx.o 0\n");
    h.write("args.rsp", "-flinker-output=pie -foffload-objects=x.ofldlist libx.a@0x53c\n");
    return h;
  }

  private static int run(Harness h) {
    return h.run(LtoWrapperGoldenTest.produce(1), "-fresolution=x.res", "@args.rsp");
  }

  /** The entries of a tar, name to bytes, in file order. */
  static Map<String, byte[]> entries(Path tar) throws IOException {
    Map<String, byte[]> m = new LinkedHashMap<>();
    try (InputStream in = Files.newInputStream(tar);
        TarArchiveInputStream t = new TarArchiveInputStream(in)) {
      TarArchiveEntry e;
      while ((e = t.getNextEntry()) != null) {
        assertEquals(0, e.getLongUserId(), e.getName());
        assertEquals(0, e.getLastModifiedDate().getTime(), e.getName());
        m.put(e.getName(), t.readAllBytes());
      }
    }
    return m;
  }

  @Test
  void bundleHoldsEveryInputTheManifestAndTheReport() throws Exception {
    Harness h = harness();
    h.env.put("OFFLINK_REPRODUCE", "out/b.tar");
    assertEquals(0, run(h), h.err());
    assertFalse(Files.exists(dir.resolve("x.ofldlist")), "the run deleted the offload list");
    assertTrue(h.err().contains("lto-wrapper: note: reproducer bundle written to"), h.err());

    Map<String, byte[]> e = entries(dir.resolve("out/b.tar"));
    List<String> names = List.copyOf(e.keySet());
    assertEquals(names.stream().sorted().toList(), names, "sorted entries");
    String files = "b/files" + dir;
    assertArrayEquals("1\nx.o\n".getBytes(StandardCharsets.UTF_8), e.get(files + "/x.ofldlist"));
    assertArrayEquals(Files.readAllBytes(dir.resolve("x.o")), e.get(files + "/x.o"));
    assertArrayEquals(Files.readAllBytes(dir.resolve("libx.a")), e.get(files + "/libx.a"));
    assertTrue(e.containsKey(files + "/x.res"));
    assertTrue(e.containsKey(files + "/args.rsp"));

    ReproducerManifest.Builder m = ReproducerManifest.newBuilder();
    JsonFormat.parser().merge(new String(e.get("b/manifest.json"), StandardCharsets.UTF_8), m);
    assertEquals(List.of("-fresolution=x.res", "@args.rsp"), m.getArgsList());
    assertEquals(
        List.of(
            "-fresolution=x.res",
            "-flinker-output=pie",
            "-foffload-objects=x.ofldlist",
            "libx.a@0x53c"),
        m.getExpandedArgsList());
    Map<String, String> roles = new LinkedHashMap<>();
    for (BundledFile f : m.getFilesList()) {
      roles.put(Path.of(f.getPath()).getFileName().toString(), f.getRole());
    }
    assertEquals(
        Map.of(
            "args.rsp", "response-file",
            "libx.a", "input",
            "x.o", "offload-object",
            "x.ofldlist", "offload-list",
            "x.res", "resolution"),
        roles);
    List<String> vars = m.getEnvironmentList().stream().map(v -> v.getName()).toList();
    assertTrue(vars.contains("COLLECT_GCC_OPTIONS"), vars.toString());
    assertFalse(vars.contains("AWS_SECRET_ACCESS_KEY"), "only the allow-list");
    assertFalse(vars.contains("HOME"));
    assertFalse(vars.contains("OFFLINK_REPRODUCE"), "the request is not replayed");
    assertFalse(m.getToolsList().isEmpty(), "tool versions recorded");
    assertTrue(m.getToolsList().stream().anyMatch(t -> t.getTool().equals("jdk")));

    LinkReport.Builder r = LinkReport.newBuilder();
    JsonFormat.parser().merge(new String(e.get("b/report.json"), StandardCharsets.UTF_8), r);
    assertEquals(0, r.getExitStatus());
    assertEquals(h.out.toString().lines().toList(), r.getOutputLinesList());
    String replay = new String(e.get("b/replay"), StandardCharsets.UTF_8);
    assertTrue(replay.startsWith("#!/bin/sh\n") && replay.contains("offlink}\" replay"), replay);
    assertFalse(Files.exists(dir.resolve("r.json")), "no OFFLINK_REPORT file was asked for");
  }

  @Test
  void onFailureWritesOnlyForAFailedLink() throws IOException {
    Harness ok = harness();
    ok.env.put("OFFLINK_REPRODUCE_ON_FAILURE", "fails");
    assertEquals(0, run(ok), ok.err());
    assertFalse(Files.exists(dir.resolve("fails")), "nothing for a link that worked");

    Harness bad = harness();
    bad.env.put("OFFLINK_REPRODUCE_ON_FAILURE", "fails");
    bad.write("x.ofldlist", "1\nx.o\n");
    FakeProcessRunner.Handler failing =
        (argv, cwd) -> {
          throw new FakeProcessRunner.Failure(1, "mkoffload: fatal error: boom\n\nsecond\n");
        };
    int status = bad.run(failing, "-fresolution=x.res", "@args.rsp");
    assertEquals(1, status);
    Path tar = dir.resolve("fails/offlink-reproduce-x.tar");
    Map<String, byte[]> e = entries(tar);
    ReproducerManifest.Builder m = ReproducerManifest.newBuilder();
    JsonFormat.parser()
        .merge(new String(e.get("offlink-reproduce-x/manifest.json"), StandardCharsets.UTF_8), m);
    assertEquals(1, m.getExitStatus());
    assertFalse(m.getError().isEmpty());
    LinkReport.Builder r = LinkReport.newBuilder();
    JsonFormat.parser()
        .merge(new String(e.get("offlink-reproduce-x/report.json"), StandardCharsets.UTF_8), r);
    assertEquals(
        List.of("mkoffload: fatal error: boom", "second"),
        r.getSubcommands(0).getStderrHeadList(),
        "a failed step keeps its first stderr lines, blank ones left out");
  }

  @Test
  void aBundleThatCannotBeWrittenIsAWarningOnly() throws IOException {
    Harness plain = harness();
    assertEquals(0, run(plain));
    String stdout = plain.out();

    Harness h = harness();
    Files.writeString(dir.resolve("blocker"), "a file, not a folder");
    h.env.put("OFFLINK_REPRODUCE", "blocker/b.tar");
    assertEquals(0, run(h));
    assertEquals(stdout, h.out());
    assertTrue(
        h.err().contains("lto-wrapper: warning: cannot write the reproducer bundle"), h.err());
  }

  /**
   * Item 11 of issue 27: credentials, in whatever form they were given (URL user information, a
   * token in the credentials variable, a {@code make VAR=URL} in MAKEFLAGS), reach neither the link
   * report, nor any entry of the bundle (manifest, report, replay script), nor stderr, nor a
   * child's argv.
   */
  @Test
  void credentialsReachNoReportBundleLogLineOrArgv() throws IOException {
    List<Map<String, String>> forms =
        List.of(
            Map.of("OFFLINK_REMOTE_CACHE", "https://user:s3cr3t-1@cache.example/p"),
            Map.of(
                "OFFLINK_REMOTE_CACHE", "https://cache.example/p",
                "OFFLINK_REMOTE_CACHE_CREDENTIALS", "Bearer s3cr3t-2"),
            Map.of("MAKEFLAGS", "-j2 -- OFFLINK_REMOTE_CACHE=http://u:s3cr3t-3@cache.example/"),
            Map.of("OFFLINK_REMOTE_CACHE", "https://cache.example/p?access_token=s3cr3t-4"));
    for (Map<String, String> form : forms) {
      for (String request : List.of("OFFLINK_REPORT", "OFFLINK_REPRODUCE")) {
        Harness h = harness();
        h.env.putAll(form);
        h.env.put("OFFLINK_CACHE_DIR", dir.resolve("cache").toString());
        h.mkoffloadInProcess = true; // the image cache, and so the remote cache's settings, in use
        h.env.put(request, request.equals("OFFLINK_REPORT") ? "r.json" : "out/b.tar");
        run(h);
        StringBuilder all = new StringBuilder(h.err() + h.out() + h.commands());
        if (request.equals("OFFLINK_REPORT")) {
          all.append(Files.readString(dir.resolve("r.json")));
        } else {
          for (byte[] entry : entries(dir.resolve("out/b.tar")).values()) {
            all.append(new String(entry, StandardCharsets.UTF_8));
          }
        }
        assertFalse(all.toString().contains("s3cr3t"), form + " " + request + ":\n" + all);
        assertTrue(all.toString().contains("cache.example"), "the rest is recorded: " + all);
      }
    }
  }
}
