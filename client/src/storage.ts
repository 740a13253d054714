/** Where the client keeps the session: pluggable, memory by default, Web Storage in browsers. */

/** Where the session is kept. Values are strings; methods may be async. */
export interface TokenStorage {
	get(key: string): string | null | Promise<string | null>;
	set(key: string, value: string): void | Promise<void>;
	remove(key: string): void | Promise<void>;
}

/** The default: the session lives as long as the client object. */
export function memoryStorage(): TokenStorage {
	const data = new Map<string, string>();
	return { get: k => data.get(k) ?? null, set: (k, v) => void data.set(k, v), remove: k => void data.delete(k) };
}

/** localStorage (or another Web Storage): the session survives reloads and is shared by the origin's tabs. */
export function webStorage(storage: WebStorageLike = (globalThis as { localStorage?: WebStorageLike }).localStorage!): TokenStorage {
	return { get: k => storage.getItem(k), set: (k, v) => storage.setItem(k, v), remove: k => storage.removeItem(k) };
}

/** The part of Web Storage (localStorage, sessionStorage) used here. */
export interface WebStorageLike {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
	removeItem(key: string): void;
}
