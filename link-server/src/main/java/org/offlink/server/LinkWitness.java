package org.offlink.server;

import java.nio.file.Path;

/**
 * What a link tells its client as it runs, so that the client can end the link's children and
 * remove its files should the server die in the middle (a server SIGKILLed has no chance to).
 */
public interface LinkWitness {
  /** The link started a child as the leader of process group {@code pgid}. */
  void childGroup(long pgid);

  /** The leader of group {@code pgid} has been waited for. */
  void childGroupDone(long pgid);

  /** The link created {@code file} (absolute), to be removed if the link is interrupted. */
  void tempFile(Path file);

  /** {@code file} was removed or handed on: it is no longer the client's to remove. */
  void tempFileDone(Path file);

  /** A witness that tells no one. */
  LinkWitness NONE =
      new LinkWitness() {
        @Override
        public void childGroup(long pgid) {}

        @Override
        public void childGroupDone(long pgid) {}

        @Override
        public void tempFile(Path file) {}

        @Override
        public void tempFileDone(Path file) {}
      };
}
