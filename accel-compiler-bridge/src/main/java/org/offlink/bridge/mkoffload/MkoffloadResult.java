package org.offlink.bridge.mkoffload;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.image.DeviceImage;

/**
 * What one {@link Mkoffload} run ended with: its exit status (0, or 1 after a diagnostic) and, when
 * it built one, the device image it wrapped into the output object.
 */
public record MkoffloadResult(int status, Optional<DeviceImage> image) {
  /** Checks the fields. */
  public MkoffloadResult {
    Objects.requireNonNull(image, "image");
  }

  /** A run that failed with {@code status} before any image existed. */
  public static MkoffloadResult failed(int status) {
    return new MkoffloadResult(status, Optional.empty());
  }
}
