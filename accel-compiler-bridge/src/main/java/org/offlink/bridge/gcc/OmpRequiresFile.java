package org.offlink.bridge.gcc;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * GCC 13+'s side channel for the OpenMP {@code requires} mask (delta §3.4): mkoffload names a file
 * in {@code GCC_OFFLOAD_OMP_REQUIRES_FILE} for the accel compile only (echoed with {@code -v}, as
 * {@code xputenv} does), the accel lto1 writes the merged mask there as a 4-byte host-endian
 * (x86-64: little-endian) {@code uint32_t}, and mkoffload reads it back for the registration data.
 */
public final class OmpRequiresFile {
  /** The variable the accel lto1 requires. */
  public static final String VARIABLE = "GCC_OFFLOAD_OMP_REQUIRES_FILE";

  private OmpRequiresFile() {}

  /** {@code env} plus the variable naming {@code file}; printed to {@code err} when verbose. */
  public static Map<String, String> exported(
      Map<String, String> env, String file, boolean verbose, PrintStream err) {
    Map<String, String> out = new HashMap<>(env);
    out.put(VARIABLE, file);
    if (verbose) {
      err.println(VARIABLE + "=" + file);
    }
    return out;
  }

  /**
   * The mask in {@code path} ({@code name} as GCC names it in its errors), as GCC prints it: the
   * {@code uint32_t} through {@code %d}, so a value with bit 31 set reads as negative.
   */
  public static long read(Path path, String name) throws IOException {
    byte[] four = new byte[4];
    int got = 0;
    try (InputStream in = Files.newInputStream(path)) {
      while (got < 4) {
        int n = in.read(four, got, 4 - got);
        if (n < 0) {
          break;
        }
        got += n;
      }
    } catch (IOException e) {
      throw new IOException("cannot open omp_requires file '" + name + "'", e);
    }
    if (got < 4) {
      throw new IOException(
          "cannot read omp_requires file '"
              + name
              + "': expected 4 bytes written by the accel compiler, found "
              + got);
    }
    return (four[0] & 0xff) | (four[1] & 0xff) << 8 | (four[2] & 0xff) << 16 | four[3] << 24;
  }
}
