package org.offlink.it.cyclefixture.b;

import org.offlink.it.cyclefixture.a.A;

/** The other half of the deliberate package cycle. */
public final class B {
  /** Uses the other package. */
  public A other() {
    return new A();
  }
}
