package org.offlink.ltowrapper.run;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * GCC-style diagnostics on stderr: {@code lto-wrapper: fatal error: ...} followed by {@code
 * compilation terminated.}, warnings and notes. Texts use GCC's {@code %<...%>} quote markup,
 * rendered as ‘…’ in a UTF-8 locale and '…' otherwise, like GCC's {@code open_quote}.
 */
public final class Diagnostics {
  private final PrintStream err;
  private final String program;
  private final boolean utf8;

  /** Creates the printer; {@code environment} decides the quote style. */
  public Diagnostics(PrintStream err, String program, Map<String, String> environment) {
    this.err = err;
    this.program = program;
    this.utf8 = isUtf8Locale(environment);
  }

  /** Whether LC_ALL, else LC_CTYPE, else LANG names a UTF-8 codeset. */
  static boolean isUtf8Locale(Map<String, String> env) {
    String locale = null;
    for (String name : new String[] {"LC_ALL", "LC_CTYPE", "LANG"}) {
      String v = env.get(name);
      if (v != null && !v.isEmpty()) {
        locale = v;
        break;
      }
    }
    if (locale == null) {
      return false;
    }
    String l = locale.toLowerCase(Locale.ROOT);
    return l.contains("utf-8") || l.contains("utf8");
  }

  /** Replaces the quote markup. */
  public String render(String text) {
    return text.replace("%<", utf8 ? "\u2018" : "'").replace("%>", utf8 ? "\u2019" : "'");
  }

  /** Prints a fatal error and GCC's trailer. */
  public void fatal(String text) {
    synchronized (err) {
      err.print(program + ": fatal error: " + render(text) + "\ncompilation terminated.\n");
      err.flush();
    }
  }

  /** Prints {@code <prog>: error: <text>} (libiberty's {@code expandargv} errors). */
  public void error(String text) {
    line(program + ": error: " + render(text));
  }

  /** Prints a warning. */
  public void warning(String text) {
    line(program + ": warning: " + render(text));
  }

  /** Prints a note. */
  public void note(String text) {
    line(program + ": note: " + render(text));
  }

  /** The stream diagnostics go to (stderr: stdout is protocol). */
  public PrintStream stream() {
    return err;
  }

  /** Prints a verbose line as is. */
  public void verbose(String text) {
    line(text);
  }

  /** Prints a child's captured output unchanged. */
  public void raw(String text) {
    synchronized (err) {
      err.print(text);
      err.flush();
    }
  }

  private void line(String text) {
    synchronized (err) {
      err.print(text + "\n");
      err.flush();
    }
  }
}
