/**
 * How an accepting node tells the dispatchers that something was queued (the
 * "notifications.queued" event). A wake goes out at once, then at most one per window
 * however many notifications arrive: a trailing wake follows every burst, so none waits
 * for a dispatcher's poll, and a busy dispatcher is not flooded with events it drains
 * anyway. An urgent wake (lib/notifications/dispatcher.ts) is not held back by the window
 * the first time in it, and makes the trailing wake urgent when it is.
 */
import type { Priority } from "./model";

/** Priorities whose notification should not wait for a dispatcher's batched claim. */
export function isUrgent(priority: Priority | undefined): boolean {
	return priority === "CRITICAL" || priority === "HIGH";
}

export class DispatcherWakes {
	private timer: NodeJS.Timeout | null = null;
	/** Wakes that came during the window: one more goes out when it ends (urgent if any of them was). */
	private again = false;
	private againUrgent = false;
	/** An urgent wake went out in this window: another one waits for its end. */
	private urgentSent = false;

	constructor(
		private readonly emit: (urgent: boolean) => void,
		private readonly windowMs = 5
	) {}

	wake(urgent = false): void {
		if (this.timer && !(urgent && !this.urgentSent)) {
			this.again = true;
			this.againUrgent ||= urgent;
			return;
		}
		this.emit(urgent);
		if (urgent) this.urgentSent = true;
		if (this.timer) return;
		this.timer = setTimeout(() => {
			this.timer = null;
			this.urgentSent = false;
			if (!this.again) return;
			const urgentAgain = this.againUrgent;
			this.again = false;
			this.againUrgent = false;
			this.wake(urgentAgain);
		}, this.windowMs);
	}

	stop(): void {
		if (this.timer) clearTimeout(this.timer);
		this.timer = null;
		this.again = false;
		this.againUrgent = false;
		this.urgentSent = false;
	}
}
