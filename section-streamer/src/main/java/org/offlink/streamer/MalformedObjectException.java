package org.offlink.streamer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * An input file is not what it claims to be: the file, the byte offset where the problem was found
 * (or -1 when none applies), and what was expected versus found. {@link #getMessage()} is a single
 * line suitable for {@code <tool>: error: <message>}.
 */
public class MalformedObjectException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient Path file;
  private final long offset;
  private final String detail;

  /** Creates an exception for {@code file} at {@code offset} (-1 for none). */
  public MalformedObjectException(Path file, long offset, String detail) {
    super(format(file, offset, detail));
    this.file = file;
    this.offset = offset;
    this.detail = detail;
  }

  /** Creates an exception with a cause, e.g. a decompressor's. */
  public MalformedObjectException(Path file, long offset, String detail, Throwable cause) {
    this(file, offset, detail);
    initCause(cause);
  }

  private static String format(Path file, long offset, String detail) {
    String where = offset >= 0 ? String.format(" (at offset 0x%x)", offset) : "";
    return file + where + ": " + detail;
  }

  /** The file that is malformed. */
  public Path file() {
    return file;
  }

  /** Byte offset of the problem in the file, or -1. */
  public long offset() {
    return offset;
  }

  /** What was expected and what was found, without the file name. */
  public String detail() {
    return detail;
  }
}
