package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.DayOfWeek;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class EnumLookupTest {
  private static final DayOfWeek[] DAYS = DayOfWeek.values();

  @Test
  void findsTheConstantWithACode() {
    assertEquals(Optional.of(DayOfWeek.MONDAY), EnumLookup.byCode(DAYS, DayOfWeek::getValue, 1));
    assertEquals(Optional.of(DayOfWeek.SUNDAY), EnumLookup.byCode(DAYS, DayOfWeek::getValue, 7));
    assertEquals(Optional.empty(), EnumLookup.byCode(DAYS, DayOfWeek::getValue, 0));
  }

  @Test
  void theFirstOfSeveralMatchesWins() {
    assertEquals(Optional.of(DayOfWeek.TUESDAY), EnumLookup.byCode(DAYS, d -> d.getValue() % 2, 0));
    assertEquals(
        Optional.of(DayOfWeek.MONDAY),
        EnumLookup.byKey(DAYS, d -> d.getValue() % 2 == 0 ? "even" : "odd", "odd"));
  }

  @Test
  void findsAConstantByAnEqualKeyNullIncluded() {
    assertEquals(Optional.of(DayOfWeek.FRIDAY), EnumLookup.byKey(DAYS, DayOfWeek::name, "FRIDAY"));
    assertEquals(
        Optional.of(DayOfWeek.SUNDAY),
        EnumLookup.byKey(DAYS, d -> d == DayOfWeek.SUNDAY ? null : d.name(), null));
    assertEquals(Optional.empty(), EnumLookup.byKey(DAYS, DayOfWeek::name, "friday"));
  }
}
