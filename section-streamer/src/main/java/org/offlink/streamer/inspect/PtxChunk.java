package org.offlink.streamer.inspect;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code ptx_objs[i]} of a GCC nvptx image: the bytes the program registers ({@code size} bytes
 * from {@code code}, which for GCC's and offlink's wrappers include the terminating NUL).
 *
 * @param index position in {@code ptx_objs}
 * @param registered the registered bytes, exactly {@code size} long
 */
public record PtxChunk(int index, byte[] registered) {
  private static final Pattern VERSION = Pattern.compile("(?m)^\\s*\\.version\\s+(\\S+)");
  private static final Pattern TARGET = Pattern.compile("(?m)^\\s*\\.target\\s+([^\\s/;]+)");

  /** Copies the bytes. */
  public PtxChunk {
    if (index < 0) {
      throw new IllegalArgumentException("negative chunk index");
    }
    registered = registered.clone();
  }

  @Override
  public byte[] registered() {
    return registered.clone();
  }

  /** The registered size ({@code ptx_objs[i].size}). */
  public int size() {
    return registered.length;
  }

  /** The PTX text bytes: the registered bytes without the one trailing NUL. */
  public byte[] text() {
    int n = registered.length;
    return n > 0 && registered[n - 1] == 0 ? Arrays.copyOf(registered, n - 1) : registered.clone();
  }

  /** SHA-256 of the registered bytes (what the registration spy prints). */
  public String sha256() {
    return Sha256.hex(registered);
  }

  /** The {@code .version} of the PTX preamble, if the chunk has one. */
  public Optional<String> ptxVersion() {
    return first(VERSION);
  }

  /** The {@code .target} of the PTX preamble, if the chunk has one. */
  public Optional<String> ptxTarget() {
    return first(TARGET);
  }

  private Optional<String> first(Pattern p) {
    int limit = Math.min(registered.length, 4096);
    Matcher m = p.matcher(new String(registered, 0, limit, StandardCharsets.ISO_8859_1));
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PtxChunk c && c.index == index && Arrays.equals(c.registered, registered);
  }

  @Override
  public int hashCode() {
    return 31 * index + Arrays.hashCode(registered);
  }

  @Override
  public String toString() {
    return "PtxChunk[" + index + ", " + registered.length + " bytes]";
  }
}
