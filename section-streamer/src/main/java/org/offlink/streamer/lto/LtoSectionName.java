package org.offlink.streamer.lto;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A parsed LTO section name ({@code lto_get_section_name} in lto-streamer.cc).
 *
 * <pre>
 * &lt;prefix&gt;.&lt;kind&gt;.&lt;id&gt;          e.g. .gnu.offload_lto_.decls.594f246060ecf136
 * &lt;prefix&gt;.opts                    the only kind without an id
 * &lt;prefix&gt;&lt;asm&gt;.&lt;order&gt;.&lt;id&gt;    function bodies and variable initialisers,
 *                                  e.g. .gnu.offload_lto_foo._omp_fn.0.1.594f246060ecf136
 * </pre>
 *
 * <p>The id is the object's random id in unpadded lowercase hex ({@code %lx}), so usually but not
 * always 16 digits. LTRANS and WPA outputs omit it; names without it parse with an empty id. An asm
 * name may itself start with '.' (e.g. {@code .omp_data_sizes.4.1}); a name is a known kind only
 * when exactly {@code .<kind>[.<id>]} follows the prefix, otherwise it is a body when it ends in
 * {@code .<decimal order>[.<hex id>]}, otherwise {@link LtoSectionKind#UNKNOWN}.
 *
 * @param prefix the stream (host, offload, legacy)
 * @param kind the section kind
 * @param name the kind's word; for UNKNOWN the raw text between prefix and id (a leading '.'
 *     included); the asm name for FUNCTION_BODY
 * @param order the symbol order for FUNCTION_BODY, empty otherwise
 * @param objectId the object id, empty for opts and id-less names
 */
public record LtoSectionName(
    LtoPrefix prefix, LtoSectionKind kind, String name, OptionalInt order, OptionalLong objectId) {

  /** Validates that fields agree with the kind. */
  public LtoSectionName {
    Objects.requireNonNull(prefix, "prefix");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    if ((kind == LtoSectionKind.FUNCTION_BODY) != order.isPresent()) {
      throw new IllegalArgumentException("an order is required exactly for function bodies");
    }
    if (kind != LtoSectionKind.FUNCTION_BODY
        && kind != LtoSectionKind.UNKNOWN
        && !kind.word().equals(name)) {
      throw new IllegalArgumentException("name " + name + " does not match kind " + kind);
    }
  }

  /**
   * The word naming the kind in listings: the kind's own word, or for a kind this model does not
   * know the raw text found in the name (never null, so a listing of a damaged name still works).
   */
  public String kindWord() {
    return kind == LtoSectionKind.UNKNOWN ? name : kind.word();
  }

  /** A section of a known kind with an object id. */
  public static LtoSectionName of(LtoPrefix prefix, LtoSectionKind kind, long objectId) {
    return new LtoSectionName(
        prefix, kind, kind.word(), OptionalInt.empty(), OptionalLong.of(objectId));
  }

  /** The {@code opts} section of {@code prefix}. */
  public static LtoSectionName opts(LtoPrefix prefix) {
    return new LtoSectionName(
        prefix, LtoSectionKind.OPTS, "opts", OptionalInt.empty(), OptionalLong.empty());
  }

  /** Parses {@code section}; empty when it does not start with an LTO prefix. */
  public static Optional<LtoSectionName> parse(String section) {
    Optional<LtoPrefix> prefix = LtoPrefix.of(section);
    return prefix.map(p -> parse(p, section.substring(p.text().length())));
  }

  private static LtoSectionName parse(LtoPrefix prefix, String rest) {
    if (rest.startsWith(".")) {
      String body = rest.substring(1);
      int dot = body.indexOf('.');
      String word = dot < 0 ? body : body.substring(0, dot);
      OptionalLong id = dot < 0 ? OptionalLong.empty() : hex(body.substring(dot + 1));
      LtoSectionKind kind = LtoSectionKind.ofWord(word);
      boolean shapeOk = dot < 0 || id.isPresent();
      if (kind != LtoSectionKind.UNKNOWN && shapeOk) {
        return new LtoSectionName(prefix, kind, word, OptionalInt.empty(), id);
      }
    }
    Optional<LtoSectionName> fn = functionBody(prefix, rest);
    if (fn.isPresent()) {
      return fn.get();
    }
    int dot = rest.lastIndexOf('.');
    OptionalLong id = dot > 0 ? hex(rest.substring(dot + 1)) : OptionalLong.empty();
    String word = id.isPresent() ? rest.substring(0, dot) : rest;
    return new LtoSectionName(prefix, LtoSectionKind.UNKNOWN, word, OptionalInt.empty(), id);
  }

  private static Optional<LtoSectionName> functionBody(LtoPrefix prefix, String rest) {
    int last = rest.lastIndexOf('.');
    int prev = last > 0 ? rest.lastIndexOf('.', last - 1) : -1;
    if (prev > 0
        && decimal(rest.substring(prev + 1, last))
        && hex(rest.substring(last + 1)).isPresent()) {
      return Optional.of(
          new LtoSectionName(
              prefix,
              LtoSectionKind.FUNCTION_BODY,
              rest.substring(0, prev),
              OptionalInt.of(Integer.parseInt(rest.substring(prev + 1, last))),
              hex(rest.substring(last + 1))));
    }
    if (last > 0 && decimal(rest.substring(last + 1))) {
      return Optional.of(
          new LtoSectionName(
              prefix,
              LtoSectionKind.FUNCTION_BODY,
              rest.substring(0, last),
              OptionalInt.of(Integer.parseInt(rest.substring(last + 1))),
              OptionalLong.empty()));
    }
    return Optional.empty();
  }

  private static boolean decimal(String s) {
    return !s.isEmpty() && s.length() <= 9 && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  private static OptionalLong hex(String s) {
    if (s.isEmpty()
        || s.length() > 16
        || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 0x80)) {
      return OptionalLong.empty();
    }
    return OptionalLong.of(Long.parseUnsignedLong(s, 16));
  }

  /** The section name GCC would write for these fields. */
  public String format() {
    StringBuilder sb = new StringBuilder(prefix.text());
    if (kind == LtoSectionKind.FUNCTION_BODY) {
      sb.append(name).append('.').append(order.getAsInt());
    } else if (kind == LtoSectionKind.UNKNOWN) {
      sb.append(name);
    } else {
      sb.append('.').append(name);
    }
    objectId.ifPresent(id -> sb.append('.').append(Long.toHexString(id)));
    return sb.toString();
  }
}
