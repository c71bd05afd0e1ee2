package org.offlink.bridge.wrapper;

/** The text both GCC 12 C generators end with: declarations, constructor and destructor. */
final class WrapperSourceText {
  private WrapperSourceText() {}

  /**
   * Appends the {@code extern "C"} declarations, {@code __OFFLOAD_TABLE__} and {@code init}/{@code
   * fini}. {@code blankAfterEndif} mirrors the gcn generator's extra empty line; the stray {@code
   * ;} after each body is in GCC's output too.
   */
  static void appendRegistration(
      StringBuilder out, int version, int device, String deviceComment, boolean blankAfterEndif) {
    appendRegistration(out, version, device, deviceComment, blankAfterEndif, "target_data", false);
  }

  /**
   * {@link #appendRegistration(StringBuilder, int, int, String, boolean)} passing {@code &dataName}
   * ({@code target_data} in GCC 12, {@code nvptx_data}/{@code gcn_data} from 13); with {@code
   * callsSetup} (GCC 16's gcn) {@code init} first calls {@code mkoffload_setup ()}.
   */
  static void appendRegistration(
      StringBuilder out,
      int version,
      int device,
      String deviceComment,
      boolean blankAfterEndif,
      String dataName,
      boolean callsSetup) {
    out.append("#ifdef __cplusplus\nextern \"C\" {\n#endif\n");
    out.append(
        "extern void GOMP_offload_register_ver (unsigned, const void *, int, const void *);\n");
    out.append(
        "extern void GOMP_offload_unregister_ver (unsigned, const void *, int, const void *);\n");
    out.append("#ifdef __cplusplus\n}\n#endif\n");
    if (blankAfterEndif) {
      out.append('\n');
    }
    out.append("extern const void *const __OFFLOAD_TABLE__[];\n\n");
    String call = String.format("%#x", version) + ", __OFFLOAD_TABLE__, " + device;
    call += "/*" + deviceComment + "*/, &" + dataName;
    String setup = callsSetup ? "  mkoffload_setup ();\n" : "";
    appendFunction(out, "constructor", "init", setup, "GOMP_offload_register_ver", call);
    appendFunction(out, "destructor", "fini", "", "GOMP_offload_unregister_ver", call);
  }

  private static void appendFunction(
      StringBuilder out,
      String attribute,
      String name,
      String firstLines,
      String callee,
      String arguments) {
    out.append("static __attribute__((").append(attribute).append(")) void ").append(name);
    out.append(" (void)\n{\n").append(firstLines);
    out.append("  ").append(callee).append(" (").append(arguments).append(");\n};\n");
  }

  /** {@code name} as the body of a C string literal ({@code "} and {@code \} escaped). */
  static String quote(String name) {
    return name.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
