package org.offlink.ltowrapper.plan;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.process.ResponseFileExpander;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;
import org.offlink.bridge.process.ResponseFiles;
import org.offlink.ltowrapper.cache.CacheRequest;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;
import org.offlink.ltowrapper.options.OptionDecoder;
import org.offlink.ltowrapper.options.QuotedOptions;
import org.offlink.ltowrapper.run.DumpNames;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.WorkingDirectory;

/**
 * Resolves a {@link LinkPlan}: expands {@code @file} arguments, decodes {@code COLLECT_GCC_OPTIONS}
 * and the environment, classifies the arguments (one {@code access} each, as GCC's {@code open}
 * decides file or option) and settles every derived setting once.
 */
public final class PlanResolver {
  /** The variable that asks for a link report and names its file. */
  public static final String REPORT_VARIABLE = "OFFLINK_REPORT";

  private PlanResolver() {}

  /**
   * The plan of lto-wrapper run as {@code argv0} with {@code args} in {@code context}.
   *
   * @throws ResponseFileException for a bad {@code @file}
   * @throws LtoWrapperException for a missing or malformed environment variable
   * @throws IllegalArgumentException for a bad {@code OFFLINK_FLAGS} word (one line)
   */
  public static LinkPlan resolve(LinkContext context, String argv0, List<String> args)
      throws ResponseFileException {
    List<String> argv = new ArrayList<>();
    argv.add(argv0);
    argv.addAll(args);
    List<String> expanded = new ResponseFileExpander(context.workingDirectory()).expand(argv);
    Map<String, String> env = context.environment();
    String collectGcc = required(env, "COLLECT_GCC");
    List<DecodedOption> link = linkOptions(env, collectGcc);
    Optional<String> offload = Optional.empty();
    List<LinkArgument> inputs = new ArrayList<>();
    for (String a : expanded.subList(1, expanded.size())) {
      if (a.startsWith("-foffload-objects=")) {
        offload = Optional.of(a.substring("-foffload-objects=".length()));
      } else {
        inputs.add(classify(context, a));
      }
    }
    return new LinkPlan(
        argv0,
        expanded.subList(1, expanded.size()),
        collectGcc,
        link,
        offload,
        inputs,
        env,
        settings(context, link, inputs));
  }

  /** COLLECT_GCC_OPTIONS, then each COLLECT_AS_OPTIONS word as {@code -Xassembler <word>}. */
  private static List<DecodedOption> linkOptions(Map<String, String> env, String collectGcc) {
    String collectOptions = required(env, "COLLECT_GCC_OPTIONS");
    String asOptions = env.get("COLLECT_AS_OPTIONS");
    List<DecodedOption> link = new ArrayList<>(QuotedOptions.decode(collectGcc, collectOptions));
    if (asOptions != null) {
      // Each word becomes '-Xassembler' '<word>' appended to the link options (LW:1453).
      List<String> words = new ArrayList<>();
      words.add(collectGcc);
      for (String w : ResponseFiles.split(asOptions)) {
        words.add("-Xassembler");
        words.add(w);
      }
      link.addAll(OptionDecoder.decode(words));
    }
    return link;
  }

  /** A file if it can be read (GCC: {@code open} succeeded), else an option for the LTO compile. */
  private static LinkArgument classify(LinkContext context, String arg) {
    InputFile in = InputFile.parse(arg, context.workingDirectory());
    return new LinkArgument(arg, Files.isReadable(in.file()) ? Optional.of(in) : Optional.empty());
  }

  private static String required(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null) {
      throw new LtoWrapperException("environment variable %<" + name + "%> must be set");
    }
    return v;
  }

  private static LinkPlan.Settings settings(
      LinkContext context, List<DecodedOption> link, List<LinkArgument> inputs) {
    Map<String, String> env = context.environment();
    OfflinkFlags flags = OfflinkFlags.fromEnvironment(env);
    Optional<Boolean> parallel = flags.parallelOffload();
    String parallelEnv = env.get("OFFLINK_PARALLEL_OFFLOAD");
    if (parallel.isEmpty() && parallelEnv != null && !parallelEnv.isEmpty()) {
      parallel = Optional.of(!parallelEnv.equals("0"));
    }
    LinkOptionFacts facts = LinkOptionFacts.of(link);
    Optional<GccInstallation> gcc =
        GccInstallation.fromEnvironment(env, context.workingDirectory());
    String targets = env.get("OFFLOAD_TARGET_NAMES");
    return new LinkPlan.Settings(
        Optional.ofNullable(facts.output),
        facts.saveTemps,
        facts.verbose,
        facts.noPartition,
        facts.skipDebug,
        Optional.ofNullable(facts.dumpdir),
        DumpNames.of(facts.dumpdir, facts.output),
        linkerOutput(link, inputs, facts.relocatable),
        gcc,
        targets == null ? List.of() : List.of(targets.split(":", -1)),
        env.containsKey("OFFLOAD_TARGET_DEFAULT"),
        Optional.ofNullable(env.get("COMPILER_PATH")),
        Optional.ofNullable(env.get("LIBRARY_PATH")),
        Optional.ofNullable(env.get("MAKEFLAGS")),
        parallel,
        flags,
        env.containsKey("OFFLINK_MKOFFLOAD_SUBPROCESS"),
        CacheRequest.of(flags, env, context.workingDirectory()),
        report(env, context.workingDirectory()));
  }

  /** The file {@link #REPORT_VARIABLE} names, relative to {@code cwd}. */
  private static Optional<Path> report(Map<String, String> env, Path cwd) {
    String name = env.getOrDefault(REPORT_VARIABLE, "");
    return name.isEmpty() ? Optional.empty() : Optional.of(WorkingDirectory.resolve(cwd, name));
  }

  /** What the link-time options say, in one pass. */
  private static final class LinkOptionFacts {
    String output;
    String dumpdir;
    boolean saveTemps;
    boolean verbose;
    boolean noPartition;
    boolean relocatable;
    boolean skipDebug;

    static LinkOptionFacts of(List<DecodedOption> link) {
      LinkOptionFacts f = new LinkOptionFacts();
      for (DecodedOption o : link) {
        GccOption opt = o.option();
        if (opt == GccOption.OUTPUT) {
          f.output = o.arg();
        } else if (opt == GccOption.SAVE_TEMPS || opt == GccOption.SAVE_TEMPS_EQ) {
          f.saveTemps = true;
        } else if (opt == GccOption.VERBOSE) {
          f.verbose = true;
        } else if (opt == GccOption.FLTO_PARTITION) {
          f.noPartition = o.arg().equals("none");
        } else if (opt == GccOption.FLINKER_OUTPUT) {
          f.relocatable = o.arg().equals("rel");
        } else if (opt == GccOption.G) {
          f.skipDebug = o.arg().equals("0");
        } else if (opt == GccOption.DUMPDIR) {
          f.dumpdir = o.arg();
        }
      }
      return f;
    }
  }

  /**
   * The linker output: the plugin's {@code -flinker-output=} among the arguments (options only: a
   * readable file of that name is an input), else a guess from the link options; relocatable when
   * either says {@code rel}.
   */
  static LinkerOutput linkerOutput(
      List<DecodedOption> link, List<LinkArgument> inputs, boolean relocatableOption) {
    Optional<String> fromArgs = Optional.empty();
    boolean relocatable = relocatableOption;
    for (LinkArgument a : inputs) {
      if (a.isOption() && a.spelling().startsWith("-flinker-output=")) {
        relocatable |= a.spelling().equals("-flinker-output=rel");
        if (fromArgs.isEmpty()) {
          fromArgs = Optional.of(a.spelling().substring("-flinker-output=".length()));
        }
      }
    }
    return new LinkerOutput(fromArgs.isPresent() ? fromArgs : guess(link), relocatable);
  }

  private static Optional<String> guess(List<DecodedOption> link) {
    Optional<String> kind = Optional.empty();
    for (DecodedOption o : link) {
      String text = o.text();
      if (text.equals("-shared")) {
        return Optional.of("dyn");
      } else if (text.equals("-no-pie") || text.equals("-static")) {
        kind = Optional.of("exec");
      } else if (text.equals("-pie") || text.equals("-static-pie")) {
        kind = Optional.of("pie");
      }
    }
    return kind;
  }
}
