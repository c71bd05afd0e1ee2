package org.offlink.ltowrapper.options;

/** How an option takes its argument, as in GCC's {@code .opt} files. */
public enum ArgKind {
  /** A flag: {@code -fopenmp}. */
  NONE,
  /** Argument glued to the spelling: {@code -foffload-abi=lp64}. */
  JOINED,
  /** An optional decimal level glued to the spelling: {@code -O}, {@code -O2}, {@code -g0}. */
  LEVEL,
  /** Argument in the next word: {@code -dumpdir x.}. */
  SEPARATE,
  /** Either form; canonicalised to two words: {@code -o x}, {@code -L/lib}. */
  JOINED_OR_SEPARATE
}
