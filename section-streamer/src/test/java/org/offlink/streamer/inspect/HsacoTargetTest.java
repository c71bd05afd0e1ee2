package org.offlink.streamer.inspect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.offlink.streamer.MalformedObjectException;

/** e_flags of GCN code objects to GPU names and feature settings. */
class HsacoTargetTest {
  @ParameterizedTest
  @CsvSource({
    "0x2a, 2, fiji, UNSUPPORTED, UNSUPPORTED",
    "0x22c, 2, gfx900, OFF, UNSUPPORTED",
    "0x62f, 2, gfx906, OFF, ANY",
    "0xf30, 2, gfx908, ON, ON",
    "0x32f, 1, gfx906, ON, ON",
    "0x477, 2, unknown(0x77), UNSUPPORTED, ANY"
  })
  void decodesFlags(String flags, int abi, String gpu, String xnack, String sramEcc) {
    HsacoTarget t = HsacoTarget.fromFlags(Long.decode(flags), abi);
    assertEquals(gpu, t.processor());
    assertEquals(HsacoTarget.Feature.valueOf(xnack), t.xnack());
    assertEquals(HsacoTarget.Feature.valueOf(sramEcc), t.sramEcc());
  }

  @Test
  void rejectsNonAmdgpuImages() {
    byte[] image = new byte[64];
    image[0] = 0x7f;
    image[1] = 'E';
    image[2] = 'L';
    image[3] = 'F';
    image[4] = 2;
    image[0x12] = 62;
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> HsacoTarget.of(image, Path.of("p")));
    assertEquals("p: expected e_machine 0xe0 (AMDGPU), found 0x3e", e.getMessage());
  }
}
