package org.offlink.streamer.inspect;

import java.io.IOException;
import java.util.OptionalInt;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SymbolType;

/**
 * Recovers the {@code version} argument of {@code GOMP_offload_register_ver} from the wrapper's
 * constructor. Both GCC's generated C (compiled by the host gcc) and offlink's ELF wrapper load
 * {@code &target_data} with a RIP-relative {@code lea} and the version with {@code mov
 * $imm32,%edi}:
 *
 * <pre>
 * 48 8d ModRM(mod=00, rm=101) disp32   lea disp32(%rip),%reg   -&gt; target = next insn + disp32
 * bf imm32                             mov $imm32,%edi         -&gt; version
 * </pre>
 *
 * A function called {@code init} (local FUNC) that addresses {@code target_data} and moves a
 * plausible version ({@code (lib << 16) | dev} with lib 1..3, dev 1..3) into {@code %edi} gives the
 * version; anything else (other compilers, other code shapes) gives empty, and callers say "GCC 12
 * layout" instead.
 */
final class RegistrationCallScanner {
  private static final int MAX_FUNCTION = 4096;

  private RegistrationCallScanner() {}

  static OptionalInt version(ImageMemory memory, SymbolIndex symbols, long targetData) {
    for (ElfSymbol init : symbols.named("init")) {
      if (init.type() != SymbolType.FUNC || init.size() <= 0 || init.size() > MAX_FUNCTION) {
        continue;
      }
      try {
        byte[] code = memory.read(init.value(), init.size());
        if (references(code, init.value(), targetData)) {
          OptionalInt v = movEdi(code);
          if (v.isPresent()) {
            return v;
          }
        }
      } catch (IOException e) {
        // not mapped as expected: no version from this function
      }
    }
    return OptionalInt.empty();
  }

  private static boolean references(byte[] code, long base, long target) {
    for (int i = 0; i + 7 <= code.length; i++) {
      if ((code[i] & 0xfb) == 0x48 && code[i + 1] == (byte) 0x8d && (code[i + 2] & 0xc7) == 0x05) {
        long disp = le32(code, i + 3);
        if (base + i + 7 + disp == target) {
          return true;
        }
      }
    }
    return false;
  }

  private static OptionalInt movEdi(byte[] code) {
    for (int i = 0; i + 5 <= code.length; i++) {
      if (code[i] == (byte) 0xbf) {
        int v = (int) le32(code, i + 1);
        int lib = v >>> 16;
        int dev = v & 0xffff;
        if (lib >= 1 && lib <= 3 && dev >= 1 && dev <= 3) {
          return OptionalInt.of(v);
        }
      }
    }
    return OptionalInt.empty();
  }

  private static long le32(byte[] b, int at) {
    return (b[at] & 0xff)
        | (b[at + 1] & 0xff) << 8
        | (b[at + 2] & 0xff) << 16
        | (long) b[at + 3] << 24;
  }
}
