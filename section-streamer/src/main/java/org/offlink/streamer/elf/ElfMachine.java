package org.offlink.streamer.elf;

import java.util.Map;

/**
 * Named {@code e_machine} values. The header keeps the raw {@code int} because the ELF registry is
 * open-ended; these constants name the ones the offload pipeline meets.
 */
public final class ElfMachine {
  /** No machine. */
  public static final int NONE = 0;

  /** Intel 80386. */
  public static final int I386 = 3;

  /** PowerPC 64-bit. */
  public static final int PPC64 = 21;

  /** ARM 32-bit. */
  public static final int ARM = 40;

  /** AMD x86-64, the GCC offload host. */
  public static final int X86_64 = 62;

  /** ARM 64-bit. */
  public static final int AARCH64 = 183;

  /** NVIDIA CUDA (nvptx objects carry PTX text instead, but CUDA ELF uses this). */
  public static final int CUDA = 190;

  /** AMD GPU, the machine of GCN code objects (HSACO). */
  public static final int AMDGPU = 224;

  /** RISC-V. */
  public static final int RISCV = 243;

  private static final Map<Integer, String> NAMES =
      Map.of(
          NONE, "NONE",
          I386, "I386",
          PPC64, "PPC64",
          ARM, "ARM",
          X86_64, "X86_64",
          AARCH64, "AARCH64",
          CUDA, "CUDA",
          AMDGPU, "AMDGPU",
          RISCV, "RISCV");

  private ElfMachine() {}

  /** A display name for {@code machine}: the constant name, or {@code UNKNOWN(<raw>)}. */
  public static String name(int machine) {
    return NAMES.getOrDefault(machine, "UNKNOWN(" + machine + ")");
  }
}
