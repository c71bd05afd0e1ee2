package org.offlink.bridge.tool;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The one place offlink finds programs. General tools are searched in {@code COMPILER_PATH}, then
 * {@code PATH}, then the directory of {@code COLLECT_GCC}; the accel compiler exactly as GCC 12's
 * mkoffload does (see {@link #findAccelCompiler}). A miss raises {@link ToolNotFoundException}
 * naming every directory searched and the Debian package that provides the tool.
 */
public final class ToolLocator {
  private final Map<String, String> environment;
  private final Path workingDirectory;

  /** A locator over the given (child) environment. */
  public ToolLocator(Map<String, String> environment, Path workingDirectory) {
    this.environment = Map.copyOf(Objects.requireNonNull(environment, "environment"));
    this.workingDirectory = Objects.requireNonNull(workingDirectory, "workingDirectory");
  }

  /** Finds {@code name} in COMPILER_PATH, PATH, then COLLECT_GCC's directory. */
  public ResolvedTool find(String name) throws ToolNotFoundException {
    List<Path> dirs = new ArrayList<>(colonList("COMPILER_PATH"));
    dirs.addAll(colonList("PATH"));
    collectGccDirectory().ifPresent(dirs::add);
    List<Path> unique = List.copyOf(new LinkedHashSet<>(dirs));
    return ExecutableSearch.inDirectories(name, unique)
        .map(p -> new ResolvedTool(p.toString(), p))
        .orElseThrow(() -> new ToolNotFoundException(name, unique, DebianPackages.forTool(name)));
  }

  /** Finds {@code name} on PATH only, if there. */
  public Optional<Path> findOnPath(String name) {
    return ExecutableSearch.inDirectories(name, colonList("PATH"));
  }

  /**
   * Finds the accel driver {@code installName} (GCC_INSTALL_NAME, e.g. {@code
   * x86_64-linux-gnu-accel-nvptx-none-gcc-12}) like GCC 12's mkoffload: if {@code COLLECT_GCC} has
   * no directory part the bare name is used and resolved on PATH; otherwise {@code
   * <dirname(COLLECT_GCC)>/<name>} and then each {@code COMPILER_PATH} entry. Unlike GCC 12 an
   * unset COMPILER_PATH is a plain miss, not a crash. The bare-name case is checked against PATH
   * here so that a miss is reported with the directories instead of {@code execvp} failing.
   */
  public ResolvedTool findAccelCompiler(String installName, String debianPackage)
      throws ToolNotFoundException {
    String collectGcc = environment.get("COLLECT_GCC");
    if (collectGcc == null) {
      throw new ToolNotFoundException(installName, List.of(), debianPackage);
    }
    if (!collectGcc.contains("/")) {
      List<Path> path = colonList("PATH");
      return ExecutableSearch.inDirectories(installName, path)
          .map(p -> new ResolvedTool(installName, p))
          .orElseThrow(() -> new ToolNotFoundException(installName, path, debianPackage));
    }
    List<Path> dirs = new ArrayList<>();
    dirs.add(collectGccDirectory().orElseThrow());
    dirs.addAll(colonList("COMPILER_PATH"));
    for (Path dir : dirs) {
      Path candidate = dir.resolve(installName);
      if (ExecutableSearch.isExecutable(candidate)) {
        return new ResolvedTool(collectGccArgvPrefix(dir, installName), candidate);
      }
    }
    throw new ToolNotFoundException(installName, dirs, debianPackage);
  }

  /** GCC spells the candidate as {@code <dir>/<name>} from the raw strings. */
  private String collectGccArgvPrefix(Path dir, String installName) {
    return dir.resolve(installName).toString();
  }

  private Optional<Path> collectGccDirectory() {
    String collectGcc = environment.get("COLLECT_GCC");
    if (collectGcc == null || !collectGcc.contains("/")) {
      return Optional.empty();
    }
    Path parent = Path.of(collectGcc).getParent();
    return Optional.of(parent == null ? Path.of("/") : workingDirectory.resolve(parent));
  }

  private List<Path> colonList(String variable) {
    String value = environment.get(variable);
    return value == null ? List.of() : ExecutableSearch.directories(value, workingDirectory);
  }
}
