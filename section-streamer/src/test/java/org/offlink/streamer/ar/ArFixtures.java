package org.offlink.streamer.ar;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds ar archives in code for tests: GNU (with "//" table) and BSD (with #1/N and __.SYMDEF).
 */
final class ArFixtures {
  private ArFixtures() {}

  /** A GNU archive of {@code members} (name to data), long names in "//", no symbol table. */
  static byte[] gnu(Map<String, byte[]> members) {
    ByteArrayOutputStream longNames = new ByteArrayOutputStream();
    List<String> fields = new ArrayList<>();
    for (String name : members.keySet()) {
      if (name.length() > 15) {
        fields.add("/" + longNames.size());
        longNames.writeBytes((name + "/\n").getBytes(StandardCharsets.UTF_8));
      } else {
        fields.add(name + "/");
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
    if (longNames.size() > 0) {
      member(out, "//", longNames.toByteArray());
    }
    int i = 0;
    for (byte[] data : members.values()) {
      member(out, fields.get(i++), data);
    }
    return out.toByteArray();
  }

  /**
   * A BSD archive: a "__.SYMDEF SORTED" index naming symbol {@code sym_<i>} for member i, then each
   * member with a #1/N inline name.
   */
  static byte[] bsd(Map<String, byte[]> members) {
    List<String> names = new ArrayList<>(members.keySet());
    String symdefName = "__.SYMDEF SORTED";
    ByteArrayOutputStream strings = new ByteArrayOutputStream();
    List<Integer> strx = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      strx.add(strings.size());
      strings.writeBytes(("sym_" + i + "\0").getBytes(StandardCharsets.US_ASCII));
    }
    int symdefSize = 4 + 8 * names.size() + 4 + strings.size();
    long firstMember = 8 + 60 + pad4(symdefName.length()) + symdefSize;
    firstMember += firstMember & 1;
    ByteBuffer symdef = ByteBuffer.allocate(symdefSize).order(ByteOrder.LITTLE_ENDIAN);
    symdef.putInt(8 * names.size());
    long at = firstMember;
    for (int i = 0; i < names.size(); i++) {
      symdef.putInt(strx.get(i)).putInt((int) at);
      long size = 60 + pad4(names.get(i).length()) + members.get(names.get(i)).length;
      at += size + (size & 1);
    }
    symdef.putInt(strings.size()).put(strings.toByteArray());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("!<arch>\n".getBytes(StandardCharsets.US_ASCII));
    bsdMember(out, symdefName, symdef.array());
    for (String name : names) {
      bsdMember(out, name, members.get(name));
    }
    return out.toByteArray();
  }

  private static int pad4(int n) {
    return (n + 3) & ~3;
  }

  private static void bsdMember(ByteArrayOutputStream out, String name, byte[] data) {
    byte[] inline = new byte[pad4(name.length())];
    byte[] n = name.getBytes(StandardCharsets.US_ASCII);
    System.arraycopy(n, 0, inline, 0, n.length);
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    body.writeBytes(inline);
    body.writeBytes(data);
    member(out, "#1/" + inline.length, body.toByteArray());
  }

  /** Appends one member: header, data, '\n' padding to an even offset. */
  static void member(ByteArrayOutputStream out, String nameField, byte[] data) {
    String header =
        String.format(
            "%-16s%-12s%-6s%-6s%-8s%-10d`\n", nameField, "0", "0", "0", "644", data.length);
    out.writeBytes(header.getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(data);
    if ((out.size() & 1) != 0) {
      out.write('\n');
    }
  }

  /** {@code count} members named {@code member_with_a_long_name_<i>.o} holding a few bytes each. */
  static Map<String, byte[]> manyMembers(int count) {
    Map<String, byte[]> m = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      m.put(
          "member_with_a_long_name_" + i + ".o",
          ("data of member " + i).getBytes(StandardCharsets.US_ASCII));
    }
    return m;
  }
}
