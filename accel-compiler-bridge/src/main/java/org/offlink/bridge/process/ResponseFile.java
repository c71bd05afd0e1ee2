package org.offlink.bridge.process;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.NamedFiles;
import org.offlink.runtime.NativeCharset;

/**
 * One response file opened by {@link CollectExecute#open}.
 *
 * @param name the name GCC shows and puts after the {@code @}: {@code <dumppfx><suffix>} as given,
 *     or the temp file's absolute name
 * @param path where the file is, as the file system should see it from the working directory
 */
public record ResponseFile(String name, Path path) {
  /** Checks the fields. */
  public ResponseFile {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(path, "path");
  }

  /** The argv really run: {@code program @<name>}. */
  public List<String> argv(String program) {
    return List.of(program, "@" + name);
  }

  /** Writes the arguments after argv[0] of {@code argv} the way libiberty's writeargv does. */
  public void write(LinkScope scope, List<String> argv) throws IOException {
    String text = ResponseFiles.format(argv.subList(1, argv.size()));
    // Named in the error (a full TMPDIR): Files.writeString's message is the errno text alone.
    NamedFiles.write(scope, path, text.getBytes(NativeCharset.CHARSET));
  }
}
