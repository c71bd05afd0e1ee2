package org.offlink.bridge.gcn;

import java.util.List;
import org.offlink.bridge.gcc.OffloadAbi;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.bridge.gcc.OffloadOptionsFixture;

/** Test access to the package-private gcn argv builders. */
public final class GcnImageBuilderArgv {
  private GcnImageBuilderArgv() {}

  /** The link argv for verbose OpenMP options with {@code targetOptions}. */
  public static List<String> link(String driver, List<String> args, String asm2, String hsaco)
      throws Exception {
    OffloadOptions o =
        OffloadOptionsFixture.of(
            List.of(args.get(0)),
            OffloadAbi.LP64,
            true,
            args.subList(1, args.size()),
            false,
            true,
            "./x");
    return GcnImageBuilder.linkArgv(
        driver,
        o,
        GcnTargetSettings.fromArguments(o.forwarded()),
        o.forwarded(),
        List.of(),
        asm2,
        hsaco);
  }
}
