package org.offlink.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.inspect.GcnKernelEntry;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.HostFunction;
import org.offlink.streamer.inspect.HostVariable;
import org.offlink.streamer.inspect.HsacoTarget;
import org.offlink.streamer.inspect.InspectedHostTables;
import org.offlink.streamer.inspect.InspectedObject;
import org.offlink.streamer.inspect.IrSection;
import org.offlink.streamer.inspect.LayoutFields;
import org.offlink.streamer.inspect.LlvmOffloadBinarySection;
import org.offlink.streamer.inspect.LlvmOffloadEntry;
import org.offlink.streamer.inspect.NvptxFunctionEntry;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.OffloadBinary;
import org.offlink.streamer.inspect.OffloadBinaryEntry;
import org.offlink.streamer.inspect.PtxChunk;
import org.offlink.streamer.inspect.RegisteredImage;

/** The human-readable form of {@code offlink inspect}. */
final class InspectionText {
  private final PrintWriter out;

  InspectionText(PrintWriter out) {
    this.out = out;
  }

  void print(InspectedObject o) throws MalformedObjectException {
    out.println(
        o.display() + (o.member().isEmpty() ? "" : " (" + o.member() + ")") + ": " + o.kind());
    if (o.kind().equals("object")) {
      sections(o);
    }
    if (o.hostTables().isPresent()) {
      host(o.hostTables().get());
      if (o.images().isEmpty()) {
        out.println("  no registered GCC offload images");
      }
      for (RegisteredImage image : o.images()) {
        image(image, Path.of(o.display()));
      }
    }
    for (LlvmOffloadEntry e : o.llvmEntries()) {
      out.printf(
          "  llvm entry %s size=%d flags=0x%x (%s)%n", e.name(), e.size(), e.flags(), e.section());
    }
    for (LlvmOffloadBinarySection s : o.llvmBinaries()) {
      for (OffloadBinary b : s.binaries()) {
        out.printf(
            "  %s: OffloadBinary v%d, %d bytes%s%n",
            s.name(), b.version(), b.size(), b.compressed() ? ", compressed" : "");
        for (OffloadBinaryEntry e : b.entries()) {
          out.printf(
              "    %s %s triple=%s arch=%s image=%d bytes%n",
              e.offloadKindName(),
              e.imageKind().name().toLowerCase(),
              e.triple(),
              e.arch(),
              e.imageSize());
        }
      }
    }
  }

  private void sections(InspectedObject o) {
    if (o.irSections().isEmpty()) {
      out.println("  (no offload or LTO sections)");
    }
    for (IrSection s : o.irSections()) {
      String entries = s.entries() >= 0 ? ", " + s.entries() + " entries" : "";
      out.printf("  %s %d bytes (%s %s%s)%n", s.name(), s.size(), s.stream(), s.kind(), entries);
    }
  }

  private void host(InspectedHostTables t) {
    out.printf(
        "  host tables: %d functions, %d variables%s%n",
        t.functions().size(),
        t.variables().size(),
        t.indirectFunctions().isEmpty()
            ? ""
            : ", " + t.indirectFunctions().size() + " indirect functions");
    for (HostFunction f : t.indirectFunctions()) {
      out.printf(
          "    indirect function %s%n",
          f.name().isEmpty() ? InspectionJson.hex(f.address()) : f.name());
    }
    for (HostFunction f : t.functions()) {
      out.println(
          "    function " + (f.name().isEmpty() ? InspectionJson.hex(f.address()) : f.name()));
    }
    for (HostVariable v : t.variables()) {
      out.printf(
          "    variable %s size=%d%s%n",
          v.name().isEmpty() ? InspectionJson.hex(v.address()) : v.name(),
          v.size(),
          v.link() ? " (declare target link)" : "");
    }
  }

  private void image(RegisteredImage image, Path file) throws MalformedObjectException {
    LayoutFields fields = image.fields();
    String layout = fields.layout().description() + " layout";
    String version =
        image.version().isPresent()
            ? "version " + InspectionJson.hex(image.version().getAsInt()) + ", " + layout
            : layout;
    if (fields.requiresMask().isPresent()) {
      version += ", requires " + InspectionJson.hex(fields.requiresMask().getAsLong());
    }
    if (fields.indirectFunctions().isPresent()) {
      version += ", " + fields.indirectFunctions().getAsInt() + " indirect functions";
    }
    if (image instanceof NvptxTargetData n) {
      out.printf(
          "  image %s (%s): %d PTX chunks, %d bytes, %d functions, %d variables%n",
          n.target(),
          version,
          n.chunks().size(),
          n.imageSize(),
          n.functions().size(),
          n.variables().size());
      for (PtxChunk c : n.chunks()) {
        out.printf(
            "    ptx[%d] %d bytes sha256=%s .version %s .target %s%n",
            c.index(), c.size(), c.sha256(), c.ptxVersion().orElse("?"), c.ptxTarget().orElse("?"));
      }
      for (NvptxFunctionEntry f : n.functions()) {
        out.printf("    function %s dims=%s%n", f.name(), dims(f.dims()));
      }
      for (String v : n.variables()) {
        out.println("    variable " + v);
      }
    } else if (image instanceof GcnTargetData g) {
      HsacoTarget t = HsacoTarget.of(g.image(), file);
      out.printf(
          "  image %s (%s): HSACO %d bytes sha256=%s%n",
          g.target(), version, g.image().length, g.sha256());
      out.printf(
          "    gpu %s e_flags=0x%x xnack=%s sram-ecc=%s%n",
          t.processor(),
          t.flags(),
          t.xnack().name().toLowerCase(),
          t.sramEcc().name().toLowerCase());
      for (GcnKernelEntry k : g.kernels()) {
        out.printf(
            "    kernel %s dims=%s sgpr=%d vgpr=%d%s%n",
            k.name(),
            dims(k.dims()),
            k.sgprCount(),
            k.vgprCount(),
            k.isConstructorTable() ? " (constructor table)" : "");
      }
      out.printf("    variables: %d%n", g.variableCount());
    }
  }

  private static String dims(java.util.List<Integer> dims) {
    return dims.get(0) + "," + dims.get(1) + "," + dims.get(2);
  }
}
