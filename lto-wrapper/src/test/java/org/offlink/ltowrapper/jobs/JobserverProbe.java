package org.offlink.ltowrapper.jobs;

/** Run by {@code make} in {@link JobserverClientTest}: takes every slot -j3 offers, prints it. */
public final class JobserverProbe {
  private JobserverProbe() {}

  public static void main(String[] args) throws Exception {
    JobserverAuth.Detection d =
        JobserverAuth.detect(
            System.getenv("MAKEFLAGS"),
            fd -> java.nio.file.Files.exists(JobserverClient.procFd(fd)));
    if (d.auth().isEmpty() || d.auth().get().fifo().isPresent()) {
      System.out.println(
          "no pipe jobserver: " + d.reason() + " MAKEFLAGS=" + System.getenv("MAKEFLAGS"));
      System.exit(1);
    }
    try (JobserverClient c = JobserverClient.connect(d.auth().get(), JobserverClient::procFd)) {
      TokenPool.Token a = c.acquire();
      TokenPool.Token b = c.acquire();
      TokenPool.Token e = c.acquire();
      System.out.println("pipe jobserver: 3 slots");
      a.close();
      b.close();
      e.close();
    }
  }
}
