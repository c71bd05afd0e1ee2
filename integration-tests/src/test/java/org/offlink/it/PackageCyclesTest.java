package org.offlink.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * No package of offlink's main code depends, directly or through others, on a package that depends
 * on it: every package can be read, tested and moved with only what is below it. Fails naming the
 * cycle and the class dependencies that form it.
 */
class PackageCyclesTest {
  private static final JavaClasses MAIN_CODE =
      new ClassFileImporter()
          .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
          .importPackages(
              "org.offlink.streamer",
              "org.offlink.bridge",
              "org.offlink.mkoffload",
              "org.offlink.ltowrapper",
              "org.offlink.cli");

  @Test
  void everyPackageIsFreeOfCycles() {
    slices().matching("org.offlink.(**)").should().beFreeOfCycles().check(MAIN_CODE);
  }

  @Test
  void theRuleFindsACycle() {
    // The same rule over two packages that use each other, as the bridge's did (OfflinkFlags ->
    // mkoffload.WrapperMode, mkoffload -> ... -> tool.ToolLocator -> bridge.ToolNotFoundException).
    JavaClasses cyclic =
        new ClassFileImporter()
            .importClasses(
                org.offlink.it.cyclefixture.a.A.class, org.offlink.it.cyclefixture.b.B.class);
    org.junit.jupiter.api.Assertions.assertThrows(
        AssertionError.class,
        () ->
            slices()
                .matching("org.offlink.it.cyclefixture.(*)")
                .should()
                .beFreeOfCycles()
                .check(cyclic));
  }

  /**
   * picocli belongs to the offlink-cli module: no class of another module, and so nothing an
   * lto-wrapper or mkoffload run loads, refers to it.
   */
  @Test
  void onlyTheCliModuleUsesPicocli() {
    DescribedPredicate<JavaClass> inCliModule =
        DescribedPredicate.describe(
            "in offlink-cli",
            c ->
                c.getSource()
                    .map(s -> s.getUri().toString().contains("/offlink-cli/"))
                    .orElse(false));
    noClasses()
        .that(DescribedPredicate.not(inCliModule))
        .should()
        .dependOnClassesThat()
        .resideInAPackage("picocli..")
        .check(MAIN_CODE);
    // The predicate must see the module: its classes do use picocli.
    org.junit.jupiter.api.Assertions.assertTrue(
        MAIN_CODE.stream()
            .anyMatch(c -> inCliModule.test(c) && c.getName().endsWith("OfflinkMain")));
  }

  @Test
  void theMainCodeWasFound() {
    // A rule over no classes passes: make sure the import saw the modules' classes.
    org.junit.jupiter.api.Assertions.assertTrue(
        MAIN_CODE.size() > 200, "classes: " + MAIN_CODE.size());
  }
}
