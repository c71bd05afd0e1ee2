package org.offlink.ltowrapper.io;

import java.util.List;

/**
 * Decodes the COLLECT_GCC_OPTIONS quoting ({@code 'word' 'it'\''s'}) used by the environment
 * variable and by {@code .opts} sections (§2.3). In production this is {@code
 * org.offlink.streamer.opts.OptionQuoting::parse}.
 */
@FunctionalInterface
public interface OptionQuoting {
  /**
   * Returns the quoted words of {@code text}.
   *
   * @throws IllegalArgumentException if a quote is not terminated (GCC: {@code malformed
   *     'COLLECT_GCC_OPTIONS'})
   */
  List<String> parse(String text);
}
