package org.offlink.ltowrapper.offload;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags.OffloadFailure;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.process.CommandResult;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.options.DecodedOption;
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
 */
public final class MkoffloadCommand {
  private final OffloadRun ctx;
  private final String mkoffload;
  private final String target;
  private final List<String> inputs;
  private final List<DecodedOption> merged;

  /** Describes the run. */
  public MkoffloadCommand(
      OffloadRun ctx,
      String mkoffload,
      String target,
      List<String> inputs,
      List<DecodedOption> merged) {
    this.ctx = ctx;
    this.mkoffload = mkoffload;
    this.target = target;
    this.inputs = List.copyOf(inputs);
    this.merged = List.copyOf(merged);
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

  /** The argv for output {@code out}. */
  public List<String> argv(String out) {
    List<DecodedOption> link = ctx.options().linkOptions();
    List<String> argv = new ArrayList<>();
    argv.add(mkoffload);
    if (ctx.settings().saveTemps()) {
      argv.add("-save-temps");
    }
    if (ctx.settings().verbose()) {
      argv.add("-v");
    }
    argv.add("-o");
    argv.add(out);
    argv.addAll(inputs);
    GccRelease.LinkStep step = ctx.settings().gccRelease().linkStep();
    argv.addAll(
        OptionForwarding.compilerOptions(
            merged, ctx.merger().xassemblerMismatch(), step.forwardsUnwindTables()));
    argv.addAll(OptionForwarding.diagOptions(link));
    argv.add("-dumpbase");
    argv.add(ctx.dump().offloadDumpbase(target));
    argv.addAll(OptionForwarding.offloadOptions(target, merged));
    argv.addAll(OptionForwarding.offloadOptions(target, link));
    return argv;
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
    List<String> argv = argv(out);
    ImageBuilder builder =
        ctx.imageBuilders().forMkoffload(mkoffload, ctx.children(), ctx.report(), ctx.imageCache());
    List<InputFile> objects = new ArrayList<>();
    for (String name : inputs) {
      objects.add(InputFile.parse(name, ctx.cwd()));
    }
    ImageResult built = builder.build(new ImageRequest(target, argv, out, suffix, objects));
    if (built.succeeded()) {
      return Optional.of(new BuiltObject(out, built.counts()));
    }
    CommandResult result = built.run();
    // A host hardening option the device cannot honour (HostHardening): one more line, the fix.
    Optional<String> fix = HostHardening.hint(result.stdout() + result.stderr());
    if (ctx.offloadPolicy().failure() == OffloadFailure.FATAL) {
      ctx.children().forward(result);
      fix.ifPresent(ctx.diag()::note);
      throw ctx.children().exitFailure(argv, result);
    }
    if (ctx.settings().verbose()) {
      ctx.children().forward(result);
    }
    ctx.temps().maybeUnlink(out);
    ctx.diag()
        .warning(
            "offload target %<"
                + target
                + "%> dropped (its code runs on the host): "
                + firstError(result, mkoffload));
    fix.ifPresent(ctx.diag()::note);
    return Optional.empty();
  }

  /**
   * mkoffload's own diagnosis: its first {@code fatal error:} line (which names the failing stage),
   * else the first line reporting an error (an accel tool's), else the first line.
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
