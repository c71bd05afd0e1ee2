package org.offlink.ltowrapper.cache;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.ltowrapper.cache.ActionResultCodec.EntryDigests;

/**
 * A {@link RemoteImageCache} on Bazel's HTTP remote-cache protocol, so bazel-remote, an nginx
 * WebDAV location or any Bazel-compatible service can serve it.
 *
 * <p>An entry is two CAS blobs, {@code PUT <base>/cas/<sha256>} (the wrapper object and a {@link
 * CountsBlob}), then {@code PUT <base>/ac/<key>} with an {@code ActionResult} naming them ({@link
 * ActionResultCodec}); the entry goes last, so it never names a blob not yet stored. A get reads
 * the entry and both blobs, each against a size bound (the entry {@value #MAX_ENTRY_BYTES} bytes,
 * the object {@link CacheEntryFile#MAX_SIZE}, each blob exactly the size the entry names), all
 * within one request limit; checks each blob's size and SHA-256, with authenticated entries the
 * writer's signature ({@link EntrySigner}), and that the object is exactly a wrapper object
 * offlink's writer makes for the target, registering the counts the counts blob names ({@link
 * org.offlink.bridge.wrapper.WrapperObjectVerifier}). So a server can cost a link a warning and a
 * local build, never the link, unbounded memory or code of its own in the program; and nothing it
 * sends is stored locally unchecked.
 *
 * <p>Never fails a link: a 404 on the entry or a blob is a plain miss; any other failure is a miss
 * (or a skipped upload) and, the first time only, one warning line {@code remote cache <url>: <what
 * happened>; building locally} (a failed upload: {@code ...; the image was built, its upload
 * skipped}) to the sink. After a connection-level failure, a timeout or an answer the server should
 * not have sent (an oversized body, a redirect, 401/403), the server is not asked again, so it
 * costs one timeout per link, not one per target. Thread-safe: targets may share one instance.
 */
public final class BazelHttpCache implements RemoteImageCache {
  /** The largest {@code ac/} entry read; ours are about 200 bytes. */
  static final long MAX_ENTRY_BYTES = 64 * 1024;

  /** The largest counts blob read; ours are about 30 bytes. */
  private static final long MAX_COUNTS_BYTES = 1024;

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
  public Optional<CachedImage> get(CacheKey key, EntryCheck check) {
    Optional<CachedImage> found = Optional.empty();
    if (!unreachable.get()) {
      try {
        found = fetch(key, check, deadline());
      } catch (RemoteCacheException e) {
        fail(e, "building locally");
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
    byte[] signature = settings.signer().map(s -> s.sign(key, digests)).orElse(new byte[0]);
    long deadline = deadline();
    try {
      transport.put(digests.object().casPath(), image.object(), deadline);
      transport.put(digests.counts().casPath(), counts, deadline);
      transport.put(acPath(key), ActionResultCodec.write(digests, signature), deadline);
    } catch (RemoteCacheException e) {
      fail(e, "the image was built, its upload skipped");
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

  private Optional<CachedImage> fetch(CacheKey key, EntryCheck check, long deadline)
      throws RemoteCacheException {
    String ac = acPath(key);
    Optional<byte[]> bytes = transport.get(ac, MAX_ENTRY_BYTES, deadline);
    if (bytes.isEmpty()) {
      return Optional.empty();
    }
    ActionResultCodec.Entry entry = ActionResultCodec.read(bytes.get(), ac);
    EntryDigests digests = entry.digests();
    if (settings.signer().isPresent()
        && !settings.signer().get().verify(key, digests, entry.signature())) {
      throw new RemoteCacheException(
          ac
              + ": not signed with the key of "
              + EntrySigner.KEY_FILE_VARIABLE
              + " (written without it, or forged)",
          false);
    }
    requireAtMost(digests.object(), CacheEntryFile.MAX_SIZE, ac);
    requireAtMost(digests.counts(), MAX_COUNTS_BYTES, ac);
    Optional<byte[]> object = blob(digests.object(), deadline);
    Optional<byte[]> counts =
        object.isEmpty() ? Optional.empty() : blob(digests.counts(), deadline);
    if (counts.isEmpty()) {
      return Optional.empty(); // a blob evicted since the entry was written: a plain miss
    }
    return Optional.of(verified(object.get(), CountsBlob.read(counts.get()), check, digests));
  }

  /** An object blob the entry names is larger than a cache entry may be: a miss, not a download. */
  private static void requireAtMost(BlobDigest digest, long limit, String ac)
      throws RemoteCacheException {
    if (digest.sizeBytes() > limit) {
      throw new RemoteCacheException(
          ac
              + ": names "
              + digest.casPath()
              + " of "
              + digest.sizeBytes()
              + " bytes, over the limit of "
              + limit,
          false);
    }
  }

  /** The image, once {@code check} accepts its object (ours, of the target), with these counts. */
  private static CachedImage verified(
      byte[] object, ImageCounts counts, EntryCheck check, EntryDigests digests)
      throws RemoteCacheException {
    try {
      return CacheEntryFile.verified(object, counts, check);
    } catch (CacheEntryException e) {
      throw new RemoteCacheException(digests.object().casPath() + ": " + e.getMessage(), false);
    }
  }

  private Optional<byte[]> blob(BlobDigest digest, long deadline) throws RemoteCacheException {
    Optional<byte[]> blob = transport.get(digest.casPath(), digest.sizeBytes(), deadline);
    if (blob.isPresent()) {
      digest.verify(blob.get());
    }
    return blob;
  }

  /** When one look-up or upload must be over: the request limit from now. */
  private long deadline() {
    return System.nanoTime() + settings.requestTimeout().toNanos();
  }

  private static String acPath(CacheKey key) {
    return "ac/" + key.hex();
  }

  /** One warning per link, saying what happened and what the link does instead ({@code then}). */
  private void fail(RemoteCacheException e, String then) {
    if (e.unreachable()) {
      unreachable.set(true);
    }
    if (warned.compareAndSet(false, true)) {
      warnings.accept(
          "remote cache " + settings.displayUrl() + ": " + e.getMessage() + "; " + then);
    }
  }
}
