package org.offlink.bridge.nvptx;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The nvptx-tools {@code nvptx-none-ld} programs offlink links PTX as, by what they do: each reads
 * its marker lines, archives and command line by rules of its own ({@link
 * NvptxLinkerStandIn#KNOWN_LINKERS} names the binaries).
 */
enum NvptxLdVersion {
  /** nvptx-tools 0.20220610 (Debian 12, GCC 12): {@link NvptxLinker}. */
  TOOLS_2022 {
    @Override
    PtxMarkers scan(byte[] text, int start, int end) {
      return PtxMarkers.scan(text, start, end);
    }

    @Override
    boolean emptyArchiveValid() {
      return false;
    }

    @Override
    LinkedPtx link(
        List<String> args, Path cwd, Map<String, byte[]> inputs, NvptxLinker.Archives archives)
        throws IOException, NvptxLinker.Unsupported {
      NvptxLinker.Arguments a = NvptxLinker.Arguments.parse(args);
      return new LinkedPtx(a.output(), NvptxLinker.link(a, cwd, inputs, archives));
    }
  },
  /**
   * nvptx-tools 0.20240810 (Debian 13, GCC 13 and 14) and 0.20260402 (sid, GCC 15 and 16), whose
   * {@code nvptx-ld.cc} differ in a constant's name only: {@link NvptxLinker2024}.
   */
  TOOLS_2024 {
    @Override
    PtxMarkers scan(byte[] text, int start, int end) throws NvptxLinker.Unsupported {
      return PtxMarkers.scan2024(text, start, end);
    }

    @Override
    boolean emptyArchiveValid() {
      return true;
    }

    @Override
    LinkedPtx link(
        List<String> args, Path cwd, Map<String, byte[]> inputs, NvptxLinker.Archives archives)
        throws IOException, NvptxLinker.Unsupported {
      NvptxLdCommandLine a = NvptxLdCommandLine.parse(args, true);
      return new LinkedPtx(a.output(), NvptxLinker2024.link(a, cwd, inputs, archives));
    }
  };

  /** The marker lines of {@code text[start, end)} as this program reads them. */
  abstract PtxMarkers scan(byte[] text, int start, int end) throws NvptxLinker.Unsupported;

  /** Whether an archive of the magic alone is one (of no members). */
  abstract boolean emptyArchiveValid();

  /**
   * Links as this program would for {@code args} (its arguments, without its name) in {@code cwd};
   * an input named in {@code inputs} has those contents, any other is read; libraries come from
   * {@code archives}, read by this version's rules.
   */
  abstract LinkedPtx link(
      List<String> args, Path cwd, Map<String, byte[]> inputs, NvptxLinker.Archives archives)
      throws IOException, NvptxLinker.Unsupported;

  /** What a link gives: the output file's name (as the program would open it) and its bytes. */
  record LinkedPtx(String output, byte[] ptx) {}
}
