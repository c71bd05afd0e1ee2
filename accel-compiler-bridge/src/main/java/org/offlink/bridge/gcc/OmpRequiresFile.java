package org.offlink.bridge.gcc;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.offlink.bridge.temp.TempFiles;

/**
 * GCC 13+'s side channel for the OpenMP {@code requires} mask (delta §3.4): mkoffload names a file,
 * exports it as {@code GCC_OFFLOAD_OMP_REQUIRES_FILE} for the accel compile only, and the accel
 * {@code lto1} writes the merged mask there as a 4-byte host-endian (little-endian on x86-64)
 * {@code uint32_t}, also when it is 0. mkoffload prints the value in decimal as the first
 * initializer of the target data.
 *
 * <p>The name is {@code <dumppfx>.mkoffload.omp_requires} with {@code -save-temps}, else a temp
 * file ending in {@code .mkoffload.omp_requires}; it belongs to the caller's {@link TempFiles}.
 *
 * @param name the file name as passed to the accel compiler (relative to the working directory with
 *     {@code -save-temps})
 * @param path the resolved file
 */
public record OmpRequiresFile(String name, Path path) {
  /** The environment variable the accel {@code lto1} requires (fatal if unset or empty). */
  public static final String VARIABLE = "GCC_OFFLOAD_OMP_REQUIRES_FILE";

  /** Names the file for this invocation in {@code temps}. */
  public static OmpRequiresFile create(MkoffloadDumpNames names, TempFiles temps)
      throws IOException {
    String name = temps.named(names.mkoffload(".omp_requires"), ".mkoffload.omp_requires");
    return new OmpRequiresFile(name, temps.path(name));
  }

  /**
   * {@code env} plus the variable naming this file; with {@code verbose} the assignment is printed
   * as GCC's {@code xputenv} prints it.
   */
  public Map<String, String> exportTo(Map<String, String> env, boolean verbose, PrintStream err) {
    Map<String, String> out = new HashMap<>(env);
    out.put(VARIABLE, name);
    if (verbose) {
      err.println(VARIABLE + "=" + name);
    }
    return out;
  }

  /**
   * The mask the accel compiler wrote: exactly 4 bytes read as a little-endian unsigned int. GCC's
   * messages: {@code cannot open omp_requires file '...'}, {@code cannot read omp_requires file
   * '...'} (a short file).
   */
  public int readMask() throws IOException {
    byte[] b = new byte[4];
    int n = 0;
    try (InputStream in = Files.newInputStream(path)) {
      while (n < 4) {
        int r = in.read(b, n, 4 - n);
        if (r < 0) {
          break;
        }
        n += r;
      }
    } catch (NoSuchFileException e) {
      throw new IOException("cannot open omp_requires file '" + name + "'", e);
    } catch (IOException e) {
      throw new IOException("cannot open omp_requires file '" + name + "': " + e.getMessage(), e);
    }
    if (n < 4) {
      throw new IOException("cannot read omp_requires file '" + name + "'");
    }
    return (b[0] & 0xff) | (b[1] & 0xff) << 8 | (b[2] & 0xff) << 16 | (b[3] & 0xff) << 24;
  }
}
