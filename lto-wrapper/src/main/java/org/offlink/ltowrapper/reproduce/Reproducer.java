package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.plan.PlanResolver;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.report.LinkReportWriter;
import org.offlink.ltowrapper.report.ReportEnvironment;
import org.offlink.ltowrapper.report.ReportFormat;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.report.proto.ToolVersion;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.inspect.Sha256;

/**
 * Writes the reproducer bundle of one lto-wrapper run ({@link ReproduceRequest}). The inputs are
 * noted before the run ({@link LinkInputs}); after it, the bundle gets them, the manifest, the link
 * report and the {@code replay} script. Nothing here changes the link: a bundle that cannot be
 * written costs one warning.
 *
 * <p>Layout of {@code NAME.tar} (deterministic, see {@link TarBundle}):
 *
 * <pre>
 * NAME/manifest.json     ReproducerManifest (proto3 JSON): argv, environment, files, tools, outcome
 * NAME/report.json       the LinkReport of the run (as OFFLINK_REPORT would write it)
 * NAME/replay            sh script running `offlink replay` on the extracted folder
 * NAME/files/PATH        every input, at its absolute path less the leading '/'
 * </pre>
 */
public final class Reproducer {
  private static final Reproducer DISABLED =
      new Reproducer(ReproduceRequest.NONE, null, null, null, null, null);

  private final ReproduceRequest request;
  private final LinkPlan options;
  private final List<String> rawArgs;
  private final Path cwd;
  private final LinkInputs inputs;
  private final Supplier<List<ToolVersion>> tools;

  private Reproducer(
      ReproduceRequest request,
      LinkPlan options,
      List<String> rawArgs,
      Path cwd,
      LinkInputs inputs,
      Supplier<List<ToolVersion>> tools) {
    this.request = request;
    this.options = options;
    this.rawArgs = rawArgs;
    this.cwd = cwd;
    this.inputs = inputs;
    this.tools = tools;
  }

  /**
   * The reproducer of a run of {@code options} given {@code rawArgs} in {@code context}'s link;
   * disabled (and costing nothing) unless the environment asks for a bundle. The tool versions are
   * examined (by {@code offlink doctor}'s checks, their processes' noise going to the link's
   * stderr) only when a bundle is written.
   */
  public static Reproducer forRun(LinkPlan options, List<String> rawArgs, LinkContext context) {
    Path cwd = context.workingDirectory();
    ReproduceRequest request = ReproduceRequest.of(options.environment(), cwd);
    if (!request.enabled()) {
      return DISABLED;
    }
    return forRun(options, rawArgs, cwd, ToolVersions.of(context));
  }

  /** As above with the tool versions from {@code tools} (tests). */
  static Reproducer forRun(
      LinkPlan options, List<String> rawArgs, Path cwd, Supplier<List<ToolVersion>> tools) {
    ReproduceRequest request = ReproduceRequest.of(options.environment(), cwd);
    if (!request.enabled()) {
      return DISABLED;
    }
    return new Reproducer(
        request,
        options,
        List.copyOf(rawArgs),
        cwd,
        LinkInputs.of(rawArgs, options.args(), cwd),
        tools);
  }

  /** Whether a bundle may be written (the run must then record its link report). */
  public boolean enabled() {
    return request.enabled();
  }

  /**
   * Writes the bundle for a run that ended with {@code exitStatus} if one is due; says where on
   * {@code note}, or why not on {@code warning}.
   */
  public void write(
      LinkScope scope,
      int exitStatus,
      LinkRecorder recorder,
      Consumer<String> note,
      Consumer<String> warning) {
    if (!enabled()) {
      return;
    }
    String output =
        options
            .settings()
            .linkerOutput()
            .map(o -> Path.of(o).getFileName().toString())
            .orElse("a.out");
    Optional<Path> target = request.target(exitStatus, output);
    if (target.isEmpty()) {
      return;
    }
    try {
      if (target.get().getParent() != null) {
        Files.createDirectories(target.get().getParent());
      }
      bundle(recorder.finish(exitStatus), target.get()).write(scope, target.get());
      note.accept("reproducer bundle written to " + target.get());
    } catch (IOException | RuntimeException | LinkageError e) {
      // LinkageError: a tree missing a jar the tar writer needs must still link
      warning.accept("cannot write the reproducer bundle " + target.get() + ": " + ErrorText.of(e));
    }
  }

  private TarBundle bundle(LinkReport report, Path target) throws IOException {
    String top = stem(target);
    TarBundle tar = new TarBundle();
    ReproducerManifest.Builder m =
        ReproducerManifest.newBuilder()
            .setSchemaVersion(1)
            .setOfflinkVersion(report.getOfflinkVersion())
            .setWorkingDirectory(cwd.toString())
            .setArgv0(options.argv0())
            .addAllArgs(rawArgs)
            .addAllExpandedArgs(options.args())
            .addAllEnvironment(withoutOwnVariables(options))
            .setOfflinkLibexec(offlinkLibexec(options.argv0(), cwd))
            .addAllTools(tools.get())
            .setExitStatus(report.getExitStatus())
            .setError(report.getError());
    for (Path file : inputs.paths()) {
      Optional<byte[]> snapshot = inputs.snapshot(file);
      long size;
      String sha256;
      try {
        size = snapshot.isPresent() ? snapshot.get().length : Files.size(file);
        sha256 = snapshot.isPresent() ? Sha256.hex(snapshot.get()) : Sha256.hex(file);
      } catch (IOException gone) {
        continue; // deleted by the run and not snapshotted: nothing to replay it from
      }
      m.addFiles(
          BundledFile.newBuilder()
              .setPath(file.toString())
              .setSize(size)
              .setSha256(sha256)
              .setRole(inputs.files().get(file)));
      tar.put(
          top + "/" + BundlePaths.entryOf(file),
          snapshot.isPresent()
              ? TarBundle.Content.of(snapshot.get())
              : TarBundle.Content.file(file, size));
    }
    ReproducerManifest manifest = m.build();
    tar.put(
        top + "/" + BundlePaths.MANIFEST, TarBundle.Content.of(LinkReportWriter.json(manifest)));
    tar.put(
        top + "/" + BundlePaths.REPORT,
        TarBundle.Content.of(LinkReportWriter.encode(report, ReportFormat.JSON)));
    tar.put(
        top + "/" + BundlePaths.REPLAY,
        TarBundle.Content.script(ReplayScript.text(manifest).getBytes(StandardCharsets.UTF_8)));
    return tar;
  }

  /** The recorded variables, less the ones that asked for this bundle. */
  private static List<org.offlink.ltowrapper.report.proto.EnvironmentVariable> withoutOwnVariables(
      LinkPlan options) {
    List<org.offlink.ltowrapper.report.proto.EnvironmentVariable> vars = new ArrayList<>();
    for (var v : ReportEnvironment.select(options.environment())) {
      if (!v.getName().equals(ReproduceRequest.ALWAYS)
          && !v.getName().equals(ReproduceRequest.ON_FAILURE)
          && !v.getName().equals(PlanResolver.REPORT_VARIABLE)) {
        vars.add(v);
      }
    }
    return vars;
  }

  /** The folder of the lto-wrapper that ran, when it is an offlink tree's libexec/offlink. */
  static String offlinkLibexec(String argv0, Path cwd) {
    Path dir = cwd.resolve(argv0).normalize().getParent();
    return dir != null && dir.endsWith(Path.of("libexec", "offlink")) ? dir.toString() : "";
  }

  private static String stem(Path target) {
    String name = target.getFileName().toString();
    return name.endsWith(".tar") ? name.substring(0, name.length() - 4) : name;
  }
}
