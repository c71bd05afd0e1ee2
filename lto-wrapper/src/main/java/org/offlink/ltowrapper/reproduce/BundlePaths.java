package org.offlink.ltowrapper.reproduce;

import java.nio.file.Path;

/** The names inside a reproducer bundle, relative to its top folder. */
final class BundlePaths {
  static final String MANIFEST = "manifest.json";
  static final String REPORT = "report.json";
  static final String REPLAY = "replay";
  static final String FILES = "files/";

  private BundlePaths() {}

  /** The entry of the absolute {@code file}: {@code files/} and its path without the '/'. */
  static String entryOf(Path file) {
    return FILES + file.toString().substring(1);
  }
}
