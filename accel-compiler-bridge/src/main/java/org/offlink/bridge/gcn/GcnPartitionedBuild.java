package org.offlink.bridge.gcn;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.partition.ElfSymbolReader;
import org.offlink.bridge.partition.Partition;
import org.offlink.bridge.partition.PartitionArgv;
import org.offlink.bridge.partition.PartitionArtifact;
import org.offlink.bridge.partition.PartitionCompiler;
import org.offlink.bridge.partition.PartitionSymbols;
import org.offlink.bridge.partition.PartitionWork;
import org.offlink.bridge.partition.PartitionedCompile;
import org.offlink.bridge.partition.WholeProgramNeeded;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.NamedFiles;

/**
 * The amdgcn accel compile in partitions. GCC's gcn mkoffload compiles everything to one assembly
 * file ({@code -S}), rewrites it ({@code process_asm}) and assembles and links it into the HSACO.
 * Here each partition is compiled to assembly, rewritten the same way but without the global table
 * labels, and assembled to an object (concurrently, cached); the link step then takes the objects
 * in order, after a small assembly file that defines the labels {@code .offload_var_table} (13+:
 * also {@code .offload_func_table}, 14+: {@code .offload_ind_func_table}) at the start of the empty
 * first piece of each table section, so that they mark the start of the tables {@code ld.lld} joins
 * in link order, which libgomp's gcn plugin reads through them.
 */
public final class GcnPartitionedBuild {
  /**
   * The partitioned image's tables, as {@link GcnAsmProcessor.Result} gives them for one file.
   *
   * @param kernels {@code _init_array}, {@code _fini_array}, then every partition's kernels
   * @param variables the offload variables
   * @param indirectFunctions the indirect functions
   * @param requiresMask the whole program's OpenMP requires mask (0 for GCC 12)
   */
  public record Tables(
      List<GcnKernel> kernels, int variables, int indirectFunctions, int requiresMask) {}

  private final PartitionWork work;
  private final GcnRelease release;

  /** A build on {@code work} for {@code release}'s gcn mkoffload. */
  public GcnPartitionedBuild(PartitionWork work, GcnRelease release) {
    this.work = Objects.requireNonNull(work, "work");
    this.release = Objects.requireNonNull(release, "release");
  }

  /**
   * Builds the HSACO that GCC's steps would: {@code compile} is the {@code -S} argv, {@code
   * assemble} the options the link step passes the assembler (XNACK, SRAM-ECC, {@code -march}),
   * {@code link} the link argv, whose input {@code asm2} stands for the rewritten assembly. Empty
   * when the program has fewer than two inputs: the caller runs GCC's steps itself.
   *
   * @throws WholeProgramNeeded when the partitions cannot stand for the whole program
   */
  public Optional<Tables> build(
      List<String> compile,
      List<String> assemble,
      List<String> link,
      String asm2,
      Map<String, String> env)
      throws IOException, WholeProgramNeeded {
    Optional<PartitionedCompile.Result> compiled =
        work.compileInPartitions(new Compiler(compile, assemble, env), compile);
    if (compiled.isEmpty()) {
      return Optional.empty();
    }
    PartitionedCompile.Result result = compiled.get();
    List<GcnKernel> kernels =
        new ArrayList<>(List.of(kernel("_init_array"), kernel("_fini_array")));
    int variables = 0;
    int indirect = 0;
    for (PartitionArtifact a : result.artifacts()) {
      kernels.addAll(a.kernels());
      variables += a.variables();
      indirect += a.indirectFunctions();
    }
    List<String> objects = work.writeObjects(result);
    String labels = labels(kernels.size() > 2, variables > 0, indirect > 0);
    if (!labels.isEmpty()) {
      String file = work.temps().named(work.names().mkoffload(".labels.s"), ".labels.s");
      NamedFiles.write(
          work.context().scope(), work.resolve(file), labels.getBytes(StandardCharsets.US_ASCII));
      objects.add(0, file);
    }
    List<String> argv = new ArrayList<>(link);
    int at = argv.indexOf(asm2);
    argv.remove(at);
    argv.addAll(at, objects);
    work.runAccel(argv, env, MkoffloadDumpNames.LD_ARGS);
    return Optional.of(new Tables(kernels, variables, indirect, result.requiresMask()));
  }

  private static GcnKernel kernel(String name) {
    return new GcnKernel(name, 0, 0, 0, 0, 0);
  }

  /** The label file's text: each needed table label at the start of its section. */
  private String labels(boolean functions, boolean variables, boolean indirect) {
    StringBuilder b = new StringBuilder();
    if (variables) {
      label(b, ".gnu.offload_vars", ".offload_var_table");
    }
    if (functions && release.keepsFunctionTables()) {
      label(b, ".gnu.offload_funcs", ".offload_func_table");
    }
    if (indirect) {
      label(b, ".gnu.offload_ind_funcs", ".offload_ind_func_table");
    }
    return b.toString();
  }

  private static void label(StringBuilder b, String section, String label) {
    b.append("\t.section\t").append(section).append(",\"aw\"\n");
    b.append("\t.global ").append(label).append("\n\t.type ").append(label);
    b.append(", @object\n").append(label).append(":\n");
  }

  /** One partition's {@code -S} compile, rewrite and assembly. */
  private final class Compiler implements PartitionCompiler {
    private final List<String> compile;
    private final List<String> assemble;
    private final Map<String, String> env;

    Compiler(List<String> compile, List<String> assemble, Map<String, String> env) {
      this.compile = compile;
      this.assemble = assemble;
      this.env = env;
    }

    @Override
    public OffloadTarget target() {
      return OffloadTarget.AMDGCN;
    }

    @Override
    public List<String> recipe(List<String> inputs) {
      List<String> r =
          new ArrayList<>(
              PartitionArgv.labelled(
                  "gcn-partition-compile-1",
                  PartitionArgv.compile(compile, "", inputs, "<dumpbase>", "<out>")));
      r.addAll(PartitionArgv.labelled("gcn-partition-assemble-1", assembleArgv("<asm>", "<out>")));
      return r;
    }

    private List<String> assembleArgv(String asm, String out) {
      List<String> argv = new ArrayList<>(List.of(compile.get(0), "-c", asm));
      argv.addAll(assemble);
      argv.addAll(List.of("-o", out));
      return argv;
    }

    @Override
    public PartitionArtifact compile(Partition p, List<String> inputs) throws IOException {
      String asm1 = work.file(p, ".1.s");
      String asm2 = work.file(p, ".2.s");
      String out = work.file(p, ".o");
      String dumpbase = work.namesOf(p).mkoffload();
      List<String> argv = PartitionArgv.compile(compile, "", inputs, dumpbase, asm1);
      int mask = work.compile(p, argv, env, release.layout().requiresMask());
      Path asm1Path = work.resolve(asm1);
      GcnAsmProcessor.Result r =
          GcnAsmProcessor.process(
              release, GcnImageBuilder.readIntermediate(asm1Path, "asm"), asm1Path, false);
      NamedFiles.write(work.context().scope(), work.resolve(asm2), r.assembly());
      work.runAccel(assembleArgv(asm2, out), env, ".part" + p.first() + ".as_args");
      List<GcnKernel> kernels = r.kernels().subList(2, r.kernels().size());
      return new PartitionArtifact(
          OffloadTarget.AMDGCN,
          mask,
          GcnImageBuilder.readIntermediate(work.resolve(out), "obj"),
          kernels,
          r.variableCount(),
          r.indirectFunctionCount());
    }

    @Override
    public PartitionSymbols symbols(PartitionArtifact artifact) throws IOException {
      Path scratch = work.temps().scratch(".part.o");
      NamedFiles.write(work.context().scope(), scratch, artifact.object());
      Set<String> kernels = new HashSet<>();
      for (GcnKernel k : artifact.kernels()) {
        kernels.add(k.name());
      }
      PartitionSymbols s = ElfSymbolReader.read(scratch, kernels);
      Files.deleteIfExists(scratch);
      return s;
    }
  }
}
