package org.offlink.it;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The corpus of test programs under the test resource folder {@code corpus/}: one folder per
 * program holding its sources, {@code build.properties} and {@code expected.out}.
 */
final class Corpus {
  private static final Set<String> KEYS =
      Set.of(
          "language",
          "model",
          "sources",
          "static.sources",
          "shared.sources",
          "flags",
          "link.flags",
          "expect.images",
          "expect.link",
          "expect.link.stderr");

  private Corpus() {}

  /** Every corpus program, sorted by name. */
  static List<CorpusProgram> all() {
    Path root = root();
    try (Stream<Path> dirs = Files.list(root)) {
      return dirs.filter(Files::isDirectory).sorted().map(Corpus::read).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The program named {@code name}. */
  static CorpusProgram program(String name) {
    return read(root().resolve(name));
  }

  /** The programs named, in the order given. */
  static List<CorpusProgram> programs(String... names) {
    return Arrays.stream(names).map(Corpus::program).toList();
  }

  private static Path root() {
    URL url = Corpus.class.getResource("/corpus");
    if (url == null) {
      throw new IllegalStateException("test resource folder corpus/ is missing");
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Reads the program in {@code dir}; a bad descriptor is an IllegalArgumentException. */
  static CorpusProgram read(Path dir) {
    String name = dir.getFileName().toString();
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(dir.resolve("build.properties"))) {
      p.load(in);
      for (String key : p.stringPropertyNames()) {
        if (!KEYS.contains(key)) {
          throw new IllegalArgumentException(name + "/build.properties: unknown key " + key);
        }
      }
      Optional<String> linkError =
          "failure".equals(p.getProperty("expect.link"))
              ? Optional.of(p.getProperty("expect.link.stderr", ""))
              : Optional.empty();
      Path expectedOut = dir.resolve("expected.out");
      String output = Files.exists(expectedOut) ? Files.readString(expectedOut) : "";
      return new CorpusProgram(
          name,
          dir,
          Language.fromDescriptor(required(p, name, "language")),
          Model.fromDescriptor(required(p, name, "model")),
          words(required(p, name, "sources")),
          words(p.getProperty("static.sources", "")),
          words(p.getProperty("shared.sources", "")),
          words(p.getProperty("flags", "")),
          words(p.getProperty("link.flags", "")),
          words(p.getProperty("expect.images", "")).stream().map(ExpectedImage::parse).toList(),
          linkError,
          output);
    } catch (IOException e) {
      throw new UncheckedIOException(name + ": cannot read its descriptor", e);
    }
  }

  private static String required(Properties p, String program, String key) {
    String value = p.getProperty(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(program + "/build.properties: missing " + key);
    }
    return value.trim();
  }

  private static List<String> words(String text) {
    String trimmed = text.trim();
    return trimmed.isEmpty() ? List.of() : List.of(trimmed.split("\\s+"));
  }
}
