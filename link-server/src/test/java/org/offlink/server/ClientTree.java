package org.offlink.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An offlink installation for the client tests: the sanitized client (AddressSanitizer and
 * UndefinedBehaviorSanitizer, built by this module's pom) as {@code libexec/offlink/lto-wrapper}
 * and the mkoffloads, a {@code lib/classpath} with one jar, and shell scripts in place of the JVM
 * launchers: {@code jvm/<tool>} (the old way: says how it was called and exits 42) and {@code
 * jvm/offlink-server} (a {@link FakeServerMain} on this test's class path).
 */
final class ClientTree {
  static final Path NATIVE = Path.of("target/native-sanitized").toAbsolutePath();
  static final String FALLBACK =
      "#!/bin/sh\n"
          + "printf 'in-process argv0=%s mode=%s args=%s\\n' \"$OFFLINK_CLIENT_ARGV0\" "
          + "\"$OFFLINK_CLIENT_MODE\" \"$*\" >&2\n"
          + "exit 42\n";

  final Path root;
  final Path folder;
  final Path work;
  final Path java;

  private ClientTree(Path root, Path folder, Path work) throws IOException {
    this.root = root;
    this.folder = folder;
    this.work = work;
    this.java = Path.of(System.getProperty("java.home"), "bin", "java").toRealPath();
  }

  static ClientTree create(Path tmp) throws IOException {
    return create(tmp, System.getProperty("java.class.path"));
  }

  /** A tree whose server runs on {@code classPath}. */
  static ClientTree create(Path tmp, String classPath) throws IOException {
    Path real = tmp.toRealPath();
    ClientTree t =
        new ClientTree(real.resolve("tree"), real.resolve("servers"), real.resolve("work"));
    Files.createDirectories(t.work);
    Path libexec = Files.createDirectories(t.root.resolve("libexec/offlink"));
    for (String tool :
        List.of("lto-wrapper", "accel/nvptx-none/mkoffload", "accel/amdgcn-amdhsa/mkoffload")) {
      Path client = libexec.resolve(tool);
      Files.createDirectories(client.getParent());
      Files.copy(NATIVE.resolve("offlink-client"), client, StandardCopyOption.COPY_ATTRIBUTES);
      script(libexec.resolve("jvm").resolve(tool), FALLBACK);
    }
    Path lib = Files.createDirectories(t.root.resolve("lib"));
    Files.writeString(lib.resolve("classpath"), "fake.jar\n");
    Files.writeString(lib.resolve("fake.jar"), "not really a jar");
    t.serverScript(
        "case \"$JAVA_TOOL_OPTIONS\" in *-Dfail-start*) exit 1 ;; esac\n"
            + "exec \"$OFFLINK_JAVA\" -Dofflink.launcher=\"$0\" -Dofflink.exec="
            + NATIVE.resolve("offlink-exec")
            + " -cp '"
            + classPath
            + "' org.offlink.server.FakeServerMain \"$@\"\n");
    return t;
  }

  /**
   * Writes {@code jvm/offlink-server} (part of the identity: a new script is a new build). It fails
   * when {@code JAVA_TOOL_OPTIONS} holds {@code -Dfail-start}.
   */
  private void serverScript(String body) throws IOException {
    script(root.resolve("libexec/offlink/jvm/offlink-server"), "#!/bin/sh\n" + body);
  }

  private static void script(Path file, String text) throws IOException {
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  Path tool(String name) {
    return root.resolve("libexec/offlink").resolve(name);
  }

  /** The client's environment: the tree's JVM by JAVA_HOME, the server folder of this tree. */
  Map<String, String> environment() {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", "/usr/bin:/bin");
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("OFFLINK_SERVER_DIR", folder.toString());
    env.put("OFFLINK_SERVER_IDLE", "30");
    env.put("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1:exitcode=99");
    env.put("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1:exitcode=98");
    return env;
  }

  /**
   * The hash of the identity of this tree's servers started under {@link #environment()} (no JVM
   * option variables); makes the server folder, private, as a client would.
   */
  String identityHash() throws IOException {
    Files.createDirectories(folder);
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    return ServerIdentity.of(root, java, Map.of()).hash();
  }

  /** An in-process server of this tree, serving with {@code executor} on a thread of its own. */
  Running serve(FakeExecutor executor, Map<String, String> serverEnv) throws Exception {
    Files.createDirectories(folder);
    Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwx------"));
    ServerOptions options = ServerOptions.of(folder, root, java, serverEnv, false);
    LinkServer server = new LinkServer(options, executor, new ServerLog(System.err));
    Thread t = new Thread(server::run, "test-server");
    t.setDaemon(true);
    t.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!Files.exists(server.socket())) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the test server did not start");
      }
      Thread.sleep(10);
    }
    return new Running(server, t);
  }

  /** A server started by {@link #serve}. */
  record Running(LinkServer server, Thread thread) {
    void stop() throws InterruptedException {
      server.requestStop();
      thread.join(20_000);
    }
  }

  /** What a client run gave. */
  record Result(int status, String out, String err) {}

  Process start(String tool, List<String> args, Map<String, String> env) throws IOException {
    List<String> argv = new ArrayList<>();
    argv.add(tool(tool).toString());
    argv.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(argv).directory(work.toFile());
    pb.environment().clear();
    pb.environment().putAll(env);
    return pb.start();
  }

  Result run(String tool, List<String> args, Map<String, String> env, String stdin)
      throws IOException, InterruptedException {
    Process p = start(tool, args, env);
    p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    return finish(p, Duration.ofSeconds(60));
  }

  static Result finish(Process p, Duration limit) throws IOException, InterruptedException {
    var out =
        new java.util.concurrent.FutureTask<>(
            () -> new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    var err =
        new java.util.concurrent.FutureTask<>(
            () -> new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    new Thread(out).start();
    new Thread(err).start();
    if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new IOException("the client did not end within " + limit);
    }
    try {
      return new Result(p.exitValue(), out.get(), err.get());
    } catch (java.util.concurrent.ExecutionException e) {
      throw new IOException(e);
    }
  }
}
