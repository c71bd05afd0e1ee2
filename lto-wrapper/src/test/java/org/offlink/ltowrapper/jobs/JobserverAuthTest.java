package org.offlink.ltowrapper.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class JobserverAuthTest {
  @Test
  void gcc12ReasonTexts() {
    assertEquals(
        "%<MAKEFLAGS%> environment variable is unset",
        JobserverAuth.detect(null, fd -> true).reason());
    assertEquals(
        "%<--jobserver-auth=%> is not present in %<MAKEFLAGS%>",
        JobserverAuth.detect(" -j4", fd -> true).reason());
    assertEquals(
        "cannot access %<--jobserver-auth=%> file descriptors",
        JobserverAuth.detect("-j2 --jobserver-auth=98,99", fd -> false).reason());
    assertEquals(
        "cannot access %<--jobserver-auth=%> file descriptors",
        JobserverAuth.detect("--jobserver-auth=x,4", fd -> true).reason());
  }

  @Test
  void pipeAndFifoForms() {
    JobserverAuth.Detection pipe =
        JobserverAuth.detect(" -j4 --jobserver-auth=3,4 -- X=1", fd -> fd == 3 || fd == 4);
    assertEquals(Optional.of(new JobserverAuth(3, 4, Optional.empty())), pipe.auth());
    JobserverAuth.Detection fifo =
        JobserverAuth.detect("-j8 --jobserver-auth=fifo:/tmp/GMfifo123", fd -> false);
    assertEquals("/tmp/GMfifo123", fifo.auth().orElseThrow().fifo().orElseThrow());
    assertTrue(JobserverAuth.detect("--jobserver-auth=3,0", fd -> true).auth().isEmpty());
  }
}
