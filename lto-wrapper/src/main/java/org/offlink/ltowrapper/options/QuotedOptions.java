package org.offlink.ltowrapper.options;

import java.util.ArrayList;
import java.util.List;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.streamer.opts.OptionQuoting;

/** Decodes a COLLECT_GCC_OPTIONS-quoted string with {@code COLLECT_GCC} as argv[0] (LW:170). */
public final class QuotedOptions {
  private QuotedOptions() {}

  /** Parses and decodes {@code text}; a malformed quote is GCC's fatal error. */
  public static List<DecodedOption> decode(String collectGcc, String text) {
    List<String> words;
    try {
      words = OptionQuoting.parse(text);
    } catch (IllegalArgumentException e) {
      throw new LtoWrapperException("malformed %<COLLECT_GCC_OPTIONS%>", e);
    }
    List<String> argv = new ArrayList<>(words.size() + 1);
    argv.add(collectGcc);
    argv.addAll(words);
    return OptionDecoder.decode(argv);
  }
}
