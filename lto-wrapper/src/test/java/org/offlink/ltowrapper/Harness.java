package org.offlink.ltowrapper;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.process.Command;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.io.EarlyDebugCopier;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.ltowrapper.jobs.JobserverClient;
import org.offlink.ltowrapper.offload.ImageBuilder;
import org.offlink.ltowrapper.offload.ImageBuilders;
import org.offlink.ltowrapper.offload.ImageRequest;
import org.offlink.ltowrapper.offload.ImageResult;
import org.offlink.ltowrapper.offload.SubprocessImageBuilder;
import org.offlink.ltowrapper.report.ChildKind;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/** A fixed environment in a temp directory, fakes for every collaborator, captured streams. */
final class Harness {
  final Path dir;
  final Map<String, String> env = new HashMap<>();
  final Map<String, List<String>> hostOpts = new HashMap<>();
  final Map<String, List<String>> offloadOpts = new HashMap<>();
  final Map<String, String> earlyDebug = new HashMap<>();
  final ByteArrayOutputStream out = new ByteArrayOutputStream();
  final ByteArrayOutputStream err = new ByteArrayOutputStream();

  /** How many times each input (by spelling) was scanned. */
  final Map<String, Integer> scans = new java.util.concurrent.ConcurrentHashMap<>();

  int cpus = 4;
  boolean mkoffloadInProcess;
  FakeProcessRunner runner;

  Harness(Path dir) {
    this.dir = dir;
    env.put("COLLECT_GCC", "/usr/bin/gcc");
    env.put("LANG", "C");
    env.put("TMPDIR", dir.resolve("tmp").toString());
    try {
      Files.createDirectories(dir.resolve("tmp"));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** An (empty) input object whose options the fake opts source returns. */
  Harness object(String name, OptsSectionName section, String... optsStrings) throws IOException {
    Path p = dir.resolve(name.contains("@") ? name.substring(0, name.lastIndexOf('@')) : name);
    if (!Files.exists(p)) {
      Files.writeString(p, "fake object");
    }
    (section == OptsSectionName.HOST_LTO ? hostOpts : offloadOpts).put(name, List.of(optsStrings));
    return this;
  }

  /** Creates an executable {@code <root>/accel/<target>/mkoffload} and returns {@code <root>/}. */
  String mkoffload(String root, String target) throws IOException {
    Path p = dir.resolve(root).resolve("accel").resolve(target).resolve("mkoffload");
    Files.createDirectories(p.getParent());
    Files.writeString(p, "#!/bin/sh\nexit 0\n");
    Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    return dir.resolve(root) + "/";
  }

  LtoWrapperServices services(FakeProcessRunner.Handler handler) {
    runner = new FakeProcessRunner(handler);
    return new LtoWrapperServices(
        context -> runner,
        input -> {
          scans.merge(input.spelling(), 1, Integer::sum);
          return new ObjectScan(
              Optional.ofNullable(hostOpts.get(input.spelling())),
              Optional.ofNullable(offloadOpts.get(input.spelling())),
              Optional.empty(),
              List.of(),
              earlyDebug.containsKey(input.spelling())
                  ? List.of(new ObjectScan.SectionRange(ObjectScan.EARLY_DEBUG_INFO, 0, 1))
                  : List.of());
        },
        file -> {
          List<String> lines = Files.readAllLines(file);
          int n = Integer.parseInt(lines.get(0).trim());
          if (lines.size() - 1 < n) {
            throw new java.io.EOFException();
          }
          return new ArrayList<>(lines.subList(1, n + 1));
        },
        (EarlyDebugCopier)
            (scope, input, output, rename) -> {
              String content = earlyDebug.get(input.spelling());
              if (content == null) {
                return false;
              }
              Files.writeString(output, content + (rename ? " renamed" : ""));
              return true;
            },
        () -> cpus,
        JobserverClient::procFd);
  }

  /**
   * Builders whose "in-process" mkoffload (any program named {@code .../mkoffload}) runs the fake
   * runner through {@link ChildRunner#runInProcessCapturing}: its argv as an in-process run gets it
   * (no response file unless -v or -save-temps), with no image counts.
   */
  /** The requests the in-process builders were handed, in order. */
  final List<ImageRequest> requests = new java.util.concurrent.CopyOnWriteArrayList<>();

  private ImageBuilders inProcess(FakeProcessRunner fake) {
    return new ImageBuilders() {
      @Override
      public ImageBuilder forMkoffload(
          String mkoffload,
          ChildRunner children,
          LinkRecorder report,
          Optional<ImageCache> cache,
          Optional<org.offlink.ltowrapper.partition.DeviceJobSlots> deviceJobs) {
        if (!mkoffload.endsWith("/mkoffload")) {
          return new SubprocessImageBuilder(children);
        }
        return request -> {
          requests.add(request);
          return new ImageResult(
              children.runInProcessCapturing(
                  ChildKind.mkoffload(request.target()),
                  request.argv(),
                  request.responseSuffix(),
                  argv ->
                      fake.run(
                          Command.of(
                              argv,
                              children.context().environment(),
                              children.context().workingDirectory()))),
              Optional.empty());
        };
      }

      @Override
      public boolean inProcess() {
        return true;
      }
    };
  }

  int run(FakeProcessRunner.Handler handler, String... args) {
    LinkContext ctx =
        LinkContext.of(
            env,
            dir,
            InputStream.nullInputStream(),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            LinkScope.withUmask(022));
    LtoWrapperServices services = services(handler);
    ImageBuilders builders =
        mkoffloadInProcess ? inProcess(runner) : ImageBuilders.subprocessOnly();
    List<String> argv = new ArrayList<>();
    argv.add("lto-wrapper");
    argv.addAll(List.of(args));
    return new LtoWrapper(services, builders).run(ctx, argv);
  }

  /** stdout with the temp dir replaced by {@code $TMP} and the work dir by {@code $DIR}. */
  String out() {
    return normalise(out.toString(StandardCharsets.UTF_8));
  }

  String err() {
    return normalise(err.toString(StandardCharsets.UTF_8));
  }

  String normalise(String s) {
    return s.replaceAll(
            java.util.regex.Pattern.quote(dir.resolve("tmp").toString()) + "/cc[A-Za-z0-9]{6}",
            "\\$TMP/ccXXXXXX")
        .replace(dir.toString(), "$DIR");
  }

  /** Every recorded command, one per line, normalised. */
  String commands() {
    StringBuilder sb = new StringBuilder();
    for (List<String> c : runner.commands) {
      sb.append(normalise(String.join(" ", c))).append('\n');
    }
    return sb.toString();
  }

  void write(String name, String text) throws IOException {
    Files.writeString(dir.resolve(name), text);
  }
}
