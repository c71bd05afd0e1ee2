package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.process.CommandResult;

/**
 * The runtime-compatibility warning (issue 13 item 4) on the combination Debian really ships:
 * trixie's gcc-13 links against trixie's only libgomp, GCC 14's, which mis-reads gcn images of GCC
 * 13 that have {@code declare target} variables. offlink says so at link time, once, naming both
 * versions; stock GCC 13 links silently. A gcn program without variables and an nvptx program with
 * them link without the warning.
 */
class RuntimeCompatibilityIT {
  private static final String WITH_VARIABLE =
      "#include <stdio.h>\n"
          + "#pragma omp declare target\n"
          + "int counter = 40;\n"
          + "#pragma omp end declare target\n"
          + "int main(void) {\n"
          + "  int r = 0;\n"
          + "#pragma omp target map(from: r)\n"
          + "  r = counter + 1;\n"
          + "  printf(\"%d\\n\", r);\n"
          + "  return 0;\n"
          + "}\n";

  private static final String WITHOUT_VARIABLE =
      "#include <stdio.h>\n"
          + "int main(void) {\n"
          + "  int r = 0;\n"
          + "#pragma omp target map(from: r)\n"
          + "  r = 41;\n"
          + "  printf(\"%d\\n\", r);\n"
          + "  return 0;\n"
          + "}\n";

  @Test
  void gcc13GcnVariablesOnTrixiesLibgompAreWarnedAboutOnce() throws IOException {
    Path root = DebianRoots.require(13);
    try (DebianRoot r = DebianRoot.open(root)) {
      Files.writeString(r.work().resolve("var.c"), WITH_VARIABLE);
      Files.writeString(r.work().resolve("novar.c"), WITHOUT_VARIABLE);
      String tree = r.bindReadOnly(Toolchain.offlinkDist(), "offlink");
      String java = r.bindJdk(DebianRoots.javaHome());
      List<String> gcn = List.of("-foffload=amdgcn-amdhsa", "-foffload-options=-march=gfx906");
      List<String> nvptx = List.of("-foffload=nvptx-none");

      CommandResult stock = link(r, "var.c", gcn, List.of(), Map.of());
      assertEquals(0, stock.exitStatus(), stock.stderr());
      assertFalse(stock.stderr().contains("warning"), stock.stderr());

      Map<String, String> env = Map.of("OFFLINK_JAVA", java);
      List<String> ours = List.of("-B", tree + "/libexec/offlink/");
      CommandResult warned = link(r, "var.c", gcn, ours, env);
      assertEquals(0, warned.exitStatus(), warned.stderr());
      List<String> lines =
          warned.stderr().lines().filter(l -> l.contains("lto-wrapper: warning:")).toList();
      assertEquals(1, lines.size(), warned.stderr());
      String line = lines.get(0);
      assertTrue(line.contains("amdgcn-amdhsa image of this GCC 13 link"), line);
      assertTrue(line.contains("libgomp of GCC 14+ ("), line);
      assertTrue(line.contains("its 1 declare target variable(s)"), line);

      CommandResult noVariables = link(r, "novar.c", gcn, ours, env);
      assertEquals(0, noVariables.exitStatus(), noVariables.stderr());
      assertFalse(noVariables.stderr().contains("warning"), noVariables.stderr());

      CommandResult nv = link(r, "var.c", nvptx, ours, env);
      assertEquals(0, nv.exitStatus(), nv.stderr());
      assertFalse(nv.stderr().contains("warning"), nv.stderr());
    }
  }

  private static CommandResult link(
      DebianRoot r,
      String source,
      List<String> offload,
      List<String> extra,
      Map<String, String> env)
      throws IOException {
    List<String> argv = new ArrayList<>(List.of("gcc-13", "-fopenmp"));
    argv.addAll(extra);
    argv.addAll(offload);
    argv.addAll(List.of(source, "-o", "prog"));
    return r.runIn(r.work(), argv, env);
  }
}
