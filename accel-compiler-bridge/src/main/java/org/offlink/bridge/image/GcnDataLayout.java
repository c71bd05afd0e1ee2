package org.offlink.bridge.image;

/**
 * The registration data a gcn mkoffload of one GCC release hands to {@code
 * GOMP_offload_register_ver}, and how its C file spells it (delta §3.1, §6.6): GCC 12's {@code
 * gcn_image_desc target_data}; GCC 13's {@code gcn_data} with a leading {@code omp_requires_mask};
 * GCC 14's with {@code ind_func_count} inserted before {@code global_variable_count}; GCC 15's, the
 * same bytes with builtin type names and the HSACO included by {@code #embed}; GCC 16's, 15's with
 * a {@code mkoffload_setup} function that {@code init} calls before registering.
 */
public enum GcnDataLayout {
  /** GCC 12: version 0x10002, no mask, 32 bytes. */
  GCC12(
      0x10002,
      false,
      false,
      false,
      "#include <stdlib.h>\n#include <stdbool.h>\n\n",
      "size_t",
      false),
  /** GCC 13: version 0x20003, mask first, 40 bytes. */
  GCC13(
      0x20003,
      true,
      false,
      false,
      "#include <stdlib.h>\n#include <stdint.h>\n#include <stdbool.h>\n\n",
      "size_t",
      false),
  /** GCC 14: version 0x30003, mask first, {@code ind_func_count} at offset 32, 40 bytes. */
  GCC14(
      0x30003,
      true,
      true,
      false,
      "#include <stdlib.h>\n#include <stdint.h>\n#include <stdbool.h>\n\n",
      "size_t",
      false),
  /**
   * GCC 15: GCC 14's bytes; {@code #embed}, {@code __SIZE_TYPE__}, includes only for a stack size.
   */
  GCC15(0x30003, true, true, true, "", "__SIZE_TYPE__", false),
  /**
   * GCC 16: GCC 15's bytes; every C file has {@code mkoffload_setup} (setting {@code
   * GCN_STACK_SIZE} and {@code HSA_XNACK} where needed) and includes only what that uses.
   */
  GCC16(0x30003, true, true, true, "", "__SIZE_TYPE__", true);

  private final int registerVersion;
  private final boolean requiresMask;
  private final boolean indirectFunctions;
  private final boolean embedsHsaco;
  private final String includes;
  private final String sizeType;
  private final boolean setupFunction;

  /**
   * Whether {@code -mstack-size=N} is read and gives a {@code configure_stack_size} constructor.
   */
  public boolean stackSizeConstructor() {
    return requiresMask;
  }

  GcnDataLayout(
      int registerVersion,
      boolean requiresMask,
      boolean indirectFunctions,
      boolean embedsHsaco,
      String includes,
      String sizeType,
      boolean setupFunction) {
    this.registerVersion = registerVersion;
    this.requiresMask = requiresMask;
    this.indirectFunctions = indirectFunctions;
    this.embedsHsaco = embedsHsaco;
    this.includes = includes;
    this.sizeType = sizeType;
    this.setupFunction = setupFunction;
  }

  /**
   * Whether the C file has {@code mkoffload_setup}, called by {@code init} before registering (16);
   * before 16 a stack size has its own {@code configure_stack_size} constructor.
   */
  public boolean setupFunction() {
    return setupFunction;
  }

  /** {@code GOMP_VERSION_PACK (GOMP_VERSION, GOMP_VERSION_GCN)} of the release. */
  public int registerVersion() {
    return registerVersion;
  }

  /** Whether the data starts with the OpenMP requires mask (13+). */
  public boolean requiresMask() {
    return requiresMask;
  }

  /** Whether the data carries {@code ind_func_count} (14+). */
  public boolean indirectFunctions() {
    return indirectFunctions;
  }

  /** Whether the C file {@code #embed}s the HSACO instead of listing its bytes (15). */
  public boolean embedsHsaco() {
    return embedsHsaco;
  }

  /** The includes every C file starts with (15: none; a stack size adds its own). */
  public String includes() {
    return includes;
  }

  /** The type of {@code gcn_image.size}. */
  public String sizeType() {
    return sizeType;
  }

  /** The type of {@code omp_requires_mask}. */
  public String uintptrType() {
    return embedsHsaco ? "__UINTPTR_TYPE__" : "uintptr_t";
  }

  /** The C name of the data object: {@code target_data} (12) or {@code gcn_data}. */
  public String dataName() {
    return requiresMask ? "gcn_data" : "target_data";
  }

  /** The C struct tag of the data object. */
  public String structTag() {
    return requiresMask ? "gcn_data" : "gcn_image_desc";
  }
}
