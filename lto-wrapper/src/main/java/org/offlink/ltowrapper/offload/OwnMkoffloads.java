package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import org.offlink.bridge.nvptx.PtxArchives;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.partition.DeviceJobSlots;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.runtime.WorkingDirectory;

/**
 * The production {@link ImageBuilders}: a located mkoffload that is (a link to) one of this
 * installation's {@code accel/<target>/mkoffload} launchers runs in this JVM; any other runs as a
 * program. Decided once per target, where lto-wrapper has just located it.
 */
public final class OwnMkoffloads implements ImageBuilders {
  /** No launchers: every mkoffload runs as a program. */
  static final OwnMkoffloads NONE = new OwnMkoffloads(Set.of(), PtxArchives.NONE);

  private final Set<Path> launchers;
  private final PtxArchives archives;

  private OwnMkoffloads(Set<Path> launchers, PtxArchives archives) {
    this.launchers = Set.copyOf(launchers);
    this.archives = archives;
  }

  /** The launchers installed beside {@code ltoWrapper}, this installation's lto-wrapper. */
  public static OwnMkoffloads beside(Path ltoWrapper) {
    return beside(ltoWrapper, PtxArchives.NONE);
  }

  /**
   * The launchers installed beside {@code ltoWrapper}, whose nvptx builds may link their PTX
   * in-process with the library archives kept in {@code archives} (a link server's).
   */
  public static OwnMkoffloads beside(Path ltoWrapper, PtxArchives archives) {
    Set<Path> found = new HashSet<>();
    Path libexec = ltoWrapper.getParent();
    if (libexec != null) {
      for (OffloadTarget target : OffloadTarget.values()) {
        Path p = libexec.resolve("accel").resolve(target.triplet()).resolve("mkoffload");
        try {
          found.add(p.toRealPath());
        } catch (IOException absent) {
          // not installed for this target: nothing to run in-process
        }
      }
    }
    return new OwnMkoffloads(found, archives);
  }

  @Override
  public ImageBuilder forMkoffload(
      String mkoffload,
      ChildRunner children,
      LinkRecorder report,
      Optional<ImageCache> cache,
      Optional<DeviceJobSlots> deviceJobs) {
    boolean ours =
        inProcess()
            && mkoffload.contains("/")
            && isOurs(WorkingDirectory.resolve(children.context().workingDirectory(), mkoffload));
    if (!ours) {
      return new SubprocessImageBuilder(children);
    }
    ImageBuilder inProcess =
        new InProcessImageBuilder(children, report, deviceJobs, cache, archives);
    return cache.isEmpty()
        ? inProcess
        : new CachingImageBuilder(inProcess, cache.get(), children.context(), report);
  }

  @Override
  public boolean inProcess() {
    return !launchers.isEmpty();
  }

  private boolean isOurs(Path program) {
    try {
      return Files.isRegularFile(program) && launchers.contains(program.toRealPath());
    } catch (IOException e) {
      return false;
    }
  }
}
