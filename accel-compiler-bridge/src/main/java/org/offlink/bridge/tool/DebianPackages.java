package org.offlink.bridge.tool;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which Debian (bookworm) package provides a tool offlink looks for, so that a miss can say what to
 * install. Unknown tools map to the empty string.
 */
public final class DebianPackages {
  private static final Pattern ACCEL =
      Pattern.compile(".*-accel-(nvptx-none|amdgcn-amdhsa)-gcc(?:-(\\d+))?");
  private static final Map<String, String> FIXED =
      Map.ofEntries(
          Map.entry("nvptx-none-as", "nvptx-tools"),
          Map.entry("nvptx-none-ld", "nvptx-tools"),
          Map.entry("nvptx-none-ar", "nvptx-tools"),
          Map.entry("nvptx-none-ranlib", "nvptx-tools"),
          Map.entry("llvm-mc", "llvm-13"),
          Map.entry("llvm-mc-13", "llvm-13"),
          Map.entry("llvm-ar", "llvm-13"),
          Map.entry("llvm-nm", "llvm-13"),
          Map.entry("lld", "lld-13"),
          Map.entry("ld.lld", "lld-13"),
          Map.entry("ptxas", "nvidia-cuda-toolkit"),
          Map.entry("gcc", "gcc"),
          Map.entry("gcc-12", "gcc-12"));

  private DebianPackages() {}

  /** The package for {@code tool} (a bare program name), or "" when unknown. */
  public static String forTool(String tool) {
    String fixed = FIXED.get(tool);
    if (fixed != null) {
      return fixed;
    }
    Matcher m = ACCEL.matcher(tool);
    if (m.matches()) {
      int major = m.group(2) == null ? 12 : Integer.parseInt(m.group(2));
      return OffloadTarget.byTriplet(m.group(1)).orElseThrow().debianPackage(major);
    }
    if (tool.matches("gcc-\\d+")) {
      return tool;
    }
    return "";
  }
}
