package org.offlink.ltowrapper.partition;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import org.offlink.bridge.partition.PartitionExecutor;
import org.offlink.bridge.partition.PartitionJob;
import org.offlink.ltowrapper.jobs.FixedTokenPool;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.jobs.JobserverAuth;
import org.offlink.ltowrapper.jobs.JobserverClient;
import org.offlink.ltowrapper.jobs.TokenPool;
import org.offlink.ltowrapper.options.DecodedOption;
import org.offlink.ltowrapper.options.GccOption;
import org.offlink.ltowrapper.options.QuotedOptions;

/**
 * One link's slots for the partitions' accel compiles, shared by its targets: at most {@code
 * --device-jobs=N} at a time, and fewer when the link is bounded otherwise, as GCC bounds its own
 * LTRANS jobs (LW:1602-1672): a usable make jobserver in {@code MAKEFLAGS} hands out the slots
 * (each one a token, beside the implicit one every make child owns); else {@code -flto=M} on the
 * link line allows {@code M}, {@code -flto=auto} (and a requested but absent jobserver) the CPU
 * count.
 */
public final class DeviceJobSlots implements PartitionExecutor {
  private final int limit;
  private final TokenPool pool;
  private final String source;
  private final TokenPool capped;

  private DeviceJobSlots(int limit, TokenPool pool, String source) {
    this.limit = limit;
    this.pool = pool;
    this.source = source;
    this.capped = capped(new Semaphore(limit, true));
  }

  /**
   * The slots of one link that asked for {@code asked} device jobs (its plan's {@code
   * --device-jobs=N}), in its {@code environment} ({@code MAKEFLAGS}, {@code COLLECT_GCC_OPTIONS}),
   * where {@code fdPath} maps an inherited descriptor to a path (a link server's links have none of
   * its descriptors); empty when none were asked for.
   */
  public static Optional<DeviceJobSlots> forLink(
      Optional<Integer> asked,
      Map<String, String> environment,
      int cpus,
      IntFunction<Path> fdPath) {
    if (asked.isEmpty()) {
      return Optional.empty();
    }
    int n = asked.get();
    JobserverAuth.Detection detection =
        JobserverAuth.detect(environment.get("MAKEFLAGS"), fd -> Files.exists(fdPath.apply(fd)));
    if (detection.auth().isPresent()) {
      try {
        TokenPool jobserver = JobserverClient.connect(detection.auth().get(), fdPath);
        return Optional.of(new DeviceJobSlots(n, jobserver, "make jobserver"));
      } catch (IOException e) {
        // unusable after all: bounded as without one
      }
    }
    int bound = fltoBound(environment, cpus).orElse(n);
    int slots = Math.max(1, Math.min(n, bound));
    return Optional.of(new DeviceJobSlots(slots, new FixedTokenPool(slots), slots + " slot(s)"));
  }

  /** What {@code -flto=} in the link's options allows, if it says anything. */
  static Optional<Integer> fltoBound(Map<String, String> environment, int cpus) {
    String options = environment.get("COLLECT_GCC_OPTIONS");
    if (options == null) {
      return Optional.empty();
    }
    List<DecodedOption> decoded;
    try {
      decoded = QuotedOptions.decode(environment.getOrDefault("COLLECT_GCC", "gcc"), options);
    } catch (RuntimeException malformed) {
      return Optional.empty(); // lto-wrapper reports it where it reads them
    }
    Optional<Integer> bound = Optional.empty();
    for (DecodedOption o : decoded) {
      if (o.option() == GccOption.FLTO_EQ) {
        bound = Optional.of(fltoSlots(o.arg(), cpus));
      }
    }
    return bound;
  }

  private static int fltoSlots(String arg, int cpus) {
    if (arg.equals("auto") || arg.equals("jobserver")) {
      return Math.max(1, cpus);
    }
    int m = 0;
    for (int i = 0; i < arg.length() && Character.isDigit(arg.charAt(i)) && m < 100_000; i++) {
      m = m * 10 + (arg.charAt(i) - '0');
    }
    return Math.max(1, m);
  }

  /** What bounds the slots, for {@code -v}. */
  public String describe() {
    return "at most " + limit + " device compile(s) at a time (" + source + ")";
  }

  @Override
  public <T> List<T> runAll(List<PartitionJob<T>> jobs) throws IOException {
    try (JobScheduler scheduler = new JobScheduler(capped)) {
      List<Future<T>> futures = new ArrayList<>();
      for (PartitionJob<T> job : jobs) {
        futures.add(scheduler.submit(job::run));
      }
      return JobScheduler.awaitAll(futures);
    } catch (JobScheduler.JobFailedException e) {
      if (e.getCause() instanceof IOException io) {
        throw io;
      }
      throw e;
    }
  }

  /** {@link #pool}'s tokens, and at most {@code limit} of them at a time. */
  private TokenPool capped(Semaphore cap) {
    return new TokenPool() {
      @Override
      public Token acquire() throws IOException, InterruptedException {
        cap.acquire();
        Token inner;
        try {
          inner = pool.acquire();
        } catch (IOException | InterruptedException | RuntimeException e) {
          cap.release();
          throw e;
        }
        AtomicBoolean released = new AtomicBoolean();
        return () -> {
          if (released.compareAndSet(false, true)) {
            try {
              inner.close();
            } finally {
              cap.release();
            }
          }
        };
      }

      @Override
      public void close() {}
    };
  }
}
