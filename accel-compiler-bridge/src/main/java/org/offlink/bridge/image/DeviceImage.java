package org.offlink.bridge.image;

/**
 * A device image as mkoffload built it, before it is wrapped in a host object: what a caller of the
 * mkoffload library gets back with the result (the link report describes it, the consistency check
 * compares its counts with the host tables).
 */
public sealed interface DeviceImage permits NvptxImage, GcnImage {
  /** How many host-table entries the image maps. */
  ImageCounts counts();
}
