import { KeyedMutex } from '../vcs/repository-lock';

// One operation at a time per component in this process (import, scan, pull, commit, push, reset): they all
// read and write the same working copy and the same unit rows. Not re-entrant: code already holding the lock
// calls the *Locked variants of the other operations.

const componentLocks = new KeyedMutex();

export function withComponentLock<T>(componentId: number, work: () => Promise<T>): Promise<T> {
  return componentLocks.withLock(String(componentId), work);
}
