package org.offlink.ltowrapper.offload;

import java.io.EOFException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.gcc.LibgompRuntime;
import org.offlink.bridge.gcc.RuntimeCompatibility;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;
import org.offlink.ltowrapper.options.HostHardening;
import org.offlink.ltowrapper.options.OptionMerger;
import org.offlink.ltowrapper.options.QuotedOptions;
import org.offlink.ltowrapper.run.LinkOutputs;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.runtime.WorkingDirectory;
import org.offlink.streamer.MalformedObjectException;

/**
 * The offload part of lto-wrapper (LW:1719–1815 and 909–1101): read the offload object list, merge
 * the {@code .gnu.offload_lto_.opts} options, run one mkoffload per target in {@code
 * OFFLOAD_TARGET_NAMES} order (checking each image against the host tables, see {@link
 * ConsistencyCheck}), and provide the {@code __OFFLOAD_TABLE__} object (see {@link
 * CrtOffloadTable}). Produces the protocol lines in GCC's order: the table object, then one object
 * per built image.
 */
public final class OffloadImages {
  private final OffloadRun ctx;
  private Optional<LibgompRuntime> libgomp; // null until looked up

  /** Creates the step. */
  public OffloadImages(OffloadRun ctx) {
    this.ctx = ctx;
  }

  /** Starts the work for the objects in list file {@code offloadListName} (plugin mode). */
  public Pending start(String offloadListName) {
    return startWith(readList(offloadListName));
  }

  /**
   * Starts the work for the offload objects {@code names}; {@link Pending#await} returns the
   * protocol lines.
   */
  public Pending startWith(List<String> names) {
    List<DecodedOption> ilOptions = mergeOptions(names);
    // The host tables are only needed once an image is built: the first job starts first and
    // this thread reads the tables while its accel compiler runs (on the link's critical path
    // otherwise). Before any later submission, which waits for a free slot: with one slot that
    // is the first job's end, and the first job waits for the tables. A malformed table fails
    // the job that checks against it, with the same message.
    FutureTask<Optional<HostTables>> host = new FutureTask<>(() -> hostTables(names));
    List<Future<Optional<String>>> images = new ArrayList<>();
    Optional<String> compilerPath = ctx.settings().compilerPath();
    List<String> targets = ctx.settings().offloadTargets();
    // Once for all targets, and only when some image is built: the warning names the option once.
    List<DecodedOption> merged =
        targets.isEmpty()
            ? ilOptions
            : HostHardening.forOffloadCompile(
                ilOptions, ctx.settings().flags().keepHostHardening(), ctx.diag()::warning);
    for (String target : targets) {
      // Located inside the job, as GCC looks up each target's mkoffload just before running it.
      images.add(
          ctx.offloadScheduler()
              .submit(() -> build(compilerPath.get(), target, names, merged, host)));
      host.run(); // once: a later call does nothing
    }
    // Also while the first accel compiler runs: the table object, needed once an image exists.
    Optional<CrtOffloadTable.Prepared> table =
        images.isEmpty() ? Optional.empty() : Optional.of(crtOffloadTable().prepare());
    if (!images.isEmpty()) {
      libgomp(); // and the libgomp for the runtime check, looked up once here
    }
    return new Pending(images, table);
  }

  private CrtOffloadTable crtOffloadTable() {
    return new CrtOffloadTable(
        new LinkOutputs(ctx.temps(), ctx.dump(), ctx.cwd()),
        ctx.settings().libraryPath(),
        ctx.offloadPolicy().positionIndependentTable(),
        ctx.settings().gccRelease().linkStep().pieTableVariant());
  }

  private Optional<HostTables> hostTables(List<String> names) {
    if (!ctx.offloadPolicy().consistencyCheck()) {
      return Optional.empty();
    }
    try {
      return HostTables.of(names, ctx.scans(), ctx.cwd());
    } catch (MalformedObjectException e) {
      throw new LtoWrapperException(e.getMessage(), e);
    }
  }

  private Optional<String> build(
      String compilerPath,
      String target,
      List<String> names,
      List<DecodedOption> merged,
      FutureTask<Optional<HostTables>> host) {
    try {
      Optional<String> object =
          buildTarget(compilerPath, target, names, merged, host).map(BuiltObject::name);
      ctx.report().targetDone(target, object);
      return object;
    } catch (RuntimeException e) {
      ctx.report().targetFailed(target, e.getMessage());
      throw e;
    }
  }

  private Optional<BuiltObject> buildTarget(
      String compilerPath,
      String target,
      List<String> names,
      List<DecodedOption> merged,
      FutureTask<Optional<HostTables>> host) {
    Optional<String> mkoffload = locate(compilerPath, target);
    if (mkoffload.isEmpty()) {
      return Optional.empty(); // OFFLOAD_TARGET_DEFAULT: a target without mkoffload is skipped
    }
    Optional<BuiltObject> image =
        new MkoffloadCommand(ctx, mkoffload.get(), target, names, merged).run();
    if (image.isPresent()) {
      Optional<ImageCounts> counts = image.get().counts();
      awaitHostTables(host).ifPresent(tables -> check(target, counts, tables));
      warnIfRuntimeRejects(target, counts);
    }
    return image;
  }

  /**
   * The runtime-compatibility warning: when the libgomp this link resolves is known and will not
   * run this GCC's image as written (see {@link RuntimeCompatibility}).
   */
  private void warnIfRuntimeRejects(String target, Optional<ImageCounts> counts) {
    Optional<OffloadTarget> known = OffloadTarget.byTriplet(target);
    Optional<LibgompRuntime> lib = libgomp();
    if (known.isEmpty() || lib.isEmpty()) {
      return;
    }
    GccRelease release = ctx.settings().gccRelease();
    int word =
        known.get() == OffloadTarget.NVPTX ? release.nvptx().version() : release.gcn().version();
    OptionalLong variables = OptionalLong.empty();
    if (known.get() == OffloadTarget.AMDGCN && word >>> 16 == 2) {
      if (counts.isPresent()) {
        variables = OptionalLong.of(counts.get().variables());
      }
    }
    RuntimeCompatibility.check(known.get(), release.major(), word, variables, lib.get())
        .ifPresent(ctx.diag()::warning);
  }

  /**
   * The libgomp the host link resolves: the first {@code libgomp.so} along the link's {@code -L}
   * folders, then {@code LIBRARY_PATH} (where the driver lists its own library folders); looked up
   * once per link.
   */
  private synchronized Optional<LibgompRuntime> libgomp() {
    if (libgomp == null) {
      List<Path> folders = new ArrayList<>();
      for (DecodedOption o : ctx.options().linkOptions()) {
        if (o.option() == GccOption.LIBDIR_L && !o.arg().isEmpty()) {
          folders.add(WorkingDirectory.resolve(ctx.cwd(), o.arg()));
        }
      }
      ctx.settings()
          .libraryPath()
          .ifPresent(
              p -> {
                for (String entry : p.split(":")) {
                  if (!entry.isEmpty()) {
                    folders.add(WorkingDirectory.resolve(ctx.cwd(), entry));
                  }
                }
              });
      libgomp = LibgompRuntime.find(folders);
    }
    return libgomp;
  }

  /** The tables read by the starting thread; its failure (a malformed table) is rethrown. */
  private static Optional<HostTables> awaitHostTables(FutureTask<Optional<HostTables>> host) {
    try {
      return host.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException cause) {
        throw cause;
      }
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new LtoWrapperException("interrupted while reading the host offload tables", e);
    }
  }

  private static void check(String target, Optional<ImageCounts> counts, HostTables host) {
    if (OffloadTarget.byTriplet(target).isPresent()) {
      counts.ifPresent(c -> ConsistencyCheck.check(target, host, c));
    }
  }

  private Optional<String> locate(String compilerPath, String target) {
    Optional<String> found = new MkoffloadLocator(ctx.cwd()).find(compilerPath, target);
    if (found.isEmpty() && !ctx.settings().offloadTargetDefault()) {
      throw new LtoWrapperException(
          "could not find "
              + MkoffloadLocator.relativeName(target)
              + " in "
              + compilerPath
              + " (consider using %<-B%>)");
    }
    return found;
  }

  private List<String> readList(String name) {
    Path file = WorkingDirectory.resolve(ctx.cwd(), name);
    List<String> names;
    try {
      names = ctx.services().offloadList().read(file);
    } catch (NoSuchFileException | AccessDeniedException e) {
      throw new LtoWrapperException("cannot open " + name + ": " + reason(e), e);
    } catch (EOFException e) {
      throw new LtoWrapperException("invalid format of " + name, e);
    } catch (IOException e) {
      throw new LtoWrapperException("cannot read " + name + ": " + reason(e), e);
    }
    ctx.temps().maybeUnlink(name);
    return names;
  }

  private List<DecodedOption> mergeOptions(List<String> names) {
    OptionMerger.Accumulator acc = ctx.merger().accumulator();
    for (String name : names) {
      InputFile in = InputFile.parse(name, ctx.cwd());
      ctx.report().offloadInput(in);
      if (!Files.isReadable(in.file())) {
        throw new LtoWrapperException(
            "cannot open " + in.file() + ": No such file or directory"); // GCC's open() failure
      }
      Optional<List<String>> strings = ctx.scans().of(in).offloadOpts();
      if (strings.isEmpty()) {
        // GCC 12 prints a stale errno here; "Inappropriate ioctl for device" is what it shows.
        throw new LtoWrapperException(
            "cannot read " + in.file() + ": Inappropriate ioctl for device");
      }
      ctx.report().inputOptions(in, false, strings.get());
      for (String s : strings.get()) {
        acc.add(QuotedOptions.decode(ctx.options().collectGcc(), s));
      }
    }
    return acc.result();
  }

  private static String reason(IOException e) {
    return e instanceof NoSuchFileException
        ? "No such file or directory"
        : e instanceof AccessDeniedException ? "Permission denied" : String.valueOf(e.getMessage());
  }

  /** The offload images being built. */
  public final class Pending {
    private final List<Future<Optional<String>>> images;
    private final Optional<CrtOffloadTable.Prepared> table;

    private Pending(
        List<Future<Optional<String>>> images, Optional<CrtOffloadTable.Prepared> table) {
      this.images = images;
      this.table = table;
    }

    /** Waits for the images and returns the protocol lines (crtoffloadtable first). */
    public List<String> await() {
      List<String> built = new ArrayList<>();
      try {
        for (Optional<String> image : JobScheduler.awaitAll(images)) {
          image.ifPresent(built::add);
        }
      } finally {
        if (built.isEmpty()) {
          table.ifPresent(CrtOffloadTable.Prepared::discard);
        }
      }
      List<String> lines = new ArrayList<>();
      if (!built.isEmpty() && table.isPresent()) {
        table.get().take().ifPresent(lines::add);
      }
      lines.addAll(built);
      return lines;
    }
  }
}
