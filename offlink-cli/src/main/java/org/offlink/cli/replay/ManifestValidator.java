package org.offlink.cli.replay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.offlink.ltowrapper.report.ReportEnvironment;
import org.offlink.ltowrapper.report.proto.BundledFile;
import org.offlink.ltowrapper.report.proto.EnvironmentVariable;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.reproduce.BundlePaths;
import org.offlink.ltowrapper.reproduce.LinkInputs;

/**
 * Checks a bundle's manifest before anything is placed or run: a bundle is input from a stranger.
 * Every recorded path is absolute and stays inside the scratch root it will be placed under after
 * normalisation ({@link BundlePaths#inside}); the variables are ones offlink's writer records
 * (never {@code LD_*} or another loader variable: the writer records none of them); digests and
 * roles have the writer's form; no string holds a NUL. A failure is one line naming the manifest
 * and the entry.
 */
final class ManifestValidator {
  private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
  private static final Set<String> ROLES =
      Set.of(
          LinkInputs.INPUT,
          LinkInputs.OFFLOAD_LIST,
          LinkInputs.OFFLOAD_OBJECT,
          LinkInputs.RESPONSE_FILE,
          LinkInputs.RESOLUTION);

  private final String name;

  private ManifestValidator(String name) {
    this.name = name;
  }

  /**
   * Checks {@code m}.
   *
   * @param name the manifest, for messages ({@code BUNDLE: manifest.json})
   * @throws IllegalArgumentException one line naming the entry, what was expected and found
   */
  static void check(ReproducerManifest m, String name) {
    new ManifestValidator(name).check(m);
  }

  private void check(ReproducerManifest m) {
    if (m.getSchemaVersion() != 1) {
      throw refuse("schema_version", "1", String.valueOf(m.getSchemaVersion()));
    }
    insideRoot("working_directory", m.getWorkingDirectory(), true);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < m.getFilesCount(); i++) {
      file("files[" + i + "]", m.getFiles(i), seen);
    }
    libexec(m);
    Set<String> names = new HashSet<>();
    for (int i = 0; i < m.getEnvironmentCount(); i++) {
      variable("environment[" + i + "]", m.getEnvironment(i), names);
    }
    noNul("expanded_args", m.getExpandedArgsList());
  }

  private void file(String field, BundledFile f, Set<String> seen) {
    String path = insideRoot(field + ".path", f.getPath(), false);
    if (!seen.add(path)) {
      throw refuse(field + ".path", "each file once", OneLine.quoted(f.getPath()) + " again");
    }
    if (!SHA256.matcher(f.getSha256()).matches()) {
      throw refuse(
          field + ".sha256", "64 lower-case hexadecimal digits", OneLine.quoted(f.getSha256()));
    }
    if (!ROLES.contains(f.getRole())) {
      throw refuse(
          field + ".role", "one of " + new java.util.TreeSet<>(ROLES), OneLine.quoted(f.getRole()));
    }
  }

  /**
   * The recorded offlink folder is replaced by this tree's wherever a tool is looked up: it must be
   * absolute and hold no recorded input, so that no data path can be made to name this tree's
   * files.
   */
  private void libexec(ReproducerManifest m) {
    String dir = m.getOfflinkLibexec();
    if (dir.isEmpty()) {
      return;
    }
    String normal = insideRoot("offlink_libexec", dir, false);
    List<String> data = new ArrayList<>();
    data.add(m.getWorkingDirectory());
    m.getFilesList().forEach(f -> data.add(f.getPath()));
    for (String d : data) {
      String p = BundlePaths.inside(d).orElseThrow().toString();
      if (p.equals(normal) || p.startsWith(normal + "/")) {
        throw refuse(
            "offlink_libexec",
            "a folder holding none of the recorded files",
            OneLine.quoted(dir) + ", which holds " + OneLine.quoted(d));
      }
    }
  }

  private void variable(String field, EnvironmentVariable v, Set<String> names) {
    if (!ReportEnvironment.recorded(v.getName())) {
      throw refuse(
          field,
          "one of the variables offlink records (" + ReportEnvironment.describe() + ")",
          OneLine.quoted(v.getName()));
    }
    if (!names.add(v.getName())) {
      throw refuse(field, "each variable once", OneLine.quoted(v.getName()) + " again");
    }
    if (v.getValue().indexOf('\0') >= 0) {
      throw refuse(field + ".value", "text without NUL characters", "a NUL");
    }
  }

  private void noNul(String field, List<String> words) {
    for (int i = 0; i < words.size(); i++) {
      if (words.get(i).indexOf('\0') >= 0) {
        throw refuse(field + "[" + i + "]", "text without NUL characters", "a NUL");
      }
    }
  }

  /** The normalised relative form of the absolute {@code path}; refuses it when it leaves. */
  private String insideRoot(String field, String path, boolean rootAllowed) {
    String expected = "an absolute path that stays inside the bundle's root";
    if (path.indexOf('\0') >= 0) {
      throw refuse(field, expected, "a path with a NUL character");
    }
    Optional<Path> rel = BundlePaths.inside(path);
    if (rel.isEmpty() || (!rootAllowed && rel.get().toString().isEmpty())) {
      throw refuse(field, expected, OneLine.quoted(path));
    }
    return rel.get().toString();
  }

  private IllegalArgumentException refuse(String field, String expected, String found) {
    return new IllegalArgumentException(
        name + ": " + field + ": expected " + expected + ", found " + found);
  }
}
