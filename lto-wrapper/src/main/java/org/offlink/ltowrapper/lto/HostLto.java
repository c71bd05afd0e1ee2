package org.offlink.ltowrapper.lto;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Predicate;
import org.offlink.ltowrapper.exec.ChildRunner;
import org.offlink.ltowrapper.io.InputFile;
import org.offlink.ltowrapper.jobs.FixedTokenPool;
import org.offlink.ltowrapper.jobs.JobScheduler;
import org.offlink.ltowrapper.jobs.JobserverClient;
import org.offlink.ltowrapper.jobs.TokenPool;
import org.offlink.ltowrapper.plan.LinkPlan;
import org.offlink.ltowrapper.report.ChildKind;
import org.offlink.ltowrapper.run.Diagnostics;
import org.offlink.ltowrapper.run.LinkOutputs;
import org.offlink.ltowrapper.run.LtoWrapperException;
import org.offlink.ltowrapper.run.LtoWrapperServices;
import org.offlink.runtime.WorkingDirectory;

/**
 * The host LTO flow (§2.11, §2.12): one {@code COLLECT_GCC -xlto -c ... -fwpa} (or plain LTO)
 * compile, the early debug copies, then one LTRANS compile per partition. LTRANS jobs run
 * in-process on a {@link JobScheduler} bounded by {@code -flto=N}, the CPU count or the make
 * jobserver, instead of through a generated makefile; each job's argv is GCC's.
 *
 * @param outputs where the LTO outputs and early debug copies go
 * @param children runs the driver for WPA and LTRANS
 * @param diag where the verbose lines and the parallelism warnings go
 * @param options the invocation (verbosity, {@code -g0}, the children's environment)
 * @param services the CPU count, the jobserver descriptors and the early debug copier
 * @param plan the host LTO mode and parallelism
 * @param head the common driver argv ending with {@code -dumpbase} (LW:1532)
 * @param ltoArgs pass-through arguments ({@code -fresolution=}, {@code -flinker-output=})
 * @param objects the LTO objects in argv order
 * @param hasEarlyDebug whether an object's scan found early debug info to copy
 */
public record HostLto(
    LinkOutputs outputs,
    ChildRunner children,
    Diagnostics diag,
    LinkPlan options,
    LtoWrapperServices services,
    LtoPlan plan,
    List<String> head,
    List<String> ltoArgs,
    List<InputFile> objects,
    Predicate<InputFile> hasEarlyDebug) {
  /** Copies the lists. */
  public HostLto {
    head = List.copyOf(head);
    ltoArgs = List.copyOf(ltoArgs);
    objects = List.copyOf(objects);
  }

  /** The WPA (or LTO) argv and the output it names: the list file or the LTO object. */
  public record FirstStep(List<String> argv, String output) {}

  /** Builds the WPA/LTO argv; creates the output name. */
  public FirstStep firstStep() {
    List<String> argv = new ArrayList<>(head);
    String output;
    if (!plan.whopr()) {
      argv.add(outputs.dump().named("lto.o"));
      output = outputs.temps().saveTemps() ? outputs.dump().named("lto.o") : temp(".lto.o");
      argv.add("-o");
      argv.add(output);
    } else {
      argv.add(outputs.dump().named("wpa"));
      output =
          outputs.temps().saveTemps() ? outputs.dump().named("ltrans.out") : temp(".ltrans.out");
      argv.add("-fltrans-output-list=" + output);
      if (plan.jobserver() && options.settings().verbose()) {
        diag.verbose("Using make jobserver");
      } else if (plan.autoParallel() && options.settings().verbose()) {
        diag.verbose("LTO parallelism level set to " + cpus());
      }
      argv.add(plan.wpaOption(cpus()));
    }
    outputs.temps().register(output);
    argv.addAll(ltoArgs);
    for (InputFile o : objects) {
      argv.add(o.spelling());
    }
    return new FirstStep(argv, output);
  }

  /** Runs everything and returns the protocol lines: LTO objects, then early debug objects. */
  public List<String> run(boolean linkerOutputRel) {
    FirstStep first = firstStep();
    children.runWithResponseFile(
        plan.whopr() ? ChildKind.wpa() : ChildKind.lto(), first.argv(), "ltrans_args");
    List<String> debug =
        new EarlyDebug(
                outputs, options.settings().skipDebug(), services.earlyDebug(), hasEarlyDebug)
            .copyAll(objects, !linkerOutputRel);
    List<String> lines = new ArrayList<>();
    if (!plan.whopr()) {
      lines.add(first.output());
    } else {
      Path list = WorkingDirectory.resolve(outputs.cwd(), first.output());
      List<LtransList.Entry> entries = LtransList.read(list, first.output());
      outputs.temps().maybeUnlink(first.output());
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
      diag.warning("jobserver is not available: " + plan.jobserverReason());
    } else if (!plan.parallel()) {
      diag.warning("using serial compilation of " + n + " LTRANS jobs");
    } else {
      return;
    }
    diag.note("see the %<-flto%> option documentation for more information");
  }

  /** The argv of LTRANS job {@code index}. */
  public List<String> ltransArgv(int index, LtransList.Entry e) {
    List<String> argv = new ArrayList<>(head);
    argv.add(outputs.dump().ltransDumpbase(index));
    argv.add("-fltrans");
    argv.add("-o");
    argv.add(e.output());
    argv.add(e.input());
    return argv;
  }

  private List<String> runLtrans(List<LtransList.Entry> entries) {
    for (LtransList.Entry e : entries) {
      if (!e.passThrough()) {
        outputs.temps().register(e.input());
        outputs.temps().register(e.output());
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
      children.run(ChildKind.ltrans(), ltransArgv(index, e), options.environment());
    } else {
      String suffix = outputs.temps().saveTemps() ? "ltrans" + index + ".ltrans_args" : null;
      children.runWithResponseFile(ChildKind.ltrans(), ltransArgv(index, e), suffix);
    }
    outputs.temps().maybeUnlink(e.input());
    return e.output();
  }

  private TokenPool ltransPool() throws IOException {
    if (plan.jobserver() && plan.jobserverAuth().isPresent()) {
      return JobserverClient.connect(plan.jobserverAuth().get(), services.fdPath());
    }
    return new FixedTokenPool(plan.slots(cpus()));
  }

  private int cpus() {
    return Math.max(1, services.cpuCount().getAsInt());
  }

  private String temp(String suffix) {
    return outputs.temps().create(suffix).toString();
  }
}
