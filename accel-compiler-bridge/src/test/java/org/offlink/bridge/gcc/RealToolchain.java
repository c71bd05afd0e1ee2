package org.offlink.bridge.gcc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.offlink.bridge.TestContexts;
import org.offlink.bridge.process.Command;
import org.offlink.bridge.process.CommandResult;
import org.offlink.bridge.process.RunnerOptions;
import org.offlink.bridge.process.SystemProcessRunner;
import org.offlink.runtime.LinkContext;

/**
 * Test helper around the installed Debian GCC 12: compiles offload objects, runs the stock link
 * with {@code -save-temps} (PATH without /usr/local/bin, see the ptxas trap) and reads what stock
 * mkoffload generated. Missing gcc makes tests fail, never skip.
 */
public final class RealToolchain {
  /** PATH without the CUDA 13 ptxas. */
  public static final String SAFE_PATH = "/usr/bin:/bin";

  private RealToolchain() {}

  /** Runs argv in dir with PATH, returns the result. */
  public static CommandResult run(Path dir, String path, List<String> argv) throws IOException {
    PrintStream quiet = new PrintStream(new ByteArrayOutputStream());
    return new SystemProcessRunner(RunnerOptions.quiet(context(dir, path, quiet)))
        .run(Command.of(argv, Map.of("PATH", path, "HOME", dir.toString()), dir));
  }

  /** Compiles {@code source} in {@code dir} to {@code <name>.o} with {@code flags}. */
  public static Path compile(Path dir, String name, String source, String... flags)
      throws IOException {
    Files.writeString(dir.resolve(name + ".c"), source);
    List<String> argv = new ArrayList<>(List.of("gcc"));
    argv.addAll(List.of(flags));
    argv.addAll(List.of("-c", name + ".c", "-o", name + ".o"));
    CommandResult r = run(dir, SAFE_PATH, argv);
    assertEquals(0, r.exitStatus(), r.stderr());
    return dir.resolve(name + ".o");
  }

  /** Links {@code object} with stock GCC and -save-temps in {@code dir}, output {@code x}. */
  public static CommandResult stockLink(Path dir, String path, String object, String... flags)
      throws IOException {
    List<String> argv = new ArrayList<>(List.of("gcc"));
    argv.addAll(List.of(flags));
    argv.addAll(List.of("-save-temps", "-v", object, "-o", "x"));
    return run(dir, path, argv);
  }

  /** Reads a libiberty response file (backslash escapes, quotes) into words. */
  public static List<String> readArgs(Path file) throws IOException {
    String s = Files.readString(file);
    List<String> words = new ArrayList<>();
    StringBuilder w = null;
    char quote = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (quote == 0 && Character.isWhitespace(c)) {
        if (w != null) {
          words.add(w.toString());
          w = null;
        }
        continue;
      }
      w = w == null ? new StringBuilder() : w;
      if (c == '\\' && i + 1 < s.length()) {
        w.append(s.charAt(++i));
      } else if (quote != 0 && c == quote) {
        quote = 0;
      } else if (quote == 0 && (c == '"' || c == '\'')) {
        quote = c;
      } else {
        w.append(c);
      }
    }
    if (w != null) {
      words.add(w.toString());
    }
    return words;
  }

  /** A context for our builders: PATH, COLLECT_GCC=gcc, cwd {@code dir}. */
  public static LinkContext context(Path dir, String path, PrintStream err) {
    return TestContexts.of(
        Map.of("PATH", path, "COLLECT_GCC", "gcc", "TMPDIR", dir.toString()), dir, err);
  }

  /** A real runner with -save-temps naming for {@code options}. */
  public static SystemProcessRunner runner(OffloadOptions options, Path dir, PrintStream err) {
    return new SystemProcessRunner(
        new RunnerOptions(
            context(dir, SAFE_PATH, err),
            options.verbose(),
            options.saveTemps(),
            Optional.of(options.dumppfx())));
  }

  /** Concatenates the C string literals starting at {@code from} up to the next {@code ;}. */
  public static byte[] cStrings(String c, int from) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int i = from;
    while (c.charAt(i) != ';') {
      if (c.charAt(i++) != '"') {
        continue;
      }
      while (c.charAt(i) != '"') {
        char ch = c.charAt(i++);
        if (ch == '\\') {
          ch = c.charAt(i++);
          ch = ch == 'n' ? '\n' : ch;
        }
        out.write(ch);
      }
      i++;
    }
    return out.toByteArray();
  }

  /** The stock nvptx chunks {@code ptx_code_N}, in order. */
  public static List<byte[]> ptxChunks(String c) {
    List<byte[]> chunks = new ArrayList<>();
    for (int k = 0; ; k++) {
      int at = c.indexOf("static const char ptx_code_" + k + "[] =");
      if (at < 0) {
        return chunks;
      }
      chunks.add(cStrings(c, at + 20));
    }
  }

  /** The text between {@code start} and the next {@code };}. */
  public static String block(String c, String start) {
    int at = c.indexOf(start);
    return c.substring(at + start.length(), c.indexOf("};", at));
  }

  /** All matches of group 1..n of {@code regex} in {@code text}. */
  public static List<List<String>> matches(String text, String regex) {
    List<List<String>> all = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(text);
    while (m.find()) {
      List<String> groups = new ArrayList<>();
      for (int g = 1; g <= m.groupCount(); g++) {
        groups.add(m.group(g));
      }
      all.add(groups);
    }
    return all;
  }

  /** Reads a C file as bytes-preserving text. */
  public static String readC(Path file) throws IOException {
    return new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
  }
}
