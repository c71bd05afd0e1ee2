package org.offlink.ltowrapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.ToolContext;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.io.OptsSectionName;
import org.offlink.ltowrapper.jobs.JobserverClient;
import org.offlink.ltowrapper.run.LtoWrapperServices;

/**
 * lto-wrapper wired with test stand-ins for the missing modules: the real GCC runs through {@link
 * TestProcessRunner}, {@code .opts} sections are extracted with binutils' objcopy (plain objects
 * only), COLLECT_GCC_OPTIONS is parsed by {@link TestQuoting}. Used by {@link RealGccSmokeTest}.
 */
public final class SmokeLtoWrapperMain {
  private SmokeLtoWrapperMain() {}

  public static void main(String[] args) {
    LtoWrapperServices services =
        new LtoWrapperServices(
            new TestProcessRunner(),
            TestQuoting::parse,
            SmokeLtoWrapperMain::objcopyOpts,
            file -> {
              List<String> lines = Files.readAllLines(file);
              return new ArrayList<>(lines.subList(1, 1 + Integer.parseInt(lines.get(0).trim())));
            },
            LtoWrapperWiring::copyEarlyDebug,
            () -> Runtime.getRuntime().availableProcessors(),
            JobserverClient::procFd);
    String argv0 = System.getProperty("offlink.argv0", "lto-wrapper");
    int status =
        new LtoWrapper(ToolContext.ofSystem(), services).execute(argv0, Arrays.asList(args));
    System.exit(status);
  }

  private static Optional<List<String>> objcopyOpts(InputFile in, OptsSectionName section)
      throws IOException {
    if (in.offset() != 0) {
      return Optional.empty();
    }
    Path out = Files.createTempFile("opts", ".bin");
    try {
      Process p =
          new ProcessBuilder(
                  "objcopy",
                  "--dump-section",
                  section.sectionName() + "=" + out,
                  in.file().toString(),
                  out + ".o")
              .redirectErrorStream(true)
              .start();
      p.getInputStream().readAllBytes();
      if (p.waitFor() != 0 || Files.size(out) == 0) {
        // no such section (or not an object); binutils 2.40 says so but exits 0, dumping nothing
        return Optional.empty();
      }
      String data = new String(Files.readAllBytes(out), StandardCharsets.UTF_8);
      List<String> strings = new ArrayList<>();
      for (String s : data.split("\0")) {
        if (!s.isEmpty()) {
          strings.add(s);
        }
      }
      return Optional.of(strings);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(Path.of(out + ".o"));
    }
  }
}
