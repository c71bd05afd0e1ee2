package org.offlink.ltowrapper.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The scans of one run's input objects: each object (file and member offset) is read once, however
 * many steps ask about it (classifying the inputs, collect2's offload list, the offload option
 * merge, the host tables of the consistency check). Safe to use from the offload jobs' threads.
 */
public final class ScannedInputs {
  private final ObjectScanner scanner;
  private final Map<Key, ObjectScan> scans = new ConcurrentHashMap<>();

  /**
   * An object: file and member offset. A class, not a record: a record's equals and hashCode are
   * bootstrapped through method handles, which a cold lto-wrapper spins at about 3 ms each.
   */
  private static final class Key {
    private final Path file;
    private final long offset;

    Key(Path file, long offset) {
      this.file = file;
      this.offset = offset;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.offset == offset && k.file.equals(file);
    }

    @Override
    public int hashCode() {
      return file.hashCode() * 31 + Long.hashCode(offset);
    }
  }

  /** A cache over {@code scanner}. */
  public ScannedInputs(ObjectScanner scanner) {
    this.scanner = scanner;
  }

  /**
   * The scan of {@code input}; an input that cannot be read counts as no object (GCC's reader says
   * "not found" for both), and is not read again.
   */
  public ObjectScan of(InputFile input) {
    return scans.computeIfAbsent(new Key(input.file(), input.offset()), k -> scan(input));
  }

  private ObjectScan scan(InputFile input) {
    try {
      return scanner.scan(input);
    } catch (IOException e) {
      return ObjectScan.NOT_AN_OBJECT;
    }
  }
}
