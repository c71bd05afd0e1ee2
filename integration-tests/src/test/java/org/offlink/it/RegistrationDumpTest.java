package org.offlink.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RegistrationDumpTest {
  private static final String SAMPLE =
      """
      register version=0x10001 lib=1 dev=1 type=5 target=nvptx module=prog
       host funcs=2 vars=1
       host func main._omp_fn.1
       host func main._omp_fn.0
       host var gvar size=16 link=0
       nvptx ptx=1 vars=1 funcs=2
       nvptx ptx[0] size=5 sha256=abc
       nvptx var gvar
       nvptx func main$_omp_fn$1 dims=0,0,0
       nvptx func main$_omp_fn$0 dims=32,4,32
      end
      register version=0x10002 lib=1 dev=2 type=8 target=gcn module=libcorpus.so
       host funcs=1 vars=0
       host func f._omp_fn.0
       gcn image size=10 sha256=def e_flags=0x62f
       gcn kernels=3 vars=0
      end
      unregister version=0x10001 lib=1 dev=1 type=5 target=nvptx module=prog
       host funcs=2 vars=1
      end
      """;

  @Test
  void parsesHeadersCountsAndTargetData() {
    RegistrationDump dump = RegistrationDump.parse(SAMPLE);
    assertEquals(3, dump.registrations().size());
    assertEquals(2, dump.registered().size());
    assertEquals(1, dump.unregistered().size());
    Registration nvptx = dump.registered().get(0);
    assertEquals(0x10001, nvptx.version());
    assertEquals(OffloadTarget.NVPTX, nvptx.target().orElseThrow());
    assertEquals("prog", nvptx.module());
    assertEquals(List.of(2, 1), List.of(nvptx.hostFuncs(), nvptx.hostVars()));
    assertEquals(OptionalInt.of(2), nvptx.deviceFuncs());
    assertEquals(OptionalInt.of(1), nvptx.deviceVars());
    assertEquals(List.of("main._omp_fn.1", "main._omp_fn.0"), nvptx.names("host func"));
    assertEquals(List.of("gvar"), nvptx.names("host var"));
    assertEquals(List.of(), nvptx.names("host ind_func"));
    Registration gcn = dump.registered().get(1);
    assertEquals(OptionalInt.of(1), gcn.deviceFuncs(), "kernel count less _init/_fini_array");
    assertEquals(OptionalInt.of(0x62f), gcn.gcnElfFlags());
    assertEquals("libcorpus.so", gcn.module());
  }

  @Test
  void emptyDumpHasNoRecords() {
    assertTrue(RegistrationDump.parse("").registrations().isEmpty());
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "bad_header|bogus version=1|line 1: expected a register/unregister header",
        "bad_missing_end|register version=0x1 type=5 module=p\\n host funcs=0 vars=0|expected 'end'",
        "bad_no_counts|register version=0x1 type=5 module=p\\nend|expected funcs=",
        "bad_no_module|register version=0x1 type=5\\n host funcs=0 vars=0\\nend|expected module="
      })
  void malformedDumpsNameTheLine(String name, String text, String message) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RegistrationDump.parse(text.replace("\\n", "\n")));
    assertTrue(e.getMessage().contains(message), name + ": " + e.getMessage());
  }
}
