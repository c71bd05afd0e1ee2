package org.offlink.streamer.write;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Contents of ELF note sections the writer's users need.
 *
 * <p>Byte layout of the {@code .note.gnu.property} note for x86-64 (32 bytes, 8-aligned, what
 * {@code gcc -fcf-protection -c} emits):
 *
 * <pre>
 * offset size field
 *   0     4   n_namesz   4 ("GNU\0")
 *   4     4   n_descsz   16
 *   8     4   n_type     5 (NT_GNU_PROPERTY_TYPE_0)
 *  12     4   name       "GNU\0"
 *  16     4   pr_type    0xc0000002 (GNU_PROPERTY_X86_FEATURE_1_AND)
 *  20     4   pr_datasz  4
 *  24     4   pr_data    feature bits (1 = IBT, 2 = SHSTK)
 *  28     4   padding to 8 bytes
 * </pre>
 */
public final class ElfNotes {
  /** {@code GNU_PROPERTY_X86_FEATURE_1_IBT}. */
  public static final int X86_FEATURE_1_IBT = 1;

  /** {@code GNU_PROPERTY_X86_FEATURE_1_SHSTK}. */
  public static final int X86_FEATURE_1_SHSTK = 2;

  /** Section name of the GNU property note. */
  public static final String GNU_PROPERTY_SECTION = ".note.gnu.property";

  private ElfNotes() {}

  /** The {@code .note.gnu.property} contents declaring the x86 feature bits {@code features}. */
  public static byte[] gnuPropertyX86Feature1(int features) {
    ByteBuffer b = ByteBuffer.allocate(32).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(4).putInt(16).putInt(5).put(new byte[] {'G', 'N', 'U', 0});
    b.putInt(0xc000_0002).putInt(4).putInt(features).putInt(0);
    return b.array();
  }
}
