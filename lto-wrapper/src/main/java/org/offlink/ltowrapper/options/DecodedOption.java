package org.offlink.ltowrapper.options;

import java.util.List;

/**
 * One decoded GCC option (GCC's {@code cl_decoded_option}).
 *
 * @param option the table entry, {@link GccOption#GENERIC} for an option outside the table, {@link
 *     GccOption#INPUT} for a non-option word
 * @param key identity used to find "the same option" while merging: the entry name, or for generic
 *     options the spelling without {@code no-} and argument
 * @param arg the argument ({@code ""} when none)
 * @param value 1 for a positive form, 0 for a {@code -fno-} form; the bit set for {@code
 *     -fcf-protection=}
 * @param canonical the words this option is forwarded as
 * @param text the option as written, with a separate argument joined by a space (GCC's {@code
 *     orig_option_with_args_text})
 */
public record DecodedOption(
    GccOption option, String key, String arg, int value, List<String> canonical, String text) {
  /** Copies the canonical words. */
  public DecodedOption {
    canonical = List.copyOf(canonical);
  }

  /** Whether this is the {@code -fno-}/{@code -mno-} form. */
  public boolean negative() {
    return value == 0;
  }

  /** The same option with a new argument, value and canonical spelling. */
  public DecodedOption with(String newArg, int newValue, List<String> newCanonical) {
    return new DecodedOption(option, key, newArg, newValue, newCanonical, text);
  }

  /** Whether the option has the trait (generic options get theirs from {@link #traitsOf}). */
  public boolean has(OptionTrait trait) {
    return traitsOf().contains(trait);
  }

  /** The traits: the table's, or for generic options those guessed from the spelling. */
  public java.util.Set<OptionTrait> traitsOf() {
    return option == GccOption.GENERIC ? GenericOptions.traits(text) : option.traits();
  }
}
