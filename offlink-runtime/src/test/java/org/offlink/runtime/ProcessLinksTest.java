package org.offlink.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProcessLinksTest {
  @TempDir Path dir;

  @Test
  void theHookCancelsEveryOpenLinkAndNoClosedOne() throws IOException {
    LinkScope first = LinkScope.withUmask(022);
    LinkScope second = LinkScope.withUmask(022);
    LinkScope done = LinkScope.withUmask(022);
    Path a = Files.createFile(dir.resolve("a"));
    Path b = Files.createFile(dir.resolve("b"));
    Path c = Files.createFile(dir.resolve("c"));
    first.track(a);
    second.track(b);
    done.track(c);
    ProcessLinks.opened(first);
    ProcessLinks.opened(second);
    ProcessLinks.opened(done);
    ProcessLinks.closed(done);
    try {
      // The hook's part over the links (the hook itself also ends every child of this JVM).
      ProcessLinks.cancelOpen();
      assertFalse(Files.exists(a));
      assertFalse(Files.exists(b));
      assertTrue(Files.exists(c), "a closed link is not the hook's");
      assertTrue(first.cancelled() && second.cancelled() && !done.cancelled());
    } finally {
      ProcessLinks.closed(first);
      ProcessLinks.closed(second);
    }
  }
}
