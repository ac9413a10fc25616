/**
 * Embedded mode's announcements of claimable jobs: every runner is in this process, so a listener set will do.
 * Called later, not inline: the announcer finishes its own step before the runners run theirs.
 */
export class LocalAnnouncer {
  private readonly listeners = new Set<() => void>();

  announce(): void {
    if (this.listeners.size === 0) return;
    queueMicrotask(() => {
      for (const l of this.listeners) l();
    });
  }

  async watch(onJob: () => void): Promise<() => Promise<void>> {
    const l = () => onJob();
    this.listeners.add(l);
    return async () => {
      this.listeners.delete(l);
    };
  }
}
