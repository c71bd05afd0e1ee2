package org.offlink.ltowrapper.cache;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.offlink.bridge.gcc.MkoffloadArguments;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.runtime.LinkScope;

/**
 * One link's device-image cache: the local folder, then the remote cache when one is configured (a
 * remote hit is also stored locally). Never fails a link: a damaged or foreign entry is a miss with
 * one warning (and is removed); a folder that others may write ({@link CacheTrust}), or that cannot
 * be read or written, costs one warning per link, after which the link goes on without it. Every
 * hit, local or remote, is the wrapper object offlink's writer makes for the target ({@link
 * CacheEntryFile}). Shared by the link's offload jobs.
 */
public final class ImageCache {
  /** Trims the folder at most this often (a trim lists every entry). */
  private static final long TRIM_INTERVAL_MS = 60_000;

  private final LinkScope scope;
  private final CacheSettings settings;
  private final ImageKeys keys;
  private final LocalImageCache local;
  private final Optional<RemoteImageCache> remote;
  private final Consumer<String> warn;
  private final Optional<Consumer<String>> tell;
  private final AtomicBoolean localFailed = new AtomicBoolean();
  private final CacheWorker worker = new CacheWorker();

  /**
   * A cache for one link.
   *
   * @param scope the link's scope (entries being written are its files until renamed)
   * @param settings the local folder and its size limit
   * @param keys takes the keys
   * @param remote the shared cache, if configured
   * @param warn prints one warning line
   * @param tell prints the hit-or-miss line of each target ({@code -v}, {@code -save-temps})
   */
  public ImageCache(
      LinkScope scope,
      CacheSettings settings,
      ImageKeys keys,
      Optional<RemoteImageCache> remote,
      Consumer<String> warn,
      Optional<Consumer<String>> tell) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.scope = Objects.requireNonNull(scope, "scope");
    this.local = new LocalImageCache(settings.directory(), settings.sharedGroup());
    this.remote = Objects.requireNonNull(remote, "remote");
    this.warn = Objects.requireNonNull(warn, "warn");
    this.tell = Objects.requireNonNull(tell, "tell");
  }

  /**
   * The key of {@code target}'s image built by mkoffload arguments {@code argv} from {@code
   * inputs}; empty (the image is built and not cached) when the accel toolchain cannot be
   * identified or an input cannot be read.
   */
  public Optional<CacheKey> key(String target, List<String> argv, List<InputFile> inputs) {
    return keyOrWarn(() -> keys.key(target, argv, inputs));
  }

  /**
   * The key of {@code target}'s image built by mkoffload {@code arguments} from {@code inputs};
   * empty (the image is built and not cached) when the accel toolchain cannot be identified or an
   * input cannot be read.
   */
  public Optional<CacheKey> key(
      String target, MkoffloadArguments arguments, List<InputFile> inputs) {
    return keyOrWarn(() -> keys.key(target, arguments, inputs));
  }

  /** Takes a key the way {@code keys} does it. */
  private interface KeyTaking {
    Optional<CacheKey> take() throws IOException;
  }

  private Optional<CacheKey> keyOrWarn(KeyTaking taking) {
    try {
      return taking.take();
    } catch (IOException e) {
      warn.accept("offload image cache: " + e.getMessage() + "; building without the cache");
      return Optional.empty();
    }
  }

  /** Says {@code line} where the user asked to see the link's steps. */
  public void tell(String line) {
    tell.ifPresent(t -> t.accept(line));
  }

  /** Where an entry was found. */
  public enum Source {
    /** The local folder. */
    LOCAL,
    /** The remote cache. */
    REMOTE
  }

  /**
   * A hit.
   *
   * @param image the cached object and counts
   * @param source where it came from
   */
  public record Hit(CachedImage image, Source source) {}

  /** The image of {@code target} stored under {@code key}, locally or remotely; empty on a miss. */
  public Optional<Hit> find(OffloadTarget target, CacheKey key) {
    return find(EntryCheck.wrapperObject(target), key);
  }

  /**
   * The entry stored under {@code key} whose object {@code check} accepts (a device partition's),
   * locally or remotely; empty on a miss.
   */
  public Optional<Hit> find(EntryCheck check, CacheKey key) {
    Optional<CachedImage> found = readLocal(key, check);
    if (found.isPresent()) {
      return Optional.of(new Hit(found.get(), Source.LOCAL));
    }
    if (remote.isEmpty()) {
      return Optional.empty();
    }
    Optional<CachedImage> fetched = remote.get().get(key, check);
    if (fetched.isPresent()) {
      writeLocal(key, fetched.get());
      trimInBackground(); // the folder grew
    }
    return fetched.map(image -> new Hit(image, Source.REMOTE));
  }

  /**
   * Starts the link's shared key work ({@link ImageKeys#prelude}) for {@code targets} on the
   * cache's background thread, off the link's critical path.
   */
  public void prepare(List<String> targets) {
    worker.start(keys.prelude(targets));
  }

  /**
   * Runs {@code job} on the cache's background thread, after the jobs handed over before it; a
   * short job that must not throw (a store, or getting ready for one).
   */
  public void inBackground(Runnable job) {
    worker.submit(job);
  }

  /**
   * Gets ready to {@link #store} {@code key}'s image once it is built, in the background while the
   * accel compiler runs (a link's CPU is otherwise idle then): makes the entry's folder, and trims
   * the folder when that is due, since the store makes it grow. A failure here shows when the image
   * is stored.
   */
  public void prepareStore(CacheKey key) {
    if (!localFailed.get()) {
      try {
        local.prepare(key);
      } catch (UntrustedCacheException e) {
        untrusted(e);
      } catch (IOException e) {
        // the store tries again and says what is wrong
      }
      trimNowAndThen();
    }
  }

  /** {@link #trimNowAndThen} on the background thread, which the link does not wait for. */
  private void trimInBackground() {
    worker.submit(this::trimNowAndThen);
  }

  /** Stores a freshly built image locally and, unless read-only, remotely. */
  public void store(CacheKey key, CachedImage image) {
    writeLocal(key, image);
    remote.ifPresent(r -> r.put(key, image));
  }

  private Optional<CachedImage> readLocal(CacheKey key, EntryCheck check) {
    if (localFailed.get()) {
      return Optional.empty();
    }
    try {
      return local.read(key, check);
    } catch (UntrustedCacheException e) {
      untrusted(e);
    } catch (CacheEntryException bad) {
      warn.accept(
          "offload image cache: "
              + local.entryPath(key)
              + ": "
              + bad.getMessage()
              + "; removed, building the image");
      try {
        local.remove(key);
      } catch (IOException e) {
        // the next link finds it again and says so again
      }
    } catch (IOException e) {
      localProblem("cannot read " + local.entryPath(key) + ": " + e.getMessage());
    }
    return Optional.empty();
  }

  private void writeLocal(CacheKey key, CachedImage image) {
    if (localFailed.get()) {
      return;
    }
    try {
      if (!local.write(scope, key, image)) {
        tell(
            "offload image cache: "
                + key.abbreviated()
                + ": not stored, over the "
                + (CacheEntryFile.MAX_SIZE >> 20)
                + " MiB limit of an entry");
      }
    } catch (UntrustedCacheException e) {
      untrusted(e);
    } catch (IOException e) {
      localProblem("cannot write " + local.entryPath(key) + ": " + e.getMessage());
    }
  }

  private void localProblem(String what) {
    if (localFailed.compareAndSet(false, true)) {
      warn.accept("offload image cache: " + what + "; going on without the cache");
    }
  }

  /** The folder is not trusted: one warning naming it and what to do, then no local cache. */
  private void untrusted(UntrustedCacheException e) {
    if (localFailed.compareAndSet(false, true)) {
      warn.accept(
          "offload image cache: " + e.getMessage() + "; the cache is off: " + local.remedy());
    }
  }

  /**
   * Keeps the folder under its limit without listing it on every link: at most once a minute (a
   * marker file's time says when it last happened), before a store or after a remote hit, off the
   * link's path, the least recently used entries beyond the limit are evicted.
   */
  private void trimNowAndThen() {
    if (localFailed.get()) {
      return;
    }
    try {
      if (local.trimDue(TRIM_INTERVAL_MS)) {
        local.trim(settings.maxBytes());
      }
    } catch (IOException e) {
      // another link trims at the same moment, or the folder went away: the next store tries again
    }
  }
}
