package org.offlink.ltowrapper.offload;

import org.offlink.bridge.OfflinkFlags.OffloadFailure;
import org.offlink.ltowrapper.plan.LinkPlan;

/**
 * How this run builds and checks offload images, decided once from the settings.
 *
 * @param parallel build images concurrently with each other and with host LTO. Default: on when
 *     there are two or more targets or offlink's mkoffload runs in this JVM, except with {@code
 *     -save-temps} (which keeps GCC 12's serial order and file names for diffing against stock); an
 *     explicit {@code --parallel-offload}/{@code --serial-offload} or {@code
 *     OFFLINK_PARALLEL_OFFLOAD=1|0} wins
 * @param perTargetResponseFiles name the save-temps response files {@code
 *     <dumppfx><target>.offload_args} (GCC 14's names) because several targets run at once; GCC
 *     12's shared {@code <dumppfx>offload_args} otherwise
 * @param failure what a target whose image fails to build does: {@link OffloadFailure#WARN} when
 *     {@code OFFLOAD_TARGET_DEFAULT} is set (Debian's default target list) unless {@code
 *     --offload-failure=fatal}; {@link OffloadFailure#FATAL} otherwise, as GCC 12, unless {@code
 *     --offload-failure=warn}
 * @param consistencyCheck compare host tables with each image ({@code --no-consistency-check} off)
 * @param positionIndependentTable write offlink's {@code .data.rel.ro} table object instead of
 *     copying GCC's {@code crtoffloadtable.o}: for every link except a known {@code exec} one,
 *     where GCC's copy is byte-compatible with stock and its absolute relocations are harmless
 */
public record OffloadPolicy(
    boolean parallel,
    boolean perTargetResponseFiles,
    OffloadFailure failure,
    boolean consistencyCheck,
    boolean positionIndependentTable) {

  /** The policy for {@code targetCount} targets; {@code inProcess}: our mkoffload runs in-JVM. */
  public static OffloadPolicy decide(LinkPlan.Settings s, int targetCount, boolean inProcess) {
    boolean parallel =
        s.parallelOffload().orElse(!s.saveTemps() && (targetCount >= 2 || inProcess));
    OffloadFailure failure =
        s.flags()
            .offloadFailure()
            .orElse(s.offloadTargetDefault() ? OffloadFailure.WARN : OffloadFailure.FATAL);
    boolean pic = !s.output().positionDependentExecutable();
    return new OffloadPolicy(
        parallel, parallel && targetCount >= 2, failure, s.flags().consistencyCheck(), pic);
  }
}
