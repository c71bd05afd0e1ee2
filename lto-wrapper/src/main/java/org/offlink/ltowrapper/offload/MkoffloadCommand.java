package org.offlink.ltowrapper.offload;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags.OffloadFailure;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.gcc.MkoffloadArguments;
import org.offlink.bridge.mkoffload.MkoffloadFailure;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.wrapper.WrapperMode;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;
import org.offlink.ltowrapper.options.HostHardening;
import org.offlink.ltowrapper.options.OptionForwarding;

/**
 * One mkoffload run for one target (LW:950–990). The argv, in GCC 12's order:
 *
 * <pre>
 * mkoffload [-save-temps] [-v] -o OUT  OFFLOAD-OBJECTS...  IL-OPTIONS  DIAG-OPTIONS
 *           -dumpbase DUMPPFXxTARGET  -foffload-options(IL)  -foffload-options(link)
 * </pre>
 *
 * passed through the response file {@code <dumppfx>offload_args} with {@code -save-temps} (shared
 * by all targets in GCC 12; {@code <dumppfx><target>.offload_args}, GCC 14's name, when several
 * images are built concurrently so that they cannot clobber each other). A failing mkoffload is
 * fatal as in GCC 12, or, under {@link OffloadFailure#WARN}, drops the target with one warning.
 *
 * @param ctx what the offload step works with
 * @param mkoffload the located mkoffload
 * @param target the target triplet
 * @param inputs the offload objects
 * @param merged the merged options of the offload objects
 */
public record MkoffloadCommand(
    OffloadRun ctx,
    String mkoffload,
    String target,
    List<String> inputs,
    List<DecodedOption> merged) {
  /** Copies the lists. */
  public MkoffloadCommand {
    inputs = List.copyOf(inputs);
    merged = List.copyOf(merged);
  }

  /** The output object name. */
  String outputName() {
    if (ctx.temps().saveTemps()) {
      String name = ctx.dump().offloadDumpbase(target) + ".o";
      ctx.temps().register(name);
      return name;
    }
    return ctx.temps().create(".target.o").toString();
  }

  /**
   * What mkoffload is handed for output {@code out}, typed: the merged options' ABI, language and
   * GCC 15 host ABI options as values, the forwarded options as GCC 12 orders them (see the class
   * comment).
   */
  public MkoffloadArguments arguments(String out) {
    List<DecodedOption> link = ctx.options().linkOptions();
    GccRelease.LinkStep step = ctx.settings().gccRelease().linkStep();
    List<String> compiler =
        new ArrayList<>(
            OptionForwarding.compilerOptions(
                merged, ctx.merger().xassemblerMismatch(), step.forwardsUnwindTables()));
    compiler.addAll(OptionForwarding.diagOptions(link));
    List<String> targetOptions = new ArrayList<>(OptionForwarding.offloadOptions(target, merged));
    targetOptions.addAll(OptionForwarding.offloadOptions(target, link));
    Optional<String> abi = Optional.empty();
    boolean openmp = false;
    boolean openacc = false;
    List<String> hostOpts = new ArrayList<>();
    for (DecodedOption o : merged) {
      GccOption option = o.option();
      if (option == GccOption.FOFFLOAD_ABI) {
        abi = Optional.of(o.arg());
      } else if (option == GccOption.FOPENMP && !o.negative()) {
        openmp = true;
      } else if (option == GccOption.FOPENACC && !o.negative()) {
        openacc = true;
      } else if (option == GccOption.FOFFLOAD_ABI_HOST_OPTS) {
        hostOpts.add(o.arg());
      }
    }
    return new MkoffloadArguments(
        out,
        inputs,
        compiler,
        ctx.dump().offloadDumpbase(target),
        targetOptions,
        abi,
        openmp,
        openacc,
        hostOpts,
        ctx.settings().saveTemps(),
        ctx.settings().verbose());
  }

  /**
   * Builds the image (in this JVM or as a program, as {@link ImageBuilders} chooses) and returns
   * the object; empty when the target was dropped under {@link OffloadFailure#WARN} (one warning
   * line naming the target and mkoffload's first error).
   */
  Optional<BuiltObject> run() {
    String out = outputName();
    // GCC 14+ names the response file per target; offlink does too when targets run at once.
    boolean perTarget =
        ctx.offloadPolicy().perTargetResponseFiles()
            || ctx.settings().gccRelease().linkStep().perTargetResponseFiles();
    String suffix = perTarget ? target + ".offload_args" : "offload_args";
    ImageBuilder builder =
        ctx.imageBuilders()
            .forMkoffload(
                mkoffload, ctx.children(), ctx.report(), ctx.imageCache(), ctx.deviceJobs());
    List<InputFile> objects = new ArrayList<>();
    for (String name : inputs) {
      objects.add(InputFile.parse(name, ctx.cwd()));
    }
    WrapperMode wrapper = ctx.settings().flags().wrapper().orElse(WrapperMode.ELF);
    ImageRequest request =
        new ImageRequest(
            target, mkoffload, arguments(out), wrapper, suffix, objects, ctx.settings().gcc());
    ImageResult built = builder.build(request);
    if (built.succeeded()) {
      return Optional.of(new BuiltObject(out, built.counts()));
    }
    CommandResult result = built.run();
    // A host hardening option the device cannot honour (HostHardening): one more line, the fix,
    // found in what the failing accel tool said.
    Optional<String> fix =
        HostHardening.hint(
            built
                .failure()
                .map(MkoffloadFailure::toolOutput)
                .orElse(result.stdout() + result.stderr()));
    if (ctx.offloadPolicy().failure() == OffloadFailure.FATAL) {
      ctx.children().forward(result);
      fix.ifPresent(ctx.diag()::note);
      throw ctx.children().exitFailure(request.argv(), result);
    }
    if (ctx.settings().verbose()) {
      ctx.children().forward(result);
    }
    ctx.temps().maybeUnlink(out);
    String why =
        built.failure().isPresent()
            ? firstError(built.failure().get())
            : firstError(result, mkoffload);
    ctx.diag()
        .warning("offload target %<" + target + "%> dropped (its code runs on the host): " + why);
    fix.ifPresent(ctx.diag()::note);
    return Optional.empty();
  }

  /**
   * An in-process mkoffload's diagnosis: the failing accel tool's own {@code fatal error:} line if
   * it printed one, else mkoffload's (which names the failing stage).
   */
  static String firstError(MkoffloadFailure failure) {
    for (String line : failure.toolOutput().split("\n", -1)) {
      String l = line.strip();
      if (l.contains("fatal error:")) {
        return l;
      }
    }
    return failure.line();
  }

  /**
   * A mkoffload run as a program, from its output: its first {@code fatal error:} line (which names
   * the failing stage), else the first line reporting an error (an accel tool's), else the first
   * line.
   */
  static String firstError(CommandResult result, String program) {
    List<String> lines =
        (result.stdout() + result.stderr())
            .lines()
            .map(String::strip)
            .filter(l -> !l.isEmpty())
            .toList();
    for (String marker : List.of("fatal error:", "error")) {
      for (String l : lines) {
        if (l.contains(marker)) {
          return l;
        }
      }
    }
    return lines.isEmpty()
        ? program + " returned " + result.exitStatus() + " exit status"
        : lines.get(0);
  }
}
