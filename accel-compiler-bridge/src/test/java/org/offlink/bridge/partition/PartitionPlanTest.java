package org.offlink.bridge.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class PartitionPlanTest {
  @Test
  void theFirstPlanDependsOnTheInputCountOnly() {
    assertEquals(List.of(new Partition(0, 1)), PartitionPlan.initial(1).partitions());
    PartitionPlan twenty = PartitionPlan.initial(20);
    assertEquals(20, twenty.partitions().size());
    assertTrue(twenty.partitions().stream().allMatch(p -> p.size() == 1));
    PartitionPlan thousand = PartitionPlan.initial(1000);
    assertEquals(PartitionPlan.MAX_PARTITIONS, thousand.partitions().size());
    assertEquals(new Partition(0, 32), thousand.partitions().get(0));
    assertEquals(new Partition(992, 1000), thousand.partitions().get(31));
    assertEquals(thousand, PartitionPlan.initial(1000), "deterministic");
  }

  @Test
  void mergingJoinsEverythingBetweenTheTwoSoTheTablesKeepTheirOrder() {
    PartitionPlan plan = PartitionPlan.initial(8); // 8 partitions of one input
    PartitionPlan merged = plan.merge(List.of(new int[] {5, 2}, new int[] {6, 7}));
    assertEquals(
        List.of(new Partition(0, 1), new Partition(1, 2), new Partition(2, 6), new Partition(6, 8)),
        merged.partitions());
    assertEquals(plan, plan.merge(List.of()));
    assertTrue(plan.merge(List.of(new int[] {0, 7})).isWhole());
    assertEquals(PartitionPlan.whole(8), plan.merge(List.of(new int[] {7, 0})));
  }

  @Test
  void plansMustTileTheInputs() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new PartitionPlan(3, List.of(new Partition(0, 1), new Partition(2, 3))));
    assertThrows(
        IllegalArgumentException.class, () -> new PartitionPlan(3, List.of(new Partition(0, 2))));
    assertThrows(IllegalArgumentException.class, () -> new Partition(2, 2));
    assertThrows(IllegalArgumentException.class, () -> PartitionPlan.initial(0));
  }
}
