package org.offlink.bridge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.process.ResponseFiles;
import org.offlink.bridge.wrapper.WrapperMode;

/**
 * offlink's own options, read from the {@code OFFLINK_FLAGS} environment variable so that they
 * reach lto-wrapper and mkoffload through an unmodified {@code gcc}. One table for both tools: each
 * reads the words meant for it and accepts (ignores) the words meant for the other; a word neither
 * knows is a one-line error naming {@code OFFLINK_FLAGS}.
 *
 * @param wrapper {@code --wrapper=elf|c} (mkoffload: how the wrapper object is written)
 * @param offloadFailure {@code --offload-failure=warn|fatal} (lto-wrapper: what a target whose
 *     image fails to build does to the link)
 * @param consistencyCheck false with {@code --no-consistency-check} (lto-wrapper: compare host
 *     tables with each device image)
 * @param parallelOffload {@code --parallel-offload} (true) or {@code --serial-offload} (false), the
 *     last one wins; empty leaves lto-wrapper's default
 * @param keepHostHardening true with {@code --keep-host-hardening} (lto-wrapper: pass host-only
 *     hardening options such as {@code -fcf-protection=full} to the accel compilers, as GCC 12
 *     does, instead of dropping them with a warning)
 * @param cache false with {@code --no-cache} (lto-wrapper: neither read nor write the device-image
 *     cache)
 * @param remoteCacheReadOnly true with {@code --remote-cache-read-only} (lto-wrapper: take images
 *     from {@code OFFLINK_REMOTE_CACHE}, never upload)
 * @param server false with {@code --no-server} (the link client: run the link in a JVM of its own,
 *     not in the user's link server; the JVM tools only accept the word)
 * @param deviceJobs {@code --device-jobs=N} (mkoffload: compile the device code in partitions, at
 *     most N at a time, and cache each partition; docs/parallel-device-compile.md); empty: one
 *     whole-program accel compile, as GCC
 * @param inProcessNvptxLinker false with {@code --external-nvptx-ld} (mkoffload: always let the
 *     accel driver run nvptx-tools' linker, never link the PTX in-process; {@link
 *     org.offlink.bridge.nvptx.NvptxLinkerStandIn})
 * @param earlyGcnLink false with {@code --serial-gcn-link} (mkoffload: start the amdgcn link step
 *     only after the device compile and the assembly file, as GCC does, not while the compile runs;
 *     {@link org.offlink.bridge.gcn.GcnPipelinedLink})
 */
public record OfflinkFlags(
    Optional<WrapperMode> wrapper,
    Optional<OffloadFailure> offloadFailure,
    boolean consistencyCheck,
    Optional<Boolean> parallelOffload,
    boolean keepHostHardening,
    boolean cache,
    boolean remoteCacheReadOnly,
    boolean server,
    Optional<Integer> deviceJobs,
    boolean inProcessNvptxLinker,
    boolean earlyGcnLink) {
  /** The environment variable holding the words. */
  public static final String VARIABLE = "OFFLINK_FLAGS";

  /** No flags given. */
  public static final OfflinkFlags NONE =
      new OfflinkFlags(
          Optional.empty(),
          Optional.empty(),
          true,
          Optional.empty(),
          false,
          true,
          false,
          true,
          Optional.empty(),
          true,
          true);

  /** Which tool a flag is for. */
  public enum Tool {
    MKOFFLOAD,
    LTO_WRAPPER,
    /** The native client GCC runs as both (libexec/offlink/lto-wrapper, .../mkoffload). */
    CLIENT
  }

  /** What lto-wrapper does when a target's image fails to build. */
  public enum OffloadFailure {
    /** Drop the target with one warning; the program falls back to the host at run time. */
    WARN,
    /** Fail the link, as GCC 12 does. */
    FATAL
  }

  /** The flag table: spelling, the tool it is for, and the values it takes. */
  public enum Flag {
    WRAPPER("--wrapper=", Tool.MKOFFLOAD, "elf|c"),
    OFFLOAD_FAILURE("--offload-failure=", Tool.LTO_WRAPPER, "warn|fatal"),
    NO_CONSISTENCY_CHECK("--no-consistency-check", Tool.LTO_WRAPPER, ""),
    PARALLEL_OFFLOAD("--parallel-offload", Tool.LTO_WRAPPER, ""),
    SERIAL_OFFLOAD("--serial-offload", Tool.LTO_WRAPPER, ""),
    KEEP_HOST_HARDENING("--keep-host-hardening", Tool.LTO_WRAPPER, ""),
    NO_CACHE("--no-cache", Tool.LTO_WRAPPER, ""),
    REMOTE_CACHE_READ_ONLY("--remote-cache-read-only", Tool.LTO_WRAPPER, ""),
    NO_SERVER("--no-server", Tool.CLIENT, ""),
    DEVICE_JOBS("--device-jobs=", Tool.MKOFFLOAD, "N"),
    EXTERNAL_NVPTX_LD("--external-nvptx-ld", Tool.MKOFFLOAD, ""),
    SERIAL_GCN_LINK("--serial-gcn-link", Tool.MKOFFLOAD, "");

    private final String spelling;
    private final Tool tool;
    private final String values;

    Flag(String spelling, Tool tool, String values) {
      this.spelling = spelling;
      this.tool = tool;
      this.values = values;
    }

    /** The word, with a trailing {@code =} when the flag takes a value. */
    public String spelling() {
      return spelling;
    }

    /** The tool that acts on the flag. */
    public Tool tool() {
      return tool;
    }

    boolean takesValue() {
      return spelling.endsWith("=");
    }

    /** The flag {@code word} spells, if any. */
    public static Optional<Flag> of(String word) {
      for (Flag f : values()) {
        if (f.takesValue() ? word.startsWith(f.spelling) : word.equals(f.spelling)) {
          return Optional.of(f);
        }
      }
      return Optional.empty();
    }

    static String usage() {
      List<String> all = new ArrayList<>();
      for (Flag f : values()) {
        all.add(f.spelling + f.values);
      }
      return String.join(", ", all);
    }
  }

  /** The flags in {@code environment}'s {@code OFFLINK_FLAGS}, or {@link #NONE}. */
  public static OfflinkFlags fromEnvironment(Map<String, String> environment) {
    String words = environment.get(VARIABLE);
    return words == null ? NONE : parse(ResponseFiles.split(words));
  }

  /**
   * Parses {@code words}.
   *
   * @throws IllegalArgumentException with a one-line message naming {@code OFFLINK_FLAGS} for an
   *     unknown word or a bad value
   */
  public static OfflinkFlags parse(List<String> words) {
    OfflinkFlags flags = NONE;
    for (String word : words) {
      flags = flags.with(word);
    }
    return flags;
  }

  /** These flags with {@code word} applied (later words override earlier ones). */
  public OfflinkFlags with(String word) {
    Flag flag =
        Flag.of(word)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        VARIABLE
                            + ": unknown option '"
                            + word
                            + "' (known: "
                            + Flag.usage()
                            + ")"));
    String value = flag.takesValue() ? word.substring(flag.spelling.length()) : "";
    Builder b = new Builder(this);
    switch (flag) {
      case WRAPPER -> b.wrapper = Optional.of(wrapperMode(value));
      case OFFLOAD_FAILURE -> b.offloadFailure = Optional.of(failure(value));
      case NO_CONSISTENCY_CHECK -> b.consistencyCheck = false;
      case PARALLEL_OFFLOAD -> b.parallelOffload = Optional.of(true);
      case SERIAL_OFFLOAD -> b.parallelOffload = Optional.of(false);
      case KEEP_HOST_HARDENING -> b.keepHostHardening = true;
      case NO_CACHE -> b.cache = false;
      case REMOTE_CACHE_READ_ONLY -> b.remoteCacheReadOnly = true;
      case NO_SERVER -> b.server = false;
      case DEVICE_JOBS -> b.deviceJobs = Optional.of(deviceJobs(value));
      case EXTERNAL_NVPTX_LD -> b.inProcessNvptxLinker = false;
      case SERIAL_GCN_LINK -> b.earlyGcnLink = false;
    }
    return b.build();
  }

  /** A copy to change one field of (the record's fields, mutable, for {@link #with}). */
  private static final class Builder {
    private Optional<WrapperMode> wrapper;
    private Optional<OffloadFailure> offloadFailure;
    private boolean consistencyCheck;
    private Optional<Boolean> parallelOffload;
    private boolean keepHostHardening;
    private boolean cache;
    private boolean remoteCacheReadOnly;
    private boolean server;
    private Optional<Integer> deviceJobs;
    private boolean inProcessNvptxLinker;
    private boolean earlyGcnLink;

    Builder(OfflinkFlags f) {
      wrapper = f.wrapper;
      offloadFailure = f.offloadFailure;
      consistencyCheck = f.consistencyCheck;
      parallelOffload = f.parallelOffload;
      keepHostHardening = f.keepHostHardening;
      cache = f.cache;
      remoteCacheReadOnly = f.remoteCacheReadOnly;
      server = f.server;
      deviceJobs = f.deviceJobs;
      inProcessNvptxLinker = f.inProcessNvptxLinker;
      earlyGcnLink = f.earlyGcnLink;
    }

    OfflinkFlags build() {
      return new OfflinkFlags(
          wrapper,
          offloadFailure,
          consistencyCheck,
          parallelOffload,
          keepHostHardening,
          cache,
          remoteCacheReadOnly,
          server,
          deviceJobs,
          inProcessNvptxLinker,
          earlyGcnLink);
    }
  }

  private static WrapperMode wrapperMode(String value) {
    // Same text whether --wrapper= came from argv or OFFLINK_FLAGS (mkoffload's message).
    return WrapperMode.parse(value);
  }

  private static int deviceJobs(String value) {
    int n = 0;
    boolean digits = !value.isEmpty() && value.length() <= 4;
    for (int i = 0; digits && i < value.length(); i++) {
      char c = value.charAt(i);
      digits = c >= '0' && c <= '9';
      n = n * 10 + (c - '0');
    }
    if (!digits || n < 1) {
      throw new IllegalArgumentException(
          VARIABLE
              + ": bad --device-jobs= value '"
              + value
              + "' (expected the number of parallel device compiles, 1 to 9999)");
    }
    return n;
  }

  private static OffloadFailure failure(String value) {
    for (OffloadFailure f : OffloadFailure.values()) {
      if (f.name().equalsIgnoreCase(value)) {
        return f;
      }
    }
    throw new IllegalArgumentException(
        VARIABLE + ": unknown --offload-failure= value '" + value + "' (expected warn or fatal)");
  }
}
