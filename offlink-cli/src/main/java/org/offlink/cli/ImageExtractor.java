package org.offlink.cli;

import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.offlink.runtime.FileKinds;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.InspectedObject;
import org.offlink.streamer.inspect.LlvmOffloadBinarySection;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.OffloadBinary;
import org.offlink.streamer.inspect.OffloadBinaryEntry;
import org.offlink.streamer.inspect.PtxChunk;
import org.offlink.streamer.inspect.RegisteredImage;

/**
 * Writes the device images of {@code offlink inspect --extract DIR}: each registered PTX chunk as
 * {@code <binary>.nvptx.<n>.ptx} (its bytes without the trailing NUL, i.e. exactly the PTX text the
 * program registers), each HSACO as {@code <binary>.gcn.hsaco}, and each LLVM OffloadBinary image
 * as {@code <binary>.<triple>.<arch>.<n>.<ext>}. A second image of the same target gets its index
 * after the target word ({@code nvptx1}, {@code gcn1}).
 */
final class ImageExtractor {
  private ImageExtractor() {}

  static List<Path> extract(InspectedObject o, Path dir) throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new FileSystemException(
          dir.toString(),
          null,
          "expected a directory for --extract, found " + FileKinds.describe(dir));
    }
    Files.createDirectories(dir);
    String base = Path.of(o.display()).getFileName().toString().replace('@', '.');
    List<Path> written = new ArrayList<>();
    int nvptx = 0;
    int gcn = 0;
    for (RegisteredImage image : o.images()) {
      if (image instanceof NvptxTargetData n) {
        String word = nvptx++ == 0 ? "nvptx" : "nvptx" + (nvptx - 1);
        for (PtxChunk c : n.chunks()) {
          written.add(write(dir.resolve(base + "." + word + "." + c.index() + ".ptx"), c.text()));
        }
      } else if (image instanceof GcnTargetData g) {
        String word = gcn++ == 0 ? "gcn" : "gcn" + (gcn - 1);
        written.add(write(dir.resolve(base + "." + word + ".hsaco"), g.image()));
      }
    }
    int n = 0;
    for (LlvmOffloadBinarySection s : o.llvmBinaries()) {
      for (OffloadBinary b : s.binaries()) {
        for (OffloadBinaryEntry e : b.entries()) {
          String name =
              String.format(
                  "%s.%s.%s.%d.%s",
                  base,
                  safe(e.triple()),
                  safe(e.arch()),
                  n++,
                  e.imageKind().extension().isEmpty() ? "bin" : e.imageKind().extension());
          written.add(write(dir.resolve(name), s.image(b, e)));
        }
      }
    }
    return written;
  }

  private static String safe(String s) {
    return s.isEmpty() ? "none" : s.replaceAll("[^A-Za-z0-9_+-]", "_");
  }

  private static Path write(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes);
    return file;
  }
}
