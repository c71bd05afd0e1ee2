package org.offlink.cli.streamer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.offlink.streamer.MalformedObjectException;

/** Helpers for commands that take exactly one object. */
final class Inputs {
  private Inputs() {}

  /** The one object {@code argument} names; an archive with several members is refused. */
  static ObjectInput single(String argument) throws IOException {
    List<ObjectInput> all = ObjectInput.expand(argument);
    if (all.size() != 1) {
      throw new MalformedObjectException(
          Path.of(argument),
          -1,
          "expected one object, found an archive of "
              + all.size()
              + " members: name one as ARCHIVE@0xOFFSET (see 'list')");
    }
    return all.get(0);
  }

  /** The plain file {@code argument} names, for commands that rewrite objects. */
  static Path plainObject(String argument) throws IOException {
    ObjectInput input = single(argument);
    if (!input.member().isEmpty()) {
      throw new MalformedObjectException(
          input.file(), input.offset(), "expected a plain object file, found an archive member");
    }
    return input.file();
  }
}
