package org.offlink.bridge.temp;

import java.io.IOException;
import org.offlink.bridge.gcc.OffloadOptions;
import org.offlink.runtime.LinkContext;

/** Runs an image build with its own temp-file scope, as {@code Mkoffload} gives it one. */
public final class TempScopes {
  private TempScopes() {}

  /** A build in {@code context} with {@code temps}. */
  @FunctionalInterface
  public interface Build<T> {
    /** Builds. */
    T run(LinkContext context, TempFiles temps) throws IOException;
  }

  /** Runs {@code build} with a scope for {@code options} that is closed afterwards. */
  public static <T> T build(LinkContext context, OffloadOptions options, Build<T> build)
      throws IOException {
    try (TempFiles temps = new TempFiles(context, options.saveTemps(), options.verbose())) {
      return build.run(context, temps);
    }
  }
}
