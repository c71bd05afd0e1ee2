package org.offlink.bridge;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import org.offlink.runtime.LinkContext;
import org.offlink.runtime.LinkScope;

/** Link contexts for tests: no stdin, stdout and stderr both to {@code err}, umask 022. */
public final class TestContexts {
  private TestContexts() {}

  /** A context with {@code environment}, working folder {@code cwd}, output to {@code err}. */
  public static LinkContext of(Map<String, String> environment, Path cwd, PrintStream err) {
    return LinkContext.of(
        environment, cwd, InputStream.nullInputStream(), err, err, LinkScope.withUmask(022));
  }
}
