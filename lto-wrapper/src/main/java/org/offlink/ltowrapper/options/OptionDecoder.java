package org.offlink.ltowrapper.options;

import java.util.ArrayList;
import java.util.List;

/**
 * Decodes an argv (element 0 is the program name and is skipped) into {@link DecodedOption}s with
 * the {@link GccOption} table, the way GCC's {@code decode_cmdline_options_to_array} does for the
 * words lto-wrapper cares about: exact spellings and {@code -fno-} forms first, then levels ({@code
 * -O2}, {@code -g0}), then the longest joined prefix; anything else is {@link GccOption#GENERIC}.
 */
public final class OptionDecoder {
  private OptionDecoder() {}

  /** Decodes {@code argv[1..]}. */
  public static List<DecodedOption> decode(List<String> argv) {
    List<DecodedOption> out = new ArrayList<>();
    for (int i = 1; i < argv.size(); i++) {
      String word = argv.get(i);
      String next = i + 1 < argv.size() ? argv.get(i + 1) : null;
      DecodedOption option = decodeOne(word, next);
      if (usesNextWord(option, word)) {
        i++;
      }
      out.add(option);
    }
    return List.copyOf(out);
  }

  private static boolean usesNextWord(DecodedOption option, String word) {
    ArgKind kind = option.option().argKind();
    boolean separateForm = kind == ArgKind.SEPARATE || kind == ArgKind.JOINED_OR_SEPARATE;
    return separateForm && word.equals(option.option().spelling());
  }

  /** Decodes one word, using {@code next} as the argument of a separate-argument option. */
  static DecodedOption decodeOne(String word, String next) {
    if (!word.startsWith("-") || word.equals("-")) {
      return new DecodedOption(GccOption.INPUT, "", word, 1, List.of(word), word);
    }
    if (word.equals("-fcf-protection")) {
      // common.opt: Alias(fcf-protection=,full), so a bare -fcf-protection on the link line is
      // the link-time -fcf-protection= that merge_and_complain lets win.
      return withArg(GccOption.FCF_PROTECTION, "full", word);
    }
    for (GccOption o : GccOption.values()) {
      if (o.spelling().isEmpty()) {
        continue;
      }
      if (o.argKind() == ArgKind.NONE && o.spelling().equals(word)) {
        return flag(o, word, 1);
      }
      if (o.argKind() == ArgKind.NONE && o.negatable() && o.negativeSpelling().equals(word)) {
        return flag(o, word, 0);
      }
      boolean separateForm =
          o.argKind() == ArgKind.SEPARATE || o.argKind() == ArgKind.JOINED_OR_SEPARATE;
      if (separateForm && o.spelling().equals(word) && next != null) {
        return withArg(o, next, o.spelling() + " " + next);
      }
      if (o.argKind() == ArgKind.LEVEL && isLevel(word, o.spelling())) {
        String arg = word.substring(o.spelling().length());
        return new DecodedOption(o, o.name(), arg, 1, List.of(word), word);
      }
    }
    GccOption joined = longestJoined(word);
    if (joined != null) {
      return withArg(joined, word.substring(joined.spelling().length()), word);
    }
    int value = GenericOptions.negative(word) ? 0 : 1;
    return new DecodedOption(
        GccOption.GENERIC, GenericOptions.key(word), "", value, List.of(word), word);
  }

  private static GccOption longestJoined(String word) {
    GccOption best = null;
    for (GccOption o : GccOption.values()) {
      boolean joinedForm =
          o.argKind() == ArgKind.JOINED || o.argKind() == ArgKind.JOINED_OR_SEPARATE;
      if (joinedForm
          && word.startsWith(o.spelling())
          && word.length() > o.spelling().length()
          && (best == null || o.spelling().length() > best.spelling().length())) {
        best = o;
      }
    }
    return best;
  }

  private static boolean isLevel(String word, String spelling) {
    if (!word.startsWith(spelling)) {
      return false;
    }
    for (int i = spelling.length(); i < word.length(); i++) {
      if (!Character.isDigit(word.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static DecodedOption flag(GccOption o, String word, int value) {
    return new DecodedOption(o, o.name(), "", value, List.of(word), word);
  }

  private static DecodedOption withArg(GccOption o, String arg, String text) {
    List<String> canonical =
        o.argKind() == ArgKind.JOINED
            ? List.of(o.spelling() + arg)
            : List.of(o.spelling(), arg); // GCC canonicalises Joined-or-Separate to two words
    int value = o == GccOption.FCF_PROTECTION ? CfProtection.bits(arg) : 1;
    return new DecodedOption(o, o.name(), arg, value, canonical, text);
  }
}
