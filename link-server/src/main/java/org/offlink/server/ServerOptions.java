package org.offlink.server;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * How a server runs.
 *
 * @param folder the server folder ({@link ServerFolder})
 * @param root the installation it serves
 * @param java the real path of the JVM it runs on
 * @param environment the JVM option variables it was started with ({@link ServerIdentity})
 * @param identity what its clients must share with it, computed from the above
 * @param idle how long it waits without a link before it exits ({@link Duration#ZERO}: never)
 * @param inFolder whether the process's working folder is {@code folder} (as the client starts a
 *     server): a socket path too long for {@code sun_path} is then bound by its name alone
 */
public record ServerOptions(
    Path folder,
    Path root,
    Path java,
    Map<String, String> environment,
    ServerIdentity identity,
    Duration idle,
    boolean inFolder) {
  /**
   * The default of {@code OFFLINK_SERVER_IDLE}: ten minutes. A build's links come in bursts with
   * compiles between them, and a developer's edit-build cycles minutes apart; ten minutes keeps the
   * server through those (sccache's server waits as long) and frees its memory soon after a build.
   */
  public static final Duration DEFAULT_IDLE = Duration.ofMinutes(10);

  /** Copies the environment and checks the idle time. */
  public ServerOptions {
    environment = Map.copyOf(environment);
    if (idle.isNegative()) {
      throw new IllegalArgumentException("negative idle time " + idle);
    }
  }

  /**
   * The options of a server of the installation {@code root} on {@code java} in {@code folder},
   * with the JVM option variables and {@code OFFLINK_SERVER_IDLE} of {@code environment}; {@code
   * inFolder}: the process runs in {@code folder}.
   */
  public static ServerOptions of(
      Path folder, Path root, Path java, Map<String, String> environment, boolean inFolder)
      throws IOException {
    Map<String, String> jvm = new HashMap<>();
    for (String name : ServerIdentity.JVM_VARIABLES) {
      if (environment.containsKey(name)) {
        jvm.put(name, environment.get(name));
      }
    }
    return new ServerOptions(
        folder,
        root,
        java,
        jvm,
        ServerIdentity.of(root, java, jvm),
        idleFrom(environment),
        inFolder);
  }

  /**
   * {@code OFFLINK_SERVER_IDLE} from {@code environment}: whole seconds, 0 for never; unset or not
   * a number gives the {@link #DEFAULT_IDLE}.
   */
  public static Duration idleFrom(Map<String, String> environment) {
    String value = environment.get("OFFLINK_SERVER_IDLE");
    if (value == null
        || value.isEmpty()
        || value.length() > 9
        || !value.chars().allMatch(Character::isDigit)) {
      return DEFAULT_IDLE;
    }
    return Duration.ofSeconds(Long.parseLong(value));
  }
}
