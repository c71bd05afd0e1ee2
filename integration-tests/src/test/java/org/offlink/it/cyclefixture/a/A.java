package org.offlink.it.cyclefixture.a;

import org.offlink.it.cyclefixture.b.B;

/** Half of a deliberate package cycle: PackageCyclesTest checks that its rule reports it. */
public final class A {
  /** Uses the other package. */
  public B other() {
    return new B();
  }
}
