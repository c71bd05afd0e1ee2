package org.offlink.ltowrapper.offload;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.image.DeviceImage;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.mkoffload.Mkoffload;
import org.offlink.bridge.mkoffload.MkoffloadInvocation;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.mkoffload.MkoffloadRequest;
import org.offlink.bridge.mkoffload.MkoffloadResult;
import org.offlink.bridge.partition.PartitionCache;
import org.offlink.bridge.partition.PartitionServices;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.partition.CachedPartitions;
import org.offlink.ltowrapper.partition.DeviceJobSlots;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * Runs offlink's own mkoffload in this JVM through the {@link Mkoffload} library: its command line
 * read by the same {@link MkoffloadInvocation} as the {@code mkoffload} launcher's, its diagnostics
 * captured like a child's, and the image it built returned (for the consistency check) and recorded
 * in the link report, with every program it ran.
 */
public final class InProcessImageBuilder implements ImageBuilder {
  private final ChildRunner children;
  private final LinkRecorder report;
  private final Optional<DeviceJobSlots> deviceJobs;
  private final Optional<ImageCache> cache;

  /**
   * A builder running through {@code children} (GCC's {@code -v} echo, response file and report
   * entry; its environment is mkoffload's), recording the image in {@code report}.
   */
  public InProcessImageBuilder(ChildRunner children, LinkRecorder report) {
    this(children, report, Optional.empty(), Optional.empty());
  }

  /**
   * A builder whose mkoffload compiles the device code in partitions on {@code deviceJobs} when
   * present ({@code --device-jobs}), keeping them in {@code cache} when there is one.
   */
  public InProcessImageBuilder(
      ChildRunner children,
      LinkRecorder report,
      Optional<DeviceJobSlots> deviceJobs,
      Optional<ImageCache> cache) {
    this.children = children;
    this.report = report;
    this.deviceJobs = deviceJobs;
    this.cache = cache;
  }

  @Override
  public ImageResult build(ImageRequest request) {
    return build(request, BuildWatcher.NONE);
  }

  @Override
  public ImageResult build(ImageRequest request, BuildWatcher watcher) {
    AtomicReference<Optional<DeviceImage>> image = new AtomicReference<>(Optional.empty());
    MkoffloadListener listener = new ReportAndWatcher(report.mkoffloadListener(), watcher);
    CommandResult run =
        children.runInProcessCapturing(
            request.argv(), request.responseSuffix(), argv -> run(argv, request, listener, image));
    return new ImageResult(
        run, run.succeeded() ? image.get().map(DeviceImage::counts) : Optional.empty());
  }

  private CommandResult run(
      List<String> argv,
      ImageRequest request,
      MkoffloadListener listener,
      AtomicReference<Optional<DeviceImage>> image) {
    Path cwd = children.workingDirectory();
    Map<String, String> environment = children.environment();
    Path program = WorkingDirectory.resolve(cwd, argv.get(0));
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long start = System.nanoTime();
    int status;
    try (PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      ToolContext context = new ToolContext(environment, cwd, errStream, errStream);
      try {
        // lto-wrapper has read every offload input's .opts section before running mkoffload
        // (and failed on any without one), so mkoffload's own input check would repeat it.
        MkoffloadRequest parsed =
            MkoffloadInvocation.parse(argv.subList(1, argv.size()), program.toString(), environment)
                .withInputsChecked();
        report.mkoffloadInProcess(parsed.target());
        MkoffloadResult result = new Mkoffload(context, listener, partitions(request)).run(parsed);
        status = result.status();
        result
            .image()
            .ifPresent(
                built -> {
                  image.set(Optional.of(built));
                  report.imageBuilt(WorkingDirectory.resolve(cwd, request.output()), built);
                });
      } catch (IllegalArgumentException e) {
        errStream.println("mkoffload: error: " + e.getMessage());
        status = 1;
      }
    }
    return new CommandResult(
        argv,
        status,
        "",
        err.toString(StandardCharsets.UTF_8),
        Duration.ofNanos(System.nanoTime() - start));
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
