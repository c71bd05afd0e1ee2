package org.offlink.fuzz;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.wrapper.WrapperObjects;

/**
 * The seeds of {@link CacheEntryFuzzer}: wrapper objects of offlink's writer for small nvptx images
 * of GCC 12 and 14 and gcn images of GCC 12 and 14, each as a whole entry file and as a bare
 * object. Real images are 0.5 MB and up (the linked PTX of libgomp and newlib), too large to mutate
 * quickly; the writer's structure is the same at any size. {@code CacheEntrySeedsTest} checks that
 * the committed files are what this makes; {@code main} writes them again.
 */
final class CacheEntrySeeds {
  static final String FOLDER = "CacheEntryFuzzTestInputs/cacheEntry";

  private CacheEntrySeeds() {}

  /** Seed name to bytes. */
  static Map<String, byte[]> all() throws IOException {
    Map<String, byte[]> seeds = new LinkedHashMap<>();
    for (int major : List.of(12, 14)) {
      GccRelease r = GccRelease.of(major);
      boolean indirect = r.layout().indirectFunctions();
      NvptxImage nvptx =
          new NvptxImage(
              List.of(
                  (".version 3.1\n.target sm_30\n.address_size 64\n// gcc " + major + "\n")
                      .getBytes(StandardCharsets.US_ASCII)),
              List.of("gvar"),
              List.of(new NvptxFunction("main$_omp_fn$0", 1, 1, 32)),
              indirect ? List.of("ind$fn") : List.of(),
              List.of(),
              new NvptxImage.Layout(r.nvptx().version(), r.layout().requiresMask(), indirect),
              r.layout().requiresMask() ? 0x200 : 0,
              false);
      add(seeds, "nvptx_gcc" + major, 0, WrapperObjects.nvptxElf(nvptx), nvptx.counts());
    }
    for (GcnDataLayout layout : List.of(GcnDataLayout.GCC12, GcnDataLayout.GCC14)) {
      GcnImage gcn =
          new GcnImage(
              new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 64, 0, (byte) 0xe0, 0},
              List.of(
                  new GcnKernel("_init_array", 0, 0, 0, 0, 0),
                  new GcnKernel("_fini_array", 0, 0, 0, 0, 0),
                  new GcnKernel("main._omp_fn.0", 32, 1, 1, 62, 24)),
              1,
              layout,
              layout.requiresMask() ? 640 : 0,
              layout.indirectFunctions() ? 1 : 0,
              0,
              "",
              org.offlink.bridge.image.HsaXnack.UNCHECKED);
      add(
          seeds,
          "gcn_" + layout.name().toLowerCase(java.util.Locale.ROOT),
          2,
          WrapperObjects.gcnElf(gcn),
          gcn.counts());
    }
    return seeds;
  }

  private static void add(
      Map<String, byte[]> seeds,
      String name,
      int targetBit,
      byte[] object,
      org.offlink.bridge.image.ImageCounts counts)
      throws IOException {
    seeds.put("entry_" + name, prefixed((byte) targetBit, CacheEntryFuzzer.entry(object, counts)));
    seeds.put("object_" + name, prefixed((byte) (targetBit | 1), object));
  }

  private static byte[] prefixed(byte mode, byte[] rest) {
    byte[] out = new byte[rest.length + 1];
    out[0] = mode;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }

  /** Writes the seeds into {@code args[0]} (the fuzz module's test resources folder). */
  public static void main(String[] args) throws IOException {
    Path dir = Path.of(args[0], "org/offlink/fuzz", FOLDER);
    Files.createDirectories(dir);
    for (Map.Entry<String, byte[]> seed : all().entrySet()) {
      Files.write(dir.resolve(seed.getKey()), seed.getValue());
    }
  }
}
