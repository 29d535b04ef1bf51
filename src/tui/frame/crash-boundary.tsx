import { Component, type ReactNode } from 'react';

interface CrashBoundaryProps {
  readonly onCrash: (error: unknown) => void;
  readonly children: ReactNode;
}

/**
 * Ends the screen through `onCrash` when drawing it throws (a session's payload that is not JSON,
 * say: replayed-entry.ts), so tole prints the error's own words and exits, instead of Ink drawing
 * its error overlay with a stack trace. Reported after the commit that caught it, so the screen's
 * owner can unmount it (the first frame is drawn inside `render`).
 */
export class CrashBoundary extends Component<CrashBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: unknown): void {
    queueMicrotask(() => this.props.onCrash(error));
  }

  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}
