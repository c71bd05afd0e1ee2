package org.offlink.bridge.nvptx;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The PTX "linker" of nvptx-tools 0.20220610 (Debian 12's {@code nvptx-none-ld}), in-process: the
 * same bytes for the same command line, so that mkoffload need not start it ({@link
 * NvptxLinkerStandIn}). On GCC 12's saxpy that program takes ~35 ms of a ~110 ms link, nearly all
 * of it comparing every byte of libc.a, libm.a and libgomp.a against its marker line.
 *
 * <p>What it does: the input files, each followed by a NUL byte, then the archive members that
 * define what they leave undefined, round by round, each followed by a NUL byte. Symbols are the
 * {@code // BEGIN GLOBAL VAR|FUNCTION DEF|DECL: name} marker lines GCC writes; a definition in a
 * later archive member replaces an earlier one; the libraries ({@code -l}) are read in sorted
 * order, each first in the working folder, then along {@code -L}; each round's newly needed members
 * are written in the reverse order of the symbols that need them, which are in the reverse order of
 * their first reference. Anything that program would report as an error (a file it cannot open, an
 * unresolved symbol, a bad archive) or an option it has beyond {@code -o}, {@code -L} and {@code
 * -l} is an {@link Unsupported}: the caller then runs the real program, whose diagnostics are the
 * ones to show.
 */
public final class NvptxLinker {
  private static final List<String> INTRINSICS = List.of("vprintf", "malloc", "free");

  /** Why the in-process link cannot give the program's result; the real program must run. */
  public static final class Unsupported extends Exception {
    private static final long serialVersionUID = 1L;

    Unsupported(String why) {
      super(why);
    }
  }

  /**
   * A command line, read as the program's {@code getopt_long("L:l:o:v")} reads it.
   *
   * @param output {@code -o}, else {@code a.out}
   * @param libraryPaths {@code -L}, in order, consecutive repeats dropped
   * @param libraries {@code -l}, sorted, repeats dropped
   * @param inputs every other argument, in order
   */
  public record Arguments(
      String output, List<String> libraryPaths, List<String> libraries, List<String> inputs) {
    /** Copies the lists. */
    public Arguments {
      Objects.requireNonNull(output, "output");
      libraryPaths = List.copyOf(libraryPaths);
      libraries = List.copyOf(libraries);
      inputs = List.copyOf(inputs);
    }

    /** Reads {@code args} (the program's arguments, without its name). */
    public static Arguments parse(List<String> args) throws Unsupported {
      NvptxLdCommandLine c = NvptxLdCommandLine.parse(args, false);
      return new Arguments(
          c.output(), c.libraryPaths(), new ArrayList<>(new TreeSet<>(c.libraries())), c.inputs());
    }
  }

  /** Where the linker gets a library archive it has found: read, or not (yet). */
  @FunctionalInterface
  public interface Archives {
    /** The archive {@code file}; {@link Unsupported} when it is not to be had. */
    PtxArchive archive(Path file) throws IOException, Unsupported;
  }

  private static final class Member {
    final PtxArchive archive;
    final int index;
    Member next;
    boolean queued;

    Member(PtxArchive archive, int index) {
      this.archive = archive;
      this.index = index;
    }
  }

  private static final class Symbol extends UnresolvedSymbols.Node<Symbol> {
    final String name;
    Member def;
    boolean included;

    Symbol(String name) {
      this.name = name;
    }
  }

  private final Map<String, Symbol> symbols = new HashMap<>();
  private final UnresolvedSymbols<Symbol> unresolved = new UnresolvedSymbols<>();

  private NvptxLinker() {
    for (String name : INTRINSICS) {
      symbol(name).included = true;
    }
  }

  /**
   * Links as the program would in {@code workingDirectory} and returns the output's bytes (written
   * by the caller to {@link Arguments#output}); an input named in {@code inputs} has those contents
   * (the program would have opened it by that name), any other is read; the libraries come from
   * {@code archives}.
   */
  public static byte[] link(
      Arguments args, Path workingDirectory, Map<String, byte[]> inputs, Archives archives)
      throws IOException, Unsupported {
    return new NvptxLinker().run(args, workingDirectory, inputs, archives);
  }

  private byte[] run(Arguments args, Path cwd, Map<String, byte[]> given, Archives archives)
      throws IOException, Unsupported {
    // Every library first, so that a source reading them all at once is asked for all of them.
    List<PtxArchive> libraries = new ArrayList<>();
    Unsupported missing = null;
    for (String library : args.libraries()) {
      try {
        libraries.add(archives.archive(open("lib" + library + ".a", args.libraryPaths(), cwd)));
      } catch (Unsupported e) {
        missing = missing == null ? e : missing;
      }
    }
    if (missing != null) {
      throw missing;
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 20);
    for (String input : args.inputs()) {
      byte[] data = given.get(input);
      if (data == null) {
        data = Files.readAllBytes(open(input, args.libraryPaths(), cwd));
      }
      out.write(data);
      out.write(0);
      apply(null, PtxMarkers.scan(data, 0, data.length));
    }
    for (PtxArchive ar : libraries) {
      for (int m = 0; m < ar.size(); m++) {
        apply(new Member(ar, m), ar.markers()[m]);
      }
    }
    while (unresolved.head() != null) {
      Member toAdd = null;
      for (Symbol e = unresolved.head(); e != null; e = e.next) {
        Member f = e.def;
        if (f == null) {
          throw new Unsupported("unresolved symbol " + e.name);
        }
        if (!f.queued) {
          f.queued = true;
          f.next = toAdd;
          toAdd = f;
        }
        e.included = true;
        e.queued = false;
      }
      unresolved.clear();
      for (Member f = toAdd; f != null; f = f.next) {
        f.queued = false;
        PtxArchive ar = f.archive;
        out.write(ar.bytes(), ar.starts()[f.index], ar.lengths()[f.index]);
        out.write(0);
        apply(null, ar.markers()[f.index]);
      }
    }
    return out.toByteArray();
  }

  /**
   * The program's {@code process_refs_defs} for text with {@code markers}: {@code f} is the archive
   * member being read, or null for text being linked in.
   */
  private void apply(Member f, PtxMarkers markers) {
    boolean[] defs = markers.definitions();
    String[] names = markers.names();
    for (int k = 0; k < names.length; k++) {
      Symbol e = symbol(names[k]);
      if (e.included) {
        continue;
      }
      if (defs[k]) {
        if (f == null) {
          e.included = true;
          unresolved.dequeue(e);
        } else {
          e.def = f;
        }
      } else if (f == null && !e.referenced) {
        unresolved.enqueue(e);
      }
    }
  }

  /** The program's {@code path_open}: the name as given, then (without a '/') along the paths. */
  static Path open(String name, List<String> paths, Path cwd) throws Unsupported {
    Path direct = cwd.resolve(name);
    if (Files.isRegularFile(direct) && Files.isReadable(direct)) {
      return direct;
    }
    if (Files.exists(direct) || name.indexOf('/') >= 0) {
      throw new Unsupported("cannot open " + name);
    }
    for (String dir : paths) {
      Path p = cwd.resolve(dir + "/" + name);
      if (Files.isRegularFile(p) && Files.isReadable(p)) {
        return p;
      }
      if (Files.exists(p)) {
        throw new Unsupported("cannot open " + p);
      }
    }
    throw new Unsupported("cannot find " + name);
  }

  private Symbol symbol(String name) {
    return symbols.computeIfAbsent(name, Symbol::new);
  }
}
