package org.offlink.ltowrapper.offload;

import java.util.Optional;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.partition.DeviceJobSlots;
import org.offlink.ltowrapper.report.LinkRecorder;

/**
 * Chooses, for a located mkoffload, the {@link ImageBuilder} that runs it: offlink's own runs in
 * this JVM, any other (GCC's own, found first on {@code COMPILER_PATH}) as a program. Given to
 * {@code LtoWrapper}'s constructor beside its services (production: {@link OwnMkoffloads}).
 */
public interface ImageBuilders {
  /**
   * The builder for {@code mkoffload} (a path as located), running through {@code children};
   * offlink's own in-process mkoffload takes its images from {@code cache} when it has them, and
   * compiles the device code in partitions on the link's {@code deviceJobs} when it has them
   * ({@code --device-jobs}).
   */
  ImageBuilder forMkoffload(
      String mkoffload,
      ChildRunner children,
      LinkRecorder report,
      Optional<ImageCache> cache,
      Optional<DeviceJobSlots> deviceJobs);

  /** Whether offlink's own mkoffload runs in this JVM (so images are cheap to build at once). */
  boolean inProcess();

  /** Every mkoffload runs as a program: the production choice with no launchers of our own. */
  static ImageBuilders subprocessOnly() {
    return OwnMkoffloads.NONE;
  }
}
