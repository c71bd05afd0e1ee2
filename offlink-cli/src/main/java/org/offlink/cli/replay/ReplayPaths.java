package org.offlink.cli.replay;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;
import org.offlink.ltowrapper.reproduce.BundlePaths;

/**
 * Where a replayed link's paths go. The recording machine's file system is laid under the scratch
 * root: every file the link reads or writes ({@link #data}) is there, a recorded absolute path at
 * {@code ROOT/path}, a relative one against the moved working directory, and nothing may leave the
 * root after normalisation (an output outside it is refused, so that a replay can neither write nor
 * delete anywhere else). Tools are looked up in this machine's folders ({@link #tool}): the
 * recorded offlink folder becomes this tree's; a folder inside the scratch folder or inside the
 * bundle's own folder is never one, nor a relative one (it would name the scratch folder), nor one
 * that another user could have put there ({@link TrustedFolders}: a recorded {@code /tmp/x/bin} may
 * be someone else's on this machine), so that no file of the bundle or of another user is ever run,
 * nor a {@code specs} file of theirs read by a driver.
 */
final class ReplayPaths {
  private final Path root;
  private final Path cwd;
  private final Path recordedCwd;
  private final String recordedLibexec;
  private final Path libexec;
  private final Path scratch;
  private final Optional<Path> bundleFolder;
  private final String name;

  /**
   * @param scratch the replay's scratch folder (holding {@code root})
   * @param root where the recorded file system is laid
   * @param recordedCwd the recorded working directory (checked absolute and inside)
   * @param recordedLibexec the recorded offlink folder, or empty
   * @param libexec this tree's {@code libexec/offlink}
   * @param bundleFolder the bundle's own folder when it was given as one
   * @param name the manifest, for messages
   */
  ReplayPaths(
      Path scratch,
      Path root,
      String recordedCwd,
      String recordedLibexec,
      Path libexec,
      Optional<Path> bundleFolder,
      String name) {
    this.scratch = absolute(scratch).normalize();
    this.root = absolute(root).normalize();
    this.recordedCwd = Path.of(recordedCwd);
    this.cwd = BundlePaths.under(this.root, recordedCwd);
    this.recordedLibexec = recordedLibexec;
    this.libexec = absolute(libexec).normalize();
    this.bundleFolder = bundleFolder.map(p -> absolute(p).normalize());
    this.name = name;
  }

  /** The working directory of the replayed link. */
  Path cwd() {
    return cwd;
  }

  /** Where the recorded absolute {@code path} of a bundled file goes. */
  Path file(String path) {
    return BundlePaths.under(root, path);
  }

  /**
   * A file the link reads or writes, as the replay must name it: a recorded absolute path moved
   * under the root; a relative one kept when it stays inside the root from the moved working
   * directory ({@code -o p}, dump names), refused otherwise.
   *
   * @param field the manifest entry, for the message
   * @throws IllegalArgumentException one line naming the entry when the path would leave the root
   */
  String data(String field, String path) {
    if (path.isEmpty()) {
      return path;
    }
    boolean dir = path.endsWith("/");
    Optional<Path> at = resolved(path);
    if (at.isEmpty() || !at.get().startsWith(root)) {
      throw outside(field, path);
    }
    if (!path.startsWith("/")) {
      return path;
    }
    String moved = at.get().toString();
    return dir && !moved.endsWith("/") ? moved + "/" : moved;
  }

  /**
   * A folder or program where a tool is looked up: the recorded offlink folder (or a path below it)
   * as this tree's; an absolute path outside the scratch folder and the bundle's folder as it is
   * (this machine's); empty for anything else (relative names, the scratch folder, the bundle).
   */
  Optional<String> tool(String path) {
    if (path.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> ours = ownTree(path);
    if (ours.isPresent()) {
      return ours;
    }
    if (!path.startsWith("/")) {
      return Optional.empty();
    }
    Optional<Path> p = normal(Path.of("/"), path);
    if (p.isEmpty()
        || p.get().startsWith(scratch)
        || inBundleFolder(p.get())
        || !TrustedFolders.ownedByUs(p.get(), scratch)) {
      return Optional.empty();
    }
    return Optional.of(path);
  }

  /** {@code path} (recorded absolute, or relative to the recorded cwd) under the offlink folder. */
  private Optional<String> ownTree(String path) {
    if (recordedLibexec.isEmpty()) {
      return Optional.empty();
    }
    Optional<Path> p = normal(recordedCwd, path);
    Path lib = Path.of(recordedLibexec).normalize();
    if (p.isEmpty() || !p.get().startsWith(lib)) {
      return Optional.empty();
    }
    Path mapped = libexec.resolve(lib.relativize(p.get()).toString());
    String s = mapped.toString();
    return Optional.of(path.endsWith("/") && !s.endsWith("/") ? s + "/" : s);
  }

  private boolean inBundleFolder(Path p) {
    if (bundleFolder.isEmpty()) {
      return false;
    }
    if (p.startsWith(bundleFolder.get())) {
      return true;
    }
    try {
      // The folder may be reached through a link: compare real paths where the path exists.
      return p.toRealPath().startsWith(bundleFolder.get().toRealPath());
    } catch (java.io.IOException | SecurityException e) {
      return false;
    }
  }

  /** Whether {@code p} (absolute) lies inside the scratch folder. */
  boolean inScratch(Path p) {
    return absolute(p).normalize().startsWith(scratch);
  }

  /**
   * {@code p}, which the command resolved against its own working folder: a relative path here
   * would resolve against the JVM's, which is not the command's in a link server.
   */
  private static Path absolute(Path p) {
    if (!p.isAbsolute()) {
      throw new IllegalArgumentException("not an absolute path: " + p);
    }
    return p;
  }

  private Optional<Path> resolved(String path) {
    if (path.startsWith("/")) {
      return BundlePaths.inside(path).map(rel -> root.resolve(rel.toString()).normalize());
    }
    return normal(cwd, path);
  }

  private static Optional<Path> normal(Path base, String path) {
    try {
      return Optional.of(base.resolve(path).normalize());
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  IllegalArgumentException outside(String field, String path) {
    return refuse(field, "a path inside the replay's scratch folder", OneLine.quoted(path));
  }

  IllegalArgumentException refuse(String field, String expected, String found) {
    return new IllegalArgumentException(
        name + ": " + field + ": expected " + expected + ", found " + found);
  }
}
