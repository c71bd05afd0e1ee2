package org.offlink.bridge.wrapper;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The hand-assembled x86-64 body of the wrapper's {@code init} and {@code fini}: one call of {@code
 * GOMP_offload_register_ver} or {@code GOMP_offload_unregister_ver (version, __OFFLOAD_TABLE__,
 * device, &target_data)}, position-independent.
 *
 * <p>Byte layout of one function (42 bytes; {@code rel32} fields are zero and carry a RELA addend
 * of -4 plus the target offset):
 *
 * <pre>
 * offset bytes                  instruction                              relocation at
 *   0    f3 0f 1e fa            endbr64 (IBT landing pad: reached via .init_array)
 *   4    48 83 ec 08            sub $8,%rsp            (16-byte aligned stack at the call)
 *   8    48 8d 0d rel32         lea target_data(%rip),%rcx               11: PC32
 *  15    ba imm32               mov $device,%edx
 *  20    48 8d 35 rel32         lea __OFFLOAD_TABLE__(%rip),%rsi         23: PC32 (hidden)
 *  27    bf imm32               mov $version,%edi
 *  32    e8 rel32               call GOMP_offload_(un)register_ver@PLT   33: PLT32
 *  37    48 83 c4 08            add $8,%rsp
 *  41    c3                     ret
 * </pre>
 *
 * Checked against {@code as} + {@code objdump -d} for the same source.
 */
final class RegistrationCode {
  static final int SIZE = 42;
  static final int TARGET_DATA_REL = 11;
  static final int OFFLOAD_TABLE_REL = 23;
  static final int CALL_REL = 33;

  private RegistrationCode() {}

  static byte[] function(int version, int device) {
    ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {(byte) 0xf3, 0x0f, 0x1e, (byte) 0xfa});
    b.put(new byte[] {0x48, (byte) 0x83, (byte) 0xec, 0x08});
    b.put(new byte[] {0x48, (byte) 0x8d, 0x0d}).putInt(0);
    b.put((byte) 0xba).putInt(device);
    b.put(new byte[] {0x48, (byte) 0x8d, 0x35}).putInt(0);
    b.put((byte) 0xbf).putInt(version);
    b.put((byte) 0xe8).putInt(0);
    b.put(new byte[] {0x48, (byte) 0x83, (byte) 0xc4, 0x08});
    b.put((byte) 0xc3);
    return b.array();
  }
}
