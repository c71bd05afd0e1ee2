package org.offlink.ltowrapper.offload;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.offlink.ltowrapper.io.ObjectScan;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.run.LtoWrapperException;

/**
 * Whether the linker running this link will place the LTRANS objects' host offload tables where
 * libgomp reads them. libgomp takes the host tables as the {@code .gnu.offload_funcs} and {@code
 * .gnu.offload_vars} entries between {@code crtoffloadbegin.o}'s {@code __offload_func_table} and
 * {@code crtoffloadend.o}'s {@code __offload_funcs_end}. GNU ld and gold keep the objects the
 * linker plugin adds (lto-wrapper's output) in the claimed objects' place, between the two. mold
 * (1.10.1, 2.37.1 and 3.0.0, measured in docs/gcc-versions.md "Linkers") appends them after every
 * input file, so an LTRANS object's entries land after {@code __offload_funcs_end} (mold 1.10 even
 * puts them in a second output section of the same name, writable where crtoffloadbegin's is
 * read-only): the program registers an empty host table, which libgomp refuses on a GPU with
 * "Cannot map target functions or variables". Stock GCC links it without a word; offlink stops.
 */
public final class LinkerTableOrder {
  private LinkerTableOrder() {}

  /**
   * The linker the driver runs, as the link options name it: the last {@code -fuse-ld=NAME} ({@code
   * bfd}, {@code gold}, {@code mold}, {@code lld}), else the file name of {@code --ld-path=PATH}
   * when that is given after it; empty for the default linker.
   */
  public static Optional<String> linker(List<DecodedOption> linkOptions) {
    Optional<String> linker = Optional.empty();
    for (DecodedOption o : linkOptions) {
      String text = o.text();
      if (text.startsWith("-fuse-ld=")) {
        linker = Optional.of(text.substring("-fuse-ld=".length()));
      } else if (text.startsWith("--ld-path=")) {
        String path = text.substring("--ld-path=".length());
        linker = Optional.of(path.substring(path.lastIndexOf('/') + 1));
      }
    }
    return linker;
  }

  /** Whether {@code linker} (a {@link #linker} result) is mold: {@code mold}, {@code ld.mold}. */
  static boolean isMold(String linker) {
    return linker.equals("mold") || linker.endsWith(".mold") || linker.endsWith("-mold");
  }

  /**
   * Fails the link when the linker is mold and an LTRANS object carries host table entries.
   *
   * @param linkOptions COLLECT_GCC_OPTIONS
   * @param ltransObjects the host LTO outputs lto-wrapper hands to the linker
   * @param tables an object's host table section sizes (empty when it is not an ELF object)
   * @throws LtoWrapperException naming the linker, the entries and the workarounds
   */
  public static void check(
      List<DecodedOption> linkOptions,
      List<String> ltransObjects,
      Function<String, Optional<ObjectScan.TableSections>> tables) {
    Optional<String> linker = linker(linkOptions).filter(LinkerTableOrder::isMold);
    if (linker.isEmpty()) {
      return;
    }
    long bytes = 0;
    int objects = 0;
    for (String name : ltransObjects) {
      Optional<ObjectScan.TableSections> t = tables.apply(name);
      long b = t.map(s -> s.funcsBytes() + s.varsBytes()).orElse(0L);
      bytes += b;
      objects += b > 0 ? 1 : 0;
    }
    if (bytes > 0) {
      throw new LtoWrapperException(message(linker.get(), objects));
    }
  }

  static String message(String linker, int objects) {
    return "-fuse-ld="
        + linker
        + " breaks the offload tables of this -flto link: "
        + linker
        + " places the "
        + objects
        + " LTRANS object(s) holding host .gnu.offload_funcs/.gnu.offload_vars entries after"
        + " crtoffloadend.o, so libgomp would read an empty host table and fail on the device with"
        + " %<Cannot map target functions or variables%>; link with -fuse-ld=bfd or -fuse-ld=gold,"
        + " or compile the offloading sources without -flto (disable with"
        + " OFFLINK_FLAGS=--no-consistency-check)";
  }
}
