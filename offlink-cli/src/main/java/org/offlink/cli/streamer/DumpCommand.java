package org.offlink.cli.streamer;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code dump}: a hex dump of one section, like {@code objdump -s -j}, optionally decompressed. */
@Command(
    name = "dump",
    mixinStandardHelpOptions = true,
    description = "Hex-dump one section (offsets from the section start).")
final class DumpCommand implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @CommandLine.Mixin OneSection section;

  @Override
  public Integer call() throws Exception {
    byte[] data = section.read();
    PrintWriter out = spec.commandLine().getOut();
    out.println("Contents of section " + section.section + " (" + data.length + " bytes):");
    for (int off = 0; off < data.length; off += 16) {
      StringBuilder hex = new StringBuilder();
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < 16; i++) {
        if (off + i < data.length) {
          int b = data[off + i] & 0xff;
          hex.append(String.format("%02x", b));
          text.append(b >= 0x20 && b < 0x7f ? (char) b : '.');
        } else {
          hex.append("  ");
        }
        if (i % 4 == 3) {
          hex.append(' ');
        }
      }
      out.printf(" %04x %s %s%n", off, hex, text);
    }
    return 0;
  }
}
