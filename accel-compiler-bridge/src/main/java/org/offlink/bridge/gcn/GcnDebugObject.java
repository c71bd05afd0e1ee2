package org.offlink.bridge.gcn;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfClass;
import org.offlink.streamer.elf.ElfData;
import org.offlink.streamer.elf.ElfMachine;
import org.offlink.streamer.elf.ElfType;
import org.offlink.streamer.elf.SectionType;

/**
 * Turns a host (x86-64) early debug object, as {@link
 * org.offlink.streamer.edit.LtoDebugSectionCopier} writes it, into an AMDGCN relocatable the device
 * linker accepts, like GCC 12's {@code copy_early_debug_info} (reference §4.6). Only the header,
 * the relocation types and the binding of global undefined symbols change; every offset stays.
 *
 * <pre>
 * ELF64 field            offset  new value
 * e_ident[EI_OSABI]          7   64 (ELFOSABI_AMDGPU_HSA)
 * e_ident[EI_ABIVERSION]     8   1 for fiji (HSA v3), else 2 (HSA v4)
 * e_type                    16   1 (ET_REL)
 * e_machine                 18   0xe0 (EM_AMDGPU)
 * e_flags                   48   {@link GcnTargetSettings#debugObjectElfFlags()}
 * RELA r_info low byte     +8   x86-64 type mapped to its AMDGPU twin (table below)
 * symbol st_info            +4   GLOBAL undefined becomes WEAK, type kept
 * </pre>
 */
public final class GcnDebugObject {
  private static final int ELFOSABI_AMDGPU_HSA = 64;
  private static final int ELF64_SHDR = ElfClass.ELF64.sectionHeaderSize();

  private GcnDebugObject() {}

  /**
   * Patches {@code object} (little-endian ELF64, x86-64) in place.
   *
   * @param file the object's name, for errors
   * @throws MalformedObjectException when the object is not an x86-64 ELF64 object, or carries a
   *     relocation that has no AMDGPU counterpart (GCC 12 stops with an internal error there)
   */
  public static void patch(byte[] object, GcnTargetSettings settings, Path file)
      throws MalformedObjectException {
    ByteBuffer b = ByteBuffer.wrap(object).order(ByteOrder.LITTLE_ENDIAN);
    if (object.length < ElfClass.ELF64.headerSize()
        || object[4] != ElfClass.ELF64.raw()
        || object[5] != ElfData.LSB.raw()
        || b.getShort(18) != ElfMachine.X86_64) {
      throw new MalformedObjectException(
          file, 0, "expected a little-endian ELF64 x86-64 early debug object, found another kind");
    }
    object[7] = (byte) ELFOSABI_AMDGPU_HSA;
    object[8] = (byte) settings.debugObjectAbiVersion();
    b.putShort(16, (short) ElfType.REL.raw());
    b.putShort(18, (short) ElfMachine.AMDGPU);
    b.putInt(48, settings.debugObjectElfFlags());
    long shoff = b.getLong(40);
    int shnum = Short.toUnsignedInt(b.getShort(60));
    for (int i = 0; i < shnum; i++) {
      long h = shoff + (long) i * ELF64_SHDR;
      check(object, file, h, ELF64_SHDR, "section header " + i);
      SectionType type = SectionType.fromRaw(b.getInt((int) h + 4));
      long offset = b.getLong((int) h + 24);
      long size = b.getLong((int) h + 32);
      long entsize = b.getLong((int) h + 56);
      if ((type == SectionType.RELA || type == SectionType.SYMTAB) && size > 0) {
        check(object, file, offset, size, "section " + i);
        if (entsize < 24) {
          throw new MalformedObjectException(
              file, h + 56, "expected an entry size of 24 in section " + i + ", found " + entsize);
        }
        for (long at = offset; at + entsize <= offset + size; at += entsize) {
          if (type == SectionType.RELA) {
            remapRelocation(b, (int) at, file);
          } else {
            weakenUndefined(b, (int) at);
          }
        }
      }
    }
  }

  private static void remapRelocation(ByteBuffer b, int at, Path file)
      throws MalformedObjectException {
    long info = b.getLong(at + 8);
    int amdgpu = amdgpuType((int) (info & 0xffffffffL));
    if (amdgpu < 0) {
      throw new MalformedObjectException(
          file,
          at + 8,
          "expected an x86-64 relocation that DWARF uses (R_X86_64_32, 32S, PC32, PC64, 64,"
              + " RELATIVE), found type "
              + (info & 0xffffffffL));
    }
    // GCC rebuilds r_info with the ELF32 macros, which keeps everything but the low byte
    b.putLong(at + 8, (info & ~0xffL) | amdgpu);
  }

  /** The AMDGPU relocation for an x86-64 one, or -1. */
  static int amdgpuType(int x86) {
    switch (x86) {
      case 10: // R_X86_64_32
      case 11: // R_X86_64_32S
        return 6; // R_AMDGPU_ABS32
      case 2: // R_X86_64_PC32
        return 4; // R_AMDGPU_REL32
      case 24: // R_X86_64_PC64
        return 5; // R_AMDGPU_REL64
      case 1: // R_X86_64_64
        return 3; // R_AMDGPU_ABS64
      case 8: // R_X86_64_RELATIVE
        return 13; // R_AMDGPU_RELATIVE64
      default:
        return -1;
    }
  }

  private static void weakenUndefined(ByteBuffer b, int at) {
    int info = Byte.toUnsignedInt(b.get(at + 4));
    int shndx = Short.toUnsignedInt(b.getShort(at + 6));
    if (info >> 4 == 1 && shndx == 0) {
      // a global reference would pull host-only objects into the device link
      b.put(at + 4, (byte) ((2 << 4) | (info & 0xf)));
    }
  }

  private static void check(byte[] object, Path file, long offset, long length, String what)
      throws MalformedObjectException {
    if (offset < 0 || length < 0 || offset > object.length || length > object.length - offset) {
      throw new MalformedObjectException(
          file,
          offset,
          String.format(
              "expected %s (%d bytes at %d) inside the %d-byte object, found it past the end",
              what, length, offset, object.length));
    }
  }
}
