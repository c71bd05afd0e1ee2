package org.offlink.bridge.partition;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.offlink.bridge.gcc.InputArguments;
import org.offlink.bridge.gcc.MkoffloadDumpNames;
import org.offlink.bridge.gcc.OmpRequiresFile;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.bridge.temp.TempFiles;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.NamedFiles;
import org.offlink.runtime.WorkingDirectory;

/**
 * What a target's partitioned build works with: the runner of its programs, mkoffload's context,
 * the partition services, where it says what it did, its temporary files and their names.
 *
 * @param runner runs the accel driver
 * @param context mkoffload's environment, working directory and error stream
 * @param services the executor and the cache
 * @param say prints a line of what happened (under {@code -v})
 * @param temps the build's temporary files
 * @param names GCC's file names for this image ({@code -save-temps})
 */
public record PartitionWork(
    ProcessRunner runner,
    LinkContext context,
    PartitionServices services,
    Consumer<String> say,
    TempFiles temps,
    MkoffloadDumpNames names) {
  /** The inputs of the accel driver command line {@code argv} (argv[0] the driver), in order. */
  public static List<String> inputs(List<String> argv) {
    List<String> args = argv.subList(1, argv.size());
    List<String> out = new ArrayList<>();
    for (int i : InputArguments.indices(args)) {
      out.add(args.get(i));
    }
    return out;
  }

  /** {@code name} resolved against the working directory. */
  public Path resolve(String name) {
    return WorkingDirectory.resolve(context.workingDirectory(), name);
  }

  /**
   * A temporary file for partition {@code p} ending in {@code suffix} ({@code .o}, {@code .1.s}).
   */
  public String file(Partition p, String suffix) throws IOException {
    return temps.named(names.mkoffload(".part" + p.first() + suffix), ".part" + suffix);
  }

  /** Writes a partition's object where the link step reads it; returns its name. */
  public String writeObject(Partition p, PartitionArtifact a) throws IOException {
    String name = file(p, ".o");
    NamedFiles.write(context.scope(), resolve(name), a.object());
    return name;
  }

  /** The artifacts' objects written out in plan order, for the link. */
  public List<String> writeObjects(PartitionedCompile.Result result) throws IOException {
    List<String> objects = new ArrayList<>();
    for (int i = 0; i < result.artifacts().size(); i++) {
      objects.add(writeObject(result.plan().partitions().get(i), result.artifacts().get(i)));
    }
    return objects;
  }

  /** GCC's names for partition {@code p}'s own files ({@code -dumpbase}, its requires file). */
  public MkoffloadDumpNames namesOf(Partition p) {
    return new MkoffloadDumpNames(names.dumppfx() + ".part" + p.first());
  }

  /**
   * Runs partition {@code p}'s accel compile {@code argv}; with {@code requiresFile} (GCC 13+)
   * under its own {@code GCC_OFFLOAD_OMP_REQUIRES_FILE}, whose mask it returns (else 0).
   */
  public int compile(Partition p, List<String> argv, Map<String, String> env, boolean requiresFile)
      throws IOException {
    Map<String, String> compileEnv = env;
    OmpRequiresFile requires = null;
    if (requiresFile) {
      requires = OmpRequiresFile.create(namesOf(p), temps);
      compileEnv = requires.exportTo(env, false, context.err());
    }
    runAccel(argv, compileEnv, ".part" + p.first() + MkoffloadDumpNames.GCC_ARGS);
    return requires == null ? 0 : requires.readMask();
  }

  /**
   * Compiles the inputs of {@code whole} (the accel driver argv GCC's step would run) in partitions
   * with {@code compiler}; empty when there are fewer than two: the caller runs GCC's steps itself.
   *
   * @throws WholeProgramNeeded when the partitions cannot stand for the whole program
   */
  public Optional<PartitionedCompile.Result> compileInPartitions(
      PartitionCompiler compiler, List<String> whole) throws IOException, WholeProgramNeeded {
    List<String> inputs = inputs(whole);
    if (inputs.size() < 2) {
      return Optional.empty();
    }
    return Optional.of(new PartitionedCompile(compiler, services, say).run(inputs));
  }

  /**
   * Runs the accel driver {@code argv} in the working directory, with {@code -v} and {@code
   * -save-temps} naming its response file {@code responseFile}; fails unless it succeeds.
   */
  public void runAccel(List<String> argv, Map<String, String> env, String responseFile)
      throws IOException {
    runner.runChecked(
        Command.of(argv, env, context.workingDirectory())
            .withResponseFile(responseFile)
            .as(Command.Role.ACCEL_COMPILER));
  }
}
