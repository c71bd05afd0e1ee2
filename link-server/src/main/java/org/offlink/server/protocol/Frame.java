package org.offlink.server.protocol;

import java.util.Objects;

/** One frame: its type and payload (the array is the frame's own; readers do not share it). */
public record Frame(FrameType type, byte[] payload) {
  /** Checks the fields. */
  public Frame {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(payload, "payload");
  }
}
