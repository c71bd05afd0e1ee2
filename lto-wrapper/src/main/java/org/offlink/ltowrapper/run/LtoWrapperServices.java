package org.offlink.ltowrapper.run;

import java.nio.file.Path;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.ltowrapper.io.EarlyDebugCopier;
import org.offlink.ltowrapper.io.ObjectScanner;
import org.offlink.ltowrapper.io.OffloadListReader;
import org.offlink.runtime.LinkContext;

/**
 * What lto-wrapper needs from other modules, the same for every link of a JVM (production: {@code
 * LtoWrapperWiring}; tests plug in fakes): process running, input object scanning, the offload list
 * reader, the early debug copier, the CPU count for {@code -flto=auto}, and the mapping of an
 * inherited descriptor number to a path (jobserver pipes).
 *
 * @param runner runs a link's children (non-verbose: lto-wrapper echoes {@code -v} itself)
 * @param scanner reads what lto-wrapper needs of an input object, once per object
 * @param offloadList reads the {@code -foffload-objects=} file
 * @param earlyDebug copies early debug sections
 * @param cpuCount the CPUs usable by this process
 * @param fdPath maps a descriptor number to a path ({@code /proc/self/fd/N} on Linux)
 */
public record LtoWrapperServices(
    Runners runner,
    ObjectScanner scanner,
    OffloadListReader offloadList,
    EarlyDebugCopier earlyDebug,
    IntSupplier cpuCount,
    IntFunction<Path> fdPath) {
  /** Makes the process runner of one link. */
  @FunctionalInterface
  public interface Runners {
    /** The runner of the link of {@code context}: its children, its stderr, its cancellation. */
    ProcessRunner forLink(LinkContext context);
  }
}
