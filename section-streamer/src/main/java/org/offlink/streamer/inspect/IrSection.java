package org.offlink.streamer.inspect;

import java.util.Objects;

/**
 * An offload-related section of an object: a GCC LTO/offload IR section or a host offload table.
 * The same rows as {@code section-streamer list}.
 *
 * @param name the section name
 * @param size its size in bytes
 * @param stream {@code host-lto}, {@code offload}, {@code offload-legacy} or {@code host}
 * @param kind the LTO section kind word, or {@code offload table}
 * @param entries the entry count for host tables, -1 otherwise
 */
public record IrSection(String name, long size, String stream, String kind, long entries) {
  /** Checks the fields. */
  public IrSection {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(stream, "stream");
    Objects.requireNonNull(kind, "kind");
  }
}
