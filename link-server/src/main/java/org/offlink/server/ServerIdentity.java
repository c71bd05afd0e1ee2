package org.offlink.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.offlink.runtime.NativeCharset;
import org.offlink.server.protocol.Protocol;
import org.offlink.streamer.OfflinkVersion;

/**
 * What a server must share with a client to run its links: the same lines the C client writes
 * ({@code src/main/c/identity.c}), so that another build, JDK or set of JVM options never reaches
 * this server. The client names the socket after {@link #hash()} and sends the whole text with
 * every request; the server compares it with its own.
 *
 * <pre>
 * offlink-link-server &lt;protocol version&gt;
 * client &lt;offlink version&gt;
 * root &lt;install root&gt;
 * java &lt;real path of the JVM&gt; &lt;size&gt; &lt;mtime&gt;
 * modules &lt;size&gt; &lt;mtime&gt;             the JDK's lib/modules
 * launcher &lt;size&gt; &lt;mtime&gt;            libexec/offlink/jvm/offlink-server
 * jar &lt;name&gt; &lt;size&gt; &lt;mtime&gt;          each jar of lib/classpath, in its order
 * env &lt;NAME&gt;=&lt;value&gt;                 JVM option variables that are set
 * </pre>
 *
 * <p>An mtime is {@code <seconds>.<nanoseconds, 9 digits>}; a file that cannot be examined is
 * {@code -}. In names and values a newline is written {@code \n} and a backslash {@code \\}.
 */
public record ServerIdentity(String text) {
  /** The variables that change what the server's JVM does, in the order they are written. */
  static final List<String> JVM_VARIABLES =
      List.of("JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "OFFLINK_SERVER_HEAP");

  /** Checks the field. */
  public ServerIdentity {
    Objects.requireNonNull(text, "text");
  }

  /**
   * The identity of a server of the installation at {@code root} on the JVM {@code java} (a real
   * path) with the JVM option variables of {@code environment}.
   *
   * @throws IOException when the installation has no {@code lib/classpath}
   */
  public static ServerIdentity of(Path root, Path java, Map<String, String> environment)
      throws IOException {
    Path lib =
        Files.isDirectory(root.resolve("lib/offlink"))
            ? root.resolve("lib/offlink")
            : root.resolve("lib");
    String jars;
    try {
      jars = firstLine(Files.readAllBytes(lib.resolve("classpath")));
    } catch (NoSuchFileException e) {
      throw new IOException(
          lib.resolve("classpath") + ": missing: the installation is incomplete", e);
    }
    StringBuilder b = new StringBuilder();
    b.append("offlink-link-server ").append(Protocol.VERSION).append('\n');
    b.append("client ").append(escaped(OfflinkVersion.pomVersion())).append('\n');
    b.append("root ").append(escaped(root.toString())).append('\n');
    b.append("java ").append(escaped(java.toString())).append(stamp(java));
    String home = java.toString();
    b.append("modules");
    if (home.endsWith("/bin/java")) {
      b.append(stamp(Path.of(home.substring(0, home.length() - 9), "lib", "modules")));
    } else {
      b.append(" -\n");
    }
    b.append("launcher").append(stamp(root.resolve("libexec/offlink/jvm/offlink-server")));
    for (String jar : jars.split(":", -1)) {
      if (!jar.isEmpty()) {
        b.append("jar ").append(escaped(jar)).append(stamp(lib.resolve(jar)));
      }
    }
    if (jars.isEmpty()) {
      throw new IOException(lib.resolve("classpath") + ": empty: the installation is incomplete");
    }
    for (String name : JVM_VARIABLES) {
      String value = environment.get(name);
      if (value != null) {
        b.append("env ").append(name).append('=').append(escaped(value)).append('\n');
      }
    }
    return new ServerIdentity(b.toString());
  }

  /** The socket's base name: FNV-1a (64 bits) of the text's bytes, 16 hex digits. */
  public String hash() {
    long h = 0xcbf29ce484222325L;
    for (byte x : text.getBytes(NativeCharset.CHARSET)) {
      h ^= x & 0xff;
      h *= 0x100000001b3L;
    }
    String hex = Long.toHexString(h);
    return "0".repeat(16 - hex.length()) + hex;
  }

  private static String firstLine(byte[] bytes) {
    int end = 0;
    while (end < bytes.length && bytes[end] != '\n') {
      end++;
    }
    return new String(bytes, 0, end, NativeCharset.CHARSET);
  }

  private static String stamp(Path file) {
    try {
      BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
      Instant t = a.lastModifiedTime().toInstant();
      String nanos = Integer.toString(t.getNano());
      return " "
          + a.size()
          + " "
          + t.getEpochSecond()
          + "."
          + "0".repeat(9 - nanos.length())
          + nanos
          + "\n";
    } catch (IOException e) {
      return " -\n";
    }
  }

  static String escaped(String s) {
    return s.replace("\\", "\\\\").replace("\n", "\\n");
  }
}
