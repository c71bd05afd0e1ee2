package org.offlink.cli.replay;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.offlink.ltowrapper.report.proto.Image;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.Target;

/**
 * A replayed link against the recorded one: the same exit status, the same status for every offload
 * target, the same number of objects printed for the linker, and for every recorded device image
 * one of the same target with the same size and SHA-256. {@link #lines} says it in words, one
 * finding a line.
 */
public record ReplayComparison(boolean same, List<String> lines) {
  /** Copies the lines. */
  public ReplayComparison {
    lines = List.copyOf(lines);
  }

  /** Compares {@code replayed} with {@code recorded}. */
  public static ReplayComparison of(LinkReport recorded, LinkReport replayed) {
    List<String> lines = new ArrayList<>();
    boolean same =
        check(
            lines,
            "exit status",
            String.valueOf(recorded.getExitStatus()),
            String.valueOf(replayed.getExitStatus()));
    Map<String, Target> now = new LinkedHashMap<>();
    replayed.getTargetsList().forEach(t -> now.put(t.getName(), t));
    for (Target t : recorded.getTargetsList()) {
      Target r = now.get(t.getName());
      same &= check(lines, "target " + t.getName(), status(t), r == null ? "absent" : status(r));
    }
    same &=
        check(
            lines,
            "objects for the linker",
            String.valueOf(recorded.getOutputLinesCount()),
            String.valueOf(replayed.getOutputLinesCount()));
    Map<String, Image> images = new LinkedHashMap<>();
    replayed.getImagesList().forEach(i -> images.put(i.getTarget(), i));
    for (Image i : recorded.getImagesList()) {
      Image r = images.remove(i.getTarget());
      same &= check(lines, "image " + i.getTarget(), digest(i), r == null ? "absent" : digest(r));
    }
    for (Image extra : images.values()) {
      same &= check(lines, "image " + extra.getTarget(), "absent", digest(extra));
    }
    String result;
    if (!same) {
      result = "result: the replay DIFFERS from the recorded link";
    } else if (recorded.getImagesCount() == 0) {
      result = "result: the same outcome (no device image was built to compare)";
    } else {
      result = "result: the same outcome and byte-identical images";
    }
    lines.add(result);
    return new ReplayComparison(same, lines);
  }

  private static boolean check(List<String> lines, String what, String recorded, String replayed) {
    boolean same = recorded.equals(replayed);
    lines.add(
        what
            + ": "
            + replayed
            + (same ? " (same as recorded)" : " (recorded: " + recorded + ") DIFFERENT"));
    return same;
  }

  private static String status(Target t) {
    String s =
        t.getStatus().name().replace("TARGET_STATUS_", "").toLowerCase(java.util.Locale.ROOT);
    return s.replace('_', ' ');
  }

  private static String digest(Image i) {
    return i.getImageSize() + " bytes, sha256 " + i.getSha256();
  }
}
