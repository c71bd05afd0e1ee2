package org.offlink.ltowrapper.offload;

import java.util.ArrayList;
import java.util.List;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.run.LtoWrapperException;

/**
 * The link-time host/device consistency check: libgomp maps the host's {@code .gnu.offload_funcs}
 * and {@code .gnu.offload_vars} onto a device image's functions and variables by position and, when
 * the counts differ, stops at run time with "Cannot map target functions or variables (expected N,
 * have M)". Stock GCC links such a program without a word; offlink fails the link instead, naming
 * the objects and the counts.
 */
public final class ConsistencyCheck {
  /** At most this many objects are named in the message; the rest are counted. */
  static final int NAMED_OBJECTS = 8;

  private ConsistencyCheck() {}

  /**
   * Checks one target's image against the host tables.
   *
   * @throws LtoWrapperException naming the target, the counts and the objects on a mismatch
   */
  public static void check(String target, HostTables host, ImageCounts image) {
    if (host.functions() == image.functions() && host.variables() == image.variables()) {
      return;
    }
    throw new LtoWrapperException(message(target, host, image));
  }

  static String message(String target, HostTables host, ImageCounts image) {
    List<String> parts = new ArrayList<>();
    List<HostTables.ObjectTables> objects = host.objects();
    for (int i = 0; i < objects.size() && i < NAMED_OBJECTS; i++) {
      HostTables.ObjectTables o = objects.get(i);
      parts.add(o.name() + " " + o.functions() + "/" + o.variables());
    }
    if (objects.size() > NAMED_OBJECTS) {
      parts.add("and " + (objects.size() - NAMED_OBJECTS) + " more");
    }
    return "offload tables do not match for "
        + target
        + ": the host objects have "
        + host.functions()
        + " functions/"
        + host.variables()
        + " variables ("
        + String.join(", ", parts)
        + ") but the "
        + target
        + " image built from them has "
        + image.functions()
        + "/"
        + image.variables()
        + "; libgomp would fail at run time with %<Cannot map target functions or variables%>"
        + " (disable with OFFLINK_FLAGS=--no-consistency-check)";
  }
}
