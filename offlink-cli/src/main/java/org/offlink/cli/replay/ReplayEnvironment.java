package org.offlink.cli.replay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.offlink.ltowrapper.report.ReportEnvironment;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * The environment of a replayed link. The bundle's variables are input from a stranger: only the
 * ones offlink's writer records are accepted at all ({@link ManifestValidator}), and each of those
 * is applied as its {@link Policy} says, as data: the driver's link variables (vetted), this
 * machine's tool settings instead of the recorded ones, and never the variables that would write
 * elsewhere, reach a remote cache or choose a JVM or a locale. The result replaces the current
 * environment's recorded variables; everything else of the current environment (the user's own) is
 * kept.
 */
final class ReplayEnvironment {
  /** What a replay does with a recorded variable. */
  enum Policy {
    /** Applied as recorded: a setting, never a path. */
    SETTING,
    /** Applied after {@link #targetNames} accepted it. */
    TARGET_NAMES,
    /** The driver: a bare name or this machine's path ({@link ReplayPaths#tool}). */
    DRIVER,
    /** GCC options, vetted by {@link ReplayOptions}. */
    GCC_OPTIONS,
    /** Assembler options for the accel compiler, vetted by {@link ReplayOptions}. */
    ASSEMBLER_OPTIONS,
    /** A folder list where tools are found: each entry by {@link ReplayPaths#tool}. */
    TOOL_FOLDERS,
    /** {@code MAKEFLAGS} without the jobserver, whose descriptors or FIFO are not this run's. */
    MAKEFLAGS,
    /** Set by the replay itself (its scratch folder, this tree). */
    SET_BY_REPLAY,
    /** Not applied: this machine's value, if any, is used. */
    THIS_MACHINE,
    /** Neither the bundle's nor this machine's: a replay writes no bundle and uses no cache. */
    NEVER
  }

  /** The policy of each variable the writer records by name; other {@code OFFLINK_*}: NEVER. */
  static final Map<String, Policy> POLICIES =
      Map.ofEntries(
          Map.entry("COLLECT_GCC", Policy.DRIVER),
          Map.entry("COLLECT_GCC_OPTIONS", Policy.GCC_OPTIONS),
          Map.entry("COLLECT_AS_OPTIONS", Policy.ASSEMBLER_OPTIONS),
          Map.entry("COLLECT_LTO_WRAPPER", Policy.SET_BY_REPLAY),
          Map.entry("COMPILER_PATH", Policy.TOOL_FOLDERS),
          Map.entry("LIBRARY_PATH", Policy.TOOL_FOLDERS),
          Map.entry("GCC_EXEC_PREFIX", Policy.THIS_MACHINE),
          Map.entry("OFFLOAD_TARGET_NAMES", Policy.TARGET_NAMES),
          Map.entry("OFFLOAD_TARGET_DEFAULT", Policy.SETTING),
          Map.entry("MAKEFLAGS", Policy.MAKEFLAGS),
          Map.entry("PATH", Policy.THIS_MACHINE),
          Map.entry("TMPDIR", Policy.SET_BY_REPLAY),
          Map.entry("JAVA_HOME", Policy.THIS_MACHINE),
          Map.entry("OFFLINK_JAVA", Policy.THIS_MACHINE),
          Map.entry("OFFLINK_CALLER_LC_ALL", Policy.THIS_MACHINE),
          Map.entry("OFFLINK_CALLER_LOCPATH", Policy.THIS_MACHINE),
          Map.entry("OFFLINK_FLAGS", Policy.SETTING),
          Map.entry("OFFLINK_PTXAS", Policy.SETTING),
          Map.entry("OFFLINK_MKOFFLOAD_SUBPROCESS", Policy.SETTING),
          Map.entry("OFFLINK_PARALLEL_OFFLOAD", Policy.SETTING),
          Map.entry("OFFLINK_DEBUG", Policy.SETTING),
          Map.entry("OFFLINK_TIMING", Policy.SETTING),
          Map.entry("OFFLINK_REPORT", Policy.SET_BY_REPLAY));

  private static final Pattern TARGET = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.+-]*");

  private ReplayEnvironment() {}

  /** The policy of the recorded variable {@code name}. */
  static Policy policy(String name) {
    return POLICIES.getOrDefault(name, Policy.NEVER);
  }

  /** The environment, and one note per recorded setting not applied. */
  record Result(Map<String, String> environment, List<String> notes) {}

  /**
   * The replay's environment: {@code base} less every recorded variable but this machine's, plus
   * the bundle's as their policies say, plus {@code own} (what the replay sets itself).
   */
  static Result of(
      Map<String, String> base,
      ReproducerManifest m,
      ReplayPaths paths,
      ReplayOptions options,
      Map<String, String> own) {
    Map<String, String> env = new HashMap<>(base);
    env.keySet().removeIf(n -> ReportEnvironment.recorded(n) && policy(n) != Policy.THIS_MACHINE);
    List<String> notes = new ArrayList<>();
    TreeSet<String> thisMachine = new TreeSet<>();
    for (int i = 0; i < m.getEnvironmentCount(); i++) {
      EnvironmentVariable v = m.getEnvironment(i);
      String field = "environment " + v.getName();
      Policy p = policy(v.getName());
      if (p == Policy.THIS_MACHINE || p == Policy.NEVER) {
        thisMachine.add(v.getName());
        continue;
      }
      applied(p, field, v.getValue(), paths, options, notes)
          .ifPresent(value -> env.put(v.getName(), value));
    }
    env.putAll(own);
    if (!thisMachine.isEmpty()) {
      notes.add(0, "the bundle's " + String.join(", ", thisMachine));
    }
    return new Result(env, notes);
  }

  private static Optional<String> applied(
      Policy p,
      String field,
      String value,
      ReplayPaths paths,
      ReplayOptions options,
      List<String> notes) {
    switch (p) {
      case SETTING:
        return Optional.of(value);
      case TARGET_NAMES:
        return Optional.of(targetNames(field, value, paths));
      case DRIVER:
        return Optional.of(driver(value, paths, notes));
      case GCC_OPTIONS:
        return Optional.of(options.collectGccOptions(field, value, notes));
      case ASSEMBLER_OPTIONS:
        return Optional.of(options.assemblerOptions(field, value));
      case TOOL_FOLDERS:
        return Optional.of(folders(field, value, paths, notes));
      case MAKEFLAGS:
        return Optional.of(withoutJobserver(value));
      default:
        return Optional.empty(); // SET_BY_REPLAY: the replay's own value comes later
    }
  }

  /**
   * {@code OFFLOAD_TARGET_NAMES}: target names separated by ':'. Each becomes part of the path
   * {@code accel/<target>/mkoffload}, so a name is a plain word, never a path.
   */
  static String targetNames(String field, String value, ReplayPaths paths) {
    for (String t : value.split(":", -1)) {
      if (!TARGET.matcher(t).matches()) {
        throw paths.refuse(
            field, "offload target names (like nvptx-none) separated by ':'", OneLine.quoted(t));
      }
    }
    return value;
  }

  /**
   * {@code COLLECT_GCC}: the host driver, whose folder GCC's mkoffload searches for the accel
   * driver. A bare name is looked up on this machine's PATH; a path outside the bundle and the
   * scratch folder is this machine's; anything else is replaced by its bare name.
   */
  private static String driver(String value, ReplayPaths paths, List<String> notes) {
    if (!value.contains("/") || paths.tool(value).isPresent()) {
      return value;
    }
    String bare =
        Path.of(value).getFileName() == null ? "gcc" : Path.of(value).getFileName().toString();
    notes.add("COLLECT_GCC " + OneLine.quoted(value) + " (" + bare + " on this machine's PATH)");
    return bare;
  }

  /** A ':'-separated folder list with every entry that is not this machine's left out. */
  private static String folders(String field, String value, ReplayPaths paths, List<String> notes) {
    List<String> kept = new ArrayList<>();
    for (String entry : value.split(":", -1)) {
      Optional<String> dir = paths.tool(entry);
      if (dir.isPresent()) {
        kept.add(dir.get());
      } else if (!entry.isEmpty()) {
        notes.add(field.substring("environment ".length()) + " entry " + OneLine.quoted(entry));
      }
    }
    return String.join(":", kept);
  }

  /**
   * {@code MAKEFLAGS} less {@code --jobserver-auth=} and {@code --jobserver-fds=}: the recorded
   * descriptors are whatever this process has open under those numbers, the FIFO a path of the
   * other machine.
   */
  static String withoutJobserver(String value) {
    List<String> words = new ArrayList<>();
    for (String w : value.split(" ", -1)) {
      if (!w.startsWith("--jobserver-auth=") && !w.startsWith("--jobserver-fds=")) {
        words.add(w);
      }
    }
    return String.join(" ", words);
  }
}
