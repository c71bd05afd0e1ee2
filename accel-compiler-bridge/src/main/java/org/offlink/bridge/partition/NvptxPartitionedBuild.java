package org.offlink.bridge.partition;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.tool.OffloadTarget;

/**
 * The nvptx accel compile in partitions: what GCC's single {@code <accel-gcc> -xlto <inputs> -o
 * <ptx>} does in one {@code lto1}, done as one {@code <accel-gcc> -c -xlto <partition inputs>} per
 * partition (an {@code lto1} and {@code nvptx-as} each, concurrently, cached) and one {@code
 * <accel-gcc> <partition objects> -o <ptx>} link ({@code nvptx-ld}, which concatenates the modules
 * and the libraries' as GCC's own link does). With one partition the PTX is byte-identical to
 * GCC's. The caller post-processes the PTX file as it would GCC's.
 */
public final class NvptxPartitionedBuild {
  private final PartitionWork work;
  private final boolean requiresFile;

  /**
   * A build on {@code work}.
   *
   * @param requiresFile GCC 13+: each {@code lto1} writes the OpenMP requires mask to the file
   *     {@code GCC_OFFLOAD_OMP_REQUIRES_FILE} names
   */
  public NvptxPartitionedBuild(PartitionWork work, boolean requiresFile) {
    this.work = Objects.requireNonNull(work, "work");
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
    Optional<PartitionedCompile.Result> compiled =
        work.compileInPartitions(new Compiler(whole, env), whole);
    if (compiled.isEmpty()) {
      return Optional.empty();
    }
    PartitionedCompile.Result result = compiled.get();
    List<String> objects = work.writeObjects(result);
    work.runAccel(PartitionArgv.link(whole, objects), env, MkoffloadDumpNames.GCC_ARGS);
    return Optional.of(result.requiresMask());
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
      String out = work.file(p, ".o");
      String dumpbase = work.namesOf(p).mkoffload();
      List<String> argv = PartitionArgv.compile(whole, "-c", inputs, dumpbase, out);
      int mask = work.compile(p, argv, env, requiresFile);
      Path object = work.resolve(out);
      if (!Files.isRegularFile(object)) {
        throw new IOException("cannot open intermediate ptx file " + out);
      }
      return PartitionArtifact.nvptx(mask, Files.readAllBytes(object));
    }

    @Override
    public PartitionSymbols symbols(PartitionArtifact artifact) {
      return PtxSymbolReader.read(artifact.object());
    }
  }
}
