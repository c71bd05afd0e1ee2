package org.offlink.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.inspect.GcnKernelEntry;
import org.offlink.streamer.inspect.GcnTargetData;
import org.offlink.streamer.inspect.HostFunction;
import org.offlink.streamer.inspect.HostVariable;
import org.offlink.streamer.inspect.HsacoTarget;
import org.offlink.streamer.inspect.InspectedHostTables;
import org.offlink.streamer.inspect.InspectedObject;
import org.offlink.streamer.inspect.IrSection;
import org.offlink.streamer.inspect.LlvmOffloadBinarySection;
import org.offlink.streamer.inspect.LlvmOffloadEntry;
import org.offlink.streamer.inspect.NvptxFunctionEntry;
import org.offlink.streamer.inspect.NvptxTargetData;
import org.offlink.streamer.inspect.OffloadBinary;
import org.offlink.streamer.inspect.OffloadBinaryEntry;
import org.offlink.streamer.inspect.PtxChunk;
import org.offlink.streamer.inspect.RegisteredImage;

/**
 * Turns an {@link InspectedObject} into the JSON-ready maps of {@code offlink inspect --json}; the
 * text output is rendered from the same maps by {@link InspectionText}, so both say the same.
 */
final class InspectionJson {
  private InspectionJson() {}

  static Map<String, Object> of(InspectedObject o) throws MalformedObjectException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("object", o.display());
    if (!o.member().isEmpty()) {
      m.put("member", o.member());
    }
    m.put("kind", o.kind());
    if (o.kind().equals("object")) {
      m.put("sections", o.irSections().stream().map(InspectionJson::section).toList());
    }
    o.hostTables().ifPresent(t -> m.put("host", host(t)));
    List<Object> images = new ArrayList<>();
    for (RegisteredImage image : o.images()) {
      images.add(image(image, Path.of(o.display())));
    }
    if (o.hostTables().isPresent()) {
      m.put("images", images);
    }
    if (!o.llvmEntries().isEmpty()) {
      m.put("llvm_entries", o.llvmEntries().stream().map(InspectionJson::entry).toList());
    }
    if (!o.llvmBinaries().isEmpty()) {
      m.put("llvm_binaries", o.llvmBinaries().stream().map(InspectionJson::binaries).toList());
    }
    return m;
  }

  private static Map<String, Object> section(IrSection s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", s.name());
    m.put("size", s.size());
    m.put("stream", s.stream());
    m.put("kind", s.kind());
    if (s.entries() >= 0) {
      m.put("entries", s.entries());
    }
    return m;
  }

  private static Map<String, Object> host(InspectedHostTables t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("functions", t.functions().stream().map(InspectionJson::function).toList());
    m.put("variables", t.variables().stream().map(InspectionJson::variable).toList());
    if (!t.indirectFunctions().isEmpty()) {
      m.put(
          "indirect_functions",
          t.indirectFunctions().stream().map(InspectionJson::function).toList());
    }
    return m;
  }

  private static Object function(HostFunction f) {
    return f.name().isEmpty() ? hex(f.address()) : f.name();
  }

  private static Map<String, Object> variable(HostVariable v) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", v.name().isEmpty() ? hex(v.address()) : v.name());
    m.put("size", v.size());
    m.put("link", v.link());
    return m;
  }

  static Map<String, Object> image(RegisteredImage image, Path file)
      throws MalformedObjectException {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("target", image.target());
    m.put("device_type", image.deviceType());
    m.put(
        "version",
        image.version().isPresent()
            ? hex(image.version().getAsInt())
            : "unknown (" + image.fields().layout().description() + " layout)");
    m.put("layout", image.fields().layout().description());
    image.fields().requiresMask().ifPresent(mask -> m.put("requires_mask", hex(mask)));
    image.fields().indirectFunctions().ifPresent(n -> m.put("indirect_functions", n));
    if (image instanceof NvptxTargetData n) {
      m.put("functions", n.functions().stream().map(InspectionJson::nvptxFunction).toList());
      m.put("variables", n.variables());
      m.put("image_size", n.imageSize());
      m.put("ptx", n.chunks().stream().map(InspectionJson::chunk).toList());
    } else if (image instanceof GcnTargetData g) {
      m.put("functions", g.offloadKernels().stream().map(InspectionJson::kernel).toList());
      m.put("kernels", g.kernels().size());
      m.put("variable_count", g.variableCount());
      m.put("image_size", g.image().length);
      m.put("sha256", g.sha256());
      HsacoTarget t = HsacoTarget.of(g.image(), file);
      m.put("gpu", t.processor());
      m.put("e_flags", hex(t.flags()));
      m.put("xnack", t.xnack().name().toLowerCase());
      m.put("sram_ecc", t.sramEcc().name().toLowerCase());
    }
    return m;
  }

  private static Map<String, Object> nvptxFunction(NvptxFunctionEntry f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", f.name());
    m.put("dims", f.dims());
    return m;
  }

  private static Map<String, Object> kernel(GcnKernelEntry k) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("name", k.name());
    m.put("dims", k.dims());
    m.put("sgpr", k.sgprCount());
    m.put("vgpr", k.vgprCount());
    return m;
  }

  private static Map<String, Object> chunk(PtxChunk c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", c.index());
    m.put("size", c.size());
    m.put("sha256", c.sha256());
    m.put("version", c.ptxVersion().orElse(""));
    m.put("target", c.ptxTarget().orElse(""));
    return m;
  }

  private static Map<String, Object> entry(LlvmOffloadEntry e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("section", e.section());
    m.put("name", e.name());
    m.put("size", e.size());
    m.put("flags", e.flags());
    if (e.kind() >= 0) {
      m.put("kind", e.kind());
    }
    return m;
  }

  private static Map<String, Object> binaries(LlvmOffloadBinarySection s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("section", s.name());
    List<Object> list = new ArrayList<>();
    for (OffloadBinary b : s.binaries()) {
      Map<String, Object> one = new LinkedHashMap<>();
      one.put("offset", b.offset());
      one.put("version", b.version());
      one.put("size", b.size());
      one.put("compressed", b.compressed());
      List<Object> entries = new ArrayList<>();
      for (OffloadBinaryEntry e : b.entries()) {
        Map<String, Object> em = new LinkedHashMap<>();
        em.put("image_kind", e.imageKind().name().toLowerCase());
        em.put("offload_kind", e.offloadKindName());
        em.put("triple", e.triple());
        em.put("arch", e.arch());
        em.put("image_size", e.imageSize());
        em.put("strings", e.strings());
        entries.add(em);
      }
      one.put("entries", entries);
      list.add(one);
    }
    m.put("binaries", list);
    return m;
  }

  static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }
}
