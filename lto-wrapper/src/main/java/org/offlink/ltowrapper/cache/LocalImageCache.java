package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkScope;

/**
 * The local device-image cache: one file per entry, {@code <dir>/v1/<first two digits>/<key>.img}
 * ({@link CacheEntryFile}), written under a temporary name and renamed into place, so that any
 * number of links can share the folder: a reader sees a whole entry or none, and two writers of one
 * key write the same bytes. A hit refreshes the entry's modification time; {@link #trim} evicts the
 * least recently used entries beyond the size limit.
 */
public final class LocalImageCache {
  private static final String LAYOUT = "v1";
  private static final String SUFFIX = ".img";

  /** AtomicFiles' temporaries ({@code .<name>.XXXXXX.tmp}) older than this are a crash's. */
  private static final long STALE_TEMP_MS = 3_600_000;

  private final Path root;

  /** The cache in {@code directory} (created when the first entry is stored). */
  public LocalImageCache(Path directory) {
    this.root = directory.resolve(LAYOUT);
  }

  /** Where the entry for {@code key} lives. */
  public Path entryPath(CacheKey key) {
    return root.resolve(key.hex().substring(0, 2)).resolve(key.hex() + SUFFIX);
  }

  /**
   * The entry for {@code key}, or empty when there is none.
   *
   * @throws IOException if it exists and cannot be read
   * @throws IllegalArgumentException if it exists and is damaged (the caller warns and removes it)
   */
  public Optional<byte[]> read(CacheKey key) throws IOException {
    Path file = entryPath(key);
    if (!file.toFile().exists()) {
      // A miss, the common case of a cold link: one stat, not an exception built in a young JVM.
      return Optional.empty();
    }
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return Optional.empty();
    }
    try {
      Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
    } catch (IOException e) {
      // a read-only cache still serves hits; its eviction order just stays as it was
    }
    return Optional.of(bytes);
  }

  /** Makes the folder of {@code key}'s entry, ahead of {@link #write}. */
  public void prepare(CacheKey key) throws IOException {
    Path folder = entryPath(key).getParent();
    if (!Files.isDirectory(folder)) {
      Files.createDirectories(folder);
    }
  }

  /**
   * Stores {@code image} under {@code key}: a temporary file (the link of {@code scope} removes it
   * if cancelled meanwhile), then a rename.
   */
  public void write(LinkScope scope, CacheKey key, CachedImage image) throws IOException {
    Path file = entryPath(key);
    prepare(key);
    AtomicFiles.write(scope, file, out -> CacheEntryFile.writeTo(out, image));
  }

  /** Removes the entry for {@code key} (a damaged one); absent is fine. */
  public void remove(CacheKey key) throws IOException {
    Files.deleteIfExists(entryPath(key));
  }

  /** The entries, oldest use first. */
  public List<Entry> entries() throws IOException {
    List<Entry> entries = new ArrayList<>();
    if (!Files.isDirectory(root)) {
      return entries;
    }
    try (DirectoryStream<Path> shards = Files.newDirectoryStream(root)) {
      for (Path shard : shards) {
        if (Files.isDirectory(shard)) {
          collect(shard, entries);
        }
      }
    }
    entries.sort(LocalImageCache::olderFirst);
    return entries;
  }

  /** Least recently used first, then by name (no lambdas: this runs in a cold JVM). */
  private static int olderFirst(Entry a, Entry b) {
    int byTime = Long.compare(a.lastUsedMillis(), b.lastUsedMillis());
    return byTime != 0 ? byTime : a.file().compareTo(b.file());
  }

  private static void collect(Path shard, List<Entry> entries) throws IOException {
    long now = System.currentTimeMillis();
    try (DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        BasicFileAttributes a;
        try {
          a = Files.readAttributes(f, BasicFileAttributes.class);
        } catch (NoSuchFileException gone) {
          continue; // evicted by another link meanwhile
        }
        if (name.endsWith(SUFFIX)) {
          entries.add(new Entry(f, a.size(), a.lastModifiedTime().toMillis()));
        } else if (name.startsWith(".")
            && name.endsWith(".tmp")
            && now - a.lastModifiedTime().toMillis() > STALE_TEMP_MS) {
          Files.deleteIfExists(f);
        }
      }
    }
  }

  /**
   * Evicts the least recently used entries until the cache holds at most {@code maxBytes}.
   *
   * @return what was removed
   */
  public Summary trim(long maxBytes) throws IOException {
    List<Entry> entries = entries();
    long total = 0;
    for (Entry e : entries) {
      total += e.size();
    }
    int removed = 0;
    long freed = 0;
    for (Entry e : entries) {
      if (total - freed <= maxBytes) {
        break;
      }
      Files.deleteIfExists(e.file());
      removed++;
      freed += e.size();
    }
    return new Summary(removed, freed);
  }

  /** Removes every entry. */
  public Summary clear() throws IOException {
    return trim(0);
  }

  /**
   * One entry file.
   *
   * @param file its path
   * @param size its size in bytes
   * @param lastUsedMillis when it was last written or hit
   */
  public record Entry(Path file, long size, long lastUsedMillis) {}

  /**
   * What a trim or clear removed.
   *
   * @param entries how many entries
   * @param bytes how many bytes
   */
  public record Summary(int entries, long bytes) {}
}
