package org.offlink.ltowrapper.cache;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.offlink.ltowrapper.cache.ActionResultCodec.EntryDigests;

/**
 * A {@link RemoteImageCache} on Bazel's HTTP remote-cache protocol, so bazel-remote, an nginx
 * WebDAV location or any Bazel-compatible service can serve it.
 *
 * <p>An entry is two CAS blobs, {@code PUT <base>/cas/<sha256>} (the wrapper object and a {@link
 * CountsBlob}), then {@code PUT <base>/ac/<key>} with an {@code ActionResult} naming them ({@link
 * ActionResultCodec}); the entry goes last, so it never names a blob not yet stored. A get reads
 * the entry and both blobs and checks each blob's size and SHA-256 before use.
 *
 * <p>Never fails a link: a 404 on the entry or a blob is a plain miss; any other failure is a miss
 * (or a skipped put) and, the first time only, one warning line {@code remote cache <url>: <what
 * happened>; building locally} to the sink. After a connection-level failure or a timeout the
 * server is not asked again, so a dead server costs one timeout per link, not one per target.
 * Thread-safe: targets may share one instance.
 */
public final class BazelHttpCache implements RemoteImageCache {
  private final RemoteCacheSettings settings;
  private final HttpCacheTransport transport;
  private final Consumer<String> warnings;
  private final AtomicBoolean warned = new AtomicBoolean();
  private final AtomicBoolean unreachable = new AtomicBoolean();
  private final AtomicLong hits = new AtomicLong();
  private final AtomicLong misses = new AtomicLong();

  /**
   * A client for one link.
   *
   * @param settings where the cache is and how to reach it
   * @param warnings where the one warning line goes (lto-wrapper's stderr sink)
   */
  public BazelHttpCache(RemoteCacheSettings settings, Consumer<String> warnings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    this.transport = new HttpCacheTransport(settings);
  }

  @Override
  public Optional<CachedImage> get(CacheKey key) {
    Optional<CachedImage> found = Optional.empty();
    if (!unreachable.get()) {
      try {
        found = fetch(key);
      } catch (RemoteCacheException e) {
        fail(e);
      }
    }
    (found.isPresent() ? hits : misses).incrementAndGet();
    return found;
  }

  @Override
  public void put(CacheKey key, CachedImage image) {
    if (settings.readOnly() || unreachable.get()) {
      return;
    }
    byte[] counts = CountsBlob.write(image.counts());
    EntryDigests digests = new EntryDigests(BlobDigest.of(image.object()), BlobDigest.of(counts));
    try {
      transport.put(digests.object().casPath(), image.object());
      transport.put(digests.counts().casPath(), counts);
      transport.put(acPath(key), ActionResultCodec.write(digests));
    } catch (RemoteCacheException e) {
      fail(e);
    }
  }

  /** What this client did so far. */
  public RemoteCacheStats stats() {
    return new RemoteCacheStats(
        hits.get(),
        misses.get(),
        transport.bytesReceived(),
        transport.bytesSent(),
        unreachable.get());
  }

  private Optional<CachedImage> fetch(CacheKey key) throws RemoteCacheException {
    Optional<byte[]> entry = transport.get(acPath(key));
    if (entry.isEmpty()) {
      return Optional.empty();
    }
    EntryDigests digests = ActionResultCodec.read(entry.get(), acPath(key));
    Optional<byte[]> object = blob(digests.object());
    Optional<byte[]> counts = object.isEmpty() ? Optional.empty() : blob(digests.counts());
    if (counts.isEmpty()) {
      return Optional.empty(); // a blob evicted since the entry was written: a plain miss
    }
    return Optional.of(new CachedImage(object.get(), CountsBlob.read(counts.get())));
  }

  private Optional<byte[]> blob(BlobDigest digest) throws RemoteCacheException {
    Optional<byte[]> blob = transport.get(digest.casPath());
    if (blob.isPresent()) {
      digest.verify(blob.get());
    }
    return blob;
  }

  private static String acPath(CacheKey key) {
    return "ac/" + key.hex();
  }

  private void fail(RemoteCacheException e) {
    if (e.unreachable()) {
      unreachable.set(true);
    }
    if (warned.compareAndSet(false, true)) {
      warnings.accept(
          "remote cache " + settings.displayUrl() + ": " + e.getMessage() + "; building locally");
    }
  }
}
