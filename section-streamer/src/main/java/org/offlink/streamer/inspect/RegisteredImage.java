package org.offlink.streamer.inspect;

import java.util.OptionalInt;

/**
 * A device image a linked program registers with libgomp through {@code GOMP_offload_register_ver}:
 * the decoded {@code target_data} of one mkoffload wrapper object.
 */
public sealed interface RegisteredImage permits NvptxTargetData, GcnTargetData {
  /** The offload target name, as in {@code -foffload=}. */
  String target();

  /** libgomp's device type ({@code GOMP_DEVICE_NVIDIA_PTX} 5, {@code GOMP_DEVICE_GCN} 8). */
  int deviceType();

  /** Virtual address of {@code target_data}. */
  long address();

  /** The version argument found in the registering constructor's code, if it could be read. */
  OptionalInt version();

  /** The layout the data was read with and what GCC 13+ add (requires mask, indirect functions). */
  LayoutFields fields();
}
