package org.offlink.ltowrapper.report;

import com.google.protobuf.util.Durations;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.LongSupplier;
import org.offlink.bridge.image.DeviceImage;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.report.proto.CacheResult;
import org.offlink.ltowrapper.report.proto.CacheUse;
import org.offlink.ltowrapper.report.proto.Execution;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.Input;
import org.offlink.ltowrapper.report.proto.InputKind;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Subcommand;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.TargetStatus;
import org.offlink.runtime.WorkingDirectory;

/** The mutable state behind an enabled {@link LinkRecorder}; every method is synchronized. */
final class ReportState {
  /** The schema version written to every report. */
  static final int SCHEMA_VERSION = 1;

  private final LongSupplier nanoTime;
  private final long start;
  private final Path cwd;
  private final LinkReport.Builder header;
  private final Map<String, Input.Builder> inputs = new LinkedHashMap<>();
  private final Map<String, Target.Builder> targets = new LinkedHashMap<>();
  private final Map<String, Long> objectSizes = new LinkedHashMap<>();
  private final Map<String, Image.Builder> images = new LinkedHashMap<>();
  private final Set<String> inProcess = new HashSet<>();
  private final List<Subcommand> subcommands = new ArrayList<>();

  ReportState(LinkPlan options, Path cwd, String version, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.start = nanoTime.getAsLong();
    this.cwd = cwd;
    this.header =
        LinkReport.newBuilder()
            .setSchemaVersion(SCHEMA_VERSION)
            .setOfflinkVersion(version)
            .addArgv(options.argv0())
            .addAllArgv(options.args())
            .addAllEnvironment(ReportEnvironment.select(options.environment()))
            .setWorkingDirectory(cwd.toString());
    // The targets OffloadImages will build, in its order (it needs both variables to build any).
    LinkPlan.Settings s = options.settings();
    if (options.offloadObjects().isPresent()) {
      for (String name : s.offloadTargets()) {
        targets.put(
            name,
            Target.newBuilder()
                .setName(name)
                .setExecution(Execution.EXECUTION_NOT_RUN)
                .setStatus(TargetStatus.TARGET_STATUS_NOT_BUILT));
      }
    }
  }

  synchronized void linkMode(String mode) {
    header.setLinkMode(mode);
  }

  synchronized long now() {
    return nanoTime.getAsLong();
  }

  synchronized void input(InputFile in, boolean lto) {
    String key = in.file() + "@" + in.offset();
    Input.Builder b = inputs.get(key);
    if (b == null) {
      b =
          Input.newBuilder()
              .setSpelling(in.spelling())
              .setFile(in.file().toString())
              .setOffset(in.offset())
              .setKind(lto ? InputKind.INPUT_KIND_LTO : InputKind.INPUT_KIND_OFFLOAD);
      inputs.put(key, b);
    } else if (b.getKind() != (lto ? InputKind.INPUT_KIND_LTO : InputKind.INPUT_KIND_OFFLOAD)) {
      b.setKind(InputKind.INPUT_KIND_LTO_AND_OFFLOAD);
    }
  }

  synchronized void inputOptions(InputFile in, boolean lto, List<String> strings) {
    input(in, lto);
    Input.Builder b = inputs.get(in.file() + "@" + in.offset());
    if (lto) {
      b.clearLtoOptions().addAllLtoOptions(strings);
    } else {
      b.clearOffloadOptions().addAllOffloadOptions(strings);
    }
  }

  synchronized void targetDone(String name, Optional<String> object) {
    Target.Builder t = target(name);
    if (object.isEmpty()) {
      t.setStatus(TargetStatus.TARGET_STATUS_DROPPED)
          .setError(
              "no accel/"
                  + name
                  + "/mkoffload along COMPILER_PATH; skipped as OFFLOAD_TARGET_DEFAULT allows");
      return;
    }
    t.setStatus(TargetStatus.TARGET_STATUS_OK).setObject(object.get());
    try {
      objectSizes.put(name, Files.size(WorkingDirectory.resolve(cwd, object.get())));
    } catch (IOException e) {
      // left out: the report says what it knows and the link goes on
    }
  }

  synchronized void targetFailed(String name, String error) {
    target(name).setStatus(TargetStatus.TARGET_STATUS_FAILED).setError(plain(error));
  }

  private Target.Builder target(String name) {
    return targets.computeIfAbsent(
        name, n -> Target.newBuilder().setName(n).setExecution(Execution.EXECUTION_NOT_RUN));
  }

  synchronized void linkStep(
      ChildKind kind,
      List<String> argv,
      int exitStatus,
      long startedAt,
      Duration elapsed,
      String error,
      String stderr) {
    Subcommand.Builder b =
        Subcommand.newBuilder()
            .setKind(kind.kind())
            .addAllArgv(argv)
            .setExitStatus(exitStatus)
            .setDuration(Durations.fromNanos(elapsed.toNanos()))
            .setStart(Durations.fromNanos(Math.max(0, startedAt - start)))
            .setError(error)
            .addAllStderrHead(exitStatus == 0 ? List.of() : head(stderr));
    Optional<String> target = kind.target();
    if (target.isPresent()) {
      boolean ours = inProcess.contains(target.get());
      b.setTarget(target.get()).setInProcess(ours);
      if (targets.containsKey(target.get())) {
        target(target.get())
            .setMkoffload(argv.get(0))
            .setExecution(ours ? Execution.EXECUTION_IN_PROCESS : Execution.EXECUTION_SUBPROCESS);
      }
    }
    subcommands.add(b.build());
  }

  synchronized void mkoffloadStep(OffloadTarget target, Command command, CommandResult result) {
    long finished = nanoTime.getAsLong();
    subcommands.add(
        Subcommand.newBuilder()
            .setKind(ChildKind.ofMkoffloadStep(command))
            .setTarget(target.triplet())
            .addAllArgv(command.argv())
            .setExitStatus(result.exitStatus())
            .setDuration(Durations.fromNanos(result.elapsed().toNanos()))
            .setStart(
                Durations.fromNanos(Math.max(0, finished - result.elapsed().toNanos() - start)))
            .addAllStderrHead(result.exitStatus() == 0 ? List.of() : head(result.stderr()))
            .build());
  }

  /** How many lines of a failed step's stderr a report keeps. */
  static final int STDERR_LINES = 20;

  /** The first {@link #STDERR_LINES} non-empty lines of {@code text}. */
  static List<String> head(String text) {
    List<String> lines = new ArrayList<>();
    for (String line : text.split("\n", -1)) {
      if (!line.isBlank() && lines.size() < STDERR_LINES) {
        lines.add(line);
      }
    }
    return lines;
  }

  synchronized void mergeNote(String text) {
    header.addMergeNotes(plain(text));
  }

  synchronized void cacheUse(
      String target, CacheOutcome outcome, String key, long bytes, Duration elapsed) {
    CacheResult result =
        switch (outcome) {
          case MISS -> CacheResult.CACHE_RESULT_MISS;
          case HIT_LOCAL -> CacheResult.CACHE_RESULT_HIT_LOCAL;
          case HIT_REMOTE -> CacheResult.CACHE_RESULT_HIT_REMOTE;
        };
    target(target)
        .setCache(
            CacheUse.newBuilder()
                .setResult(result)
                .setKey(key)
                .setBytes(bytes)
                .setDuration(Durations.fromNanos(elapsed.toNanos())));
  }

  synchronized void mkoffloadInProcess(OffloadTarget target) {
    inProcess.add(target.triplet());
  }

  synchronized void image(Path object, Image.Builder image) {
    images.put(image.getTarget(), image.setObject(object.toString()));
  }

  MkoffloadListener mkoffloadListener() {
    return this::mkoffloadStep;
  }

  void imageBuilt(Path object, DeviceImage image) {
    if (image instanceof NvptxImage nvptx) {
      image(object, ImageSummaries.nvptx(OffloadTarget.NVPTX.triplet(), nvptx));
    } else if (image instanceof GcnImage gcn) {
      image(object, ImageSummaries.gcn(OffloadTarget.AMDGCN.triplet(), gcn));
    }
  }

  synchronized void outputLines(List<String> lines) {
    header.clearOutputLines().addAllOutputLines(lines);
  }

  synchronized void fatal(String message) {
    header.setError(plain(message));
  }

  /** GCC's {@code %<...%>} quote markup as plain ASCII quotes. */
  private static String plain(String text) {
    return text.replace("%<", "'").replace("%>", "'");
  }

  synchronized LinkReport build(int exitStatus) {
    LinkReport.Builder r = header.clone().setExitStatus(exitStatus);
    inputs.values().forEach(i -> r.addInputs(i.build()));
    targets.values().forEach(t -> r.addTargets(t.build()));
    for (Map.Entry<String, Image.Builder> e : orderedImages().entrySet()) {
      Image.Builder image = e.getValue().clone();
      Target.Builder target = targets.get(e.getKey());
      if (target != null && !target.getObject().isEmpty()) {
        image.setObject(target.getObject()); // as printed on stdout
      }
      Long size = objectSizes.get(e.getKey());
      if (size != null) {
        image.setObjectSize(size);
      }
      r.addImages(image.build());
    }
    r.addAllSubcommands(subcommands);
    return r.setDuration(Durations.fromNanos(nanoTime.getAsLong() - start)).build();
  }

  /** Images in target order; images of targets not declared (none today) after them. */
  private Map<String, Image.Builder> orderedImages() {
    Map<String, Image.Builder> ordered = new LinkedHashMap<>();
    for (String name : targets.keySet()) {
      if (images.containsKey(name)) {
        ordered.put(name, images.get(name));
      }
    }
    images.forEach(ordered::putIfAbsent);
    return ordered;
  }
}
