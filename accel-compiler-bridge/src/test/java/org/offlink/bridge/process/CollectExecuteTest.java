package org.offlink.bridge.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.runtime.LinkScope;
import org.offlink.runtime.TempDirectory;

class CollectExecuteTest {
  @TempDir Path cwd;
  @TempDir Path tmp;
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
  private final List<String> argv = List.of("/bin/prog", "", "a b", "q'\"");
  private final LinkScope scope = LinkScope.withUmask(022);

  private CollectExecute conventions(boolean verbose, boolean saveTemps) {
    return new CollectExecute(
        err, verbose, saveTemps, Optional.of("./x.pfx"), ScratchFiles.in(scope, tmp));
  }

  @Test
  void saveTempsNamesTheFileAfterTheDumpPrefixAndKeepsIt() throws IOException {
    CollectExecute c = conventions(false, true);
    ResponseFile rsp = c.open(cwd, Optional.of(".gcc_args"));
    assertEquals("./x.pfx.gcc_args", rsp.name());
    assertEquals(cwd.resolve("./x.pfx.gcc_args"), rsp.path());
    assertEquals(List.of("/bin/prog", "@./x.pfx.gcc_args"), rsp.argv("/bin/prog"));
    rsp.write(scope, argv);
    c.remove(rsp);
    assertEquals("\"\"\na\\ b\nq\\'\\\"\n", Files.readString(cwd.resolve("x.pfx.gcc_args")));
    assertEquals(List.of(), listing(tmp));
  }

  @Test
  void withoutSaveTempsATrackedTempFileIsShownAbsoluteAndDeleted() throws IOException {
    CollectExecute c = conventions(false, false);
    ResponseFile rsp = c.open(cwd, Optional.of(".gcc_args"));
    Path file = rsp.path();
    assertEquals(tmp, file.getParent());
    assertTrue(file.getFileName().toString().matches("cc[A-Za-z0-9]{6}"), rsp.name());
    assertEquals(file.toString(), rsp.name());
    rsp.write(scope, List.of("/bin/prog", "one"));
    assertEquals("one\n", Files.readString(file));
    c.remove(rsp);
    assertFalse(Files.exists(file));
    assertEquals(List.of(), listing(cwd));
  }

  @Test
  void aTempResponseFileIsTheLinksToRemoveWhenCancelled() throws IOException {
    ResponseFile rsp = conventions(false, false).open(cwd, Optional.of(".gcc_args"));
    assertTrue(Files.exists(rsp.path()));
    scope.cancel();
    assertFalse(Files.exists(rsp.path()), "an interrupt must remove it");
  }

  @Test
  void saveTempsWithoutASuffixKeepsATempFile() throws IOException {
    CollectExecute c = conventions(false, true);
    ResponseFile rsp = c.open(cwd, Optional.empty());
    assertTrue(rsp.name().startsWith(tmp.resolve("cc").toString()), rsp.name());
    c.remove(rsp);
    assertTrue(Files.exists(rsp.path()), "GCC unlinks response files only without -save-temps");
    TempDirectory.delete(scope, rsp.path());
  }

  @Test
  void noDumpPrefixMeansATempFileEvenWithSaveTemps() throws IOException {
    CollectExecute c =
        new CollectExecute(err, false, true, Optional.empty(), ScratchFiles.in(scope, tmp));
    ResponseFile rsp = c.open(cwd, Optional.of(".gcc_args"));
    assertEquals(tmp, rsp.path().getParent());
    TempDirectory.delete(scope, rsp.path());
  }

  @Test
  void verboseEchoesTheArgvOnOneLine() throws IOException {
    CollectExecute c = conventions(true, true);
    c.echo(c.open(cwd, Optional.of(".mkoffload")).argv("/usr/libexec/mkoffload"));
    c.echo(List.of("gcc", "-o", "a b"));
    assertEquals(
        "/usr/libexec/mkoffload @./x.pfx.mkoffload\ngcc -o a b\n",
        errBytes.toString(StandardCharsets.UTF_8));
  }

  @Test
  void quietEchoesNothing() {
    conventions(false, false).echo(List.of("gcc", "-c"));
    assertEquals("", errBytes.toString(StandardCharsets.UTF_8));
  }

  private static List<Path> listing(Path dir) throws IOException {
    try (var files = Files.list(dir)) {
      return files.toList();
    }
  }
}
