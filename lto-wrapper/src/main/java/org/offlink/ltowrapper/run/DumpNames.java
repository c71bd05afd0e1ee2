package org.offlink.ltowrapper.run;

/**
 * The dump prefix ({@code dumppfx}, §2.6) and the names derived from it. With an incoming {@code
 * -dumpdir X} the prefix is X; otherwise it comes from {@code -o}: {@code a.out} and {@code *.exe}
 * lose the extension ({@code a.}), other names get a dot appended, no output or {@code /dev/null}
 * gives {@code a.}. A prefix without a directory gets {@code ./}.
 */
public record DumpNames(String prefix) {
  /**
   * Computes the prefix from the link-time {@code -dumpdir} and {@code -o} (either may be null).
   */
  public static DumpNames of(String incomingDumpdir, String linkerOutput) {
    String p = incomingDumpdir;
    if (p == null) {
      if (linkerOutput == null || linkerOutput.equals("/dev/null")) {
        p = "a.";
      } else {
        int slash = linkerOutput.lastIndexOf('/');
        String base = linkerOutput.substring(slash + 1);
        int dot = base.length() > 1 ? base.lastIndexOf('.') : -1;
        boolean strip = dot > 0 && (base.substring(dot).equals(".exe") || base.equals("a.out"));
        p = strip ? linkerOutput.substring(0, slash + 1 + dot + 1) : linkerOutput + ".";
      }
    }
    if (p.lastIndexOf('/') < 0) {
      p = "./" + p;
    }
    return new DumpNames(p);
  }

  /** {@code <dumppfx>x<target>}: mkoffload's {@code -dumpbase}. */
  public String offloadDumpbase(String target) {
    return prefix + "x" + target;
  }

  /** {@code <dumppfx><name>}. */
  public String named(String name) {
    return prefix + name;
  }

  /** {@code <dumppfx>ltrans<N>.ltrans}: the LTRANS {@code -dumpbase}. */
  public String ltransDumpbase(int index) {
    return prefix + "ltrans" + index + ".ltrans";
  }
}
