package org.offlink.ltowrapper.io;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.runtime.LinkScope;

/**
 * Copies an LTO object's early debug sections ({@code .gnu.debuglto_*}) into a new object, as
 * libiberty's {@code simple_object_copy_lto_debug_sections} does (§2.12). In production this is
 * {@code LtoWrapperWiring.copyEarlyDebug}, over section-streamer's {@code LtoDebugSectionCopier};
 * tests pass fakes.
 */
@FunctionalInterface
public interface EarlyDebugCopier {
  /**
   * Writes {@code output}, for the link of {@code scope}, if {@code input} has {@code
   * .gnu.debuglto_.debug_info}.
   *
   * @param rename strip the {@code .gnu.debuglto_} prefix (false for {@code -flinker-output=rel})
   * @return false (writing nothing) if the input has no early debug info
   * @throws IOException if reading or writing fails
   */
  boolean copy(LinkScope scope, InputFile input, Path output, boolean rename) throws IOException;
}
