package org.offlink.ltowrapper.lto;

import java.util.List;
import java.util.Optional;
import org.offlink.ltowrapper.jobs.JobserverAuth;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;

/**
 * The host LTO mode and parallelism (LW:1602–1672, GCC 12): WHOPR unless {@code
 * -flto-partition=none} or a relocatable link selects plain LTO; {@code -flto=jobserver}, {@code
 * -flto=auto} or {@code -flto=N} from the merged options; an unusable jobserver falls back to auto,
 * and a usable one is used even when not requested.
 *
 * @param whopr WHOPR (WPA + LTRANS) rather than a single LTO compile
 * @param parallel LTRANS jobs may run concurrently
 * @param jobserver the make jobserver bounds parallelism
 * @param autoParallel {@code -flto=auto}: the CPU count bounds parallelism
 * @param jobs the explicit {@code -flto=N} (0 when none)
 * @param jobserverRequested the link line said {@code -flto=jobserver}
 * @param jobserverAuth the detected jobserver
 * @param jobserverReason why no jobserver was detected (GCC's text)
 */
public record LtoPlan(
    boolean whopr,
    boolean parallel,
    boolean jobserver,
    boolean autoParallel,
    int jobs,
    boolean jobserverRequested,
    Optional<JobserverAuth> jobserverAuth,
    String jobserverReason) {

  /**
   * Decides the plan from the merged IL options (link-time {@code -flto=} already merged in).
   *
   * @param noPartition {@code -flto-partition=none} or a relocatable link
   */
  public static LtoPlan decide(
      List<DecodedOption> merged,
      boolean noPartition,
      boolean jobserverRequested,
      JobserverAuth.Detection detection) {
    boolean whopr = true; // NONE takes the WHOPR path too
    boolean parallel = false;
    boolean jobserver = false;
    boolean auto = false;
    int jobs = 0;
    for (DecodedOption o : merged) {
      if (o.option() == GccOption.FLTO_EQ) {
        switch (o.arg()) {
          case "jobserver":
            parallel = true;
            jobserver = true;
            break;
          case "auto":
            parallel = true;
            auto = true;
            break;
          default:
            jobs = atoi(o.arg());
            parallel = jobs > 1;
            jobs = parallel ? jobs : 0;
        }
      }
    }
    if (noPartition) {
      return new LtoPlan(false, false, false, false, 0, false, Optional.empty(), "");
    }
    boolean active = detection.auth().isPresent();
    if (jobserver && !active) {
      jobserver = false;
      auto = true;
    } else if (!jobserver && active) {
      parallel = true;
      jobserver = true;
    }
    return new LtoPlan(
        whopr,
        parallel,
        jobserver,
        auto,
        jobs,
        jobserverRequested,
        detection.auth(),
        detection.reason());
  }

  /** The WPA option: {@code -fwpa}, {@code -fwpa=N} or {@code -fwpa=jobserver}. */
  public String wpaOption(int cpus) {
    if (jobserver) {
      return "-fwpa=jobserver";
    }
    if (autoParallel) {
      return "-fwpa=" + Math.max(1, cpus);
    }
    return jobs > 1 ? "-fwpa=" + jobs : "-fwpa";
  }

  /** How many LTRANS jobs may run at once without a jobserver. */
  public int slots(int cpus) {
    if (!parallel) {
      return 1;
    }
    return autoParallel ? Math.max(1, cpus) : Math.max(1, jobs);
  }

  private static int atoi(String s) {
    int n = 0;
    for (int i = 0; i < s.length() && Character.isDigit(s.charAt(i)) && n < 100_000_000; i++) {
      n = n * 10 + (s.charAt(i) - '0');
    }
    return n;
  }
}
