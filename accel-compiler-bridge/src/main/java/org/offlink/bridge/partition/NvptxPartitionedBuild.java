package org.offlink.bridge.partition;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.gcc.InputArguments;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.gcc.OmpRequiresFile;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * The nvptx accel compile in partitions: what GCC's single {@code <accel-gcc> -xlto <inputs> -o
 * <ptx>} does in one {@code lto1}, done as one {@code <accel-gcc> -c -xlto <partition inputs>} per
 * partition (an {@code lto1} and {@code nvptx-as} each, concurrently, cached) and one {@code
 * <accel-gcc> <partition objects> -o <ptx>} link ({@code nvptx-ld}, which concatenates the modules
 * and the libraries' as GCC's own link does). With one partition the PTX is byte-identical to
 * GCC's. The caller post-processes the PTX file as it would GCC's.
 */
public final class NvptxPartitionedBuild {
  private final ProcessRunner runner;
  private final ToolContext context;
  private final PartitionServices services;
  private final Consumer<String> say;
  private final TempFiles temps;
  private final MkoffloadDumpNames names;
  private final boolean requiresFile;

  /**
   * A build running tools through {@code runner}, its intermediates in {@code temps}, saying what
   * it did to {@code say}.
   *
   * @param requiresFile GCC 13+: each {@code lto1} writes the OpenMP requires mask to the file
   *     {@code GCC_OFFLOAD_OMP_REQUIRES_FILE} names
   */
  public NvptxPartitionedBuild(
      ProcessRunner runner,
      ToolContext context,
      PartitionServices services,
      Consumer<String> say,
      TempFiles temps,
      MkoffloadDumpNames names,
      boolean requiresFile) {
    this.runner = Objects.requireNonNull(runner, "runner");
    this.context = Objects.requireNonNull(context, "context");
    this.services = Objects.requireNonNull(services, "services");
    this.say = Objects.requireNonNull(say, "say");
    this.temps = Objects.requireNonNull(temps, "temps");
    this.names = Objects.requireNonNull(names, "names");
    this.requiresFile = requiresFile;
  }

  /**
   * Builds the linked PTX that {@code whole} (the accel driver argv mkoffload would run, writing
   * the PTX file named by its {@code -o}) would, in partitions; returns the whole program's OpenMP
   * requires mask (0 for GCC 12). Empty when the program has fewer than two inputs: the caller runs
   * {@code whole} itself.
   *
   * @throws WholeProgramNeeded when the partitions cannot stand for the whole program
   */
  public Optional<Integer> build(List<String> whole, Map<String, String> env)
      throws IOException, WholeProgramNeeded {
    List<String> args = whole.subList(1, whole.size());
    List<String> inputs = new ArrayList<>();
    for (int i : InputArguments.indices(args)) {
      inputs.add(args.get(i));
    }
    if (inputs.size() < 2) {
      return Optional.empty();
    }
    Compiler compiler = new Compiler(whole, env);
    PartitionedCompile.Result result = new PartitionedCompile(compiler, services, say).run(inputs);
    List<String> objects = new ArrayList<>();
    for (int i = 0; i < result.artifacts().size(); i++) {
      Partition p = result.plan().partitions().get(i);
      String name = temps.named(names.mkoffload(".part" + p.first() + ".o"), ".part.o");
      Files.write(resolve(name), result.artifacts().get(i).object());
      objects.add(name);
    }
    runner.runChecked(
        Command.of(PartitionArgv.link(whole, objects), env, context.workingDirectory())
            .withResponseFile(MkoffloadDumpNames.GCC_ARGS));
    return Optional.of(result.requiresMask());
  }

  private Path resolve(String name) {
    return WorkingDirectory.resolve(context.workingDirectory(), name);
  }

  /** One partition's {@code -c} compile. */
  private final class Compiler implements PartitionCompiler {
    private final List<String> whole;
    private final Map<String, String> env;

    Compiler(List<String> whole, Map<String, String> env) {
      this.whole = whole;
      this.env = env;
    }

    @Override
    public OffloadTarget target() {
      return OffloadTarget.NVPTX;
    }

    @Override
    public List<String> recipe(List<String> inputs) {
      return PartitionArgv.labelled(
          "nvptx-partition-compile-1",
          PartitionArgv.compile(whole, "-c", inputs, "<dumpbase>", "<out>"));
    }

    @Override
    public PartitionArtifact compile(Partition p, List<String> inputs) throws IOException {
      String part = ".part" + p.first();
      String out = temps.named(names.mkoffload(part + ".o"), ".part.o");
      List<String> argv = PartitionArgv.compile(whole, "-c", inputs, names.mkoffload(part), out);
      Map<String, String> compileEnv = env;
      OmpRequiresFile requires = null;
      if (requiresFile) {
        requires = OmpRequiresFile.create(new MkoffloadDumpNames(names.dumppfx() + part), temps);
        compileEnv = requires.exportTo(env, false, context.err());
      }
      runner.runChecked(
          Command.of(argv, compileEnv, context.workingDirectory())
              .withResponseFile(part + MkoffloadDumpNames.GCC_ARGS));
      Path object = resolve(out);
      if (!Files.isRegularFile(object)) {
        throw new IOException("cannot open intermediate ptx file " + out);
      }
      int mask = requires == null ? 0 : requires.readMask();
      return PartitionArtifact.nvptx(mask, Files.readAllBytes(object));
    }

    @Override
    public PartitionSymbols symbols(PartitionArtifact artifact) {
      return PtxSymbolReader.read(artifact.object());
    }
  }
}
