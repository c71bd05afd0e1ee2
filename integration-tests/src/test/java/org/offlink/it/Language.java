package org.offlink.it;

import java.util.Arrays;

/** Source language of a corpus program; picks the GCC 12 driver that compiles and links it. */
enum Language {
  C("c", "gcc-12"),
  CXX("c++", "g++-12"),
  FORTRAN("fortran", "gfortran-12");

  private final String descriptorName;
  private final String driver;

  Language(String descriptorName, String driver) {
    this.descriptorName = descriptorName;
    this.driver = driver;
  }

  /** The driver program, looked up on the harness PATH. */
  String driver() {
    return driver;
  }

  /**
   * The language named {@code name} in a {@code build.properties} ({@code c}, {@code c++}, ...).
   */
  static Language fromDescriptor(String name) {
    return Arrays.stream(values())
        .filter(l -> l.descriptorName.equals(name))
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("unknown language '" + name + "'"));
  }
}
