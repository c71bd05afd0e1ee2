package org.offlink.it;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The text the spy appended to {@code $OFFLINK_SPY_OUT} during one run, and its parsed records.
 *
 * <pre>
 * register version=0x10001 lib=1 dev=1 type=5 target=nvptx module=prog   header
 *  host funcs=2 vars=1                                                    body lines start
 *  ...                                                                    with a space
 * end                                                                     end of record
 * </pre>
 */
record RegistrationDump(String text, List<Registration> registrations) {
  /** Copies the list. */
  RegistrationDump {
    Objects.requireNonNull(text, "text");
    registrations = List.copyOf(registrations);
  }

  /** The registrations only (no unregistrations), in call order. */
  List<Registration> registered() {
    return registrations.stream().filter(r -> r.kind() == Registration.Kind.REGISTER).toList();
  }

  /** The unregistrations only, in call order. */
  List<Registration> unregistered() {
    return registrations.stream().filter(r -> r.kind() == Registration.Kind.UNREGISTER).toList();
  }

  /** Parses spy output; a malformed dump is an IllegalArgumentException naming the line. */
  static RegistrationDump parse(String text) {
    List<Registration> records = new ArrayList<>();
    List<String> lines = text.lines().toList();
    int i = 0;
    while (i < lines.size()) {
      String header = lines.get(i);
      Registration.Kind kind = kind(header, i);
      List<String> body = new ArrayList<>();
      i++;
      while (i < lines.size() && lines.get(i).startsWith(" ")) {
        body.add(lines.get(i++));
      }
      if (i >= lines.size() || !lines.get(i).equals("end")) {
        throw malformed(i, "'end'", i < lines.size() ? lines.get(i) : "end of dump");
      }
      i++;
      String counts =
          body.stream().filter(l -> l.startsWith(" host funcs=")).findFirst().orElse("");
      records.add(
          new Registration(
              kind,
              Integer.decode(required(header, "version", i)),
              Integer.parseInt(required(header, "type", i)),
              required(header, "module", i),
              Integer.parseInt(required(counts, "funcs", i)),
              Integer.parseInt(required(counts, "vars", i)),
              body));
    }
    return new RegistrationDump(text, records);
  }

  /** The value of {@code key=value} among the space-separated words of {@code line}. */
  static Optional<String> value(String line, String key) {
    for (String word : line.trim().split(" ")) {
      if (word.startsWith(key + "=")) {
        return Optional.of(word.substring(key.length() + 1));
      }
    }
    return Optional.empty();
  }

  private static Registration.Kind kind(String header, int index) {
    if (header.startsWith("register ")) {
      return Registration.Kind.REGISTER;
    }
    if (header.startsWith("unregister ")) {
      return Registration.Kind.UNREGISTER;
    }
    throw malformed(index, "a register/unregister header", header);
  }

  private static String required(String line, String key, int index) {
    return value(line, key).orElseThrow(() -> malformed(index, key + "=", line));
  }

  private static IllegalArgumentException malformed(int index, String expected, String found) {
    return new IllegalArgumentException(
        "spy dump line " + (index + 1) + ": expected " + expected + ", found '" + found + "'");
  }
}
