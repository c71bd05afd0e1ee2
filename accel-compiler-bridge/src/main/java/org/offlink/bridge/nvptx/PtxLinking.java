package org.offlink.bridge.nvptx;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What an nvptx mkoffload needs to link the PTX in-process ({@link NvptxLinkerStandIn}).
 *
 * @param standIn offlink's {@code libexec/offlink/accel/nvptx-none/linker} folder, with its {@code
 *     real-ld}
 * @param archives the link server's library archives ({@link PtxArchives#NONE}: none)
 */
public record PtxLinking(Optional<Path> standIn, PtxArchives archives) {
  /** Never in-process: nvptx-tools' linker always runs. */
  public static final PtxLinking NONE = new PtxLinking(Optional.empty(), PtxArchives.NONE);

  /** Checks the fields. */
  public PtxLinking {
    Objects.requireNonNull(standIn, "standIn");
    Objects.requireNonNull(archives, "archives");
  }

  /** The linking of an mkoffload installed in {@code toolFolder} ({@code .../accel/nvptx-none}). */
  public static PtxLinking beside(Path toolFolder, PtxArchives archives) {
    return new PtxLinking(Optional.of(toolFolder.resolve("linker")), archives);
  }
}
