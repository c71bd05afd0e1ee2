package org.offlink.ltowrapper;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.cache.LinkCaches;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.ltowrapper.jobs.FixedTokenPool;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.jobs.JobserverAuth;
import org.offlink.ltowrapper.lto.HostLto;
import org.offlink.ltowrapper.lto.LtoPlan;
import org.offlink.ltowrapper.offload.Collect2Inputs;
import org.offlink.ltowrapper.offload.ImageBuilders;
import org.offlink.ltowrapper.offload.LinkerTableOrder;
import org.offlink.ltowrapper.offload.OffloadImages;
import org.offlink.ltowrapper.offload.OffloadPolicy;
import org.offlink.ltowrapper.offload.OffloadRun;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;
import org.offlink.ltowrapper.options.MergeRule;
import org.offlink.ltowrapper.options.OptionForwarding;
import org.offlink.ltowrapper.options.OptionMerger;
import org.offlink.ltowrapper.options.QuotedOptions;
import org.offlink.ltowrapper.partition.DeviceJobSlots;
import org.offlink.ltowrapper.plan.LinkArgument;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.DumpNames;
import org.offlink.ltowrapper.run.LinkOutputs;
import org.offlink.ltowrapper.run.LinkTemps;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.runtime.LinkContext;

/**
 * One lto-wrapper run in GCC 12's order (LW:1440–1905): classify the inputs and merge their {@code
 * .gnu.lto_.opts}, decide the LTO plan, compute the dump prefix and the common driver argv, build
 * the offload images, then run the host LTO flow if there are LTO objects. Returns the protocol
 * lines; temporary files not handed over are removed by {@link #close}.
 */
final class LinkRun implements AutoCloseable {
  private final LinkPlan options;
  private final LtoWrapperServices services;
  private final ImageBuilders imageBuilders;
  private final LinkContext context;
  private final Diagnostics diag;
  private final LinkPlan.Settings settings;
  private final LinkTemps temps;
  private final LinkRecorder report;
  private final String mode;
  private final ScannedInputs scans;
  private final Optional<ImageCache> imageCache;
  private final List<String> ltoArgs = new ArrayList<>();
  private final List<InputFile> ltoObjects = new ArrayList<>();
  private final String version;
  private JobScheduler offloadScheduler;

  LinkRun(
      LinkPlan options,
      LtoWrapperServices services,
      ImageBuilders imageBuilders,
      LinkContext context,
      Diagnostics diag,
      LinkRecorder report,
      String version,
      String mode) {
    this.options = options;
    this.version = version;
    this.report = report;
    this.mode = mode;
    this.services = services;
    // A link may ask for its mkoffloads as programs even where offlink's own could run here.
    this.imageBuilders =
        options.settings().mkoffloadSubprocess() ? ImageBuilders.subprocessOnly() : imageBuilders;
    this.context = context;
    this.diag = diag;
    this.settings = options.settings();
    this.temps = new LinkTemps(context, settings.saveTemps(), settings.verbose(), diag);
    this.scans = new ScannedInputs(services.scanner());
    // Set up first: its key work starts on a thread of its own while the inputs are read.
    this.imageCache =
        this.imageBuilders.inProcess()
            ? LinkCaches.forLink(
                context,
                settings.flags(),
                settings.gcc(),
                settings.cache(),
                settings.offloadTargets(),
                scans,
                diag::warning,
                settings.verbose() || settings.saveTemps()
                    ? Optional.of(diag::verbose)
                    : Optional.empty(),
                settings.verbose() ? Optional.of(diag::verbose) : Optional.empty())
            : Optional.empty();
  }

  List<String> run() {
    // The plugin's -foffload-objects= file is lto-wrapper's to remove from the start, even when
    // interrupted before reading it (GCC's tool_cleanup unlinks offload_objects_file_name).
    options.offloadObjects().ifPresent(temps::register);
    OptionMerger merger =
        new OptionMerger(
            options.linkOptions(),
            w -> {
              diag.warning(w);
              report.mergeNote(w);
            });
    List<DecodedOption> ilOptions = classifyInputs(merger);
    List<DecodedOption> withLinkFlto = new ArrayList<>(ilOptions);
    boolean jobserverRequested = false;
    for (DecodedOption o : options.linkOptions()) {
      if (o.option() == GccOption.FLTO_EQ) {
        MergeRule.mergeFlto(withLinkFlto, o, false); // GCC 12 merges; 13+ would override
        jobserverRequested = o.arg().equals("jobserver");
      }
    }
    if (settings.verbose()) {
      echoArgv();
    }
    JobserverAuth.Detection detection =
        JobserverAuth.detect(
            settings.makeflags().orElse(null), fd -> Files.exists(services.fdPath().apply(fd)));
    boolean relocatable = settings.output().relocatable();
    LtoPlan plan =
        LtoPlan.decide(
            withLinkFlto, settings.noPartition() || relocatable, jobserverRequested, detection);
    DumpNames dump = settings.dump();
    List<String> head = head(ilOptions, merger);
    OffloadRun ctx = context(dump, merger);
    LinkOutputs outputs = new LinkOutputs(temps, dump, context.workingDirectory());
    List<String> lines = new ArrayList<>();
    Optional<List<String>> offloadNames = Optional.empty();
    List<String> hostCopies = List.of();
    OffloadImages.Pending offload = null;
    if (options.offloadObjects().isPresent()) {
      offload = new OffloadImages(ctx).start(options.offloadObjects().get());
    } else if (options.viaCollect2()) {
      offloadNames = Optional.of(offloadInputs());
      if (!offloadNames.get().isEmpty()) {
        offload = new OffloadImages(ctx).startWith(offloadNames.get());
      }
    }
    if (offload != null && (!ctx.offloadPolicy().parallel() || ltoObjects.isEmpty())) {
      lines.addAll(offload.await());
      offload = null;
    }
    if (offloadNames.isPresent()) {
      hostCopies = new Collect2Inputs(outputs).hostCopies(options.inputFiles(), ltoObjects);
    }
    boolean offloadPresent =
        options.offloadObjects().isPresent() || offloadNames.map(n -> !n.isEmpty()).orElse(false);
    List<String> host = List.of();
    if (!offloadPresent || !ltoObjects.isEmpty()) {
      // GCC 12 runs host LTO even with no LTO input when there is no offload work; with offload
      // objects only (the plain -fopenmp case) there is nothing to compile for the host.
      host =
          new HostLto(
                  outputs,
                  ctx.children(),
                  diag,
                  options,
                  services,
                  plan,
                  head,
                  ltoArgs,
                  ltoObjects,
                  in -> scans.of(in).hasEarlyDebugInfo())
              .run(relocatable);
    }
    if (offload != null) {
      lines.addAll(offload.await());
    }
    if (offloadPresent && ctx.offloadPolicy().consistencyCheck()) {
      LinkerTableOrder.check(
          options.linkOptions(),
          host,
          name -> scans.of(InputFile.parse(name, context.workingDirectory())).tables());
    }
    lines.addAll(hostCopies);
    lines.addAll(host);
    lines.forEach(temps::release);
    return lines;
  }

  /** The inputs carrying offload IR, in argument order: what the plugin would have listed. */
  private List<String> offloadInputs() {
    List<String> names = new ArrayList<>();
    for (InputFile in : options.inputFiles()) {
      // Not an object: collect2 passes objects only, so nothing to build for it.
      if (scans.of(in).offloadOpts().isPresent()) {
        names.add(in.spelling());
      }
    }
    return names;
  }

  private OffloadRun context(DumpNames dump, OptionMerger merger) {
    ChildRunner children =
        new ChildRunner(
            services.runner().forLink(context),
            context,
            temps,
            diag,
            settings.verbose(),
            dump,
            report);
    OffloadPolicy policy =
        OffloadPolicy.decide(settings, settings.targets().size(), imageBuilders.inProcess());
    int slots = policy.parallel() ? Math.max(1, services.cpuCount().getAsInt()) : 1;
    offloadScheduler = new JobScheduler(new FixedTokenPool(slots));
    return new OffloadRun(
        options,
        services,
        context.workingDirectory(),
        diag,
        temps,
        children,
        dump,
        merger,
        offloadScheduler,
        report,
        policy,
        imageBuilders,
        scans,
        imageCache,
        DeviceJobSlots.forLink(
            settings.flags().deviceJobs(),
            context.environment(),
            services.cpuCount().getAsInt(),
            services.fdPath()));
  }

  /**
   * Sorts the arguments into pass-through options and LTO objects, merging the objects' options.
   */
  private List<DecodedOption> classifyInputs(OptionMerger merger) {
    OptionMerger.Accumulator acc = merger.accumulator();
    for (LinkArgument arg : options.inputs()) {
      if (arg.isOption()) {
        ltoArgs.add(arg.spelling()); // GCC: open() failed, so it is an option for the LTO compile
        continue;
      }
      InputFile in = arg.file().get();
      Optional<List<String>> strings = scans.of(in).hostOpts();
      if (strings.isPresent()) {
        for (String s : strings.get()) {
          acc.add(QuotedOptions.decode(options.collectGcc(), s));
        }
        ltoObjects.add(in);
        report.inputOptions(in, true, strings.get());
      }
    }
    return acc.result();
  }

  private List<String> head(List<DecodedOption> ilOptions, OptionMerger merger) {
    List<String> head = new ArrayList<>();
    head.add(options.collectGcc());
    head.add("-xlto");
    head.add("-c");
    head.addAll(
        OptionForwarding.compilerOptions(
            ilOptions,
            merger.xassemblerMismatch(),
            settings.gccRelease().linkStep().forwardsUnwindTables()));
    head.addAll(OptionForwarding.linkerOptions(options.linkOptions()));
    if (settings.dumpdir().isEmpty()) {
      head.add("-dumpdir");
      head.add("");
    }
    head.add("-dumpbase");
    return head;
  }

  private void echoArgv() {
    // Like collect2's "collect2 version ..." under -v: says which lto-wrapper ran (GCC's own
    // prints only its argv), also when offlink is installed in place of GCC's.
    diag.verbose(version);
    // Where this link ran: the user's link server or a JVM of its own, and why (issue 30).
    diag.verbose("offlink link mode: " + mode);
    StringBuilder sb = new StringBuilder(options.argv0()).append(' ');
    for (String a : options.args()) {
      sb.append(a).append(' ');
    }
    diag.verbose(sb.toString());
  }

  @Override
  public synchronized void close() {
    if (offloadScheduler != null) {
      offloadScheduler.close();
    }
    temps.cleanup();
  }
}
