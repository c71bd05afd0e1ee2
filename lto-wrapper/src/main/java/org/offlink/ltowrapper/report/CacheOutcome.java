package org.offlink.ltowrapper.report;

/**
 * What the device-image cache did for one target, as the link report records it (a plain enum: the
 * report's protobuf classes load only when a report is written).
 */
public enum CacheOutcome {
  /** Not found: the image was built. */
  MISS,
  /** Found in the local cache folder. */
  HIT_LOCAL,
  /** Found on the remote cache. */
  HIT_REMOTE
}
