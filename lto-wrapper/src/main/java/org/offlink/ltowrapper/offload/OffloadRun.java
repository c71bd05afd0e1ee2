package org.offlink.ltowrapper.offload;

import java.nio.file.Path;
import java.util.Optional;
import org.offlink.ltowrapper.cache.ImageCache;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.options.OptionMerger;
import org.offlink.ltowrapper.partition.DeviceJobSlots;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.report.LinkRecorder;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.DumpNames;
import org.offlink.ltowrapper.run.LinkTemps;
import org.offlink.ltowrapper.run.LtoWrapperServices;

/**
 * What the offload half of one run shares: {@link OffloadImages} and the {@link MkoffloadCommand}s
 * it runs (the host-LTO steps take their own, narrower arguments). Lives with the offload steps, so
 * that they depend on nothing above them.
 *
 * @param options the parsed invocation
 * @param services the plugged-in collaborators
 * @param cwd the working directory
 * @param diag the diagnostics printer
 * @param temps the temporary files of this run
 * @param children runs child programs
 * @param dump the dump prefix
 * @param merger the option merger (shared: its {@code -Xassembler} state spans host and offload)
 * @param offloadScheduler runs offload image builds (one slot unless parallel offload is on)
 * @param report the link report being recorded (disabled unless {@code OFFLINK_REPORT} is set)
 * @param offloadPolicy how offload images are built and checked
 * @param imageBuilders how each target's mkoffload runs (in this JVM or as a program)
 * @param scans the input objects' scans, each read once per run
 * @param imageCache the device-image cache, when it is on
 */
public record OffloadRun(
    LinkPlan options,
    LtoWrapperServices services,
    Path cwd,
    Diagnostics diag,
    LinkTemps temps,
    ChildRunner children,
    DumpNames dump,
    OptionMerger merger,
    JobScheduler offloadScheduler,
    LinkRecorder report,
    OffloadPolicy offloadPolicy,
    ImageBuilders imageBuilders,
    ScannedInputs scans,
    Optional<ImageCache> imageCache,
    Optional<DeviceJobSlots> deviceJobs) {
  /** The settings shortcut. */
  public LinkPlan.Settings settings() {
    return options.settings();
  }
}
