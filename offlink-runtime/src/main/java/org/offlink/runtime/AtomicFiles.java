package org.offlink.runtime;

import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Writes an output file so that nobody ever sees half of it, and never replaces something that is
 * not a regular file:
 *
 * <ul>
 *   <li>a symbolic link is followed, as GCC's {@code fopen} follows it: the link stays and its
 *       final target is what gets written (created if the link dangles);
 *   <li>a target that exists and is not a regular file (a character device such as {@code
 *       /dev/null}, a FIFO, a socket) is written through: opened and written in place, no rename;
 *   <li>otherwise the contents go to {@code .<name>.XXXXXX.tmp} beside the target, created
 *       exclusively and mode 0600 from the start (an object being written is nobody else's
 *       business), then renamed over the target. A file being replaced keeps its mode; a new one
 *       gets the link's umask's, as a compiler's output would. The temporary is gone afterwards
 *       whether the write succeeded or not, and is tracked by the link's {@link LinkScope} while it
 *       exists; a cancelled link publishes nothing.
 * </ul>
 */
public final class AtomicFiles {
  /** What writes the contents. */
  @FunctionalInterface
  public interface Body {
    /** Writes the whole contents to {@code out}. */
    void writeTo(OutputStream out) throws IOException;
  }

  /** Linux's limit on links followed while resolving one path ({@code MAXSYMLINKS}). */
  private static final int MAX_LINKS = 40;

  private AtomicFiles() {}

  /** Replaces {@code target} with {@code bytes}, for the link of {@code scope}. */
  public static void write(LinkScope scope, Path target, byte[] bytes) throws IOException {
    write(scope, target, out -> out.write(bytes));
  }

  /**
   * Replaces {@code target} with what {@code body} writes. A failure to create, write or rename the
   * temporary file is reported against {@code target}, the file the user asked for.
   */
  public static void write(LinkScope scope, Path target, Body body) throws IOException {
    try {
      writeResolved(scope, target, body);
    } catch (FileSystemException e) {
      if (!isTempOf(e.getFile(), target)) {
        throw e;
      }
      FileSystemException named = renamed(e, target.toString());
      named.initCause(e);
      throw named;
    }
  }

  /**
   * Replaces whatever non-folder is at {@code target} with what {@code body} writes, never
   * following a symbolic link there (a link is replaced, not written through) and never writing a
   * device or FIFO in place: a temporary beside it, mode 0600 while it is written, then {@code
   * mode}, then a rename. For files nobody else may choose the destination of (cache entries).
   */
  public static void replaceNoFollow(LinkScope scope, Path target, int mode, Body body)
      throws IOException {
    if (mode < 0 || mode > 07777) {
      throw new IllegalArgumentException("mode " + mode);
    }
    replace(scope, target, body, mode);
  }

  private static boolean isTempOf(String file, Path target) {
    if (file == null || target.getFileName() == null) {
      return false;
    }
    String name = String.valueOf(Path.of(file).getFileName());
    return name.startsWith("." + target.getFileName() + ".") && name.endsWith(".tmp");
  }

  /**
   * The same kind of exception and the OS's reason, naming {@code target}; callers may catch the
   * kind.
   */
  private static FileSystemException renamed(FileSystemException e, String target) {
    String reason = IoReasons.reason(e);
    if (e instanceof AccessDeniedException) {
      return new AccessDeniedException(target, null, reason);
    }
    if (e instanceof NoSuchFileException) {
      return new NoSuchFileException(target, null, reason);
    }
    return new FileSystemException(target, null, reason);
  }

  // The target is not made absolute: a relative name keeps working in a working directory whose
  // absolute path is near PATH_MAX, as GCC's own relative -save-temps names do.
  private static void writeResolved(LinkScope scope, Path target, Body body) throws IOException {
    Path abs = followLinks(target);
    BasicFileAttributes attrs = attributes(abs);
    if (attrs != null && attrs.isOther()) {
      writeThrough(abs, body);
    } else {
      replace(scope, abs, body, attrs != null);
    }
  }

  /** The path {@code fopen} would open: symbolic links resolved, the last one's target kept. */
  private static Path followLinks(Path path) throws IOException {
    Path p = path;
    for (int i = 0; Files.isSymbolicLink(p); i++) {
      if (i == MAX_LINKS) {
        throw new FileSystemException(path.toString(), null, "Too many levels of symbolic links");
      }
      p = p.resolveSibling(Files.readSymbolicLink(p));
    }
    return p;
  }

  private static BasicFileAttributes attributes(Path p) throws IOException {
    try {
      return Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  /** A device or FIFO: plain open and write, like GCC's {@code fopen(name, "w")}. */
  private static void writeThrough(Path target, Body body) throws IOException {
    try (OutputStream out =
        new BufferedOutputStream(
            new Named(
                Files.newOutputStream(
                    target, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
                target),
            1 << 16)) {
      body.writeTo(out);
    }
  }

  /**
   * The stream of {@code file}, whose write errors name it: the JDK's own say only {@code No space
   * left on device}, and the user must learn which file system filled up (issue 27).
   */
  private static final class Named extends FilterOutputStream {
    private final Path file;

    Named(OutputStream out, Path file) {
      super(out);
      this.file = file;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      naming(() -> out.write(b, off, len));
    }

    @Override
    public void write(int b) throws IOException {
      naming(() -> out.write(b));
    }

    @Override
    public void flush() throws IOException {
      naming(() -> out.flush());
    }

    @Override
    public void close() throws IOException {
      naming(() -> out.close());
    }

    /** One call on the file's stream. */
    private interface Call {
      void run() throws IOException;
    }

    /** Runs {@code call}, naming the file in its error. */
    private void naming(Call call) throws IOException {
      try {
        call.run();
      } catch (IOException e) {
        throw named(e);
      }
    }

    private IOException named(IOException e) {
      return NamedFiles.naming(file, e);
    }
  }

  private static void replace(LinkScope scope, Path abs, Body body, boolean exists)
      throws IOException {
    replace(scope, abs, body, exists ? -1 : scope.newFileMode());
  }

  private static void rename(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** A temporary beside {@code abs}, renamed over it; {@code mode} -1: the mode {@code abs} has. */
  private static void replace(LinkScope scope, Path abs, Body body, int mode) throws IOException {
    Path temp = null;
    try {
      OutputStream raw = null;
      for (int attempt = 0; raw == null; attempt++) {
        temp = abs.resolveSibling("." + abs.getFileName() + "." + TempNames.random(6) + ".tmp");
        Path name = temp;
        try {
          scope.create(name, () -> Files.createFile(name, Umask.OWNER_ONLY));
          raw = Files.newOutputStream(name, StandardOpenOption.WRITE);
        } catch (FileAlreadyExistsException e) {
          if (attempt + 1 == TempNames.ATTEMPTS) {
            throw e;
          }
          temp = null;
        } catch (FileSystemException e) {
          temp = null; // nothing was created: nothing to delete
          throw e;
        }
      }
      try (OutputStream out = new BufferedOutputStream(new Named(raw, temp), 1 << 16)) {
        body.writeTo(out);
      }
      if (scope.cancelled()) {
        throw new IOException(abs + ": interrupted");
      }
      // Modes as numbers ("unix:mode"), not PosixFilePermission sets: the JDK builds those as
      // EnumSets, whose first use costs a cold JVM a reflective look-up of the enum's constants.
      Files.setAttribute(
          temp,
          "unix:mode",
          mode >= 0 ? mode : (Integer) Files.getAttribute(abs, "unix:mode") & 0777);
      Path from = temp;
      scope.publish(abs, () -> rename(from, abs));
    } finally {
      if (temp != null) {
        Files.deleteIfExists(temp);
        scope.untrack(temp);
      }
    }
  }
}
