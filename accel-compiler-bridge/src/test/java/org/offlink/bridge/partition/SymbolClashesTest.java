package org.offlink.bridge.partition;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.offlink.bridge.partition.PartitionSymbols.Linkage;

class SymbolClashesTest {
  private static PartitionSymbols part(
      Map<String, Linkage> defined, Set<String> mentioned, Set<String> registered) {
    return new PartitionSymbols(defined, mentioned, registered);
  }

  private static List<String> pairs(PartitionSymbols... parts) {
    List<String> out = new ArrayList<>();
    for (int[] p : SymbolClashes.find(List.of(parts))) {
      out.add(Math.min(p[0], p[1]) + "-" + Math.max(p[0], p[1]));
    }
    return out.stream().distinct().sorted().toList();
  }

  @Test
  void twoStrongDefinitionsClash() {
    // static compute() with a target region in two units: two .visible .entry on nvptx
    PartitionSymbols a =
        part(Map.of("compute$_omp_fn$0", Linkage.GLOBAL), Set.of(), Set.of("compute$_omp_fn$0"));
    PartitionSymbols b =
        part(Map.of("compute$_omp_fn$0", Linkage.GLOBAL), Set.of(), Set.of("compute$_omp_fn$0"));
    PartitionSymbols c = part(Map.of("other", Linkage.GLOBAL), Set.of(), Set.of());
    assertEquals(List.of("0-1"), pairs(a, b, c));
  }

  @Test
  void weakDuplicatesAreTheLinkersToPick() {
    PartitionSymbols a = part(Map.of("_Z3maxii", Linkage.WEAK), Set.of(), Set.of());
    PartitionSymbols b = part(Map.of("_Z3maxii", Linkage.WEAK), Set.of(), Set.of());
    PartitionSymbols c = part(Map.of("_Z3maxii", Linkage.GLOBAL), Set.of(), Set.of());
    assertTrue(pairs(a, b, c).isEmpty());
  }

  @Test
  void aRegisteredStaticMustBeTheOnlySymbolOfItsName() {
    // static int cnt (declare target) in two units: VAR_MAP "cnt" twice in the linked module
    PartitionSymbols a = part(Map.of("cnt", Linkage.LOCAL), Set.of(), Set.of("cnt"));
    PartitionSymbols b = part(Map.of("cnt", Linkage.LOCAL), Set.of(), Set.of("cnt"));
    assertEquals(List.of("0-1"), pairs(a, b));
    // ... also when the other unit only mentions a public one of the same name
    PartitionSymbols c = part(Map.of(), Set.of("cnt"), Set.of());
    assertEquals(List.of("0-1"), pairs(a, c));
  }

  @Test
  void aRegisteredPublicSymbolMayBeUsedElsewhereButNotShadowedByAStatic() {
    PartitionSymbols defines = part(Map.of("gvar", Linkage.GLOBAL), Set.of(), Set.of("gvar"));
    PartitionSymbols uses = part(Map.of(), Set.of("gvar"), Set.of());
    assertTrue(pairs(defines, uses).isEmpty());
    PartitionSymbols shadows = part(Map.of("gvar", Linkage.LOCAL), Set.of(), Set.of());
    assertEquals(List.of("0-2"), pairs(defines, uses, shadows));
  }

  @Test
  void unregisteredStaticsOfTheSameNameStayLocalToTheirModules() {
    PartitionSymbols a = part(Map.of("helper$constprop$0", Linkage.LOCAL), Set.of(), Set.of());
    PartitionSymbols b = part(Map.of("helper$constprop$0", Linkage.LOCAL), Set.of(), Set.of());
    assertTrue(pairs(a, b).isEmpty());
  }
}
