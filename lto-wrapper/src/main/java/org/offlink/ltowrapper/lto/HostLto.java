package org.offlink.ltowrapper.lto;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import org.offlink.ltowrapper.RunContext;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.jobs.FixedTokenPool;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.jobs.JobserverClient;
import org.offlink.ltowrapper.jobs.TokenPool;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.streamer.io.WorkingDirectory;

/**
 * The host LTO flow (§2.11, §2.12): one {@code COLLECT_GCC -xlto -c ... -fwpa} (or plain LTO)
 * compile, the early debug copies, then one LTRANS compile per partition. LTRANS jobs run
 * in-process on a {@link JobScheduler} bounded by {@code -flto=N}, the CPU count or the make
 * jobserver, instead of through a generated makefile; each job's argv is GCC's.
 */
public final class HostLto {
  private final RunContext ctx;
  private final LtoPlan plan;
  private final List<String> head;
  private final List<String> ltoArgs;
  private final List<InputFile> objects;

  /**
   * Creates the step.
   *
   * @param head the common driver argv ending with {@code -dumpbase} (LW:1532)
   * @param ltoArgs pass-through arguments ({@code -fresolution=}, {@code -flinker-output=})
   * @param objects the LTO objects in argv order
   */
  public HostLto(
      RunContext ctx,
      LtoPlan plan,
      List<String> head,
      List<String> ltoArgs,
      List<InputFile> objects) {
    this.ctx = ctx;
    this.plan = plan;
    this.head = List.copyOf(head);
    this.ltoArgs = List.copyOf(ltoArgs);
    this.objects = List.copyOf(objects);
  }

  /** The WPA (or LTO) argv and the output it names: the list file or the LTO object. */
  public record FirstStep(List<String> argv, String output) {}

  /** Builds the WPA/LTO argv; creates the output name. */
  public FirstStep firstStep() {
    List<String> argv = new ArrayList<>(head);
    String output;
    if (!plan.whopr()) {
      argv.add(ctx.dump().named("lto.o"));
      output = ctx.temps().saveTemps() ? ctx.dump().named("lto.o") : temp(".lto.o");
      argv.add("-o");
      argv.add(output);
    } else {
      argv.add(ctx.dump().named("wpa"));
      output = ctx.temps().saveTemps() ? ctx.dump().named("ltrans.out") : temp(".ltrans.out");
      argv.add("-fltrans-output-list=" + output);
      if (plan.jobserver() && ctx.settings().verbose()) {
        ctx.diag().verbose("Using make jobserver");
      } else if (plan.autoParallel() && ctx.settings().verbose()) {
        ctx.diag().verbose("LTO parallelism level set to " + cpus());
      }
      argv.add(plan.wpaOption(cpus()));
    }
    ctx.temps().register(output);
    argv.addAll(ltoArgs);
    for (InputFile o : objects) {
      argv.add(o.spelling());
    }
    return new FirstStep(argv, output);
  }

  /** Runs everything and returns the protocol lines: LTO objects, then early debug objects. */
  public List<String> run(boolean linkerOutputRel) {
    FirstStep first = firstStep();
    ctx.children().runWithResponseFile(first.argv(), "ltrans_args");
    List<String> debug = new EarlyDebug(ctx).copyAll(objects, !linkerOutputRel);
    List<String> lines = new ArrayList<>();
    if (!plan.whopr()) {
      lines.add(first.output());
    } else {
      Path list = WorkingDirectory.resolve(ctx.cwd(), first.output());
      List<LtransList.Entry> entries = LtransList.read(list, first.output());
      ctx.temps().maybeUnlink(first.output());
      warnAboutParallelism(entries.size());
      lines.addAll(runLtrans(entries));
    }
    lines.addAll(debug);
    return lines;
  }

  private void warnAboutParallelism(int n) {
    if (n <= 1) {
      return;
    }
    if (plan.jobserverRequested() && plan.jobserverAuth().isEmpty()) {
      ctx.diag().warning("jobserver is not available: " + plan.jobserverReason());
    } else if (!plan.parallel()) {
      ctx.diag().warning("using serial compilation of " + n + " LTRANS jobs");
    } else {
      return;
    }
    ctx.diag().note("see the %<-flto%> option documentation for more information");
  }

  /** The argv of LTRANS job {@code index}. */
  public List<String> ltransArgv(int index, LtransList.Entry e) {
    List<String> argv = new ArrayList<>(head);
    argv.add(ctx.dump().ltransDumpbase(index));
    argv.add("-fltrans");
    argv.add("-o");
    argv.add(e.output());
    argv.add(e.input());
    return argv;
  }

  private List<String> runLtrans(List<LtransList.Entry> entries) {
    for (LtransList.Entry e : entries) {
      if (!e.passThrough()) {
        ctx.temps().register(e.input());
        ctx.temps().register(e.output());
      }
    }
    List<Future<String>> jobs = new ArrayList<>();
    try (TokenPool pool = ltransPool();
        JobScheduler scheduler = new JobScheduler(pool)) {
      for (int i = 0; i < entries.size(); i++) {
        LtransList.Entry e = entries.get(i);
        int index = i;
        jobs.add(scheduler.submit(() -> ltrans(index, e)));
      }
      return JobScheduler.awaitAll(jobs);
    } catch (IOException e) {
      throw new LtoWrapperException("jobserver: " + e.getMessage(), e);
    }
  }

  private String ltrans(int index, LtransList.Entry e) {
    if (e.passThrough()) {
      return e.output();
    }
    if (plan.parallel()) {
      // GCC 12 writes parallel LTRANS commands into its makefile with the arguments inline
      // (reference §2.11): no response file, so -save-temps keeps neither
      // <dumppfx>ltrans<N>.ltrans_args
      // nor the driver's <dumppfx>ltrans<N>.ltrans.args.0 copy of it.
      ctx.children().run(ltransArgv(index, e), ctx.options().environment());
    } else {
      String suffix = ctx.temps().saveTemps() ? "ltrans" + index + ".ltrans_args" : null;
      ctx.children().runWithResponseFile(ltransArgv(index, e), suffix);
    }
    ctx.temps().maybeUnlink(e.input());
    return e.output();
  }

  private TokenPool ltransPool() throws IOException {
    if (plan.jobserver() && plan.jobserverAuth().isPresent()) {
      return JobserverClient.connect(plan.jobserverAuth().get(), ctx.services().fdPath());
    }
    return new FixedTokenPool(plan.slots(cpus()));
  }

  private int cpus() {
    return Math.max(1, ctx.services().cpuCount().getAsInt());
  }

  private String temp(String suffix) {
    return ctx.temps().create(suffix).toString();
  }
}
