package org.offlink.ltowrapper.plan;

import java.util.Objects;
import java.util.Optional;
import org.offlink.ltowrapper.io.InputFile;

/**
 * One of lto-wrapper's arguments after {@code -foffload-objects=} is taken out, classified once as
 * GCC classifies it: a file it can open (an object, maybe an archive member {@code lib.a@0xOFF}),
 * or, when {@code open} fails, an option passed through to the LTO compile ({@code -fresolution=},
 * {@code -flinker-output=}, ...).
 *
 * @param spelling the argument as given, passed on verbatim to children
 * @param file the input it names, when it is a readable file
 */
public record LinkArgument(String spelling, Optional<InputFile> file) {
  /** Checks the fields. */
  public LinkArgument {
    Objects.requireNonNull(spelling, "spelling");
    Objects.requireNonNull(file, "file");
  }

  /** Whether the argument is an option (no readable file by that name). */
  public boolean isOption() {
    return file.isEmpty();
  }
}
