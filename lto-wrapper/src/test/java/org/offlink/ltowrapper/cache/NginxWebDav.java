package org.offlink.ltowrapper.cache;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A real nginx serving a WebDAV location a Bazel HTTP remote cache can live in, started as a child
 * process (never through a shell) with everything in one directory: the config, pid, logs, temp
 * dirs and the served root. Locations: {@code /cache/} (GET and PUT), {@code /auth/} (the same
 * behind HTTP Basic, user {@link #USER} password {@link #PASSWORD}), {@code /fail/} (always 500).
 * The access log holds one line per request: {@code <method> <uri> <status> <remote user>}.
 */
public final class NginxWebDav implements AutoCloseable {
  static final String USER = "cacheuser";
  static final String PASSWORD = "s3cret-Pa55";

  private final Path dir;
  private final int port;
  private final Process process;

  private NginxWebDav(Path dir, int port, Process process) {
    this.dir = dir;
    this.port = port;
    this.process = process;
  }

  /** An nginx with the DAV module: on PATH or in the sbin directories, or empty. */
  public static Optional<Path> locate() {
    List<String> dirs =
        new ArrayList<>(
            List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
    dirs.addAll(List.of("/usr/sbin", "/usr/local/sbin", "/sbin"));
    return dirs.stream()
        .filter(d -> !d.isEmpty())
        .map(d -> Path.of(d, "nginx"))
        .filter(Files::isExecutable)
        .filter(NginxWebDav::hasDav)
        .findFirst();
  }

  /** Starts nginx in {@code dir} on a free port of 127.0.0.1 and waits until it answers. */
  /**
   * Starts nginx in {@code dir}, or skips the calling test, saying why, where no nginx with the
   * WebDAV module can be found ({@code scripts/setup-nginx.sh}, run by {@code scripts/test.sh},
   * installs it).
   */
  public static NginxWebDav startOrSkip(Path dir) throws IOException, InterruptedException {
    Optional<Path> binary = locate();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        binary.isPresent(),
        "no nginx with the WebDAV module on PATH or in /usr/sbin: scripts/setup-nginx.sh installs it");
    return start(binary.get(), dir);
  }

  public static NginxWebDav start(Path nginx, Path dir) throws IOException, InterruptedException {
    for (String d : List.of("www/cache", "www/auth", "temp", "logs")) {
      Files.createDirectories(dir.resolve(d));
    }
    Files.writeString(dir.resolve("htpasswd"), USER + ":{PLAIN}" + PASSWORD + "\n");
    int port = RemoteCacheFixtures.freePort();
    Files.writeString(dir.resolve("nginx.conf"), config(dir, port));
    Path conf = dir.resolve("nginx.conf");
    ProcessBuilder pb =
        new ProcessBuilder(
            nginx.toString(),
            "-p",
            dir + "/",
            "-e",
            dir.resolve("logs/error.log").toString(),
            "-c",
            conf.toString());
    pb.redirectErrorStream(true).redirectOutput(dir.resolve("logs/console.log").toFile());
    NginxWebDav server = new NginxWebDav(dir, port, pb.start());
    server.awaitPort();
    return server;
  }

  /** The base URL of a location: {@code cache}, {@code auth} or {@code fail}. */
  public URI base(String location) {
    return URI.create("http://127.0.0.1:" + port + "/" + location);
  }

  /** The file nginx stores {@code <location>/<path>} in. */
  public Path file(String location, String path) {
    return dir.resolve("www").resolve(location).resolve(path);
  }

  /** The files below a location, as paths relative to it. */
  public List<String> files(String location) throws IOException {
    Path root = dir.resolve("www").resolve(location);
    try (Stream<Path> s = Files.walk(root)) {
      return s.filter(Files::isRegularFile)
          .map(p -> root.relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  /**
   * The access log once {@code done} holds for it, or after 5 s: nginx writes a request's line
   * after it has sent the response, so the client may read the log before its last line is there.
   */
  public List<String> accessLogOnce(Predicate<List<String>> done)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    List<String> log = accessLog();
    while (!done.test(log) && System.nanoTime() < deadline) {
      Thread.sleep(10);
      log = accessLog();
    }
    return log;
  }

  /** The access log lines so far (nginx writes each when the request ends). */
  public List<String> accessLog() throws IOException {
    Path log = dir.resolve("logs/access.log");
    return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
  }

  /** Stops nginx: SIGTERM (a fast shutdown), then waits for it; SIGKILL if it lingers. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (process.waitFor(10, TimeUnit.SECONDS)) {
        return;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroyForcibly();
  }

  private static String config(Path dir, int port) {
    // The workers must be able to write the root: as root, keep them root (nginx's default
    // "nobody" could not write a temp dir the test created).
    String user = System.getProperty("user.name").equals("root") ? "user root;\n" : "";
    String dav = "dav_methods PUT; create_full_put_path on; client_max_body_size 0;";
    return user
        + "daemon off;\nworker_processes 1;\n"
        + "pid "
        + dir.resolve("nginx.pid")
        + ";\n"
        + "error_log "
        + dir.resolve("logs/error.log")
        + " info;\n"
        + "events { worker_connections 64; }\n"
        + "http {\n"
        + "  log_format cache '$request_method $uri $status $remote_user';\n"
        + "  access_log "
        + dir.resolve("logs/access.log")
        + " cache;\n"
        + tempPaths(dir)
        + "  server {\n"
        + "    listen 127.0.0.1:"
        + port
        + ";\n"
        + "    root "
        + dir.resolve("www")
        + ";\n"
        + "    location /cache/ { "
        + dav
        + " }\n"
        + "    location /auth/ { auth_basic cache; auth_basic_user_file "
        + dir.resolve("htpasswd")
        + "; "
        + dav
        + " }\n"
        + "    location /fail/ { return 500; }\n"
        + "  }\n"
        + "}\n";
  }

  /**
   * Every temp path inside {@code dir}: the packaged defaults under /var/lib/nginx may not exist.
   */
  private static String tempPaths(Path dir) {
    StringBuilder b = new StringBuilder();
    for (String kind : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
      b.append("  ")
          .append(kind)
          .append("_temp_path ")
          .append(dir.resolve("temp/" + kind))
          .append(";\n");
    }
    return b.toString();
  }

  private void awaitPort() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IOException(
            "nginx exited with "
                + process.exitValue()
                + ": "
                + log("console.log")
                + log("error.log"));
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 200);
        return;
      } catch (IOException e) {
        Thread.sleep(50);
      }
    }
    close();
    throw new IOException(
        "nginx did not listen on port " + port + " within 15 s: " + log("error.log"));
  }

  private String log(String name) throws IOException {
    Path p = dir.resolve("logs").resolve(name);
    return Files.exists(p) ? Files.readString(p) : "";
  }

  private static boolean hasDav(Path nginx) {
    try {
      Process p = new ProcessBuilder(nginx.toString(), "-V").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      return p.waitFor() == 0 && out.contains("--with-http_dav_module");
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
