package org.offlink.ltowrapper.offload;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.run.LinkOutputs;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.runtime.NamedFiles;

/**
 * The non-plugin link ({@code gcc -fno-use-linker-plugin}): collect2 gives lto-wrapper every object
 * with LTO or offload IR, then relinks with lto-wrapper's output in place of the first such object
 * and <em>without</em> all of them (collect2.cc, {@code maybe_run_lto_and_relink}), and afterwards
 * deletes every file lto-wrapper printed. An object that carries only offload IR still holds the
 * host code and the host offload tables, so lto-wrapper hands back a copy of it (in input order, so
 * the host tables keep the offload list's order); the original stays untouched.
 */
public final class Collect2Inputs {
  private final LinkOutputs outputs;

  /** Creates the step, writing its copies to {@code outputs}. */
  public Collect2Inputs(LinkOutputs outputs) {
    this.outputs = outputs;
  }

  /**
   * Copies every input object that host LTO does not replace and returns the copies' names (temp
   * files, or {@code <dumppfx>host<N>.o} with {@code -save-temps}, as collect2 then keeps them).
   */
  public List<String> hostCopies(List<InputFile> inputs, List<InputFile> ltoObjects) {
    Set<String> lto = new HashSet<>();
    for (InputFile f : ltoObjects) {
      lto.add(f.spelling());
    }
    List<String> copies = new ArrayList<>();
    for (InputFile in : inputs) {
      String arg = in.spelling();
      Path file = outputs.resolve(arg);
      if (arg.startsWith("-") || lto.contains(arg) || !Files.isRegularFile(file)) {
        continue;
      }
      String name = outputs.name("host" + copies.size() + ".o", ".host.o");
      try {
        NamedFiles.copy(outputs.temps().scope(), file, outputs.resolve(name));
      } catch (IOException e) {
        throw new LtoWrapperException("writing output file " + name + ": " + e.getMessage(), e);
      }
      copies.add(name);
    }
    return copies;
  }
}
