package org.offlink.server.protocol;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A link as a client sends it ({@link RequestDecoder} has the byte layout): what the program GCC
 * ran was given, so that the server runs it as that program would have run.
 *
 * @param identity the client's identity text (the server serves only its own)
 * @param tool which program the client stands in for
 * @param clientPid the client's process id (for status and logs only: it is not verified)
 * @param umask the client's umask, for the files the link and its children create
 * @param argv the arguments, {@code argv[0]} first
 * @param environment the whole environment
 * @param workingDirectory the client's working folder, absolute
 */
public record LinkRequest(
    String identity,
    ToolKind tool,
    long clientPid,
    int umask,
    List<String> argv,
    Map<String, String> environment,
    String workingDirectory) {
  /** Checks the fields. */
  public LinkRequest {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(tool, "tool");
    argv = List.copyOf(argv);
    environment = Map.copyOf(environment);
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("argv is empty");
    }
    if ((umask & ~0777) != 0) {
      throw new IllegalArgumentException("umask " + Integer.toOctalString(umask));
    }
    if (!workingDirectory.startsWith("/")) {
      throw new IllegalArgumentException("working directory " + workingDirectory);
    }
  }
}
