package org.offlink.ltowrapper.cache;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.wrapper.WrapperObjects;

/**
 * Cache entries for the tests: real nvptx wrapper objects of offlink's ELF writer (the only objects
 * a cache takes), derived from fixed inputs.
 */
public final class WrapperImages {
  private WrapperImages() {}

  /**
   * The wrapper of an nvptx image with one PTX chunk of {@code ptxBytes} bytes (made from {@code
   * seed}), {@code functions} functions and {@code variables} variables.
   */
  public static CachedImage nvptx(int ptxBytes, int seed, int functions, int variables) {
    byte[] ptx = new byte[ptxBytes];
    Arrays.fill(ptx, (byte) ('a' + Math.floorMod(seed, 26)));
    byte[] head = ("// seed " + seed + "\n").getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(head, 0, ptx, 0, Math.min(head.length, ptx.length));
    List<String> vars = new ArrayList<>();
    for (int i = 0; i < variables; i++) {
      vars.add("var" + i);
    }
    List<NvptxFunction> fns = new ArrayList<>();
    for (int i = 0; i < functions; i++) {
      fns.add(new NvptxFunction("main$_omp_fn$" + i, 1, 1, 32));
    }
    NvptxImage image = new NvptxImage(List.of(ptx), vars, fns);
    return new CachedImage(WrapperObjects.nvptxElf(image), image.counts());
  }

  /** {@link #nvptx(int, int, int, int)} with 3 functions and 4 variables. */
  public static CachedImage nvptx(int ptxBytes, int seed) {
    return nvptx(ptxBytes, seed, 3, 4);
  }
}
