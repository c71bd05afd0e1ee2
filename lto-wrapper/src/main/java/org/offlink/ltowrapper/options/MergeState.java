package org.offlink.ltowrapper.options;

import java.util.List;

/** The working set of one {@code merge_and_complain} call (LW:228). */
final class MergeState {
  /** The options merged so far; rules edit it in place. */
  final List<DecodedOption> merged;

  /** The link-time {@code -fcf-protection=}, if any. */
  final DecodedOption linkCfProtection;

  /** The last {@code -fPIC}/{@code -fpic} family option of the incoming unit. */
  DecodedOption pic;

  /** The last {@code -fPIE}/{@code -fpie} family option of the incoming unit. */
  DecodedOption pie;

  MergeState(List<DecodedOption> merged, DecodedOption linkCfProtection) {
    this.merged = merged;
    this.linkCfProtection = linkCfProtection;
  }

  /** Index of the first option with the same identity as {@code key}, or -1. */
  int find(String key) {
    for (int i = 0; i < merged.size(); i++) {
      if (merged.get(i).key().equals(key)) {
        return i;
      }
    }
    return -1;
  }
}
