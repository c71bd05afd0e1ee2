package org.offlink.ltowrapper.partition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.partition.PartitionArtifact;
import org.offlink.bridge.partition.PartitionArtifactReader;
import org.offlink.bridge.partition.PartitionArtifactWriter;
import org.offlink.bridge.partition.PartitionCache;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.CacheEntryException;
import org.offlink.ltowrapper.cache.CacheKey;
import org.offlink.ltowrapper.cache.CachedImage;
import org.offlink.ltowrapper.cache.EntryCheck;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.io.InputFile;

/**
 * The partition cache of one image build, kept in the link's device-image cache (local folder and
 * remote cache alike): a partition's key is an image key ({@link
 * org.offlink.ltowrapper.cache.ImageKeys}: offlink, the accel toolchain, the {@code GCC_*}
 * environment) over the partition's recipe and the offload IR of its inputs only, so a change to
 * one unit's device code misses that unit's partition and hits every other.
 */
public final class CachedPartitions implements PartitionCache {
  /**
   * argv[0] of a partition key's argument list (ImageKeys skips argv[0]; the first word is kept).
   */
  private static final String KEY_PROGRAM = "offlink";

  private static final String KEY_KIND = "device-partition";

  private final ImageCache cache;
  private final Map<String, InputFile> inputs = new ConcurrentHashMap<>();
  private final Map<List<String>, Optional<CacheKey>> keys = new ConcurrentHashMap<>();

  /** The cache for an image built from {@code inputs} (as spelled on mkoffload's command line). */
  public CachedPartitions(ImageCache cache, List<InputFile> inputs) {
    this.cache = cache;
    for (InputFile in : inputs) {
      this.inputs.putIfAbsent(in.spelling(), in);
    }
  }

  @Override
  public Optional<byte[]> find(OffloadTarget target, List<String> recipe, List<String> spelled) {
    Optional<CacheKey> key = key(target, recipe, spelled);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    return cache.find(new ArtifactCheck(target), key.get()).map(hit -> hit.image().object());
  }

  /**
   * A partition entry's check: the object is a partition artifact of {@code target} (parsed whole,
   * every count and length checked) and registers what its entry says. It is device code only, for
   * the accel linker: nothing in it runs on the host.
   */
  private record ArtifactCheck(OffloadTarget target) implements EntryCheck {
    @Override
    public ImageCounts counts(byte[] object) throws CacheEntryException {
      PartitionArtifact a;
      try {
        a = PartitionArtifactReader.read(object);
      } catch (IllegalArgumentException e) {
        throw new CacheEntryException("not a device partition offlink writes: " + e.getMessage());
      }
      if (a.target() != target) {
        throw new CacheEntryException(
            "expected a "
                + target.triplet()
                + " partition, found a "
                + a.target().triplet()
                + " one");
      }
      return countsOf(a);
    }
  }

  private static ImageCounts countsOf(PartitionArtifact a) {
    return new ImageCounts(a.kernels().size(), a.variables());
  }

  @Override
  public void store(
      OffloadTarget target, List<String> recipe, List<String> spelled, PartitionArtifact a) {
    Optional<CacheKey> key = key(target, recipe, spelled);
    if (key.isPresent()) {
      cache.store(key.get(), new CachedImage(PartitionArtifactWriter.write(a), countsOf(a)));
    }
  }

  /** The partition's key, once per partition; empty when an input is not one of the image's. */
  private Optional<CacheKey> key(OffloadTarget target, List<String> recipe, List<String> spelled) {
    List<String> id = new ArrayList<>(recipe.size() + spelled.size() + 2);
    id.add(target.triplet());
    id.addAll(recipe);
    id.add("\0inputs");
    id.addAll(spelled);
    return keys.computeIfAbsent(id, k -> compute(target, recipe, spelled));
  }

  private Optional<CacheKey> compute(
      OffloadTarget target, List<String> recipe, List<String> spelled) {
    List<InputFile> files = new ArrayList<>();
    for (String s : spelled) {
      InputFile in = inputs.get(s);
      if (in == null) {
        return Optional.empty();
      }
      files.add(in);
    }
    List<String> argv = new ArrayList<>(recipe.size() + 2);
    argv.add(KEY_PROGRAM);
    argv.add(KEY_KIND);
    argv.addAll(recipe);
    return cache.key(target.triplet(), argv, files);
  }
}
