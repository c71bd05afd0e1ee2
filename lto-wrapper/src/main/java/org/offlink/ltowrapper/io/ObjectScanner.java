package org.offlink.ltowrapper.io;

import java.io.IOException;

/**
 * Reads an input's {@link ObjectScan}. In production this is {@code LtoWrapperWiring.scan}, over
 * the section-streamer ELF reader (for an archive member, from the {@code @0x...} offset to the end
 * of the file); {@link ScannedInputs} calls it at most once per input of a run.
 */
@FunctionalInterface
public interface ObjectScanner {
  /**
   * Scans {@code input}; {@link ObjectScan#NOT_AN_OBJECT} when it is not an ELF object.
   *
   * @throws IOException if the file cannot be read at all
   */
  ObjectScan scan(InputFile input) throws IOException;
}
