package org.offlink.ltowrapper.cache;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.AtomicFiles;
import org.offlink.runtime.LinkScope;

/**
 * The local device-image cache: one file per entry, {@code <dir>/v1/<first two digits>/<key>.img}
 * ({@link CacheEntryFile}), written under a temporary name and renamed into place, so that any
 * number of links can share the folder: a reader sees a whole entry or none, and two writers of one
 * key write the same bytes. A hit refreshes the entry's modification time; {@link #trim} evicts the
 * least recently used entries beyond the size limit.
 *
 * <p>Nothing is read from or written to a folder before {@link CacheFolders} has checked that only
 * trusted users can write it ({@link CacheTrust}), and no symbolic link is ever followed below the
 * cache folder: an entry is examined with {@code lstat}, opened with {@code O_NOFOLLOW} after it
 * proved to be a regular file (so a FIFO is never opened, a device never read), and its size is
 * checked before a byte of it is read; an entry is replaced by a rename, which replaces a link
 * rather than writing where it points.
 */
public final class LocalImageCache {
  private static final String LAYOUT = "v1";
  private static final String SUFFIX = ".img";
  private static final String TRIM_MARKER = "last-trim";

  private final Path directory;
  private final CacheFolders folders;

  /** The private cache of this process's user in {@code directory} (made when first stored to). */
  public LocalImageCache(Path directory) {
    this(directory, Optional.empty());
  }

  /**
   * The cache in {@code directory}: private, or with {@code sharedGroup} a team cache the members
   * of that group write ({@link CacheTrust}).
   */
  public LocalImageCache(Path directory, Optional<String> sharedGroup) {
    this.directory = directory;
    this.folders = new CacheFolders(directory, sharedGroup);
  }

  /** Where the entry for {@code key} lives (the configured folder's name, for messages). */
  public Path entryPath(CacheKey key) {
    return directory.resolve(LAYOUT).resolve(shardName(key)).resolve(entryName(key));
  }

  /**
   * The entry for {@code key}, an image of {@code target}, or empty when there is none.
   *
   * @throws UntrustedCacheException if a folder of the cache may be written by others
   * @throws CacheEntryException if something is at the entry's path that is not a usable entry (the
   *     caller removes it and builds the image)
   * @throws IOException if it cannot be read
   */
  Optional<CachedImage> read(CacheKey key, OffloadTarget target)
      throws IOException, CacheEntryException {
    return read(key, EntryCheck.wrapperObject(target));
  }

  /**
   * The entry for {@code key}, whose object {@code check} accepts, or empty when there is none.
   *
   * @throws UntrustedCacheException if a folder of the cache may be written by others
   * @throws CacheEntryException if something is at the entry's path that is not a usable entry (the
   *     caller removes it and builds again)
   * @throws IOException if it cannot be read
   */
  Optional<CachedImage> read(CacheKey key, EntryCheck check)
      throws IOException, CacheEntryException {
    // A miss, the common case of a cold link: one java.io stat, not NIO's attribute code (cold in
    // a young JVM) or an exception. A dangling link or a loop is a miss too: the store replaces it.
    if (!new File(entryPath(key).toString()).exists()) {
      return Optional.empty();
    }
    Optional<Path> file = trustedEntry(key, false);
    if (file.isEmpty()) {
      return Optional.empty();
    }
    FileStat st = FileStat.of(file.get());
    if (st == null) {
      return Optional.empty(); // evicted meanwhile
    }
    String problem = folders.trust().entryProblem(st, folders.team());
    if (problem != null) {
      throw new CacheEntryException(problem);
    }
    if (st.size() > CacheEntryFile.MAX_SIZE) {
      throw new CacheEntryException(
          st.size()
              + " bytes, over the "
              + (CacheEntryFile.MAX_SIZE >> 20)
              + " MiB limit of an entry");
    }
    CachedImage image;
    try (FileChannel in =
        FileChannel.open(file.get(), StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      image = CacheEntryFile.read(in, st.size(), check);
    }
    touch(file.get());
    return Optional.of(image);
  }

  /** Makes (and checks) the folders of {@code key}'s entry, ahead of {@link #write}. */
  void prepare(CacheKey key) throws IOException {
    trustedEntry(key, true);
  }

  /**
   * Stores {@code image} under {@code key}: a temporary file (the link of {@code scope} removes it
   * if cancelled meanwhile), then a rename over whatever is at the entry's path (a folder there is
   * removed first). An image over {@link CacheEntryFile#MAX_SIZE} is not stored.
   *
   * @return whether it was stored
   */
  boolean write(LinkScope scope, CacheKey key, CachedImage image) throws IOException {
    if (CacheEntryFile.size(image) > CacheEntryFile.MAX_SIZE) {
      return false;
    }
    Path file =
        trustedEntry(key, true)
            .orElseThrow(() -> new NoSuchFileException(directory.toString(), null, "not made"));
    FileStat st = FileStat.of(file);
    if (st != null && st.isDirectory()) {
      CacheFiles.remove(file.getParent(), file.getFileName());
    }
    AtomicFiles.replaceNoFollow(
        scope, file, folders.trust().entryMode(), out -> CacheEntryFile.writeTo(out, image));
    return true;
  }

  /** Removes whatever is at {@code key}'s entry path (never following a link); absent is fine. */
  void remove(CacheKey key) throws IOException {
    Optional<Path> file = trustedEntry(key, false);
    if (file.isPresent()) {
      CacheFiles.remove(file.get().getParent(), file.get().getFileName());
    }
  }

  /**
   * Whether the folder's periodic trim is due: at most once per {@code intervalMillis}, by the time
   * of a marker file in the (checked) cache folder. A folder without the marker is new (the usual
   * case: it holds what this link adds) or was cleared; its clock starts now.
   */
  boolean trimDue(long intervalMillis) throws IOException {
    Optional<Path> v1 = folders.layout(false);
    if (v1.isEmpty()) {
      return false;
    }
    Path marker = v1.get().resolveSibling(TRIM_MARKER);
    FileStat st = FileStat.of(marker);
    if (st == null || !st.isRegularFile()) {
      if (st != null) {
        CacheFiles.remove(marker.getParent(), marker.getFileName()); // not ours to follow
      }
      Files.createFile(marker); // O_EXCL: never through a link
      return false;
    }
    long now = System.currentTimeMillis();
    if (now - st.modifiedMillis() < intervalMillis) {
      return false;
    }
    touch(marker);
    return true;
  }

  /** The entries, oldest use first, and what is broken (see {@link CacheFiles#scan}). */
  public CacheFiles.Listing list() throws IOException {
    return CacheFiles.scan(directory, LAYOUT, SUFFIX);
  }

  /** The entries, oldest use first. */
  public List<CacheFiles.Entry> entries() throws IOException {
    return list().entries();
  }

  /**
   * Removes what is broken (not a regular file, empty) and evicts the least recently used entries
   * until the cache holds at most {@code maxBytes}. Goes on past a file it cannot remove.
   *
   * @return what was removed
   */
  public CacheFiles.Summary trim(long maxBytes) throws IOException {
    return CacheFiles.trim(directory, list(), maxBytes);
  }

  /** Removes every entry, broken ones included. */
  public CacheFiles.Summary clear() throws IOException {
    return CacheFiles.trim(directory, list(), -1);
  }

  /**
   * Checks the cache folder (this user's, or the team's) without creating anything.
   *
   * @return empty when it is trusted or does not exist yet, else what is wrong
   */
  public Optional<String> trustProblem() {
    try {
      folders.layout(false);
      return Optional.empty();
    } catch (UntrustedCacheException e) {
      return Optional.of(e.getMessage());
    } catch (IOException e) {
      return Optional.of(directory + ": " + e.getMessage());
    }
  }

  /** What to do about {@link #trustProblem}. */
  public String remedy() {
    return folders.remedy();
  }

  /** {@code key}'s entry path below the checked folders; empty when a folder is missing. */
  private Optional<Path> trustedEntry(CacheKey key, boolean create) throws IOException {
    Optional<Path> v1 = folders.layout(create);
    if (v1.isEmpty()) {
      return Optional.empty();
    }
    Path shard = v1.get().resolve(shardName(key));
    if (!folders.shard(shard, create)) {
      return Optional.empty();
    }
    return Optional.of(shard.resolve(entryName(key)));
  }

  /** Sets the modification time to now, on the file itself, never through a link. */
  private static void touch(Path file) {
    try {
      Files.getFileAttributeView(file, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
          .setTimes(FileTime.fromMillis(System.currentTimeMillis()), null, null);
    } catch (IOException e) {
      // a read-only cache still serves hits; its eviction order just stays as it was
    }
  }

  private static String shardName(CacheKey key) {
    return key.hex().substring(0, 2);
  }

  private static String entryName(CacheKey key) {
    return key.hex() + SUFFIX;
  }
}
