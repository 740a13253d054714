/**
 * The JSON text of results that never change, made once.
 *
 * A service that keeps a result in memory and answers many reads with the same object
 * (the actors service's profiles) enters it here with `immutable`: the object is
 * frozen, and so is everything in it, so the text made from it now is the text of
 * every later answer. The gateway's `encodeResponse` (moleculer-web's hook for turning
 * a result into the body) asks `jsonText` first, and serializes as before any object
 * that was not entered. The object still travels as the call's result, through the
 * broker, to the gateway; only the serializing is not repeated.
 *
 * Over NATS the gateway receives a new object per call, which was never entered, so
 * only callers in the same process as the service are answered from here. Entries are
 * held weakly: a result dropped by its service's cache goes with its text.
 */
const texts = new WeakMap<object, string>();

/**
 * Plain data only: objects, arrays and primitives. Freezing does not reach the inside
 * of a Date, a Map or a Buffer (setTime still works), so their text could go stale.
 */
function freezeDeep(value: unknown): void {
	if (typeof value !== "object" || value === null) return;
	const proto: unknown = Object.getPrototypeOf(value);
	if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) {
		throw new TypeError("immutable() takes plain objects, arrays and primitives only");
	}
	Object.freeze(value);
	for (const v of Object.values(value)) freezeDeep(v);
}

/** Freezes `value` (deeply) and keeps its JSON text; returns it, for use in an expression. */
export function immutable<T extends object>(value: T): T {
	freezeDeep(value);
	texts.set(value, JSON.stringify(value));
	return value;
}

/** The kept text of an object entered with `immutable`, else JSON.stringify's. */
export function jsonText(value: unknown): string {
	if (typeof value === "object" && value !== null) {
		const text = texts.get(value);
		if (text !== undefined) return text;
	}
	return JSON.stringify(value);
}
