package org.offlink.cli.debug;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.Function;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.Input;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.report.proto.Subcommand;
import org.offlink.ltowrapper.report.proto.SubcommandKind;
import org.offlink.ltowrapper.report.proto.Target;
import org.offlink.ltowrapper.report.proto.ToolVersion;
import org.offlink.streamer.opts.OptionQuoting;

/**
 * A link report in plain words, section by section: the outcome; which offload targets were
 * configured and why ({@code -foffload=} on the link, or gcc's default); what became of each; which
 * inputs carried offload or host LTO IR; the offload options of the link, what each accel compiler
 * ran with and what GCC's option merge dropped; each device image; and for a failure the step that
 * failed first, with the first lines of its stderr. A bundle's manifest adds the tools.
 */
final class LinkExplainer {
  private static final int MAX_NAMES = 8;

  private LinkExplainer() {}

  static List<String> explain(LinkReport r, Optional<ReproducerManifest> manifest) {
    List<String> out = new ArrayList<>();
    outcome(r, out);
    targets(r, out);
    inputs(r, out);
    options(r, out);
    images(r, out);
    failure(r, out);
    manifest.ifPresent(m -> tools(m, out));
    return out;
  }

  private static void outcome(LinkReport r, List<String> out) {
    out.add("Link: lto-wrapper in " + r.getWorkingDirectory() + " (" + r.getOfflinkVersion() + ")");
    if (r.getExitStatus() == 0) {
      out.add(
          "Outcome: succeeded; "
              + r.getOutputLinesCount()
              + " object(s) handed to the linker: "
              + names(r.getOutputLinesList()));
    } else {
      out.add("Outcome: FAILED (exit status " + r.getExitStatus() + "): " + r.getError());
    }
  }

  private static void targets(LinkReport r, List<String> out) {
    Optional<String> names = env(r, "OFFLOAD_TARGET_NAMES");
    out.add("");
    if (names.isEmpty()) {
      out.add("Targets: none (gcc set no OFFLOAD_TARGET_NAMES: no offload link)");
      return;
    }
    out.add("Targets: " + names.get().replace(":", ", "));
    if (env(r, "OFFLOAD_TARGET_DEFAULT").isPresent()) {
      out.add(
          "  why: no -foffload= on the link command line, so gcc passed the targets it was"
              + " configured with (it set OFFLOAD_TARGET_DEFAULT): a target whose image fails is"
              + " dropped with a warning and its regions run on the host");
    } else {
      out.add(
          "  why: chosen by -foffload= on the gcc command line (gcc turns it into"
              + " OFFLOAD_TARGET_NAMES and sets no OFFLOAD_TARGET_DEFAULT): a target whose image"
              + " fails fails the link");
    }
    for (Target t : r.getTargetsList()) {
      out.add("  " + t.getName() + ": " + targetText(t));
    }
  }

  private static String targetText(Target t) {
    String how =
        switch (t.getExecution()) {
          case EXECUTION_IN_PROCESS -> "offlink's mkoffload in lto-wrapper's JVM";
          case EXECUTION_SUBPROCESS -> "mkoffload as a process (" + t.getMkoffload() + ")";
          default -> "mkoffload not run";
        };
    return switch (t.getStatus()) {
      case TARGET_STATUS_OK -> "built by " + how + " -> " + t.getObject();
      case TARGET_STATUS_FAILED -> "FAILED (" + how + "): " + t.getError();
      case TARGET_STATUS_DROPPED -> "dropped: " + t.getError();
      default -> "not built (an earlier step failed)";
    };
  }

  private static void inputs(LinkReport r, List<String> out) {
    out.add("");
    out.add("Inputs: " + r.getInputsCount() + " object(s) with IR");
    for (Input i : r.getInputsList()) {
      String what =
          switch (i.getKind()) {
            case INPUT_KIND_OFFLOAD -> "offload IR";
            case INPUT_KIND_LTO -> "host LTO IR (no offload IR)";
            case INPUT_KIND_LTO_AND_OFFLOAD -> "host LTO IR and offload IR";
            default -> "unknown";
          };
      out.add("  " + i.getSpelling() + ": " + what);
      if (i.getOffloadOptionsCount() > 0) {
        out.add("    its offload IR was compiled with: " + words(i.getOffloadOptionsList()));
      }
    }
    if (r.getInputsList().stream().anyMatch(i -> i.getKind().name().contains("OFFLOAD"))) {
      out.add(
          "  (GCC 12 streams one target-independent offload IR: every target above compiles all"
              + " of it)");
    }
  }

  private static void options(LinkReport r, List<String> out) {
    out.add("");
    out.add("Options:");
    List<String> offloadOptions = linkOptions(r, "-foffload-options=");
    out.add(
        "  link: "
            + (offloadOptions.isEmpty()
                ? "no -foffload-options= (the accel compilers get only what the objects recorded)"
                : String.join(" ", offloadOptions)));
    for (Subcommand s : r.getSubcommandsList()) {
      if (s.getKind() == SubcommandKind.SUBCOMMAND_KIND_ACCEL_COMPILE) {
        out.add("  " + s.getTarget() + " accel compiler ran with: " + flags(s.getArgvList()));
      }
    }
    if (r.getMergeNotesCount() == 0) {
      out.add("  merge of the inputs' options: nothing dropped or overridden");
    } else {
      out.add("  merge of the inputs' options (GCC's rules):");
      r.getMergeNotesList().forEach(n -> out.add("    " + n));
    }
  }

  /** GCC's quoted option lists ({@code .opts} strings) as one line of words. */
  private static String words(List<String> quoted) {
    List<String> words = new ArrayList<>();
    for (String q : quoted) {
      words.addAll(OptionQuoting.parse(q));
    }
    return String.join(" ", words);
  }

  /** The options of an argv: its words that start with '-', once each, in order. */
  private static String flags(List<String> argv) {
    Set<String> words = new LinkedHashSet<>();
    for (String a : argv.subList(1, argv.size())) {
      if (a.startsWith("-") && !a.startsWith("-o")) {
        words.add(a);
      }
    }
    return String.join(" ", words);
  }

  private static void images(LinkReport r, List<String> out) {
    out.add("");
    if (r.getImagesCount() == 0) {
      out.add("Images: none built in lto-wrapper's JVM");
      return;
    }
    out.add("Images:");
    for (Image i : r.getImagesList()) {
      String format = i.getFormat().name().replace("IMAGE_FORMAT_", "");
      String chunks = i.getChunksCount() > 0 ? ", " + i.getChunksCount() + " chunk(s)" : "";
      out.add(
          "  "
              + i.getTarget()
              + ": "
              + format
              + chunks
              + ", "
              + i.getImageSize()
              + " bytes, sha256 "
              + i.getSha256());
      List<String> functions = i.getFunctionsList().stream().map(Function::getName).toList();
      out.add("    " + functions.size() + " function(s): " + names(functions));
      String vars = i.getVariablesCount() > 0 ? ": " + names(i.getVariablesList()) : "";
      out.add("    " + i.getVariableCount() + " variable(s)" + vars);
    }
  }

  private static void failure(LinkReport r, List<String> out) {
    if (r.getExitStatus() == 0) {
      return;
    }
    out.add("");
    Optional<Subcommand> first =
        r.getSubcommandsList().stream().filter(s -> s.getExitStatus() != 0).findFirst();
    if (first.isEmpty()) {
      out.add("Failure: no program failed; lto-wrapper itself stopped: " + r.getError());
      return;
    }
    out.add("Failure: the steps that failed, the first one first:");
    Set<String> shown = new LinkedHashSet<>();
    for (Subcommand s : r.getSubcommandsList()) {
      if (s.getExitStatus() == 0) {
        continue;
      }
      String step = s.getKind().name().replace("SUBCOMMAND_KIND_", "").toLowerCase(Locale.ROOT);
      String forTarget = s.getTarget().isEmpty() ? "" : " for " + s.getTarget();
      String status =
          s.getExitStatus() < 0
              ? "could not start: " + s.getError()
              : "exit status " + s.getExitStatus();
      out.add(
          "  "
              + step.replace('_', ' ')
              + forTarget
              + " ("
              + status
              + "): "
              + Path.of(s.getArgv(0)).getFileName());
      for (String line : s.getStderrHeadList()) {
        if (shown.add(line)) { // a parent repeats its child's lines: each is shown once
          out.add("    " + line);
        }
      }
    }
    FailureHints.forLines(shown).forEach(h -> out.add("  hint: " + h));
  }

  private static void tools(ReproducerManifest m, List<String> out) {
    out.add("");
    out.add("Bundle: " + m.getFilesCount() + " input file(s); tools on the machine that linked:");
    for (ToolVersion t : m.getToolsList()) {
      out.add("  " + t.getTool() + " [" + t.getStatus() + "]: " + t.getDetail());
    }
  }

  private static Optional<String> env(LinkReport r, String name) {
    for (EnvironmentVariable v : r.getEnvironmentList()) {
      if (v.getName().equals(name)) {
        return Optional.of(v.getValue());
      }
    }
    return Optional.empty();
  }

  /** The words of COLLECT_GCC_OPTIONS (the link's gcc options) that start with {@code prefix}. */
  private static List<String> linkOptions(LinkReport r, String prefix) {
    Optional<String> options = env(r, "COLLECT_GCC_OPTIONS");
    if (options.isEmpty()) {
      return List.of();
    }
    return OptionQuoting.parse(options.get()).stream().filter(w -> w.startsWith(prefix)).toList();
  }

  private static String names(List<String> names) {
    if (names.isEmpty()) {
      return "none";
    }
    if (names.size() <= MAX_NAMES) {
      return String.join(", ", names);
    }
    return String.join(", ", names.subList(0, MAX_NAMES))
        + " and "
        + (names.size() - MAX_NAMES)
        + " more";
  }
}
