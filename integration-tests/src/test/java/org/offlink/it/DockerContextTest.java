package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The image's build context ({@code .dockerignore} lets in only what it names) holds every module
 * the root pom builds by default: one left out fails the image's {@code dpkg-buildpackage} only in
 * DockerImageIT, minutes into a container build, with nothing but "exit status 2" to say why.
 */
class DockerContextTest {
  @Test
  void everyModuleOfTheDefaultBuildIsInTheImagesBuildContext() throws IOException {
    Path root = Path.of("..").toAbsolutePath().normalize();
    String pom = Files.readString(root.resolve("pom.xml"));
    String defaultBuild = pom.substring(0, pom.indexOf("<profiles>"));
    Set<String> letIn =
        Files.readAllLines(root.resolve(".dockerignore")).stream()
            .filter(l -> l.startsWith("!"))
            .map(l -> l.substring(1).trim())
            .collect(Collectors.toSet());
    List<String> missing = new ArrayList<>();
    Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(defaultBuild);
    while (module.find()) {
      if (!letIn.contains(module.group(1))) {
        missing.add(module.group(1));
      }
    }
    assertEquals(List.of(), missing, "modules .dockerignore leaves out of the image's context");
  }
}
