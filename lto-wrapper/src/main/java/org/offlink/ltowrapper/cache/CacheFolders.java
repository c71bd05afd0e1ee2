package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cache folder and the folders in it, checked against {@link CacheTrust} before anything in
 * them is read or written, once per link: the cache folder's real path (links in the configured
 * name resolved once, so nothing later follows them again) and every folder above it, then {@code
 * v1/}, then each shard as it is first used. Folders offlink creates get the trust's mode whatever
 * the umask ({@code 0700}; a team cache's {@code 2770} and group), so a user with umask 000 or 002
 * does not open their cache to others. Thread-safe.
 */
final class CacheFolders {
  private static final String LAYOUT = "v1";

  private static final FileAttribute<Set<PosixFilePermission>> OWNER_ONLY =
      PosixFilePermissions.asFileAttribute(
          Set.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE));

  private static final FileAttribute<Set<PosixFilePermission>> OWNER_AND_GROUP =
      PosixFilePermissions.asFileAttribute(
          Set.of(
              PosixFilePermission.OWNER_READ,
              PosixFilePermission.OWNER_WRITE,
              PosixFilePermission.OWNER_EXECUTE,
              PosixFilePermission.GROUP_READ,
              PosixFilePermission.GROUP_WRITE,
              PosixFilePermission.GROUP_EXECUTE));

  private final Path directory;
  private final Optional<String> sharedGroup;
  private final Set<Path> checkedShards = ConcurrentHashMap.newKeySet();
  private volatile CacheTrust trust;
  private volatile Path layout;
  private volatile int team = -1;

  /** The folders of the cache in {@code directory}, private or of {@code sharedGroup}'s team. */
  CacheFolders(Path directory, Optional<String> sharedGroup) {
    if (!directory.isAbsolute()) {
      // resolved against the link's folder by CacheSettings, never against the JVM's
      throw new IllegalArgumentException("not an absolute cache folder: " + directory);
    }
    this.directory = directory;
    this.sharedGroup = sharedGroup;
  }

  /**
   * The trust the folders are checked against, taken when first needed (a cold link's miss needs
   * none: it reads nothing).
   */
  CacheTrust trust() throws IOException {
    CacheTrust t = trust;
    if (t == null) {
      try {
        t = CacheTrust.ofThisProcess(sharedGroup);
      } catch (IOException e) {
        throw new UntrustedCacheException(directory + ": " + e.getMessage());
      }
      trust = t;
    }
    return t;
  }

  /** What the user can do about an untrusted folder, for the warning. */
  String remedy() {
    return CacheTrust.remedy(sharedGroup.isPresent());
  }

  /** The team group's gid once the cache folder is checked (a team cache), else -1. */
  int team() {
    return team;
  }

  /**
   * {@code <cache folder>/v1}, checked (made first with {@code create}); empty when it does not
   * exist and {@code create} is false.
   *
   * @throws UntrustedCacheException when a folder is not trusted
   */
  Optional<Path> layout(boolean create) throws IOException {
    Path known = layout;
    if (known != null) {
      return Optional.of(known);
    }
    synchronized (this) {
      if (layout == null) {
        Optional<Path> root = root(create);
        if (root.isEmpty()) {
          return Optional.empty();
        }
        Path v1 = root.get().resolve(LAYOUT);
        if (!checked(v1, create)) {
          return Optional.empty();
        }
        layout = v1;
      }
      return Optional.of(layout);
    }
  }

  /**
   * Checks {@code shard}, a folder of {@link #layout}, making it first with {@code create}.
   *
   * @return whether it exists (and is trusted)
   * @throws UntrustedCacheException when it is not trusted
   */
  boolean shard(Path shard, boolean create) throws IOException {
    if (checkedShards.contains(shard)) {
      return true;
    }
    if (!checked(shard, create)) {
      return false;
    }
    checkedShards.add(shard);
    return true;
  }

  /** The cache folder's real path, it and the folders above it checked. */
  private Optional<Path> root(boolean create) throws IOException {
    Path abs = directory;
    if (create && !trust().shared()) {
      createMissing(abs);
    }
    Path real;
    try {
      real = abs.toRealPath();
    } catch (NoSuchFileException e) {
      if (trust().shared() && create) {
        throw new UntrustedCacheException(
            abs
                + " does not exist; a team cache's folder is made once by its owner: install -d -m"
                + " 2770 -g GROUP "
                + abs);
      }
      return Optional.empty();
    }
    FileStat st = FileStat.of(real);
    if (trust().shared()) {
      team = teamGid(real, st);
    }
    require(trust().folderProblem(real, st, team));
    for (Path up = real.getParent(); up != null; up = up.getParent()) {
      require(trust().ancestorProblem(up, FileStat.of(up), team));
    }
    return Optional.of(real);
  }

  /** The folders of {@code abs} that do not exist yet, made with the trust's mode. */
  private void createMissing(Path abs) throws IOException {
    if (Files.isDirectory(abs)) {
      return;
    }
    Path parent = abs.getParent();
    if (parent != null) {
      createMissing(parent);
    }
    make(abs);
  }

  /** {@code dir}, checked; made first if missing and {@code create}. False if missing. */
  private boolean checked(Path dir, boolean create) throws IOException {
    FileStat st = FileStat.of(dir);
    if (st == null) {
      if (!create) {
        return false;
      }
      make(dir);
      st = FileStat.of(dir);
    }
    require(trust().folderProblem(dir, st, team));
    return true;
  }

  /**
   * Makes {@code dir} with the trust's mode and group; one made meanwhile by another link is fine.
   */
  private void make(Path dir) throws IOException {
    try {
      // Owner-only (group too for a team) from the start: mkdir's mode only loses bits to the
      // umask, so no other user has a moment in which to create something inside.
      Files.createDirectory(dir, trust().shared() ? OWNER_AND_GROUP : OWNER_ONLY);
    } catch (FileAlreadyExistsException raced) {
      return; // checked by the caller like any existing folder
    }
    if (team >= 0) {
      Files.setAttribute(dir, "unix:gid", team, LinkOption.NOFOLLOW_LINKS);
    }
    Files.setAttribute(dir, "unix:mode", trust().folderMode(), LinkOption.NOFOLLOW_LINKS);
  }

  /** The gid of the team group, which the cache folder must have. */
  private int teamGid(Path real, FileStat st) throws IOException {
    String group = trust().sharedGroup().orElseThrow();
    if (group.matches("[0-9]{1,9}")) {
      return Integer.parseInt(group);
    }
    GroupPrincipal has =
        Files.readAttributes(real, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS).group();
    if (!has.getName().equals(group)) {
      throw new UntrustedCacheException(
          real + " belongs to group " + has.getName() + ", not to the team cache's group " + group);
    }
    return st.gid();
  }

  private void require(String problem) throws UntrustedCacheException {
    if (problem != null) {
      throw new UntrustedCacheException(problem);
    }
  }
}
