package org.offlink.cli.streamer;

import java.io.IOException;
import java.nio.file.Path;
import org.offlink.runtime.LinkScope;
import org.offlink.streamer.edit.ObjectEditor;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code -o OUT FILE} of the commands that write an edited copy of one plain object ({@code
 * add}, {@code strip}, {@code rename}), and the one way every command writes such a copy.
 */
final class EditedCopy {
  @Option(names = "-o", required = true, paramLabel = "OUT", description = "Output object.")
  Path output;

  @Parameters(index = "0", paramLabel = "FILE", description = "Relocatable ELF64 object.")
  String file;

  /** Writes OUT: FILE with {@code edits} applied, a file of {@code scope} until renamed. */
  void write(ObjectEditor.Builder edits, LinkScope scope) throws IOException {
    write(edits, scope, file, output);
  }

  /** Writes {@code output}: the plain object {@code file} with {@code edits} applied. */
  static void write(ObjectEditor.Builder edits, LinkScope scope, String file, Path output)
      throws IOException {
    edits.build().apply(scope, Inputs.plainObject(file), output);
  }
}
