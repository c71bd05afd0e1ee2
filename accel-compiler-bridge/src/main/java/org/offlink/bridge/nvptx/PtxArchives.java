package org.offlink.bridge.nvptx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The PTX library archives a link server has read, so that its nvptx links need not read and scan
 * libc.a, libm.a and libgomp.a (4-5 MB) every time ({@link NvptxLinkerStandIn}). An archive is read
 * on a thread of the server's a second after a link first names it (that link runs nvptx-tools'
 * linker, and on a small machine reading at once would slow it), and used while its file is the
 * same: same real path, file key (device and inode), size, modification and status-change times. At
 * most {@link #MAX_BYTES} of archives are kept, the least recently used dropped first.
 *
 * <p>Only a link server keeps one ({@link #resident()}); a link in a JVM of its own would read the
 * archives once, slower than the program it replaces, so it has {@link #NONE} and runs that
 * program.
 */
public final class PtxArchives {
  /** No archives, ever: every nvptx link runs nvptx-tools' linker. */
  public static final PtxArchives NONE = new PtxArchives(false);

  /** How long after a link names an archive it is read: after that link, usually. */
  static final long READ_DELAY_MS = 1000;

  /** How much archive text a server keeps. */
  static final long MAX_BYTES = 128L << 20;

  private final boolean enabled;
  private final Map<Key, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
  private final Set<Key> reading = ConcurrentHashMap.newKeySet();
  private final Map<Path, Linker> linkers = new ConcurrentHashMap<>();
  private ScheduledExecutorService reader;
  private boolean prefetching;
  private long bytes;

  private record Entry(Object identity, PtxArchive archive) {}

  /** An archive as one linker version reads it. */
  private record Key(Path real, NvptxLdVersion version) {}

  /** What a linker binary was found to be, while its file is the same. */
  private record Linker(Object identity, Optional<NvptxLdVersion> version) {}

  private PtxArchives(boolean enabled) {
    this.enabled = enabled;
  }

  /** A link server's archives, kept for its lifetime. */
  public static PtxArchives resident() {
    return new PtxArchives(true);
  }

  /** Whether links may use archives from here (false for {@link #NONE}). */
  public boolean enabled() {
    return enabled;
  }

  /** Whether no archive has been read, nor is being read, nor is to be. */
  public boolean isEmpty() {
    synchronized (this) {
      if (!entries.isEmpty() || prefetching) {
        return false;
      }
    }
    return reading.isEmpty();
  }

  /**
   * On the reader thread, {@link #READ_DELAY_MS} from now: identifies the linker {@code ld} ({@link
   * #linker}) and, if it is known, reads those of {@code files} that exist by its rules. A server's
   * first nvptx link calls this, so that neither hashing the linker nor looking at the libraries is
   * on its path.
   */
  void prefetch(Path ld, LinkerCheck identify, List<Path> files) {
    synchronized (this) {
      if (!enabled || prefetching) {
        return;
      }
      prefetching = true;
    }
    reader()
        .schedule(
            () -> {
              try {
                Optional<NvptxLdVersion> version =
                    Files.isRegularFile(ld) ? linker(ld, identify) : Optional.empty();
                if (version.isPresent()) {
                  for (Path f : files) {
                    if (Files.isRegularFile(f)) {
                      find(f, version.get(), true); // this is the reader thread
                    }
                  }
                }
              } catch (IOException | RuntimeException e) {
                // Not identified: links run nvptx-tools' linker as GCC does.
              }
            },
            READ_DELAY_MS,
            TimeUnit.MILLISECONDS);
  }

  /**
   * Which known linker {@code ld} is ({@link NvptxLinkerStandIn#KNOWN_LINKERS}), from {@code
   * identify} the first time and again only once the file has changed: Debian 13's is 1 MB, ~10 ms
   * to hash on every link.
   */
  Optional<NvptxLdVersion> linker(Path ld, LinkerCheck identify) throws IOException {
    Path real = ld.toRealPath();
    Object identity = identity(real);
    Linker known = linkers.get(real);
    if (known != null && known.identity().equals(identity)) {
      return known.version();
    }
    Optional<NvptxLdVersion> version = identify.version(real);
    if (identity(real).equals(identity)) {
      linkers.put(real, new Linker(identity, version));
    }
    return version;
  }

  /** Tells which linker a binary is. */
  @FunctionalInterface
  interface LinkerCheck {
    /** The version of the linker binary {@code real}, if known. */
    Optional<NvptxLdVersion> version(Path real) throws IOException;
  }

  /**
   * The archive {@code file} as the linker {@code version} reads it, when it has been read and the
   * file is unchanged; otherwise empty, and the file is read on a thread of its own for the links
   * after this one.
   */
  Optional<PtxArchive> get(Path file, NvptxLdVersion version) {
    return find(file, version, false);
  }

  /** {@link #get}; {@code here}: an archive not read yet is read on this thread, at once. */
  private Optional<PtxArchive> find(Path file, NvptxLdVersion version, boolean here) {
    if (!enabled) {
      return Optional.empty();
    }
    Path real;
    Object identity;
    try {
      real = file.toRealPath();
      identity = identity(real);
    } catch (IOException e) {
      return Optional.empty();
    }
    Key key = new Key(real, version);
    synchronized (this) {
      Entry e = entries.get(key);
      if (e != null && e.identity().equals(identity)) {
        return Optional.of(e.archive());
      }
    }
    if (reading.add(key)) {
      if (here) {
        read(key, identity);
      } else {
        reader().schedule(() -> read(key, identity), READ_DELAY_MS, TimeUnit.MILLISECONDS);
      }
    }
    return Optional.empty();
  }

  /** One daemon thread reads, one archive after another, so that reading takes one core at most. */
  private synchronized ScheduledExecutorService reader() {
    if (reader == null) {
      ScheduledThreadPoolExecutor e =
          new ScheduledThreadPoolExecutor(
              1,
              r -> {
                Thread t = new Thread(r, "offlink-ptx-archives");
                t.setDaemon(true);
                return t;
              });
      e.setKeepAliveTime(30, TimeUnit.SECONDS);
      e.allowCoreThreadTimeOut(true);
      reader = e;
    }
    return reader;
  }

  /** Reads the archive of {@code key} into the cache, unless it changed while read. */
  private void read(Key key, Object identity) {
    try {
      byte[] content = Files.readAllBytes(key.real());
      PtxArchive archive = PtxArchive.parse(key.real(), content, key.version());
      // Kept only if the file did not change while it was read.
      if (identity(key.real()).equals(identity)) {
        put(key, new Entry(identity, archive));
      }
    } catch (IOException | NvptxLinker.Unsupported | RuntimeException e) {
      // Not kept: links keep running nvptx-tools' linker on it, which says what is wrong.
    } finally {
      reading.remove(key);
    }
  }

  private synchronized void put(Key key, Entry entry) {
    Entry old = entries.put(key, entry);
    if (old != null) {
      bytes -= old.archive().bytes().length;
    }
    bytes += entry.archive().bytes().length;
    var it = entries.entrySet().iterator();
    while (bytes > MAX_BYTES && it.hasNext()) {
      Entry e = it.next().getValue();
      if (e == entry) {
        continue;
      }
      bytes -= e.archive().bytes().length;
      it.remove();
    }
  }

  static Object identity(Path real) throws IOException {
    BasicFileAttributes a =
        Files.readAttributes(real, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    Object ctime = Files.getAttribute(real, "unix:ctime", LinkOption.NOFOLLOW_LINKS);
    return List.of(
        Objects.requireNonNullElse(a.fileKey(), "-"), a.size(), a.lastModifiedTime(), ctime);
  }
}
