package org.offlink.bridge.nvptx;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.offlink.bridge.nvptx.NvptxLinker.Archives;
import org.offlink.bridge.nvptx.NvptxLinker.Unsupported;
import org.offlink.runtime.NativeCharset;

/**
 * The PTX "linker" of nvptx-tools 0.20240810 (Debian 13's {@code nvptx-none-ld}, GCC 13 and 14) and
 * 0.20260402 (sid's, GCC 15 and 16), in-process: the same bytes for the same command line.
 *
 * <p>What it does differently from {@link NvptxLinker} (0.20220610): the libraries ({@code -l},
 * found along {@code -L} only, and archives named as inputs) are read in the sorted order of their
 * found paths; the first definition of a symbol met (inputs first, then the libraries' members in
 * order) is the one used; the input files are linked like archive members, in the first round; a
 * second strong definition of a symbol linked in is an error; and global constructors ({@code
 * _GLOBAL__I_}/{@code _GLOBAL__D_} functions) make the program write a table and link libgcc's
 * {@code __trigger_gbl_ctors} in a second run. That last case, every error of the program, {@code
 * -v}, and options other than {@code -o}, {@code -L}, {@code -l}, {@code --hash-style} and {@code
 * --ignore-unresolved-symbol} are {@link Unsupported}: the caller runs the real program.
 */
final class NvptxLinker2024 {
  private static final List<String> INTRINSICS = List.of("vprintf", "malloc", "free");
  private static final String GBL_CTORS_TRIGGER = "__trigger_gbl_ctors";

  /** A file being linked: an input, or an archive's member. */
  private static final class Unit {
    final byte[] bytes;
    final int start;
    final int length;
    final PtxMarkers markers;
    Unit next;
    boolean queued;

    Unit(byte[] bytes, int start, int length, PtxMarkers markers) {
      this.bytes = bytes;
      this.start = start;
      this.length = length;
      this.markers = markers;
    }
  }

  private static final Unit INTRINSIC = new Unit(new byte[0], 0, 0, null);

  private static final class Symbol extends UnresolvedSymbols.Node<Symbol> {
    final String name;
    Unit def;
    Unit strongDef;
    boolean included;

    Symbol(String name) {
      this.name = name;
    }
  }

  private final Map<String, Symbol> symbols = new HashMap<>();
  private final List<String> specialPurpose = new ArrayList<>();
  private final UnresolvedSymbols<Symbol> unresolved = new UnresolvedSymbols<>();

  private NvptxLinker2024() {
    for (String name : INTRINSICS) {
      Symbol e = symbol(name);
      e.def = INTRINSIC;
      e.strongDef = INTRINSIC;
      e.included = true;
    }
  }

  /**
   * Links as the program would in {@code cwd} and returns the output's bytes; an input named in
   * {@code inputs} has those contents, any other is read; libraries come from {@code archives}.
   */
  static byte[] link(
      NvptxLdCommandLine args, Path cwd, Map<String, byte[]> inputs, Archives archives)
      throws IOException, Unsupported {
    return new NvptxLinker2024().run(args, cwd, inputs, archives);
  }

  private byte[] run(
      NvptxLdCommandLine args, Path cwd, Map<String, byte[]> given, Archives archives)
      throws IOException, Unsupported {
    List<String> libraries = new ArrayList<>();
    for (String library : args.libraries()) {
      libraries.add(resolve("lib" + library + ".a", args.libraryPaths(), cwd));
    }
    for (int n = 0; n < args.inputs().size(); n++) {
      String name = args.inputs().get(n);
      byte[] data = given.get(name);
      if (data == null) {
        Path file = cwd.resolve(name);
        if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
          throw new Unsupported("cannot open " + name);
        }
        data = Files.readAllBytes(file);
      }
      if (PtxArchive.isArchive(data)) {
        libraries.add(name); // its members join the libraries', as the program's do
        continue;
      }
      if (PtxArchive.hasNul(data, 0, data.length)) {
        throw new Unsupported("a NUL byte in " + name);
      }
      Unit unit = new Unit(data, 0, data.length, PtxMarkers.scan2024(data, 0, data.length));
      scan(unit);
      Symbol e = symbol("*inputfile " + n + " " + name);
      e.def = unit;
      unresolved.enqueue(e);
    }
    libraries.sort(NvptxLinker2024::compareBytes);
    String previous = null;
    for (String library : libraries) {
      if (library.equals(previous)) {
        continue;
      }
      previous = library;
      PtxArchive ar = archives.archive(cwd.resolve(library));
      for (int m = 0; m < ar.size(); m++) {
        scan(new Unit(ar.bytes(), ar.starts()[m], ar.lengths()[m], ar.markers()[m]));
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
    resolveAndLink(args, out);
    Symbol trigger = symbols.get(GBL_CTORS_TRIGGER);
    if (trigger != null && (trigger.included || !specialPurpose.isEmpty())) {
      throw new Unsupported("global constructors or destructors");
    }
    return out.toByteArray();
  }

  private void resolveAndLink(NvptxLdCommandLine args, ByteArrayOutputStream out)
      throws Unsupported {
    while (unresolved.head() != null) {
      Unit toAdd = null;
      for (Symbol e = unresolved.head(); e != null; e = e.next) {
        if (e.name.startsWith("*")) {
          e.included = true;
          unresolved.dequeue(e);
        }
        Unit f = e.def;
        if (f == null) {
          if (!args.ignoredUnresolved().contains(e.name)) {
            throw new Unsupported("unresolved symbol " + e.name);
          }
          unresolved.dequeue(e);
          continue;
        }
        if (!f.queued) {
          f.queued = true;
          f.next = toAdd;
          toAdd = f;
        }
      }
      for (Unit f = toAdd; f != null; f = f.next) {
        f.queued = false;
        link(f);
        out.write(f.bytes, f.start, f.length);
        out.write(0);
      }
    }
  }

  /** The program's {@code process_refs_defs} in scan mode: the first definition met is used. */
  private void scan(Unit f) throws Unsupported {
    PtxMarkers m = f.markers;
    for (int k = 0; k < m.names().length; k++) {
      Symbol e = marked(m.names()[k]);
      if (m.definitions()[k] && e.def == null) {
        e.def = f;
      }
    }
  }

  /** The program's {@code process_refs_defs} in link mode, for the unit being linked in. */
  private void link(Unit f) throws Unsupported {
    PtxMarkers m = f.markers;
    for (int k = 0; k < m.names().length; k++) {
      Symbol e = marked(m.names()[k]);
      if (!m.definitions()[k]) {
        if (!e.included && !e.referenced) {
          unresolved.enqueue(e);
        }
        continue;
      }
      boolean weak = m.weak()[k];
      if (e.included) {
        if (!weak && e.strongDef != null) {
          throw new Unsupported("multiple definitions of " + e.name);
        }
      } else {
        e.included = true;
        if (e.referenced) {
          if (!e.queued) {
            throw new Unsupported("a definition of " + e.name + ", whose reference was ignored");
          }
          unresolved.dequeue(e);
        }
        if (e.name.startsWith("_GLOBAL__")) {
          specialPurpose.add(e.name);
        }
      }
      if (e.strongDef == null && !weak) {
        e.strongDef = f;
      }
    }
  }

  /**
   * The program's {@code path_resolve}: the first {@code DIR/name} along {@code paths} that exists,
   * as that text.
   */
  private static String resolve(String name, List<String> paths, Path cwd) throws Unsupported {
    for (String dir : paths) {
      String candidate = dir + "/" + name;
      if (Files.exists(cwd.resolve(candidate))) {
        return candidate;
      }
    }
    throw new Unsupported("error resolving " + name);
  }

  /** The program sorts paths as C++ strings: byte by byte, unsigned. */
  private static int compareBytes(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(NativeCharset.CHARSET), b.getBytes(NativeCharset.CHARSET));
  }

  /** A marker's symbol; the program keeps names beginning with '*' for its own use. */
  private Symbol marked(String name) throws Unsupported {
    if (name.startsWith("*")) {
      throw new Unsupported("a marker for the symbol " + name);
    }
    return symbol(name);
  }

  private Symbol symbol(String name) {
    Symbol e = symbols.get(name);
    if (e == null) {
      e = new Symbol(name);
      symbols.put(name, e);
    }
    return e;
  }
}
