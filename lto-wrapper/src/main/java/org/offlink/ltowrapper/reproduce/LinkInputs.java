package org.offlink.ltowrapper.reproduce;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.streamer.ar.OffloadObjectListReader;

/**
 * The files one lto-wrapper run reads, noted before it runs: response files, the objects named on
 * the command line (an archive member's whole archive), the resolution file, the plugin's offload
 * object list and the objects it lists. The list is lto-wrapper's to delete during the run, so its
 * bytes are kept here.
 *
 * @param files absolute path to role, sorted by path (a file met twice keeps its first role)
 * @param snapshots contents read before the run, for files the run deletes
 */
public record LinkInputs(Map<Path, String> files, Map<Path, byte[]> snapshots) {
  /** Role of a response file. */
  public static final String RESPONSE_FILE = "response-file";

  /** Role of a file named on the command line. */
  public static final String INPUT = "input";

  /** Role of the {@code -foffload-objects=} list. */
  public static final String OFFLOAD_LIST = "offload-list";

  /** Role of an object named in the offload list. */
  public static final String OFFLOAD_OBJECT = "offload-object";

  /** Role of the {@code -fresolution=} file. */
  public static final String RESOLUTION = "resolution";

  private static final String OFFLOAD_OBJECTS = "-foffload-objects=";
  private static final String RESOLUTION_OPTION = "-fresolution=";

  /** Copies the maps. */
  public LinkInputs {
    files = Map.copyOf(files);
    snapshots = Map.copyOf(snapshots);
  }

  /**
   * The inputs of a run given {@code rawArgs} (as passed) and {@code expandedArgs} (after {@code
   * @file} expansion) in {@code cwd}. Names that are not readable regular files are not inputs
   * (lto-wrapper passes them on as options).
   */
  public static LinkInputs of(List<String> rawArgs, List<String> expandedArgs, Path cwd) {
    Map<Path, String> files = new TreeMap<>();
    Map<Path, byte[]> snapshots = new TreeMap<>();
    for (String arg : rawArgs) {
      if (arg.startsWith("@")) {
        note(files, cwd, cwd.resolve(arg.substring(1)), RESPONSE_FILE);
      }
    }
    for (String arg : expandedArgs) {
      if (arg.startsWith(RESOLUTION_OPTION)) {
        note(files, cwd, cwd.resolve(arg.substring(RESOLUTION_OPTION.length())), RESOLUTION);
      } else if (arg.startsWith(OFFLOAD_OBJECTS)) {
        Path list = cwd.resolve(arg.substring(OFFLOAD_OBJECTS.length()));
        if (note(files, cwd, list, OFFLOAD_LIST)) {
          offloadList(list, cwd, files, snapshots);
        }
      } else if (!arg.startsWith("-")) {
        note(files, cwd, InputFile.parse(arg, cwd).file(), INPUT);
      }
    }
    return new LinkInputs(files, snapshots);
  }

  private static void offloadList(
      Path list, Path cwd, Map<Path, String> files, Map<Path, byte[]> snapshots) {
    try {
      snapshots.put(cwd.resolve(list).normalize(), Files.readAllBytes(list));
      for (String entry : OffloadObjectListReader.read(list).entries()) {
        note(files, cwd, InputFile.parse(entry, cwd).file(), OFFLOAD_OBJECT);
      }
    } catch (IOException malformed) {
      // lto-wrapper reports a bad list itself; the bundle keeps the bytes it had
    }
  }

  private static boolean note(Map<Path, String> files, Path cwd, Path file, String role) {
    Path p = cwd.resolve(file).normalize();
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      return false;
    }
    files.putIfAbsent(p, role);
    return true;
  }

  /** The bytes to store for {@code file}: the snapshot if one was taken. */
  public Optional<byte[]> snapshot(Path file) {
    return Optional.ofNullable(snapshots.get(file));
  }

  /** The files in path order. */
  public List<Path> paths() {
    return new ArrayList<>(new TreeMap<>(files).keySet());
  }
}
