package org.offlink.server.protocol;

import java.util.Optional;
import org.offlink.runtime.EnumLookup;

/** The program a client stands in for, by its path under {@code libexec/offlink/}. */
public enum ToolKind {
  /** {@code lto-wrapper}. */
  LTO_WRAPPER(1, "lto-wrapper"),
  /** {@code accel/nvptx-none/mkoffload}. */
  MKOFFLOAD_NVPTX(2, "accel/nvptx-none/mkoffload"),
  /** {@code accel/amdgcn-amdhsa/mkoffload}. */
  MKOFFLOAD_GCN(3, "accel/amdgcn-amdhsa/mkoffload");

  private final int code;
  private final String path;

  ToolKind(int code, String path) {
    this.code = code;
    this.path = path;
  }

  /** The code on the wire. */
  public int code() {
    return code;
  }

  /** The tool's path under {@code libexec/offlink/}. */
  public String path() {
    return path;
  }

  /** The tool with this code, if any. */
  public static Optional<ToolKind> of(int code) {
    return EnumLookup.byCode(values(), ToolKind::code, code);
  }
}
