package org.offlink.streamer.lto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.offlink.streamer.testing.Toolchain;

class LtoSectionNameTest {
  @TempDir Path dir;

  @Test
  void parsesKindsBodiesAndOpts() {
    assertEquals(
        LtoSectionName.of(LtoPrefix.OFFLOAD, LtoSectionKind.DECLS, 0x594f246060ecf136L),
        parse(".gnu.offload_lto_.decls.594f246060ecf136"));
    assertEquals(LtoSectionName.opts(LtoPrefix.HOST), parse(".gnu.lto_.opts"));
    LtoSectionName body = parse(".gnu.offload_lto_foo._omp_fn.0.1.594f246060ecf136");
    assertEquals(LtoSectionKind.FUNCTION_BODY, body.kind());
    assertEquals("foo._omp_fn.0", body.name());
    assertEquals(OptionalInt.of(1), body.order());
    LtoSectionName var = parse(".gnu.lto_.omp_data_sizes.4.1.3.bfabf53b0e329f5a");
    assertEquals(LtoSectionKind.FUNCTION_BODY, var.kind());
    assertEquals(".omp_data_sizes.4.1", var.name());
    LtoSectionName legacy = parse(".gnu.target_lto_.lto.1a");
    assertEquals(LtoPrefix.LEGACY, legacy.prefix());
    assertEquals(OptionalLong.of(0x1a), legacy.objectId());
    assertEquals(Optional.empty(), LtoSectionName.parse(".text"));
  }

  @Test
  void unknownKindsKeepTheirRawWord() {
    LtoSectionName u = parse(".gnu.lto_.newkind.abc");
    assertEquals(LtoSectionKind.UNKNOWN, u.kind());
    assertEquals(".newkind", u.name());
    assertEquals(".gnu.lto_.newkind.abc", u.format());
  }

  @ParameterizedTest
  @ValueSource(strings = {"-flto", "-fno-lto"})
  void everySectionGcc12WritesParsesToAKnownKindAndFormatsBack(String lto) throws Exception {
    Toolchain.write(dir, "x.c", Toolchain.offloadSource("foo"));
    Toolchain.stdout(dir, "gcc-12", "-fopenmp", "-foffload=amdgcn-amdhsa", lto, "-c", "x.c");
    List<String> names = ltoSectionNames(Toolchain.stdout(dir, "readelf", "-SW", "x.o"));
    assertTrue(names.size() > 10, names.toString());
    for (String name : names) {
      LtoSectionName parsed = parse(name);
      assertNotEquals(LtoSectionKind.UNKNOWN, parsed.kind(), name);
      assertEquals(name, parsed.format());
    }
  }

  static List<String> ltoSectionNames(String readelf) {
    Matcher m = Pattern.compile("\\] (\\.gnu\\.(?:offload_)?lto_\\S*)").matcher(readelf);
    return m.results().map(r -> r.group(1)).toList();
  }

  private static LtoSectionName parse(String s) {
    return LtoSectionName.parse(s).orElseThrow();
  }
}
