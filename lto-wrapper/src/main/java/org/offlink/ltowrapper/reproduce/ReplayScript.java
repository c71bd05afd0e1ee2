package org.offlink.ltowrapper.reproduce;

import java.util.List;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;

/**
 * The {@code replay} script of a bundle, for people: it runs {@code offlink replay} on the folder
 * it was extracted to, and spells out in comments the command as it ran on the machine that linked.
 * {@code offlink replay} itself never runs it (nor any shell).
 */
final class ReplayScript {
  private ReplayScript() {}

  static String text(ReproducerManifest m) {
    StringBuilder sb = new StringBuilder();
    sb.append("#!/bin/sh\n");
    sb.append(
        "# Replays the offload link recorded in this bundle (written by offlink's lto-wrapper)\n");
    sb.append("# and says whether the outcome and the device images are the same. Needs offlink\n");
    sb.append("# (on PATH, or $OFFLINK) and the toolchain of manifest.json's \"tools\".\n");
    sb.append("#   tar xf BUNDLE.tar && DIR/replay     (or: offlink replay BUNDLE.tar)\n");
    sb.append("#\n# The link as it ran, with the paths of the machine that linked:\n");
    sb.append("#   cd ").append(quote(m.getWorkingDirectory())).append('\n');
    for (EnvironmentVariable v : m.getEnvironmentList()) {
      sb.append("#   ").append(v.getName()).append('=').append(quote(v.getValue())).append(" \\\n");
    }
    sb.append("#   ").append(words(m.getArgv0(), m.getExpandedArgsList())).append('\n');
    sb.append("# It ended with exit status ").append(m.getExitStatus()).append(".\n");
    sb.append("dir=$(cd \"$(dirname \"$0\")\" && pwd) || exit 1\n");
    sb.append("exec \"${OFFLINK:-offlink}\" replay \"$dir\" \"$@\"\n");
    return sb.toString();
  }

  private static String words(String argv0, List<String> args) {
    StringBuilder sb = new StringBuilder(quote(argv0));
    for (String a : args) {
      sb.append(' ').append(quote(a));
    }
    return sb.toString();
  }

  /**
   * A shell word: single-quoted, embedded quotes as {@code '\''}; newlines as spaces (comments).
   */
  static String quote(String s) {
    return "'" + s.replace("\n", " ").replace("'", "'\\''") + "'";
  }
}
