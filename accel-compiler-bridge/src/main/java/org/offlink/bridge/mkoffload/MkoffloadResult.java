package org.offlink.bridge.mkoffload;

import java.util.Objects;
import java.util.Optional;
import org.offlink.bridge.image.DeviceImage;

/**
 * What one {@link Mkoffload} run ended with: its exit status (0, or 1 after a diagnostic); when it
 * succeeded, the device image it wrapped into the output object; when it failed, why.
 *
 * @param status the exit status
 * @param image the image built, on success
 * @param failure why the run failed, on failure
 */
public record MkoffloadResult(
    int status, Optional<DeviceImage> image, Optional<MkoffloadFailure> failure) {
  /** Checks the fields. */
  public MkoffloadResult {
    Objects.requireNonNull(image, "image");
    Objects.requireNonNull(failure, "failure");
  }

  /** A run that built {@code image}. */
  public static MkoffloadResult built(DeviceImage image) {
    return new MkoffloadResult(0, Optional.of(image), Optional.empty());
  }

  /** A run that failed (status 1) for {@code failure}. */
  public static MkoffloadResult failed(MkoffloadFailure failure) {
    return new MkoffloadResult(1, Optional.empty(), Optional.of(failure));
  }
}
