package org.offlink.streamer.inspect;

import java.util.Objects;

/**
 * One host offload entry of an LLVM/clang object or binary.
 *
 * <pre>
 * legacy layout (32 bytes; omp_/cuda_/hip_offloading_entries)
 *  0 ptr address   8 ptr name   16 u64 size   24 i32 flags   28 i32 reserved
 * current layout (56 bytes; llvm_offload_entries)
 *  0 u64 reserved (0)  8 u16 version  10 u16 kind  12 u32 flags  16 ptr address  24 ptr name
 * 32 u64 size  40 u64 data  48 ptr aux
 * </pre>
 *
 * @param section the section holding the entry
 * @param name the entry's symbol name (empty when it cannot be resolved)
 * @param size the {@code size} field (0 for functions)
 * @param flags the {@code flags} field
 * @param kind the {@code kind} field (current layout), -1 for the legacy layout
 */
public record LlvmOffloadEntry(String section, String name, long size, long flags, int kind) {
  /** Checks the fields. */
  public LlvmOffloadEntry {
    Objects.requireNonNull(section, "section");
    Objects.requireNonNull(name, "name");
  }
}
