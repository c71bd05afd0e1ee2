package org.offlink.it;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A corpus program as described by {@code corpus/<name>/build.properties}:
 *
 * <table>
 *   <caption>build.properties keys</caption>
 *   <tr><th>key</th><th>meaning</th></tr>
 *   <tr><td>language</td><td>{@code c}, {@code c++} or {@code fortran} (picks the driver)</td></tr>
 *   <tr><td>model</td><td>{@code openmp}, {@code openacc} or {@code both}</td></tr>
 *   <tr><td>sources</td><td>sources of the executable, compiled in this order</td></tr>
 *   <tr><td>static.sources</td><td>archived into {@code libcorpus.a} with {@code ar rcs}</td></tr>
 *   <tr><td>shared.sources</td><td>linked into {@code libcorpus.so} ({@code -shared -fPIC})</td></tr>
 *   <tr><td>flags</td><td>extra options for every compile and link</td></tr>
 *   <tr><td>link.flags</td><td>extra options for the offloading links only</td></tr>
 *   <tr><td>expect.images</td><td>{@code module:funcs:vars ...}, registered once per target, in
 *       registration order</td></tr>
 *   <tr><td>expect.link</td><td>{@code failure} when GCC 12 must refuse the link</td></tr>
 *   <tr><td>expect.link.stderr</td><td>text the failing link's diagnostics contain</td></tr>
 * </table>
 *
 * <p>The expected standard output is {@code expected.out} beside it (absent for a failing link).
 */
record CorpusProgram(
    String name,
    Path directory,
    Language language,
    Model model,
    List<String> sources,
    List<String> staticSources,
    List<String> sharedSources,
    List<String> flags,
    List<String> linkFlags,
    List<ExpectedImage> expectedImages,
    Optional<String> expectedLinkError,
    String expectedOutput) {
  /** Copies the lists and checks the program is buildable. */
  CorpusProgram {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(language, "language");
    Objects.requireNonNull(model, "model");
    sources = List.copyOf(sources);
    staticSources = List.copyOf(staticSources);
    sharedSources = List.copyOf(sharedSources);
    flags = List.copyOf(flags);
    linkFlags = List.copyOf(linkFlags);
    expectedImages = List.copyOf(expectedImages);
    Objects.requireNonNull(expectedLinkError, "expectedLinkError");
    Objects.requireNonNull(expectedOutput, "expectedOutput");
    if (sources.isEmpty()) {
      throw new IllegalArgumentException(name + ": no sources");
    }
  }

  /**
   * This program with {@code extraFlags} added to the options of every compile and link, and {@code
   * extraLinkFlags} to those of its links only (after the target options).
   */
  CorpusProgram with(List<String> extraFlags, List<String> extraLinkFlags) {
    return new CorpusProgram(
        name,
        directory,
        language,
        model,
        sources,
        staticSources,
        sharedSources,
        Stream.concat(flags.stream(), extraFlags.stream()).toList(),
        Stream.concat(linkFlags.stream(), extraLinkFlags.stream()).toList(),
        expectedImages,
        expectedLinkError,
        expectedOutput);
  }

  /** Whether GCC 12 is expected to refuse linking this program. */
  boolean linkFails() {
    return expectedLinkError.isPresent();
  }

  @Override
  public String toString() {
    return name;
  }
}
