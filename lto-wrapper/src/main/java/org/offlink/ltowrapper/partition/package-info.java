/**
 * lto-wrapper's side of {@code OFFLINK_FLAGS=--device-jobs=N} (docs/parallel-device-compile.md):
 * the link's job slots for the partitions' accel compiles ({@link
 * org.offlink.ltowrapper.partition.DeviceJobSlots}) and the partition cache over the device-image
 * cache ({@link org.offlink.ltowrapper.partition.CachedPartitions}), handed to the in-process
 * mkoffload.
 */
package org.offlink.ltowrapper.partition;
