package org.offlink.ltowrapper.run;

import java.nio.file.Path;
import java.util.Objects;
import java.util.function.IntFunction;
import java.util.function.IntSupplier;
import org.offlink.bridge.process.ProcessRunner;
import org.offlink.ltowrapper.io.EarlyDebugCopier;
import org.offlink.ltowrapper.io.ObjectScanner;
import org.offlink.ltowrapper.io.OffloadListReader;

/**
 * What lto-wrapper needs from other modules, plugged in at {@link
 * org.offlink.ltowrapper.LtoWrapperMain}: process running, input object scanning, the offload list
 * reader, the early debug copier, the CPU count for {@code -flto=auto}, and the mapping of an
 * inherited descriptor number to a path (jobserver pipes).
 *
 * @param runner runs children (constructed non-verbose: lto-wrapper echoes {@code -v} itself)
 * @param scanner reads what lto-wrapper needs of an input object, once per object
 * @param offloadList reads the {@code -foffload-objects=} file
 * @param earlyDebug copies early debug sections
 * @param cpuCount the CPUs usable by this process
 * @param fdPath maps a descriptor number to a path ({@code /proc/self/fd/N} on Linux)
 */
public record LtoWrapperServices(
    ProcessRunner runner,
    ObjectScanner scanner,
    OffloadListReader offloadList,
    EarlyDebugCopier earlyDebug,
    IntSupplier cpuCount,
    IntFunction<Path> fdPath) {
  /** Checks the fields. */
  public LtoWrapperServices {
    Objects.requireNonNull(runner, "runner");
    Objects.requireNonNull(scanner, "scanner");
    Objects.requireNonNull(offloadList, "offloadList");
    Objects.requireNonNull(earlyDebug, "earlyDebug");
    Objects.requireNonNull(cpuCount, "cpuCount");
    Objects.requireNonNull(fdPath, "fdPath");
  }
}
