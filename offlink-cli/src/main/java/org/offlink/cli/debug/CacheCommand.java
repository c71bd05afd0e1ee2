package org.offlink.cli.debug;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.offlink.ltowrapper.cache.CacheFiles;
import org.offlink.ltowrapper.cache.CacheSettings;
import org.offlink.ltowrapper.cache.LocalImageCache;
import org.offlink.runtime.LinkContext;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code offlink cache stats|clear|trim}: the local device-image cache that lto-wrapper fills (its
 * folder and size limit from the same variables: {@code OFFLINK_CACHE_DIR}, {@code XDG_CACHE_HOME},
 * {@code HOME}, {@code OFFLINK_CACHE_MAX}, {@code OFFLINK_CACHE_SHARED_GROUP}). None of them
 * follows a link inside the cache ({@link org.offlink.ltowrapper.cache.CacheFiles}); {@code stats}
 * says whether links use the folder at all (who may write it), and what is broken in it. {@code
 * trim} and {@code clear} remove what is broken, and exit 1 naming what they could not remove.
 */
@Command(
    name = "cache",
    mixinStandardHelpOptions = true,
    description = {
      "Show, clear or trim the local device-image cache.",
      "Folder: $OFFLINK_CACHE_DIR, else $XDG_CACHE_HOME/offlink, else ~/.cache/offlink;",
      "size limit: $OFFLINK_CACHE_MAX (default 5G); a team cache: $OFFLINK_CACHE_SHARED_GROUP."
    },
    subcommands = {CacheCommand.Stats.class, CacheCommand.Clear.class, CacheCommand.Trim.class})
final class CacheCommand implements Callable<Integer> {
  private final LinkContext context;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  CacheCommand(LinkContext context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getOut());
    return 0;
  }

  private CacheSettings settings() {
    Optional<CacheSettings> s =
        CacheSettings.fromEnvironment(context.environment(), context.workingDirectory());
    return s.orElseThrow(
        () ->
            new IllegalArgumentException(
                "no cache folder: set OFFLINK_CACHE_DIR, XDG_CACHE_HOME or HOME"));
  }

  private LocalImageCache cache(CacheSettings s) {
    return new LocalImageCache(s.directory(), s.sharedGroup());
  }

  private static String mib(long bytes) {
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
  }

  /** Prints what a trim or clear did; 1 when something could not be removed. */
  private int report(CacheFiles.Summary s, String limit) {
    parent()
        .getOut()
        .println(
            "removed "
                + s.entries()
                + " entries ("
                + mib(s.bytes())
                + ")"
                + (s.broken() > 0 ? " and " + s.broken() + " broken files" : "")
                + limit);
    for (String failure : s.failures()) {
      parent().getErr().println("offlink cache: error: cannot remove " + failure);
    }
    return s.failures().isEmpty() ? 0 : 1;
  }

  private CommandLine parent() {
    return spec.commandLine();
  }

  /** {@code offlink cache stats}. */
  @Command(name = "stats", mixinStandardHelpOptions = true, description = "Entries and size.")
  static final class Stats implements Callable<Integer> {
    @CommandLine.ParentCommand CacheCommand parent;

    @Override
    public Integer call() throws IOException {
      CacheSettings s = parent.settings();
      LocalImageCache cache = parent.cache(s);
      CacheFiles.Listing listing = cache.list();
      List<CacheFiles.Entry> entries = listing.entries();
      PrintWriter out = parent.spec.commandLine().getOut();
      out.println("folder:  " + s.directory());
      Optional<String> problem = cache.trustProblem();
      out.println(
          "in use:  "
              + (problem.isEmpty()
                  ? "yes" + (s.sharedGroup().isPresent() ? " (team cache)" : "")
                  : "no: " + problem.get() + " (" + cache.remedy() + ")"));
      out.println("entries: " + entries.size());
      out.println("size:    " + mib(listing.bytes()) + " of " + mib(s.maxBytes()));
      if (!listing.broken().isEmpty()) {
        out.println(
            "broken:  " + listing.broken().size() + " (not entries; trim or clear removes them)");
      }
      if (!entries.isEmpty()) {
        out.println("oldest use: " + Instant.ofEpochMilli(entries.get(0).lastUsedMillis()));
        out.println(
            "newest use: "
                + Instant.ofEpochMilli(entries.get(entries.size() - 1).lastUsedMillis()));
      }
      return 0;
    }
  }

  /** {@code offlink cache clear}. */
  @Command(name = "clear", mixinStandardHelpOptions = true, description = "Remove every entry.")
  static final class Clear implements Callable<Integer> {
    @CommandLine.ParentCommand CacheCommand parent;

    @Override
    public Integer call() throws IOException {
      return parent.report(parent.cache(parent.settings()).clear(), "");
    }
  }

  /** {@code offlink cache trim [--max SIZE]}. */
  @Command(
      name = "trim",
      mixinStandardHelpOptions = true,
      description = "Evict the least recently used entries beyond the size limit.")
  static final class Trim implements Callable<Integer> {
    @CommandLine.ParentCommand CacheCommand parent;

    @Option(
        names = "--max",
        paramLabel = "SIZE",
        description = "The limit to trim to (e.g. 500M, 2G); default $OFFLINK_CACHE_MAX or 5G.")
    String max;

    @Override
    public Integer call() throws IOException {
      CacheSettings s = parent.settings();
      long limit = max == null ? s.maxBytes() : CacheSettings.parseSize("--max", max);
      return parent.report(parent.cache(s).trim(limit), "; limit " + mib(limit));
    }
  }
}
