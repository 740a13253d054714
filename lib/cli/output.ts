/**
 * How the command line answers: an outcome per command, printed as text for a person
 * or as one JSON document with --json; exit code 0 when it went well, 1 when it did
 * not (the platform refused, a dependency is down, doctor found a problem), 2 for a
 * command line that cannot be run (unknown command or option, a missing argument).
 */

export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export interface Outcome {
	/** What --json prints. */
	json: unknown;
	/** What a person reads. */
	text: string;
	/** False makes the exit code 1 while still printing the outcome (doctor's problems, a failed send). */
	ok?: boolean;
}

/** The command line cannot be run as written: exit 2 with the usage hint. */
export class UsageError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "UsageError";
	}
}

/** The command ran and failed: exit 1. `code` is the platform's problem code, or the CLI's own. */
export class CommandFailure extends Error {
	constructor(
		message: string,
		readonly code: string,
		readonly status?: number,
		/** What to do about it, when the CLI can tell. */
		readonly fix?: string
	) {
		super(message);
		this.name = "CommandFailure";
	}
}

/** Rows as aligned columns under a header; "(none)" for no rows. */
export function table(headers: string[], rows: (string | number | boolean | undefined)[][]): string {
	if (rows.length === 0) return "(none)";
	const cells = [headers, ...rows.map(r => r.map(c => (c === undefined ? "" : String(c))))];
	const widths = headers.map((_, i) => Math.max(...cells.map(r => r[i]?.length ?? 0)));
	return cells.map(r => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join("  ")).join("\n");
}

/** "key: value" lines, skipping absent values. */
export function fields(entries: Record<string, unknown>): string {
	return Object.entries(entries)
		.filter(([, v]) => v !== undefined)
		.map(([k, v]) => `${k}: ${typeof v === "object" ? JSON.stringify(v) : String(v)}`)
		.join("\n");
}
