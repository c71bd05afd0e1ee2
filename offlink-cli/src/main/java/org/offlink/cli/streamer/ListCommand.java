package org.offlink.cli.streamer;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.offlink.cli.Json;
import org.offlink.streamer.elf.ElfFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code list}: the offload-related sections of each object, archive member by member. */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description = {
      "List the LTO/offload IR sections and host offload tables of objects and archives.",
      "Archive members are named as GCC's linker plugin names them (lib.a@0xOFFSET)."
    })
final class ListCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = "--json", description = "Write JSON instead of a table.")
  boolean json;

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE",
      description = "Objects, archives or lib.a@0xOFF.")
  List<String> files;

  @Override
  public Integer call() throws Exception {
    PrintWriter out = spec.commandLine().getOut();
    List<Object> all = new ArrayList<>();
    for (String f : files) {
      for (ObjectInput input : ObjectInput.expand(f)) {
        List<SectionRow> rows;
        try (ElfFile elf = input.open()) {
          rows = SectionRow.of(elf);
        }
        if (json) {
          all.add(toJson(input, rows));
        } else {
          printTable(out, input, rows);
        }
      }
    }
    if (json) {
      out.print(Json.write(all));
    }
    return 0;
  }

  private static Map<String, Object> toJson(ObjectInput input, List<SectionRow> rows) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("object", input.display());
    if (!input.member().isEmpty()) {
      m.put("member", input.member());
      m.put("offset", input.offset());
    }
    m.put("sections", rows.stream().map(SectionRow::toJson).toList());
    return m;
  }

  private static void printTable(PrintWriter out, ObjectInput input, List<SectionRow> rows) {
    out.println(
        input.display() + (input.member().isEmpty() ? "" : " (" + input.member() + ")") + ":");
    if (rows.isEmpty()) {
      out.println("  (no offload or LTO sections)");
      return;
    }
    int width = rows.stream().mapToInt(r -> r.name().length()).max().orElse(4);
    String fmt = "  %-" + width + "s %10s  %-14s %-14s %s%n";
    out.printf(fmt, "SECTION", "SIZE", "STREAM", "KIND", "COMPRESSION");
    for (SectionRow r : rows) {
      String last =
          r.entries() >= 0
              ? (r.entries() == 1 ? "1 entry" : r.entries() + " entries")
              : r.compression();
      out.printf(fmt, r.name(), r.size(), r.stream(), r.kind(), last);
    }
  }
}
