package org.offlink.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The committed seeds of {@link CacheEntryFuzzer} are what {@link CacheEntrySeeds} makes. */
class CacheEntrySeedsTest {
  @Test
  void theCommittedSeedsAreTheGeneratorsOutput() throws Exception {
    for (Map.Entry<String, byte[]> seed : CacheEntrySeeds.all().entrySet()) {
      try (InputStream in =
          CacheEntrySeedsTest.class.getResourceAsStream(
              CacheEntrySeeds.FOLDER + "/" + seed.getKey())) {
        assertNotNull(in, seed.getKey() + " is not committed (run CacheEntrySeeds.main)");
        assertArrayEquals(seed.getValue(), in.readAllBytes(), seed.getKey());
      }
    }
  }
}
