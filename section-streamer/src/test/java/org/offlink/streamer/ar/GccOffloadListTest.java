package org.offlink.streamer.ar;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.offlink.streamer.testing.Toolchain;

/** Our member offsets and spellings against the .ofldlist GCC's own linker plugin keeps. */
class GccOffloadListTest {
  @TempDir Path dir;

  @Test
  void memberSpecMatchesThePluginsOffloadObjectList() throws Exception {
    Toolchain.write(dir, "x.c", Toolchain.offloadSource("foo"));
    Toolchain.write(dir, "main.c", "int foo(int);\nint main(void) { return foo(3) != 3; }\n");
    Toolchain.write(dir, "pad.c", "int pad_fn(void) { return 0; }\n");
    Toolchain.stdout(dir, "gcc-12", "-fopenmp", "-foffload=amdgcn-amdhsa", "-c", "x.c");
    Toolchain.stdout(dir, "gcc-12", "-c", "pad.c", "-o", "a_padding_member_with_long_name.o");
    Toolchain.stdout(dir, "ar", "rcs", "libx.a", "a_padding_member_with_long_name.o", "x.o");
    Toolchain.stdout(
        dir, "gcc-12", "-fopenmp", "-foffload=amdgcn-amdhsa", "-save-temps", "main.c", "libx.a");

    OffloadObjectList gcc = OffloadObjectListReader.read(onlyOfldlist());
    Archive archive = ArchiveReader.read(dir.resolve("libx.a"));
    ArchiveMember x = archive.members().get(1);

    assertEquals("x.o", x.name());
    assertEquals(List.of(MemberSpec.format("libx.a", x.dataOffset())), gcc.entries());
    assertEquals(dir.resolve(gcc.entries().get(0)).toString(), archive.specOf(x).toString());
    assertEquals(new MemberSpec("libx.a", x.dataOffset()), gcc.specs().get(0));
  }

  private Path onlyOfldlist() throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> lists = s.filter(p -> p.toString().endsWith(".ofldlist")).toList();
      assertEquals(1, lists.size(), "ofldlist files: " + lists);
      return lists.get(0);
    }
  }
}
