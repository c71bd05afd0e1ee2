package org.offlink.ltowrapper;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.process.ResponseFileExpander;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;
import org.offlink.bridge.process.ResponseFiles;
import org.offlink.ltowrapper.offload.ImageBuilders;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;
import org.offlink.ltowrapper.options.LtoWrapperOptions;
import org.offlink.ltowrapper.options.QuotedOptions;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.reproduce.Reproducer;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.streamer.OfflinkVersion;
import org.offlink.streamer.io.ErrorText;

/**
 * GCC 12-compatible lto-wrapper: {@link #parse} turns argv and the environment into {@link
 * LtoWrapperOptions}; {@link #run} performs the link step and returns the exit status, never
 * throwing. {@link #execute} does both and is the one place where errors become GCC's stderr text
 * and exit status 1.
 */
public final class LtoWrapper {
  /** The program name used in diagnostics. */
  public static final String PROGRAM = "lto-wrapper";

  private final ToolContext context;
  private final LtoWrapperServices services;
  private final ImageBuilders imageBuilders;
  private final Diagnostics diag;

  /**
   * Creates the command over a process context and its collaborators; {@code imageBuilders} says
   * how each target's mkoffload runs.
   */
  public LtoWrapper(ToolContext context, LtoWrapperServices services, ImageBuilders imageBuilders) {
    this.context = context;
    this.services = services;
    this.imageBuilders = imageBuilders;
    this.diag = new Diagnostics(context.err(), PROGRAM, context.environment());
  }

  /** Parses and runs; returns the exit status (0 or 1). */
  public int execute(String argv0, List<String> args) {
    // GCC never passes these; they are for people running lto-wrapper by hand.
    if (args.equals(List.of("--help"))) {
      context.err().print(HELP);
      return 0;
    }
    if (args.equals(List.of("--version"))) {
      context.err().println(VERSION);
      return 0;
    }
    LtoWrapperOptions options;
    try {
      options = parse(argv0, args);
    } catch (ResponseFileException e) {
      diag.error(e.getMessage());
      return 1;
    } catch (LtoWrapperException e) {
      diag.fatal(e.getMessage());
      return 1;
    } catch (IllegalArgumentException e) {
      diag.error(e.getMessage()); // a bad OFFLINK_FLAGS word: one line
      return 1;
    }
    return run(options, args);
  }

  /** What {@code --version} prints. */
  static final String VERSION =
      "offlink lto-wrapper "
          + OfflinkVersion.number()
          + " ("
          + GccRelease.compatibility(Optional.empty())
          + " compatible)";

  /** What {@code --help} prints: usage and offlink's knobs, which never clash with GCC options. */
  static final String HELP =
      String.join(
          "\n",
          "Usage: lto-wrapper [-fresolution=F] [-flinker-output=K] [-foffload-objects=F] [@file]"
              + " [INPUT...]",
          "",
          "offlink's drop-in for GCC 12's lto-wrapper. GCC's linker plugin (or collect2) runs it",
          "with COLLECT_GCC, COLLECT_GCC_OPTIONS, OFFLOAD_TARGET_NAMES, COMPILER_PATH, ... set;",
          "it builds each offload target's image with accel/<target>/mkoffload, runs host LTO",
          "(WPA and LTRANS) when there are LTO inputs, and prints the objects to link on stdout.",
          "",
          "offlink's knobs, as environment variables so they pass through gcc unchanged:",
          "  OFFLINK_FLAGS='WORD ...'           offlink's options, shared with mkoffload (each tool",
          "                                     ignores the other's words; unknown words are errors):",
          "    --wrapper=elf|c                  (mkoffload) write the wrapper object directly, or",
          "                                     GCC's C wrapper compiled by the host compiler",
          "    --offload-failure=warn|fatal     a target whose image fails to build: drop it with one",
          "                                     warning and link the rest (host fallback at run time),",
          "                                     or fail as GCC 12. Default: warn when gcc chose the",
          "                                     targets (OFFLOAD_TARGET_DEFAULT), else fatal",
          "    --no-consistency-check           skip comparing each device image's function and",
          "                                     variable counts with the host objects' tables (a",
          "                                     mismatch is a link error; libgomp would fail later",
          "                                     with 'Cannot map target functions or variables')",
          "    --parallel-offload               build targets in parallel with each other and with",
          "    --serial-offload                 LTRANS, or one after another in GCC's order. Default:",
          "                                     parallel for 2+ targets or an in-process mkoffload,",
          "                                     serial with -save-temps (GCC 12's file names)",
          "  OFFLINK_PARALLEL_OFFLOAD=1|0       the same as --parallel-offload / --serial-offload",
          "  OFFLINK_MKOFFLOAD_SUBPROCESS=1     run offlink's own mkoffload as a subprocess",
          "                                     instead of in this JVM",
          "  OFFLINK_PTXAS=keep                 keep ptxas verification with a too-new ptxas",
          "  OFFLINK_REPORT=FILE                write a link report to FILE: inputs, targets,",
          "                                     images (sizes, SHA-256, kernels), sub-commands",
          "                                     with timings; JSON if FILE ends in .json, else",
          "                                     binary protobuf (schema offlink.report.LinkReport)",
          "  OFFLINK_REPRODUCE=FILE.tar         write a reproducer bundle of this link (inputs,",
          "                                     environment, tool versions, report, replay script)",
          "  OFFLINK_REPRODUCE_ON_FAILURE=DIR   the same, into DIR, only when the link fails;",
          "                                     'offlink replay' and 'offlink explain' read them",
          "  OFFLINK_JAVA, JAVA_HOME            the JVM the launchers run",
          "",
          "Differences from GCC 12 (always on):",
          "  PIE and shared links get a position-independent __OFFLOAD_TABLE__ (.data.rel.ro), so",
          "  ld prints no DT_TEXTREL warnings; non-PIE executables get GCC's crtoffloadtable.o.",
          "  gcc -fno-use-linker-plugin offload links work: the objects given by collect2 are",
          "  scanned for offload IR and handed back for the relink.",
          "",
          "--help, --version: this text, the version (not used by GCC).",
          "");

  /**
   * Expands {@code @file} arguments and decodes the environment.
   *
   * @throws ResponseFileException for a bad {@code @file}
   * @throws LtoWrapperException for a missing or malformed environment variable
   */
  public LtoWrapperOptions parse(String argv0, List<String> args) throws ResponseFileException {
    List<String> argv = new ArrayList<>();
    argv.add(argv0);
    argv.addAll(args);
    List<String> expanded = new ResponseFileExpander(context.workingDirectory()).expand(argv);
    Map<String, String> env = context.environment();
    String collectGcc = required(env, "COLLECT_GCC");
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
      link.addAll(org.offlink.ltowrapper.options.OptionDecoder.decode(words));
    }
    Optional<String> offload = Optional.empty();
    List<String> inputs = new ArrayList<>();
    for (String a : expanded.subList(1, expanded.size())) {
      if (a.startsWith("-foffload-objects=")) {
        offload = Optional.of(a.substring("-foffload-objects=".length()));
      } else {
        inputs.add(a);
      }
    }
    return new LtoWrapperOptions(
        argv0,
        expanded.subList(1, expanded.size()),
        collectGcc,
        link,
        offload,
        inputs,
        env,
        settings(link, env, inputs));
  }

  private static String required(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null) {
      throw new LtoWrapperException("environment variable %<" + name + "%> must be set");
    }
    return v;
  }

  static LtoWrapperOptions.Settings settings(
      List<DecodedOption> link, Map<String, String> env, List<String> inputs) {
    OfflinkFlags flags = OfflinkFlags.fromEnvironment(env);
    Optional<Boolean> parallel = flags.parallelOffload();
    String parallelEnv = env.get("OFFLINK_PARALLEL_OFFLOAD");
    if (parallel.isEmpty() && parallelEnv != null && !parallelEnv.isEmpty()) {
      parallel = Optional.of(!parallelEnv.equals("0"));
    }
    String output = null;
    String dumpdir = null;
    boolean saveTemps = false;
    boolean verbose = false;
    boolean noPartition = false;
    boolean rel = false;
    boolean skipDebug = false;
    for (DecodedOption o : link) {
      GccOption opt = o.option();
      if (opt == GccOption.OUTPUT) {
        output = o.arg();
      } else if (opt == GccOption.SAVE_TEMPS || opt == GccOption.SAVE_TEMPS_EQ) {
        saveTemps = true;
      } else if (opt == GccOption.VERBOSE) {
        verbose = true;
      } else if (opt == GccOption.FLTO_PARTITION) {
        noPartition = o.arg().equals("none");
      } else if (opt == GccOption.FLINKER_OUTPUT) {
        rel = o.arg().equals("rel");
      } else if (opt == GccOption.G) {
        skipDebug = o.arg().equals("0");
      } else if (opt == GccOption.DUMPDIR) {
        dumpdir = o.arg();
      }
    }
    return new LtoWrapperOptions.Settings(
        Optional.ofNullable(output),
        saveTemps,
        verbose,
        noPartition,
        rel,
        skipDebug,
        Optional.ofNullable(dumpdir),
        Optional.ofNullable(env.get("OFFLOAD_TARGET_NAMES")),
        env.containsKey("OFFLOAD_TARGET_DEFAULT"),
        Optional.ofNullable(env.get("COMPILER_PATH")),
        Optional.ofNullable(env.get("LIBRARY_PATH")),
        Optional.ofNullable(env.get("MAKEFLAGS")),
        parallel,
        flags,
        linkerOutputKind(link, inputs));
  }

  /** {@code -flinker-output=} from the arguments, else a guess from the link options. */
  static Optional<String> linkerOutputKind(List<DecodedOption> link, List<String> inputs) {
    for (String a : inputs) {
      if (a.startsWith("-flinker-output=")) {
        return Optional.of(a.substring("-flinker-output=".length()));
      }
    }
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

  /**
   * Runs the link step; returns 0 on success, 1 after printing GCC's fatal error. With {@code
   * OFFLINK_REPORT} set, then writes the link report; a report that cannot be written costs one
   * warning and changes neither stdout nor the exit status.
   */
  public int run(LtoWrapperOptions options) {
    return run(options, options.args());
  }

  /**
   * As {@link #run(LtoWrapperOptions)}; {@code rawArgs} are the arguments before {@code @file}
   * expansion. With {@code OFFLINK_REPRODUCE} (or a failure and {@code
   * OFFLINK_REPRODUCE_ON_FAILURE}) it then writes a reproducer bundle, which like the report never
   * changes the outcome.
   */
  private int run(LtoWrapperOptions options, List<String> rawArgs) {
    // Disabled unless asked for: then nothing here builds a lambda or reads a file (cold path).
    Reproducer reproducer =
        Reproducer.forRun(options, rawArgs, context.workingDirectory(), context.err());
    LinkRecorder report =
        LinkRecorder.forRun(options, context.workingDirectory(), VERSION, reproducer.enabled());
    int status = run(options, report);
    report.write(status, diag::warning);
    if (reproducer.enabled()) {
      reproducer.write(status, report, diag::note, diag::warning);
    }
    return status;
  }

  private int run(LtoWrapperOptions options, LinkRecorder report) {
    LinkRun link = new LinkRun(options, services, imageBuilders, context, diag, report);
    // SIGINT/SIGTERM/SIGHUP remove our temporary files as GCC's signal handler does (CU:60): every
    // file of the run is tracked by ExitCleanup, whose hook LtoWrapperMain registers; it ends the
    // children first so that none writes a file after the sweep.
    try {
      List<String> lines = link.run();
      report.outputLines(lines);
      for (String line : lines) {
        context.out().print(line + "\n");
      }
      context.out().flush();
      return 0;
    } catch (LtoWrapperException e) {
      diag.fatal(e.getMessage());
      report.fatal(e.getMessage());
      if (options.settings().verbose() && e.getCause() != null) {
        e.getCause().printStackTrace(context.err());
      }
      return 1;
    } catch (RuntimeException e) {
      // One line naming what failed, not the Java class (issue 18); -v adds the trace.
      String text = ErrorText.of(e);
      diag.fatal(text);
      report.fatal(text);
      if (options.settings().verbose()) {
        e.printStackTrace(context.err());
      }
      return 1;
    } finally {
      link.close();
    }
  }
}
