package org.offlink.fuzz;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.inspect.BinaryInspector;

/**
 * Issue 18 item 5: a linked program whose PTX table claims a 2 GiB chunk (pointed into a {@code
 * .bss} that claims 4 GiB, so every range check inside the image passes) is rejected naming the
 * file's real size, instead of allocating 2 GiB. Built from the committed seed {@code
 * nvptx_program} (stock GCC 12, saxpy, PIE) by patching three fields whose offsets are fixed in
 * that file: the R_X86_64_RELATIVE addend of {@code ptx_objs[0].code}, {@code ptx_objs[0].size},
 * and {@code .bss}'s {@code sh_size}.
 */
class ImageClaimsTest {
  private static final int CODE_ADDEND = 0x860; // .rela.dyn entry 8 (offset 0x88be0), r_addend
  private static final int CHUNK_SIZE = 0x88be8; // ptx_objs[0].size in .data.rel.ro
  private static final int BSS_SIZE = 0x89f88 + 28 * 64 + 32; // e_shoff + [28] .bss, sh_size
  private static final long BSS = 0x890a0;

  @TempDir Path dir;

  private static byte[] seed() throws IOException {
    try (InputStream in =
        ImageClaimsTest.class.getResourceAsStream(
            "ImageInspectFuzzTestInputs/imageInspect/nvptx_program")) {
      return in.readAllBytes();
    }
  }

  @Test
  void theUnpatchedProgramInspects() throws IOException {
    Path file = dir.resolve("ok");
    Files.write(file, seed());
    assertTrue(BinaryInspector.inspect(file).get(0).images().size() == 1);
  }

  @Test
  void aPtxChunkClaimingTwoGigabytesIsRejected() throws IOException {
    ByteBuffer b = ByteBuffer.wrap(seed()).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(CODE_ADDEND, BSS).putLong(CHUNK_SIZE, 0x7ff0_0000L).putLong(BSS_SIZE, 1L << 32);
    Path file = dir.resolve("bad_ptx_table_claims_2gib");
    Files.write(file, b.array());
    MalformedObjectException e =
        assertThrows(MalformedObjectException.class, () -> BinaryInspector.inspect(file));
    assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    assertTrue(
        e.getMessage().contains("the file's " + Files.size(file) + " bytes"), e.getMessage());
  }
}
