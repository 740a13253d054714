/**
 * Calls the platform through the SDK's fetch (the Bearer token in a header, refreshed
 * when it expires; never in an address) and reads problem documents as errors.
 */
import { ApiError, type Client } from "./client.js";

export type { Client };

export async function call<T>(client: Client, path: string, init: RequestInit = {}): Promise<T> {
	const headers = init.body ? { "content-type": "application/json" } : undefined;
	const res = await client.fetch(path, { ...init, headers });
	if (res.status === 204) return undefined as T;
	const body = res.headers.get("content-type")?.includes("json") ? await res.json() : null;
	if (!res.ok) throw new ApiError(res.status, body ?? undefined);
	return body as T;
}

export const enc = encodeURIComponent;

export function message(err: unknown): string {
	if (err instanceof ApiError) return `${err.message} (${err.status} ${err.code})`;
	return err instanceof Error ? err.message : String(err);
}
