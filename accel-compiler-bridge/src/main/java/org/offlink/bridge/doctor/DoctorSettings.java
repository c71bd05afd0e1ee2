package org.offlink.bridge.doctor;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.offlink.bridge.process.ProcessRunner;

/**
 * What {@link Doctor} examines: the file-system root under which GCC's fixed Debian paths are
 * looked up ({@code /} for real, a temporary folder for tests), the environment (PATH) and working
 * directory, the process runner, and facts about the running JVM.
 *
 * @param root the file-system root for {@code /usr/lib/...} paths
 * @param environment the environment whose PATH is searched
 * @param workingDirectory the working directory
 * @param runner runs {@code gcc -v}, {@code ptxas --version} and the ptxas probe
 * @param jvm the running JVM and its start-up cache
 */
public record DoctorSettings(
    Path root,
    Map<String, String> environment,
    Path workingDirectory,
    ProcessRunner runner,
    JvmFacts jvm) {
  /** Copies and checks the fields. */
  public DoctorSettings {
    Objects.requireNonNull(root, "root");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(jvm, "jvm");
  }

  /** {@code absolute} (e.g. {@code /usr/lib/...}) under {@link #root}. */
  public Path under(String absolute) {
    return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
  }
}
