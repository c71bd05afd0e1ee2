package org.offlink.runtime;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * Finds an enum constant by a value it stores: its code in a file or on the wire, or its name in a
 * section or target list. The constants keep their values explicitly (never derived from {@code
 * ordinal()}); this is only the search, so each enum's look-up is one line.
 */
public final class EnumLookup {
  private EnumLookup() {}

  /** The first of {@code constants} whose {@code code} is {@code wanted}, if any. */
  public static <E> Optional<E> byCode(E[] constants, ToIntFunction<? super E> code, int wanted) {
    for (E c : constants) {
      if (code.applyAsInt(c) == wanted) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** The first of {@code constants} whose {@code key} equals {@code wanted}, if any. */
  public static <E, K> Optional<E> byKey(
      E[] constants, Function<? super E, ? extends K> key, K wanted) {
    for (E c : constants) {
      if (Objects.equals(key.apply(c), wanted)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}
