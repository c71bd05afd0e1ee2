package org.offlink.ltowrapper.report;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.secrets.Credentials;

/**
 * The environment variables a link report records: those GCC's driver passes to lto-wrapper and
 * mkoffload to steer the link, the few that change which tools run ({@code PATH}, {@code TMPDIR},
 * {@code MAKEFLAGS}), and every {@code OFFLINK_*} knob. Nothing else, so that a report does not
 * copy a user's whole environment into a file; and no credential, in whatever form ({@link
 * Credentials}).
 */
public final class ReportEnvironment {
  static final Set<String> NAMES =
      Set.of(
          "COLLECT_GCC",
          "COLLECT_GCC_OPTIONS",
          "COLLECT_AS_OPTIONS",
          "COLLECT_LTO_WRAPPER",
          "COMPILER_PATH",
          "LIBRARY_PATH",
          "GCC_EXEC_PREFIX",
          "OFFLOAD_TARGET_NAMES",
          "OFFLOAD_TARGET_DEFAULT",
          "MAKEFLAGS",
          "PATH",
          "TMPDIR",
          "JAVA_HOME");

  private ReportEnvironment() {}

  /** Whether {@code name} is one of the recorded variables. */
  public static boolean recorded(String name) {
    return NAMES.contains(name) || name.startsWith("OFFLINK_");
  }

  /** The recorded names in words, for messages. */
  public static String describe() {
    return String.join(", ", new java.util.TreeSet<>(NAMES)) + " and OFFLINK_*";
  }

  /** The recorded variables of {@code environment}, sorted by name, credentials masked. */
  public static List<EnvironmentVariable> select(Map<String, String> environment) {
    TreeMap<String, String> picked = new TreeMap<>();
    environment.forEach(
        (name, value) -> {
          if (recorded(name)) {
            picked.put(name, Credentials.masked(name, value));
          }
        });
    return picked.entrySet().stream()
        .map(e -> EnvironmentVariable.newBuilder().setName(e.getKey()).setValue(e.getValue()))
        .map(EnvironmentVariable.Builder::build)
        .toList();
  }
}
