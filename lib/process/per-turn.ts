/**
 * Collects what is pushed in one turn of the event loop and hands it on as one batch at
 * its end (setImmediate): the outbox's requests and its answers cross between threads
 * this way, one postMessage (a copy and a wake-up of the other thread) per turn rather
 * than per email, and the accepts' quiet-hours reads go to the store as one query
 * (lib/notifications/quiet-hours.ts).
 */
export function perTurn<T>(flush: (batch: T[]) => void): (item: T) => void {
	let batch: T[] | null = null;
	return item => {
		if (batch) {
			batch.push(item);
			return;
		}
		const mine = [item];
		batch = mine;
		setImmediate(() => {
			batch = null;
			flush(mine);
		});
	};
}
