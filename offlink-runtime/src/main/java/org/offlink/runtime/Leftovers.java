package org.offlink.runtime;

import java.io.IOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Silent removal of a link's files when it ends or is cancelled: nobody is left to tell, and GCC's
 * signal-time clean-up is silent too.
 */
final class Leftovers {
  /** How often a folder's removal is tried, {@link #FOLDER_RETRY_MS} apart. */
  private static final int FOLDER_TRIES = 5;

  private static final long FOLDER_RETRY_MS = 20;

  private Leftovers() {}

  /**
   * Removes {@code path}: a file, or a folder of the link's own (its children's TMPDIR) with what
   * its children left in it, following no symbolic link.
   */
  static void remove(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (DirectoryNotEmptyException e) {
      removeFolder(path);
    } catch (IOException e) {
      // silent
    }
  }

  /**
   * Removes the folder with its contents, trying again a few times while it is still there: a child
   * ended an instant before can still be in its own signal-time clean-up (a GCC driver removing its
   * temporaries) and make or remove a file in it meanwhile; a folder left empty that way was seen
   * once in 200 cancelled links.
   */
  private static void removeFolder(Path folder) {
    for (int attempt = 0; attempt < FOLDER_TRIES; attempt++) {
      removeTree(folder);
      if (!Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
        return;
      }
      try {
        Thread.sleep(FOLDER_RETRY_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * Removes what an ended writer of one of {@code files} left next to it: LLVM's linker (GCN's
   * {@code ld}) writes its output to {@code <output>.tmp} and seven random characters, renamed at
   * the end, and one ended mid-link left that file (empty) beside the link's {@code .hsaco}. The
   * files' names are the link's own random ones, so whatever starts with one of them and {@code
   * .tmp} is its writer's.
   */
  static void removeWriterTemps(Collection<Path> files) {
    Map<Path, List<String>> byFolder =
        files.stream()
            .filter(f -> f.getParent() != null)
            .collect(
                Collectors.groupingBy(
                    Path::getParent,
                    Collectors.mapping(f -> f.getFileName() + ".tmp", Collectors.toList())));
    byFolder.forEach(
        (folder, prefixes) -> {
          try (DirectoryStream<Path> entries =
              Files.newDirectoryStream(
                  folder,
                  e -> prefixes.stream().anyMatch(e.getFileName().toString()::startsWith))) {
            entries.forEach(Leftovers::deleteQuietly);
          } catch (IOException | RuntimeException e) {
            // silent
          }
        });
  }

  /** Removes {@code folder} and everything under it, following no link; best effort, silent. */
  static void removeTree(Path folder) {
    try {
      Files.walkFileTree(
          folder,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              deleteQuietly(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
              deleteQuietly(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) {
              deleteQuietly(dir);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      // silent
    }
  }

  private static void deleteQuietly(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      // silent
    }
  }
}
