package org.offlink.ltowrapper.io;

import java.nio.file.Path;
import java.util.Objects;
import org.offlink.runtime.WorkingDirectory;
import org.offlink.streamer.ar.MemberSpec;

/**
 * An input as lto-wrapper names it: the spelling given on the command line or in the offload list,
 * the file, and the byte offset of an archive member ({@code libx.a@0x53c}; 0 for a plain file).
 *
 * @param spelling the original text, passed on verbatim to children
 * @param file the file without the {@code @offset} suffix
 * @param offset where the object starts in the file
 */
public record InputFile(String spelling, Path file, long offset) {
  /** Checks the fields. */
  public InputFile {
    Objects.requireNonNull(spelling, "spelling");
    Objects.requireNonNull(file, "file");
    if (offset < 0) {
      throw new IllegalArgumentException("negative offset " + offset + " in " + spelling);
    }
  }

  /**
   * Splits a trailing {@code @<offset>} off {@code spelling} with GCC's rule, {@link
   * MemberSpec#parse} (the one member-spec parser); relative names resolve against {@code dir}.
   *
   * @throws IllegalArgumentException for a negative offset
   */
  public static InputFile parse(String spelling, Path dir) {
    MemberSpec spec = MemberSpec.parse(spelling);
    return new InputFile(spelling, WorkingDirectory.resolve(dir, spec.file()), spec.offset());
  }
}
