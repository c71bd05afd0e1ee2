package org.offlink.ltowrapper;

import java.util.List;
import java.util.Optional;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.process.ResponseFileExpander.ResponseFileException;
import org.offlink.ltowrapper.offload.ImageBuilders;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.plan.PlanResolver;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.reproduce.Reproducer;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LinkContext;
import org.offlink.streamer.OfflinkVersion;

/**
 * GCC 12-compatible lto-wrapper, as a library: {@link #run} performs one link in the {@link
 * LinkContext} it is given (environment, working folder, streams, temporary folder, the scope that
 * owns its files and children) and returns the exit status, never throwing for bad input. It keeps
 * nothing of a link between calls, so one instance serves any number of links, also at the same
 * time: the command-line launcher ({@link LtoWrapperMain}) runs one, a link server many.
 */
public final class LtoWrapper {
  /** The program name used in diagnostics. */
  public static final String PROGRAM = "lto-wrapper";

  /** The link mode of a JVM that runs one link, when nobody says why. */
  public static final String IN_PROCESS = "in-process";

  private final LtoWrapperServices services;
  private final ImageBuilders imageBuilders;
  private final String mode;

  /**
   * An lto-wrapper over its collaborators; {@code imageBuilders} says how each target's mkoffload
   * runs. Its links run {@link #IN_PROCESS}.
   */
  public LtoWrapper(LtoWrapperServices services, ImageBuilders imageBuilders) {
    this(services, imageBuilders, IN_PROCESS);
  }

  /**
   * As {@link #LtoWrapper(LtoWrapperServices, ImageBuilders)}, its links running in {@code mode}
   * ({@code server (pid N)}, or {@code in-process} with the link client's reason), which {@code -v}
   * names and the link report records.
   */
  public LtoWrapper(LtoWrapperServices services, ImageBuilders imageBuilders, String mode) {
    this.services = services;
    this.imageBuilders = imageBuilders;
    this.mode = java.util.Objects.requireNonNull(mode, "mode");
  }

  /**
   * Runs one link: {@code argv} is lto-wrapper's command line, {@code argv[0]} the name it was run
   * as (echoed with {@code -v}). Returns 0, or 1 after GCC's diagnostic on {@code context.err()};
   * stdout gets the protocol lines only.
   */
  public int run(LinkContext context, List<String> argv) {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("empty argv");
    }
    List<String> args = argv.subList(1, argv.size());
    OffloadListCleanup.trackEarly(args, context);
    // GCC never passes these; they are for people running lto-wrapper by hand.
    if (args.equals(List.of("--help"))) {
      context.err().print(HELP);
      return 0;
    }
    if (args.equals(List.of("--version"))) {
      context.err().println(VERSION);
      return 0;
    }
    Diagnostics diag = new Diagnostics(context.err(), PROGRAM, context.environment());
    LinkPlan options;
    try {
      options = PlanResolver.resolve(context, argv.get(0), args);
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
    return new Link(context, diag).run(options, args);
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

  /** One link being run: its context and diagnostics. */
  private final class Link {
    private final LinkContext context;
    private final Diagnostics diag;

    Link(LinkContext context, Diagnostics diag) {
      this.context = context;
      this.diag = diag;
    }

    /**
     * Runs the link step; returns 0 on success, 1 after printing GCC's fatal error. With {@code
     * OFFLINK_REPORT} set, then writes the link report; with {@code OFFLINK_REPRODUCE} (or a
     * failure and {@code OFFLINK_REPRODUCE_ON_FAILURE}) a reproducer bundle. Neither changes stdout
     * or the exit status: a failure to write one costs one warning. {@code rawArgs} are the
     * arguments before {@code @file} expansion.
     */
    int run(LinkPlan options, List<String> rawArgs) {
      // Disabled unless asked for: then nothing here builds a lambda or reads a file (cold path).
      Reproducer reproducer = Reproducer.forRun(options, rawArgs, context);
      LinkRecorder report =
          LinkRecorder.forRun(options, context.workingDirectory(), VERSION, reproducer.enabled());
      report.linkMode(mode);
      int status = run(options, report);
      report.write(context.scope(), status, diag::warning);
      if (reproducer.enabled()) {
        reproducer.write(context.scope(), status, report, diag::note, diag::warning);
      }
      return status;
    }

    private int run(LinkPlan options, LinkRecorder report) {
      LinkRun link =
          new LinkRun(options, services, imageBuilders, context, diag, report, VERSION, mode);
      // SIGINT/SIGTERM/SIGHUP remove our temporary files as GCC's signal handler does (CU:60):
      // every file of the run is tracked by the link's scope, which the process edge cancels; it
      // ends the children first so that none writes a file after the sweep.
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
}
