package org.offlink.ltowrapper.options;

/** {@code -fcf-protection=} values as GCC's bit set ({@code CF_NONE} .. {@code CF_CHECK}). */
final class CfProtection {
  static final int NONE = 0;
  static final int BRANCH = 1;
  static final int RETURN = 2;
  static final int FULL = 3;
  static final int CHECK = 4;

  private CfProtection() {}

  static int bits(String arg) {
    switch (arg) {
      case "branch":
        return BRANCH;
      case "return":
        return RETURN;
      case "full":
        return FULL;
      case "check":
        return CHECK;
      default:
        return NONE;
    }
  }

  static String name(int bits) {
    switch (bits) {
      case BRANCH:
        return "branch";
      case RETURN:
        return "return";
      case FULL:
        return "full";
      case CHECK:
        return "check";
      default:
        return "none";
    }
  }
}
