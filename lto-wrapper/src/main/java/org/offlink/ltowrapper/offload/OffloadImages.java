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
import java.util.concurrent.Future;
import org.offlink.ltowrapper.LtoWrapperException;
import org.offlink.ltowrapper.QuotedOptions;
import org.offlink.ltowrapper.RunContext;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.OptsSection;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.OptionMerger;

/**
 * The offload part of lto-wrapper (LW:1719–1815 and 909–1101): read the offload object list, merge
 * the {@code .gnu.offload_lto_.opts} options, run one mkoffload per target in {@code
 * OFFLOAD_TARGET_NAMES} order, and copy {@code crtoffloadtable.o}. Produces the protocol lines in
 * GCC's order: the crtoffloadtable copy, then one object per built image.
 */
public final class OffloadImages {
  private final RunContext ctx;

  /** Creates the step. */
  public OffloadImages(RunContext ctx) {
    this.ctx = ctx;
  }

  /** Starts the work; {@link Pending#await} returns the protocol lines. */
  public Pending start(String offloadListName) {
    List<String> names = readList(offloadListName);
    List<DecodedOption> merged = mergeOptions(names);
    List<Future<Optional<String>>> images = new ArrayList<>();
    Optional<String> targets = ctx.settings().offloadTargetNames();
    Optional<String> compilerPath = ctx.settings().compilerPath();
    if (targets.isPresent() && compilerPath.isPresent()) {
      for (String target : targets.get().split(":", -1)) {
        // Located inside the job, as GCC looks up each target's mkoffload just before running it.
        images.add(
            ctx.offloadScheduler().submit(() -> build(compilerPath.get(), target, names, merged)));
      }
    }
    return new Pending(images);
  }

  private Optional<String> build(
      String compilerPath, String target, List<String> names, List<DecodedOption> merged) {
    try {
      Optional<String> object = buildTarget(compilerPath, target, names, merged);
      ctx.report().targetDone(target, object);
      return object;
    } catch (RuntimeException e) {
      ctx.report().targetFailed(target, e.getMessage());
      throw e;
    }
  }

  private Optional<String> buildTarget(
      String compilerPath, String target, List<String> names, List<DecodedOption> merged) {
    Optional<String> mkoffload = locate(compilerPath, target);
    if (mkoffload.isEmpty()) {
      return Optional.empty(); // OFFLOAD_TARGET_DEFAULT: a target without mkoffload is skipped
    }
    return new MkoffloadCommand(ctx, mkoffload.get(), target, names, merged).run();
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
    Path file = ctx.cwd().resolve(name);
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
      Optional<List<String>> strings;
      try {
        strings = ctx.services().opts().read(in, OptsSection.OFFLOAD);
      } catch (IOException e) {
        strings = Optional.empty();
      }
      if (strings.isEmpty()) {
        // GCC 12 prints a stale errno here; "Inappropriate ioctl for device" is what it shows.
        throw new LtoWrapperException(
            "cannot read " + in.file() + ": Inappropriate ioctl for device");
      }
      for (String s : strings.get()) {
        acc.add(QuotedOptions.decode(ctx.services().quoting(), ctx.options().collectGcc(), s));
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

    private Pending(List<Future<Optional<String>>> images) {
      this.images = images;
    }

    /** Waits for the images and returns the protocol lines (crtoffloadtable first). */
    public List<String> await() {
      List<String> built = new ArrayList<>();
      for (Optional<String> image : JobScheduler.awaitAll(images)) {
        image.ifPresent(built::add);
      }
      List<String> lines = new ArrayList<>();
      if (!built.isEmpty()) {
        new CrtOffloadTable(ctx).copy().ifPresent(lines::add);
      }
      lines.addAll(built);
      return lines;
    }
  }
}
