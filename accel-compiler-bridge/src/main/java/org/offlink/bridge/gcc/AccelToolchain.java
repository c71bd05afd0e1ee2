package org.offlink.bridge.gcc;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.bridge.tool.ResolvedTool;
import org.offlink.bridge.tool.ToolLocator;
import org.offlink.bridge.tool.ToolNotFoundException;

/**
 * The files that make one target's device images, as mkoffload will use them: the accel driver it
 * resolves, and everything in the accel tool and library folders of the GCC installation (the accel
 * {@code lto1}, the assembler and linker it links to, {@code libgomp.a}, newlib, the multilib
 * folders), each with its size and modification time (a package manager keeps a file's time from
 * its package, so the same packages give the same stamps on every machine; folders' times are the
 * machine's own and are left out: every file is listed anew each time). Headers are left out: an
 * offload link compiles no source. Listing and stating the files is cheap; no file is read or run,
 * so a key can be taken on every link.
 *
 * @param gcc the host GCC installation
 * @param stamps one line per file, {@code <size> <mtime> <path>}, sorted by path; a symbolic link
 *     is stamped as the file it leads to, under its own name
 */
public record AccelToolchain(GccInstallation gcc, List<String> stamps) {
  private static final int MAX_DEPTH = 3;

  /** Copies the list. */
  public AccelToolchain {
    stamps = List.copyOf(stamps);
  }

  /**
   * The toolchain that mkoffload for {@code target} of the host GCC {@code gcc} would use in {@code
   * environment} (its {@code COMPILER_PATH} and {@code PATH}); empty when the accel driver cannot
   * be found without running anything, or none of its folders exists.
   */
  public static Optional<AccelToolchain> of(
      GccInstallation gcc,
      Map<String, String> environment,
      Path workingDirectory,
      OffloadTarget target) {
    ResolvedTool driver;
    try {
      driver =
          new ToolLocator(environment, workingDirectory)
              .findAccelCompiler(gcc.accelDriverName(target), target.debianPackage(gcc.major()));
    } catch (ToolNotFoundException e) {
      return Optional.empty();
    }
    TreeMap<String, String> stamps = new TreeMap<>();
    stamp(driver.path().toFile(), stamps);
    boolean anyFolder = false;
    // One folder on GCC 12 (tools and libraries both under /usr/lib/gcc), two on Debian's 13+.
    for (Path dir :
        new LinkedHashSet<>(
            List.of(
                gcc.debianAccelToolDirectory(target), gcc.debianAccelLibraryDirectory(target)))) {
      File folder = dir.toFile();
      if (folder.isDirectory()) {
        anyFolder = true;
        walk(folder, 0, stamps);
      }
    }
    return anyFolder
        ? Optional.of(new AccelToolchain(gcc, new ArrayList<>(stamps.values())))
        : Optional.empty();
  }

  // java.io.File only, no NIO paths or attribute views, and no string concatenation through
  // invokedynamic: this runs on every link, in a JVM too young to have compiled anything, where
  // each file's stamp through NIO took ~100 us of interpreted code; java.io's isDirectory(),
  // length() and lastModified() are one native stat each.
  private static void walk(File dir, int depth, TreeMap<String, String> stamps) {
    String[] names = dir.list();
    if (names == null) {
      String path = dir.getPath();
      stamps.put(path + "/", "unreadable ".concat(path));
      return;
    }
    for (String name : names) {
      File file = new File(dir, name);
      if (file.isDirectory() && !Files.isSymbolicLink(file.toPath())) {
        if (depth < MAX_DEPTH && !name.equals("include")) {
          walk(file, depth + 1, stamps);
        }
      } else {
        stamp(file, stamps);
      }
    }
  }

  /** The file's stamp line; "missing" when it is gone (or a dangling link). */
  private static void stamp(File file, TreeMap<String, String> stamps) {
    String name = file.getPath();
    Optional<String> stamp = stamp(file);
    stamps.put(
        name,
        stamp.isEmpty()
            ? "missing ".concat(name)
            : new StringBuilder(name.length() + 32)
                .append(stamp.get())
                .append(' ')
                .append(name)
                .toString());
  }

  /**
   * A file's size and modification time, {@code "<size> <mtime ms>"}, following links; empty when
   * it is missing. Through java.io (one native stat each), for the short-lived JVMs that stamp
   * files on every link.
   */
  public static Optional<String> stamp(File file) {
    long mtime = file.lastModified();
    if (mtime == 0 && !file.exists()) {
      return Optional.empty();
    }
    return Optional.of(
        new StringBuilder(24).append(file.length()).append(' ').append(mtime).toString());
  }
}
