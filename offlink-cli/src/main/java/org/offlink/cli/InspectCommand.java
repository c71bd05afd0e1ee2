package org.offlink.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.offlink.streamer.inspect.BinaryInspector;
import org.offlink.streamer.inspect.InspectedObject;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code offlink inspect}: what offload content an object, archive or linked binary holds. */
@Command(
    name = "inspect",
    mixinStandardHelpOptions = true,
    description = {
      "Show offload content: IR sections of objects and archives; the registered device images",
      "(targets, functions, variables, sizes, SHA-256) of executables and shared libraries;",
      "LLVM offload entries and .llvm.offloading OffloadBinaries."
    })
final class InspectCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Write JSON instead of text.")
  boolean json;

  @Option(
      names = "--extract",
      paramLabel = "DIR",
      description = "Write each PTX chunk / HSACO / OffloadBinary image to DIR.")
  Path extract;

  @Parameters(arity = "1..*", paramLabel = "FILE", description = "Objects, archives, binaries.")
  List<Path> files;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<Object> all = new ArrayList<>();
    InspectionText text = new InspectionText(out);
    for (Path file : files) {
      for (InspectedObject o : BinaryInspector.inspect(file)) {
        if (json) {
          all.add(InspectionJson.of(o));
        } else {
          text.print(o);
        }
        if (extract != null) {
          for (Path written : ImageExtractor.extract(o, extract)) {
            spec.commandLine().getErr().println("offlink: wrote " + written);
          }
        }
      }
    }
    if (json) {
      out.print(Json.write(all));
    }
    return 0;
  }
}
