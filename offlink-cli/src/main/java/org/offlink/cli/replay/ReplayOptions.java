package org.offlink.cli.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.streamer.opts.OptionQuoting;

/**
 * The recorded GCC options of a replayed link ({@code COLLECT_GCC_OPTIONS}, {@code
 * COLLECT_AS_OPTIONS}), vetted as input from a stranger. What each option may do is data ({@link
 * Rule}): options that run programs are refused; options that load code ({@code -fplugin=}, {@code
 * -specs=}) may only name this machine's files; {@code -B} folders follow {@link ReplayPaths#tool};
 * outputs ({@code -o}, {@code -dumpdir}, {@code -dumpbase}, which also place {@code -save-temps}
 * files) are moved into the scratch folder; and the words lto-wrapper hands to the accel compiler
 * ({@code -foffload-options=}, {@code -Xassembler}, {@code COLLECT_AS_OPTIONS}) may neither load
 * code nor name a file to write. Other options keep their words, paths of the bundle moved as
 * {@link PathRewriter} does.
 */
final class ReplayOptions {
  /** What an option of the recorded command line may do in a replay. */
  enum Rule {
    /** Runs programs of its own: refused. */
    RUNS_PROGRAMS("-wrapper", true),
    /** Loads a plugin or a specs file (which may run programs): this machine's files only. */
    LOADS_CODE_PLUGIN("-fplugin=", false),
    LOADS_CODE_SPECS("-specs=", false),
    LOADS_CODE_SPECS_LONG("--specs=", false),
    LOADS_CODE_PLUGIN_DIR("-iplugindir=", false),
    /** A tool folder: {@link ReplayPaths#tool}. */
    TOOL_DIR("-B", true),
    /** An output path or prefix: {@link ReplayPaths#data}. */
    OUTPUT("-o", true),
    OUTPUT_DUMPDIR("-dumpdir", true),
    OUTPUT_DUMPBASE("-dumpbase", true),
    /** Words for the accel compiler: each checked by {@link #accelWord}. */
    ACCEL_WORDS("-foffload-options=", false),
    ACCEL_WORD("-Xassembler", true);

    final String spelling;
    final boolean separate;

    Rule(String spelling, boolean separate) {
      this.spelling = spelling;
      this.separate = separate;
    }

    /** The rule of {@code word} given as one word (joined or with {@code =}). */
    static Optional<Rule> joined(String word) {
      for (Rule r : values()) {
        if (r.separate ? word.equals(r.spelling) : word.startsWith(r.spelling)) {
          return Optional.of(r);
        }
      }
      // -B and -o also take their argument joined: -B/dir/, -ofile (no other option starts so).
      if (word.startsWith("-B") && word.length() > 2) {
        return Optional.of(TOOL_DIR);
      }
      if (word.startsWith("-o") && word.length() > 2) {
        return Optional.of(OUTPUT);
      }
      return Optional.empty();
    }
  }

  /**
   * Accel compiler words that run or load code, or name a file to write, whatever follows them: a
   * replay refuses them in {@code -foffload-options=}, {@code -Xassembler} and {@code
   * COLLECT_AS_OPTIONS} (they are never needed to reproduce a link).
   */
  private static final List<String> REFUSED_ACCEL_PREFIXES =
      List.of(
          "-wrapper",
          "-fplugin",
          "-specs",
          "--specs",
          "-iplugindir",
          "-B",
          "-o",
          "-dumpdir",
          "-dumpbase",
          "-save-temps=",
          "-Wl,",
          "-Wa,",
          "-Wp,",
          "-Xlinker",
          "-Xassembler",
          "-Xpreprocessor",
          "-M",
          "-aux-info",
          "-fdump-",
          "-fcallgraph-info",
          "--output",
          "-plugin",
          "--plugin",
          "--load-pass-plugin",
          "@");

  /** Accel compiler words that may name a folder to read (a path is refused in any other). */
  private static final List<String> READ_DIRS = List.of("-L", "-I", "-isystem");

  private final ReplayPaths paths;
  private final PathRewriter rewriter;

  ReplayOptions(ReplayPaths paths, PathRewriter rewriter) {
    this.paths = paths;
    this.rewriter = rewriter;
  }

  /**
   * {@code COLLECT_GCC_OPTIONS} for the replay.
   *
   * @param field the manifest entry, for messages
   * @param notes receives one line per option left out
   * @throws IllegalArgumentException one line naming the entry and the refused option
   */
  String collectGccOptions(String field, String value, List<String> notes) {
    List<String> words = words(field, value);
    List<String> out = new ArrayList<>();
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      Optional<Rule> rule = Rule.joined(w);
      if (rule.isEmpty()) {
        out.add(rewriter.word(w));
        continue;
      }
      Rule r = rule.get();
      String arg;
      if (r.separate && w.equals(r.spelling)) {
        if (i + 1 == words.size()) {
          out.add(w); // a dangling option: GCC's own problem, nothing to name
          continue;
        }
        arg = words.get(++i);
      } else {
        arg = w.substring(r.spelling.length());
      }
      String prefix = w.equals(r.spelling) ? null : w.substring(0, w.length() - arg.length());
      Optional<String> kept = vet(field, r, arg, notes);
      if (kept.isEmpty()) {
        continue;
      }
      if (prefix == null) {
        out.add(w);
        out.add(kept.get());
      } else {
        out.add(prefix + kept.get());
      }
    }
    return OptionQuoting.format(out);
  }

  /** {@code COLLECT_AS_OPTIONS} for the replay: each word goes to the accel assembler. */
  String assemblerOptions(String field, String value) {
    for (String w : org.offlink.bridge.process.ResponseFiles.split(value)) {
      accelWord(field, w);
    }
    return value;
  }

  /**
   * The options an object of the bundle recorded ({@code field} names it): the words lto-wrapper
   * hands on to the accel compiler, {@code -foffload-options=} and {@code -Xassembler}, are checked
   * as on the command line.
   */
  void objectOptions(String field, List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (w.startsWith(Rule.ACCEL_WORDS.spelling)) {
        vet(field, Rule.ACCEL_WORDS, w.substring(Rule.ACCEL_WORDS.spelling.length()), List.of());
      } else if (w.equals(Rule.ACCEL_WORD.spelling) && i + 1 < words.size()) {
        accelWord(field, words.get(++i));
      }
    }
  }

  /** The argument of {@code r} as the replay passes it; empty when it is left out. */
  private Optional<String> vet(String field, Rule r, String arg, List<String> notes) {
    switch (r) {
      case RUNS_PROGRAMS:
        throw refused(field, r.spelling + " " + arg, "runs programs");
      case LOADS_CODE_PLUGIN:
      case LOADS_CODE_SPECS:
      case LOADS_CODE_SPECS_LONG:
      case LOADS_CODE_PLUGIN_DIR:
        return Optional.of(machineFile(field, r, arg));
      case TOOL_DIR:
        Optional<String> dir = paths.tool(arg);
        if (dir.isEmpty()) {
          notes.add("-B " + OneLine.quoted(arg) + " (not a folder of this machine's)");
        }
        return dir;
      case OUTPUT:
      case OUTPUT_DUMPDIR:
      case OUTPUT_DUMPBASE:
        return Optional.of(paths.data(field + " " + r.spelling, arg));
      case ACCEL_WORDS:
        for (String w : accelWords(arg)) {
          accelWord(field, w);
        }
        return Optional.of(arg);
      case ACCEL_WORD:
        accelWord(field, arg);
        return Optional.of(arg);
      default:
        throw new IllegalStateException(r.name());
    }
  }

  /**
   * A plugin or specs file: a bare plugin name (GCC looks in its own plugin folder) or an absolute
   * path of this machine's; never relative (GCC looks in the working directory, the bundle's).
   */
  private String machineFile(String field, Rule r, String arg) {
    boolean bareName = r == Rule.LOADS_CODE_PLUGIN && !arg.contains("/");
    if (bareName || (arg.startsWith("/") && paths.tool(arg).isPresent())) {
      return arg;
    }
    throw refused(field, r.spelling + arg, "loads code from a file of the bundle");
  }

  /** The words of a {@code -foffload-options=} value, after an optional {@code TARGETS=}. */
  static List<String> accelWords(String value) {
    String options = value;
    int eq = value.indexOf('=');
    int space = value.indexOf(' ');
    if (!value.startsWith("-") && eq > 0 && (space < 0 || eq < space)) {
      options = value.substring(eq + 1);
    }
    List<String> words = new ArrayList<>();
    for (String w : options.split("\\s+")) {
      if (!w.isEmpty()) {
        words.add(w);
      }
    }
    return words;
  }

  private void accelWord(String field, String w) {
    for (String p : REFUSED_ACCEL_PREFIXES) {
      if (w.startsWith(p)) {
        throw refused(field, w, "makes the accel compiler run or load code or write a file");
      }
    }
    if (w.contains("/") && READ_DIRS.stream().noneMatch(w::startsWith)) {
      throw refused(field, w, "makes the accel compiler read a path of the bundle");
    }
  }

  private List<String> words(String field, String value) {
    try {
      return OptionQuoting.parse(value);
    } catch (RuntimeException e) {
      throw paths.refuse(field, "GCC's quoted options", "malformed quoting");
    }
  }

  private IllegalArgumentException refused(String field, String option, String why) {
    return paths.refuse(field, "no option that " + why, OneLine.quoted(option));
  }
}
