package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists, trims and clears the files of a cache's {@code v1/} folder without ever following a
 * symbolic link, and without a race that could make it: the folders are opened relative to each
 * other ({@link SecureDirectoryStream}: {@code openat} with {@code O_NOFOLLOW}), names are examined
 * with {@code fstatat(AT_SYMLINK_NOFOLLOW)} and removed with {@code unlinkat}. A link (to a folder
 * outside, to {@code /dev/zero}, in a loop) is removed as a link, a folder named like an entry is
 * removed with what is in it, and a FIFO is never opened. So {@code offlink cache clear} removes
 * nothing outside the cache, even when someone else can write in it, and a broken name neither
 * stops a listing nor the links' own eviction: a file that cannot be removed is counted and
 * skipped.
 */
public final class CacheFiles {
  /** AtomicFiles' temporaries ({@code .<name>.XXXXXX.tmp}) older than this are a crash's. */
  private static final long STALE_TEMP_MS = 3_600_000;

  /** How deep a folder named like an entry is removed (deeper is left, and counted). */
  private static final int MAX_DEPTH = 64;

  private static final LinkOption NOFOLLOW = LinkOption.NOFOLLOW_LINKS;

  private CacheFiles() {}

  /**
   * One entry file.
   *
   * @param file its path
   * @param size its size in bytes
   * @param lastUsedMillis when it was last written or hit
   */
  public record Entry(Path file, long size, long lastUsedMillis) {}

  /**
   * What a cache folder holds.
   *
   * @param entries the entry files (non-empty regular files named {@code *.img}), oldest use first
   * @param broken what is at an entry's or a shard's name and cannot be an entry: a link, a folder,
   *     a FIFO or device, an empty file
   */
  public record Listing(List<Entry> entries, List<Path> broken) {
    /** Copies the lists. */
    public Listing {
      entries = List.copyOf(entries);
      broken = List.copyOf(broken);
    }

    /** The entries' bytes. */
    public long bytes() {
      long total = 0;
      for (Entry e : entries) {
        total += e.size();
      }
      return total;
    }
  }

  /**
   * What a trim or clear did.
   *
   * @param entries how many entries it removed
   * @param bytes how many bytes they held
   * @param broken how many broken files it removed
   * @param failures what could not be removed, one line each
   */
  public record Summary(int entries, long bytes, int broken, List<String> failures) {
    /** Copies the list. */
    public Summary {
      failures = List.copyOf(failures);
    }
  }

  /** The entries and broken names in {@code <directory>/<layout>}. */
  static Listing scan(Path directory, String layout, String suffix) throws IOException {
    List<Entry> entries = new ArrayList<>();
    List<Path> broken = new ArrayList<>();
    long now = System.currentTimeMillis();
    try (SecureDirectoryStream<Path> top = open(directory)) {
      if (top == null) {
        return new Listing(entries, broken);
      }
      Path v1 = Path.of(layout);
      BasicFileAttributes a = attributes(top, v1);
      if (a == null) {
        return new Listing(entries, broken);
      }
      if (!a.isDirectory()) {
        broken.add(directory.resolve(v1));
        return new Listing(entries, broken);
      }
      try (SecureDirectoryStream<Path> shards = top.newDirectoryStream(v1, NOFOLLOW)) {
        for (Path shard : names(shards)) {
          BasicFileAttributes s = attributes(shards, shard);
          Path where = directory.resolve(v1).resolve(shard);
          if (s == null) {
            continue; // removed meanwhile
          }
          if (!s.isDirectory()) {
            broken.add(where);
            continue;
          }
          try (SecureDirectoryStream<Path> files = shards.newDirectoryStream(shard, NOFOLLOW)) {
            for (Path f : names(files)) {
              collect(files, f, where, suffix, now, entries, broken);
            }
          } catch (IOException unreadable) {
            broken.add(where); // replaced meanwhile, or not ours to read: a trim says which
          }
        }
      }
    }
    entries.sort(CacheFiles::olderFirst);
    return new Listing(entries, broken);
  }

  private static void collect(
      SecureDirectoryStream<Path> shard,
      Path name,
      Path where,
      String suffix,
      long now,
      List<Entry> entries,
      List<Path> broken)
      throws IOException {
    String n = name.toString();
    BasicFileAttributes a = attributes(shard, name);
    if (a == null) {
      return; // evicted by another link meanwhile
    }
    if (n.endsWith(suffix)) {
      if (a.isRegularFile() && a.size() > 0) {
        entries.add(new Entry(where.resolve(name), a.size(), a.lastModifiedTime().toMillis()));
      } else {
        broken.add(where.resolve(name));
      }
    } else if (n.startsWith(".")
        && n.endsWith(".tmp")
        && !a.isDirectory()
        && now - a.lastModifiedTime().toMillis() > STALE_TEMP_MS) {
      shard.deleteFile(name);
    }
  }

  /** Least recently used first, then by name (no lambdas: this runs in a cold JVM). */
  private static int olderFirst(Entry a, Entry b) {
    int byTime = Long.compare(a.lastUsedMillis(), b.lastUsedMillis());
    return byTime != 0 ? byTime : a.file().compareTo(b.file());
  }

  /**
   * Removes {@code listing}'s broken files, then its least recently used entries until at most
   * {@code maxBytes} remain (all of them when negative). Every path is below {@code directory}.
   */
  static Summary trim(Path directory, Listing listing, long maxBytes) {
    List<String> failures = new ArrayList<>();
    int broken = 0;
    for (Path p : listing.broken()) {
      if (tryRemove(directory, p, failures)) {
        broken++;
      }
    }
    long total = listing.bytes();
    int removed = 0;
    long freed = 0;
    for (Entry e : listing.entries()) {
      if (maxBytes >= 0 && total - freed <= maxBytes) {
        break;
      }
      if (tryRemove(directory, e.file(), failures)) {
        removed++;
        freed += e.size();
      } else {
        total -= e.size(); // it stays; the next ones may still bring the rest under the limit
      }
    }
    return new Summary(removed, freed, broken, failures);
  }

  private static boolean tryRemove(Path directory, Path p, List<String> failures) {
    try {
      remove(directory, directory.relativize(p));
      return true;
    } catch (IOException e) {
      failures.add(
          p + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
      return false;
    }
  }

  /**
   * Removes whatever is at {@code relative} below {@code directory}: a file, link, FIFO or device
   * itself, a folder with all in it; no folder on the way is entered through a link, and absent is
   * fine.
   */
  static void remove(Path directory, Path relative) throws IOException {
    try (SecureDirectoryStream<Path> top = open(directory)) {
      if (top != null) {
        removeBelow(top, relative, 0);
      }
    }
  }

  private static void removeBelow(SecureDirectoryStream<Path> dir, Path relative, int depth)
      throws IOException {
    Path first = relative.getName(0);
    if (relative.getNameCount() > 1) {
      try (SecureDirectoryStream<Path> next = dir.newDirectoryStream(first, NOFOLLOW)) {
        removeBelow(next, first.relativize(relative), depth);
      } catch (NoSuchFileException gone) {
        // nothing there
      }
      return;
    }
    BasicFileAttributes a = attributes(dir, first);
    if (a == null) {
      return;
    }
    if (!a.isDirectory()) {
      deleteFile(dir, first);
      return;
    }
    if (depth >= MAX_DEPTH) {
      throw new FileSystemException(first.toString(), null, "folders nested too deep to remove");
    }
    try (SecureDirectoryStream<Path> inside = dir.newDirectoryStream(first, NOFOLLOW)) {
      for (Path child : names(inside)) {
        removeBelow(inside, child, depth + 1);
      }
    }
    try {
      dir.deleteDirectory(first);
    } catch (NoSuchFileException gone) {
      // removed meanwhile
    }
  }

  private static void deleteFile(SecureDirectoryStream<Path> dir, Path name) throws IOException {
    try {
      dir.deleteFile(name);
    } catch (NoSuchFileException gone) {
      // removed meanwhile
    }
  }

  /** {@code directory} opened for relative access; null when it does not exist. */
  private static SecureDirectoryStream<Path> open(Path directory) throws IOException {
    DirectoryStream<Path> s;
    try {
      s = Files.newDirectoryStream(directory);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (s instanceof SecureDirectoryStream<Path> secure) {
      return secure;
    }
    s.close();
    throw new IOException(directory + ": this system cannot open folders without following links");
  }

  /** {@code name}'s attributes in {@code dir}, its own and not a link's target; null if absent. */
  private static BasicFileAttributes attributes(SecureDirectoryStream<Path> dir, Path name)
      throws IOException {
    try {
      return dir.getFileAttributeView(name, BasicFileAttributeView.class, NOFOLLOW)
          .readAttributes();
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** The names in {@code dir}, read at once (removing while iterating is unspecified). */
  private static List<Path> names(SecureDirectoryStream<Path> dir) {
    List<Path> out = new ArrayList<>();
    for (Path p : dir) {
      out.add(p.getFileName());
    }
    return out;
  }
}
