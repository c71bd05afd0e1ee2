package org.offlink.ltowrapper.offload;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.gcc.OffloadOptionException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.image.DeviceImage;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.bridge.mkoffload.MkoffloadFailure;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.mkoffload.MkoffloadRequest;
import org.offlink.bridge.mkoffload.MkoffloadResult;
import org.offlink.bridge.nvptx.PtxArchives;
import org.offlink.bridge.nvptx.PtxLinking;
import org.offlink.bridge.partition.PartitionCache;
import org.offlink.bridge.partition.PartitionServices;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.partition.CachedPartitions;
import org.offlink.ltowrapper.partition.DeviceJobSlots;
import org.offlink.ltowrapper.report.ChildKind;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.WorkingDirectory;

/**
 * Runs offlink's own mkoffload in this JVM through the {@link Mkoffload} library, handing it the
 * typed request ({@link OffloadOptions#of}: no command line is written or read back, except the
 * response file GCC's {@code -v} and {@code -save-temps} show), its diagnostics captured like a
 * child's, and returns the image it built (for the consistency check, recorded in the link report
 * with every program it ran) or why it failed.
 */
public final class InProcessImageBuilder implements ImageBuilder {
  private final ChildRunner children;
  private final LinkRecorder report;
  private final Optional<DeviceJobSlots> deviceJobs;
  private final Optional<ImageCache> cache;
  private final PtxArchives archives;

  /**
   * A builder running through {@code children} (GCC's {@code -v} echo, response file and report
   * entry; its link is mkoffload's), recording the image in {@code report}.
   */
  public InProcessImageBuilder(ChildRunner children, LinkRecorder report) {
    this(children, report, Optional.empty(), Optional.empty(), PtxArchives.NONE);
  }

  /**
   * A builder whose mkoffload compiles the device code in partitions on {@code deviceJobs} when
   * present ({@code --device-jobs}), keeping them in {@code cache} when there is one, and links
   * nvptx PTX in-process with the library archives of {@code archives} (a link server's).
   */
  public InProcessImageBuilder(
      ChildRunner children,
      LinkRecorder report,
      Optional<DeviceJobSlots> deviceJobs,
      Optional<ImageCache> cache,
      PtxArchives archives) {
    this.children = children;
    this.report = report;
    this.deviceJobs = deviceJobs;
    this.cache = cache;
    this.archives = archives;
  }

  @Override
  public ImageResult build(ImageRequest request) {
    return build(request, BuildWatcher.NONE);
  }

  @Override
  public ImageResult build(ImageRequest request, BuildWatcher watcher) {
    Run run = new Run(request, new ReportAndWatcher(report.mkoffloadListener(), watcher));
    CommandResult result =
        children.runInProcessCapturing(
            ChildKind.mkoffload(request.target()), request.argv(), request.responseSuffix(), run);
    MkoffloadResult outcome = run.outcome;
    return new ImageResult(
        result,
        outcome.image().map(DeviceImage::counts),
        result.succeeded() ? Optional.empty() : outcome.failure());
  }

  /** One in-process mkoffload run, its diagnostics captured; a class, not a lambda (cold path). */
  private final class Run implements ChildRunner.InProcessBody {
    private final ImageRequest request;
    private final MkoffloadListener listener;
    private MkoffloadResult outcome; // set when the body has run, before the result is read

    Run(ImageRequest request, MkoffloadListener listener) {
      this.request = request;
      this.listener = listener;
    }

    @Override
    public CommandResult run(List<String> argv) {
      LinkContext link = children.context();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      long start = System.nanoTime();
      try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
        outcome = build(link.withOutput(errStream, errStream));
      }
      return new CommandResult(
          argv,
          outcome.status(),
          "",
          err.toString(StandardCharsets.UTF_8),
          Duration.ofNanos(System.nanoTime() - start));
    }

    private MkoffloadResult build(LinkContext context) {
      OffloadOptions options;
      try {
        options = OffloadOptions.of(request.arguments());
      } catch (OffloadOptionException e) {
        Mkoffload.fatal(context, e.getMessage());
        return MkoffloadResult.failed(
            new MkoffloadFailure(MkoffloadFailure.Kind.OPTIONS, "mkoffload", e.getMessage(), ""));
      }
      OffloadTarget target = OffloadTarget.byTriplet(request.target()).orElseThrow();
      report.mkoffloadInProcess(target);
      // lto-wrapper has read every offload input's .opts section before running mkoffload (and
      // failed on any without one), so mkoffload's own input check would repeat it.
      MkoffloadResult result =
          new Mkoffload(context, listener, partitions(request))
              .run(
                  new MkoffloadRequest(
                      target,
                      options,
                      request.wrapper(),
                      true,
                      request.installation(),
                      ptxLinking(request)));
      if (result.image().isPresent()) {
        report.imageBuilt(
            WorkingDirectory.resolve(context.workingDirectory(), request.output()),
            result.image().get());
      }
      return result;
    }
  }

  /** In-process PTX linking with offlink's stand-in beside the mkoffload {@code request} runs. */
  private PtxLinking ptxLinking(ImageRequest request) {
    Path folder = Path.of(request.program()).getParent();
    return folder == null ? PtxLinking.NONE : PtxLinking.beside(folder, archives);
  }

  /** The partitioned compile's slots and cache for {@code request}, with {@code --device-jobs}. */
  private Optional<PartitionServices> partitions(ImageRequest request) {
    return deviceJobs.map(
        slots ->
            new PartitionServices(
                slots,
                cache.isEmpty()
                    ? PartitionCache.NONE
                    : new CachedPartitions(cache.get(), request.inputs())));
  }

  /** The link report's listener, which also tells the caller's watcher. */
  private record ReportAndWatcher(MkoffloadListener report, BuildWatcher watcher)
      implements MkoffloadListener {
    @Override
    public void commandStarting(OffloadTarget target, Command command) {
      report.commandStarting(target, command);
      watcher.programStarting();
    }

    @Override
    public void commandFinished(OffloadTarget target, Command command, CommandResult result) {
      report.commandFinished(target, command, result);
    }

    @Override
    public void wrapperReady(OffloadTarget target, byte[] object, ImageCounts counts) {
      report.wrapperReady(target, object, counts);
      watcher.objectReady(object, counts);
    }
  }
}
