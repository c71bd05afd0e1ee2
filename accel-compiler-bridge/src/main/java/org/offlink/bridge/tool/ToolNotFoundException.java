package org.offlink.bridge.tool;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A program offlink needs was not found: its name, every directory searched, and the Debian package
 * that provides it (empty when unknown).
 */
public class ToolNotFoundException extends IOException {
  private static final long serialVersionUID = 1L;

  private final String tool;
  private final transient List<Path> searched;
  private final String debianPackage;

  /** Creates the exception; {@code debianPackage} may be empty. */
  public ToolNotFoundException(String tool, List<Path> searched, String debianPackage) {
    super(describe(tool, searched, debianPackage));
    this.tool = tool;
    this.searched = List.copyOf(searched);
    this.debianPackage = debianPackage;
  }

  private static String describe(String tool, List<Path> searched, String pkg) {
    StringBuilder sb = new StringBuilder("could not find ").append(tool);
    if (!searched.isEmpty()) {
      sb.append(" (searched ");
      for (int i = 0; i < searched.size(); i++) {
        sb.append(i == 0 ? "" : ":").append(searched.get(i));
      }
      sb.append(')');
    }
    if (!pkg.isEmpty()) {
      sb.append("; it is in the Debian package ").append(pkg);
    }
    return sb.toString();
  }

  /** The program's name. */
  public String tool() {
    return tool;
  }

  /** The directories searched, in order. */
  public List<Path> searched() {
    return searched;
  }

  /** The Debian package providing the tool, or empty. */
  public String debianPackage() {
    return debianPackage;
  }
}
