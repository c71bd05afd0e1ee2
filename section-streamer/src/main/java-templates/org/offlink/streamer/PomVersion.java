package org.offlink.streamer;

/**
 * The root pom's {@code <version>}, written into this source by Maven's resource filtering at build
 * time (section-streamer's pom), so that the version has one home and costs nothing to read.
 */
final class PomVersion {
  static final String VALUE = "${project.version}";

  private PomVersion() {}
}
