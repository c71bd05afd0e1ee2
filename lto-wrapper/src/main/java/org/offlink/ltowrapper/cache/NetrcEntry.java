package org.offlink.ltowrapper.cache;

import java.util.Objects;

/**
 * The login a netrc file gives for one machine. {@link #toString} hides the password.
 *
 * @param login the user name
 * @param password the password
 */
record NetrcEntry(String login, String password) {
  /** Checks the fields. */
  NetrcEntry {
    Objects.requireNonNull(login, "login");
    Objects.requireNonNull(password, "password");
  }

  @Override
  public String toString() {
    return "NetrcEntry[login=" + login + ", password=***]";
  }
}
