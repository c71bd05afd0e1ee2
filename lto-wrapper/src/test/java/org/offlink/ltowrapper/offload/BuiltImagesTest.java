package org.offlink.ltowrapper.offload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.image.NvptxFunction;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.tool.OffloadTarget;

class BuiltImagesTest {
  @Test
  void countsByWrapperPathAndForwardsEveryEvent() {
    List<String> seen = new ArrayList<>();
    MkoffloadListener report =
        new MkoffloadListener() {
          @Override
          public void started(OffloadTarget target) {
            seen.add("started " + target.triplet());
          }

          @Override
          public void nvptxImageBuilt(Path object, NvptxImage image) {
            seen.add("image " + object.getFileName());
          }
        };
    BuiltImages built = new BuiltImages(report);
    NvptxImage image =
        new NvptxImage(
            List.of(new byte[] {'a'}),
            List.of("x", "y"),
            List.of(new NvptxFunction("main$_omp_fn$0", 0, 0, 0)));
    Path dir = Path.of("/tmp/offlink-built");
    built.started(OffloadTarget.NVPTX);
    built.nvptxImageBuilt(dir.resolve("sub/../a.target.o"), image);

    assertEquals(Optional.of(new ImageCounts(1, 2)), built.counts(dir.resolve("a.target.o")));
    assertTrue(built.counts(dir.resolve("b.target.o")).isEmpty(), "a foreign wrapper: read back");
    assertEquals(List.of("started nvptx-none", "image a.target.o"), seen);
  }
}
