package org.offlink.bridge.doctor;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code gcc -v} says: version, target triplet and the offload targets, from the {@code
 * OFFLOAD_TARGET_NAMES=} line or else the configure line's {@code --enable-offload-targets=}.
 */
public record GccFacts(String version, String triplet, List<String> offloadTargets) {
  private static final Pattern VERSION = Pattern.compile("(?m)^gcc version (\\S+)");
  private static final Pattern TARGET = Pattern.compile("(?m)^Target: (\\S+)");
  private static final Pattern NAMES = Pattern.compile("(?m)^OFFLOAD_TARGET_NAMES=(\\S*)");
  private static final Pattern CONFIGURE = Pattern.compile("--enable-offload-targets=(\\S+)");

  public GccFacts {
    offloadTargets = List.copyOf(offloadTargets);
  }

  /** Parses the {@code -v} text; empty when it has no version line. */
  public static Optional<GccFacts> parse(String text) {
    Matcher v = VERSION.matcher(text);
    Matcher t = TARGET.matcher(text);
    if (!v.find() || !t.find()) {
      return Optional.empty();
    }
    List<String> targets = new ArrayList<>();
    Matcher names = NAMES.matcher(text);
    Matcher configure = CONFIGURE.matcher(text);
    if (names.find()) {
      for (String n : names.group(1).split(":")) {
        if (!n.isEmpty()) {
          targets.add(n);
        }
      }
    } else if (configure.find()) {
      for (String spec : configure.group(1).split(",")) {
        String name = spec.contains("=") ? spec.substring(0, spec.indexOf('=')) : spec;
        if (!name.isEmpty()) {
          targets.add(name);
        }
      }
    }
    return Optional.of(new GccFacts(v.group(1), t.group(1), targets));
  }
}
