package org.offlink.streamer.ar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MemberSpecTest {
  @ParameterizedTest
  @CsvSource({
    "libx.a@0x53c, libx.a, 1340",
    "libx.a@1340, libx.a, 1340",
    "libx.a@02474, libx.a, 1340",
    "'libx.a@ 0x53c', libx.a, 1340",
    "a@b.a@0x10, a@b.a, 16",
    "dir@v2/lib.a@0X10, dir@v2/lib.a, 16",
    "plain.o, plain.o, 0",
    "@0x10, @0x10, 0",
    "mail@host.o, mail@host.o, 0",
    "x.a@0x, x.a@0x, 0",
    "x.a@0x10junk, x.a@0x10junk, 0",
    "x.a@08, x.a@08, 0",
    // sscanf's %i: leading blanks and a '+' sign are taken, blanks after the number are not,
    // and only ASCII digits are digits.
    "'libx.a@  16', libx.a, 16",
    "'libx.a@\t16', libx.a, 16",
    "libx.a@+16, libx.a, 16",
    "libx.a@+0x10, libx.a, 16",
    "'libx.a@16 ', 'libx.a@16 ', 0",
    "'libx.a@+ 16', 'libx.a@+ 16', 0",
    "libx.a@\u0661\u0662, libx.a@\u0661\u0662, 0",
    "libx.a@\uff11\uff12, libx.a@\uff11\uff12, 0",
  })
  void parsesLikeLtoWrapper(String spec, String file, long offset) {
    assertEquals(new MemberSpec(file, offset), MemberSpec.parse(spec));
  }

  @ParameterizedTest
  @ValueSource(
      longs = {0x8cL, 0x53cL, 0xffff_ffffL, 0x1_0000_0000L, 0x1_0000_0abcL, 0x7_89ab_cdefL})
  void formatsLikeLtoPluginIncludingTheHighWordForm(long offset) {
    int lo = (int) offset;
    int hi = (int) (offset >>> 32);
    String plugin =
        hi != 0
            ? String.format("%s@0x%x%08x", "libx.a", hi, lo)
            : String.format("%s@0x%x", "libx.a", lo);
    assertEquals(plugin, MemberSpec.format("libx.a", offset));
    assertEquals(new MemberSpec("libx.a", offset), MemberSpec.parse(plugin));
  }

  @ParameterizedTest
  @ValueSource(strings = {"x.o", "dir/with@sign/x.o"})
  void offsetZeroIsTheBarePath(String file) {
    assertEquals(file, MemberSpec.format(file, 0));
    assertEquals(MemberSpec.of(file), MemberSpec.parse(file));
  }

  @ParameterizedTest
  @ValueSource(strings = {"x.a@-16", "x.a@-0x10"})
  void negativeOffsetsAreRejected(String spec) {
    assertThrows(IllegalArgumentException.class, () -> MemberSpec.parse(spec));
  }
}
