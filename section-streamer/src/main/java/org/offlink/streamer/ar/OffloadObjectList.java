package org.offlink.streamer.ar;

import java.util.List;

/**
 * The {@code -foffload-objects=<file>} list (".ofldlist") that GCC's linker plugin writes for
 * lto-wrapper: the objects carrying {@code .gnu.offload_lto_.opts}, in host link order, each
 * spelled as a {@link MemberSpec}.
 *
 * <pre>
 * &lt;N&gt;\n          decimal count
 * &lt;name 1&gt;\n
 * …
 * &lt;name N&gt;\n     every line, the last included, ends in \n
 * </pre>
 *
 * @param entries the object names in list order
 */
public record OffloadObjectList(List<String> entries) {
  /** Copies the list and rejects names a line-based file cannot hold. */
  public OffloadObjectList {
    entries = List.copyOf(entries);
    for (String e : entries) {
      if (e.indexOf('\n') >= 0 || e.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("offload object name contains a newline or NUL: " + e);
      }
    }
  }

  /** The entries parsed as archive member specs. */
  public List<MemberSpec> specs() {
    return entries.stream().map(MemberSpec::parse).toList();
  }
}
