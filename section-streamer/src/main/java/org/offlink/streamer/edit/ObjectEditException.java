package org.offlink.streamer.edit;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An edit cannot be applied to a well-formed object: the object kind is unsupported, a named
 * section is missing, or removing a section would leave a dangling reference. The message is one
 * line: {@code <file>: <what was expected>, found <what was found>}.
 */
public class ObjectEditException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;

  /** Creates the exception for {@code file} with a one-line {@code detail}. */
  public ObjectEditException(Path file, String detail) {
    super(file + ": " + detail);
    this.file = file;
  }

  /** The object the edit was applied to. */
  public Path file() {
    return file;
  }
}
