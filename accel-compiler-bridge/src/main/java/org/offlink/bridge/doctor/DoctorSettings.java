package org.offlink.bridge.doctor;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.runtime.LinkContext;

/**
 * What {@link Doctor} examines: the file-system root under which GCC's fixed Debian paths are
 * looked up ({@code /} for real, a temporary folder for tests), the environment (PATH) and working
 * directory, the process runner, and facts about the running JVM.
 *
 * @param root the file-system root for {@code /usr/lib/...} paths
 * @param context the run: the environment whose PATH is searched, the working and temporary folders
 * @param runner runs {@code gcc -v}, {@code ptxas --version} and the ptxas probe
 * @param jvm the running JVM and its start-up cache
 */
public record DoctorSettings(Path root, LinkContext context, ProcessRunner runner, JvmFacts jvm) {
  /** Copies and checks the fields. */
  public DoctorSettings {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(jvm, "jvm");
  }

  /** The environment whose PATH is searched. */
  public Map<String, String> environment() {
    return context.environment();
  }

  /** The working directory. */
  public Path workingDirectory() {
    return context.workingDirectory();
  }

  /** {@code absolute} (e.g. {@code /usr/lib/...}) under {@link #root}. */
  public Path under(String absolute) {
    return root.resolve(absolute.startsWith("/") ? absolute.substring(1) : absolute);
  }
}
