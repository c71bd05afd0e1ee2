package org.offlink.cli.replay;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashMap;
import java.util.Map;
import org.offlink.ltowrapper.report.ReportFormat;
import org.offlink.ltowrapper.report.proto.LinkReport;
import org.offlink.ltowrapper.report.proto.ReproducerManifest;
import org.offlink.ltowrapper.reproduce.BundlePaths;

/**
 * Opens a reproducer bundle, a tar or the folder it was extracted to, as input from a stranger.
 *
 * <ul>
 *   <li>{@link #open} (for replay) copies it into a scratch folder first, both forms alike ({@link
 *       BundleCopy}): only regular files and folders under one top folder, with names that stay
 *       inside it, each file written new with mode 0600, so nothing of the bundle is ever
 *       executable there and nothing in the original folder is used afterwards. The manifest is
 *       then checked ({@link ManifestValidator}).
 *   <li>{@link #read} (for explain) only reads: the manifest and the report, from the tar's stream
 *       or the folder's two files (not through links), each within {@link JsonShape}'s bounds.
 * </ul>
 */
public final class BundleReader {
  private BundleReader() {}

  /**
   * An opened bundle: its top folder (a copy in the scratch folder), its manifest, and the name it
   * was given by (for messages).
   */
  public record Bundle(Path root, ReproducerManifest manifest, String name) {
    /** The stored copy of the recorded file {@code path} (which the manifest check accepted). */
    Path file(String path) {
      return BundlePaths.under(root.resolve(BundlePaths.FILES), path);
    }

    /** The link report recorded with the bundle. */
    public Path report() {
      return root.resolve(BundlePaths.REPORT);
    }
  }

  /** A bundle's manifest and report, read without writing anything. */
  public record Contents(ReproducerManifest manifest, LinkReport report) {}

  /**
   * The bundle at {@code source}, copied (a folder) or extracted (a tar) into {@code scratch}
   * first, its manifest checked.
   *
   * @throws IllegalArgumentException one line naming {@code source} when it is not a bundle, or the
   *     manifest entry that is refused
   */
  public static Bundle open(Path source, Path scratch) throws IOException {
    Path root =
        Files.isDirectory(source)
            ? BundleCopy.folder(source, scratch)
            : BundleCopy.tar(source, scratch);
    Path manifest = root.resolve(BundlePaths.MANIFEST);
    if (!Files.isRegularFile(manifest, LinkOption.NOFOLLOW_LINKS)) {
      throw new IllegalArgumentException(
          source + ": expected a reproducer bundle with " + BundlePaths.MANIFEST + ", found none");
    }
    String name = source + ": " + BundlePaths.MANIFEST;
    if (Files.size(manifest) > JsonShape.MAX_CHARS) {
      throw new IllegalArgumentException(
          name + ": expected at most " + (JsonShape.MAX_CHARS >> 20) + " MiB, found more");
    }
    return new Bundle(root, manifest(Files.readAllBytes(manifest), name), source.toString());
  }

  /**
   * The manifest in {@code bytes} (a bundle's {@code manifest.json}), decoded within {@link
   * JsonShape}'s bounds and checked ({@link ManifestValidator}), as {@link #open} reads it.
   *
   * @param name the file, for messages
   * @throws IllegalArgumentException one line naming {@code name}: what was expected, what found
   */
  public static ReproducerManifest manifest(byte[] bytes, String name) {
    ReproducerManifest m = ManifestJson.decode(text(bytes, name), name);
    ManifestValidator.check(m, name);
    return m;
  }

  /**
   * The manifest and report of the bundle at {@code source}, read in place: nothing is written.
   *
   * @throws IllegalArgumentException one line naming {@code source} when it is not a bundle
   */
  public static Contents read(Path source) throws IOException {
    Map<String, byte[]> files = new HashMap<>();
    if (Files.isDirectory(source)) {
      for (String entry : new String[] {BundlePaths.MANIFEST, BundlePaths.REPORT}) {
        files.put(entry, smallFile(source, source.resolve(entry)));
      }
    } else {
      BundleCopy.readTar(
          source,
          (entry, in) -> {
            if (entry.equals(BundlePaths.MANIFEST) || entry.equals(BundlePaths.REPORT)) {
              files.put(entry, small(source, entry, in));
            }
          });
    }
    byte[] manifest = files.get(BundlePaths.MANIFEST);
    byte[] report = files.get(BundlePaths.REPORT);
    if (manifest == null || report == null) {
      throw new IllegalArgumentException(
          source
              + ": expected a reproducer bundle with "
              + BundlePaths.MANIFEST
              + " and "
              + BundlePaths.REPORT
              + ", found "
              + (manifest == null ? "no " + BundlePaths.MANIFEST : "no " + BundlePaths.REPORT));
    }
    String manifestName = source + ": " + BundlePaths.MANIFEST;
    String reportName = source + ": " + BundlePaths.REPORT;
    return new Contents(
        ManifestJson.decode(text(manifest, manifestName), manifestName),
        ReportFiles.parse(report, reportName, ReportFormat.JSON));
  }

  /** A JSON file of the folder {@code source}: a regular file (not a link) within the bound. */
  private static byte[] smallFile(Path source, Path file) throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    }
    if (!a.isRegularFile()) {
      throw new IllegalArgumentException(
          file + ": expected a regular file of the bundle " + source + ", found another kind");
    }
    try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
      return small(source, file.getFileName().toString(), in);
    }
  }

  /** At most {@link JsonShape#MAX_CHARS} bytes of {@code in}; more is refused. */
  private static byte[] small(Path source, String entry, InputStream in) throws IOException {
    byte[] bytes = in.readNBytes(JsonShape.MAX_CHARS + 1);
    if (bytes.length > JsonShape.MAX_CHARS) {
      throw new IllegalArgumentException(
          source
              + ": "
              + entry
              + ": expected at most "
              + (JsonShape.MAX_CHARS >> 20)
              + " MiB, found more");
    }
    return bytes;
  }

  /** {@code bytes} as UTF-8 text; malformed UTF-8 is refused naming the file. */
  static String text(byte[] bytes, String name) {
    if (bytes.length > JsonShape.MAX_CHARS) {
      throw new IllegalArgumentException(
          name + ": expected at most " + (JsonShape.MAX_CHARS >> 20) + " MiB, found more");
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(java.nio.ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw new IllegalArgumentException(name + ": expected UTF-8 text, found other bytes");
    }
  }
}
