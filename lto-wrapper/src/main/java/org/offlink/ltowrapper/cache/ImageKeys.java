package org.offlink.ltowrapper.cache;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.zip.CRC32;
import org.offlink.bridge.OfflinkFlags;
import org.offlink.bridge.gcc.AccelToolchain;
import org.offlink.bridge.gcc.GccInstallation;
import org.offlink.bridge.gcc.MkoffloadArguments;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ToolLocator;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.io.ScannedInputs;
import org.offlink.runtime.JvmProperties;
import org.offlink.runtime.Sha256Digest;
import org.offlink.streamer.OfflinkVersion;

/**
 * Takes the cache key of one target's image: a SHA-256 over everything that can change the image or
 * its wrapper object, and nothing that cannot (so a relink after a host-only change hits):
 *
 * <ul>
 *   <li>the target, and offlink itself: its version and the size and time of each jar it runs from
 *       (a rebuilt offlink misses);
 *   <li>the accel toolchain ({@link AccelToolchain}: driver, {@code lto1}, assembler, linker and
 *       libraries, by size and time) and the host driver that compiles a C-form wrapper;
 *   <li>mkoffload's arguments without argv[0], {@code -o}, {@code -save-temps} and {@code -v}, with
 *       the input names and anything in the temp folder replaced by placeholders (the {@code
 *       -dumpbase}, which follows the program's name, stays); with {@code -g}, the working
 *       directory, which the image's debug info names;
 *   <li>for each input in link order, the names and bytes of its offload IR sections (and, for
 *       amdgcn, whose {@code -g} images link the host objects' early debug info, of its {@code
 *       .gnu.debuglto_} sections);
 *   <li>the environment that reaches the accel compile and changes its output: the {@code GCC_*}
 *       variables (except the search paths mkoffload hides from it), the wrapper form from {@code
 *       OFFLINK_FLAGS} and whether it asks for {@code --device-jobs} (partitioned device code).
 * </ul>
 */
public final class ImageKeys {
  private static final String SCHEMA = "offlink device-image key 2";

  /** Sections that lie within this many bytes of each other are read with one call. */
  private static final long SPAN_READ_LIMIT = 4L << 20;

  private final Map<String, String> environment;
  private final OfflinkFlags flags; // the link plan\'s
  private final Optional<GccInstallation> gcc; // the link plan's installation
  private final Path cwd;
  private final Path tempDirectory;
  private final ScannedInputs scans;
  private final Map<OffloadTarget, Optional<Toolchain>> toolchains = new ConcurrentHashMap<>();
  private volatile byte[] offlinkIdentity;
  private volatile String hostDriver;
  // A latch, not a CompletableFuture, whose class set-up alone cost a cold JVM ~2 ms.
  private volatile CountDownLatch prepared = new CountDownLatch(0);

  /**
   * Keys for one link.
   *
   * @param environment mkoffload's environment
   * @param cwd the working directory
   * @param tempDirectory the run's temp folder (names in it are placeholders in the key)
   * @param scans the inputs' scans (where their sections lie)
   */
  public ImageKeys(
      Map<String, String> environment,
      OfflinkFlags flags,
      Optional<GccInstallation> gcc,
      Path cwd,
      Path tempDirectory,
      ScannedInputs scans) {
    this.environment = Map.copyOf(environment);
    this.flags = Objects.requireNonNull(flags, "flags");
    this.gcc = gcc;
    this.cwd = cwd;
    this.tempDirectory = tempDirectory;
    this.scans = scans;
  }

  /**
   * What every key of the link shares, to run on a thread of the caller's ({@link CacheWorker}):
   * offlink's jar stamps, the host driver and each of {@code targets}' accel toolchain stamps
   * (listing and stating a few hundred files costs a cold JVM several milliseconds). lto-wrapper
   * reads and merges its inputs meanwhile, so the first key rarely waits. From this call on, a key
   * waits for the prelude to have run.
   */
  Runnable prelude(List<String> targets) {
    CountDownLatch done = new CountDownLatch(1);
    prepared = done;
    return () -> {
      try {
        offlinkIdentity();
        hostDriver();
        for (String target : targets) {
          OffloadTarget.byTriplet(target).ifPresent(this::toolchain);
        }
      } finally {
        done.countDown();
      }
      // A hit checks its entry, a miss checksums the one it stores, with java.util.zip's CRC-32,
      // whose class set-up loads libzip (~1.5 ms): done here, not on the link's path.
      new CRC32().update(0);
    };
  }

  private void awaitPrepared() throws IOException {
    try {
      prepared.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while identifying the accel toolchain", e);
    }
  }

  /**
   * A target's accel toolchain with the SHA-256 of its stamps, taken once by the prelude thread: a
   * key then hashes 32 bytes instead of a few kilobytes of stamps (the cold JVM's SHA-256 runs
   * interpreted, on the link's critical path).
   */
  private static final class Toolchain {
    final AccelToolchain accel;
    final byte[] stampsDigest;

    Toolchain(AccelToolchain accel) {
      this.accel = accel;
      this.stampsDigest =
          Sha256Digest.of(String.join("\n", accel.stamps()).getBytes(StandardCharsets.UTF_8));
    }
  }

  private Optional<Toolchain> toolchain(OffloadTarget target) {
    return toolchains.computeIfAbsent(
        target,
        t -> gcc.flatMap(g -> AccelToolchain.of(g, environment, cwd, t)).map(Toolchain::new));
  }

  /**
   * The key for building {@code target}'s image with mkoffload arguments {@code argv} (argv[0] the
   * program) from {@code inputs}; empty when the toolchain cannot be identified without running
   * anything (the image is then built and not cached).
   *
   * @throws IOException if an input cannot be read
   */
  public Optional<CacheKey> key(String target, List<String> argv, List<InputFile> inputs)
      throws IOException {
    return keyOf(target, inputs, keyArguments(argv, inputs));
  }

  /**
   * The key for building {@code target}'s image with mkoffload {@code arguments} from {@code
   * inputs}: the same key as {@link #key(String, List, List)} over their rendered argv, taken from
   * the typed values; empty when the toolchain cannot be identified without running anything.
   *
   * @throws IOException if an input cannot be read
   */
  public Optional<CacheKey> key(String target, MkoffloadArguments arguments, List<InputFile> inputs)
      throws IOException {
    return keyOf(target, inputs, keyArguments(arguments, inputs));
  }

  private Optional<CacheKey> keyOf(String target, List<InputFile> inputs, List<String> arguments)
      throws IOException {
    Optional<OffloadTarget> known = OffloadTarget.byTriplet(target);
    if (known.isEmpty()) {
      return Optional.empty();
    }
    // This link's part first (arguments, environment, the inputs' IR), while the prelude thread
    // may still be stamping the toolchain; then the shared part, and the two digests together.
    KeyDigest own = new KeyDigest();
    own.add("arguments", String.join("\0", arguments));
    if (debugInfo(arguments)) {
      // A -g image's DWARF names the folder the accel compiler ran in (DW_AT_comp_dir).
      own.add("directory", cwd.toString());
    }
    own.add("environment", relevantEnvironment());
    boolean earlyDebug = known.get() == OffloadTarget.AMDGCN;
    for (InputFile in : inputs) {
      ObjectScan scan = scans.of(in);
      addSections(own, "offload-ir", in.file(), scan.offloadIr());
      if (earlyDebug) {
        addSections(own, "early-debug", in.file(), scan.earlyDebug());
      }
    }
    byte[] ownDigest = own.finish();
    awaitPrepared();
    Optional<Toolchain> toolchain = toolchain(known.get());
    if (toolchain.isEmpty()) {
      return Optional.empty();
    }
    KeyDigest d = new KeyDigest();
    d.add("schema", SCHEMA);
    d.add("target", target);
    d.add("offlink", offlinkIdentity());
    d.add("gcc", toolchain.get().accel.gcc().version().toString());
    d.add("toolchain", toolchain.get().stampsDigest);
    d.add("host-driver", hostDriver());
    d.add("link", ownDigest);
    return Optional.of(CacheKey.of(d.finish()));
  }

  /**
   * A command line's arguments as the key sees them (see the class comment): a device partition's
   * recipe, argv[0] the program.
   */
  List<String> keyArguments(List<String> argv, List<InputFile> inputs) {
    List<String> out = new java.util.ArrayList<>();
    addOwnWords(argv.subList(1, argv.size()), inputs, out);
    return out;
  }

  /**
   * Adds {@code words} as the key sees them, less the {@code -o FILE}, {@code -v} and {@code
   * -save-temps} among them: mkoffload reads those among the user's {@code -foffload-options} words
   * too (GCC's does), and they do not change the image.
   */
  private void addOwnWords(List<String> words, List<InputFile> inputs, List<String> out) {
    for (int i = 0; i < words.size(); i++) {
      String a = words.get(i);
      if (a.equals("-o") && i + 1 < words.size()) {
        i++;
      } else if (!a.equals("-save-temps") && !a.equals("-v")) {
        out.add(keyWord(a, inputs));
      }
    }
  }

  /**
   * mkoffload's arguments as the key sees them: its rendered command line ({@link
   * MkoffloadArguments#argv}) less the program, {@code -save-temps}, {@code -v} and {@code -o}
   * (none of which changes the image), left out by construction, and less the same options among
   * the {@code -foffload-options} words.
   */
  List<String> keyArguments(MkoffloadArguments arguments, List<InputFile> inputs) {
    List<String> out = new java.util.ArrayList<>();
    arguments.inputs().forEach(a -> out.add(keyWord(a, inputs)));
    arguments.compilerOptions().forEach(a -> out.add(keyWord(a, inputs)));
    out.add("-dumpbase");
    out.add(keyWord(arguments.dumpbase(), inputs));
    addOwnWords(arguments.targetOptions(), inputs, out);
    return out;
  }

  /** One argument as the key sees it: an input or a temp file by its role, not its name. */
  private String keyWord(String a, List<InputFile> inputs) {
    for (InputFile in : inputs) {
      if (in.spelling().equals(a)) {
        return "<input>";
      }
    }
    return a.startsWith(tempDirectory.toString() + "/") ? "<temp>" : a;
  }

  private static boolean debugInfo(List<String> arguments) {
    for (String a : arguments) {
      if (a.startsWith("-g") && !a.equals("-g0")) {
        return true;
      }
    }
    return false;
  }

  private String relevantEnvironment() {
    TreeMap<String, String> vars = new TreeMap<>();
    for (Map.Entry<String, String> e : environment.entrySet()) {
      String name = e.getKey();
      if (name.startsWith("GCC_") && !name.equals("GCC_EXEC_PREFIX")) {
        vars.put(name, e.getValue());
      }
    }
    vars.put("offlink wrapper", flags.wrapper().map(Enum::name).orElse("default"));
    if (flags.deviceJobs().isPresent()) {
      // A partitioned image differs from the whole-program one (not with N: the partitions do not
      // depend on it); the default mode's keys stay as they were.
      vars.put("offlink device partitions", "1");
    }
    return vars.toString();
  }

  private String hostDriver() {
    String driver = hostDriver;
    if (driver == null) {
      driver = findHostDriver();
      hostDriver = driver;
    }
    return driver;
  }

  private String findHostDriver() {
    String collectGcc = environment.getOrDefault("COLLECT_GCC", "");
    try {
      Path driver = new ToolLocator(environment, cwd).find(collectGcc).path();
      return AccelToolchain.stamp(driver.toFile())
          .map(s -> collectGcc + " " + s)
          .orElse(collectGcc + " missing");
    } catch (IOException e) { // ToolNotFoundException too
      return collectGcc + " not found";
    }
  }

  /** The SHA-256 of offlink's version and its jars' stamps (see {@link #offlinkStamps}). */
  private byte[] offlinkIdentity() {
    byte[] id = offlinkIdentity;
    if (id == null) {
      id = Sha256Digest.of(offlinkStamps().getBytes(StandardCharsets.UTF_8));
      offlinkIdentity = id;
    }
    return id;
  }

  /** offlink's version, then each jar it runs from with its size and time, one per line. */
  private static String offlinkStamps() {
    StringBuilder b = new StringBuilder(OfflinkVersion.number());
    String classPath = JvmProperties.classPath();
    for (String entry : classPath.split(File.pathSeparator)) {
      if (entry.endsWith(".jar")) {
        File jar = new File(entry);
        b.append('\n')
            .append(jar.getName())
            .append(' ')
            .append(AccelToolchain.stamp(jar).orElse("unreadable"));
      }
    }
    return b.toString();
  }

  private static void addSections(
      KeyDigest d, String label, Path file, List<ObjectScan.SectionRange> ranges)
      throws IOException {
    d.add(label, Integer.toString(ranges.size()));
    if (ranges.isEmpty()) {
      return;
    }
    long low = Long.MAX_VALUE;
    long high = 0;
    for (ObjectScan.SectionRange r : ranges) {
      low = Math.min(low, r.offset());
      high = Math.max(high, r.offset() + r.size());
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      if (high - low <= SPAN_READ_LIMIT) {
        // GCC streams the sections one after the other: one read for all, not one per section
        // (a dozen or more, each a few hundred bytes, of interpreted NIO in a young JVM).
        ByteBuffer span = ByteBuffer.allocate((int) (high - low));
        while (span.hasRemaining()) {
          if (ch.read(span, low + span.position()) < 0) {
            throw new IOException(file + ": ends inside its offload sections");
          }
        }
        byte[] bytes = span.array();
        for (ObjectScan.SectionRange r : ranges) {
          d.add("section", r.name());
          d.begin("bytes", r.size());
          d.update(bytes, (int) (r.offset() - low), (int) r.size());
        }
        return;
      }
      ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
      for (ObjectScan.SectionRange r : ranges) {
        d.add("section", r.name());
        d.begin("bytes", r.size());
        long pos = r.offset();
        long end = r.offset() + r.size();
        while (pos < end) {
          buffer.clear();
          buffer.limit((int) Math.min(buffer.capacity(), end - pos));
          int n = ch.read(buffer, pos);
          if (n < 0) {
            throw new IOException(file + ": ends inside section " + r.name());
          }
          buffer.flip();
          d.update(buffer);
          pos += n;
        }
      }
    }
  }
}
