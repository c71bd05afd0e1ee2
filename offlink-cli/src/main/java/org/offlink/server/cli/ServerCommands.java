package org.offlink.server.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.offlink.bridge.ToolContext;
import org.offlink.bridge.cli.OfflinkSubcommands;

/** The link server's command, {@code offlink server}; registered in {@code META-INF/services}. */
public final class ServerCommands implements OfflinkSubcommands {
  /** For {@link java.util.ServiceLoader}. */
  public ServerCommands() {}

  @Override
  public List<Object> commands(ToolContext context) {
    return List.of(new ServerCommand(context, installation()));
  }

  /** This tree's root, from the {@code bin/offlink} launcher that started the JVM. */
  public static Optional<Path> installation() {
    String launcher = System.getProperty("offlink.launcher", "");
    Path bin = launcher.isEmpty() ? null : Path.of(launcher).toAbsolutePath().getParent();
    return Optional.ofNullable(bin == null ? null : bin.getParent());
  }
}
