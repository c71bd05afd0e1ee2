package org.offlink.ltowrapper.options;

import java.util.ArrayList;
import java.util.List;
import org.offlink.bridge.process.ResponseFiles;

/**
 * Which merged or link-time options go to which child command (§2.5): GCC's {@code
 * append_compiler_options}, {@code append_linker_options}, {@code append_diag_options} and {@code
 * append_offload_options}.
 */
public final class OptionForwarding {
  private OptionForwarding() {}

  /**
   * Options from merged IL options for the WPA/LTO driver and for mkoffload: the {@link
   * OptionTrait#IL_FORWARD} set and target options, never {@code -flto*}, and {@code -Xassembler}
   * only while consistent.
   */
  public static List<String> compilerOptions(
      List<DecodedOption> merged, boolean xassemblerMismatch) {
    return compilerOptions(merged, xassemblerMismatch, false);
  }

  /**
   * {@link #compilerOptions(List, boolean)}, also forwarding the {@link
   * OptionTrait#IL_FORWARD_SINCE_13} options when {@code gcc13Unwind} (the running GCC's {@code
   * GccRelease.LinkStep#forwardsUnwindTables}).
   */
  public static List<String> compilerOptions(
      List<DecodedOption> merged, boolean xassemblerMismatch, boolean gcc13Unwind) {
    List<String> out = new ArrayList<>();
    for (DecodedOption o : merged) {
      GccOption opt = o.option();
      if (opt == GccOption.FLTO || opt == GccOption.FLTO_EQ || opt == GccOption.FLTO_PARTITION) {
        continue;
      }
      if (opt == GccOption.XASSEMBLER && xassemblerMismatch) {
        continue;
      }
      boolean since13 = gcc13Unwind && o.has(OptionTrait.IL_FORWARD_SINCE_13);
      if (o.has(OptionTrait.IL_FORWARD) || o.has(OptionTrait.TARGET) || since13) {
        out.addAll(o.canonical());
      }
    }
    return out;
  }

  /**
   * Link-time options for the WPA/LTO driver: every common, target, driver or LTO option except
   * {@code -o}, {@code -flto}, {@code -flto=} and the {@code -fno-openmp}/{@code -fno-openacc}
   * forms (which would disable the builtins).
   */
  public static List<String> linkerOptions(List<DecodedOption> linkTime) {
    List<String> out = new ArrayList<>();
    for (DecodedOption o : linkTime) {
      GccOption opt = o.option();
      boolean classed =
          o.has(OptionTrait.COMMON)
              || o.has(OptionTrait.TARGET)
              || o.has(OptionTrait.DRIVER)
              || o.has(OptionTrait.LTO);
      if (!classed
          || opt == GccOption.OUTPUT
          || opt == GccOption.FLTO
          || opt == GccOption.FLTO_EQ) {
        continue;
      }
      if ((opt == GccOption.FOPENMP || opt == GccOption.FOPENACC) && o.negative()) {
        continue;
      }
      out.addAll(o.canonical());
    }
    return out;
  }

  /** Link-time diagnostics options for mkoffload ({@link OptionTrait#DIAG}). */
  public static List<String> diagOptions(List<DecodedOption> linkTime) {
    List<String> out = new ArrayList<>();
    for (DecodedOption o : linkTime) {
      if (o.has(OptionTrait.DIAG)) {
        out.addAll(o.canonical());
      }
    }
    return out;
  }

  /**
   * The words of every {@code -foffload-options=} that applies to {@code target}: a value starting
   * with {@code -} applies to all targets; {@code t1,t2=opts} to the exact names listed. Words are
   * split with {@link ArgvSyntax#split} ({@code buildargv}).
   */
  public static List<String> offloadOptions(String target, List<DecodedOption> options) {
    List<String> out = new ArrayList<>();
    for (DecodedOption o : options) {
      if (o.option() != GccOption.FOFFLOAD_OPTIONS) {
        continue;
      }
      String arg = o.arg();
      if (arg.startsWith("-")) {
        out.addAll(ResponseFiles.split(arg));
        continue;
      }
      int eq = arg.indexOf('=');
      if (eq < 0) {
        continue; // the driver never produces this; GCC asserts
      }
      for (String name : arg.substring(0, eq).split(",", -1)) {
        if (name.equals(target)) {
          out.addAll(ResponseFiles.split(arg.substring(eq + 1)));
          break;
        }
      }
    }
    return out;
  }
}
