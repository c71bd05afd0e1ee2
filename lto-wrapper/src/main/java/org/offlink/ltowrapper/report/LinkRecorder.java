package org.offlink.ltowrapper.report;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.offlink.bridge.image.DeviceImage;
import org.offlink.bridge.mkoffload.MkoffloadListener;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.runtime.ErrorText;
import org.offlink.runtime.LinkScope;

/**
 * Collects the link report of one lto-wrapper run while it happens ({@code OFFLINK_REPORT}). The
 * steps of the run call it as they go; when no report was asked for, it is {@link #disabled()} and
 * every call returns at once, touching nothing. Safe to call from the threads that build offload
 * images in parallel. Nothing here throws into the run: a report must never change the link.
 */
public final class LinkRecorder {
  private static final LinkRecorder DISABLED = new LinkRecorder(null, null);

  private final Path file;
  private final ReportState state;

  private LinkRecorder(Path file, ReportState state) {
    this.file = file;
    this.state = state;
  }

  /** The recorder that records nothing. */
  public static LinkRecorder disabled() {
    return DISABLED;
  }

  /**
   * The recorder for a run of {@code options} in {@code cwd}: recording to the file named by {@code
   * OFFLINK_REPORT} (relative to {@code cwd}) if that is set and non-empty, else disabled.
   */
  public static LinkRecorder forRun(LinkPlan options, Path cwd, String version) {
    return forRun(options, cwd, version, false);
  }

  /**
   * As {@link #forRun(LinkPlan, Path, String)}, but recording (without a file unless {@code
   * OFFLINK_REPORT} names one) when {@code needed}: a reproducer bundle carries the report.
   */
  public static LinkRecorder forRun(LinkPlan options, Path cwd, String version, boolean needed) {
    Optional<Path> file = options.settings().report();
    if (file.isEmpty() && !needed) {
      return DISABLED;
    }
    return recording(file.orElse(null), options, cwd, version, System::nanoTime);
  }

  /** A recorder writing to {@code file}, timing with {@code nanoTime} (tests pass a fake clock). */
  public static LinkRecorder recording(
      Path file, LinkPlan options, Path cwd, String version, LongSupplier nanoTime) {
    return new LinkRecorder(file, new ReportState(options, cwd, version, nanoTime));
  }

  /** How the link ran ({@code LinkReport.link_mode}). */
  public void linkMode(String mode) {
    if (state != null) {
      state.linkMode(mode);
    }
  }

  /** Whether this recorder records. */
  public boolean enabled() {
    return state != null;
  }

  /** The report file; empty when disabled. */
  public Optional<Path> file() {
    return Optional.ofNullable(file);
  }

  /**
   * The {@code .opts} strings of an input: its host LTO ones when {@code lto}, else its offload
   * ones (what it contributes to the option merge).
   */
  public void inputOptions(InputFile input, boolean lto, List<String> strings) {
    if (state != null) {
      state.inputOptions(input, lto, strings);
    }
  }

  /** An object was read from the offload object list. */
  public void offloadInput(InputFile input) {
    if (state != null) {
      state.input(input, false);
    }
  }

  /**
   * An offload target's build ended without an exception: {@code object} is its wrapper object, or
   * empty when the target was dropped for want of an mkoffload.
   */
  public void targetDone(String target, Optional<String> object) {
    if (state != null) {
      state.targetDone(target, object);
    }
  }

  /** An offload target's build failed with {@code error}. */
  public void targetFailed(String target, String error) {
    if (state != null) {
      state.targetFailed(target, String.valueOf(error));
    }
  }

  /** The clock reading to pass back as {@code start} when a command finishes. */
  public long now() {
    return state == null ? 0 : state.now();
  }

  /**
   * A program lto-wrapper ran has finished: what it was, its full argv (no {@code @file}) and what
   * it printed on stderr (kept in part when it failed).
   */
  public void commandFinished(
      ChildKind kind,
      List<String> argv,
      int exitStatus,
      long start,
      Duration elapsed,
      String stderr) {
    if (state != null) {
      state.linkStep(kind, argv, exitStatus, start, elapsed, "", stderr);
    }
  }

  /** The option merge dropped or overrode something; {@code text} is GCC's warning. */
  public void mergeNote(String text) {
    if (state != null) {
      state.mergeNote(String.valueOf(text));
    }
  }

  /** A program lto-wrapper tried to run could not be started. */
  public void commandNotStarted(ChildKind kind, List<String> argv, long start, String error) {
    if (state != null) {
      state.linkStep(kind, argv, -1, start, Duration.ZERO, String.valueOf(error), "");
    }
  }

  /** What an in-process mkoffload reports the programs it runs to. */
  public MkoffloadListener mkoffloadListener() {
    return state == null ? MkoffloadListener.NONE : state.mkoffloadListener();
  }

  /**
   * What the device-image cache did for {@code target}.
   *
   * @param outcome hit (local or remote) or miss
   * @param key the key in hex
   * @param bytes the wrapper object's size (taken, or stored after a miss; 0 if neither)
   * @param elapsed the time the cache took
   */
  public void cacheUse(
      String target, CacheOutcome outcome, String key, long bytes, Duration elapsed) {
    if (state != null) {
      state.cacheUse(target, outcome, key, bytes, elapsed);
    }
  }

  /** The mkoffload for {@code target} runs in this JVM (said before it finishes). */
  public void mkoffloadInProcess(OffloadTarget target) {
    if (state != null) {
      state.mkoffloadInProcess(target);
    }
  }

  /** An in-process mkoffload wrapped {@code image} into {@code object}. */
  public void imageBuilt(Path object, DeviceImage image) {
    if (state != null) {
      state.imageBuilt(object, image);
    }
  }

  /** The lines printed on stdout, once the run succeeded. */
  public void outputLines(List<String> lines) {
    if (state != null) {
      state.outputLines(lines);
    }
  }

  /** The fatal error that ended the run. */
  public void fatal(String message) {
    if (state != null) {
      state.fatal(String.valueOf(message));
    }
  }

  /**
   * Writes the report with {@code exitStatus} to its file (for the link of {@code scope}), if one
   * is being recorded; a failure is passed to {@code warning} as one line and goes no further.
   */
  public void write(LinkScope scope, int exitStatus, Consumer<String> warning) {
    if (state == null || file == null) {
      return;
    }
    try {
      LinkReportWriter.write(scope, file, finish(exitStatus));
    } catch (IOException | RuntimeException e) {
      warning.accept("cannot write the link report " + file + ": " + reason(e));
    } catch (LinkageError e) {
      // A JVM missing part of its own setup (e.g. a JDK whose conf/security links into an /etc
      // that is not there): the report is lost, the link is not.
      warning.accept(
          "cannot write the link report " + file + ": the JVM failed to load " + e.getMessage());
    }
  }

  private static String reason(Exception e) {
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "Permission denied";
    }
    return ErrorText.of(e);
  }

  /** The report as it stands, with {@code exitStatus} and the time so far. */
  public LinkReport finish(int exitStatus) {
    if (state == null) {
      throw new IllegalStateException("no report is being recorded");
    }
    return state.build(exitStatus);
  }
}
