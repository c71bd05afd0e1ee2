package org.offlink.bridge.mkoffload;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.offlink.bridge.image.GcnImage;
import org.offlink.bridge.image.GcnKernel;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.nvptx.PtxImageParser;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.wrapper.WrapperObjects;

/**
 * Runs the post-processing code on a small synthetic image while the accel compiler works, on the
 * core it leaves idle, so that by the time the real PTX (hundreds of KB) arrives, its parser and
 * the wrapper writer are loaded and compiled rather than interpreted. Pure functions on made-up
 * data: nothing is written and every result is discarded; a failure here changes nothing.
 */
final class Warmup {
  private Warmup() {}

  /** Starts the warm-up for {@code target} on a daemon thread. */
  static Thread start(OffloadTarget target) {
    Thread t = new Thread(() -> run(target), "offlink-warmup");
    t.setDaemon(true);
    t.setPriority(Thread.MIN_PRIORITY);
    t.start();
    return t;
  }

  private static void run(OffloadTarget target) {
    try {
      for (int round = 0; round < 3; round++) {
        if (target == OffloadTarget.NVPTX) {
          NvptxImage image = PtxImageParser.parse(syntheticPtx(), Path.of("warmup.ptx"));
          WrapperObjects.nvptxElf(image);
        } else {
          GcnKernel k = new GcnKernel("warmup._omp_fn.0", 0, 0, 0, 16, 8);
          WrapperObjects.gcnElf(new GcnImage(new byte[64 * 1024], List.of(k), 1));
        }
      }
    } catch (Exception | LinkageError ignored) {
      // Only speed is at stake.
    }
  }

  private static byte[] syntheticPtx() {
    StringBuilder sb = new StringBuilder(96 * 1024);
    for (int chunk = 0; chunk < 4; chunk++) {
      sb.append("// BEGIN PREAMBLE\n.version 3.1\n.target sm_30\n.address_size 64\n");
      sb.append("//:VAR_MAP \"warm_var").append(chunk).append("\"\n");
      sb.append("//:FUNC_MAP \"warm$_omp_fn$").append(chunk).append("\", 0x20, 0x1, 0x40\n");
      for (int i = 0; i < 400; i++) {
        sb.append("\tld.param.u64 %r").append(i).append(", [%in_ar0];\r\n");
        sb.append("\tst.global.u32 [%r").append(i).append("], \"x\\y\";\n");
      }
      sb.append('\0');
    }
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }
}
