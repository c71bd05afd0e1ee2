package org.offlink.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.offlink.it.archfixture.ReadsTheProcess;

/**
 * Nothing below the entry points reads the process's state or ends the JVM: that is what lets links
 * with different environments, folders and streams share one JVM (see docs/architecture.md, "Links
 * in one JVM"). Only the {@code *Main} classes and the process edge, {@code CommandStartup}, may
 * call {@code System.getenv}, {@code System.exit}, {@code Runtime.halt}/{@code exit}, touch {@code
 * System.in/out/err} or ask for the JVM's folder ({@code user.dir}, {@code toAbsolutePath}); {@code
 * JvmProperties} alone reads system properties, and never {@code user.dir}.
 */
class ArchitectureTest {
  private static final JavaClasses MAIN_CODE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          // In a reactor build lto-wrapper's test classes come as its test-jar (NginxWebDav).
          .withImportOption(location -> !location.contains("-tests.jar"))
          .importPackages(
              "org.offlink.runtime",
              "org.offlink.streamer",
              "org.offlink.bridge",
              "org.offlink.mkoffload",
              "org.offlink.ltowrapper",
              "org.offlink.server",
              "org.offlink.cli");

  /** The process edge: the commands' {@code main} classes and their start-up and exit. */
  private static final Set<String> ENTRY_POINTS =
      Set.of(
          "org.offlink.runtime.CommandStartup",
          "org.offlink.ltowrapper.LtoWrapperMain",
          "org.offlink.mkoffload.MkoffloadMain",
          "org.offlink.server.ServerMain",
          "org.offlink.cli.OfflinkMain",
          "org.offlink.cli.streamer.SectionStreamerMain");

  private static final String JVM_PROPERTIES = "org.offlink.runtime.JvmProperties";

  private static final DescribedPredicate<JavaClass> ENTRY_POINT =
      DescribedPredicate.describe(
          "an entry point", c -> ENTRY_POINTS.contains(outermost(c).getName()));

  private static JavaClass outermost(JavaClass c) {
    JavaClass o = c;
    while (o.getEnclosingClass().isPresent()) {
      o = o.getEnclosingClass().get();
    }
    return o;
  }

  /** Calls that read the process or end it. */
  private static final DescribedPredicate<JavaAccess<?>> READS_OR_ENDS_THE_PROCESS =
      DescribedPredicate.describe(
          "read the process's environment, folder or streams, or end the JVM",
          a -> {
            String owner = a.getTargetOwner().getName();
            String name = a.getTarget().getName();
            return (owner.equals("java.lang.System")
                    && Set.of("getenv", "exit", "in", "out", "err", "setOut", "setErr", "setIn")
                        .contains(name))
                || (owner.equals("java.lang.Runtime") && Set.of("halt", "exit").contains(name))
                || (owner.equals("java.nio.file.Path") && name.equals("toAbsolutePath"))
                || (owner.equals("java.io.File")
                    && Set.of("getAbsolutePath", "getAbsoluteFile", "getCanonicalPath")
                        .contains(name));
          });

  private static final DescribedPredicate<JavaAccess<?>> READS_SYSTEM_PROPERTIES =
      DescribedPredicate.describe(
          "read system properties",
          a ->
              a.getTargetOwner().getName().equals("java.lang.System")
                  && Set.of("getProperty", "getProperties").contains(a.getTarget().getName()));

  static ArchRule processStateStaysAtTheEdge() {
    return noClasses()
        .that(DescribedPredicate.not(ENTRY_POINT))
        .should()
        .accessTargetWhere(READS_OR_ENDS_THE_PROCESS)
        .because("a link's environment, folder and streams come from its LinkContext");
  }

  static ArchRule systemPropertiesAreJvmFactsOnly() {
    return noClasses()
        .that(
            DescribedPredicate.not(ENTRY_POINT)
                .and(DescribedPredicate.describe("not JvmProperties", c -> !isJvmProperties(c))))
        .should()
        .accessTargetWhere(READS_SYSTEM_PROPERTIES)
        .because("JvmProperties is the one reader of the JVM's facts");
  }

  private static boolean isJvmProperties(JavaClass c) {
    return outermost(c).getName().equals(JVM_PROPERTIES);
  }

  @Test
  void nothingBelowTheEntryPointsReadsTheProcessOrEndsTheJvm() {
    processStateStaysAtTheEdge().check(MAIN_CODE);
    systemPropertiesAreJvmFactsOnly().check(MAIN_CODE);
  }

  /** No class below the entry points names {@code user.dir}, whatever call reads it. */
  @Test
  void noClassBelowTheEntryPointsNamesUserDir() throws IOException {
    List<String> naming = new ArrayList<>();
    for (JavaClass c : MAIN_CODE) {
      if (!ENTRY_POINT.test(c) && constantsOf(c).contains("user.dir")) {
        naming.add(c.getName());
      }
    }
    assertEquals(List.of(), naming);
  }

  @Test
  void theRulesCatchAViolation() throws IOException {
    JavaClasses fixture = new ClassFileImporter().importClasses(ReadsTheProcess.class);
    AssertionError e =
        assertThrows(AssertionError.class, () -> processStateStaysAtTheEdge().check(fixture));
    for (String call : List.of("getenv", "toAbsolutePath", "halt")) {
      assertTrue(e.getMessage().contains(call), e.getMessage());
    }
    assertThrows(AssertionError.class, () -> systemPropertiesAreJvmFactsOnly().check(fixture));
    assertTrue(constantsOf(fixture.get(ReadsTheProcess.class)).contains("user.dir"));
  }

  @Test
  void theEntryPointsAndMainCodeWereFound() {
    assertTrue(MAIN_CODE.size() > 200, "classes: " + MAIN_CODE.size());
    long found =
        MAIN_CODE.stream().filter(ENTRY_POINT).map(c -> outermost(c).getName()).distinct().count();
    assertEquals(6, found, "CommandStartup and the five *Main classes");
  }

  /** The class file's bytes as Latin-1 text: its constant pool's strings are in there. */
  private static String constantsOf(JavaClass c) throws IOException {
    String resource = c.getName().replace('.', '/') + ".class";
    try (InputStream in = c.reflect().getClassLoader().getResourceAsStream(resource)) {
      return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
    }
  }
}
