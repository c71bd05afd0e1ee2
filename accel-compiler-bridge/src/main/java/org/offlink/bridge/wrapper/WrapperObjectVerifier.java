package org.offlink.bridge.wrapper;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.offlink.bridge.gcc.GccRelease;
import org.offlink.bridge.image.GcnDataLayout;
import org.offlink.bridge.image.ImageCounts;
import org.offlink.bridge.image.NvptxImage;
import org.offlink.bridge.tool.OffloadTarget;
import org.offlink.runtime.EnumLookup;
import org.offlink.streamer.MalformedObjectException;
import org.offlink.streamer.elf.ElfFile;
import org.offlink.streamer.elf.ElfReader;
import org.offlink.streamer.elf.ElfRelocation;
import org.offlink.streamer.elf.ElfSection;
import org.offlink.streamer.elf.ElfSymbol;
import org.offlink.streamer.elf.SectionType;
import org.offlink.streamer.elf.SymbolType;

/**
 * Decides whether an object is exactly a wrapper object offlink's ELF writer makes ({@link
 * WrapperObjects#nvptxElf}, {@link WrapperObjects#gcnElf}) for one target, before a cache links it
 * into a user's program, and returns the counts it registers.
 *
 * <p>The check is a round trip, not a list of things to look for: the object's data sections
 * ({@code .rodata}, {@code .data.rel.ro.local}, gcn's {@code .data}), their named objects and
 * pointers, the registration version and device are read back and handed to the writer's own
 * assembler, and the result must equal the object byte for byte. So everything the writer decides
 * (the header, the section set and order, {@code .text} with its two 42-byte functions, one {@code
 * .init_array} and one {@code .fini_array} entry, the three undefined symbols and no defined global
 * one, every relocation, the notes, no executable stack) is checked without being listed here; what
 * the object may choose is only what the writer takes as input: data bytes, local object names, and
 * pointers from one data section into another. An object linked with something else ({@code ld -r
 * wrapper.o other.o}: another constructor, another {@code .text}) or compiled by a C compiler is
 * refused. Then the registration itself must be one the writer makes: the target's device number, a
 * version of a GCC release offlink knows ({@link GccRelease}), the data object of that release's
 * layout, and the counts read from it.
 *
 * <p>What cannot be checked this way is the device code inside the data: a cache protects it by who
 * may write entries (the local folder's owner, the remote cache's writers), not by this check.
 */
public final class WrapperObjectVerifier {
  /** The name the object goes by in messages from the ELF reader (it has no file). */
  private static final Path NAME = Path.of("wrapper object");

  /** The largest alignment {@link DataBlock#beginObject} gives an object. */
  private static final long MAX_ALIGNMENT = 32;

  private static final int DEVICE_AT = 16;
  private static final int VERSION_AT = 28;
  private static final int KERNEL_ENTRY = 32;

  private WrapperObjectVerifier() {}

  /**
   * The counts {@code object} registers, when it is a wrapper object offlink's writer makes for
   * {@code target}.
   *
   * @throws WrapperMismatchException naming the first thing that differs
   */
  public static ImageCounts verify(byte[] object, OffloadTarget target)
      throws WrapperMismatchException {
    try (ElfFile elf = ElfReader.read(NAME, object)) {
      return verify(elf, object, target);
    } catch (MalformedObjectException e) {
      throw new WrapperMismatchException("not a well-formed ELF object: " + e.detail());
    } catch (IOException e) {
      // An object in memory has no other I/O to fail.
      throw new WrapperMismatchException("not readable as ELF: " + e.getMessage());
    } catch (IllegalArgumentException e) {
      // The writer refused what was read back (a symbol or relocation outside its section).
      throw new WrapperMismatchException("not what offlink's writer makes: " + e.getMessage());
    }
  }

  private static ImageCounts verify(ElfFile elf, byte[] object, OffloadTarget target)
      throws IOException, WrapperMismatchException {
    Map<Integer, DataBlock> bySection = new HashMap<>();
    List<ElfSection> dataSections = new ArrayList<>();
    List<DataBlock> blocks = dataBlocks(elf, target, bySection, dataSections);
    List<ElfSymbol> symbols = elf.symbols();
    for (ElfSymbol s : symbols) {
      DataBlock b = bySection.get(s.sectionIndex());
      if (b != null && s.type() == SymbolType.OBJECT) {
        b.place(new DataBlock.Placement(s.name(), s.value(), s.size()));
      }
    }
    for (DataBlock b : blocks) {
      Optional<ElfSection> rela = elf.section(".rela" + b.sectionName());
      if (rela.isPresent()) {
        for (ElfRelocation r : elf.relocations(rela.get())) {
          DataBlock to = blockOf(symbols, r.symbolIndex(), bySection);
          b.point(new DataBlock.Pointer(r.offset(), to, r.addend()));
        }
      }
    }
    ByteBuffer code = ByteBuffer.wrap(text(elf)).order(ByteOrder.LITTLE_ENDIAN);
    int device = code.getInt(DEVICE_AT);
    int version = code.getInt(VERSION_AT);
    ElfRelocation first = firstTextRelocation(elf);
    DataBlock data = blockOf(symbols, first.symbolIndex(), bySection);
    long dataAt = first.addend() + 4;
    byte[] again = WrapperElfAssembler.assemble(blocks, data, dataAt, version, device);
    if (!same(again, object, dataSections)) {
      throw new WrapperMismatchException(
          "not what offlink's writer makes of its contents (a section, symbol, relocation or"
              + " constructor of its own)");
    }
    return counts(target, device, version, data, dataAt, blocks);
  }

  /**
   * Whether {@code again} equals {@code object}. The data sections' bytes in {@code again} are
   * copies of {@code object}'s, so where the writer put each at the offset it has in {@code object}
   * they are the same bytes there, and only what lies around them is compared: a device image is
   * most of an object, and comparing it again costs a cold JVM milliseconds on every cache hit.
   */
  private static boolean same(byte[] again, byte[] object, List<ElfSection> data)
      throws IOException {
    if (again.length != object.length) {
      return false;
    }
    List<ElfSection> placed = new ArrayList<>();
    try (ElfFile rebuilt = ElfReader.read(NAME, again)) {
      for (ElfSection s : data) {
        Optional<ElfSection> r = rebuilt.section(s.name());
        if (r.isEmpty() || r.get().offset() != s.offset() || r.get().size() != s.size()) {
          return Arrays.equals(again, object);
        }
        placed.add(r.get());
      }
    }
    // The writer lays sections out one after the other, in declaration order, without overlap.
    int at = 0;
    for (ElfSection s : placed) {
      int from = (int) s.offset();
      if (from < at) {
        return Arrays.equals(again, object); // not in that order after all: compare it all
      }
      if (!Arrays.equals(again, at, from, object, at, from)) {
        return false;
      }
      at = from + (int) s.size();
    }
    return Arrays.equals(again, at, again.length, object, at, object.length);
  }

  /** The target's data sections, in the order the writer lays them out. */
  private static List<DataBlock> dataBlocks(
      ElfFile elf, OffloadTarget target, Map<Integer, DataBlock> bySection, List<ElfSection> found)
      throws IOException, WrapperMismatchException {
    List<String> names =
        target == OffloadTarget.NVPTX
            ? List.of(".rodata", ".data.rel.ro.local")
            : List.of(".data", ".rodata", ".data.rel.ro.local");
    List<DataBlock> blocks = new ArrayList<>();
    for (String name : names) {
      Optional<ElfSection> named = elf.section(name);
      if (named.isEmpty()) {
        throw new WrapperMismatchException("no " + name + " section");
      }
      ElfSection s = named.get();
      long align = s.addralign();
      if (s.type() != SectionType.PROGBITS || align > MAX_ALIGNMENT || Long.bitCount(align) > 1) {
        throw new WrapperMismatchException(
            name
                + ": expected PROGBITS data aligned to at most 32, found "
                + s.type()
                + "/"
                + align);
      }
      DataBlock b =
          name.equals(imageSection(target))
              ? reserved(elf, s, Math.max(1, align))
              : DataBlock.restored(name, elf.readSectionData(s), Math.max(1, align));
      blocks.add(b);
      bySection.put(s.index(), b);
      found.add(s);
    }
    return blocks;
  }

  /**
   * The section holding the device image (nvptx: the PTX, gcn: the HSACO), most of a wrapper
   * object: its bytes are data the check neither reads nor copies, only where they lie.
   */
  private static String imageSection(OffloadTarget target) {
    return target == OffloadTarget.NVPTX ? ".rodata" : ".data";
  }

  private static DataBlock reserved(ElfFile elf, ElfSection s, long align)
      throws WrapperMismatchException {
    if (s.offset() > elf.length() || s.size() > elf.length() - s.offset()) {
      throw new WrapperMismatchException(
          s.name() + ": expected its " + s.size() + " bytes inside the object, found them past it");
    }
    return DataBlock.reserved(s.name(), (int) s.size(), align);
  }

  /** The data block whose section symbol {@code index} is; anything else is refused. */
  private static DataBlock blockOf(
      List<ElfSymbol> symbols, long index, Map<Integer, DataBlock> bySection)
      throws WrapperMismatchException {
    DataBlock b = null;
    if (index > 0 && index < symbols.size()) {
      ElfSymbol s = symbols.get((int) index);
      b = s.type() == SymbolType.SECTION ? bySection.get(s.sectionIndex()) : null;
    }
    if (b == null) {
      throw new WrapperMismatchException(
          "a relocation against symbol " + index + ", not a data section of the wrapper");
    }
    return b;
  }

  private static byte[] text(ElfFile elf) throws IOException, WrapperMismatchException {
    ElfSection text =
        elf.section(".text").orElseThrow(() -> new WrapperMismatchException("no .text section"));
    if (text.type() != SectionType.PROGBITS || text.size() != 2L * RegistrationCode.SIZE) {
      throw new WrapperMismatchException(
          ".text: expected the "
              + 2 * RegistrationCode.SIZE
              + " bytes of the registration functions, found "
              + text.size()
              + " bytes of "
              + text.type());
    }
    return elf.readSectionData(text);
  }

  private static ElfRelocation firstTextRelocation(ElfFile elf)
      throws IOException, WrapperMismatchException {
    Optional<ElfSection> rela = elf.section(".rela.text");
    List<ElfRelocation> all = rela.isPresent() ? elf.relocations(rela.get()) : List.of();
    if (all.isEmpty()) {
      throw new WrapperMismatchException("no relocation of .text to the registration data");
    }
    return all.get(0);
  }

  /** The counts of a wrapper the writer made; its registration checked against the releases. */
  private static ImageCounts counts(
      OffloadTarget target,
      int device,
      int version,
      DataBlock data,
      long dataAt,
      List<DataBlock> blocks)
      throws WrapperMismatchException {
    int expectedDevice =
        target == OffloadTarget.NVPTX ? NvptxWrapperElf.DEVICE : GcnWrapperElf.DEVICE;
    if (device != expectedDevice) {
      throw new WrapperMismatchException(
          "registers device " + device + ", not " + target.triplet() + "'s " + expectedDevice);
    }
    GccRelease.Layout layout = layoutOf(target, version);
    String name;
    long size;
    if (target == OffloadTarget.NVPTX) {
      name = new NvptxImage.Layout(version, layout.requiresMask(), false).dataName();
      size = NvptxWrapperElf.dataSize(layout.requiresMask());
    } else {
      name = gcnDataName(version);
      size = GcnWrapperElf.dataSize(layout.requiresMask());
    }
    if (!data.objects().contains(new DataBlock.Placement(name, dataAt, size))) {
      throw new WrapperMismatchException(
          "registers data at " + data.sectionName() + "+" + dataAt + ", not its " + name);
    }
    long base = dataAt + (layout.requiresMask() ? 8 : 0);
    if (target == OffloadTarget.NVPTX) {
      return new ImageCounts(u32(data, base + 40), u32(data, base + 24));
    }
    long kernels = u32(data, base + 8);
    long variables = u32(data, base + (layout.indirectFunctions() ? 28 : 24));
    return new ImageCounts(hostKernels(data, base + 16, kernels), variables);
  }

  private static String gcnDataName(int version) {
    // layoutOf knew the version: every release's gcn layout has a GcnDataLayout
    return EnumLookup.byCode(GcnDataLayout.values(), GcnDataLayout::registerVersion, version)
        .map(GcnDataLayout::dataName)
        .orElse("?");
  }

  private static GccRelease.Layout layoutOf(OffloadTarget target, int version)
      throws WrapperMismatchException {
    for (int major : GccRelease.knownMajors()) {
      GccRelease r = GccRelease.of(major);
      int v = target == OffloadTarget.NVPTX ? r.nvptx().version() : r.gcn().version();
      if (v == version) {
        return r.layout();
      }
    }
    throw new WrapperMismatchException(
        "registration version 0x"
            + Integer.toHexString(version)
            + " of no GCC release offlink knows");
  }

  /**
   * The gcn kernels that map host functions: those of the {@code kernels}-entry table the pointer
   * at {@code tableField} names, less {@code _init_array} and {@code _fini_array} (as {@link
   * ImageCounts#of(org.offlink.bridge.image.GcnImage)} counts them).
   */
  private static long hostKernels(DataBlock data, long tableField, long kernels)
      throws WrapperMismatchException {
    DataBlock.Pointer table = pointerAt(data, tableField);
    DataBlock t = table.target();
    if (table.addend() < 0 || kernels * KERNEL_ENTRY > t.size() - table.addend()) {
      throw new WrapperMismatchException(kernels + " kernels do not fit their table");
    }
    long count = 0;
    for (long k = 0; k < kernels; k++) {
      DataBlock.Pointer name = pointerAt(t, table.addend() + k * KERNEL_ENTRY);
      String n = string(name.target(), name.addend());
      if (!n.equals("_init_array") && !n.equals("_fini_array")) {
        count++;
      }
    }
    return count;
  }

  private static DataBlock.Pointer pointerAt(DataBlock block, long offset)
      throws WrapperMismatchException {
    for (DataBlock.Pointer p : block.pointers()) {
      if (p.offset() == offset) {
        return p;
      }
    }
    throw new WrapperMismatchException(
        "no pointer at " + block.sectionName() + "+" + offset + " where the layout has one");
  }

  /** The NUL-terminated name at {@code at}, as far as it can tell two names apart. */
  private static String string(DataBlock block, long at) throws WrapperMismatchException {
    byte[] bytes = block.buffer();
    if (bytes == null || at < 0 || at >= block.size()) {
      throw new WrapperMismatchException("a kernel name outside " + block.sectionName());
    }
    int end = (int) at;
    while (end < block.size() && bytes[end] != 0 && end - at < 16) {
      end++;
    }
    return new String(bytes, (int) at, end - (int) at, java.nio.charset.StandardCharsets.ISO_8859_1)
        + (end < block.size() && bytes[end] == 0 ? "" : "...");
  }

  private static long u32(DataBlock block, long at) throws WrapperMismatchException {
    if (block.buffer() == null || at < 0 || at + 4 > block.size()) {
      throw new WrapperMismatchException("registration data outside " + block.sectionName());
    }
    return ByteBuffer.wrap(block.buffer()).order(ByteOrder.LITTLE_ENDIAN).getInt((int) at)
        & 0xffff_ffffL;
  }
}
