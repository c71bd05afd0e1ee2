package org.offlink.ltowrapper.plan;

import java.util.Objects;
import java.util.Optional;

/**
 * What the link produces, decided once: the kind ({@code -flinker-output=} among the arguments, as
 * the plugin passes it; else what the link options say: {@code dyn} for {@code -shared}, {@code
 * exec} for {@code -no-pie} or {@code -static}, {@code pie} for {@code -pie} or {@code
 * -static-pie}; else unknown), and whether it is relocatable ({@code -flinker-output=rel} among the
 * arguments or the link options: LTO runs unpartitioned, early debug sections keep their names).
 *
 * @param kind the {@code -flinker-output=} kind, if known
 * @param relocatable a {@code ld -r} link
 */
public record LinkerOutput(Optional<String> kind, boolean relocatable) {
  /** Checks the fields. */
  public LinkerOutput {
    Objects.requireNonNull(kind, "kind");
  }

  /** Whether the link is known to make a position-dependent executable. */
  public boolean positionDependentExecutable() {
    return kind.orElse("").equals("exec");
  }
}
